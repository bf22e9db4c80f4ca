// Flame Duel's table: both line-ups (own characters face up, the opponent's unflipped ones face down), the round's
// stat and who chose it, each play of the round, the running totals, hand / draw-pile / discard counts, the place,
// the results of the rounds, and every legal action as a button where it belongs (play and ability on the card in
// hand, the stat choice as three buttons, pass...). The table holds no rule: the buttons are exactly the view's
// `legal` notations; a legal action with no place of its own still gets a button among "Your options".
// Words: the card set and the table's templates come from /api/games/duel/facts in the player's language (the
// same messages the terminal shows); the few words of the browser alone go through _().
import { api } from "/static/js/api.js";
import { h } from "/static/js/dom.js";
import { _ } from "/static/js/i18n.js";
import { deckProblem, savedDecks } from "./decks.js";

const PHASE = { DRAFT: "draft", LINEUP: "lineup", CHAMPION: "champion", STAT: "stat", PLAY: "play", CHOICE: "choice", OVER: "over" };
const IN_ROUND = [PHASE.STAT, PHASE.PLAY, PHASE.CHOICE]; // the phases of a round being played
const LINEUP_SIZE = 3;

export function facts() {
  return api("/api/games/duel/facts");
}

// ------------------------------------------------------------------ the lobby's field: an own deck

// The lobby's field beside the declared options (mode, pick): one of the decks saved by the deck builder.
// Only the decks that the game accepts can be chosen: each saved deck is checked by the game (as the deck builder
// does), and one it refuses is shown unavailable, with why beside the field.
export function optionFields(key = "") {
  const decks = savedDecks();
  const why = h("ul", { class: "deck-problems", id: `deck-problems${key}` });
  const choices = decks.map((d, i) => h("option", { value: String(i) }, d.name));
  decks.forEach((deck, i) => deckProblem(deck).then((problem) => {
    if (!problem) return;
    choices[i].disabled = true;
    choices[i].textContent = _("{deck} (cannot be used)", { deck: deck.name });
    why.append(h("li", { class: "error" }, _("{deck}: {problem}", { deck: deck.name, problem })));
  }));
  return [h("label", {}, _("Your deck"), " ", h("select", { name: "deck", "aria-describedby": `deck-problems${key}` },
    h("option", { value: "" }, _("A random deck")), choices)), why];
}

// The options with the deck chosen, as the player's seat's own deck (R2; the other seat's is dealt).
export function readOptions(form, options, mySeat) {
  const chosen = form.elements.namedItem("deck").value;
  if (options.mode === "decks" && chosen !== "") {
    const decks = [null, null];
    const deck = savedDecks()[Number(chosen)];
    decks[mySeat] = { characters: deck.characters, supports: deck.supports };
    return { ...options, decks };
  }
  return options;
}

// ------------------------------------------------------------------ the join screen: the joiner's own deck

// A room of own decks (R2) asks the one joining it for their deck too: the same field as the lobby's (the saved
// decks the game accepts; those it refuses shown with why, not selectable), or a random deck, said so.
// (`key`: what tells apart the fields of several such choices on one page, as the lobby's challenges.)
export function joinFields(summary, key = "") {
  if (!summary.options || summary.options.mode !== "decks") return [];
  return [h("p", { class: "hint" }, _("Each player brings their own deck to this match: choose one of yours, or play a random deck.")),
    ...optionFields(key)];
}

// What the joiner brings (POST /api/rooms/ID/join's "brings"): the deck chosen, null for a random one; nothing
// (undefined) in shared mode.
export function joinBrings(form, summary) {
  if (!summary.options || summary.options.mode !== "decks") return undefined;
  const chosen = form.elements.namedItem("deck").value;
  if (chosen === "") return null;
  const deck = savedDecks()[Number(chosen)];
  return { characters: deck.characters, supports: deck.supports };
}

// ------------------------------------------------------------------ words

function fill(template, params) {
  return template.replace(/\{(\w+)\}/g, (all, key) => (key in params ? String(params[key]) : all));
}

// The words of one render: card labels and templates from the facts.
function wordsOf(F) {
  const stat = (key) => F.stats.find((s) => s.key === key) || F.stats[key];
  const character = (n) => F.characters[n - 1];
  const support = (n) => F.supports[n - 1];
  const signed = (n) => (n >= 0 ? `+${n}` : `${n}`);
  return {
    F,
    w: F.words,
    stat,
    character,
    support,
    charLabel: (n) => `C${n} ${character(n).name}`,
    supportLabel: (n) => `S${n} ${support(n).name}`,
    // "Item · Spark +10", as the terminal's CardWords.support_detail
    supportDetail: (n) => `${F.kinds[support(n).kind]} · ${stat(support(n).stat).name} ${signed(support(n).bonus)}`,
    cards: (n) => fill(n === 1 ? F.words.cards : F.words.cards_plural, { n }),
    signed,
  };
}

// An action's notation ("play S7") as its kind and number.
function parse(action) {
  const [kind, arg = ""] = action.split(" ");
  return { kind, arg, n: Number(arg.replace(/^[CS]/, "")) };
}

// What a legal action does, in words (the aria-label of its button; the terminal's option menu lines).
function describe(W, action, view) {
  const { kind, arg, n } = parse(action);
  const me = view.seat === null ? null : view.seats[view.seat];
  switch (kind) {
    case "pass": return W.w.pass;
    case "play": return fill(W.w.play, { card: W.supportLabel(n), detail: W.supportDetail(n) });
    case "ability": return fill(W.w.ability_option, { character: me && me.character ? W.charLabel(me.character) : "", card: W.supportLabel(n) });
    case "stat": return fill(W.w.stat_option, { stat: W.stat(arg).name });
    case "pick": return fill(W.w.pick, { character: W.charLabel(n) });
    case "line": return fill(W.w.line, { character: W.charLabel(n), position: view.lineup.length + 1 });
    case "champion": return fill(W.w.champion, { character: W.charLabel(n) });
    case "take": return fill(W.w.take, { card: W.supportLabel(n) });
    case "swap": return fill(W.w.swap, { card: W.supportLabel(n) });
    default: return action;
  }
}

// One entry of the round's log, as the terminal's round log shows it.
function logLine(W, entry, names) {
  const { kind, arg, n } = parse(entry.action);
  switch (kind) {
    case "pass": return entry.auto ? W.w.log_passed_auto : W.w.log_passed;
    case "play": return fill(W.w.log_played, { card: W.supportLabel(n), detail: W.supportDetail(n) });
    case "ability": return fill(W.w.log_ability, { card: W.supportLabel(n) });
    case "take": return fill(W.w.log_took, { card: W.supportLabel(n) });
    case "swap": return fill(W.w.log_swap, { card: W.supportLabel(n) });
    case "stat": return fill(W.w.log_stat, { player: names[entry.seat], stat: W.stat(arg).name });
    default: return entry.action;
  }
}

function roundTitle(W, number) {
  return number > 3 ? W.w.tiebreak : fill(W.w.round, { n: number });
}

// ------------------------------------------------------------------ controls

// The buttons of the legal actions: each made once, placed where it belongs; `rest()` gives the ones not placed.
function controls(W, view, act) {
  const legal = view.seat === null ? [] : view.legal;
  const used = new Set();
  const button = (action, text, extra = "") => {
    if (!legal.includes(action)) return null;
    used.add(action);
    // The accessible name starts with the visible words (so speech control finds the button by what it shows),
    // then says the whole move.
    const said = describe(W, action, view);
    const label = typeof text === "string" && text !== said ? `${text}: ${said}` : said;
    return h("button", { type: "button", class: `act ${extra}`.trim(), "data-action": action, "aria-label": label, onclick: () => act(action) }, text);
  };
  const rest = () => legal.filter((a) => !used.has(a)).map((a) => button(a, describe(W, a, view)));
  return { button, rest };
}

// ------------------------------------------------------------------ card faces (the details of a card)

function statList(W, c) {
  return h("ul", { class: "stats" }, W.F.stats.map((s) => h("li", { class: `stat ${s.key}` },
    h("span", { class: "symbol", "aria-hidden": "true" }, s.symbol), " ", h("span", { class: "stat-name" }, s.name), " ",
    h("b", {}, c[s.key]))));
}

// A character's whole face: its stats and ability (a card's details, the draft pool).
function characterFace(W, n, note = null) {
  const c = W.character(n);
  return h("article", { class: "face character" },
    h("h3", { class: "card-name" }, h("span", { class: "num" }, `C${n}`), " ", c.name),
    statList(W, c),
    note ? h("p", { class: "note" }, note) : null,
    h("p", { class: "ability" }, fill(W.w.ability_text, { text: c.ability })));
}

function supportFace(W, n) {
  const s = W.support(n);
  const stat = W.stat(s.stat);
  return h("article", { class: `face support kind-${s.kind}` },
    h("h3", { class: "card-name" }, h("span", { class: "num" }, `S${n}`), " ", s.name),
    h("p", { class: "kind" }, W.F.kinds[s.kind], " · ", h("span", { class: `stat ${stat.key}` },
      h("span", { class: "symbol", "aria-hidden": "true" }, stat.symbol), " ", stat.name, " ", h("b", {}, W.signed(s.bonus)))),
    s.equips_to.length ? h("p", { class: "equips" }, fill(W.w.equips_to, { characters: s.equips_to.map(W.charLabel).join(", ") })) : null,
    h("p", { class: "text" }, s.text));
}

// The three stats of a character in a few characters ("✦39 ▲36 ♥39"), for the small cards.
function statLine(W, n) {
  const c = W.character(n);
  return h("span", { class: "stat-line" }, W.F.stats.map((s) => h("span", { class: `stat ${s.key}` },
    h("span", { class: "symbol", "aria-hidden": "true" }, s.symbol), h("span", { class: "sr-only" }, ` ${s.name} `), c[s.key])));
}

function bonusLine(W, n) {
  const s = W.support(n);
  const stat = W.stat(s.stat);
  return h("span", { class: `bonus stat ${stat.key}` }, h("span", { class: "symbol", "aria-hidden": "true" }, stat.symbol),
    h("span", { class: "sr-only" }, ` ${stat.name} `), W.signed(s.bonus));
}

// The small card that one taps (or focuses) for its details: the card's name as a button that opens its face,
// the card's key numbers, and its buttons. At most one card's details are open (kept across redraws by `key`).
let opened = null;

// Close the open card's details (a tap elsewhere, Escape, the focus gone elsewhere): they never stay over the
// table once the player looks away from the card. `dismissed`: Escape also hides the details the keyboard's
// focus shows, until the focus leaves the card.
function closeDetails(li, { dismiss = false } = {}) {
  const open = li ? [li] : [...document.querySelectorAll(".duel-table .mini.open")];
  for (const el of open) {
    el.classList.remove("open");
    const peek = el.querySelector(".peek");
    if (peek) peek.setAttribute("aria-expanded", "false");
    if (el.dataset.details === opened) opened = null;
  }
  if (li && dismiss) li.classList.add("dismissed");
  if (!li) opened = null;
}

if (typeof document !== "undefined") { // a browser (Node's unit tests import this module without one)
  document.addEventListener("pointerdown", (e) => {
    if (!e.target.closest || !e.target.closest(".duel-table .mini.open")) closeDetails(null);
  });
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    const li = document.activeElement && document.activeElement.closest ? document.activeElement.closest(".duel-table .mini") : null;
    if (li) closeDetails(li, { dismiss: true });
    else closeDetails(null);
  });
}

function mini(W, card, { key, extra = "", note = null, buttons = [] }) {
  const character = card.startsWith("C");
  const n = Number(card.slice(1));
  const face = character ? characterFace(W, n, note) : supportFace(W, n);
  const kind = character ? "character face-up" : `support kind-${W.support(n).kind}`;
  const open = opened === key;
  const id = `details-${key}`;
  const peek = h("button", { type: "button", class: "peek", "aria-expanded": String(open), "aria-controls": id,
    "data-key": key, onclick: (e) => {
      const li = e.currentTarget.closest(".mini");
      const now = !li.classList.contains("open");
      li.closest(".duel-table").querySelectorAll(".mini.open").forEach((other) => {
        other.classList.remove("open");
        other.querySelector(".peek").setAttribute("aria-expanded", "false");
      });
      li.classList.toggle("open", now);
      li.classList.remove("dismissed");
      e.currentTarget.setAttribute("aria-expanded", String(now));
      opened = now ? key : null;
    } },
  h("span", { class: "num" }, card), " ", h("span", { class: "name" }, character ? W.character(n).name : W.support(n).name));
  const acts = buttons.filter(Boolean);
  const li = h("li", { class: `mini card ${kind} ${extra}`.trim() + (open ? " open" : ""), "data-card": card, "data-details": key,
    onfocusout: (e) => {
      if (!e.relatedTarget || e.currentTarget.contains(e.relatedTarget)) return;
      e.currentTarget.classList.remove("dismissed");
      if (e.currentTarget.classList.contains("open")) closeDetails(e.currentTarget);
    } },
    peek, character ? statLine(W, n) : bonusLine(W, n),
    note ? h("span", { class: "note" }, note) : null,
    acts.length ? h("span", { class: "card-actions" }, acts) : null,
    h("div", { class: "details", id, role: "note", "aria-label": character ? W.charLabel(n) : W.supportLabel(n) }, face));
  return li;
}

function faceDown() {
  return h("li", { class: "mini card character face-down" },
    h("span", { role: "img", "aria-label": _("A face-down character") }, "?"));
}

// ------------------------------------------------------------------ the parts of the table

// Whose turn it is, in words that fit the reader: one's own task, or what the other player is doing; once the
// match is over (by the rules, or a resignation, a loss on time, a player who left: the frame's `endWords`), that
// it is, never a turn that will not come.
export function turnWords(W, view, names, { over = false, endWords = "" } = {}) {
  if (over || view.outcome) return endWords || W.F.phases.over;
  if (view.to_act === null) return "";
  const deciding = view.seat !== null && view.to_act === view.seat && view.legal.length > 0; // not in a replay
  if (deciding) return _("Your turn: {task}", { task: W.F.phases[view.phase] });
  const player = names[view.to_act];
  const doing = {
    [PHASE.DRAFT]: _("{player} is picking a character…"),
    [PHASE.LINEUP]: _("{player} is lining up…"),
    [PHASE.CHAMPION]: _("{player} is choosing a tie-break character…"),
    [PHASE.STAT]: _("{player} is choosing the stat…"),
    [PHASE.PLAY]: _("{player} is playing…"),
    [PHASE.CHOICE]: _("{player} is choosing a card…"),
  }[view.phase] || _("{player} is choosing…");
  return fill(doing, { player });
}

function header(W, view, names, end) {
  let title = roundTitle(W, view.round_number);
  if (view.phase === PHASE.DRAFT) title = _("Draft");
  else if (view.phase === PHASE.LINEUP) title = _("Line-up");
  const mine = !end.over && view.seat !== null && view.to_act === view.seat && view.legal.length > 0;
  return h("header", { class: "duel-head" }, h("h2", {}, title),
    h("p", { class: "turn-words" + (mine ? " mine" : "") }, turnWords(W, view, names, end)));
}

// Whose cards were just played (the last moves of the others, ctx.moves): their cards are marked.
function justPlayed(moves) {
  const cards = new Set();
  for (const m of moves || []) {
    if (!m.action) continue;
    const { kind, arg } = parse(m.action);
    if (["play", "ability", "take", "swap", "pick"].includes(kind)) cards.add(arg);
  }
  return cards;
}

// A seat's line-up as small cards: the viewer's own in its order (each marked flipped or face down, the buttons
// of line-up and tie-break on them); another seat's flipped characters face up and the rest face down (all face
// up once the match is over and its record shows them: `shown`).
function lineup(W, view, seat, ctl, shown) {
  const info = view.seats[seat];
  const flipped = new Set(info.flipped);
  const cards = [];
  const mine = seat === view.seat && view.my_characters.length > 0;
  const current = (n) => (n === info.character ? " current" : "");
  if (mine) {
    view.lineup.forEach((n, i) => cards.push(mini(W, `C${n}`, {
      key: `line-${seat}-C${n}`,
      extra: (flipped.has(n) ? "flipped" : "hidden-to-others") + current(n),
      note: _("#{position} · {state}", { position: i + 1, state: flipped.has(n) ? W.w.flipped : W.w.face_down })
        + (view.champion === n ? " · " + _("Your tie-break pick") : ""),
    })));
    // the characters still to line up (their buttons are in the dock when it is this seat's decision)
    for (const n of view.my_characters.filter((c) => !view.lineup.includes(c))) {
      cards.push(mini(W, `C${n}`, { key: `line-${seat}-C${n}`, extra: "unlined", note: _("Not lined up yet") }));
    }
  } else {
    for (const n of [...flipped]) cards.push(mini(W, `C${n}`, { key: `line-${seat}-C${n}`, extra: "flipped" + current(n), note: W.w.flipped }));
    const rest = shown ? (shown.lineup.length ? shown.lineup : shown.my_characters).filter((n) => !flipped.has(n)) : [];
    for (const n of rest) cards.push(mini(W, `C${n}`, { key: `line-${seat}-C${n}`, extra: "revealed", note: _("never flipped") }));
    for (let i = flipped.size + rest.length; i < LINEUP_SIZE; i += 1) cards.push(faceDown());
  }
  const known = info.known_characters.filter((c) => !flipped.has(c));
  return h("div", { class: "lineup" }, h("h4", { class: "sr-only" }, _("Line-up")), h("ul", { class: "minis" }, cards),
    !mine && known.length && !shown ? h("p", { class: "known" }, _("Known, not yet flipped: {characters}", { characters: known.map(W.charLabel).join(", ") })) : null);
}

// A seat's public counts on one line, then its items and discard pile as small cards.
function seatFacts(W, view, seat, shown) {
  const info = view.seats[seat];
  const part = (label, value, cls) => h("span", { class: `count ${cls}` }, label, ": ", h("b", {}, value));
  const counts = [
    part(W.w.hand, W.cards(info.hand_size), "hand-size"),
    part(view.shared_pile ? W.w.draw_pile_shared : W.w.draw_pile, W.cards(info.pile_size), "pile-size"),
    part(W.w.discard, W.cards(info.discard.length), "discard-size"),
    part(W.w.round_wins, String(info.wins), "wins"),
  ];
  if (IN_ROUND.includes(view.phase)) {
    counts.push(part(W.w.plays_left, String(Math.max(0, 2 - info.plays)), "plays-left"),
      part(W.w.ability, info.ability_used ? W.w.used : W.w.not_used, "ability-used"));
  }
  if (info.modifier) counts.push(part(W.w.modifiers, W.signed(info.modifier), "modifier"));
  const chips = (label, cls, list) => (list.length ? h("div", { class: `chips ${cls}` }, h("span", { class: "chips-label" }, label, ":"),
    h("ul", { class: "minis" }, list.map((n, i) => mini(W, `S${n}`, { key: `${cls}-${seat}-${i}-S${n}` })))) : null);
  const theirs = seat !== view.seat;
  return [h("p", { class: "counts" }, counts),
    chips(W.w.items, "items", info.items),
    theirs && info.revealed.length && !shown ? chips(W.w.known_in_hand, "revealed", info.revealed) : null,
    theirs && shown ? chips(W.w.hand, "shown-hand", shown.hand) : null,
    chips(W.w.discard, "discard", info.discard)];
}

function side(W, view, seat, names, ctl, shown, over) {
  const mine = seat === view.seat;
  // near: the side at the bottom (the viewer's; a spectator's Player 1), far: the other at the top
  const near = seat === (view.seat === null ? 0 : view.seat);
  return h("section", { class: `side seat${seat}` + (mine ? " mine" : " theirs") + (near ? " near" : " far")
    + (view.to_act === seat && !over ? " to-act" : ""), "aria-label": names[seat] },
    h("h3", { class: "side-name" }, names[seat], " ", h("span", { class: "clock", "data-seat": seat })),
    lineup(W, view, seat, ctl, shown), seatFacts(W, view, seat, shown));
}

// The round in the middle: the stat and who chose it, both totals, what was played this round, the place.
function middle(W, view, names, moves) {
  const me = view.seat === null ? 0 : view.seat;
  const order = [1 - me, me];
  const rows = [];
  if (IN_ROUND.includes(view.phase)) {
    const stat = view.stat >= 0 ? W.F.stats[view.stat] : null;
    rows.push(h("p", { class: "round-stat" }, stat
      ? fill(_("{stat}, chosen by {player}"), { stat: `${stat.symbol} ${stat.name}`, player: names[view.chooser] })
      : fill(_("{player} chooses the stat of this round."), { player: names[view.chooser] })));
    if (stat) {
      rows.push(h("p", { class: "totals" }, order.map((seat) => h("span", { class: `total-of seat${seat}` },
        names[seat], ": ", view.seats[seat].character ? h("b", { class: "total" }, view.seats[seat].total) : "–"))));
    }
    const last = moves && moves.length ? moves[moves.length - 1] : null;
    rows.push(h("section", { class: "round-log", "aria-label": W.w.this_round }, h("h4", {}, W.w.this_round),
      view.log.length ? h("ol", {}, view.log.map((e, i) => h("li", {
        class: last && i === view.log.length - 1 && e.seat === last.actor ? "last-move" : null,
      }, h("span", { class: "who" }, names[e.seat]), ": ", logLine(W, e, names))))
        : h("p", {}, W.w.nothing_yet)));
  }
  const place = view.place && view.place_owner !== null
    ? h("div", { class: "place" }, h("ul", { class: "minis" }, mini(W, `S${view.place}`, { key: `place-S${view.place}`,
      note: fill(_("owned by {player}"), { player: names[view.place_owner] }) })), h("span", { class: "sr-only" },
      fill(W.w.place, { card: W.supportLabel(view.place), detail: W.supportDetail(view.place), player: names[view.place_owner] })))
    : h("p", { class: "place none" }, W.w.no_place);
  return h("section", { class: "middle", "aria-label": _("This round") }, rows, place, results(W, view, names));
}

function results(W, view, names) {
  if (!view.results.length) return null;
  // On a phone each round is a small block (its round, stat and winner on a line, each seat's total on its own),
  // its words whole: the cells name their column (data-label), and the roles keep the table a table to screen
  // readers whatever its display.
  const heads = [_("Round"), _("Stat"), names[0], names[1], _("Winner")];
  const cell = (i, text) => h("td", { role: "cell", class: ["round", "stat", "seat0", "seat1", "winner"][i], "data-label": heads[i] }, text);
  return h("section", { class: "results" }, h("h4", {}, _("Results of the rounds")),
    h("table", { role: "table" }, h("thead", { role: "rowgroup" }, h("tr", { role: "row" }, heads.map((t) => h("th", { scope: "col", role: "columnheader" }, t)))),
      h("tbody", { role: "rowgroup" }, view.results.map((r) => h("tr", { role: "row" },
        h("th", { scope: "row", role: "rowheader", class: "round" }, roundTitle(W, r.number)),
        cell(1, `${W.F.stats[r.stat].symbol} ${W.F.stats[r.stat].name}`),
        cell(2, `${W.charLabel(r.characters[0])}: ${r.totals[0]}`),
        cell(3, `${W.charLabel(r.characters[1])}: ${r.totals[1]}`),
        cell(4, r.winner < 0 ? W.w.draw : names[r.winner] + (r.by_charm ? ` ${W.w.by_charm}` : "")))))));
}

// The draft pool's faces, to read before picking (the pick buttons are in the dock, always in sight).
function draftPool(W, view) {
  if (!view.draft_pool.length || view.phase !== PHASE.DRAFT) return null;
  return h("section", { class: "draft" }, h("h3", {}, _("Characters still free to pick")),
    h("div", { class: "faces" }, view.draft_pool.map((n) => characterFace(W, n))));
}

// ------------------------------------------------------------------ the dock: one's options and hand, in reach

function choices(W, view, ctl) {
  const groups = [];
  if (view.phase === PHASE.DRAFT) {
    const picks = view.draft_pool.map((n) => ctl.button(`pick C${n}`,
      [h("span", { class: "tile-name" }, h("span", { class: "num" }, `C${n}`), " ", h("span", { class: "name" }, W.character(n).name)),
        statLine(W, n)], "tile"))
      .filter(Boolean);
    if (picks.length) groups.push(h("div", { class: "tiles" }, picks));
  }
  const unlined = view.my_characters.filter((c) => !view.lineup.includes(c));
  const lining = unlined.map((n) => mini(W, `C${n}`, { key: `unlined-C${n}`, note: _("Not lined up yet"),
    buttons: [ctl.button(`line C${n}`, _("Line up as #{position}", { position: view.lineup.length + 1 }))] }))
    .filter((li) => li.querySelector(".act"));
  if (lining.length) groups.push(h("ul", { class: "minis" }, lining));
  const champions = view.lineup.map((n) => mini(W, `C${n}`, { key: `champion-C${n}`,
    buttons: [ctl.button(`champion C${n}`, _("Choose for the tie-break"))] })).filter((li) => li.querySelector(".act"));
  if (champions.length) groups.push(h("ul", { class: "minis" }, champions));
  const stats = W.F.stats.map((s) => ctl.button(`stat ${s.key}`, [h("span", { class: "symbol", "aria-hidden": "true" }, s.symbol), " ", s.name], `stat ${s.key}`));
  const discard = view.seat === null ? [] : view.seats[view.seat].discard;
  const fromDiscard = discard.map((n) => ctl.button(`take S${n}`, fill(_("Take back {card}"), { card: W.supportLabel(n) }), "take")
    || ctl.button(`swap S${n}`, fill(_("Put {card} on the table"), { card: W.supportLabel(n) }), "swap"));
  return { groups, buttons: [...stats, ...fromDiscard] };
}

function hand(W, view, ctl) {
  const cards = view.hand.map((n, i) => mini(W, `S${n}`, { key: `hand-${i}-S${n}`, buttons: [
    ctl.button(`play S${n}`, _("Play"), "play"),
    ctl.button(`ability S${n}`, _("Ability"), "ability"),
  ] }));
  return h("section", { class: "hand", "aria-label": W.w.your_hand }, h("h3", {}, W.w.your_hand),
    cards.length ? h("ul", { class: "minis" }, cards) : h("p", {}, W.w.hand_empty),
    view.known_top.length ? h("p", { class: "known-top" }, _("Top of your draw pile: {cards}", { cards: view.known_top.map(W.supportLabel).join(", ") })) : null);
}

function dock(W, view, ctl) {
  if (view.seat === null) return null;
  const { groups, buttons } = choices(W, view, ctl);
  const myHand = hand(W, view, ctl); // before the rest: the hand's buttons are placed on its cards
  const pass = ctl.button("pass", W.w.pass, "pass");
  const all = [...buttons, pass, ...ctl.rest()].filter(Boolean);
  const options = groups.length || all.length
    ? h("div", { class: "actions duel-actions", role: "group", "aria-label": _("Your options") }, groups,
      all.length ? h("div", { class: "buttons" }, all) : null)
    : null;
  return h("div", { class: "dock" }, options, myHand);
}

// ------------------------------------------------------------------ the table

// The last move of the others in words (the frame's one-line strip).
export function moveWords({ facts: F, names }, move) {
  const W = wordsOf(F);
  const { kind } = parse(move.action);
  const line = logLine(W, { action: move.action, seat: move.actor, auto: false }, names);
  if (kind === "stat") return line;
  if (kind === "pick") return fill(_("{player} picks {character}."), { player: names[move.actor], character: W.charLabel(parse(move.action).n) });
  return `${names[move.actor]}: ${line}`;
}

// The table at the end of the match, with what the record shows (`revealed`: each seat's last view).
export function render(root, { view, version, facts: F, names, act, moves, revealed, over = false, endWords = "" }) {
  const W = wordsOf(F);
  const focused = root.contains(document.activeElement) ? document.activeElement.dataset.action || document.activeElement.dataset.key || null : null;
  const ctl = controls(W, view, act);
  // the viewer's side at the bottom, next to its hand; a spectator sees Player 1 at the bottom
  const me = view.seat === null ? 0 : view.seat;
  const them = 1 - me;
  const shown = (seat) => (revealed && revealed[seat] && seat !== view.seat ? revealed[seat] : null);
  const theirSide = side(W, view, them, names, ctl, shown(them), over);
  const mySide = side(W, view, me, names, ctl, shown(me), over);
  const myDock = dock(W, view, ctl);
  const table = h("div", { class: "duel-table" + (view.seat === null ? " spectating" : ""), "data-version": version ?? "" },
    header(W, view, names, { over, endWords }), theirSide, middle(W, view, names, moves), draftPool(W, view), mySide, myDock);
  const played = justPlayed(moves);
  table.querySelectorAll(".mini[data-card]").forEach((el) => { if (played.has(el.dataset.card) && !el.closest(".dock")) el.classList.add("last-move"); });
  root.replaceChildren(table);
  // keep the keyboard where it was: the same action if it is still offered, else the first option
  if (focused !== null) {
    const again = root.querySelector(`[data-action="${CSS.escape(focused)}"]`) || root.querySelector(`[data-key="${CSS.escape(focused)}"]`)
      || root.querySelector(".act");
    if (again) again.focus();
  }
}
export { help } from "./help.js";
