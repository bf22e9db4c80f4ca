// How to play Flamecraft Duals, in a few lines (the help page, /help/duals): the project's own words for the rules.
import { h } from "/static/js/dom.js";
import { _ } from "/static/js/i18n.js";

export function help() {
  const part = (title, ...lines) => h("section", {}, h("h2", {}, title), lines.map((line) => h("p", {}, line)));
  return [
    part(_("The aim"),
      _("Score the most victory points (VP) with the shop cards whose patterns you complete on the shared board of dragon tokens.")),
    part(_("Before the first turn"),
      _("Each player holds 2 shop cards in a secret hand and has 3 coins. Six tokens already stand around the centre of the board.")),
    part(_("A turn: PLAY, SCORE, REFRESH"),
      _("PLAY: put the token drawn from the bag on an empty space or on top of a stack (3 tokens at most). Then you may FIRE UP its ability (a dual token: one of its two). Abilities act only on the top token of a stack."),
      _("SCORE: score each card of your hand whose pattern the board shows, turned any way: it goes to your scoring pile. Once a turn, before REFRESH, you may spend a coin: draw 2 cards, then put 2 of your hand at the bottom of the deck."),
      _("REFRESH: draw cards until you hold 2.")),
    part(_("The end"),
      _("When the bag or the shop deck runs out, the player who made it happen finishes the turn, and the other has a last chance to score and spend a coin."),
      _("Each unspent coin is worth 1 VP (0 with STARBURST). Most VP wins; on equal VP, more scored cards; then the victory is shared.")),
    part(_("On this table"),
      _("The spaces you may click are highlighted. Your options and your hand are at the bottom of the screen on a phone, beside the board on a wider one.")),
  ];
}
