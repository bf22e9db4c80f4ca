// The server's HTTP API (docs/server.md): JSON in, JSON out; an error is thrown with the server's message,
// already in the player's language.
import { language } from "./i18n.js";

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

export async function api(path, body) {
  const sep = path.includes("?") ? "&" : "?";
  const response = await fetch(`${path}${sep}lang=${language()}`, body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await response.json();
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
