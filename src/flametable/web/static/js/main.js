// The page's router: the lobby (/), a room's table (/rooms/ID), the deck builder (/decks), the replay viewer
// (/replay). Links marked data-nav move without reloading; the language switch redraws the page.
import { chosenLanguage, translatePage, useLanguage } from "./i18n.js";

const PAGES = {
  lobby: () => import("./lobby.js"),
  table: () => import("./table.js"),
  decks: () => import("./decks.js"),
  replay: () => import("./replay.js"),
};

let leave = null;

function route(path) {
  const room = path.match(/^\/rooms\/([A-Za-z0-9_-]{1,64})$/);
  if (room) return ["table", { room: room[1] }];
  if (path === "/decks") return ["decks", {}];
  if (path.startsWith("/replay")) return ["replay", {}];
  return ["lobby", {}];
}

let generation = 0;

export async function show(path = location.pathname) {
  // Each page mounts into a fresh holder: a page still loading when another is asked for (a quick click, a
  // language change) finishes into a holder no longer on the page, and is left at once.
  const mine = ++generation;
  if (leave) leave();
  leave = null;
  const [page, params] = route(path);
  const holder = document.createElement("div");
  holder.className = `page ${page}`;
  document.getElementById("app").replaceChildren(holder);
  const module = await PAGES[page]();
  const left = (await module.mount(holder, params)) || null;
  if (mine !== generation) {
    if (left) left();
    return;
  }
  leave = left;
  translatePage();
}

export function go(path) {
  history.pushState({}, "", path);
  show(path);
}

document.addEventListener("click", (e) => {
  const link = e.target.closest("a[data-nav]");
  if (link && link.origin === location.origin && !e.ctrlKey && !e.metaKey) {
    e.preventDefault();
    go(link.pathname + link.search);
  }
});
window.addEventListener("popstate", () => show());

async function start() {
  await useLanguage(chosenLanguage());
  const select = document.getElementById("lang");
  select.value = chosenLanguage();
  select.addEventListener("change", async () => {
    await useLanguage(select.value);
    show();
  });
  show();
}

start();
