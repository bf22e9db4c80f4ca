// Each game's table in the browser: games/NAME.js for the games that draw their own pieces, the plain table for
// any other (a plug-in game, played in its notation). Used by the table and the replay viewer alike.
const TABLES = {
  duel: () => import("./games/duel.js"),
  duals: () => import("./games/duals.js"),
};

// The game's table: its render() and its facts (the words and pieces it draws, in the player's language), or
// null facts when the server could not give them (a table without its facts still draws what it can).
export async function loadGame(name) {
  const module = await (TABLES[name] || (() => import("./games/generic.js")))();
  let facts = null;
  try {
    facts = module.facts ? await module.facts() : null;
  } catch {
    facts = null;
  }
  return { render: module.render, facts };
}
