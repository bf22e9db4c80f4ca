// The page's router: the lobby (/), a room's table (/rooms/ID), the replay viewer (/replay), a player's profile
// (/players/NAME), a game's leaderboard (/leaderboard/GAME), the account's page (/account), how to play a game
// (/help/GAME), and each game's own
// pages (/games/NAME/PAGE, such as a deck builder: the registry's client pieces, linked from the menu). Links marked
// data-nav move without reloading; the language switch redraws the page.
import { drawHeader, loadAccount } from "./account.js";
import { h } from "./dom.js";
import { games, pageModule } from "./games.js";
import { chosenLanguage, translatePage, useLanguage } from "./i18n.js";
import { go, onNavigate } from "./nav.js";

const PAGES = {
  lobby: () => import("./lobby.js"),
  table: () => import("./table.js"),
  replay: () => import("./replay.js"),
  profile: () => import("./profile.js"),
  leaderboard: () => import("./leaderboard.js"),
  account: () => import("./account.js"),
  help: () => import("./help.js"),
  game: async ({ game, page }) => (await pageModule(game, page)) || import("./lobby.js"),
};

let leave = null;
let showing = 0; // the latest show(): an older one still loading gives way (a language switched during a load)

function route(path) {
  const room = path.match(/^\/rooms\/([A-Za-z0-9_-]{1,64})$/);
  if (room) return ["table", { room: room[1] }];
  const own = path.match(/^\/games\/([A-Za-z0-9_-]{1,100})\/([A-Za-z0-9_-]{1,64})$/);
  if (own) return ["game", { game: own[1], page: own[2] }];
  if (path.startsWith("/replay")) return ["replay", {}];
  const help = path.match(/^\/help\/([A-Za-z0-9_-]{1,100})$/);
  if (help) return ["help", { game: help[1] }];
  const player = path.match(/^\/players\/([^/]{1,200})$/);
  if (player) return ["profile", { name: decodeURIComponent(player[1]) }];
  const board = path.match(/^\/leaderboard(?:\/([A-Za-z0-9_-]{1,100}))?\/?$/);
  if (board) return ["leaderboard", { game: board[1] || null }];
  if (path === "/account") return ["account", {}];
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
  const module = await PAGES[page](params);
  const left = await module.mount(content, params);
  if (mine !== showing) {
    if (left) left();
    return;
  }
  leave = left || null;
  translatePage();
  root.dataset.page = page === "game" ? params.page : page; // a game's own page by its name
  root.removeAttribute("aria-busy");
}

// The games' own pages in the menu, before the replays (their titles in the player's language).
async function menu() {
  const nav = document.querySelector("header nav");
  let list = [];
  try {
    list = await games();
  } catch {
    list = [];
  }
  nav.querySelectorAll("a.game-page").forEach((link) => link.remove());
  const links = list.flatMap((g) => (g.client ? g.client.pages : []).map((p) =>
    h("a", { href: p.path, "data-nav": true, class: "game-page" }, p.title)));
  nav.querySelector('a[href="/replay"]').before(...links);
}

onNavigate(show);

document.addEventListener("click", (e) => {
  const link = e.target.closest("a[data-nav]");
  if (link && link.origin === location.origin && !e.ctrlKey && !e.metaKey) {
    e.preventDefault();
    go(link.pathname + link.search);
  }
});
window.addEventListener("popstate", () => show());

async function start() {
  const ready = [useLanguage(chosenLanguage()), loadAccount()]; // the language is set at once, its words come later
  games().catch(() => {}); // the games, asked meanwhile: every page and the menu need them (the answer is kept)
  await Promise.all(ready);
  drawHeader(document.getElementById("account"));
  const select = document.getElementById("lang");
  select.value = chosenLanguage();
  select.addEventListener("change", async () => {
    await useLanguage(select.value);
    drawHeader(document.getElementById("account"));
    show();
    menu();
  });
  show();
  menu();
}

start();
