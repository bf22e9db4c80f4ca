// Flame Duel's deck builder (its page /games/duel/decks, a piece of its client): own decks, kept in this browser (localStorage "flametable.decks": [{name, characters,
// supports}]): the list of saved decks, and a builder that picks characters and support cards from the game's card
// list. The client holds no deck rule: the game itself checks a deck on the server (the same check as
// `flametable cards check`), and its problem is shown next to the deck.
import { api, csrfHeaders } from "/static/js/api.js";
import { h } from "/static/js/dom.js";
import { _, language } from "/static/js/i18n.js";

const KEY = "flametable.decks";

export function savedDecks() {
  try {
    const decks = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(decks) ? decks : [];
  } catch {
    return [];
  }
}

function keepDecks(decks) {
  localStorage.setItem(KEY, JSON.stringify(decks));
}

// The game's verdict on a deck: null when it is good, else the problem in the player's language (the problem
// alone when the server names it, "a deck has exactly 3 characters, got 2", else its whole message).
export async function deckProblem(deck) {
  const options = { mode: "decks", decks: [{ characters: deck.characters, supports: deck.supports }, null] };
  try {
    const response = await fetch(`/api/games/duel/options/check?lang=${language()}`, {
      method: "POST", headers: { "content-type": "application/json", ...csrfHeaders() }, body: JSON.stringify({ options }),
    });
    if (response.ok) return null;
    const data = await response.json();
    return data.problem || data.message;
  } catch {
    return _("The server could not check the deck: try again.");
  }
}

// The list of saved decks, each with its problem (if any) next to it.
function deckList(decks, { edit, remove }) {
  if (!decks.length) return h("p", { class: "empty" }, _("No deck saved yet."));
  return h("ul", { class: "deck-list" }, decks.map((deck, i) => {
    const problem = h("p", { class: "error", id: `deck-${i}-problem` });
    deckProblem(deck).then((text) => { problem.textContent = text || ""; });
    return h("li", { class: "deck" },
      h("strong", { class: "deck-name", "aria-describedby": `deck-${i}-problem` }, deck.name), " ",
      h("span", { class: "deck-size" }, _("{characters} characters, {supports} support cards",
        { characters: deck.characters.length, supports: deck.supports.length })), " ",
      h("button", { type: "button", onclick: () => edit(i), "aria-label": _("Edit {deck}", { deck: deck.name }) }, _("Edit")), " ",
      h("button", { type: "button", onclick: () => remove(i), "aria-label": _("Delete {deck}", { deck: deck.name }) }, _("Delete")),
      problem);
  }));
}

// One checkbox per card, its words beside it (name, stats or kind and bonus): real inputs, keyboard operable.
function cardBoxes(name, cards, chosen, detail, onchange) {
  return h("ul", { class: "card-choice" }, cards.map((card) => h("li", {},
    h("label", {},
      h("input", { type: "checkbox", name, value: String(card.number), checked: chosen.includes(card.number), onchange }),
      " ", h("span", { class: "card-label" }, card.label), " ", h("span", { class: "card-detail" }, detail(card))))));
}

function checked(form, name) {
  return [...form.querySelectorAll(`input[name="${name}"]:checked`)].map((box) => Number(box.value));
}

// The builder of one deck (a new one when index is null); done(saved) goes back to the list.
function builder(cards, index, done) {
  const decks = savedDecks();
  const deck = index === null ? { name: _("Deck {n}", { n: decks.length + 1 }), characters: [], supports: [] } : decks[index];
  const [cmin, cmax] = cards.deck.characters;
  const [smin, smax] = cards.deck.supports;
  const problem = h("p", { class: "error", id: "deck-problem", role: "alert", tabindex: "-1" });
  const counts = h("p", { class: "deck-counts", "aria-live": "polite" });
  const name = h("input", { type: "text", id: "deck-name", name: "name", value: deck.name, maxlength: "60", required: true });
  const count = () => {
    counts.textContent = _("Chosen: {characters} characters, {supports} support cards.",
      { characters: checked(form, "character").length, supports: checked(form, "support").length });
  };
  const form = h("form", { class: "deck-builder", "aria-describedby": "deck-problem" },
    h("h1", {}, index === null ? _("New deck") : _("Edit the deck")),
    h("label", { for: "deck-name" }, _("Name")), name,
    h("p", {}, cmin === cmax
      ? _("A deck holds {characters} characters and {min} to {max} support cards, each at most once.", { characters: cmin, min: smin, max: smax })
      : _("A deck holds {cmin} to {cmax} characters and {min} to {max} support cards, each at most once.", { cmin, cmax, min: smin, max: smax })),
    counts,
    problem,
    h("div", { class: "deck-actions" },
      h("button", { type: "submit", class: "primary" }, _("Save the deck")),
      h("button", { type: "button", onclick: () => done(false) }, _("Cancel"))),
    h("fieldset", { class: "characters", "aria-describedby": "deck-problem" }, h("legend", {}, _("Characters")),
      cardBoxes("character", cards.characters, deck.characters, (c) => c.stats_text, count)),
    h("fieldset", { class: "supports", "aria-describedby": "deck-problem" }, h("legend", {}, _("Support cards")),
      cardBoxes("support", cards.supports, deck.supports, (s) => s.detail, count)));
  count();
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const made = { name: name.value.trim() || deck.name, characters: checked(form, "character"), supports: checked(form, "support") };
    problem.textContent = "";
    const text = await deckProblem(made);
    if (text) {
      problem.textContent = text;
      problem.focus({ preventScroll: true }); // the keyboard and the eyes go to what is wrong
      problem.scrollIntoView({ block: "center" });
      return;
    }
    const all = savedDecks();
    if (index === null) all.push(made);
    else all[index] = made;
    keepDecks(all);
    done(true);
  });
  return form;
}

export async function mount(root) {
  let cards;
  try {
    cards = await api("/api/games/duel/facts");
  } catch (err) {
    root.append(h("p", { class: "error", role: "alert" }, err.message));
    return null;
  }
  const status = h("p", { class: "status", role: "status" });
  const showList = (message = "") => {
    const decks = savedDecks();
    status.textContent = message;
    root.replaceChildren(h("section", { class: "decks" },
      h("h1", {}, _("Your decks for Flame Duel")),
      h("p", {}, _("Decks are kept in this browser. Choose one when you make a room with own decks.")),
      status,
      h("button", { type: "button", class: "primary new-deck", onclick: () => showBuilder(null) }, _("New deck")),
      deckList(decks, {
        edit: (i) => showBuilder(i),
        remove: (i) => {
          const all = savedDecks();
          if (!confirm(_("Delete the deck {deck}?", { deck: all[i].name }))) return;
          const [gone] = all.splice(i, 1);
          keepDecks(all);
          showList(_("The deck {deck} was deleted.", { deck: gone.name }));
        },
      })));
  };
  const showBuilder = (index) => {
    root.replaceChildren(builder(cards, index, (saved) => showList(saved ? _("The deck was saved.") : "")));
    root.querySelector("#deck-name").focus();
  };
  showList();
  return null;
}
