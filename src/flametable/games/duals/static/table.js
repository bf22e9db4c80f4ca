// Flamecraft Duals' table: the hex board as SVG (each space's stack, the top token large, the covered ones small),
// your hand of shop cards with their patterns and VP, bag / reserve / deck, coins and scores, and the final count
// with its tie-breaks. The table holds no rule: every control comes from the view's legal actions (their notation,
// docs/duals.md). Spaces that a legal action names are highlighted and focusable; a move or a swap is two clicks
// (the first space, then the second), a selection built only from the legal list; actions with no natural place
// (done, skip, coin, fire, take) are buttons. The words come from the facts (GET /api/games/duals/facts).
import { api } from "/static/js/api.js";
import { announce, h, s } from "/static/js/dom.js";
import { _, ngettext } from "/static/js/i18n.js";

const SIZE = 40; // a board hex's radius in SVG units
const CARD_SIZE = 11; // a pattern hex's radius
const SQRT3 = Math.sqrt(3);

// The client-side selection of a two-click action (move, swap): the first space, kept while the version stays.
const picked = { version: null, space: null };

export function facts() {
  return api("/api/games/duals/facts");
}

// ------------------------------------------------------------------ the legal list, read as click targets

// Each legal notation by what a click on the page means: spaces, cards, buttons.
export function readLegal(legal) {
  const out = { place: new Map(), use: new Map(), move: [], swap: [], cards: new Map(), buttons: [] };
  for (const action of legal) {
    const [verb, a, b] = action.split(" ");
    if (verb === "place" || verb === "use") out[verb].set(a, action);
    else if (verb === "move" || verb === "swap") out[verb].push({ from: a, to: b, action });
    else if (verb === "score" || verb === "bottom") out.cards.set(Number(a.slice(1)), { verb, action });
    else out.buttons.push(action);
  }
  return out;
}

// What a click on each space does now: {action} sends, {pick} selects the first space of a pair, {cancel}.
export function spaceTargets(options, version) {
  if (picked.version !== version) { picked.version = version; picked.space = null; }
  const targets = new Map();
  for (const [space, action] of options.place) targets.set(space, { action, what: _("place the token here") });
  for (const [space, action] of options.use) targets.set(space, { action, what: _("use this token's ability") });
  const pairs = [...options.move.map((p) => ({ ...p, verb: "move" })),
    ...options.swap.flatMap((p) => [{ ...p, verb: "swap" }, { from: p.to, to: p.from, action: p.action, verb: "swap" }])];
  if (picked.space !== null && !pairs.some((p) => p.from === picked.space)) picked.space = null;
  if (picked.space === null) {
    for (const p of pairs) {
      targets.set(p.from, { pick: true, what: p.verb === "move" ? _("move this token") : _("swap this token") });
    }
  } else {
    targets.set(picked.space, { cancel: true, what: _("cancel the choice") });
    for (const p of pairs.filter((q) => q.from === picked.space)) {
      targets.set(p.to, { action: p.action, what: p.verb === "move" ? _("move the token here") : _("swap with this token") });
    }
  }
  return targets;
}

// ------------------------------------------------------------------ tokens

function kindOf(f, key) {
  return f.kinds[key] || { letters: "?", name: key, types: [], colours: ["#555"] };
}

// A token as a disc: one colour, or two halves for a dual; its letters on it (colour is never the only signal).
function tokenDisc(f, key, x, y, r, top) {
  const kind = kindOf(f, key);
  const letters = top ? kind.letters : kind.letters.toLowerCase();
  const parts = kind.colours.length === 2
    ? [s("path", { d: `M${x} ${y - r}A${r} ${r} 0 0 0 ${x} ${y + r}Z`, fill: kind.colours[0] }),
      s("path", { d: `M${x} ${y - r}A${r} ${r} 0 0 1 ${x} ${y + r}Z`, fill: kind.colours[1] })]
    : [s("circle", { cx: x, cy: y, r, fill: kind.colours[0] })];
  return s("g", { class: "token" + (top ? " top" : " under") }, parts,
    s("circle", { cx: x, cy: y, r, class: "rim" }),
    s("text", { x, y, "font-size": top ? r * 0.95 : r * 1.1, class: "letters" }, letters));
}

// A token in running text: its letters on its colours, then its name.
function tokenChip(f, key, count) {
  const kind = kindOf(f, key);
  const bg = kind.colours.length === 2 ? `linear-gradient(90deg, ${kind.colours[0]} 50%, ${kind.colours[1]} 50%)` : kind.colours[0];
  return h("span", { class: "chip" }, h("span", { class: "glyph", style: `background: ${bg}`, "aria-hidden": "true" }, kind.letters),
    " ", kind.name, count !== undefined ? ` ×${count}` : null);
}

// A translated template with {name} parts filled by page nodes (a token chip keeps its glyph inside the sentence).
function withNodes(template, nodes) {
  return template.split(/(\{\w+\})/).map((part) => {
    const key = part.startsWith("{") ? part.slice(1, -1) : null;
    return key !== null && key in nodes ? nodes[key] : part;
  });
}

function stackWords(f, stack) {
  if (!stack.length) return _("empty");
  const names = stack.map((key) => kindOf(f, key).name);
  const top = names[names.length - 1];
  if (names.length === 1) return _("{top} on top", { top });
  return _("{top} on top of {under}", { top, under: names.slice(0, -1).reverse().join(", ") });
}

// ------------------------------------------------------------------ the board

function hexPoints(x, y, r) {
  const points = [];
  for (let i = 0; i < 6; i++) {
    const angle = Math.PI / 180 * (60 * i - 30);
    points.push(`${(x + r * Math.cos(angle)).toFixed(1)},${(y + r * Math.sin(angle)).toFixed(1)}`);
  }
  return points.join(" ");
}

function centre(q, r, size) {
  return [size * SQRT3 * (q + r / 2), size * 1.5 * r];
}

function activate(handler) {
  return (e) => {
    if (e.type === "click" || e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      handler();
    }
  };
}

function boardSvg(f, view, targets, send, rerender) {
  const xs = [], ys = [];
  for (const sp of f.spaces) { const [x, y] = centre(sp.q, sp.r, SIZE); xs.push(x); ys.push(y); }
  const pad = SIZE + 4;
  const box = [Math.min(...xs) - pad, Math.min(...ys) - pad, Math.max(...xs) - Math.min(...xs) + 2 * pad, Math.max(...ys) - Math.min(...ys) + 2 * pad];
  const firing = ["fire", "take", "meat", "iron", "potion", "plant"].includes(view.phase) ? view.src : null;
  const spaces = f.spaces.map((sp) => {
    const [x, y] = centre(sp.q, sp.r, SIZE);
    const stack = view.board[sp.name] || [];
    const target = targets.get(sp.name);
    const selected = picked.space === sp.name;
    const label = _("Space {space}: {stack}", { space: sp.name, stack: stackWords(f, stack) })
      + (target ? ". " + _("Click: {what}", { what: target.what }) : "");
    const click = target ? () => {
      if (target.action) { picked.space = null; send(target.action); }
      else if (target.pick) { picked.space = sp.name; announce(_("{space} chosen: now choose the other space.", { space: sp.name })); rerender(); }
      else { picked.space = null; rerender(); }
    } : null;
    const under = stack.slice(0, -1);
    // The space (what is focused and clicked, named by its label) holds only its shape; what is drawn on it (its
    // name, its tokens' letters) lies in a layer above, hidden from screen readers and from the pointer: the label
    // says it all, and a button's name is never contradicted by words inside it.
    const space = s("g", {
      class: "space" + (target && !target.cancel ? " target" : "") + (selected ? " selected" : "") + (sp.name === firing ? " firing" : ""),
      "data-space": sp.name, "data-key": "space-" + sp.name, "aria-label": label,
      "data-action": target && target.action ? target.action : null, // one click plays it (the tables' mark)
      role: target ? "button" : "img", tabindex: target ? "0" : null,
      onclick: click ? activate(click) : null, onkeydown: click ? activate(click) : null,
    },
    s("polygon", { points: hexPoints(x, y, SIZE - 1.5), class: "cell" }),
    target && !target.cancel ? s("polygon", { points: hexPoints(x, y, SIZE - 6), class: "ring" }) : null);
    const drawn = s("g", { class: "drawn", "aria-hidden": "true" },
      s("text", { x, y: y - SIZE * 0.62, class: "name" }, (sp.name === firing ? "» " : "") + sp.name + (selected ? " ✓" : "")),
      stack.length ? tokenDisc(f, stack[stack.length - 1], x, y + 2, SIZE * 0.4, true) : null,
      under.map((key, i) => tokenDisc(f, key, x + (i - (under.length - 1) / 2) * SIZE * 0.42, y + SIZE * 0.66, SIZE * 0.17, false)));
    return [space, drawn];
  });
  return s("svg", { class: "hexboard", viewBox: box.map((v) => v.toFixed(1)).join(" "), role: "group", "aria-label": _("Board") },
    spaces.map(([space]) => space), spaces.map(([, drawn]) => drawn));
}

// ------------------------------------------------------------------ cards

function patternSvg(f, card) {
  const vars = [];
  const cells = card.cells.map((c) => {
    const [x, y] = centre(c.q, c.r, CARD_SIZE);
    let mark, fill;
    if (c.type) {
      const type = f.types.find((t) => t.key === c.type);
      mark = type.letter; fill = type.colour;
    } else {
      if (!vars.includes(c.var)) vars.push(c.var);
      mark = String(vars.indexOf(c.var) + 1); fill = "#fff";
    }
    return { x, y, mark, fill, variable: !c.type };
  });
  const xs = cells.map((c) => c.x), ys = cells.map((c) => c.y);
  const pad = CARD_SIZE + 2;
  const box = [Math.min(...xs) - pad, Math.min(...ys) - pad, Math.max(...xs) - Math.min(...xs) + 2 * pad, Math.max(...ys) - Math.min(...ys) + 2 * pad];
  return s("svg", { class: "pattern", viewBox: box.map((v) => v.toFixed(1)).join(" "), "aria-hidden": "true" },
    cells.map((c) => s("g", { class: c.variable ? "pcell variable" : "pcell" },
      s("polygon", { points: hexPoints(c.x, c.y, CARD_SIZE - 0.8), fill: c.fill }),
      s("text", { x: c.x, y: c.y, class: "letters" }, c.mark))));
}

function patternWords(f, card) {
  if (card.cells.every((c) => !c.type)) return _("{n} tokens of different types", { n: card.cells.length });
  return card.cells.map((c) => (c.type ? f.types.find((t) => t.key === c.type).name : "?")).join(", ");
}

function cardView(f, number, { matching, choice, send }) {
  const card = f.cards[number - 1];
  const fits = matching.includes(number);
  const words = [card.label, _("{vp} VP", { vp: card.vp }), patternWords(f, card)];
  if (fits) words.push(_("fits the board now"));
  if (choice) words.push(choice.verb === "score" ? _("Click: score it") : _("Click: put it at the bottom of the deck"));
  const body = [
    h("span", { class: "card-head" }, h("span", { class: "card-name" }, card.label), h("span", { class: "vp" }, _("{vp} VP", { vp: card.vp }))),
    patternSvg(f, card),
    card.starburst ? h("span", { class: "note" }, _("STARBURST: your coins are worth 0")) : null,
    fits ? h("span", { class: "fits" }, "✓ ", _("fits")) : null,
    choice ? h("span", { class: "verb" }, choice.verb === "score" ? _("Score") : _("To the bottom")) : null,
  ];
  if (!choice) return h("div", { class: "card" + (fits ? " fits-now" : ""), role: "img", "aria-label": words.join(" · ") }, body);
  return h("button", { class: "card target", "data-card": number, "data-key": "card-" + number, "aria-label": words.join(" · "),
    "data-action": choice.action,
    onclick: () => send(choice.action) }, body);
}

// ------------------------------------------------------------------ buttons for the rest

function buttonLabel(f, view, action, mySeat) {
  const [verb, arg] = action.split(" ");
  if (verb === "done") {
    if (view.phase === "iron") return _("Stop: the iron moves only one token");
    if (view.last_chance) return _("Finish: the match ends");
    return _("Finish scoring (REFRESH: draw up to 2 cards; then the other player's turn)");
  }
  if (verb === "skip") {
    const stack = view.src ? view.board[view.src] || [] : [];
    return withNodes(_("Do not FIRE UP {token}"), { token: stack.length ? tokenChip(f, stack[stack.length - 1]) : "" });
  }
  if (verb === "coin") {
    // the effect in the button's name, its first words in sight (the dock keeps to a line)
    return [_("Spend a coin (you have {n})", { n: view.seats[mySeat].coins }),
      h("span", { class: "sr-only" }, ": ", _("draw 2 cards, then put 2 of your hand at the bottom of the deck"))];
  }
  if (verb === "fire") {
    const type = f.types.find((t) => t.key === arg);
    return type ? [h("span", { class: "glyph", style: `background: ${type.colour}`, "aria-hidden": "true" }, type.letter), " ",
      _("FIRE UP {ability}: {text}", { ability: type.name, text: type.ability })] : action;
  }
  if (verb === "take") return withNodes(_("Keep {token} and place it"), { token: tokenChip(f, arg) });
  return action; // an action this table does not know: its notation
}

// ------------------------------------------------------------------ the rest of the table

function taskText(f, view, legal) {
  if (view.phase === "fire" && !view.fire_optional) return f.fire_forced;
  if (view.phase === "score" && !legal.includes("coin") && (view.coin_used || !view.seats[view.turn].coins)) return f.score_no_coin;
  return f.steps[view.phase] || view.phase;
}

function hint(options) {
  if (picked.space !== null) return _("Now click the highlighted space to finish, or {space} again to cancel.", { space: picked.space });
  if (options.place.size) return _("Click a highlighted space to place the token.");
  if (options.use.size) return _("Click a highlighted token for the plant to use.");
  if (options.move.length) return _("Click the token to move, then where it goes.");
  if (options.swap.length) return _("Click the two tokens to swap.");
  if ([...options.cards.values()].some((c) => c.verb === "score")) return _("Click a card that fits to score it.");
  if (options.cards.size) return _("Click a card to put it at the bottom of the deck.");
  return "";
}

// Whose turn it is, in words that fit the reader: one's own step; what the other player is doing ("Player 2 is
// scoring…"); once the match is over, that it is (the frame's words say why when the rules did not end it: a
// resignation, a loss on time, a player who left), never a turn that will not come.
export function turnWords(f, view, names, { mine, legal, over, endWords }) {
  if (over) return endWords || upperFirst(f.steps.over);
  if (mine) return _("Your turn: {task}", { task: upperFirst(taskText(f, view, legal)) });
  const player = names[view.to_act ?? view.turn];
  const doing = {
    place: () => _("{player} is placing a token…", { player }),
    fire: () => _("{player} is choosing whether to FIRE UP…", { player }),
    take: () => _("{player} is choosing a token to keep…", { player }),
    meat: () => _("{player} is moving a token…", { player }),
    iron: () => _("{player} is moving tokens…", { player }),
    potion: () => _("{player} is swapping tokens…", { player }),
    plant: () => _("{player} is choosing a token to use…", { player }),
    score: () => _("{player} is scoring…", { player }),
    bottom: () => _("{player} is choosing cards for the bottom of the deck…", { player }),
  }[view.phase] || (() => _("{player} is choosing…", { player }));
  return doing();
}

function cardVp(f, pile) {
  return pile.reduce((sum, n) => sum + f.cards[n - 1].vp, 0);
}

function seatsPanel(f, view, names, over) {
  return h("div", { class: "seats" }, view.seats.map((info, i) => h("section", { class: "seat-info" + (view.turn === i && !over ? " turn" : ""), "aria-label": names[i] },
    h("h3", {}, (view.turn === i && !over ? "▶ " : "") + names[i]),
    h("ul", {},
      h("li", {}, h("span", { class: "stat", "aria-hidden": "true" }, "★"), " ", _("{n} VP", { n: info.points })),
      h("li", {}, h("span", { class: "stat", "aria-hidden": "true" }, "◎"), " ", _("Coins: {n}", { n: info.coins })),
      h("li", {}, h("span", { class: "stat", "aria-hidden": "true" }, "▤"), " ", _("Cards in hand: {n}", { n: info.hand_size })),
      h("li", {}, h("span", { class: "stat", "aria-hidden": "true" }, "✓"), " ", info.pile.length
        ? _("Scored cards: {n} ({cards})", { n: info.pile.length, cards: info.pile.map((n) => f.cards[n - 1].label).join(", ") })
        : _("Scored cards: {n}", { n: 0 }))))));
}

function supplyPanel(f, view) {
  const bag = Object.entries(view.bag);
  return h("section", { class: "supply", "aria-label": _("Bag and reserve") },
    h("p", {}, h("strong", {}, ngettext("Bag: {n} token", "Bag: {n} tokens", view.bag_size)), " ", bag.map(([key, n]) => tokenChip(f, key, n))),
    h("p", {}, h("strong", {}, ngettext("Reserve: {n} token", "Reserve: {n} tokens", view.reserve.length)), " ", view.reserve.map((key) => tokenChip(f, key))),
    h("p", {}, h("strong", {}, ngettext("Shop deck: {n} card", "Shop deck: {n} cards", view.deck_size))));
}

function finalCount(f, view, names, revealed) {
  const o = view.outcome;
  const rows = view.seats.map((info, i) => {
    const cards = cardVp(f, info.pile);
    return h("tr", {}, h("th", { scope: "row" }, names[i]), h("td", {}, String(info.points)), h("td", {}, String(cards)),
      h("td", {}, String(info.points - cards)), h("td", {}, String(info.pile.length)));
  });
  const why = o.reason === "more_cards" ? _("Equal on VP: the player with more scored cards wins.")
    : o.reason === "shared_victory" ? _("Equal on VP and on scored cards: the victory is shared.")
      : _("{player} has more VP.", { player: names[o.winner] });
  return h("section", { class: "final-count", "aria-label": _("Final count") },
    h("h2", {}, _("Final count")),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", { scope: "col" }, _("VP now (cards + coins)")),
      h("th", { scope: "col" }, _("VP of cards")), h("th", { scope: "col" }, _("VP of coins")),
      h("th", { scope: "col" }, _("Scored cards (tie-break)")))), h("tbody", {}, rows)),
    h("p", {}, why),
    revealed ? h("ul", { class: "hands-at-end" }, revealed.map((v, i) => (v ? h("li", {}, _("{player}'s hand at the end: {cards}", {
      player: names[i], cards: v.hand.length ? v.hand.map((n) => f.cards[n - 1].label).join(", ") : _("no cards") })) : null))) : null,
    h("p", { class: "note" }, _("Most VP wins (each unspent coin is 1 VP, 0 with STARBURST); on equal VP, more scored cards; then the victory is shared.")));
}

// ------------------------------------------------------------------ the last moves

// A step's words begin with a capital in a heading ("Coin: put cards back…").
function upperFirst(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

// The spaces named by the other player's last moves (placed on, moved from and to, swapped, used, fired).
function movedSpaces(moves) {
  const spaces = new Set();
  for (const m of moves || []) {
    if (!m.action) continue;
    const [verb, a, b] = m.action.split(" ");
    if (["place", "use"].includes(verb)) spaces.add(a);
    if (["move", "swap"].includes(verb)) { spaces.add(a); spaces.add(b); }
  }
  return spaces;
}

// A move of the other player in words (the frame's "last move" strip).
export function moveWords({ facts: f, names }, move) {
  const [verb, a, b] = move.action.split(" ");
  const player = names[move.actor];
  const token = (key) => kindOf(f, key).name;
  switch (verb) {
    case "place": return _("{player} placed a token on {space}.", { player, space: a });
    case "fire": return _("{player} FIRED UP {ability}.", { player, ability: (f.types.find((t) => t.key === a) || { name: a }).name });
    case "skip": return _("{player} did not FIRE UP.", { player });
    case "take": return _("{player} kept {token}.", { player, token: token(a) });
    case "move": return _("{player} moved a token from {from} to {to}.", { player, from: a, to: b });
    case "swap": return _("{player} swapped the tokens of {from} and {to}.", { player, from: a, to: b });
    case "use": return _("{player} used the token on {space}.", { player, space: a });
    case "score": return _("{player} scored {card}.", { player, card: f.cards[Number(a.slice(1)) - 1] ? f.cards[Number(a.slice(1)) - 1].label : a });
    case "coin": return _("{player} spent a coin.", { player });
    case "done": return _("{player} finished the turn.", { player });
    default: return _("{player}: {action}", { player, action: move.action });
  }
}

// On a phone, at one's decision, the dock is pinned at the bottom: the board keeps above it, so that every space to
// click and the dock are in sight together (the board shrinks to the room left, never below a size a finger can use).
function fitBoard(table) {
  const svg = table.querySelector(".hexboard");
  const dock = table.querySelector(".dock");
  if (!svg) return;
  svg.style.maxHeight = "";
  const top = svg.getBoundingClientRect().top + window.scrollY;
  if (!dock || getComputedStyle(dock).position !== "sticky") { // a desktop: the dock beside, the board to the bottom
    // (the notices of the end, the crystal's draws, push it down: its last row stays in sight all the same)
    svg.style.maxHeight = `${Math.round(Math.max(240, window.innerHeight - top - 8))}px`;
    return;
  }
  const room = window.innerHeight - dock.offsetHeight - top - 8;
  svg.style.maxHeight = `${Math.round(Math.max(170, Math.min(room, window.innerHeight * 0.36)))}px`;
}

if (typeof window !== "undefined") { // a browser (the unit tests import this module without one)
  window.addEventListener("resize", () => { const t = document.querySelector(".duals-table"); if (t) fitBoard(t); });
}

// ------------------------------------------------------------------ render

export function render(root, ctx) {
  const { view, seat, version, names, act } = ctx;
  const f = ctx.facts;
  if (!f) { root.replaceChildren(h("p", { class: "error" }, _("The table could not be drawn."))); return; }
  const focusedKey = document.activeElement && root.contains(document.activeElement) ? document.activeElement.dataset.key : null;
  const mine = seat !== null && view.to_act === seat && Array.isArray(view.legal) && view.legal.length > 0;
  const legal = mine ? view.legal : [];
  const options = readLegal(legal);
  const send = (action) => act(action);
  const rerender = () => render(root, ctx);
  const targets = spaceTargets(options, version);
  const me = seat === null ? 0 : seat;

  const over = Boolean(view.outcome) || ctx.over === true; // (a token to place once it is over is no news)
  const held = view.held && !over ? h("p", { class: "held" }, _("Token to place:"), " ", tokenChip(f, view.held)) : null;
  const drawn = view.drawn.length && !over ? h("p", { class: "drawn" }, _("Crystal drew:"), " ", view.drawn.map((k) => tokenChip(f, k))) : null;
  const notices = [
    view.end_triggered && !view.outcome ? h("p", { class: "notice" }, "⚑ ", _("The end is triggered.")) : null,
    view.last_chance && !view.outcome ? h("p", { class: "notice" }, "⚑ ", _("Last chance: only scoring and the coin; then the match ends.")) : null,
  ];
  const task = turnWords(f, view, names, { mine, legal, over, endWords: ctx.endWords });
  const header = h("div", { class: "task", "aria-live": "polite" },
    h("h2", {}, _("Turn {n}", { n: view.turn_number }), " · ", h("span", { class: "turn-words" + (mine ? " mine" : "") }, task)),
    mine ? h("p", { class: "hint" }, hint(options)) : (!over && seat !== null ? h("p", { class: "hint" }, upperFirst(taskText(f, view, legal))) : null));

  const buttons = options.buttons.map((action) => h("button", { class: "target action", "data-action": action, "data-key": "act-" + action,
    onclick: () => send(action) }, buttonLabel(f, view, action, me)));
  if (picked.space !== null) buttons.push(h("button", { class: "cancel", "data-key": "cancel", onclick: () => { picked.space = null; rerender(); } }, _("Cancel")));

  const hand = seat === null ? null : h("section", { class: "hand", "aria-label": _("Your hand") },
    h("h3", {}, _("Your hand")),
    h("div", { class: "cards" }, view.hand.length ? view.hand.map((n) => cardView(f, n, { matching: view.matching, choice: options.cards.get(n), send }))
      : h("p", {}, _("No cards in hand."))),
);

  const dock = mine || hand ? h("div", { class: "dock" },
    buttons.length ? h("div", { class: "actions", role: "group", "aria-label": _("Your options") }, buttons) : null, hand) : null;
  const table = h("div", {
    class: "duals-table", "data-version": version ?? "", "data-mine": mine ? "true" : "false",
    "data-state": `${version}:${picked.space ?? ""}`,
  },
  header, notices, held, drawn,
  h("div", { class: "duals-main" },
    h("div", { class: "board-wrap" }, boardSvg(f, view, targets, send, rerender), legend(f)),
    h("div", { class: "side" }, dock, seat !== null && view.bottom_known.length ? h("p", { class: "note bottom-known" }, _("Your cards under the deck:"), " ",
      view.bottom_known.map(([n, pos]) => _("K{card} ({n} from the bottom)", { card: n, n: pos + 1 })).join(", ")) : null,
    view.outcome ? finalCount(f, view, names, ctx.revealed) : null, seatsPanel(f, view, names, over),
      supplyPanel(f, view))));
  // the spaces of the other player's last moves, marked
  for (const space of movedSpaces(ctx.moves)) {
    const el = table.querySelector(`.hexboard .space[data-space="${CSS.escape(space)}"]`);
    if (el) el.classList.add("last-move");
  }
  root.replaceChildren(table);
  fitBoard(table);
  if (focusedKey) {
    const again = root.querySelector(`[data-key="${CSS.escape(focusedKey)}"]`);
    if (again) again.focus();
  }
}

function legend(f) {
  return h("p", { class: "legend", "aria-label": _("Tokens") }, f.types.map((t) => h("span", { class: "chip" },
    h("span", { class: "glyph", style: `background: ${t.colour}`, "aria-hidden": "true" }, t.letter), " ", t.name)),
  h("span", { class: "chip" }, h("span", { class: "glyph buddy", "aria-hidden": "true" }, f.buddy_letter), " ", f.kinds.buddy.name));
}
export { help } from "./help.js";
