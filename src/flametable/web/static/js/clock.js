// The match's clocks at the table (issue 24), a module of its own: the table gives each player's name a slot
// (slot(seat)), a box for the claim when the other player has left (box), and every server message (take(msg)).
// The server is the only clock: each event (and the "clock" message after a hello) carries both seats' time left
// and whose clock runs; this module only counts a running clock down from when the message came, red under 10 s,
// told to screen readers at 60 s and 10 s. And the lobby's choice of a time control (timeControlField).
import { fill, h } from "./dom.js";
import { _ } from "./i18n.js";

export const PRESETS = [[3, 2], [5, 3], [10, 5]];
export const TURN_DAYS = [1, 3, 7];
const LOW_MS = 10_000;
const MARKS = [60_000, 10_000]; // told to screen readers as a running clock passes them
const TICK_MS = 100;

// A time as a clock shows it: 2:57.5 under an hour, 1:02:03 above, 3d 04:05 above a day.
export function clockText(ms) {
  const total = Math.max(0, Math.floor(ms / 100));
  const tenths = total % 10;
  const seconds = Math.floor(total / 10);
  const secs = seconds % 60;
  const minutes = Math.floor(seconds / 60);
  const mins = minutes % 60;
  const hours = Math.floor(minutes / 60);
  const days = Math.floor(hours / 24);
  const two = (n) => String(n).padStart(2, "0");
  if (days) return `${days}d ${two(hours % 24)}:${two(mins)}`;
  if (hours) return `${hours}:${two(mins)}:${two(secs)}`;
  return `${minutes}:${two(secs)}.${tenths}`;
}

// A time control in words: "3+2", "3 days per decision", "Untimed".
export function controlText(control) {
  if (!control) return _("Untimed");
  if (control.kind === "fischer") return `${control.minutes}+${control.increment}`;
  return control.days === 1 ? _("1 day per decision") : _("{n} days per decision", { n: control.days });
}

// Each seat's time left at `now` (ms, performance.now()'s), from the clocks `state` got at `state.at`.
export function leftNow(state, now) {
  const spent = Math.max(0, now - state.at);
  return state.remaining.map((left, seat) => (state.running.includes(seat) ? Math.max(0, left - spent) : left));
}

// The marks (60 s, 10 s) a clock passed going from `before` to `after` ms left.
export function passed(before, after) {
  return MARKS.filter((mark) => before > mark && after <= mark);
}

// Whether a clock going from `before` to `after` ms left fell under 10 s just now (the table's sound, if chosen).
export function fellLow(before, after) {
  return before >= LOW_MS && after < LOW_MS;
}

// The lobby's field: untimed, a real-time preset, a custom real-time control, or days per decision.
export function timeControlField() {
  const choice = h("select", { name: "clock", id: "clock" },
    h("option", { value: "" }, _("Untimed")),
    PRESETS.map(([m, s]) => h("option", { value: `fischer:${m}:${s}` }, _("{minutes}+{increment} (real time)", { minutes: m, increment: s }))),
    h("option", { value: "custom" }, _("Custom real time…")),
    TURN_DAYS.map((d) => h("option", { value: `turn:${d}` }, d === 1 ? _("1 day per decision") : _("{n} days per decision", { n: d }))));
  const minutes = h("input", { type: "number", name: "clock-minutes", min: "1", max: "60", step: "1", value: "15" });
  const increment = h("input", { type: "number", name: "clock-increment", min: "0", max: "60", step: "1", value: "10" });
  const custom = h("div", { class: "custom-clock", hidden: true },
    h("label", {}, _("Minutes"), " ", minutes), " ", h("label", {}, _("Seconds added per decision"), " ", increment));
  choice.addEventListener("change", () => { custom.hidden = choice.value !== "custom"; });
  return h("div", { class: "time-control" }, h("label", { for: "clock" }, _("Time control")), choice, custom);
}

// A rated match is played with a clock (issue 24 point 5): the choice a field says once "rated" is ticked (an
// untimed one, "", becomes 10+5; any clock stays).
export const RATED_DEFAULT = "fischer:10:5";
export function ratedValue(value) {
  return value || RATED_DEFAULT;
}

// The field of timeControlField() while `rated()` may change: call the function returned whenever it does. Rated,
// "Untimed" is not offered (an untimed choice moves to 10+5) and a hint next to the field says why.
export function clockForRated(field, rated) {
  const choice = field.querySelector("select");
  const untimed = choice.querySelector('option[value=""]');
  const why = h("p", { class: "hint rated-clock", hidden: true }, _("A rated match is played with a clock: untimed is not offered."));
  choice.after(why);
  const update = () => {
    const on = Boolean(rated());
    untimed.disabled = on;
    untimed.hidden = on;
    why.hidden = !on;
    if (on && choice.value !== ratedValue(choice.value)) {
      choice.value = ratedValue(choice.value);
      choice.dispatchEvent(new Event("change"));
    }
  };
  update();
  return update;
}

// The time control the lobby's field says, as POST /api/rooms takes it (null: untimed); the server checks it.
export function readTimeControl(form) {
  const field = form.elements.namedItem("clock");
  const value = field ? field.value : "";
  if (!value) return null;
  if (value === "custom") {
    const number = (name) => { const text = form.elements.namedItem(name).value.trim(); return /^\d+$/.test(text) ? Number(text) : text; };
    return { kind: "fischer", minutes: number("clock-minutes"), increment: number("clock-increment") };
  }
  const [kind, a, b] = value.split(":");
  return kind === "turn" ? { kind, days: Number(a) } : { kind, minutes: Number(a), increment: Number(b) };
}

// Both seats' clocks and the claim of a table. nameOf(seat): a seat's name as the table shows it; mySeat(): the
// reader's seat (null: watching); rated: a rated match (no bot takes a seat then); claim(take): send the claim;
// low(): the reader's own running clock fell under 10 s (the table sounds it if the player chose sounds).
export class TableClocks {
  constructor({ announce, nameOf, mySeat, rated, claim, low = () => {} }) {
    Object.assign(this, { announce, nameOf, mySeat, rated, claim, low });
    this.state = null; // {control, remaining, running, at}
    this.control = null;
    this.over = false;
    this.away = {}; // seat: when (performance.now()) the other may claim
    this.slots = [0, 1].map((seat) => h("span", { class: "clock", hidden: true, role: "timer", "aria-live": "off",
      "data-seat": String(seat) }));
    this.box = h("div", { class: "claim", hidden: true }); // its countdown is not read out each second
    this.shownBox = "";
    this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  slot(seat) {
    return this.slots[seat];
  }

  take(msg) {
    const now = performance.now();
    if (msg.type === "welcome") {
      this.control = msg.clock || null;
      this.over = msg.status !== "playing";
      this.away = {};
      if (!this.control) this.state = null;
    } else if ((msg.type === "event" || msg.type === "clock") && msg.clock) {
      this.state = { ...msg.clock, at: now };
      this.control = msg.clock.control;
    } else if (msg.type === "presence") {
      this.away = {};
      (msg.away || []).forEach((left, seat) => { if (left !== null && left !== undefined) this.away[seat] = now + left * 1000; });
    } else if (msg.type === "ended") {
      if (this.state) this.state = { ...this.state, remaining: leftNow(this.state, now), running: [], at: now };
      this.over = true;
      this.away = {};
    }
    this.tick();
  }

  tick() {
    const now = performance.now();
    const left = this.state ? leftNow(this.state, now) : null;
    this.slots.forEach((el, seat) => {
      el.hidden = left === null;
      if (left === null) return;
      const running = !this.over && this.state.running.includes(seat);
      const text = clockText(left[seat]);
      if (el.textContent !== text) el.textContent = text;
      el.setAttribute("aria-label", _("{player}'s clock: {time}", { player: this.nameOf(seat), time: text }));
      el.classList.toggle("running", running);
      el.classList.toggle("low", left[seat] < LOW_MS);
      const before = el.dataset.left === undefined ? left[seat] : Number(el.dataset.left); // none told at first sight
      if (running) {
        passed(before, left[seat]).forEach((mark) => this.announce(_("{player}: {seconds} seconds left on the clock.",
          { player: this.nameOf(seat), seconds: mark / 1000 })));
        if (seat === this.mySeat() && fellLow(before, left[seat])) this.low();
      }
      el.dataset.left = String(left[seat]);
    });
    this.drawBox(now);
  }

  drawBox(now) {
    const me = this.mySeat();
    const other = me === null ? null : 1 - me;
    const until = other === null || this.over ? undefined : this.away[other];
    const seconds = until === undefined ? null : Math.max(0, Math.ceil((until - now) / 1000));
    const key = seconds === null ? "" : seconds > 0 ? `wait:${seconds}` : "claim";
    if (key === this.shownBox) return;
    this.shownBox = key;
    this.box.hidden = seconds === null;
    if (seconds === null) return;
    const name = this.nameOf(other);
    if (seconds > 0) {
      fill(this.box, h("p", {}, _("{player} has left: you may claim the win in {seconds} s.", { player: name, seconds })));
      return;
    }
    this.announce(_("{player} has left the match: you may claim the win.", { player: name }));
    fill(this.box, h("p", {}, _("{player} has left the match.", { player: name })),
      h("button", { type: "button", class: "claim-win primary", onclick: () => this.claim("win") }, _("Claim the win")),
      this.rated ? null : h("button", { type: "button", class: "claim-bot", onclick: () => this.claim("bot") },
        _("Let a bot play for them")));
  }

  stop() {
    clearInterval(this.timer);
  }
}
