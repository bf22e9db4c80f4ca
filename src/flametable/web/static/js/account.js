// Who is signed in (GET /api/me), in the header on every page: the name (a link to the player's profile) and a
// sign-out button, or a link to sign in. The page /account: sign in, sign up (the seats this browser holds are given
// to the account), sign out, delete the account. The CSRF token of the session is api.js's.
import { api, heldSeats, useCsrf, whoAmI } from "./api.js";
import { fill, h } from "./dom.js";
import { _ } from "./i18n.js";
import { go } from "./nav.js";

let current = null; // the signed-in account ({name, created_at}) or null
let known = false; // whether /api/me has answered once
const listeners = new Set();

export function account() {
  return current;
}

// Call f(account) now and whenever the account changes (sign-in, sign-out, another tab's change found); returns
// the function that stops it.
export function onAccount(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

function take(data) {
  current = data.account || null;
  known = true;
  useCsrf(data.csrf);
  listeners.forEach((f) => f(current));
}

// The account api.js found (GET /api/me, after a request refused for a CSRF token another tab's sign-in changed).
if (typeof window !== "undefined") {
  window.addEventListener("flametable:account", (e) => {
    const before = current ? current.name : null;
    current = e.detail.account || null;
    known = true;
    if ((current ? current.name : null) !== before) listeners.forEach((f) => f(current));
  });
}

// The account of this browser, asked once (then kept up to date by the sign-in and sign-out of this page).
export async function loadAccount() {
  if (known) return current;
  try {
    await whoAmI();
  } catch {
    take({ account: null, csrf: null });
  }
  return current;
}

export function profileLink(name) {
  return `/players/${encodeURIComponent(name)}`;
}

// The header's corner: the signed-in name and "Sign out", or "Sign in" (drawn again in the language chosen).
let headerSlot = null;

function drawCorner() {
  const slot = headerSlot;
  if (!slot) return;
  if (!current) {
    fill(slot, h("a", { href: "/account", "data-nav": true, class: "sign-in" }, _("Sign in")));
    return;
  }
  fill(slot,
    h("a", { href: profileLink(current.name), "data-nav": true, class: "me", "aria-label": _("Your profile: {name}", { name: current.name }) }, current.name),
    h("button", { type: "button", class: "sign-out", onclick: async () => {
      try {
        take(await api("/api/session", undefined, "DELETE"));
      } catch {
        return;
      }
      go("/");
    } }, _("Sign out")));
}

export function drawHeader(slot) {
  if (!headerSlot) onAccount(drawCorner);
  headerSlot = slot;
  drawCorner();
}

function field(id, label, attrs) {
  return [h("label", { for: id }, label), h("input", { id, required: true, ...attrs })];
}

// A form of the account page: its fields, its button, its error line; submit(form) does the request.
function accountForm(cls, title, fields, button, submit) {
  const error = h("p", { class: "error", role: "alert" });
  const form = h("form", { class: `account-form ${cls}`, "aria-labelledby": `${cls}-title` },
    h("h2", { id: `${cls}-title` }, title), fields, h("button", { type: "submit", class: "primary" }, button), error);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    try {
      await submit(form);
    } catch (err) {
      error.textContent = err.message;
    }
  });
  return form;
}

export async function mount(root) {
  await loadAccount();
  const box = h("div", { class: "account-page" });
  root.append(box);
  const draw = () => {
    if (!current) {
      const signIn = accountForm("sign-in-form", _("Sign in"), [
        field("in-name", _("User name"), { name: "name", autocomplete: "username", maxlength: "64" }),
        field("in-password", _("Password"), { name: "password", type: "password", autocomplete: "current-password" }),
      ], _("Sign in"), async (form) => {
        take(await api("/api/session", { name: form.elements.name.value, password: form.elements.password.value,
          seats: heldSeats() }));
        go("/");
      });
      const signUp = accountForm("sign-up-form", _("Create an account"), [
        field("up-name", _("User name"), { name: "name", autocomplete: "username", maxlength: "64",
          "aria-describedby": "up-name-hint" }),
        h("p", { id: "up-name-hint", class: "hint" }, _("3 to 20 letters, digits, _ or -.")),
        field("up-password", _("Password"), { name: "password", type: "password", autocomplete: "new-password",
          minlength: "8", "aria-describedby": "up-password-hint" }),
        h("p", { id: "up-password-hint", class: "hint" }, _("At least 8 characters, not a common password.")),
      ], _("Create the account"), async (form) => {
        take(await api("/api/account", { name: form.elements.name.value, password: form.elements.password.value,
          seats: heldSeats() }));
        go("/");
      });
      fill(box, h("h1", {}, _("Your account")),
        h("p", {}, _("Playing needs no account. With one, your matches follow you to any device, and you can play rated matches.")),
        h("div", { class: "account-forms" }, signIn, signUp));
      return;
    }
    const remove = accountForm("delete-form", _("Delete the account"), [
      h("p", {}, _("Your name is freed at once; your finished matches stay, shown as a deleted player's.")),
      field("delete-password", _("Password"), { name: "password", type: "password", autocomplete: "current-password" }),
    ], _("Delete my account"), async (form) => {
      take(await api("/api/account", { password: form.elements.password.value }, "DELETE"));
      go("/");
    });
    fill(box, h("h1", {}, _("Your account")),
      h("p", {}, _("Signed in as {name}.", { name: current.name }), " ",
        h("a", { href: profileLink(current.name), "data-nav": true }, _("Your profile"))),
      h("p", {}, h("button", { type: "button", class: "sign-out-here", onclick: async () => {
        take(await api("/api/session", undefined, "DELETE"));
      } }, _("Sign out"))),
      remove);
  };
  draw();
  const stop = onAccount(draw);
  return stop;
}
