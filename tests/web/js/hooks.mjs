// Node's resolution of the client's absolute imports, as the server serves them: /static/... from web/static,
// /games/NAME/static/... from the game's folder (src/flametable/games/NAME/static).
const SRC = new URL("../../../src/flametable/", import.meta.url);

export async function resolve(specifier, context, nextResolve) {
  const game = specifier.match(/^\/games\/([A-Za-z0-9_-]+)\/static\/(.+)$/);
  if (game) return nextResolve(new URL(`games/${game[1]}/static/${game[2]}`, SRC).href, context);
  if (specifier.startsWith("/static/")) return nextResolve(new URL(`web${specifier}`, SRC).href, context);
  return nextResolve(specifier, context);
}
