// Nim's own table (a plug-in's client piece): the heap as a row of stones, and a button for each legal take.
import { fill, h } from "/static/js/dom.js";

export function render(root, { view, legal, seat, act }) {
  fill(root,
    h("p", { class: "nim-heap", "data-stones": String(view.heap) }, "●".repeat(view.heap), " ", `(${view.heap})`),
    seat !== null && legal.length ? h("div", { class: "actions", role: "group" },
      legal.map((action) => h("button", { class: "action", "data-action": action, onclick: () => act(action) }, action))) : null);
}
