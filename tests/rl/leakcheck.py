"""The observations' leak check (issue 13): two states that give a seat the same view give it the same observation.

Seeded random matches of a registry game; at a few decision points of each (kept by reservoir sampling, so
spread over the whole match) and at its end, for the seat to act and the other seat: the seat's view, a second
state made from that view by the game's determiniser (its hidden information sampled afresh: the opponent's
hand, the draw order, the bag), and the check that the second state gives the seat the same view (else the
determiniser is at fault, counted apart) and a byte-identical observation. Each observation is also checked
against the layout's ranges, and made again from the view rebuilt from its JSON form (the encoder reads the
view's data, nothing else). ``tests/rl/test_spec.py`` runs a slice; ``python -m benchmarks.rl_leaks``
the full count.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from flametable.bots.registry import knowledge
from flametable.core import registry
from flametable.core.rng import Rng
from flametable.rl.spec import ObservationSpec, bounds, observe
from flametable.service import view_json

VARIANTS: dict[str, list[dict[str, Any]]] = {
    "duel": [{}, {"pick": "draft"}, {"mode": "decks"}],
    "duals": [{}, {"buddy": True}],
}
"""The options of match ``i``: ``VARIANTS[game][i % len(VARIANTS[game])]``."""


@dataclass
class Tally:
    """What a run found."""

    game: str
    matches: int = 0
    samples: int = 0  # (state, seat) pairs checked
    hidden_changed: int = 0  # ... of which the second state hid something else (the other seat's view differs)
    determiniser_mismatches: int = 0  # second states that did not give the seat the same view (skipped)
    longest: int = 0  # the most decisions a match took
    leaks: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.matches += other.matches
        self.samples += other.samples
        self.hidden_changed += other.hidden_changed
        self.determiniser_mismatches += other.determiniser_mismatches
        self.longest = max(self.longest, other.longest)
        self.leaks += other.leaks

    def figures(self) -> dict[str, Any]:
        return {"game": self.game, "matches": self.matches, "samples": self.samples,
                "hidden_changed": self.hidden_changed, "determiniser_mismatches": self.determiniser_mismatches,
                "longest_match": self.longest, "leaks": len(self.leaks)}


def match_seed(index: int, seed_base: int) -> int:
    return seed_base * 1_000_003 + index


class Checker:
    """One game's encoder, determiniser and the arrays the checks reuse."""

    def __init__(self, game_name: str) -> None:
        entry = registry.get(game_name)
        self.name = game_name
        self.game = entry.make()
        self.spec: ObservationSpec = entry.required("observation")(self.game)
        know = knowledge(self.game)
        assert know is not None
        self.determinizer = know.determinizer
        self.low, self.high = bounds(self.spec)

    def observe(self, view: Any) -> npt.NDArray[np.float32]:
        return observe(self.spec, view)

    def check_sample(self, state: Any, seat: int, seed: int, tally: Tally, where: str) -> None:
        view = state.view(seat)
        obs = self.observe(view)
        if not (np.isfinite(obs).all() and (obs >= self.low).all() and (obs <= self.high).all()):
            bad = np.flatnonzero(~((obs >= self.low) & (obs <= self.high)))
            tally.leaks.append(f"{where} seat {seat}: cells out of their ranges: {bad[:10].tolist()}")
        again = self.observe(type(view).from_json(view_json(view)))
        if again.tobytes() != obs.tobytes():
            tally.leaks.append(f"{where} seat {seat}: the view rebuilt from JSON gives another observation")
        second = self.determinizer(view)(Rng(seed))
        if view_json(second.view(seat)) != view_json(view):
            tally.determiniser_mismatches += 1
            return
        tally.samples += 1
        other = 1 - seat
        if view_json(second.view(other)) != view_json(state.view(other)):
            tally.hidden_changed += 1
        if self.observe(second.view(seat)).tobytes() != obs.tobytes():
            tally.leaks.append(f"{where} seat {seat}: a state with the same view gives another observation")

    def run(self, start: int, count: int, samples_per_match: int = 3, seed_base: int = 0) -> Tally:
        """Matches ``start`` .. ``start + count - 1``: ``samples_per_match`` decision points each, and the end."""
        tally = Tally(self.name)
        variants = VARIANTS.get(self.name, [{}])
        for index in range(start, start + count):
            seed = match_seed(index, seed_base)
            options = variants[index % len(variants)]
            rng = Rng(seed ^ 0x5A5A)
            state = self.game.new_match(options, seed)
            kept: list[tuple[int, Any]] = []
            steps = 0
            while state.to_act is not None:
                if len(kept) < samples_per_match:
                    kept.append((steps, state.clone()))
                else:
                    j = rng.below(steps + 1)
                    if j < samples_per_match:
                        kept[j] = (steps, state.clone())
                legal = state.legal_actions()
                state.apply(legal[rng.below(len(legal))])
                steps += 1
            tally.matches += 1
            tally.longest = max(tally.longest, steps)
            kept.append((steps, state))
            for step, st in kept:
                where = f"{self.name} match {index} (seed {seed}, options {options}) step {step}"
                to_act = st.to_act if st.to_act is not None else 0
                for seat in (to_act, 1 - to_act):
                    self.check_sample(st, seat, rng.next32(), tally, where)
        return tally
