// The lobby: choose a game and its options, seat a bot or leave the seat for a friend, make the room and copy its
// link; the rooms waiting for a player.
import { api, keepSeatToken } from "./api.js";
import { h } from "./dom.js";
import { _ } from "./i18n.js";
import { go } from "./main.js";
import { savedDecks } from "./decks.js";

const LEVELS = () => [["bot:easy", _("An easy bot")], ["bot:medium", _("A medium bot")], ["bot:hard", _("A hard bot")]];

function optionsForm(game) {
  // The options each game takes (the server checks them); a plug-in game's: none.
  if (game === "duel") {
    const decks = savedDecks();
    return h("fieldset", { class: "options" }, h("legend", {}, _("Options")),
      h("label", {}, _("Cards"), " ", h("select", { name: "mode" },
        h("option", { value: "shared" }, _("Shared pile")),
        h("option", { value: "decks" }, _("Own decks")))),
      h("label", {}, _("Characters"), " ", h("select", { name: "pick" },
        h("option", { value: "random" }, _("Dealt at random")),
        h("option", { value: "draft" }, _("Drafted")))),
      h("label", {}, _("Your deck"), " ", h("select", { name: "deck" },
        h("option", { value: "" }, _("A random deck")),
        decks.map((d, i) => h("option", { value: String(i) }, d.name)))));
  }
  if (game === "duals") {
    return h("fieldset", { class: "options" }, h("legend", {}, _("Options")),
      h("label", {}, h("input", { type: "checkbox", name: "buddy" }), " ", _("Buddy variant")));
  }
  return h("div");
}

function readOptions(form, game, mySeat) {
  if (game === "duel") {
    const options = { mode: form.mode.value, pick: form.pick.value };
    if (options.mode === "decks" && form.deck.value !== "") {
      const decks = [null, null];
      const deck = savedDecks()[Number(form.deck.value)];
      decks[mySeat] = { characters: deck.characters, supports: deck.supports };
      options.decks = decks;
    }
    return options;
  }
  if (game === "duals") return { buddy: form.buddy.checked };
  return {};
}

export async function mount(root) {
  const { games } = await api("/api/games");
  const error = h("p", { class: "error", role: "alert" });
  const optionsSlot = h("div");
  const gameSelect = h("select", { name: "game", id: "game" }, games.map((g) => h("option", { value: g.name }, g.title)));
  const opponent = h("select", { name: "opponent", id: "opponent" },
    h("option", { value: "open" }, _("A friend (send them the link)")),
    LEVELS().map(([level, words]) => h("option", { value: level }, words)));
  const seat = h("select", { name: "seat", id: "seat" },
    h("option", { value: "0" }, _("Player 1")), h("option", { value: "1" }, _("Player 2")));
  const linkOut = h("div", { class: "link", "aria-live": "polite" });
  const form = h("form", { class: "create" },
    h("h1", {}, _("New match")),
    h("label", { for: "game" }, _("Game")), gameSelect,
    optionsSlot,
    h("label", { for: "seat" }, _("You play as")), seat,
    h("label", { for: "opponent" }, _("Against")), opponent,
    h("button", { type: "submit", class: "primary" }, _("Create the room")),
    error, linkOut);
  const showOptions = () => optionsSlot.replaceChildren(optionsForm(gameSelect.value));
  gameSelect.addEventListener("change", showOptions);
  showOptions();
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    const me = Number(seat.value);
    const seats = ["open", "open"];
    seats[me] = "me";
    seats[1 - me] = opponent.value;
    try {
      const made = await api("/api/rooms", { game: gameSelect.value, seats, options: readOptions(form, gameSelect.value, me) });
      keepSeatToken(made.room, made.token);
      if (opponent.value === "open") {
        const url = `${location.origin}${made.link}`;
        linkOut.replaceChildren(
          h("p", {}, _("Send this link to your friend:")),
          h("input", { type: "text", readonly: true, value: url, class: "room-link", "aria-label": _("Room link") }),
          h("button", { type: "button", onclick: () => navigator.clipboard && navigator.clipboard.writeText(url) }, _("Copy the link")),
          h("button", { type: "button", class: "primary", onclick: () => go(made.link) }, _("Go to the table")));
      } else {
        go(made.link);
      }
    } catch (err) {
      error.textContent = err.message;
    }
  });
  const waiting = h("ul", { class: "rooms" });
  const refresh = async () => {
    const { rooms } = await api("/api/rooms");
    const titles = Object.fromEntries(games.map((g) => [g.name, g.title]));
    waiting.replaceChildren(...(rooms.length ? rooms.map((room) => h("li", {},
      h("span", {}, titles[room.game] || room.game), " ",
      h("a", { href: `/rooms/${room.room}`, "data-nav": true }, _("Join")))) : [h("li", {}, _("No room is waiting for a player."))]));
  };
  await refresh();
  const timer = setInterval(refresh, 5000);
  root.append(form, h("section", { class: "waiting" }, h("h2", {}, _("Rooms waiting for a player")), waiting));
  return () => clearInterval(timer);
}
