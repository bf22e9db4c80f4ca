"""Seeded randomness for the engines: a small splitmix64 generator whose whole state is one int.

Engines never touch the global ``random`` module. Cloning a state copies one integer, so search
and simulations can branch a state without paying for a Mersenne Twister copy.
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


class Rng:
    """Deterministic pseudo-random numbers (splitmix64)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed must be an int, got {type(seed).__name__}")
        self.state = seed & _MASK

    def clone(self) -> Rng:
        other = Rng.__new__(Rng)
        other.state = self.state
        return other

    def next64(self) -> int:
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (``n`` > 0)."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        return self.next64() % n  # bias < n / 2**64, negligible for game sizes

    def coin(self) -> int:
        """0 or 1."""
        return self.next64() & 1

    def choice(self, items: list[T] | tuple[T, ...]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.next64() % (i + 1)
            items[i], items[j] = items[j], items[i]

    def fork(self, salt: int) -> Rng:
        """An independent generator derived from this one's state and ``salt`` (does not advance self)."""
        return Rng((self.state ^ ((salt * 0xD1B54A32D192ED03) & _MASK)) & _MASK)
