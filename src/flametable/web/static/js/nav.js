// Moving between the pages without reloading. The router (main.js) says how a page is shown; the pages call go():
// so no page imports the router (no import circle).
let shower = async () => {};

export function onNavigate(show) {
  shower = show;
}

// Move to another page without reloading; the keyboard's focus goes to the page's content, as after a load.
export async function go(path) {
  history.pushState({}, "", path);
  await shower(path);
  const root = document.getElementById("app");
  if (!root.contains(document.activeElement)) root.focus();
}
