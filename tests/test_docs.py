"""The docs tell the truth about the code and the data: the Flame Duel stat scale of docs/flame-duel.md is the
built-in card set's, and docs/architecture.md names the generator core/rng.py has."""

from __future__ import annotations

import re
from pathlib import Path

from flametable.core import rng
from flametable.games.duel.cards import builtin_card_set

DOCS = Path(__file__).resolve().parent.parent / "docs"


def _stat_scale() -> str:
    """The stat scale paragraphs of docs/flame-duel.md (up to the next section)."""
    text = (DOCS / "flame-duel.md").read_text(encoding="utf-8")
    start = text.index("**Stat scale.**")
    return " ".join(text[start:text.index("\n## ", start)].split())


def test_the_stat_scale_is_the_built_in_sets() -> None:
    """The printed range and the range of sums the doc gives are those of the built-in set (R1), and it claims
    no step the stats do not keep."""
    cards = builtin_card_set()
    printed = [v for c in cards.characters for v in (c.spark, c.heat, c.charm)]
    sums = [c.spark + c.heat + c.charm for c in cards.characters]
    scale = _stat_scale()
    assert f"from {min(printed)} to {max(printed)}" in scale, scale
    assert f"sum to {min(sums)}–{max(sums)}" in scale, scale
    for step in (5, 10):
        if any(v % step for v in printed):
            assert f"steps of {step}" not in scale


def test_the_event_conditions_are_the_built_in_sets() -> None:
    """Every event condition of the set is in the doc with its threshold (R9), and no other threshold is."""
    cards = builtin_card_set()
    scale = _stat_scale()
    wanted = {f"printed at {s.printed_at_most} or less" for s in cards.supports if s.printed_at_most is not None}
    wanted |= {f"printed at {s.printed_at_least} or more" for s in cards.supports if s.printed_at_least is not None}
    said = set(re.findall(r"printed at \d+ or (?:less|more)", scale))
    assert said == wanted


def test_the_four_lowest_sums_belong_to_the_characters_that_sap_or_boost() -> None:
    """What the doc says of the sums holds for the set: the characters whose ability moves a total (sap, boost)
    have the lowest sums, and the sum ranges it gives are theirs and the others'."""
    cards = builtin_card_set()
    moving = {c.number for c in cards.characters if any(e.kind.key in ("sap", "boost") for e in c.effects)}
    sums = {c.number: c.spark + c.heat + c.charm for c in cards.characters}
    lowest = sorted(sums, key=lambda n: sums[n])[:len(moving)]
    assert set(lowest) == moving
    scale = _stat_scale()
    assert f"the {['no', 'one', 'two', 'three', 'four', 'five'][len(moving)]} characters whose ability moves" in scale
    low = [sums[n] for n in moving]
    high = [sums[n] for n in sums if n not in moving]
    assert f"({min(low)}–{max(low)}), the others run from {min(high)} to {max(high)}" in scale


def test_the_architecture_names_the_generator_the_code_has() -> None:
    """docs/architecture.md says what core/rng.py is: a 64-bit LCG whose seeds are spread by splitmix64."""
    assert "linear congruential generator" in (rng.__doc__ or "")
    text = " ".join((DOCS / "architecture.md").read_text(encoding="utf-8").split())
    entry = text[text.index("rng.py ("):]
    entry = entry[:entry.index(")")]
    assert "64-bit LCG" in entry
    assert "splitmix64" not in entry.replace("seeds spread by splitmix64", "")
