// A room's table, whatever the game: who sits where and whether they are connected, the game's own board (from
// games/GAME.js, or the plain one for a plug-in game), resign / undo / rematch / log, the result, and every
// move of the others told to screen readers. The table holds no rule: the options it offers are the view's legal
// actions, and the server checks every one.
import { api, keepSeatToken, seatToken } from "./api.js";
import { announce, h } from "./dom.js";
import { _ } from "./i18n.js";
import { RoomSocket } from "./socket.js";

const RENDERERS = {
  duel: () => import("./games/duel.js"),
  duals: () => import("./games/duals.js"),
};

async function renderer(game) {
  const load = RENDERERS[game] || (() => import("./games/generic.js"));
  return load();
}

export function playerName(seat, mySeat) {
  const name = _("Player {n}", { n: seat + 1 });
  return seat === mySeat ? _("{player} (you)", { player: name }) : name;
}

export async function mount(root, { room }) {
  let summary;
  try {
    summary = await api(`/api/rooms/${room}`);
  } catch (err) {
    root.append(h("p", { class: "error", role: "alert" }, err.message), h("a", { href: "/", "data-nav": true }, _("Back to the lobby")));
    return null;
  }
  let token = seatToken(room);
  if (!token && summary.players.some((p) => p.open)) {
    const choice = await new Promise((resolve) => {
      root.append(h("section", { class: "join" },
        h("h1", {}, _("A seat is free at this table")),
        h("button", { class: "primary", onclick: () => resolve("join") }, _("Take the seat")),
        h("button", { onclick: () => resolve("watch") }, _("Just watch"))));
    });
    root.replaceChildren();
    if (choice === "join") {
      try {
        const joined = await api(`/api/rooms/${room}/join`, {});
        token = joined.token;
        keepSeatToken(room, token);
      } catch (err) {
        root.append(h("p", { class: "error", role: "alert" }, err.message));
      }
    }
  }
  const game = await renderer(summary.game);
  const facts = game.facts ? await game.facts() : null;
  const t = {
    seat: null, players: summary.players, view: null, event: null, status: "connecting", ended: null,
    offer: null, log: [], logOpen: false, error: "",
  };
  const status = h("p", { class: "status", role: "status" });
  const bar = h("div", { class: "players" });
  const board = h("section", { class: "board", "aria-label": _("Table") });
  const controls = h("div", { class: "controls" });
  const result = h("section", { class: "result", hidden: true, "aria-live": "polite" });
  const errorBox = h("p", { class: "error", role: "alert" });
  const logBox = h("section", { class: "log", hidden: true, "aria-label": _("Match log") });
  root.append(h("div", { class: "table " + summary.game }, bar, status, errorBox, board, controls, result, logBox));

  let logTimer = null;
  const askLog = () => {
    if (logTimer) return;
    logTimer = setTimeout(() => { logTimer = null; socket.send({ type: "log" }); }, 250);
  };

  const draw = () => {
    status.textContent = { connecting: _("Connecting…"), connected: _("Connected"), reconnecting: _("Connection lost: reconnecting…") }[t.status];
    bar.replaceChildren(...t.players.map((p) => h("div", { class: `player seat${p.seat}` + (t.view && t.view.to_act === p.seat ? " to-act" : "") },
      h("span", { class: "name" }, playerName(p.seat, t.seat)),
      p.kind.startsWith("bot:") ? h("span", { class: "kind" }, ` (${p.kind})`) : null,
      h("span", { class: "presence " + (p.connected ? "on" : "off") }, p.connected ? _("connected") : (p.open ? _("seat free") : _("disconnected"))))));
    errorBox.textContent = t.error;
    if (t.view) {
      game.render(board, {
        view: t.view, seat: t.seat, event: t.event, facts, names: [playerName(0, t.seat), playerName(1, t.seat)],
        act: (action) => { t.error = ""; socket.act(action); },
      });
    }
    const playing = !t.ended;
    const againstBot = t.seat !== null && t.players[1 - t.seat] && t.players[1 - t.seat].kind.startsWith("bot:");
    controls.replaceChildren(
      t.seat !== null && playing ? h("button", { class: "resign", onclick: () => {
        if (confirm(_("Give up this match?"))) socket.send({ type: "resign" });
      } }, _("Resign")) : null,
      againstBot && playing ? h("button", { class: "undo", onclick: () => socket.send({ type: "undo", version: socket.version }) }, _("Undo")) : null,
      t.seat !== null && !playing ? h("button", { class: "rematch primary", onclick: () => socket.send({ type: "rematch" }) },
        t.offer !== null && t.offer !== t.seat ? _("Accept the rematch") : _("Rematch")) : null,
      h("button", { class: "show-log", "aria-expanded": String(t.logOpen), onclick: () => {
        t.logOpen = !t.logOpen;
        if (t.logOpen) socket.send({ type: "log" });
        draw();
      } }, t.logOpen ? _("Hide the log") : _("Match log")));
    logBox.hidden = !t.logOpen;
    logBox.replaceChildren(h("h2", {}, _("Match log")), h("ol", {}, t.log.map((line) => h("li", {}, line))));
    result.hidden = !t.ended;
    if (t.ended) {
      const r = t.ended.result || {};
      const headline = r.winner === null || r.winner === undefined ? _("The match is a tie.")
        : r.winner === t.seat ? _("You win!") : t.seat === null ? _("{player} wins.", { player: playerName(r.winner, null) })
          : _("You lose.");
      result.replaceChildren(h("h2", {}, headline),
        t.ended.status === "resigned" ? h("p", {}, _("{player} resigned.", { player: playerName(1 - r.winner, t.seat) })) : null,
        h("ul", { class: "final" }, t.log.slice(-3).map((line) => h("li", {}, line))),
        t.offer !== null ? h("p", {}, _("{player} offers a rematch.", { player: playerName(t.offer, t.seat) })) : null,
        t.ended.record ? h("p", {}, h("a", { href: t.ended.record, download: "" }, _("Download the record")), " · ",
          h("a", { href: `/replay?room=${room}&match=${t.ended.match}`, "data-nav": true }, _("Replay it"))) : null);
    }
  };

  const socket = new RoomSocket(room, token, {
    status: (state) => { t.status = state; draw(); },
    message: (msg) => {
      if (msg.type === "welcome") {
        t.seat = msg.seat;
        t.players = msg.players;
        if (msg.status === "playing") { t.ended = null; t.offer = null; t.log = []; }
      } else if (msg.type === "event") {
        const before = t.event;
        t.event = msg.event;
        t.view = msg.event.view;
        if (msg.event.actor !== null && msg.event.actor !== t.seat) askLog();
        else if (msg.event.actor === null && before === null) socket.send({ type: "log" });
      } else if (msg.type === "presence") {
        t.players = t.players.map((p) => ({ ...p, connected: msg.connected[p.seat], open: p.open && !msg.connected[p.seat] }));
      } else if (msg.type === "rematch") {
        t.offer = msg.offered_by;
        if (msg.offered_by !== t.seat) announce(_("{player} offers a rematch.", { player: playerName(msg.offered_by, t.seat) }));
      } else if (msg.type === "ended") {
        t.ended = msg;
        socket.send({ type: "log" });
      } else if (msg.type === "log") {
        const fresh = msg.lines.slice(t.log.length);
        if (t.log.length && fresh.length) fresh.forEach((line) => announce(line));
        t.log = msg.lines;
      } else if (msg.type === "error") {
        t.error = msg.message;
        announce(msg.message);
      }
      draw();
    },
  });
  return () => socket.close();
}
