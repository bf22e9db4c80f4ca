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

function fillIn(text, params) {
  return text.replace(/\{(\w+)\}/g, (all, key) => (key in params ? String(params[key]) : all));
}

// Translate an English message and fill {name} parameters.
export function _(message, params = {}) {
  const text = table[message];
  return fillIn(typeof text === "string" && text ? text : message, params);
}

// CLDR's plural categories in the order gettext catalogues made from CLDR (Babel's) number their forms.
const CATEGORIES = ["zero", "one", "two", "few", "many", "other"];

// The index of n's form among a plural message's `count` forms, by the language's CLDR rule (Spanish: one, many,
// other). Should the browser's rules count other categories than the catalogue, "one" is the first form and
// anything else the last.
function pluralIndex(n, count) {
  const rules = new Intl.PluralRules(current);
  const category = rules.select(n);
  const known = rules.resolvedOptions().pluralCategories.slice()
    .sort((a, b) => CATEGORIES.indexOf(a) - CATEGORIES.indexOf(b));
  const i = known.indexOf(category);
  return known.length === count && i >= 0 ? i : category === "one" ? 0 : count - 1;
}

// The form of a message for the number n ({n} is filled with it): the catalogue sends a plural message's forms as
// a list, by its English singular.
export function ngettext(singular, plural, n, params = {}) {
  const forms = table[singular];
  const english = n === 1 ? singular : plural;
  const text = Array.isArray(forms) ? forms[pluralIndex(n, forms.length)] || english : english;
  return fillIn(text, { n, ...params });
}

// Fill the elements marked data-text="English words" (static parts of the page).
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-text]")) el.textContent = _(el.dataset.text);
  for (const el of root.querySelectorAll("[data-label]")) el.setAttribute("aria-label", _(el.dataset.label));
}
