// Seats and turns in words, pure, for the table, My matches and profiles: a bot seat's kind, and whose turn it is once
// there is none: the table's header at the end of a match, whatever the game and however it ended (the rules' end, a
// resignation, a loss on time, a player who left, a room closed unplayed), from the frame's "ended" message (its
// status and result) and the seats' names.
import { _ } from "./i18n.js";

// The statuses of a match closed before it was played out: the room's open seat stayed empty too long, or its
// player closed it (the server's "ended" message then says why, in the player's language).
export const UNPLAYED = ["expired", "closed"];

// A bot seat's kind in words ("bot:easy" is the server's name for it).
export function botName(kind) {
  const known = { "bot:easy": _("An easy bot"), "bot:medium": _("A medium bot"), "bot:hard": _("A hard bot"),
    "bot:random": _("A random bot") };
  return known[kind] || _("A bot ({kind})", { kind: kind.slice(4) });
}

export function endWords(ended, names) {
  if (!ended) return "";
  if (UNPLAYED.includes(ended.status)) return _("This room is closed.");
  const r = ended.result || {};
  const won = r.winner === 0 || r.winner === 1;
  const loser = won ? names[1 - r.winner] : null;
  const why = {
    resigned: () => _("{player} resigned.", { player: loser }),
    time: () => _("{player} ran out of time.", { player: loser }),
    left: () => _("{player} left the match.", { player: loser }),
  }[r.reason];
  const then = won && why ? why() : won ? _("{player} wins.", { player: names[r.winner] }) : _("The match is a tie.");
  return _("The match is over.") + " " + then;
}
