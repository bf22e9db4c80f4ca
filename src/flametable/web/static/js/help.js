// How to play a game (/help/GAME): the game's table module's help() (its own words, in the player's language), or a
// line saying the game has none; linked from the lobby (the game chosen) and from every table.
import { h } from "./dom.js";
import { gameModule, gameOf } from "./games.js";
import { _ } from "./i18n.js";

export async function mount(root, { game }) {
  const [module, known] = await Promise.all([gameModule(game), gameOf(game).catch(() => null)]);
  const title = known ? known.title : game;
  const body = module.help ? module.help() : [h("p", {}, _("This game has no help page yet: its options and its table's buttons say what can be done."))];
  root.append(h("article", { class: "help" },
    h("h1", {}, _("How to play {game}", { game: title })), body,
    h("p", { class: "help-back" }, h("a", { href: "/", "data-nav": true }, _("Back to the lobby")))));
  return null;
}

// The link to a game's help, for the lobby and the tables.
export function helpLink(game) {
  return h("a", { href: `/help/${encodeURIComponent(game)}`, "data-nav": true, class: "help-link" }, _("How to play"));
}
