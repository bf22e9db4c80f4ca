// Quick pairing in the lobby (issue 24): choose a game, a real-time control (3+2, 5+3, 10+5 or custom) and rated
// or casual, press "Quick pairing" and wait (the time waited shown, Cancel at hand) until the server pairs you with
// a player of that pool; then the table opens with your seat's token kept as for a room you made. Each pool's players
// waiting and matches going on are listed. The seek's secret (X-Seek-Secret) is the seat's token once paired.
import { account } from "./account.js";
import { csrfHeaders } from "./api.js";
import { PRESETS, controlText } from "./clock.js";
import { h } from "./dom.js";
import { _, language } from "./i18n.js";
import { go } from "./nav.js";

const ASK_EVERY_MS = 1000;

// This browser's id as a guest of the pools (a guest waits once per pool: the server tells guests apart by it).
function guestId() {
  let id = localStorage.getItem("flametable.guest");
  if (!id || !/^[A-Za-z0-9_-]{8,64}$/.test(id)) {
    id = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem("flametable.guest", id);
  }
  return id;
}

async function call(method, path, body, secret) {
  const headers = { "x-guest-id": guestId(), ...(method === "GET" ? {} : csrfHeaders()) };
  if (secret) headers["x-seek-secret"] = secret;
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${path}${path.includes("?") ? "&" : "?"}lang=${language()}`, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) {
    const error = new Error(data.message);
    error.code = data.error;
    error.data = data;
    throw error;
  }
  return data;
}

function waitedText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// The quick pairing section of the lobby: mount(games) gives [section, leave].
export function quickPairing(games) {
  const titles = Object.fromEntries(games.map((g) => [g.name, g.title]));
  const game = h("select", { name: "pair-game", id: "pair-game" }, games.map((g) => h("option", { value: g.name }, g.title)));
  const clock = h("select", { name: "pair-clock", id: "pair-clock" },
    PRESETS.map(([m, s]) => h("option", { value: `${m}:${s}` }, _("{minutes}+{increment} (real time)", { minutes: m, increment: s }))),
    h("option", { value: "custom" }, _("Custom real time…")));
  const minutes = h("input", { type: "number", name: "pair-minutes", id: "pair-minutes", min: "1", max: "60", step: "1", value: "1" });
  const increment = h("input", { type: "number", name: "pair-increment", id: "pair-increment", min: "0", max: "60", step: "1", value: "0" });
  const custom = h("div", { class: "custom-clock", hidden: true },
    h("label", {}, _("Minutes"), " ", minutes), " ", h("label", {}, _("Seconds added per decision"), " ", increment));
  clock.addEventListener("change", () => { custom.hidden = clock.value !== "custom"; });
  const rated = h("input", { type: "checkbox", name: "pair-rated", id: "pair-rated" });
  const ratedChoice = h("div", { class: "rated-choice" }, h("label", { for: "pair-rated" }, rated, " ", _("Rated")));
  const start = h("button", { type: "submit", class: "primary", id: "quick-pairing" }, _("Quick pairing"));
  const cancel = h("button", { type: "button", class: "cancel-seek", hidden: true }, _("Cancel"));
  const status = h("p", { class: "seek-status", role: "status", "aria-live": "polite" });
  const elapsed = h("p", { class: "seek-elapsed hint", "aria-hidden": "true" });
  const error = h("p", { class: "error", role: "alert" });
  const pools = h("table", { class: "pools" });
  const form = h("form", { class: "quick-pairing", "aria-labelledby": "quick-pairing-title" },
    h("h2", { id: "quick-pairing-title" }, _("Quick pairing")),
    h("p", { class: "hint" }, _("Play the next player who wants the same game and clock, of a rating near yours.")),
    h("label", { for: "pair-game" }, _("Game")), game,
    h("label", { for: "pair-clock" }, _("Time control")), clock, custom, ratedChoice,
    h("div", { class: "actions" }, start, cancel), status, elapsed, error);
  const section = h("section", { class: "pairing" }, form,
    h("h3", { id: "pools-title" }, _("Pools")), pools);

  let seek = null; // {seek, secret, since}
  let timer = null;
  let poolTimer = null;
  const showRated = () => { ratedChoice.hidden = !account(); if (!account()) rated.checked = false; };
  const readClock = () => {
    if (clock.value !== "custom") {
      const [m, s] = clock.value.split(":").map(Number);
      return { kind: "fischer", minutes: m, increment: s };
    }
    const number = (field) => (/^\d+$/.test(field.value.trim()) ? Number(field.value) : field.value);
    return { kind: "fischer", minutes: number(minutes), increment: number(increment) };
  };
  const waitingShown = (waiting) => {
    for (const field of [game, clock, minutes, increment, rated]) field.disabled = waiting;
    start.hidden = waiting;
    cancel.hidden = !waiting;
  };
  const stopAsking = () => { if (timer) clearTimeout(timer); timer = null; };
  const ended = (text) => {
    stopAsking();
    seek = null;
    waitingShown(false);
    elapsed.textContent = "";
    status.textContent = text;
  };
  const ask = async () => {
    timer = null;
    if (!seek) return;
    const mine = seek;
    try {
      const got = await call("GET", `/api/seeks/${mine.seek}`, undefined, mine.secret);
      if (seek !== mine) return;
      if (got.status === "paired") {
        localStorage.setItem(`flametable.seat.${got.room}`, got.token);
        ended(_("Paired: your match begins."));
        go(got.link);
        return;
      }
      if (got.status === "cancelled" || got.status === "expired") {
        ended(_("You are no longer waiting."));
        return;
      }
      elapsed.textContent = _("Waiting {time}", { time: waitedText(got.waited) });
    } catch (err) {
      if (seek !== mine) return;
      if (err.code === "no_seek") {
        ended(err.message);
        return;
      }
      error.textContent = err.message;
    }
    if (seek === mine) timer = setTimeout(ask, ASK_EVERY_MS);
  };
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    if (seek) return;
    const body = { game: game.value, clock: readClock(), rated: !ratedChoice.hidden && rated.checked };
    try {
      const made = await call("POST", "/api/seeks", body);
      seek = { seek: made.seek, secret: made.secret };
      waitingShown(true);
      status.textContent = _("Waiting for a player: {game}, {clock}, {kind}.", {
        game: titles[made.game] || made.game, clock: controlText(made.clock),
        kind: made.rated ? _("rated") : _("casual") });
      elapsed.textContent = _("Waiting {time}", { time: waitedText(0) });
      cancel.focus();
      timer = setTimeout(ask, ASK_EVERY_MS);
    } catch (err) {
      error.textContent = err.message;
    }
  });
  cancel.addEventListener("click", async () => {
    if (!seek) return;
    const mine = seek;
    error.textContent = "";
    try {
      await call("DELETE", `/api/seeks/${mine.seek}`, undefined, mine.secret);
      ended(_("Quick pairing cancelled."));
      start.focus();
    } catch (err) {
      if (err.code === "paired" && err.data.room) { // too late: the match is there
        localStorage.setItem(`flametable.seat.${err.data.room}`, err.data.token);
        ended(_("Paired: your match begins."));
        go(err.data.link);
        return;
      }
      error.textContent = err.message;
    }
  });
  const refreshPools = async () => {
    poolTimer = null;
    try {
      const { pools: rows } = await call("GET", "/api/pools");
      pools.replaceChildren(
        h("caption", { class: "sr-only" }, _("Pools")),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, _("Game")), h("th", { scope: "col" }, _("Time control")),
          h("th", { scope: "col" }, _("Rated or casual")), h("th", { scope: "col" }, _("Waiting")),
          h("th", { scope: "col" }, _("Playing")))),
        h("tbody", {}, rows.map((p) => h("tr", { dataset: { pool: p.pool } },
          h("td", {}, p.title), h("td", {}, controlText(p.clock)), h("td", {}, p.rated ? _("rated") : _("casual")),
          h("td", { class: "waiting" }, String(p.waiting)), h("td", { class: "playing" }, String(p.playing))))));
    } catch {
      // the pools are news only: the next refresh tries again
    }
    poolTimer = setTimeout(refreshPools, 3000);
  };
  showRated();
  refreshPools();
  const leave = () => {
    stopAsking();
    if (poolTimer) clearTimeout(poolTimer);
    poolTimer = null;
    if (seek) { // leaving the lobby while waiting: the seek is cancelled (else it expires unasked)
      const mine = seek;
      seek = null;
      call("DELETE", `/api/seeks/${mine.seek}`, undefined, mine.secret).catch(() => {});
    }
  };
  return [section, leave, showRated];
}
