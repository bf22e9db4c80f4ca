// The replay viewer: the steps of a finished match, from the server (/replay?room=ID&match=N) or from a record
// file the player uploads (/replay). First / previous / next / last (buttons, or the arrow, Home and End keys), a
// step counter, the view of the seat chosen (or the spectators') drawn by the game's own table, the log lines of
// the step, and the result at the end. After the end everything may be shown, so both seats' views are offered.
import { csrfHeaders, replayResponse } from "./api.js";
import { clockText } from "./clock.js";
import { fill, h } from "./dom.js";
import { _, language } from "./i18n.js";
import { loadGame } from "./games.js";
import { playerName } from "./table.js";

async function upload(text) {
  const response = await fetch(`/api/replay?lang=${language()}`, {
    method: "POST", headers: { "content-type": "application/json", ...csrfHeaders() }, body: text,
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.message);
  return data;
}

async function fromServer(room, match) {
  const response = await replayResponse(room, match, language());
  if (!response) throw new Error(_("The replay could not be loaded: try again in a moment."));
  const data = await response.json();
  if (!response.ok) throw new Error(data.message);
  return data;
}

function headline(result) {
  if (!result) return "";
  if (result.winner === null || result.winner === undefined) return _("The match is a tie.");
  return _("{player} wins.", { player: playerName(result.winner, null) });
}

// The viewer of one replay (the server's steps JSON); returns the key handler to remove on leaving.
async function viewer(root, data) {
  const game = await loadGame(data.game);
  const last = data.steps.length - 1;
  const v = { index: 0, audience: "0" };
  const counter = h("p", { class: "step-counter", role: "status", "aria-live": "polite" });
  const board = h("section", { class: "board", "aria-label": _("Table") });
  const lines = h("ul", { class: "step-log", "aria-label": _("What happened at this step") });
  const result = h("section", { class: "result", hidden: true });
  const clockLine = h("p", { class: "step-clock", hidden: true }); // a timed match: both clocks after the step
  const go = (index) => {
    v.index = Math.max(0, Math.min(last, index));
    draw();
  };
  const button = (cls, words, index) => h("button", { type: "button", class: cls, onclick: () => go(index()) }, words);
  const nav = h("div", { class: "controls replay-nav", role: "group", "aria-label": _("Steps") },
    button("first", _("First"), () => 0),
    button("previous", _("Previous"), () => v.index - 1),
    button("next", _("Next"), () => v.index + 1),
    button("last", _("Last"), () => last));
  const seats = h("fieldset", { class: "audience" }, h("legend", {}, _("Whose view")),
    [["0", playerName(0, null)], ["1", playerName(1, null)], ["spectator", _("A spectator")]].map(([key, words]) =>
      h("label", {}, h("input", { type: "radio", name: "audience", value: key, checked: key === v.audience,
        onchange: () => { v.audience = key; draw(); } }), " ", words)));

  function draw() {
    const step = data.steps[v.index];
    const seat = v.audience === "spectator" ? null : Number(v.audience);
    const view = { ...step.views[v.audience], legal: [] }; // nothing to play in a replay
    counter.textContent = _("Step {n} of {total}", { n: v.index, total: last });
    game.render(board, {
      view, legal: [], version: step.version, seat, facts: game.facts,
      names: [playerName(0, null), playerName(1, null)], // a record's players: nobody here is "you"
      act: () => {},
    });
    const told = step.lines[v.audience] || [];
    clockLine.hidden = !step.time;
    if (step.time) {
      clockLine.textContent = _("Clocks: {first} | {second} (this decision: {seconds} s)", { first: clockText(step.time.left[0]),
        second: clockText(step.time.left[1]), seconds: step.time.spent === null ? "—" : (step.time.spent / 1000).toFixed(1) });
    }
    lines.replaceChildren(...(told.length ? told : [step.action === null ? _("The match begins.")
      : _("{player}: {action}", { player: playerName(step.actor, null), action: step.action })]).map((line) => h("li", {}, line)));
    for (const b of nav.querySelectorAll("button")) {
      b.disabled = (b.classList.contains("first") || b.classList.contains("previous")) ? v.index === 0 : v.index === last;
    }
    result.hidden = v.index !== last;
    const reason = data.result && data.result.reason;
    const loser = data.result ? playerName(1 - data.result.winner, null) : "";
    fill(result, h("h2", {}, headline(data.result)), reason === "resigned"
      ? h("p", {}, _("{player} resigned.", { player: loser }))
      : reason === "time" ? h("p", {}, _("{player} ran out of time.", { player: loser }))
        : reason === "left" ? h("p", {}, _("{player} left the match.", { player: loser })) : null);
  }

  const keys = (e) => {
    if (e.target.closest && e.target.closest("input[type=file], input[type=text], textarea, select")) return;
    const to = { ArrowLeft: v.index - 1, ArrowRight: v.index + 1, Home: 0, End: last }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  };
  document.addEventListener("keydown", keys);
  root.append(h("section", { class: `replay table ${data.game}` },
    h("h1", {}, _("Replay: {game}", { game: data.title || data.game })),
    h("p", { class: "hint" }, _("Use the buttons, or the left and right arrow keys, Home and End.")),
    seats, nav, counter, clockLine, lines, board, result));
  draw();
  return () => document.removeEventListener("keydown", keys);
}

export async function mount(root) {
  const params = new URLSearchParams(location.search);
  const room = params.get("room");
  const match = params.get("match");
  const error = h("p", { class: "error", role: "alert" });
  let leave = null;
  const open = async (load) => {
    error.textContent = "";
    let data;
    try {
      data = await load();
    } catch (err) {
      error.textContent = err.message;
      return;
    }
    if (leave) leave();
    root.replaceChildren(error);
    leave = await viewer(root, data);
  };
  if (room !== null && match !== null) {
    root.append(error);
    await open(() => fromServer(room, match));
  } else {
    const file = h("input", { type: "file", id: "record-file", accept: ".json,application/json" });
    file.addEventListener("change", () => {
      const chosen = file.files && file.files[0];
      if (chosen) open(async () => upload(await chosen.text()));
    });
    root.append(h("section", { class: "replay-upload" },
      h("h1", {}, _("Replay a match")),
      h("p", {}, _("Choose a match record file (the one a finished table offers to download, or the terminal writes).")),
      h("label", { for: "record-file" }, _("Record file")), " ", file, error));
  }
  return () => { if (leave) leave(); };
}
