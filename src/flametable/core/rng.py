"""Seeded randomness for the engines: a 64-bit linear congruential generator whose whole state is one int.

Engines never touch the global ``random`` module. Cloning a state copies one integer, so search and
simulations can branch a state cheaply. The generator is ours (not ``random.Random``) so that records
replay identically on every Python version. Outputs are the high 32 bits of Knuth's MMIX LCG, mapped to
``[0, n)`` by multiply-and-shift: plenty for shuffling game pieces, and a few integer operations per draw.

A match's seed is an integer from 0 to 2**64 - 1 (:data:`SEED_MIN`, :data:`SEED_MAX`): the generator keeps 64
bits, so ``s`` and ``s + 2**64`` would play the same match. :func:`check_seed` refuses any other seed where one
comes in (``--seed``; a record's or a result line's seed by its schema, ``Int(SEED_MIN, SEED_MAX)``); nothing is
reduced. ``Rng`` itself takes any int, for seeds derived inside.
"""

from __future__ import annotations

from typing import Any, TypeVar

from flametable.core.errors import FlametableError
from flametable.core.i18n import N_

T = TypeVar("T")

_MASK = (1 << 64) - 1
_MUL = 6364136223846793005
_INC = 1442695040888963407


SEED_MIN, SEED_MAX = 0, 2**64 - 1


class SeedError(FlametableError):
    """A seed outside :data:`SEED_MIN` to :data:`SEED_MAX` (or no integer)."""


def check_seed(seed: Any) -> int:
    """``seed`` when it is an integer from :data:`SEED_MIN` to :data:`SEED_MAX`; else :class:`SeedError`."""
    if not isinstance(seed, int) or isinstance(seed, bool) or not SEED_MIN <= seed <= SEED_MAX:
        shown = seed if not isinstance(seed, int) or abs(seed) < 10**100 else f"{str(seed)[:20]}…"
        raise SeedError(N_("a seed is an integer from {lo} to {hi}, got {value!r}"), lo=SEED_MIN, hi=SEED_MAX,
                        value=shown)
    return seed


def _mix(seed: int) -> int:
    """splitmix64 finaliser: spreads nearby seeds far apart."""
    z = (seed + 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Rng:
    """Deterministic pseudo-random numbers."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed must be an int, got {type(seed).__name__}")
        self.state = _mix(seed & _MASK)

    def clone(self) -> Rng:
        other = Rng.__new__(Rng)
        other.state = self.state
        return other

    def next32(self) -> int:
        self.state = s = (self.state * _MUL + _INC) & _MASK
        return s >> 32

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (``0 < n < 2**32``)."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        self.state = s = (self.state * _MUL + _INC) & _MASK
        return ((s >> 32) * n) >> 32

    def coin(self) -> int:
        """0 or 1."""
        self.state = s = (self.state * _MUL + _INC) & _MASK
        return s >> 63

    def choice(self, items: list[T] | tuple[T, ...]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates in place."""
        s = self.state
        for i in range(len(items) - 1, 0, -1):
            s = (s * _MUL + _INC) & _MASK
            j = ((s >> 32) * (i + 1)) >> 32
            items[i], items[j] = items[j], items[i]
        self.state = s

    def sample(self, items: list[T], k: int) -> list[T]:
        """``k`` distinct items in random order (a partial Fisher-Yates on a copy)."""
        pool = items[:]
        s = self.state
        n = len(pool)
        for i in range(min(k, n)):
            s = (s * _MUL + _INC) & _MASK
            j = i + (((s >> 32) * (n - i)) >> 32)
            pool[i], pool[j] = pool[j], pool[i]
        self.state = s
        return pool[:k]

    def fork(self, salt: int) -> Rng:
        """An independent generator derived from this one's state and ``salt`` (does not advance self)."""
        return Rng(self.state ^ _mix(salt))
