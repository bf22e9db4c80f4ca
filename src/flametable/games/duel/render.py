"""Flame Duel on screen: rich renderables built from one seat's :class:`DuelView` and nothing else."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from flametable.cli.console import NONE, Grid, simple_table
from flametable.games.duel.actions import DuelAction, Kind
from flametable.games.duel.cards import Stat
from flametable.games.duel.rules import MAX_PLAYS, Phase
from flametable.games.duel.texts import (
    CardWords,
    describe_option,
    log_entry,
    phase_text,
    round_title,
    round_winner,
    stat_name,
)
from flametable.games.duel.view import DuelView
from flametable.texts.translator import Translator


def _cards(tr: Translator, n: int) -> str:
    return tr.ngettext("{n} card", "{n} cards", n).format(n=n)


def header(view: DuelView, words: CardWords, names: Sequence[str]) -> RenderableType:
    _ = words.tr.gettext
    if view.phase is Phase.DRAFT:
        title = _("Flame Duel · Draft")
    elif view.phase is Phase.LINEUP:
        title = _("Flame Duel · Line-up")
    else:
        title = _("Flame Duel · {round}").format(round=round_title(words.tr, view.round_number))
    lines: list[str] = []
    if view.stat >= 0:
        lines.append(_("Stat: {stat}").format(stat=stat_name(words.tr, view.stat)))
    if view.chooser is not None:
        lines.append(_("Chooser: {player}").format(player=names[view.chooser]))
    if view.to_act is not None:
        lines.append(_("Turn: {player} — {task}").format(player=names[view.to_act],
                                                         task=phase_text(words.tr, view.phase)))
    return Group(Rule(title), Text(" · ".join(lines)))


def place_line(view: DuelView, words: CardWords, names: Sequence[str]) -> Text:
    _ = words.tr.gettext
    if not view.place or view.place_owner is None:
        return Text(_("Place on the table: none"))
    return Text(_("Place on the table: {card} ({detail}), owned by {player}").format(
        card=words.support(view.place), detail=words.support_detail(view.place), player=names[view.place_owner]))


def shared_pile(view: DuelView, words: CardWords) -> str | None:
    """The shared draw pile (R2: one support deck for both players), said once; None with own decks."""
    if not view.shared_pile:
        return None
    return words.tr.gettext("Shared draw pile: {cards}").format(cards=_cards(words.tr, view.seats[0].pile_size))


def seats_table(view: DuelView, words: CardWords, names: Sequence[str]) -> Table:
    _ = words.tr.gettext
    table = simple_table()
    table.add_column("")
    for name in names:
        table.add_column(name, overflow="fold")
    a, b = view.seats
    chars = [s.character for s in view.seats]
    table.add_row(_("Character"), *(words.character(c) if c else NONE for c in chars))
    stats_label = " · ".join(stat_name(words.tr, s) for s in Stat)
    table.add_row(stats_label, *(" · ".join(str(words.cards.character(c).stat(s)) for s in Stat) if c else NONE
                                 for c in chars))
    if view.stat >= 0:
        table.add_row(_("Total this round"), str(a.total), str(b.total))
    if a.modifier or b.modifier:
        table.add_row(_("Effect modifiers"), f"{a.modifier:+d}", f"{b.modifier:+d}")
    table.add_row(_("Items this round"), *(", ".join(words.support(i) for i in s.items) or NONE for s in view.seats))
    table.add_row(_("Plays left"), *(str(max(0, MAX_PLAYS - s.plays)) for s in view.seats))
    table.add_row(_("Ability"), *(_("used") if s.ability_used else _("not used") for s in view.seats))
    table.add_row(_("Hand"), _cards(words.tr, a.hand_size), _cards(words.tr, b.hand_size))
    if a.revealed or b.revealed:
        table.add_row(_("Known in hand"), *(", ".join(words.support(r) for r in s.revealed) or NONE
                                            for s in view.seats))
    if not view.shared_pile:  # the shared one is said once, above the table (shared_pile)
        table.add_row(_("Draw pile"), _cards(words.tr, a.pile_size), _cards(words.tr, b.pile_size))
    table.add_row(_("Discard pile"), *(", ".join(words.support(d) for d in s.discard) or NONE for s in view.seats))
    table.add_row(_("Flipped so far"), *(", ".join(f"C{c}" for c in s.flipped) or NONE for s in view.seats))
    table.add_row(_("Round wins"), str(a.wins), str(b.wins))
    return table


def abilities(view: DuelView, words: CardWords) -> RenderableType:
    _ = words.tr.gettext
    lines = [Text(f"{words.character(s.character)}: {words.ability(s.character)}")
             for s in view.seats if s.character]
    return Group(Text(_("Abilities in play:"), style="bold"), *lines) if lines else Group()


def round_log(view: DuelView, words: CardWords, names: Sequence[str]) -> RenderableType:
    _ = words.tr.gettext
    if not view.log:
        return Text(_("Nothing played yet this round."))
    table = simple_table(_("This round"))
    table.add_column(_("Player"))
    table.add_column(_("What"), overflow="fold")
    for entry in view.log:
        table.add_row(names[entry.seat], log_entry(entry.action, words, entry.auto))
    return table


def hand_table(view: DuelView, words: CardWords) -> RenderableType:
    _ = words.tr.gettext
    if not view.hand:
        return Text(_("Your hand is empty."))
    table = simple_table(_("Your hand"))
    table.add_column(_("Card"))
    table.add_column(_("Kind"))
    table.add_column(_("Equips to"))
    table.add_column(_("Text"), overflow="fold")
    for s in view.hand:
        table.add_row(words.support(s), words.support_detail(s), words.equips_to(s) or NONE, words.support_text(s))
    return table


def characters_table(title: str | None, numbers: Sequence[int], words: CardWords, with_ability: bool = True,
                     lineup: Sequence[int] = (), flipped: Sequence[int] = ()) -> Table:
    _ = words.tr.gettext
    table = simple_table(title)
    if lineup:
        table.add_column("#")
    table.add_column(_("Character"))
    for s in Stat:
        table.add_column(stat_name(words.tr, s), justify="right")
    if lineup:
        table.add_column(_("Status"))
    if with_ability:
        table.add_column(_("Ability"), overflow="fold")
    for pos, c in enumerate(numbers, 1):
        card = words.cards.character(c)
        row = [words.character(c), str(card.spark), str(card.heat), str(card.charm)]
        if lineup:
            row = [str(pos), *row, _("flipped") if c in flipped else _("face down")]
        if with_ability:
            row.append(words.ability(c))
        table.add_row(*row)
    return table


def my_pile(view: DuelView, words: CardWords) -> RenderableType:
    """What I know of my draw pile: the top cards I looked at; in own decks, which cards are left."""
    _ = words.tr.gettext
    lines = []
    if view.known_top:
        lines.append(Text(_("Top of your draw pile (you looked, top first): {cards}").format(
            cards=", ".join(words.support(s) for s in view.known_top))))
    if view.my_pile:
        lines.append(Text(_("Still in your draw pile (in some order): {cards}").format(
            cards=", ".join(words.support(s) for s in view.my_pile))))
    return Group(*lines)


def results_table(view: DuelView, words: CardWords, names: Sequence[str]) -> RenderableType:
    _ = words.tr.gettext
    if not view.results:
        return Group()
    table = simple_table(_("Rounds so far"))
    table.add_column(_("Round"))
    table.add_column(_("Stat"))
    table.add_column(names[0], overflow="fold")
    table.add_column(names[1], overflow="fold")
    table.add_column(_("Winner"))
    for r in view.results:
        table.add_row(round_title(words.tr, r.number), stat_name(words.tr, r.stat),
                      f"{words.character(r.characters[0])}: {r.totals[0]}",
                      f"{words.character(r.characters[1])}: {r.totals[1]}", round_winner(words.tr, r, names))
    return table


def draft_parts(view: DuelView, words: CardWords, names: Sequence[str]) -> list[RenderableType]:
    _ = words.tr.gettext
    parts: list[RenderableType] = [characters_table(_("Characters still free"), view.draft_pool, words)]
    for seat, info in enumerate(view.seats):
        picks = ", ".join(words.character(c) for c in info.known_characters) or NONE
        parts.append(Text(_("{player} has picked: {characters}").format(player=names[seat], characters=picks)))
    return parts


def board(view: DuelView, words: CardWords, names: Sequence[str]) -> RenderableType:
    """Everything the seat of ``view`` sees at the table."""
    _ = words.tr.gettext
    parts: list[RenderableType] = [header(view, words, names)]
    if view.phase is Phase.DRAFT:
        parts += draft_parts(view, words, names)
    elif view.phase is Phase.LINEUP:
        parts.append(characters_table(_("Your characters"), view.my_characters, words))
        parts += lineup_so_far(view, words, names, words.character)
    else:
        parts.append(place_line(view, words, names))
        pile = shared_pile(view, words)
        if pile is not None:
            parts.append(Text(pile))
        parts += [seats_table(view, words, names), abilities(view, words), round_log(view, words, names)]
    if view.seat is not None:
        if view.phase is not Phase.DRAFT and (view.hand or view.phase is not Phase.LINEUP):
            parts.append(hand_table(view, words))
        if len(view.lineup) == 3 and view.phase is not Phase.LINEUP:
            parts.append(characters_table(_("Your line-up"), view.lineup, words, with_ability=False,
                                          lineup=view.lineup, flipped=view.seats[view.seat].flipped))
        parts.append(my_pile(view, words))
        if view.champion:
            parts.append(Text(_("Your tie-break character: {character}").format(
                character=words.character(view.champion))))
    parts.append(results_table(view, words, names))
    return Group(*parts)


def lineup_so_far(view: DuelView, words: CardWords, names: Sequence[str],
                  other_character: Callable[[int], str]) -> list[RenderableType]:
    """While the line-ups are chosen: the seat's line-up so far and, after a draft, the characters the other
    player has (each as ``other_character`` writes it: a name on the full board, a number on the compact one)."""
    _ = words.tr.gettext
    parts: list[RenderableType] = []
    if view.lineup:
        parts.append(Text(_("Your line-up so far: {characters}").format(
            characters=", ".join(words.character(c) for c in view.lineup))))
    if view.draft and view.seat is not None:
        other = view.seats[1 - view.seat].known_characters
        parts.append(Text(_("{player} has: {characters}").format(
            player=names[1 - view.seat], characters=", ".join(other_character(c) for c in other))))
    return parts


def menu(tr: Translator, options: Sequence[str]) -> RenderableType:
    _ = tr.gettext
    table = Table(box=None, show_header=False, pad_edge=False)
    table.add_column(justify="right", style="bold")
    table.add_column(overflow="fold")
    for i, text in enumerate(options, 1):
        table.add_row(f"{i}.", text)
    return Group(Text(_("Your options:"), style="bold"), table)


# ------------------------------------------------------------------ compact: a board that fits 80 × 24


def compact_board(view: DuelView, words: CardWords, names: Sequence[str]) -> RenderableType:
    """The board of :func:`board` in about 15 lines, for a small terminal: no card texts or abilities (the full
    board shows them), both seats side by side, the hand on one line."""
    _ = words.tr.gettext
    if view.phase is Phase.DRAFT:
        return compact_draft(view, words, names)
    if view.phase is Phase.LINEUP:  # three characters: they fit, with their abilities
        parts = [header(view, words, names), characters_table(None, view.my_characters, words)]
        return Group(*parts, *lineup_so_far(view, words, names, lambda c: f"C{c}"))
    parts = [compact_header(view, words, names), compact_seats(view, words, names)]
    if view.seat is not None:
        if len(view.lineup) == 3:
            flipped = view.seats[view.seat].flipped
            parts.append(Text(_("Your line-up: {characters}").format(characters=", ".join(
                f"C{c}" + ("" if c in flipped else " (" + _("face down") + ")") for c in view.lineup))))
        if view.champion:
            parts.append(Text(_("Your tie-break character: {character}").format(
                character=words.character(view.champion))))
        hand = ", ".join(f"{words.support(s)} ({words.support_detail(s)})" for s in view.hand) or NONE
        parts.append(Text(_("Your hand: {cards}").format(cards=hand)))
        if view.known_top:
            parts.append(Text(_("Top of your draw pile (you looked, top first): {cards}").format(
                cards=", ".join(words.support(s) for s in view.known_top))))
    return Group(*parts)


def compact_header(view: DuelView, words: CardWords, names: Sequence[str]) -> RenderableType:
    """The round and its stat on the rule; whose turn it is only when it is not the viewer's (its own prompt and
    options say so)."""
    _ = words.tr.gettext
    title = round_title(words.tr, view.round_number)
    if view.stat >= 0:
        title += " · " + stat_name(words.tr, view.stat)
    pile = shared_pile(view, words)
    if pile is not None:
        title += " · " + pile
    if view.to_act is None or view.to_act == view.seat:
        return Rule(title)
    return Group(Rule(title), Text(_("Turn: {player} — {task}").format(player=names[view.to_act],
                                                                       task=phase_text(words.tr, view.phase))))


def compact_seats(view: DuelView, words: CardWords, names: Sequence[str]) -> Table:
    """Both seats side by side, one row a fact."""
    _ = words.tr.gettext
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold")
    table.add_column("", no_wrap=True)
    for name in names:
        table.add_column(name, overflow="fold")
    chars = [s.character for s in view.seats]
    table.add_row(_("Character"), *(words.character(c) if c else NONE for c in chars))
    if view.stat >= 0:
        row = []
        for s in view.seats:
            row.append(f"{s.total} ({s.modifier:+d})" if s.modifier else str(s.total))
        table.add_row(_("Total this round"), *row)
    else:
        table.add_row(" · ".join(stat_name(words.tr, s) for s in Stat),
                      *(" · ".join(str(words.cards.character(c).stat(s)) for s in Stat) if c else NONE
                        for c in chars))
    played: list[list[str]] = [[], []]
    for entry in view.log:
        if entry.action.kind is Kind.PLAY:
            played[entry.seat].append(f"S{entry.action.arg}")
        elif entry.action.kind is Kind.ABILITY:
            played[entry.seat].append(_("ability") + f" (S{entry.action.arg})")
    table.add_row(_("Played this round"), *(", ".join(p) or NONE for p in played))
    table.add_row(_("Plays left · ability"), *(
        f"{max(0, MAX_PLAYS - s.plays)} · " + (_("used") if s.ability_used else _("not used")) for s in view.seats))
    if view.shared_pile:  # said once, on the rule (compact_header)
        table.add_row(_("Hand"), *(_cards(words.tr, s.hand_size) for s in view.seats))
    else:
        table.add_row(_("Hand · draw pile"), *(f"{_cards(words.tr, s.hand_size)} · {_cards(words.tr, s.pile_size)}"
                                              for s in view.seats))
    if any(s.revealed for s in view.seats):
        table.add_row(_("Known in hand"), *(", ".join(f"S{r}" for r in s.revealed) or NONE for s in view.seats))
    table.add_row(_("Discard pile"), *(", ".join(f"S{d}" for d in s.discard) or NONE for s in view.seats))
    table.add_row(_("Round wins"), *(str(s.wins) for s in view.seats))
    if view.place and view.place_owner is not None:
        table.add_row(_("Place on the table"), *(words.support(view.place) if seat == view.place_owner else ""
                                                 for seat in (0, 1)))
    return table


def compact_draft(view: DuelView, words: CardWords, names: Sequence[str]) -> RenderableType:
    """The characters still free, each on a short line numbered by its card number (which does not change from
    one pick to the next), in as many columns as fit; then the picks so far."""
    _ = words.tr.gettext
    entries = []
    longest = max((len(words.tr.pick(words.cards.character(c).name)) for c in view.draft_pool), default=0)
    for c in view.draft_pool:
        card = words.cards.character(c)
        entry = Text(f"{c:>2} ", style="bold")
        entry.append(words.tr.pick(card.name).ljust(longest))
        entry.append(f" {card.spark:>2} {card.heat:>2} {card.charm:>2}", style="dim")
        entries.append(entry)
    picks = " · ".join(f"{names[seat]}: " + (", ".join(f"C{c}" for c in info.known_characters) or NONE)
                       for seat, info in enumerate(view.seats))
    stats = " ".join(stat_name(words.tr, s) for s in Stat)
    return Group(Rule(_("Flame Duel · Draft")),
                 Text(_("Characters still free (number, name, {stats}):").format(stats=stats), style="bold"),
                 Grid(entries), Text(_("Picked: {picks}").format(picks=picks)))


def compact_option(action: DuelAction, words: CardWords, current: int, lineup_len: int) -> str:
    """A menu entry short enough for columns: a card by its number (the hand line names it)."""
    _ = words.tr.gettext
    if action.kind is Kind.PLAY:
        return _("Play {card}").format(card=f"S{action.arg}")
    if action.kind is Kind.ABILITY:
        return _("Ability, discard {card}").format(card=f"S{action.arg}")
    if action.kind is Kind.LINE:
        return _("Position {position}: {card}").format(position=lineup_len + 1, card=f"C{action.arg}")
    return describe_option(action, words, current, lineup_len)


def compact_menu(tr: Translator, options: Sequence[str]) -> RenderableType:
    _ = tr.gettext
    entries = [Text.assemble(Text(f"{i:>2}. ", style="bold"), text) for i, text in enumerate(options, 1)]
    return Group(Text(_("Your options:"), style="bold"), Grid(entries))
