// A player's profile (/players/NAME, from GET /api/players/NAME): for each game the rating (provisional ones marked
// with "?"), the place on the game's leaderboard, wins, losses and draws, and the rating's history as a chart; then
// the recent matches, each with its opponent (a deleted account shown as a deleted player), result, rating change
// and a link to its replay; the turn-based matches lost on time, if any (issue 24); on one's own profile, My matches
// going on (mymatches.js). Signed in, another player's profile has a form to challenge them (issue 24): a game, its
// options (an own deck among them), a time control, rated or not; they answer from their lobby.
import { account, profileLink } from "./account.js";
import { api } from "./api.js";
import { ratingChart } from "./chart.js";
import { clockForRated, readTimeControl, timeControlField } from "./clock.js";
import { h } from "./dom.js";
import { games as knownGames } from "./games.js";
import { _, language, ngettext } from "./i18n.js";
import { optionsForm, readOptions } from "./lobby.js";
import { myMatches } from "./mymatches.js";
import { botName } from "./turn.js";

export function dateOf(seconds, long = false) {
  return new Intl.DateTimeFormat(language(), long ? { dateStyle: "medium" } : { day: "numeric", month: "short" })
    .format(new Date(seconds * 1000));
}

// An opponent in words: an account's name (a link to its profile), a deleted player, a guest, a bot.
export function opponentOf(opponent) {
  if (opponent.kind === "account") {
    return h("a", { href: profileLink(opponent.name), "data-nav": true }, opponent.name);
  }
  if (opponent.kind === "deleted") return h("span", { class: "deleted" }, _("a deleted player"));
  if (opponent.kind === "bot") return botName(opponent.bot);
  return _("a guest");
}

const RESULTS = () => ({ win: _("Win"), loss: _("Loss"), draw: _("Drawn") });

function gameSection(game, box) {
  const rating = game.rating;
  const summary = h("dl", { class: "fields" },
    h("dt", {}, _("Rating")),
    h("dd", { class: "rating" }, rating ? rating.display : _("not rated yet"),
      rating && rating.provisional ? h("span", { class: "hint" }, " ", _("(provisional: a few more rated matches settle it)")) : null),
    h("dt", {}, _("Rated matches")), h("dd", {}, String(game.rated_matches)),
    h("dt", {}, _("Leaderboard")), h("dd", {}, h("a", { href: game.leaderboard, "data-nav": true },
      game.place ? _("Place {n}", { n: game.place }) : _("not on it"))),
    h("dt", {}, _("Results")),
    h("dd", { class: "record" }, [ngettext("{n} win", "{n} wins", game.wins), ngettext("{n} loss", "{n} losses", game.losses),
      ngettext("{n} draw", "{n} draws", game.draws)].join(" · ")));
  const section = h("section", { class: "profile-game", "aria-labelledby": `game-${game.game}` },
    h("h2", { id: `game-${game.game}` }, game.title), summary);
  if (game.history.length > 1) {
    const first = game.history[0];
    const last = game.history[game.history.length - 1];
    const width = Math.max(280, Math.min(720, box.clientWidth || 600));
    section.append(h("figure", { class: "chart" },
      ratingChart(game.history, { width, height: 220, date: (at) => dateOf(at),
        label: ngettext("{game}: rating from {from} to {to} over {n} rated match",
          "{game}: rating from {from} to {to} over {n} rated matches", game.history.length - 1,
          { game: game.title, from: Math.round(first.rating), to: Math.round(last.rating) }) }),
      h("figcaption", { class: "hint" }, _("The rating after each rated match; the band is its deviation (RD)."))));
  }
  return section;
}

function recentList(recent) {
  if (!recent.length) return h("p", {}, _("No finished match yet."));
  const results = RESULTS();
  return h("ul", { class: "recent" }, recent.map((m) => h("li", { class: `match ${m.result}` },
    h("span", { class: "outcome" }, results[m.result],
      m.reason === "resigned" ? h("span", { class: "hint" }, " ", _("(resigned)")) : null),
    h("span", { class: "against" }, _("against"), " ", opponentOf(m.opponent)),
    h("span", { class: "game" }, m.title),
    h("span", { class: "change" }, m.change ? _("rating {change}", { change: m.change.delta_display }) : _("not rated")),
    h("time", { datetime: new Date(m.at * 1000).toISOString() }, dateOf(m.at, true)),
    h("a", { href: m.replay, "data-nav": true, class: "replay-link" }, _("Replay")))));
}

// The challenge form: the lobby's fields of a game (its options and its table module's, such as an own deck), the
// time control and "rated"; POST /api/challenges (the challenger is the room's first player: the deck is theirs).
async function challengeForm(name) {
  const games = await knownGames();
  const gameNamed = (g) => games.find((x) => x.name === g);
  const gameSelect = h("select", { name: "game", id: "challenge-game" },
    games.map((g) => h("option", { value: g.name }, g.title)));
  const optionsSlot = h("div");
  const rated = h("input", { type: "checkbox", name: "rated", id: "challenge-rated" });
  const said = h("p", { class: "status", role: "status" });
  const error = h("p", { class: "error", role: "alert" });
  const clockField = timeControlField();
  rated.addEventListener("change", clockForRated(clockField, () => rated.checked)); // a rated match: never untimed
  const form = h("form", { class: "create challenge-form", "aria-labelledby": "challenge-title" },
    h("h2", { id: "challenge-title" }, _("Challenge {name}", { name })),
    h("label", { for: "challenge-game" }, _("Game")), gameSelect, optionsSlot, clockField,
    h("div", { class: "rated-choice" }, h("label", { for: "challenge-rated" }, rated, " ", _("Rated match"))),
    h("button", { type: "submit", class: "primary" }, _("Send the challenge")), said, error);
  let shown = Promise.resolve();
  const showOptions = () => {
    shown = optionsForm(gameNamed(gameSelect.value)).then((fields) => optionsSlot.replaceChildren(fields));
  };
  gameSelect.addEventListener("change", showOptions);
  showOptions();
  await shown;
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    said.textContent = "";
    error.textContent = "";
    await shown;
    try {
      const body = { to: name, game: gameSelect.value, options: await readOptions(form, gameNamed(gameSelect.value), 0),
        rated: rated.checked };
      const clock = readTimeControl(form);
      if (clock) body.clock = clock;
      await api("/api/challenges", body);
      said.textContent = _("Challenge sent: {name} sees it in their lobby.", { name });
    } catch (err) {
      error.textContent = err.message;
    }
  });
  return form;
}

export async function mount(root, { name }) {
  let data;
  try {
    data = await api(`/api/players/${encodeURIComponent(name)}`);
  } catch (err) {
    root.append(h("h1", {}, name), h("p", { class: "error", role: "alert" }, err.message));
    return null;
  }
  const box = h("div", { class: "profile" });
  root.append(box);
  box.append(h("h1", {}, data.name),
    h("p", { class: "hint" }, _("Playing since {date}", { date: dateOf(data.created_at, true) })),
    ...(data.turn_timeouts ? [h("p", { class: "timeouts" }, ngettext("{n} turn-based match timed out",
      "{n} turn-based matches timed out", data.turn_timeouts))] : [])); // none: nothing (append would write "null")
  if (!data.games.length) box.append(h("p", {}, _("No finished match yet.")));
  for (const game of data.games) box.append(gameSection(game, box));
  let mine = null; // one's own profile: My matches going on, before the finished ones
  if (account() && account().name === data.name) {
    const titles = Object.fromEntries((await knownGames()).map((g) => [g.name, g.title]));
    mine = myMatches({ titles });
    box.append(mine.section);
    await mine.start();
  }
  box.append(h("section", { class: "profile-recent", "aria-labelledby": "recent-title" },
    h("h2", { id: "recent-title" }, _("Recent matches")), recentList(data.recent)));
  const me = account();
  if (me && me.name !== data.name) box.append(await challengeForm(data.name));
  return mine ? () => mine.stop() : null;
}
