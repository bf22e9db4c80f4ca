// A tiny way to build elements: h("button", {class: "x", onclick: f}, "text", child...).
export function h(tag, attrs = {}, ...children) {
  const el = document.createElementNS(tag === "svg" || attrs.svg ? "http://www.w3.org/2000/svg" : "http://www.w3.org/1999/xhtml", tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false || key === "svg") continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// An SVG element (inside an <svg>).
export function s(tag, attrs = {}, ...children) {
  return h(tag, { ...attrs, svg: true }, ...children);
}

// Tell screen readers (the page's live region).
export function announce(text) {
  const live = document.getElementById("live");
  if (!live) return;
  live.append(h("p", {}, text));
  while (live.childNodes.length > 5) live.firstChild.remove();
}

// Replace an element's children, skipping null/false/undefined (replaceChildren would write "null").
export function fill(el, ...children) {
  el.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false)
    .map((c) => (c instanceof Node ? c : document.createTextNode(String(c)))));
  return el;
}
