// A game's leaderboard (/leaderboard/GAME?page=N, from GET /api/leaderboard/GAME): its best 100 settled ratings
// (a provisional one, RD above 110, is not listed), 20 a page, and the reader's own place; the other games' boards
// one click away.
import { account, loadAccount, profileLink } from "./account.js";
import { api } from "./api.js";
import { fill, h } from "./dom.js";
import { games } from "./games.js";
import { _ } from "./i18n.js";

function mine(me) {
  if (!me) {
    return h("p", { class: "my-place" }, h("a", { href: "/account", "data-nav": true }, _("Sign in")), " ",
      _("to see your place."));
  }
  if (me.place) {
    return h("p", { class: "my-place" }, _("Your place: {n} (rating {rating}).", { n: me.place, rating: me.rating.display }),
      me.listed ? null : [" ", _("The list shows the best 100.")]);
  }
  return h("p", { class: "my-place" }, me.rating
    ? _("Your rating {rating} is still provisional: it is ranked once its deviation (RD) is 110 or less, after about a dozen rated matches.", { rating: me.rating.display })
    : _("You have no rating in this game yet: play a rated match."));
}

export async function mount(root, { game }) {
  const list = await games().catch(() => []);
  const name = game || (list[0] && list[0].name);
  await loadAccount();
  const params = new URLSearchParams(location.search);
  let page = Number(params.get("page")) || 1;
  const box = h("div", { class: "leaderboard" });
  root.append(box);
  const draw = async () => {
    let data;
    try {
      data = await api(`/api/leaderboard/${encodeURIComponent(name)}?page=${page}`);
    } catch (err) {
      fill(box, h("h1", {}, _("Leaderboard")), h("p", { class: "error", role: "alert" }, err.message));
      return;
    }
    const pager = h("nav", { class: "pager controls", "aria-label": _("Pages") },
      h("button", { type: "button", class: "previous", disabled: data.page <= 1, onclick: () => turn(data.page - 1) },
        _("Previous")),
      h("span", { class: "page-of" }, _("Page {n} of {total}", { n: data.page, total: data.pages })),
      h("button", { type: "button", class: "next", disabled: data.page >= data.pages, onclick: () => turn(data.page + 1) },
        _("Next")));
    const me = account();
    fill(box,
      h("h1", {}, _("Leaderboard: {game}", { game: data.title })),
      list.length > 1 ? h("nav", { class: "boards", "aria-label": _("Other games") }, list.map((g) => (g.name === data.game
        ? h("span", { "aria-current": "page" }, g.title)
        : h("a", { href: `/leaderboard/${g.name}`, "data-nav": true }, g.title)))) : null,
      mine(data.me),
      data.rows.length ? h("table", { class: "board-table" },
        h("caption", { class: "sr-only" }, _("The best settled ratings of {game}", { game: data.title })),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, _("Place")), h("th", { scope: "col" }, _("Player")),
          h("th", { scope: "col" }, _("Rating")))),
        h("tbody", {}, data.rows.map((r) => h("tr", { class: me && me.name === r.name ? "mine" : null },
          h("td", { class: "place" }, String(r.place)),
          h("th", { scope: "row" }, h("a", { href: profileLink(r.name), "data-nav": true }, r.name)),
          h("td", { class: "rating" }, r.display, h("span", { class: "rd" }, ` ±${Math.round(r.rd)}`))))))
        : h("p", {}, _("Nobody has a settled rating in this game yet.")),
      data.pages > 1 ? pager : null,
      h("p", { class: "hint" }, _("A rating is listed once its deviation (RD) is 110 or less; the ± is that deviation.")));
  };
  const turn = async (to) => {
    page = to;
    history.replaceState({}, "", `/leaderboard/${encodeURIComponent(name)}?page=${page}`);
    await draw();
  };
  await draw();
  return null;
}
