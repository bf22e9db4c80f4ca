// The plain table of a game with no table of its own (a plug-in game): the view's fields as text and every legal
// action as a button, in the game's notation. Every table marks the control of a legal action with
// data-action="NOTATION" (the frame's tests find the moves by it, whatever the game's drawing).
import { fill, h } from "../dom.js";
import { _ } from "../i18n.js";

// ``legal``: the seat to act's legal actions in notation, as the server's event message gives them (a view need not
// hold them).
export function render(root, { view, legal, seat, act }) {
  const shown = Object.entries(view).filter(([key]) => key !== "legal" && key !== "format");
  fill(root,
    h("dl", { class: "fields" }, shown.map(([key, value]) => [h("dt", {}, key), h("dd", {}, JSON.stringify(value))])),
    seat !== null && legal.length ? h("div", { class: "actions", role: "group", "aria-label": _("Your options") },
      legal.map((action) => h("button", { class: "action", "data-action": action, onclick: () => act(action) }, action))) : null);
}
