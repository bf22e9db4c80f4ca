// My matches (issue 25, point 4; issue 24, point 3), on the lobby and on one's own profile: the matches going on for
// this browser's seat tokens and, signed in, for the account (POST /api/my-matches), "Your turn" first and
// highlighted, each with its opponent, time control, time left and last move; "Continue" goes to the table (an
// account's seat held on another device gets a fresh token first), "Resign" asks first, then resigns over the
// room's socket (the table's own "resign" message). Asked again every 12 s; a new "your turn" while the tab is
// hidden puts "● Your turn — flametable" in the tab's title and, if the player chose the sound, a chime.
import { api, heldSeats, keepSeatToken, seatToken } from "./api.js";
import { clockText, controlText } from "./clock.js";
import { announce, fill, h } from "./dom.js";
import { _, language } from "./i18n.js";
import { go } from "./nav.js";
import { chime, soundOn } from "./sound.js";
import { botName } from "./turn.js";

export const POLL_MS = 12_000;
const TITLE = "flametable";

// A moment before now in words ("5 minutes ago"), for the last move.
export function agoText(seconds, now = Date.now() / 1000) {
  const rtf = new Intl.RelativeTimeFormat(language(), { numeric: "auto" });
  const passed = Math.max(0, now - seconds);
  if (passed < 60) return rtf.format(-Math.round(passed), "second");
  if (passed < 3600) return rtf.format(-Math.round(passed / 60), "minute");
  if (passed < 86400) return rtf.format(-Math.round(passed / 3600), "hour");
  return rtf.format(-Math.round(passed / 86400), "day");
}

function opponentText(opponent) {
  if (opponent.kind === "bot") return botName(opponent.bot);
  if (opponent.kind === "open") return _("nobody yet (the seat is free)");
  if (opponent.kind === "deleted") return _("a deleted player");
  if (opponent.kind === "account") return h("a", { href: opponent.profile, "data-nav": true }, opponent.name);
  return _("a guest");
}

// The keys of the matches awaiting this player: a match is new "your turn" once per decision (its count of moves).
export function turnKeys(matches) {
  return new Set(matches.filter((m) => m.my_turn).map((m) => `${m.room}/${m.match}/${m.moves}`));
}

// Resign the seat of `token` in `room`: hello, then "resign"; resolves once the match ended, rejects with the
// server's message.
function resignOver(room, token) {
  return new Promise((resolve, reject) => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/api/rooms/${encodeURIComponent(room)}/ws?lang=${language()}`);
    let sent = false;
    ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token, lang: language() }));
    ws.onmessage = (frame) => {
      const msg = JSON.parse(frame.data);
      if (msg.type === "welcome" && !sent) {
        sent = true;
        ws.send(JSON.stringify({ type: "resign" }));
      } else if (msg.type === "ended") {
        ws.close();
        resolve();
      } else if (msg.type === "error") {
        ws.close();
        reject(new Error(msg.message));
      }
    };
    ws.onerror = () => reject(new Error(_("The connection to the server was lost: try again.")));
  });
}

// The section, drawn and kept up to date until stop() (the page left).
export function myMatches({ titles = {} } = {}) {
  const list = h("div", { class: "my-matches-list" }); // redrawn at each poll: not a live region (a new turn is told)
  const error = h("p", { class: "error", role: "alert" });
  const dialog = h("dialog", { class: "confirm", "aria-labelledby": "resign-mine-title" });
  const section = h("section", { class: "my-matches", "aria-labelledby": "my-matches-title" },
    h("h2", { id: "my-matches-title" }, _("My matches")), list, error, dialog);
  let seen = null; // the "your turn" keys of the last answer (null: none yet)
  let titled = false;
  let timer = null;
  let stopped = false;

  const tokenOf = async (m) => {
    const held = seatToken(m.room);
    if (m.token && held) return held;
    const seat = await api(`/api/rooms/${m.room}/seat`, { player: m.player }); // the account's seat, here now
    keepSeatToken(m.room, seat.token);
    return seat.token;
  };
  const continueMatch = async (m) => {
    error.textContent = "";
    try {
      await tokenOf(m);
      go(m.link);
    } catch (err) {
      error.textContent = err.message;
    }
  };
  const resign = (m) => {
    fill(dialog,
      h("p", { id: "resign-mine-title" }, _("Give up this match?"), " ",
        h("span", { class: "hint" }, titles[m.game] || m.game)),
      h("div", { class: "controls" },
        h("button", { type: "button", class: "confirm-resign", onclick: async () => {
          dialog.close();
          error.textContent = "";
          try {
            await resignOver(m.room, await tokenOf(m));
          } catch (err) {
            error.textContent = err.message;
          }
          await refresh();
        } }, _("Yes, resign")),
        h("button", { type: "button", class: "keep-playing primary", autofocus: true, onclick: () => dialog.close() },
          _("Keep playing"))));
    dialog.showModal();
  };

  const row = (m) => h("li", { class: m.my_turn ? "match your-turn" : "match", dataset: { room: m.room } },
    m.my_turn ? h("span", { class: "badge turn" }, _("Your turn"))
      : h("span", { class: "hint turn" }, m.waiting ? _("waiting for a player") : _("Their turn")), " ",
    h("span", { class: "game" }, titles[m.game] || m.game), " ",
    h("span", { class: "against" }, _("against"), " ", opponentText(m.opponent)), " ",
    h("span", { class: "badge clock" }, controlText(m.clock)), " ",
    m.left_ms !== null ? [h("span", { class: "left" }, _("your time: {left}", { left: clockText(m.left_ms) })), " "] : null,
    m.last_move_at !== null ? [h("span", { class: "hint last-move" }, _("last move {when}", { when: agoText(m.last_move_at) })), " "] : null,
    h("button", { type: "button", class: "continue primary", onclick: () => continueMatch(m) }, _("Continue")), " ",
    h("button", { type: "button", class: "resign-mine", onclick: () => resign(m) }, _("Resign")));

  const tell = (matches) => {
    const keys = turnKeys(matches);
    const came = seen === null ? [] : matches.filter((m) => m.my_turn && !seen.has(`${m.room}/${m.match}/${m.moves}`));
    const fresh = came.length > 0;
    seen = keys;
    for (const m of came) announce(_("Your turn in {game}.", { game: titles[m.game] || m.game }));
    if (fresh && document.hidden) {
      document.title = _("● Your turn — flametable");
      titled = true;
      if (soundOn()) chime();
    }
  };
  const onVisible = () => {
    if (!document.hidden && titled) {
      document.title = TITLE;
      titled = false;
    }
  };
  document.addEventListener("visibilitychange", onVisible);

  async function refresh() {
    let matches;
    try {
      ({ matches } = await api("/api/my-matches", { seats: heldSeats() }));
    } catch {
      return; // the list stands as it was; the next poll tries again
    }
    if (stopped) return;
    // the focus stays on its button across the redraw (a keyboard's place is not lost every 12 s)
    const focused = list.contains(document.activeElement) ? document.activeElement : null;
    const where = focused && focused.closest("li") ? [focused.closest("li").dataset.room, focused.className] : null;
    list.replaceChildren(matches.length ? h("ul", { class: "mine" }, matches.map(row))
      : h("p", {}, _("None: make a room above, or join one below.")));
    if (where) {
      const again = [...list.querySelectorAll("li")].find((li) => li.dataset.room === where[0]);
      const button = again && [...again.querySelectorAll("button")].find((b) => b.className === where[1]);
      if (button) button.focus();
    }
    tell(matches);
  }

  const start = async () => {
    await refresh();
    if (!stopped) timer = setInterval(refresh, POLL_MS);
  };
  const stop = () => {
    stopped = true;
    if (timer !== null) clearInterval(timer);
    document.removeEventListener("visibilitychange", onVisible);
    if (titled) document.title = TITLE;
  };
  return { section, start, refresh, stop };
}
