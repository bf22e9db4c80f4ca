// One room's WebSocket: says hello with the seat token (or none, to watch) and the match and version last seen,
// hands each server message to the table, and comes back by itself after a lost connection or a server restart
// (the server then sends what was missed, or a full sync).
import { language } from "./i18n.js";

export class RoomSocket {
  constructor(room, token, handlers) {
    this.room = room;
    this.token = token;
    this.handlers = handlers; // {message(msg), status(state)}
    this.match = null;
    this.version = null;
    this.delay = 500;
    this.closed = false;
    this.retry = null;
    // The network is back: try at once rather than at the end of the wait.
    this.online = () => {
      if (this.retry === null) return;
      clearTimeout(this.retry);
      this.retry = null;
      this.open();
    };
    window.addEventListener("online", this.online);
    this.open();
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/api/rooms/${encodeURIComponent(this.room)}/ws?lang=${language()}`);
    this.ws = ws;
    this.handlers.status("connecting");
    ws.onopen = () => {
      this.delay = 500;
      ws.send(JSON.stringify({ type: "hello", token: this.token, match: this.match, version: this.version, lang: language() }));
    };
    ws.onmessage = (frame) => {
      const msg = JSON.parse(frame.data);
      if (msg.type === "welcome") {
        if (this.match !== msg.match) this.version = null;
        this.match = msg.match;
        this.handlers.status("connected");
      } else if (msg.type === "event") {
        this.match = msg.match;
        this.version = msg.event.version;
      }
      this.handlers.message(msg);
    };
    ws.onclose = (e) => {
      if (this.closed || ws !== this.ws) return;
      if (e.code >= 4000 && e.code < 5000) { // the server refused the room for good (4404: no such room)
        this.handlers.status("closed");
        return;
      }
      this.handlers.status("reconnecting");
      this.retry = setTimeout(() => { this.retry = null; this.open(); }, this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    };
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  act(action) {
    return this.send({ type: "act", action, version: this.version });
  }

  close() {
    this.closed = true;
    window.removeEventListener("online", this.online);
    if (this.retry !== null) clearTimeout(this.retry);
    if (this.ws) this.ws.close();
  }
}
