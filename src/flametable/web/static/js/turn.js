// Whose turn it is once there is none: the table's header at the end of a match, whatever the game and however
// it ended (the rules' end, a resignation, a loss on time, a player who left, a room closed unplayed). Pure: the
// words of the frame's "ended" message (its status and result) and the seats' names.
import { _ } from "./i18n.js";

const UNPLAYED = ["expired", "closed"];

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
