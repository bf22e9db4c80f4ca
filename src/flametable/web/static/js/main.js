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
let showing = 0; // the latest show(): an older one still loading gives way (a language switched during a load)

function route(path) {
  const room = path.match(/^\/rooms\/([A-Za-z0-9_-]{1,64})$/);
  if (room) return ["table", { room: room[1] }];
  if (path === "/decks") return ["decks", {}];
  if (path.startsWith("/replay")) return ["replay", {}];
  return ["lobby", {}];
}

export async function show(path = location.pathname) {
  const mine = ++showing;
  if (leave) leave();
  leave = null;
  const [page, params] = route(path);
  const root = document.getElementById("app");
  const content = document.createElement("div"); // this page's own box: a page left while loading draws nowhere
  content.className = "page";
  root.replaceChildren(content);
  root.setAttribute("aria-busy", "true");
  delete root.dataset.page;
  translatePage(); // the header's words, while the page loads (or waits for the player, as a free seat's question)
  const module = await PAGES[page]();
  const left = await module.mount(content, params);
  if (mine !== showing) {
    if (left) left();
    return;
  }
  leave = left || null;
  translatePage();
  root.dataset.page = page;
  root.removeAttribute("aria-busy");
}

// Move to another page without reloading; the keyboard's focus goes to the page's content, as after a load.
export async function go(path) {
  history.pushState({}, "", path);
  await show(path);
  const root = document.getElementById("app");
  if (!root.contains(document.activeElement)) root.focus();
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
