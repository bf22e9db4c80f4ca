// How to play Flame Duel, in a few lines (the help page, /help/duel): the project's own words for the rules.
import { h } from "/static/js/dom.js";
import { _ } from "/static/js/i18n.js";

export function help() {
  const part = (title, ...lines) => h("section", {}, h("h2", {}, title), lines.map((line) => h("p", {}, line)));
  return [
    part(_("The aim"),
      _("Win two of the three rounds. In each round your character of the round competes with the other player's on one stat: Spark, Heat or Charm.")),
    part(_("Before the first round"),
      _("Each player gets three characters, at random or drafted in turn, and lines them up face down in a secret order. Each player holds a hand of support cards: items, places and events. With own decks, each player draws from their own deck.")),
    part(_("A round"),
      _("Both players flip their next character. The loser of the last round chooses the stat; in the first round, the player whose character has the lower card number."),
      _("Then, the chooser first, the players take turns: play a card from the hand or pass, at most two plays each a round. Two passes one after the other end the round; a pass does not stop you from playing later in the round.")),
    part(_("The cards"),
      _("An item is equipped to your character and adds its bonus when it matches the round's stat (twice if it equips to that character). A place replaces the one on the table and gives its bonus to whoever played it, this round and later ones. An event works on both sides, as its text says."),
      _("Instead of a card, once a round, you may discard a card to trigger your character's ability: +15 to the round's stat, and its text when it does something.")),
    part(_("Winning"),
      _("The higher total wins the round; on equal totals the higher printed Charm, else the round is a draw. Items and events are discarded, the place stays, each player draws a card and the next round begins."),
      _("Two round wins win the match. Still equal after three rounds: a tie-break round with the character each player chose for it.")),
    part(_("On this table"),
      _("Your options and your hand are at the bottom of the screen. Tap a card's name, or reach it with the keyboard, to read the whole card.")),
  ];
}
