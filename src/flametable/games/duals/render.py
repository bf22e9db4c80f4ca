"""Flamecraft Duals on screen: rich renderables built from one seat's :class:`DualsView` and the game's
public data (board geometry, card patterns), nothing else.

The board is drawn as the hex grid it is (rows offset by half a space, so the six neighbours of a space are
the two beside it and the two above and below it on either side); each space shows its name and its stack,
bottom first, the top token in upper case and bold, the covered ones in lower case. Each token type has a
colour and a letter (:func:`~flametable.games.duals.texts.type_letters`); a dual shows both letters, Buddy a
star.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from flametable.cli.console import NONE, Grid, simple_table
from flametable.games.duals.actions import DualsAction, Kind
from flametable.games.duals.pattern import Cell
from flametable.games.duals.rules import NUM_TYPES, STACK_LIMIT, Step
from flametable.games.duals.texts import (
    DualsWords,
    can_coin,
    describe_option,
    duals_commands,
    fmt,
    short_option,
    task_text,
    type_name,
)
from flametable.games.duals.view import DualsView

FIRING_MARK = "»"
CHANGED_MARK = "+"


# ------------------------------------------------------------------ the board


def stack_text(stack: Sequence[int], words: DualsWords) -> Text:
    """``b·ip·ML``: the stack bottom first, the top token upper case (the only one that counts)."""
    if not stack:
        return Text("·", style="dim")
    out = Text()
    for i, kind in enumerate(stack):
        if i:
            out.append("·", style="dim")
        out.append_text(words.glyph(kind, top=i == len(stack) - 1))
    return out


def _cell_width(words: DualsWords) -> int:
    longest = 0
    for k in range(words.data.num_kinds):
        longest = max(longest, len(words.letters(k)))
    stack = STACK_LIMIT * longest + STACK_LIMIT - 1
    return 1 + max(len(n) for n in words.names) + 1 + stack


def hex_board(view: DualsView, words: DualsWords, changed: Collection[int] = (), spaced: bool = True) -> Text:
    """The board of a view, the firing token's space marked, and the ``changed`` spaces."""
    firing = view.src if view.phase not in (Step.PLACE, Step.SCORE, Step.OVER) else -1
    return hex_grid(view.board, words, firing, changed, spaced)


def changed_spaces(before: Sequence[Sequence[int]], view: DualsView) -> list[int]:
    """The spaces whose stack is not what it was in ``before`` (a board seen earlier)."""
    return [s for s, stack in enumerate(view.board) if tuple(stack) != tuple(before[s])]


def changes_line(changed: Sequence[int], words: DualsWords) -> Text:
    _ = words.tr.gettext
    if not changed:
        return Text(_("The board has not changed since your last turn."), style="dim")
    return Text(_("Changed since your last turn (marked {mark}): {spaces}").format(
        mark=CHANGED_MARK, spaces=", ".join(words.names[s] for s in changed)), style="dim")


def hex_grid(stacks: Sequence[Sequence[int]], words: DualsWords, firing: int = -1,
             changed: Collection[int] = (), spaced: bool = True) -> Text:
    """The board as a hex grid: one line per row of spaces, rows offset by half a space (and a blank line between
    rows when ``spaced``)."""
    board = words.data.board
    width = _cell_width(words)
    half = (width + 3) // 2  # a space and its neighbour in the next row are half a space apart
    xs = [2 * q + r for q, r in board.coords]
    xmin = min(xs)
    rows: dict[int, list[tuple[int, int]]] = {}
    for s, (q, r) in enumerate(board.coords):
        rows.setdefault(r, []).append((2 * q + r, s))
    lines: list[Text] = []
    for i, r in enumerate(sorted(rows)):
        if i and spaced:
            lines.append(Text())
        line = Text()
        col = 0
        for x, s in sorted(rows[r]):
            target = (x - xmin) * half
            line.append(" " * max(0, target - col))
            cell = _cell(stacks[s], words.names[s], s == firing, words, s in changed)
            line.append_text(cell)
            col = max(target, col) + cell.cell_len
        lines.append(line)
    return Text("\n").join(lines)


def _cell(stack: Sequence[int], name: str, firing: bool, words: DualsWords, changed: bool = False) -> Text:
    out = Text()
    if firing:
        out.append(FIRING_MARK, style="bold")
    else:
        out.append(CHANGED_MARK if changed else " ", style="bold yellow")
    out.append(name, style="bold underline" if firing else ("bold" if stack else "dim"))
    out.append(" ")
    out.append_text(stack_text(stack, words))
    return out


def legend(words: DualsWords) -> Text:
    _ = words.tr.gettext
    parts = [fmt("{glyph} {name}", glyph=words.glyph(t), name=type_name(words.tr, t))
             for t in range(NUM_TYPES)]
    out = Text()
    out.append(_("Tokens:") + " ", style="bold")
    out.append_text(Text(" · ").join(parts))
    out.append(" · ")
    out.append_text(words.glyph(words.data.buddy))
    out.append(" " + _("Buddy (any type)"))
    out.append("\n")
    out.append(_("Stacks bottom first: the top token (the only one that counts) in CAPITALS, the ones under it in "
                 "small letters; a dual shows both letters."), style="dim")
    return out


def supply(view: DualsView, words: DualsWords, contents: bool = True) -> Text:
    """The bag (a multiset, D10; its ``contents`` too), the reserve and the shop deck."""
    _ = words.tr.gettext
    bag = Text(" ").join(fmt("{glyph}{n}", glyph=words.glyph(k), n=n) for k, n in enumerate(view.bag) if n)
    reserve = Text(" ").join(words.glyph(k) for k in view.reserve) if view.reserve else Text(NONE)
    out = fmt(words.tr.ngettext("Bag: {n} token", "Bag: {n} tokens", view.bag_size), n=view.bag_size)
    if view.bag_size and contents:
        out.append(" (")
        out.append_text(bag)
        out.append(")")
    out.append(" · ")
    out.append_text(fmt(_("Reserve: {tokens}"), tokens=reserve))
    out.append(" · ")
    out.append(words.tr.ngettext("Shop deck: {n} card", "Shop deck: {n} cards", view.deck_size).format(
        n=view.deck_size))
    return out


# ------------------------------------------------------------------ players and cards


def pattern_sketch(cells: Sequence[Cell], words: DualsWords) -> Text:
    """A card's pattern laid out like the board (rows offset by half a cell), one letter per cell; a digit
    stands for a variable (same digit, same type; different digits, different types)."""
    variables: list[str] = []
    for c in cells:
        if c.var and c.var not in variables:
            variables.append(c.var)
    placed = {(2 * c.dq + c.dr, c.dr): c for c in cells}
    xmin = min(x for x, _ in placed)
    ymin = min(y for _, y in placed)
    xmax = max(x for x, _ in placed)
    ymax = max(y for _, y in placed)
    lines: list[Text] = []
    for y in range(ymin, ymax + 1):
        line = Text()
        for x in range(xmin, xmax + 1):
            cell = placed.get((x, y))
            if cell is None:
                line.append(" ")
            elif cell.var:
                line.append(str(variables.index(cell.var) + 1), style="bold")
            else:
                line.append_text(words.glyph(cell.type))
        line.rstrip()
        lines.append(line)
    return Text("\n").join(lines)


def card_panel(number: int, words: DualsWords, matches: bool | None, where: str = "",
               note: str = "") -> Panel:
    _ = words.tr.gettext
    card = words.data.card(number)
    body = Text()
    body.append_text(pattern_sketch(card.cells, words))
    if card.starburst:
        body.append("\n")
        body.append(_("1 2 3: three different types"), style="italic")
        body.append("\n")
        body.append(_("STARBURST: your coins are worth 0"), style="italic")
    if matches is not None:
        body.append("\n")
        if matches:
            body.append(_("✓ matches now"), style="bold green")
            if where:
                body.append("\n" + _("on {spaces}").format(spaces=where))
        else:
            body.append(_("does not match now"), style="dim")
    if note:
        body.append("\n" + note, style="dim")
    title = Text(words.card(number), style="bold")
    subtitle = _("{vp} VP").format(vp=card.vp)
    # wide enough for the title and the VP below (a border shows each with a space and a rule either side),
    # at most 24 columns (38 with the STARBURST text), which wrap
    widest = max(line.cell_len for line in body.split("\n"))
    width = min(38 if card.starburst else 24, max(widest + 4, title.cell_len + 6, len(subtitle) + 6))
    return Panel(body, title=title, subtitle=subtitle, box=box.ROUNDED, expand=True, title_align="left",
                 subtitle_align="right", width=width)


def where_matches(view: DualsView, number: int, words: DualsWords) -> str:
    """The spaces of one placement where the card matches the board now (public: board and pattern)."""
    found = words.data.matcher.find(number, view.board)
    if found is None:
        return ""
    return " ".join(words.names[s] for s in found.spaces)


def hand(view: DualsView, words: DualsWords) -> RenderableType:
    _ = words.tr.gettext
    if view.seat is None:
        return Group()
    if not view.hand:
        return Text(_("Your hand is empty."))
    known = dict(view.bottom_known)
    panels = []
    for c in view.hand:
        ok = c in view.matching
        panels.append(card_panel(c, words, ok, where_matches(view, c, words) if ok else ""))
    parts: list[RenderableType] = [Text(_("Your hand (cards are turned as you like, never flipped):"),
                                        style="bold"), Columns(panels)]
    if known:
        cards = ", ".join(_("{card} ({pos} from the bottom)").format(card=words.card(c), pos=p + 1)
                          for c, p in sorted(known.items(), key=lambda x: x[1]))
        parts.append(Text(_("You put under the deck: {cards}").format(cards=cards), style="dim"))
    return Group(*parts)


def seats_table(view: DualsView, words: DualsWords, names: Sequence[str]) -> Table:
    _ = words.tr.gettext
    table = simple_table()
    table.add_column("")
    for seat, name in enumerate(names):
        head = Text(name, style="bold" if seat == view.turn and view.outcome is None else "")
        table.add_column(head, overflow="fold")
    table.add_row(_("Coins"), *(str(s.coins) for s in view.seats))
    table.add_row(_("Cards in hand"), *(str(s.hand_size) for s in view.seats))
    table.add_row(_("Scored cards"), *(", ".join(words.card_vp(c) for c in s.pile) or NONE for s in view.seats))
    table.add_row(_("VP now (cards + coins)"), *(str(s.points) for s in view.seats))
    return table


def header(view: DualsView, words: DualsWords, names: Sequence[str], buddy: bool = False) -> RenderableType:
    _ = words.tr.gettext
    title = _("Flamecraft Duals · Turn {n}").format(n=view.turn_number)
    if buddy:
        title += " · " + _("Buddy variant")
    lines: list[Text] = [Text(_("First player: {player}").format(player=names[view.first_player]), style="dim")]
    if view.to_act is not None:
        lines.append(Text(_("Turn: {player} — {task}").format(player=names[view.to_act],
                                                               task=task_text(words.tr, view))))
    return Group(Rule(title), *lines)


def notices(view: DualsView, words: DualsWords, names: Sequence[str]) -> RenderableType:
    """D8: the end is triggered; the last chance."""
    _ = words.tr.gettext
    out: list[Text] = []
    if view.outcome is not None:
        return Group()
    if view.last_chance:
        out.append(Text(_("LAST CHANCE for {player}: score cards and spend a coin, nothing else; then the match "
                          "ends.").format(player=names[view.turn]), style="bold yellow"))
    elif view.end_triggered:
        out.append(Text(_("The end is triggered (the bag or the shop deck ran out): {player} finishes this turn, "
                          "then {other} gets a last chance.").format(player=names[view.turn],
                                                                      other=names[1 - view.turn]),
                        style="bold yellow"))
    return Group(*out)


def decision(view: DualsView, words: DualsWords, names: Sequence[str]) -> Text:
    """The decision pending, in words."""
    _ = words.tr.gettext
    if view.outcome is not None or view.to_act is None:
        return Text(_("The match is over."))
    player = names[view.to_act]
    src = view.src
    phase = view.phase
    if phase is Step.BOTTOM:
        return Text(words.tr.ngettext("{player}: put {n} card of your hand at the bottom of the deck (the coin).",
                             "{player}: put {n} cards of your hand at the bottom of the deck (the coin).",
                             view.bottom_left).format(player=player, n=view.bottom_left))
    if phase is Step.PLACE:
        text = fmt(_("{player} holds {token}: place it on a space with fewer than 3 tokens."), player=player,
                   token=words.token(view.held))
        if view.drawn:
            text.append(" " + _("(The crystal's token: it does not FIRE UP.)"))
        return text
    if phase is Step.FIRE:
        if not view.fire_optional:
            return fmt(_("{player}: the plant uses {token} on {space}: FIRE UP one of its abilities."), player=player,
                       token=words.top(view, src), space=words.space(src))
        return fmt(_("{player}: FIRE UP {token} on {space}, or not."), player=player, token=words.top(view, src),
                   space=words.space(src))
    if phase is Step.TAKE:
        return fmt(_("{player}: the crystal drew {tokens}; keep one to place, the others go back into the bag."),
                   player=player, tokens=words.tokens(view.drawn))
    if phase is Step.MEAT:
        return fmt(_("{player}: meat on {space}: move a top token next to it to any space with room."),
                   player=player, space=words.space(src))
    if phase is Step.IRON:
        if view.iron_dest >= 0:
            return fmt(_("{player}: iron on {space}: move a second top token next to it by one space, or stop."),
                       player=player, space=words.space(src))
        return fmt(_("{player}: iron on {space}: move a top token next to it by one space."), player=player,
                   space=words.space(src))
    if phase is Step.POTION:
        return fmt(_("{player}: potion on {space}: swap two top tokens anywhere on the board."), player=player,
                   space=words.space(src))
    if phase is Step.PLANT:
        return fmt(_("{player}: plant on {space}: use the ability of a top token next to it."), player=player,
                   space=words.space(src))
    coin = can_coin(view)
    score = not view.legal or any(a.kind is Kind.SCORE for a in view.legal)
    if view.last_chance:
        if not coin:
            return Text(_("{player}: last chance: score matching cards, or finish.").format(player=player))
        if not score:
            return Text(_("{player}: last chance: spend a coin, or finish.").format(player=player))
        return Text(_("{player}: last chance: score matching cards, spend a coin, or finish.").format(player=player))
    if not coin:
        return Text(_("{player}: SCORE: score matching cards, or finish.").format(player=player))
    if not score:
        return Text(_("{player}: SCORE: spend a coin, or finish.").format(player=player))
    return Text(_("{player}: SCORE: score matching cards, spend a coin, or finish.").format(player=player))


def board(view: DualsView, words: DualsWords, names: Sequence[str], buddy: bool = False,
          seen: Sequence[Sequence[int]] | None = None) -> RenderableType:
    """Everything the seat of ``view`` sees at the table; ``seen``: the board as this seat last saw it at the end
    of its own move, to mark what changed since."""
    changed = changed_spaces(seen, view) if seen is not None else []
    parts: list[RenderableType] = [
        header(view, words, names, buddy),
        notices(view, words, names),
        Text(),
        hex_board(view, words, changed),
        changes_line(changed, words) if seen is not None else Text(),
        legend(words),
        supply(view, words),
        seats_table(view, words, names),
        hand(view, words),
    ]
    if view.outcome is None:
        parts.append(Text.assemble(Text("▶ ", style="bold"), decision(view, words, names)))
    return Group(*parts)


GRID_KINDS = (Kind.PLACE, Kind.MOVE, Kind.SWAP)
GRID_AFTER = 8  # more options of one of these kinds than this: shown in columns


def menu(view: DualsView, words: DualsWords) -> RenderableType:
    """The legal actions, numbered in ``view.legal`` order; many places, moves or swaps go in columns."""
    _ = words.tr.gettext
    legal = view.legal
    spoken = duals_commands(words).spoken  # each option as the player types it, in the player's words
    parts: list[RenderableType] = [Text(_("Your options:"), style="bold")]
    table: Table | None = None
    i = 0
    while i < len(legal):
        kind = legal[i].kind
        j = i
        while j < len(legal) and legal[j].kind is kind:
            j += 1
        if kind in GRID_KINDS and j - i > GRID_AFTER:
            table = None
            parts.append(Text.assemble("     ", grid_heading(legal[i], view, words)))
            entries = [Text.assemble(Text(f"{n:>3}. ", style="bold"), short_option(a, view, words))
                       for n, a in enumerate(legal[i:j], i + 1)]
            parts.append(Grid(entries))
        else:
            if table is None:
                table = Table(box=None, show_header=False, pad_edge=False)
                table.add_column(justify="right", style="bold", min_width=4)
                table.add_column(overflow="fold")
                table.add_column(style="dim")
                parts.append(table)
            for n in range(i, j):
                table.add_row(f"{n + 1}.", describe_option(legal[n], view, words), spoken(legal[n]))
        i = j
    return Group(*parts)


def grid_heading(action: DualsAction, view: DualsView, words: DualsWords) -> Text:
    _ = words.tr.gettext
    if action.kind is Kind.PLACE:
        return fmt(_("Place {token} on (type the number or the space, like {example}):"), token=words.token(view.held),
                   example=words.names[action.a])
    example = f"{words.names[action.a]} {words.names[action.b]}"
    if action.kind is Kind.MOVE:
        return Text(_("Move a top token from one space to another (type the number, or both spaces like {example}):"
                      ).format(example=example))
    return Text(_("Swap two top tokens (type the number, or both spaces like {example}):").format(example=example))


def final_table(view: DualsView, words: DualsWords, names: Sequence[str],
                hands: Sequence[Sequence[int]] | None = None) -> Table:
    """D9: each player's cards, coins and victory points; and the cards each still held (``hands``, when
    known), shown to everyone once the match is over."""
    _ = words.tr.gettext
    table = simple_table(_("Final count"))
    table.add_column("")
    for name in names:
        table.add_column(name, overflow="fold")
    data = words.data
    table.add_row(_("Scored cards"), *(", ".join(words.card_vp(c) for c in s.pile) or NONE for s in view.seats))
    table.add_row(_("VP of cards"), *(str(sum(data.card(c).vp for c in s.pile)) for s in view.seats))
    coin_rows = []
    for s in view.seats:
        if data.starburst.intersection(s.pile):
            coin_rows.append(_("{coins} × 0 (STARBURST)").format(coins=s.coins))
        else:
            coin_rows.append(_("{coins} × 1").format(coins=s.coins))
    table.add_row(_("Unspent coins"), *coin_rows)
    table.add_row(_("Victory points"), *(str(s.points) for s in view.seats))
    table.add_row(_("Scored cards (tie-break)"), *(str(len(s.pile)) for s in view.seats))
    if hands is not None:
        table.add_row(_("Cards left in hand"), *(", ".join(words.card(c) for c in hand) or NONE for hand in hands))
    return table


# ------------------------------------------------------------------ compact: a board that fits 80 × 24


def compact_board(view: DualsView, words: DualsWords, names: Sequence[str], buddy: bool = False,
                  seen: Sequence[Sequence[int]] | None = None) -> RenderableType:
    """The board of :func:`board` in 12 to 16 lines, for a small terminal: the hex grid without blank lines (with
    its stacks and the spaces changed since ``seen``), the bag, reserve and deck on one line, each seat on one
    line, the hand's cards two to a line. The legend, the bag's contents, the first player and the long texts
    are on the full board (``?``)."""
    _ = words.tr.gettext
    title = _("Flamecraft Duals · Turn {n}").format(n=view.turn_number)
    if buddy:
        title += " · " + _("Buddy variant")
    if view.end_triggered and not view.last_chance and view.outcome is None:  # the decision tells the last chance
        title += " · " + _("the end is triggered")
    changed = changed_spaces(seen, view) if seen is not None else []
    parts: list[RenderableType] = [Rule(title), hex_board(view, words, changed, spaced=False)]
    if seen is not None:
        parts.append(changes_line(changed, words))
    parts += [supply(view, words, contents=False), compact_seats(view, words, names), compact_hand(view, words)]
    if view.outcome is None:
        parts.append(Text.assemble(Text("▶ ", style="bold"), decision(view, words, names)))
    return Group(*parts)


def compact_seats(view: DualsView, words: DualsWords, names: Sequence[str]) -> Table:
    """One line per seat: coins, cards in hand, VP now and the scored cards (by number: the VP say their worth)."""
    _ = words.tr.gettext
    ngettext = words.tr.ngettext
    table = Table.grid(padding=(0, 2))
    table.add_column(no_wrap=True)
    for _column in range(3):
        table.add_column(justify="right", no_wrap=True)
    table.add_column(overflow="fold")
    for seat, (name, info) in enumerate(zip(names, view.seats, strict=True)):
        table.add_row(Text(name, style="bold" if seat == view.turn and view.outcome is None else ""),
                      ngettext("{n} coin", "{n} coins", info.coins).format(n=info.coins),
                      ngettext("{n} card in hand", "{n} cards in hand", info.hand_size).format(n=info.hand_size),
                      _("{vp} VP").format(vp=info.points),
                      _("scored: {cards}").format(cards=" ".join(f"K{c}" for c in info.pile) or NONE))
    return table


def compact_hand(view: DualsView, words: DualsWords) -> RenderableType:
    """The hand's cards two to a line: each card's number and VP, its pattern, and where it matches now (✓) or
    that it does not (✗)."""
    _ = words.tr.gettext
    if view.seat is None:
        return Group()
    if not view.hand:
        return Text(_("Your hand is empty."))
    cells: list[Text] = []
    for c in view.hand:
        mark = Text("✓ " + where_matches(view, c, words), style="bold green") if c in view.matching else Text(
            "✗", style="dim")
        cells += [Text(words.card_vp(c), style="bold"), pattern_sketch(words.data.card(c).cells, words), mark]
    table = Table.grid(padding=(0, 2))
    for _column in range(7):
        table.add_column()
    for row in range(0, len(cells), 6):
        table.add_row(Text(_("Your hand:"), style="bold") if not row else "", *cells[row:row + 6])
    return table


def compact_menu(view: DualsView, words: DualsWords) -> RenderableType:
    """The options of :func:`menu` in a few lines: the numbered ones in columns, in short words; the places, moves
    and swaps by their spaces, which the player types (their numbers are in the full menu)."""
    _ = words.tr.gettext
    legal = view.legal
    entries: list[Text] = []
    spaces: list[RenderableType] = []
    i = 0
    while i < len(legal):
        j = i
        while j < len(legal) and legal[j].kind is legal[i].kind:
            j += 1
        if legal[i].kind in GRID_KINDS:
            spaces += by_spaces(legal[i:j], view, words)
        else:
            entries += [Text.assemble(Text(f"{n}. ", style="bold"), compact_option(a, view, words))
                        for n, a in enumerate(legal[i:j], i + 1)]
        i = j
    return Group(Text(_("Your options:"), style="bold"), *([Grid(entries)] if entries else []), *spaces)


def compact_option(action: DualsAction, view: DualsView, words: DualsWords) -> Text:
    """A numbered option in short words (the full menu explains the coin, the abilities and the REFRESH; the
    decision above the options says where the coin's cards go)."""
    _ = words.tr.gettext
    if action.kind is Kind.COIN:
        coins = view.seats[view.seat if view.seat is not None else view.turn].coins
        return Text(_("Spend a coin (you have {n})").format(n=coins))
    if action.kind is Kind.FIRE:
        return fmt(_("FIRE UP {ability}"), ability=words.token(action.a))
    if action.kind is Kind.DONE and view.phase is not Step.IRON and not view.last_chance:
        return Text(_("Finish scoring"))
    if action.kind is Kind.BOTTOM:  # the decision says where the card goes
        return Text(words.card(action.a))
    return describe_option(action, view, words)


def by_spaces(actions: Sequence[DualsAction], view: DualsView, words: DualsWords) -> list[RenderableType]:
    """Places, moves or swaps (all of one kind) as the spaces the player types: where the token may go; each
    token that may move and where to; or how to name a swap."""
    _ = words.tr.gettext
    names = words.names
    first = actions[0]
    if first.kind is Kind.PLACE:
        return [fmt(_("Place {token} on: {spaces}"), token=words.glyph(view.held),
                    spaces=" ".join(names[a.a] for a in actions))]
    example = f"{names[first.a]} {names[first.b]}"
    if first.kind is Kind.SWAP:
        return [Text(_("Swap two different top tokens: type both spaces, like {example}.").format(
            example=example))]
    heading = Text(_("Move a top token: type its space and where it goes, like {example}:").format(example=example))
    ends: dict[int, list[int]] = {}
    for a in actions:
        ends.setdefault(a.a, []).append(a.b)
    starts = [fmt("{token} {space}", token=words.glyph(view.board[s][-1]), space=names[s]) for s in ends]
    anywhere = sorted({b for bs in ends.values() for b in bs})
    if len(ends) > 1 and all(sorted(bs) == [b for b in anywhere if b != s] for s, bs in ends.items()):
        # each token may go to any of these spaces but its own: one line
        return [heading, Text.assemble(Text(", ").join(starts), " → ", " ".join(names[b] for b in anywhere))]
    return [heading, Grid([Text.assemble(start, " → ", " ".join(names[b] for b in bs))
                           for start, bs in zip(starts, ends.values(), strict=True)])]
