"""What the lab keeps of a Flamecraft Duals match, and the report's Duals sections."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from flametable.core.i18n import N_
from flametable.core.protocol import Action, GameState
from flametable.core.schema import Int, List, Map, Obj, Str
from flametable.games.duals.actions import Kind
from flametable.games.duals.rules import TYPE_KEYS
from flametable.sim.charts import Bar, Translate, bar_chart, count_chart, english, reads_once, score_of, section
from flametable.sim.stats import Score, wilson


def collect(state: GameState[Any, Any], seat: int, action: Action) -> Any:
    """After a ``place``: the kind of token placed (it is the top of that space)."""
    st: Any = state
    a: Any = action
    if a.kind is Kind.PLACE:
        stack = st.stacks[a.a]
        return stack[-1] if stack else None
    return None

_COUNT = Int(0, 10**6)
_PAIR = List(_COUNT, min=2, max=2)
_KIND = Str(pattern=r"[a-z]{1,20}(\+[a-z]{1,20})?", max_len=41)
SUMMARY = Obj(
    required={
        "first": Int(0, 1, "the seat that took the first turn (D3)"),
        "points": _PAIR,
        "scored": List(List(Int(1, 999), max=999), min=2, max=2, description="each seat's scored shop cards"),
        "placed": Map(_KIND, _COUNT, "tokens placed, by kind"),
        "fired": Map(Str(choices=TYPE_KEYS), _COUNT, "FIRE UP abilities used, by type"),
        "coins_spent": _PAIR,
        "turns": _COUNT,
    },
    title="Flamecraft Duals match summary",
)
"""The ``summary`` of a Flamecraft Duals result line."""


def summarize(state: GameState[Any, Any], trace: list[tuple[int, Action, Any]]) -> dict[str, Any]:
    st: Any = state
    names = st.data.kind_names
    placed: dict[str, int] = defaultdict(int)
    fired: dict[str, int] = defaultdict(int)
    coins = [0, 0]
    for seat, action, info in trace:
        a: Any = action
        if a.kind is Kind.PLACE and info is not None:
            placed[names[info]] += 1
        elif a.kind is Kind.FIRE:
            fired[TYPE_KEYS[a.a]] += 1
        elif a.kind is Kind.COIN:
            coins[seat] += 1
    return {
        "first": st.first,
        "points": [st.points(0), st.points(1)],
        "scored": [list(st.piles[0]), list(st.piles[1])],
        "placed": dict(placed),
        "fired": dict(fired),
        "coins_spent": coins,
        "turns": st.turn_number,
    }


KIND_WORDS = {"bread": N_("bread"), "crystal": N_("crystal"), "meat": N_("meat"), "iron": N_("iron"),
              "potion": N_("potion"), "plant": N_("plant"), "buddy": N_("Buddy")}
"""The data's token type keys as words to translate (a dual token's key joins two with "+")."""


def kind_label(key: str, tr: Translate = english) -> str:
    """A token kind's key (``meat``, ``plant+meat``, ``buddy``) in the reader's language."""
    return "+".join(tr(KIND_WORDS[part]) if part in KIND_WORDS else part for part in key.split("+"))


class DualsSummaries:
    """What the report's Duals sections keep of the result lines, one line at a time: counts, not the lines."""

    def __init__(self) -> None:
        self.first = Score()  # the score of who took the first turn (D3)
        self.placed: dict[str, int] = defaultdict(int)
        self.fired: dict[str, int] = defaultdict(int)
        self.scored: dict[int, int] = defaultdict(int)  # matches in which each shop card was scored, by card

    def add(self, line: dict[str, Any]) -> None:
        s = line["summary"]
        self.first.add(score_of(line["winner_seat"], s["first"]))
        for k, n in s["placed"].items():
            self.placed[k] += n
        for k, n in s["fired"].items():
            self.fired[k] += n
        for pile in s["scored"]:
            for c in pile:
                self.scored[c] += 1

    def sections(self, tr: Translate = english) -> tuple[list[str], dict[str, Any]]:
        sections: list[str] = []
        figures: dict[str, Any] = {}
        first = self.first.interval()
        figures["first_player_score"] = first.to_json()
        sections.append(section(tr(N_("First player's advantage")),
                                bar_chart(tr(N_("first player")),
                                          [Bar(tr(N_("first player's score")), first, self.first.n)],
                                          band=(0.45, 0.55)),
                                tr(N_("Score of the player who took the first turn."))))  # D3
        placed, fired, scored, n = self.placed, self.fired, self.scored, self.first.n
        figures["placed_per_match"] = {k: v / n for k, v in placed.items()}
        figures["fired_per_match"] = {k: v / n for k, v in fired.items()}
        sections.append(section(tr(N_("Tokens placed per match, by kind")),
                                count_chart(tr(N_("placed")), sorted(((kind_label(k, tr), v / n)
                                                                       for k, v in placed.items()),
                                                                      key=lambda kv: -kv[1]))))
        sections.append(section(tr(N_("FIRE UP abilities used per match")),
                                count_chart(tr(N_("fired")), sorted(((kind_label(k, tr), v / n)
                                                                      for k, v in fired.items()),
                                                                     key=lambda kv: -kv[1]))))
        cards = sorted(scored, key=lambda c: -scored[c])
        figures["card_scoring_rate"] = {str(c): wilson(scored[c], n).to_json() for c in sorted(scored)}
        sections.append(section(tr(N_("Shop cards: share of matches in which each was scored")),
                                bar_chart(tr(N_("cards")), [Bar(f"K{c}", wilson(scored[c], n), n) for c in cards],
                                          band=None)))
        return sections, figures


@reads_once
def report_sections(lines: Iterable[dict[str, Any]], game: Any = None, tr: Translate = english,
                    lang: str = "en") -> tuple[list[str], dict[str, Any]]:
    """The report's Flamecraft Duals sections (``lines``: read once; ``game`` and ``lang``: unused, the shop
    cards go by number)."""
    summaries = DualsSummaries()
    for line in lines:
        summaries.add(line)
    return summaries.sections(tr)
