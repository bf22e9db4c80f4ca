// The server's HTTP API (docs/server.md): JSON in, JSON out; an error is thrown with the server's message,
// already in the player's language. Signed in, every request that may change something carries the session's CSRF
// token (X-CSRF-Token, from GET /api/me or the sign-in's answer): a request refused for want of it (the session
// changed in another tab) asks /api/me again and is sent once more; the page hears of the account it found (the
// "flametable:account" event, which account.js listens to).
import { language } from "./i18n.js";

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

let csrf = null;

// The session's CSRF token (null: a guest's requests need none).
export function useCsrf(token) {
  csrf = token || null;
}

// The header a request that may change something carries (fetch calls of their own add it too).
export function csrfHeaders() {
  return csrf ? { "x-csrf-token": csrf } : {};
}

async function send(path, body, method) {
  const sep = path.includes("?") ? "&" : "?";
  const verb = method || (body === undefined ? "GET" : "POST");
  const headers = verb === "GET" ? {} : csrfHeaders();
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${path}${sep}lang=${language()}`, {
    method: verb, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  return [response, await response.json()];
}

// Who is signed in here (GET /api/me): {account, csrf}; the token is kept and the page told.
export async function whoAmI() {
  const [response, data] = await send("/api/me");
  if (!response.ok) throw new ApiError(data.error, data.message, response.status);
  useCsrf(data.csrf);
  window.dispatchEvent(new CustomEvent("flametable:account", { detail: data }));
  return data;
}

// A request to the API: GET without a body, POST with one, or the method given ("DELETE").
export async function api(path, body, method) {
  let [response, data] = await send(path, body, method);
  if (response.status === 403 && data.error === "csrf") {
    await whoAmI();
    [response, data] = await send(path, body, method);
  }
  if (!response.ok) throw new ApiError(data.error, data.message, response.status);
  return data;
}

// The seat tokens this browser holds, by room id (a token is the only proof of a seat).
export function seatToken(room) {
  return localStorage.getItem(`flametable.seat.${room}`);
}

export function keepSeatToken(room, token) {
  localStorage.setItem(`flametable.seat.${room}`, token);
}

// Every seat token this browser holds (at most 50, the newest rooms' first does not matter): given to the account
// at sign-in or sign-up.
export function heldSeats() {
  const seats = [];
  for (let i = 0; i < localStorage.length && seats.length < 50; i++) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith("flametable.seat.")) continue;
    const token = localStorage.getItem(key);
    const room = key.slice("flametable.seat.".length);
    if (token && /^[A-Za-z0-9_-]{16,64}$/.test(token) && room.length <= 64) seats.push({ room, token });
  }
  return seats;
}

// A finished match's replay (GET /api/rooms/ID/matches/N/replay?lang=...): the response, asked again after a
// refusal for the moment (429: the address's replays a second; 503: the server's replay worker is full), as the
// server's message says, a few times with growing waits, while `stillWanted()`. Network errors are tried again too.
export async function replayResponse(room, match, lang, stillWanted = () => true) {
  let wait = 1000;
  let response = null;
  for (let attempt = 0; attempt < 6 && stillWanted(); attempt += 1) {
    try {
      response = await fetch(`/api/rooms/${encodeURIComponent(room)}/matches/${encodeURIComponent(match)}/replay?lang=${lang}`);
      if (response.status !== 429 && response.status !== 503) return response;
    } catch {
      response = null;
    }
    await new Promise((resolve) => { setTimeout(resolve, wait); });
    wait = Math.min(wait * 2, 8000);
  }
  return response;
}
