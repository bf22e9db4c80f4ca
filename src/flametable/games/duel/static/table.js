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
import { savedDecks } from "./decks.js";

const PHASE = { DRAFT: "draft", LINEUP: "lineup", CHAMPION: "champion", STAT: "stat", PLAY: "play", CHOICE: "choice", OVER: "over" };
const IN_ROUND = [PHASE.STAT, PHASE.PLAY, PHASE.CHOICE]; // the phases of a round being played
const LINEUP_SIZE = 3;

export function facts() {
  return api("/api/games/duel/facts");
}

// ------------------------------------------------------------------ the lobby's field: an own deck

// The lobby's field beside the declared options (mode, pick): one of the decks saved by the deck builder.
export function optionFields() {
  return [h("label", {}, _("Your deck"), " ", h("select", { name: "deck" },
    h("option", { value: "" }, _("A random deck")),
    savedDecks().map((d, i) => h("option", { value: String(i) }, d.name))))];
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

// ------------------------------------------------------------------ card faces

function statList(W, c) {
  return h("ul", { class: "stats" }, W.F.stats.map((s) => h("li", { class: `stat ${s.key}` },
    h("span", { class: "symbol", "aria-hidden": "true" }, s.symbol), " ", h("span", { class: "stat-name" }, s.name), " ",
    h("b", {}, c[s.key]))));
}

function characterFace(W, n, { extra = "", note = null, buttons = [] } = {}) {
  const c = W.character(n);
  return h("article", { class: `card character face-up ${extra}`.trim(), "data-card": `C${n}` },
    h("h3", { class: "card-name" }, h("span", { class: "num" }, `C${n}`), " ", c.name),
    statList(W, c),
    note ? h("p", { class: "note" }, note) : null,
    h("p", { class: "ability" }, fill(W.w.ability_text, { text: c.ability })),
    buttons.filter(Boolean).length ? h("div", { class: "card-actions" }, buttons) : null);
}

function supportFace(W, n, { extra = "", buttons = [] } = {}) {
  const s = W.support(n);
  const stat = W.stat(s.stat);
  return h("article", { class: `card support kind-${s.kind} face-up ${extra}`.trim(), "data-card": `S${n}` },
    h("h3", { class: "card-name" }, h("span", { class: "num" }, `S${n}`), " ", s.name),
    h("p", { class: "kind" }, W.F.kinds[s.kind], " · ", h("span", { class: `stat ${stat.key}` },
      h("span", { class: "symbol", "aria-hidden": "true" }, stat.symbol), " ", stat.name, " ", h("b", {}, W.signed(s.bonus)))),
    s.equips_to.length ? h("p", { class: "equips" }, fill(W.w.equips_to, { characters: s.equips_to.map(W.charLabel).join(", ") })) : null,
    h("p", { class: "text" }, s.text),
    buttons.filter(Boolean).length ? h("div", { class: "card-actions" }, buttons) : null);
}

// A small chip naming a support card (items equipped, discard piles), with an optional button.
function supportChip(W, n, button = null) {
  const s = W.support(n);
  return h("li", { class: `chip kind-${s.kind}`, title: `${W.supportDetail(n)}. ${s.text}` }, W.supportLabel(n), " ",
    h("span", { class: "detail" }, `(${W.supportDetail(n)})`), button ? [" ", button] : null);
}

function faceDown(W) {
  return h("div", { class: "card character face-down", role: "img", "aria-label": _("A face-down character") },
    h("span", { "aria-hidden": "true" }, "?"));
}

// ------------------------------------------------------------------ the parts of the table

function header(W, view, names) {
  let title = roundTitle(W, view.round_number);
  if (view.phase === PHASE.DRAFT) title = _("Draft");
  else if (view.phase === PHASE.LINEUP) title = _("Line-up");
  const facts = [];
  if (view.stat >= 0) facts.push(fill(W.w.stat, { stat: `${W.F.stats[view.stat].symbol} ${W.F.stats[view.stat].name}` }));
  if (view.chooser !== null) facts.push(fill(W.w.chooser, { player: names[view.chooser] }));
  if (view.to_act !== null) facts.push(fill(W.w.turn, { player: names[view.to_act], task: W.F.phases[view.phase] }));
  return h("header", { class: "duel-head" }, h("h2", {}, title), h("p", { class: "round-facts" }, facts.join(" · ")));
}

// A seat's line-up: the viewer's own in its order, face up (each marked flipped or face down); another seat's
// flipped characters face up and the rest face down.
function lineup(W, view, seat, ctl) {
  const info = view.seats[seat];
  const flipped = new Set(info.flipped);
  const cards = [];
  const mine = seat === view.seat && view.my_characters.length > 0;
  if (mine) {
    view.lineup.forEach((n, i) => cards.push(characterFace(W, n, {
      extra: (flipped.has(n) ? "flipped" : "hidden-to-others") + (n === info.character ? " current" : ""),
      note: _("#{position} · {state}", { position: i + 1, state: flipped.has(n) ? W.w.flipped : W.w.face_down })
        + (view.champion === n ? ` · ${_("Your tie-break pick")}` : ""),
      buttons: [ctl.button(`champion C${n}`, _("Choose for the tie-break"))],
    })));
    for (const n of view.my_characters.filter((c) => !view.lineup.includes(c))) {
      cards.push(characterFace(W, n, { extra: "unlined", note: _("Not lined up yet"),
        buttons: [ctl.button(`line C${n}`, _("Line up as #{position}", { position: view.lineup.length + 1 }))] }));
    }
  } else {
    for (const n of [...flipped]) cards.push(characterFace(W, n, { extra: "flipped" + (n === info.character ? " current" : ""), note: W.w.flipped }));
    for (let i = flipped.size; i < LINEUP_SIZE; i += 1) cards.push(faceDown(W));
  }
  const known = info.known_characters.filter((c) => !flipped.has(c));
  return h("div", { class: "lineup" }, h("h4", {}, _("Line-up")), h("div", { class: "cards" }, cards),
    !mine && known.length ? h("p", { class: "known" }, _("Known, not yet flipped: {characters}", { characters: known.map(W.charLabel).join(", ") })) : null);
}

// A seat's public counts and this round's state.
function seatFacts(W, view, seat, ctl) {
  const info = view.seats[seat];
  const rows = [];
  const row = (label, ...value) => rows.push(h("dt", {}, label), h("dd", {}, ...value));
  if (info.character) row(W.w.character, W.charLabel(info.character));
  if (view.stat >= 0 && info.character) row(W.w.total, h("b", { class: "total" }, info.total));
  if (info.modifier) row(W.w.modifiers, W.signed(info.modifier));
  if (info.items.length) row(W.w.items, h("ul", { class: "chips" }, info.items.map((n) => supportChip(W, n))));
  if (IN_ROUND.includes(view.phase)) {
    row(W.w.plays_left, String(Math.max(0, 2 - info.plays)));
    row(W.w.ability, info.ability_used ? W.w.used : W.w.not_used);
  }
  row(W.w.hand, h("span", { class: "hand-size" }, W.cards(info.hand_size)));
  if (info.revealed.length) row(W.w.known_in_hand, info.revealed.map(W.supportLabel).join(", "));
  row(view.shared_pile ? W.w.draw_pile_shared : W.w.draw_pile, h("span", { class: "pile-size" }, W.cards(info.pile_size)));
  const mine = seat === view.seat;
  row(W.w.discard, h("span", { class: "discard-size" }, W.cards(info.discard.length)),
    info.discard.length ? h("ul", { class: "chips discard" }, info.discard.map((n) => supportChip(W, n, mine
      ? (ctl.button(`take S${n}`, _("Take back")) || ctl.button(`swap S${n}`, _("Put on the table"))) : null))) : null);
  row(W.w.round_wins, h("b", { class: "wins" }, info.wins));
  return h("dl", { class: "seat-facts" }, rows);
}

function side(W, view, seat, names, ctl) {
  const mine = seat === view.seat;
  return h("section", { class: `side seat${seat}` + (mine ? " mine" : " theirs") + (view.to_act === seat ? " to-act" : ""), "aria-label": names[seat] },
    h("h3", { class: "side-name" }, names[seat]), lineup(W, view, seat, ctl), seatFacts(W, view, seat, ctl));
}

function middle(W, view, names) {
  const place = view.place && view.place_owner !== null
    ? h("div", { class: "place" }, h("p", {}, fill(W.w.place, { card: W.supportLabel(view.place), detail: W.supportDetail(view.place), player: names[view.place_owner] })), supportFace(W, view.place))
    : h("p", { class: "place none" }, W.w.no_place);
  const log = IN_ROUND.includes(view.phase)
    ? h("section", { class: "round-log", "aria-label": W.w.this_round }, h("h4", {}, W.w.this_round),
      view.log.length ? h("ol", {}, view.log.map((e) => h("li", {}, h("span", { class: "who" }, names[e.seat]), ": ", logLine(W, e, names))))
        : h("p", {}, W.w.nothing_yet))
    : null;
  return h("section", { class: "middle" }, place, log, results(W, view, names));
}

function results(W, view, names) {
  if (!view.results.length) return null;
  return h("section", { class: "results" }, h("h4", {}, _("Results of the rounds")),
    h("table", {}, h("thead", {}, h("tr", {}, [_("Round"), _("Stat"), names[0], names[1], _("Winner")].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, view.results.map((r) => h("tr", {},
        h("th", { scope: "row" }, roundTitle(W, r.number)),
        h("td", {}, `${W.F.stats[r.stat].symbol} ${W.F.stats[r.stat].name}`),
        h("td", {}, `${W.charLabel(r.characters[0])}: ${r.totals[0]}`),
        h("td", {}, `${W.charLabel(r.characters[1])}: ${r.totals[1]}`),
        h("td", {}, r.winner < 0 ? W.w.draw : names[r.winner] + (r.by_charm ? ` ${W.w.by_charm}` : "")))))));
}

function draftPool(W, view, ctl) {
  if (!view.draft_pool.length || view.phase !== PHASE.DRAFT) return null;
  return h("section", { class: "draft" }, h("h3", {}, _("Characters still free to pick")),
    h("div", { class: "cards" }, view.draft_pool.map((n) => characterFace(W, n, { buttons: [ctl.button(`pick C${n}`, _("Pick"))] }))));
}

function hand(W, view, ctl) {
  if (view.seat === null) return null;
  const cards = view.hand.map((n) => supportFace(W, n, { buttons: [
    ctl.button(`play S${n}`, _("Play"), "play"),
    ctl.button(`ability S${n}`, _("Discard for the ability"), "ability"),
  ] }));
  return h("section", { class: "hand", "aria-label": W.w.your_hand }, h("h3", {}, W.w.your_hand),
    cards.length ? h("div", { class: "cards" }, cards) : h("p", {}, W.w.hand_empty),
    view.known_top.length ? h("p", { class: "known-top" }, _("Top of your draw pile: {cards}", { cards: view.known_top.map(W.supportLabel).join(", ") })) : null);
}

function options(W, view, ctl) {
  const stats = W.F.stats.map((s) => ctl.button(`stat ${s.key}`, [h("span", { class: "symbol", "aria-hidden": "true" }, s.symbol), " ", s.name], `stat ${s.key}`));
  const pass = ctl.button("pass", W.w.pass, "pass");
  const rest = ctl.rest();
  const all = [...stats, pass, ...rest].filter(Boolean);
  if (!all.length) return null;
  return h("div", { class: "actions duel-actions", role: "group", "aria-label": _("Your options") }, all);
}

// ------------------------------------------------------------------ the table

export function render(root, { view, version, facts: F, names, act }) {
  const W = wordsOf(F);
  const focused = root.contains(document.activeElement) ? document.activeElement.dataset.action || null : null;
  const ctl = controls(W, view, act);
  // the viewer's side at the bottom, next to its hand; a spectator sees Player 1 at the bottom
  const me = view.seat === null ? 0 : view.seat;
  const them = 1 - me;
  // the parts that place buttons come before options(), which offers the legal actions left
  const theirSide = side(W, view, them, names, ctl);
  const mySide = side(W, view, me, names, ctl);
  const pool = draftPool(W, view, ctl);
  const myHand = hand(W, view, ctl);
  const opts = options(W, view, ctl);
  root.replaceChildren(h("div", { class: "duel-table" + (view.seat === null ? " spectating" : ""), "data-version": version ?? "" },
    header(W, view, names), theirSide, middle(W, view, names), pool, mySide, opts, myHand));
  // keep the keyboard where it was: the same action if it is still offered, else the first option
  if (focused !== null) {
    const again = root.querySelector(`[data-action="${CSS.escape(focused)}"]`) || root.querySelector(".act");
    if (again) again.focus();
  }
}
