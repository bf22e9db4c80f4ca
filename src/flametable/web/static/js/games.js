// Each game's piece of the browser, as the server's registry declares it (GET /api/games): its table module and
// style sheets, its own pages, the options the lobby asks for. A game with no client piece (a plug-in game) gets
// the plain table, played in its notation. Used by the lobby, the table, the replay viewer and the router.
import { api } from "./api.js";
import { h } from "./dom.js";
import { language } from "./i18n.js";

let known = null; // { lang, games: Promise of /api/games's list }, asked again in another language

// The games of this server (name, title, bots, client, facts, options), in the player's language.
export function games() {
  if (!known || known.lang !== language()) {
    const asked = { lang: language(), games: api("/api/games").then((data) => data.games) };
    asked.games.catch(() => { if (known === asked) known = null; }); // a failed answer is asked for again
    known = asked;
  }
  return known.games;
}

export async function gameOf(name) {
  return (await games()).find((g) => g.name === name) || null;
}

// Add style sheets to the page, each once.
export function useStyles(urls) {
  for (const url of urls || []) {
    if (![...document.querySelectorAll('link[rel="stylesheet"]')].some((link) => link.getAttribute("href") === url)) {
      document.head.append(h("link", { rel: "stylesheet", href: url }));
    }
  }
}

const plain = () => import("./games/generic.js");

// The game's table module (its styles added to the page): its own, else the plain table (also when its own
// cannot be loaded).
export async function gameModule(name) {
  const game = await gameOf(name).catch(() => null);
  if (!game || !game.client) return plain();
  useStyles(game.client.styles);
  try {
    return await import(game.client.module);
  } catch {
    return plain();
  }
}

// The game's table: its render(), its moveWords() when it has one (a move in words), and its facts (the words and pieces it draws, in the player's language), or
// null facts when the server could not give them (a table without its facts still draws what it can).
export async function loadGame(name) {
  const module = await gameModule(name);
  let facts = null;
  try {
    facts = module.facts ? await module.facts() : null;
  } catch {
    facts = null;
  }
  return { render: module.render, moveWords: module.moveWords || null, facts };
}

// One of a game's own pages (/games/NAME/PAGE): its module (with the game's styles), or null.
export async function pageModule(name, page) {
  const game = await gameOf(name).catch(() => null);
  const found = game && game.client && game.client.pages.find((p) => p.name === page);
  if (!found) return null;
  useStyles(game.client.styles);
  return import(found.module);
}
