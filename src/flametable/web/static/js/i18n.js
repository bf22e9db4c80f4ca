// The client's words in the player's language: the server sends the catalogue of the client's messages
// (/api/texts/LANG, from the project's gettext catalogue); _("English {name}", {name}) looks a message up and
// fills its parameters. The language chosen is remembered in the browser.
let table = {};
let current = "en";

export const LANGUAGES = ["en", "es"];

export function language() {
  return current;
}

export function chosenLanguage() {
  const saved = localStorage.getItem("flametable.lang");
  if (LANGUAGES.includes(saved)) return saved;
  const asked = (navigator.language || "en").slice(0, 2);
  return LANGUAGES.includes(asked) ? asked : "en";
}

export async function useLanguage(lang) {
  current = LANGUAGES.includes(lang) ? lang : "en";
  localStorage.setItem("flametable.lang", current);
  document.documentElement.lang = current;
  table = current === "en" ? {} : await (await fetch(`/api/texts/${current}`)).json();
}

// Translate an English message and fill {name} parameters.
export function _(message, params = {}) {
  const text = table[message] || message;
  return text.replace(/\{(\w+)\}/g, (all, key) => (key in params ? String(params[key]) : all));
}

// Fill the elements marked data-text="English words" (static parts of the page).
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-text]")) el.textContent = _(el.dataset.text);
  for (const el of root.querySelectorAll("[data-label]")) el.setAttribute("aria-label", _(el.dataset.label));
}
