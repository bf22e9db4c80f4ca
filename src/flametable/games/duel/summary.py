"""What the lab keeps of a Flame Duel match, and the report's Flame Duel sections."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from flametable.core.i18n import N_, pick
from flametable.core.protocol import Action, GameState
from flametable.core.schema import Int, List, Nullable, Obj, Str, Tuple
from flametable.games.duel.actions import Kind
from flametable.games.duel.cards import NUM_CHARACTERS, NUM_SUPPORTS
from flametable.sim.charts import Bar, Translate, bar_chart, english, reads_once, score_of, section
from flametable.sim.stats import Interval, Score, wilson

_SEAT = Int(0, 1)
_CHARACTER = Int(1, NUM_CHARACTERS)
_TOTAL = Int(-10**6, 10**6)
SUMMARY = Obj(
    required={
        "lineups": List(List(_CHARACTER, min=3, max=3), min=2, max=2, description="each seat's line-up (R2)"),
        "first_chooser": Nullable(_SEAT, description="who chose the stat of round 1 (R5)"),
        "rounds": List(Obj(required={"chooser": _SEAT, "stat": Int(0, 2), "characters": List(_CHARACTER, min=2, max=2),
                                     "totals": List(_TOTAL, min=2, max=2),
                                     "winner": Int(-1, 1, "the seat that won the round, -1 for a draw")}),
                       max=4, description="the rounds played, the tie-break included (R14)"),
        "plays": List(Tuple((_SEAT, Str(choices=("play", "ability")), Int(1, NUM_SUPPORTS), Int(0, 3))),
                      max=10_000, description="[seat, play or ability, support card, round index]"),
    },
    title="Flame Duel match summary",
)
"""The ``summary`` of a Flame Duel result line."""


def collect(state: GameState[Any, Any], seat: int, action: Action) -> Any:
    """Rounds finished after the step: the next step belongs to round number this value (0-based)."""
    st: Any = state
    return len(st.results)


def summarize(state: GameState[Any, Any], trace: list[tuple[int, Action, Any]]) -> dict[str, Any]:
    st: Any = state
    rounds = [
        {"chooser": r.chooser, "stat": r.stat, "characters": list(r.characters), "totals": list(r.totals),
         "winner": r.winner}
        for r in st.results
    ]
    plays = []
    round_index = 0  # a step belongs to the round after those finished before it (one may end inside apply)
    for seat, action, finished_after in trace:
        kind = getattr(action, "kind", None)
        if kind is Kind.PLAY or kind is Kind.ABILITY:
            plays.append([seat, kind.word, action.arg, round_index])  # type: ignore[attr-defined]
        round_index = finished_after
    return {
        "lineups": [list(st.lineups[0]), list(st.lineups[1])],
        "first_chooser": st.results[0].chooser if st.results else None,
        "rounds": rounds,
        "plays": plays,
    }


class _Halves:
    """Scores by character or card, as two counts each: games, and half points (a win 2, a draw 1). Their intervals
    are :func:`~flametable.sim.stats.score_interval`'s of the list of every point (win 1, draw ½, loss 0): half
    points halved are that list's sum, exactly; counting is all the report does per line."""

    def __init__(self) -> None:
        self.games: Counter[int] = Counter()
        self.halves: Counter[int] = Counter()

    def n(self, key: int) -> int:
        return self.games[key]

    def mean(self, key: int) -> float:
        return self.halves[key] / 2 / self.games[key]

    def interval(self, key: int) -> Interval:
        return wilson(self.halves[key] / 2, self.games[key])


def _halves(winner: int | None) -> tuple[int, int]:
    """Each seat's half points (:func:`score_of` doubled) when ``winner`` won."""
    return (1, 1) if winner is None or winner < 0 else (2 * (winner == 0), 2 * (winner == 1))


class DuelSummaries:
    """What the report's Flame Duel sections keep of the result lines, one line at a time: scores by character
    and by support card (counts), not the lines."""

    def __init__(self) -> None:
        self.first_chooser = Score()  # the score of who chose the stat of round 1 (R5)
        self.matches = _Halves()  # by character: whoever had it in their line-up
        self.rounds = _Halves()  # by character: the rounds it played
        self.played = _Halves()  # by support card: the round it was played in

    def add(self, line: dict[str, Any]) -> None:
        s = line["summary"]
        winner = line["winner_seat"]
        fc = s.get("first_chooser")
        if fc is not None:
            self.first_chooser.add(score_of(winner, fc))
        games, halves = self.matches.games, self.matches.halves
        for lineup, score in zip(s["lineups"], _halves(winner), strict=True):
            for c in lineup:
                games[c] += 1
                halves[c] += score
        rounds = s["rounds"]
        games, halves = self.rounds.games, self.rounds.halves
        for r in rounds:
            for c, score in zip(r["characters"], _halves(r["winner"]), strict=True):
                games[c] += 1
                halves[c] += score
        games, halves = self.played.games, self.played.halves
        for seat, kind, card, r in s["plays"]:
            if kind != "play" or not 0 <= r < len(rounds):
                continue
            games[card] += 1
            halves[card] += _halves(rounds[r]["winner"])[seat]

    def sections(self, cards: Any, tr: Translate = english, lang: str = "en") -> tuple[list[str], dict[str, Any]]:
        sections: list[str] = []
        figures: dict[str, Any] = {}
        # First chooser's advantage (R5).
        adv = self.first_chooser.interval()
        figures["first_chooser_score"] = adv.to_json()
        sections.append(section(
            tr(N_("First chooser's advantage")),
            bar_chart(tr(N_("first chooser")), [Bar(tr(N_("first chooser's score")), adv, self.first_chooser.n)],
                      band=(0.45, 0.55)),
            tr(N_("Score of the player who chose the stat in round 1 (target: 45–55%).")),
        ))

        # Characters: match score of the player who had them, and round win rate when flipped.
        def name(c: int) -> str:
            return f"C{c} {pick(cards.character(c).name, lang)}" if cards is not None else f"C{c}"

        matches, rounds, played = self.matches, self.rounds, self.played
        chars = sorted(matches.games, key=lambda c: -matches.mean(c))
        bars = [Bar(name(c), matches.interval(c), matches.n(c)) for c in chars]
        figures["characters"] = {str(c): matches.interval(c).to_json() | {"n": matches.n(c)}
                                 for c in sorted(matches.games)}
        sections.append(section(tr(N_("Each character's win rate")), bar_chart(tr(N_("characters")), bars),
                                tr(N_("Match score of the player who had the character in their line-up "
                                      "(target: 40–60%)."))))
        rbars = [Bar(name(c), rounds.interval(c), rounds.n(c))
                 for c in sorted(rounds.games, key=lambda c: -rounds.mean(c))]
        sections.append(section(tr(N_("Rounds won by each character")), bar_chart(tr(N_("character rounds")), rbars),
                                tr(N_("Share of the rounds a character played that it won (draws ½)."))))

        # Support cards: how often played, and the round score of whoever played them.
        def sname(s: int) -> str:
            return f"S{s} {pick(cards.support(s).name, lang)}" if cards is not None else f"S{s}"

        sbars = [Bar(sname(card), played.interval(card), played.n(card))
                 for card in sorted(played.games, key=lambda card: -played.mean(card))]
        figures["supports"] = {str(card): played.interval(card).to_json() | {"n": played.n(card)}
                               for card in played.games}
        sections.append(section(tr(N_("Support cards when played")), bar_chart(tr(N_("supports")), sbars, band=None),
                                tr(N_("Round score of the player who played the card in that round."))))
        return sections, figures


def duel_sections(lines: Iterable[dict[str, Any]], cards: Any, tr: Translate = english,
                  lang: str = "en") -> tuple[list[str], dict[str, Any]]:
    summaries = DuelSummaries()
    for line in lines:
        summaries.add(line)
    return summaries.sections(cards, tr, lang)


@reads_once
def report_sections(lines: Iterable[dict[str, Any]], game: Any, tr: Translate = english,
                    lang: str = "en") -> tuple[list[str], dict[str, Any]]:
    """The report's Flame Duel sections, naming the cards of ``game``'s card set (``lines``: read once)."""
    return duel_sections(lines, game.cards if game is not None else None, tr, lang)
