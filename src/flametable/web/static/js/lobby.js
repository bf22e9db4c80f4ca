// The lobby: choose a game and its options, seat a bot or leave the seat for a friend (a rated match when signed
// in), make the room and copy its link; quick pairing with a stranger (pairing.js); the rooms waiting for a player
// (game, options, how long they have waited, their creator's name and rating); My matches (mymatches.js): this
// browser's and the account's matches going on, "Your turn" first, each continued or resigned with one click;
// signed in, the challenges received (accepted or declined here) and sent.
import { account, onAccount, profileLink } from "./account.js";
import { api, keepSeatToken, seatToken } from "./api.js";
import { clockForRated, controlText, readTimeControl, timeControlField } from "./clock.js";
import { h } from "./dom.js";
import { gameModule, games as knownGames } from "./games.js";
import { helpLink } from "./help.js";
import { _ } from "./i18n.js";
import { myMatches } from "./mymatches.js";
import { go } from "./nav.js";
import { quickPairing } from "./pairing.js";

const LEVELS = () => [["bot:easy", _("An easy bot")], ["bot:medium", _("A medium bot")], ["bot:hard", _("A hard bot")]];

// One declared option's field (GET /api/games: its kind, label and choices in the player's language).
export function optionField(option) {
  if (option.kind === "bool") {
    return h("label", {}, h("input", { type: "checkbox", name: option.name, checked: option.default === true }), " ",
      option.label);
  }
  if (option.kind === "int") {
    return h("label", {}, option.label, " ", h("input", { type: "number", name: option.name, step: "1", required: true,
      min: option.min ?? undefined, max: option.max ?? undefined, value: String(option.default) }));
  }
  return h("label", {}, option.label, " ", h("select", { name: option.name },
    option.choices.map((c) => h("option", { value: c.value, selected: c.value === option.default }, c.label))));
}

// The value of one option's field: true or false, a whole number (else the text, for the game to refuse), a choice.
export function optionValue(option, field) {
  if (option.kind === "bool") return field.checked;
  if (option.kind === "int") return /^-?\d+$/.test(field.value.trim()) ? Number(field.value) : field.value;
  return field.value;
}

// The options form of a game: a field for each option it declares, and the fields of its own table module
// (optionFields(), such as the choice of an own deck); nothing for a game that takes no option.
export async function optionsForm(game) {
  const module = game.client ? await gameModule(game.name) : {};
  const extra = module.optionFields ? module.optionFields() : [];
  if (!game.options.length && !extra.length) return h("div");
  return h("fieldset", { class: "options" }, h("legend", {}, _("Options")), game.options.map(optionField), extra);
}

// A waiting room's public options in words, as the game declares them (GET /api/games): "Draft", "Buddy"...
export function optionWords(game, options) {
  if (!game || !options) return null;
  const words = game.options.filter((o) => o.name in options).map((o) => {
    const value = options[o.name];
    if (o.kind === "bool") return value ? o.label : null;
    if (o.kind === "int") return `${o.label} ${value}`;
    const choice = (o.choices || []).find((c) => c.value === value);
    return choice ? choice.label : null;
  }).filter((w) => w);
  return words.length ? h("span", { class: "options-words" }, words.join(" · ")) : null;
}

// How long a room has waited: "12 s", "5 min", "3 h".
export function waitedText(seconds) {
  if (seconds < 60) return _("{n} s", { n: Math.floor(seconds) });
  if (seconds < 3600) return _("{n} min", { n: Math.floor(seconds / 60) });
  return _("{n} h", { n: Math.floor(seconds / 3600) });
}

export async function readOptions(form, game, mySeat) {
  const options = Object.fromEntries(game.options.map((o) => [o.name, optionValue(o, form.elements.namedItem(o.name))]));
  const module = game.client ? await gameModule(game.name) : {};
  return module.readOptions ? module.readOptions(form, options, mySeat) : options;
}

export async function mount(root) {
  const games = await knownGames();
  const gameNamed = (name) => games.find((g) => g.name === name);
  const error = h("p", { class: "error", role: "alert" });
  const optionsSlot = h("div");
  const helpSlot = h("p", { class: "help-slot" });
  const showHelp = () => helpSlot.replaceChildren(helpLink(gameSelect.value));
  const gameSelect = h("select", { name: "game", id: "game" }, games.map((g) => h("option", { value: g.name }, g.title)));
  const opponent = h("select", { name: "opponent", id: "opponent" },
    h("option", { value: "open" }, _("A friend (send them the link)")),
    LEVELS().map(([level, words]) => h("option", { value: level }, words)));
  const seat = h("select", { name: "seat", id: "seat" },
    h("option", { value: "0" }, _("Player 1")), h("option", { value: "1" }, _("Player 2")));
  const linkOut = h("div", { class: "link", "aria-live": "polite" });
  // a rated match: signed in, against a friend (another signed-in player takes the seat)
  const ratedBox = h("input", { type: "checkbox", name: "rated", id: "rated" });
  const ratedChoice = h("div", { class: "rated-choice" }, h("label", { for: "rated" }, ratedBox, " ",
    _("Rated match (the other player signs in too)")));
  const clockField = timeControlField();
  const clockRated = clockForRated(clockField, () => !ratedChoice.hidden && ratedBox.checked); // never untimed
  const showRated = () => { ratedChoice.hidden = !(account() && opponent.value === "open"); clockRated(); };
  opponent.addEventListener("change", showRated);
  ratedBox.addEventListener("change", clockRated);
  const form = h("form", { class: "create" },
    h("h1", {}, _("New match")),
    h("label", { for: "game" }, _("Game")), gameSelect, helpSlot,
    optionsSlot, clockField,
    h("label", { for: "seat" }, _("You play as")), seat,
    h("label", { for: "opponent" }, _("Against")), opponent, ratedChoice,
    h("button", { type: "submit", class: "primary" }, _("Create the room")),
    error, linkOut);
  let shown = 0; // the latest game chosen: an older form still loading gives way
  const showOptions = async () => {
    const mine = ++shown;
    const fields = await optionsForm(gameNamed(gameSelect.value));
    if (mine === shown) optionsSlot.replaceChildren(fields);
  };
  // the options form of the game chosen last, made or being made: a submit right after a change of game waits for
  // it (else the old game's fields would be read, or none: "Cannot read properties of null")
  let optionsShown = showOptions();
  gameSelect.addEventListener("change", () => { optionsShown = showOptions(); showHelp(); });
  showHelp();
  await optionsShown;
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    await optionsShown;
    const me = Number(seat.value);
    const seats = ["open", "open"];
    seats[me] = "me";
    seats[1 - me] = opponent.value;
    try {
      const body = { game: gameSelect.value, seats, options: await readOptions(form, gameNamed(gameSelect.value), me) };
      if (!ratedChoice.hidden && ratedBox.checked) body.rated = true;
      const clock = readTimeControl(form);
      if (clock) body.clock = clock;
      const made = await api("/api/rooms", body);
      keepSeatToken(made.room, made.token);
      if (opponent.value === "open") {
        const url = `${location.origin}${made.link}`;
        linkOut.replaceChildren(
          h("p", {}, _("Send this link to your friend:")),
          h("input", { type: "text", readonly: true, value: url, class: "room-link", "aria-label": _("Room link") }),
          h("button", { type: "button", onclick: () => navigator.clipboard && navigator.clipboard.writeText(url) }, _("Copy the link")),
          h("button", { type: "button", class: "primary", onclick: () => go(made.link) }, _("Go to the table")));
        await Promise.all([refresh(), mine.refresh()]); // the new room waits in the lists, with its close button
      } else {
        go(made.link);
      }
    } catch (err) {
      error.textContent = err.message;
    }
  });
  const waiting = h("ul", { class: "rooms" });
  const waitingError = h("p", { class: "error", role: "alert" });
  // A room of mine (this browser holds a seat token of it) still waiting for a player can be closed from here.
  const closeButton = (room) => {
    const token = seatToken(room.room);
    if (!token) return null;
    return h("button", { type: "button", class: "close-room", onclick: async () => {
      waitingError.textContent = "";
      try {
        await api(`/api/rooms/${room.room}/close`, { token });
      } catch (err) {
        waitingError.textContent = err.message;
      }
      await Promise.all([refresh(), mine.refresh()]);
    } }, _("Close the room"));
  };
  const titles = Object.fromEntries(games.map((g) => [g.name, g.title]));
  // My matches: this browser's and, signed in, the account's matches going on (issue 25, point 4).
  const mine = myMatches({ titles });
  // Signed in: the challenges received (Accept, with what the game asks a joiner to bring, or Decline) and sent
  // (Cancel while waiting; once accepted, the way to the table), polled with the list below (issue 24).
  const challengesBox = h("section", { class: "challenges", "aria-labelledby": "challenges-title", hidden: true });
  const challengesError = h("p", { class: "error", role: "alert" });
  let challengesShown = null; // what is drawn (ids and statuses): redrawn only when it changes, so a choice stays
  const toTable = async (c) => {
    challengesError.textContent = "";
    try {
      const seat = await api(`/api/rooms/${c.room}/seat`, { player: c.player });
      keepSeatToken(c.room, seat.token);
      go(c.link);
    } catch (err) {
      challengesError.textContent = err.message;
    }
  };
  const challengeFacts = (c) => {
    const bits = [c.title, controlText(c.clock)];
    if (c.rated) bits.push(_("rated"));
    return h("span", { class: "hint challenge-facts" }, bits.join(" · "));
  };
  const receivedItem = async (c) => {
    const module = await gameModule(c.game);
    const summary = { game: c.game, options: c.options, clock: c.clock };
    const fields = module.joinFields ? module.joinFields(summary, `-${c.id}`) : [];
    const form = h("form", { class: "challenge-answer" }, fields,
      h("button", { type: "submit", class: "primary accept" }, _("Accept")), " ",
      h("button", { type: "button", class: "decline", onclick: async () => {
        challengesError.textContent = "";
        try {
          await api(`/api/challenges/${c.id}/decline`, {});
        } catch (err) {
          challengesError.textContent = err.message;
        }
        await refreshChallenges();
      } }, _("Decline")));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      challengesError.textContent = "";
      const body = {};
      const brings = module.joinBrings ? module.joinBrings(form, summary) : undefined;
      if (brings !== undefined) body.brings = brings;
      try {
        const made = await api(`/api/challenges/${c.id}/accept`, body);
        keepSeatToken(made.room, made.token);
        go(made.link);
      } catch (err) {
        challengesError.textContent = err.message;
      }
    });
    return h("li", { class: "received", "data-challenge": c.id },
      h("span", {}, _("{name} challenges you", { name: c.from.name || _("a deleted player") })), " ", challengeFacts(c), form);
  };
  const sentItem = (c) => h("li", { class: "sent", "data-challenge": c.id },
    h("span", {}, _("You challenged {name}", { name: c.to.name || _("a deleted player") })), " ", challengeFacts(c), " ",
    c.status === "accepted"
      ? [h("span", { class: "hint" }, _("accepted")), " ",
        h("button", { type: "button", class: "primary to-table", onclick: () => toTable(c) }, _("Go to the table"))]
      : [h("span", { class: "hint" }, _("waiting for an answer")), " ",
        h("button", { type: "button", class: "cancel", onclick: async () => {
          challengesError.textContent = "";
          try {
            await api(`/api/challenges/${c.id}/cancel`, {});
          } catch (err) {
            challengesError.textContent = err.message;
          }
          await refreshChallenges();
        } }, _("Cancel"))]);
  const refreshChallenges = async () => {
    if (!account()) {
      challengesBox.hidden = true;
      challengesShown = null;
      return;
    }
    let answer;
    try {
      answer = await api("/api/challenges");
    } catch {
      return;
    }
    const { received, sent } = answer;
    const key = JSON.stringify([...received, ...sent].map((c) => [c.id, c.status]));
    if (key === challengesShown) return;
    challengesShown = key;
    challengesBox.hidden = false;
    challengesBox.replaceChildren(h("h2", { id: "challenges-title" }, _("Challenges")),
      received.length || sent.length
        ? h("ul", { class: "challenge-list" }, await Promise.all(received.map(receivedItem)), sent.map(sentItem))
        : h("p", {}, _("No challenge: challenge a player from their profile.")),
      challengesError);
  };
  const creator = (room) => (room.creator ? h("span", { class: "creator" }, _("by"), " ",
    h("a", { href: profileLink(room.creator.name), "data-nav": true }, room.creator.name), " ",
    h("span", { class: "rating", "aria-label": _("rating {rating}", { rating: room.creator.rating }) },
      `(${room.creator.rating})`)) : null);
  const refreshRooms = async () => {
    const { rooms } = await api("/api/rooms");
    waiting.replaceChildren(...(rooms.length ? rooms.map((room) => h("li", {},
      h("span", {}, titles[room.game] || room.game), " ",
      room.rated ? [h("span", { class: "badge rated" }, _("Rated")), " "] : null,
      room.clock ? [h("span", { class: "badge clock" }, controlText(room.clock)), " "] : null,
      optionWords(gameNamed(room.game), room.options), " ",
      room.waited !== undefined ? [h("span", { class: "hint waited" }, _("waiting for {time}", { time: waitedText(room.waited) })), " "] : null,
      creator(room), " ",
      h("a", { href: `/rooms/${room.room}`, "data-nav": true }, _("Join")), " ", closeButton(room)))
      : [h("li", {}, _("No room is waiting for a player."))]));
  };
  const refresh = () => Promise.all([refreshRooms(), refreshChallenges()]);
  showRated();
  const [pairing, leavePairing, showPairingRated] = quickPairing(games);
  // the form is usable at once; the lists fill in as their answers come (the page stays busy until they have)
  root.append(pairing, challengesBox, form, mine.section, h("section", { class: "waiting" },
    h("h2", {}, _("Rooms waiting for a player")), waiting, waitingError));
  await Promise.all([refresh(), mine.start()]);
  const timer = setInterval(refresh, 5000);
  const stop = onAccount(() => { showRated(); showPairingRated(); mine.refresh(); refreshChallenges(); });
  return () => { clearInterval(timer); stop(); mine.stop(); leavePairing(); };
}
