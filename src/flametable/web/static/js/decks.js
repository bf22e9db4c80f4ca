// Own decks for Flame Duel, kept in this browser.
export function savedDecks() {
  try {
    const decks = JSON.parse(localStorage.getItem("flametable.decks") || "[]");
    return Array.isArray(decks) ? decks : [];
  } catch {
    return [];
  }
}

export async function mount(root) {
  root.append(document.createTextNode(""));
  return null;
}
