// A room's table, whatever the game: who sits where and whether they are connected, the game's own board (from
// games/GAME.js, or the plain one for a plug-in game), resign / undo / rematch / log, the result, and every
// move of the others told to screen readers. The table holds no rule: the options it offers are the view's legal
// actions, and the server checks every one.
import { account } from "./account.js";
import { api, keepSeatToken, replayResponse, seatToken } from "./api.js";
import { TableClocks, controlText } from "./clock.js";
import { announce, fill, h } from "./dom.js";
import { gameModule, gameOf, loadGame } from "./games.js";
import { _, language } from "./i18n.js";
import { helpLink } from "./help.js";
import { RoomSocket } from "./socket.js";
import { SOUND_KEY, chime, soundOn } from "./sound.js";
import { UNPLAYED, botName, endWords } from "./turn.js";

export function playerName(seat, mySeat) {
  const name = _("Player {n}", { n: seat + 1 });
  return seat === mySeat ? _("{player} (you)", { player: name }) : name;
}

// A seat's connection in words (the dot before it is drawn by the style sheet: never the only signal).
const DISCONNECT_GRACE_MS = 2000;

function presenceWords(p) {
  if (p.connected) return _("connected");
  return p.open ? _("seat free") : _("disconnected");
}

// What identifies a focusable element across redraws (the table redraws after every event: a button is a new
// element, but the same control keeps its class and its words).
function focusKey(el) {
  return `${el.tagName}|${el.getAttribute("class") || ""}|${el.getAttribute("aria-label") || el.textContent}`;
}

const FOCUSABLE = "button, a[href], input, select, textarea, [tabindex]";

// Redraw without losing the keyboard's place: the same control gets the focus back; when it is gone (the action
// just played), the board's first control, else the board itself.
function keepingFocus(root, board, redraw) {
  const before = document.activeElement;
  const inside = before && before !== document.body && root.contains(before);
  const key = inside ? focusKey(before) : null;
  const wasOnBoard = inside && board.contains(before);
  redraw();
  const now = document.activeElement;
  if (!inside || (now && now !== document.body && root.contains(now))) return;
  const same = [...root.querySelectorAll(FOCUSABLE)].find((el) => focusKey(el) === key && !el.closest("[hidden]"));
  if (same) same.focus();
  else if (wasOnBoard) (board.querySelector("button:not([disabled])") || board).focus();
}

// The in-page question before resigning (a modal <dialog>: Escape or "Keep playing" closes it).
function resignDialog(onResign) {
  const dialog = h("dialog", { class: "confirm", "aria-labelledby": "confirm-title" });
  dialog.append(
    h("p", { id: "confirm-title" }, _("Give up this match?")),
    h("div", { class: "controls" },
      h("button", { type: "button", class: "confirm-resign", onclick: () => { dialog.close(); onResign(); } },
        _("Yes, resign")),
      h("button", { type: "button", class: "keep-playing primary", autofocus: true, onclick: () => dialog.close() },
        _("Keep playing"))));
  return dialog;
}

// A rated match's rating changes (GET /api/rooms/ID/matches/N/rating), the seat's own first.
function ratingLines(rating, mySeat) {
  if (!rating || !rating.players.length) return null;
  const players = [...rating.players].sort((a, b) => (a.seat === mySeat ? -1 : b.seat === mySeat ? 1 : a.seat - b.seat));
  return h("ul", { class: "rating-change", "aria-label": _("Rating changes") }, players.map((p) => h("li", { class: `seat${p.seat}` },
    p.seat === mySeat ? _("Your rating: {before} → {after} ({change}).", { before: p.before.display, after: p.after.display, change: p.delta_display })
      : _("{name}'s rating: {before} → {after} ({change}).", { name: p.name || _("a deleted player"), before: p.before.display,
        after: p.after.display, change: p.delta_display }))));
}

// The page's title while a decision waits for this player (the tab says it when the page is not in sight).
const TITLE = "flametable";

// A finished match's record, as its replay's steps: each seat's last view shows the cards that were still hidden.
async function finalViews(room, match, stillWanted) {
  try {
    const response = await replayResponse(room, match, language(), stillWanted);
    if (!response || !response.ok) return null;
    const data = await response.json();
    const last = data.steps[data.steps.length - 1];
    return [last.views["0"], last.views["1"]];
  } catch {
    return null; // the table stands without them
  }
}

// An option of the room in words: the game's own label and choice (GET /api/games declares them), else as given.
function optionWords(declared, name, value) {
  const option = declared.find((o) => o.name === name);
  if (!option) return _("{option}: {value}", { option: name, value: String(value) });
  const yesNo = value ? _("yes") : _("no");
  const choice = (option.choices || []).find((c) => c.value === value);
  const words = option.kind === "bool" ? yesNo : choice ? choice.label : String(value);
  return _("{option}: {value}", { option: option.label, value: words });
}

// Who sits at a taken seat, as the join screen names them: the account's name, a bot's kind, else "Player N".
function seatedName(p) {
  if (p.kind && p.kind.startsWith("bot:")) return botName(p.kind);
  return p.name || _("Player {n}", { n: p.seat + 1 });
}

// Before the table, the join screen (issue 25): the game, its options and time control, who is waiting, what the
// game asks a joiner to bring of their own (its module's joinFields(): an own deck, or a random one), then
// the seat taken (a refusal, such as a deck the game does not accept, said there: choose again) or the match watched.
async function chooseSeat(root, room, summary) {
  let token = seatToken(room);
  if (token || !summary.players.some((p) => p.open)) return token;
  const rated = summary.rated === true; // a rated room: its seat is for another signed-in account, asking too
  const [game, module] = await Promise.all([gameOf(summary.game).catch(() => null), gameModule(summary.game)]);
  const declared = (game && game.options) || [];
  const options = Object.entries(summary.options || {}).map(([name, value]) => optionWords(declared, name, value));
  const waiting = summary.players.filter((p) => !p.open).map(seatedName);
  const open = summary.players.find((p) => p.open);
  const fields = module.joinFields ? module.joinFields(summary) : [];
  const error = h("p", { class: "error", role: "alert" });
  const fact = (term, ...description) => [h("dt", {}, term), h("dd", {}, ...description)];
  const take = h("button", { type: "submit", class: "primary" }, _("Take the seat"));
  const form = h("form", { class: "join-form" },
    h("dl", { class: "fields join-facts" },
      fact(_("Game"), h("span", { class: "join-game" }, (game && game.title) || summary.game)),
      fact(_("Options"), options.length ? h("ul", { class: "join-options" }, options.map((o) => h("li", {}, o)))
        : _("None")),
      fact(_("Time control"), h("span", { class: "join-clock" }, controlText(summary.clock))),
      fact(_("Waiting at the table"), h("span", { class: "join-waiting" }, waiting.length ? waiting.join(", ")
        : _("Nobody yet"))),
      open ? fact(_("You would play as"), _("Player {n}", { n: open.seat + 1 })) : null),
    fields.length ? h("fieldset", { class: "join-brings" }, h("legend", {}, _("What you bring")), fields) : null,
    rated ? h("p", { class: "rated-note" }, _("This is a rated match: its result changes both players' ratings."),
      account() ? null : [" ", h("a", { href: "/account", "data-nav": true }, _("Sign in to take the seat."))]) : null,
    h("div", { class: "controls" }, take,
      h("button", { type: "button", class: "watch", onclick: () => done(null) }, _("Just watch"))),
    error);
  let done;
  const chosen = new Promise((resolve) => { done = resolve; });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    const body = rated ? { rated: true } : {};
    const brings = module.joinBrings ? module.joinBrings(form, summary) : undefined;
    if (brings !== undefined) body.brings = brings;
    take.disabled = true;
    try {
      const joined = await api(`/api/rooms/${room}/join`, body);
      keepSeatToken(room, joined.token);
      done(joined.token);
    } catch (err) {
      error.textContent = err.message; // the join screen stays: another choice may be made
      take.disabled = false;
    }
  });
  root.append(h("section", { class: "join", "aria-labelledby": "join-title" },
    h("h1", { id: "join-title" }, _("A seat is free at this table")), form));
  take.focus();
  token = await chosen;
  root.replaceChildren();
  return token;
}

export async function mount(root, { room }) {
  let summary;
  try {
    summary = await api(`/api/rooms/${room}`);
  } catch (err) {
    root.append(h("h1", {}, _("Table")), h("p", { class: "error", role: "alert" }, err.message),
      h("a", { href: "/", "data-nav": true }, _("Back to the lobby")));
    return null;
  }
  const token = await chooseSeat(root, room, summary);
  const [game, titles] = await Promise.all([loadGame(summary.game), api("/api/games").catch(() => ({ games: [] }))]);
  const facts = game.facts;
  const title = (titles.games.find((g) => g.name === summary.game) || { title: summary.game }).title;
  const t = {
    seat: null, players: summary.players, event: null, legal: [], status: "connecting", ended: null, match: null,
    offer: null, log: [], logLoaded: false, logOpen: false, error: "", undoing: false, welcomed: false, canUndo: false,
    presence: [true, true], rating: null,
    moves: [], // the last moves of the other seat since this seat's own (a spectator: of the seat that moved last)
    revealed: null, // each seat's last view once the match is over (from its record)
    decided: null, // the version at which this seat's decision was told (the chime rings once a decision)
  };
  let left = false; // the page was left: nothing more to ask for
  const status = h("p", { class: "status", role: "status" });
  const lastMove = h("p", { class: "last-move", hidden: true });
  const sound = h("input", { type: "checkbox", id: "turn-sound", checked: soundOn(), onchange: () => {
    localStorage.setItem(SOUND_KEY, sound.checked ? "on" : "off");
  } });
  const watching = h("p", { class: "watching", hidden: true });
  const bar = h("ul", { class: "players" });
  const board = h("section", { class: "board", "aria-label": _("Table"), tabindex: "-1" });
  const controls = h("div", { class: "controls", role: "group", "aria-label": _("The match") });
  const result = h("section", { class: "result", hidden: true, "aria-labelledby": "result-title" });
  const errorBox = h("p", { class: "error", role: "alert" });
  const logList = h("ol", { tabindex: "0", "aria-labelledby": "log-title" });
  const logBox = h("section", { class: "log", id: "match-log", hidden: true, "aria-labelledby": "log-title" },
    h("h2", { id: "log-title" }, _("Match log")), logList);
  // The match's menu in the header (issue 25): every way out (resign, undo, leave, how to play, the log) within
  // reach on a phone too, where the controls below the table are out of sight. A disclosure: Escape, a tap
  // elsewhere or the focus leaving it closes it.
  const menuPanel = h("div", { class: "table-menu-panel", id: "table-menu", role: "group", "aria-label": _("Menu"), hidden: true });
  const menuToggle = h("button", { type: "button", class: "menu-toggle", "aria-expanded": "false", "aria-controls": "table-menu",
    onclick: () => showMenu(menuPanel.hidden) }, h("span", { "aria-hidden": "true" }, "☰ "), _("Menu"));
  const menu = h("div", { class: "table-menu" }, menuToggle, menuPanel);
  const showMenu = (open) => {
    menuPanel.hidden = !open;
    menuToggle.setAttribute("aria-expanded", String(open));
    if (open) {
      const first = menuPanel.querySelector("button, a[href]");
      if (first) first.focus();
    }
  };
  menu.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || menuPanel.hidden) return;
    e.stopPropagation();
    showMenu(false);
    menuToggle.focus();
  });
  menu.addEventListener("focusout", (e) => { if (e.relatedTarget && !menu.contains(e.relatedTarget)) showMenu(false); });
  const outsideMenu = (e) => { if (!menuPanel.hidden && !menu.contains(e.target)) showMenu(false); };
  document.addEventListener("pointerdown", outsideMenu);
  const frame = h("div", { class: "table " + summary.game },
    h("div", { class: "table-head" }, h("h1", {}, title, summary.rated === true // a rated match, said at the table
      ? [" ", h("span", { class: "badge rated" }, _("Rated"))] : null), menu),
    h("section", { class: "seats", "aria-label": _("Players") }, bar, status, watching),
    lastMove, errorBox, result, board, controls,
    h("p", { class: "sound-choice" }, h("label", { for: "turn-sound" }, sound, " ",
      _("A sound when it is my turn and this tab is not in sight, and when my clock falls under 10 s"))),
    logBox);
  root.append(frame);

  let socket = null;
  const clocks = new TableClocks({ announce, nameOf: (seat) => playerName(seat, t.seat), mySeat: () => t.seat,
    rated: summary.rated === true, claim: (take) => socket.send({ type: "claim", take }), // issue 24
    low: () => { if (soundOn()) chime(); } });
  frame.querySelector(".seats").after(clocks.box);
  const dialog = resignDialog(() => socket.send({ type: "resign" }));
  root.append(dialog);

  // A moment's absence (a reload, a language switch, a network blip) is not news: the other player is shown
  // disconnected only if still away DISCONNECT_GRACE_MS after the first word of it.
  const awayTimers = {}; // by seat: a disconnection not yet shown
  const awayFor = (seat) => {
    if (awayTimers[seat] !== undefined) return;
    awayTimers[seat] = setTimeout(() => {
      delete awayTimers[seat];
      if (t.presence[seat]) return;
      t.players = t.players.map((q) => (q.seat === seat ? { ...q, connected: false } : q));
      announce(_("{player} has disconnected.", { player: playerName(seat, t.seat) }));
      draw();
    }, DISCONNECT_GRACE_MS);
  };
  const forgetAway = () => {
    Object.values(awayTimers).forEach(clearTimeout);
    Object.keys(awayTimers).forEach((seat) => delete awayTimers[seat]);
  };
  // A rated match's rating change, asked once the match has ended (GET .../rating: both seats' changes).
  const loadRating = async (match) => {
    try {
      const data = await api(`/api/rooms/${room}/matches/${match}/rating`);
      if (t.match !== match || !data.rated) return;
      t.rating = data;
      const own = data.players.find((p) => p.seat === t.seat);
      if (own) announce(_("Your rating: {before} → {after} ({change}).", { before: own.before.display, after: own.after.display, change: own.delta_display }));
      draw();
    } catch {
      // the result stands without it
    }
  };
  let logTimer = null;
  const askLog = () => {
    if (logTimer) return;
    logTimer = setTimeout(() => { logTimer = null; socket.send({ type: "log" }); }, 250);
  };

  const drawPlayers = () => {
    bar.replaceChildren(...t.players.map((p) => {
      const toAct = t.event && !t.ended && t.event.view.to_act === p.seat;
      return h("li", { class: `player seat${p.seat}` + (toAct ? " to-act" : "") },
        h("span", { class: "name" }, playerName(p.seat, t.seat)),
        p.kind.startsWith("bot:") ? h("span", { class: "kind" }, botName(p.kind)) : null,
        h("span", { class: "presence " + (p.connected ? "on" : "off") }, presenceWords(p)),
        toAct ? h("span", { class: "turn" }, p.seat === t.seat ? _("your turn") : _("to play")) : null, clocks.slot(p.seat));
    }));
  };

  const closeRoom = async () => {
    try {
      await api(`/api/rooms/${room}/close`, { token });
    } catch (err) {
      t.error = err.message;
      announce(err.message);
      draw();
    }
  };

  const undo = () => {
    if (!t.canUndo) {
      announce(_("Nothing to take back yet: you have made no decision in this match."));
      return;
    }
    t.undoing = true;
    socket.send({ type: "undo", version: socket.version });
  };

  // The log opened (or closed) from the controls or the menu; from the menu it is also brought into sight.
  const toggleLog = (open, bring = false) => {
    t.logOpen = open;
    if (t.logOpen) socket.send({ type: "log" });
    draw();
    if (open && bring) {
      logBox.scrollIntoView({ block: "start" });
      logList.focus({ preventScroll: true });
    }
  };

  // The menu's items: the same ways out as the controls below the table (each closes the menu first).
  const drawMenu = ({ playing, unplayed, waiting, againstBot }) => {
    const item = (cls, words, act, extra = {}) => h("button", { type: "button", class: cls, ...extra,
      onclick: () => { showMenu(false); act(); } }, words);
    fill(menuPanel,
      t.seat !== null && playing ? item("menu-resign", _("Resign"), () => dialog.showModal()) : null,
      againstBot && playing ? item("menu-undo", _("Undo"), () => { menuToggle.focus(); undo(); },
        { "aria-disabled": t.canUndo ? null : "true" }) : null,
      t.seat !== null && playing && waiting ? item("menu-close-room", _("Close the room"), closeRoom) : null,
      t.seat !== null && !playing && !unplayed ? item("menu-rematch", t.offer !== null && t.offer !== t.seat
        ? _("Accept the rematch") : _("Rematch"), () => socket.send({ type: "rematch" })) : null,
      item("menu-log", t.logOpen ? _("Hide the log") : _("Match log"), () => toggleLog(!t.logOpen, true)),
      helpLink(summary.game),
      h("a", { href: "/", "data-nav": true, class: "leave" }, _("Leave the table")));
  };

  const drawControls = () => {
    const playing = !t.ended;
    const unplayed = t.ended !== null && UNPLAYED.includes(t.ended.status);
    const waiting = t.players.some((p) => p.open);
    const againstBot = t.seat !== null && t.players[1 - t.seat] && t.players[1 - t.seat].kind.startsWith("bot:");
    controls.hidden = !t.welcomed;
    menu.hidden = !t.welcomed;
    drawMenu({ playing, unplayed, waiting, againstBot });
    fill(controls,
      t.seat !== null && playing ? h("button", { class: "resign", onclick: () => dialog.showModal() }, _("Resign")) : null,
      // aria-disabled, not disabled: the button keeps the keyboard's focus when it turns off right after an undo,
      // and a screen reader still finds it
      againstBot && playing ? h("button", { class: "undo", "aria-disabled": t.canUndo ? null : "true", onclick: undo }, _("Undo")) : null,
      // a room still waiting for a player can be closed by its player (once both are seated: resign)
      t.seat !== null && playing && waiting ? h("button", { class: "close-room", onclick: closeRoom },
        _("Close the room")) : null,
      t.seat !== null && !playing && !unplayed ? h("button", { class: "rematch primary", onclick: () => socket.send({ type: "rematch" }) },
        t.offer !== null && t.offer !== t.seat ? _("Accept the rematch") : _("Rematch")) : null,
      helpLink(summary.game),
      h("button", { class: "show-log", "aria-expanded": String(t.logOpen), "aria-controls": "match-log",
        onclick: () => toggleLog(!t.logOpen) }, t.logOpen ? _("Hide the log") : _("Match log")));
  };

  const drawResult = () => {
    result.hidden = !t.ended;
    if (!t.ended) return;
    if (UNPLAYED.includes(t.ended.status)) {
      fill(result, h("h2", { id: "result-title", class: "headline", tabindex: "-1" },
        t.ended.message || _("This room is closed.")),
      h("p", {}, h("a", { href: "/", "data-nav": true }, _("Back to the lobby"))));
      return;
    }
    const r = t.ended.result || {};
    const headline = r.winner === null || r.winner === undefined ? _("The match is a tie.")
      : r.winner === t.seat ? _("You win!") : t.seat === null ? _("{player} wins.", { player: playerName(r.winner, null) })
        : _("You lose.");
    const flagged = r.reason === "time" && (r.winner === 0 || r.winner === 1) ? 1 - r.winner : null;
    fill(result, h("h2", { id: "result-title", class: "headline", tabindex: "-1" }, headline),
      flagged !== null ? h("p", { class: "why" }, _("{player} ran out of time.", { player: playerName(flagged, t.seat) }))
        : null,
      h("ul", { class: "final" }, t.log.slice(-3).map((line) => h("li", {}, line))),
      t.offer !== null ? h("p", {}, _("{player} offers a rematch.", { player: playerName(t.offer, t.seat) })) : null,
      ratingLines(t.rating, t.seat),
      t.ended.record ? h("p", {}, h("a", { href: t.ended.record, download: "" }, _("Download the record")), " · ",
        h("a", { href: `/replay?room=${room}&match=${t.ended.match}`, "data-nav": true }, _("Replay it"))) : null);
  };

  // While the socket is down, every control of a move is off and says why (the server would not hear it).
  const offline = (down) => {
    const why = board.querySelector(".offline-why");
    if (!down) {
      if (why) why.remove();
      return;
    }
    const note = why || h("p", { class: "offline-why", id: "offline-why", role: "alert" });
    note.textContent = _("Connection lost: your moves wait until it is back (reconnecting…).");
    const dock = board.querySelector(".dock");
    if (!why) (dock || board).prepend(note);
    for (const el of board.querySelectorAll("[data-action]")) {
      if (el.tagName === "BUTTON") el.disabled = true;
      else {
        el.setAttribute("aria-disabled", "true");
        el.removeAttribute("tabindex");
      }
      el.setAttribute("aria-describedby", "offline-why");
      el.classList.add("offline");
    }
  };

  // The last moves of the other player (of whoever moved last, for a spectator), in one line.
  const drawLastMove = (names) => {
    const moves = t.moves;
    lastMove.hidden = !moves.length || !t.event;
    if (lastMove.hidden) return;
    const said = moves.slice().reverse().map((m) => (m.action === null
      ? _("{player} made a move you cannot see.", { player: names[m.actor] })
      : game.moveWords ? game.moveWords({ facts, names, seat: t.seat }, m)
        : _("{player}: {action}", { player: names[m.actor], action: m.action })));
    // newest first, each move whole: on a phone the strip wraps to two lines at most, the rest cut (its whole
    // text is still in the page for screen readers, and in its title)
    fill(lastMove, h("span", { class: "label" }, _("Last move:")), " ",
      said.map((words, i) => [i ? " · " : null, h("span", { class: "move" }, words)]));
    lastMove.title = said.join(" · ");
  };

  // The tab's title while a decision of this player waits, and the chime (asked for) while the tab is hidden.
  const drawTurn = () => {
    const mine = t.event && !t.ended && t.seat !== null && t.event.view.to_act === t.seat && t.legal.length > 0;
    document.title = mine ? _("● Your turn — flametable") : TITLE;
    if (mine && t.decided !== t.event.version) {
      t.decided = t.event.version;
      if (document.hidden && soundOn()) chime();
    }
  };

  const draw = () => keepingFocus(root, board, () => {
    frame.dataset.version = t.event ? String(t.event.version) : "";
    board.dataset.over = t.ended ? "true" : "false"; // nothing left to do: the dock needs no pinning
    frame.dataset.seat = t.seat === null ? "" : String(t.seat);
    status.dataset.state = t.status;
    status.textContent = {
      connecting: _("Connecting…"), connected: _("Connected"), reconnecting: _("Connection lost: reconnecting…"),
      closed: _("The server closed this table."),
    }[t.status];
    watching.hidden = !(t.welcomed && t.seat === null);
    watching.textContent = _("You are watching this match.");
    drawPlayers();
    errorBox.textContent = t.error;
    const names = [playerName(0, t.seat), playerName(1, t.seat)];
    if (t.event) {
      // Once the match is over (a resignation sends no new view), nothing is left to play.
      const over = t.ended !== null;
      game.render(board, {
        view: over ? { ...t.event.view, legal: [] } : t.event.view, legal: over ? [] : t.legal, version: t.event.version,
        seat: t.seat, facts, names, moves: t.moves, revealed: over ? t.revealed : null,
        over, endWords: over ? endWords(t.ended, names) : "", // the header's words once there is no turn
        act: (action) => {
          if (over) return;
          t.error = "";
          // nothing clicked is lost without a word: a move the socket cannot carry now is said not sent
          if (t.status !== "connected" || !socket.act(action)) {
            t.error = _("Not sent: the connection is lost. Your move can be made again once it is back.");
            announce(t.error);
            draw();
          }
        },
      });
      offline(t.status !== "connected" && !over);
    }
    drawLastMove(names);
    drawTurn();
    drawControls();
    // the log follows its newest line, unless the reader scrolled up to read (then it stays where it is)
    const following = logBox.hidden || logList.scrollHeight - logList.scrollTop - logList.clientHeight < 8;
    logBox.hidden = !t.logOpen;
    logList.replaceChildren(...t.log.map((line) => h("li", {}, line)));
    if (t.logOpen && following) logList.scrollTop = logList.scrollHeight;
    drawResult();
  });

  // Each server message changes the table's state (t); draw() shows it.
  const onMessage = {
    welcome: (msg) => {
      const newMatch = t.match !== null && t.match !== msg.match;
      // The other player as shown until now (a rematch may have swapped the seats: the grace follows the player)
      const other = t.welcomed && t.seat !== null && msg.seat !== null ? t.players[1 - t.seat] : null;
      forgetAway();
      t.seat = msg.seat;
      t.players = msg.players;
      t.presence = msg.players.map((p) => p.connected);
      const now = t.seat !== null ? t.players[1 - t.seat] : null;
      if (other && other.connected && !other.kind.startsWith("bot:") && now && !now.connected && !now.open) {
        t.players = t.players.map((q) => (q.seat === now.seat ? { ...q, connected: true } : q));
        awayFor(now.seat);
      }
      t.welcomed = true;
      if (msg.status === "playing") t.ended = null;
      if (newMatch || msg.status === "playing") t.offer = null;
      if (newMatch) {
        t.rating = null;
        t.moves = [];
        t.revealed = null;
        t.log = [];
        t.logLoaded = false;
        announce(t.seat === null ? _("A new match begins.")
          : _("A new match begins: you are {player}.", { player: playerName(t.seat, null) }));
      }
      t.match = msg.match;
    },
    event: (msg) => {
      const first = t.event === null || t.match !== msg.match;
      if (t.match !== msg.match) t.moves = [];
      const actor = msg.event.actor;
      if (actor !== null && !(msg.event.version === (t.event && t.event.version))) {
        if (actor === t.seat) t.moves = [];
        else {
          if (t.moves.length && t.moves[0].actor !== actor) t.moves = [];
          t.moves = [...t.moves, { actor, action: msg.event.action, version: msg.event.version }];
        }
      }
      t.event = msg.event;
      t.legal = msg.legal; // the seat to act's legal actions in notation (for the plain table)
      t.canUndo = msg.can_undo === true; // a decision of mine to take back (the server may still refuse)
      t.error = ""; // the match moved on: a refusal before is no longer news
      if (msg.event.actor === null && t.undoing) {
        t.undoing = false;
        announce(_("Your last move was taken back."));
      }
      if (first) socket.send({ type: "log" });
      else askLog();
    },
    presence: (msg) => {
      t.presence = msg.connected;
      t.players = t.players.map((p) => {
        const connected = msg.connected[p.seat];
        if (!connected && p.connected && p.seat !== t.seat && !p.kind.startsWith("bot:")) {
          awayFor(p.seat); // shown connected until the grace is over (a repeated presence does not restart it)
          return p;
        }
        if (connected && awayTimers[p.seat] !== undefined) {
          clearTimeout(awayTimers[p.seat]);
          delete awayTimers[p.seat];
          if (p.connected) return p; // back within the grace: nothing happened
        }
        if (connected !== p.connected && p.seat !== t.seat && !p.kind.startsWith("bot:")) {
          announce(connected ? _("{player} is connected.", { player: playerName(p.seat, t.seat) })
            : _("{player} has disconnected.", { player: playerName(p.seat, t.seat) }));
        }
        return { ...p, connected, open: p.open && !connected };
      });
    },
    rematch: (msg) => {
      t.offer = msg.offered_by;
      if (msg.offered_by === t.seat) return;
      announce(_("{player} offers a rematch.", { player: playerName(msg.offered_by, t.seat) }));
    },
    ended: (msg) => {
      const fresh = !t.ended;
      t.ended = msg;
      if (!UNPLAYED.includes(msg.status)) {
        loadRating(msg.match);
        if (fresh) {
          finalViews(room, msg.match, () => !left && t.match === msg.match).then((views) => {
            if (!views || t.match !== msg.match) return;
            t.revealed = views;
            draw();
          });
        }
      }
      clearTimeout(logTimer); // the log asked now takes the place of one still waiting
      logTimer = null;
      socket.send({ type: "log" });
      if (fresh) setTimeout(() => { const head = result.querySelector(".headline"); if (head) head.focus(); }, 0);
    },
    log: (msg) => {
      if (msg.match !== t.match) return;
      // The first log is what happened before this page came: only the lines after it are news.
      if (t.logLoaded) msg.lines.slice(t.log.length).forEach((line) => announce(line));
      t.log = msg.lines;
      t.logLoaded = true;
    },
    error: (msg) => {
      t.undoing = false;
      t.error = msg.message;
      announce(msg.message);
    },
  };

  socket = new RoomSocket(room, token, {
    status: (state) => { t.status = state; draw(); },
    message: (msg) => {
      clocks.take(msg);
      if (onMessage[msg.type]) onMessage[msg.type](msg);
      draw();
    },
  });
  return () => {
    left = true;
    document.removeEventListener("pointerdown", outsideMenu);
    document.title = TITLE;
    socket.close();
    clocks.stop();
    if (logTimer) clearTimeout(logTimer);
    forgetAway();
  };
}
