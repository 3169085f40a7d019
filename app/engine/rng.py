"""The deal shuffle, written out so that a deal code deals the same cards forever.

``random.Random`` is not used: Python does not promise to keep its sequences. SplitMix64
(Steele, Lea & Flood, 2014) is tiny, fully specified and passes BigCrush; bounded integers are
drawn by rejection so every permutation is equally likely; the shuffle is Fisher–Yates.

Version 1 of the dealing algorithm (the ``1`` in ``HM1``/``SH1``) is exactly:

* seed = ``salt << 40 | number``, the salt the ASCII of the game's two letters read as a
  number (``HM`` → ``0x484D``): the variant does not enter (``SH1-C1-X`` and ``SH1-C4-X``
  shuffle the same cards), and no two games share a seed;
* cards start as deck 1 then deck 2 (as many decks as the game deals:
  :attr:`Game.decks <app.engine.game.Game.decks>`), each ♠ ♥ ♦ ♣ and ace → king;
* for i from n − 1 down to 1: swap ``cards[i]`` with ``cards[j]``, ``j = bounded(i + 1)``.

>>> SplitMix64(0).next()  # the reference value for seed 0
16294208416658607535
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Final, TypeVar

from app.engine.cards import Card, fresh_decks
from app.engine.codes import DealCode, GameId

_MASK64: Final = (1 << 64) - 1
_T = TypeVar("_T")

DECKS: dict[GameId, int] = {}
"""How many decks each game's deal shuffles, as the table of games gives it
(:mod:`app.engine.games`, which the engine's package loads first)."""


class SplitMix64:
    """SplitMix64: a 64-bit state advanced by the golden-ratio increment, then mixed."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def bounded(self, bound: int) -> int:
        """A uniform integer in ``0 … bound − 1``, without modulo bias (rejection sampling).

        >>> rng = SplitMix64(7)
        >>> all(0 <= rng.bounded(3) < 3 for _ in range(100))
        True
        """
        if not 0 < bound <= 1 << 64:
            raise ValueError(f"bound must be in 1 … 2^64, not {bound}")
        limit = (1 << 64) - (1 << 64) % bound  # largest multiple of bound that fits
        while True:
            value = self.next()
            if value < limit:
                return value % bound


def shuffle(items: MutableSequence[_T], rng: SplitMix64) -> None:
    """Fisher–Yates in place, from the end, one bounded draw per position."""
    for i in range(len(items) - 1, 0, -1):
        j = rng.bounded(i + 1)
        items[i], items[j] = items[j], items[i]


def salt(game: GameId) -> int:
    """A game's salt: the ASCII of its letters (``HM`` → ``0x484D``)."""
    return int.from_bytes(game.encode("ascii"), "big")


def seed_for(code: DealCode) -> int:
    """The generator's seed for a code: game salt and number; the variant is left out."""
    return salt(code.game) << 40 | code.number


def shuffled_cards(code: DealCode, decks: int | None = None) -> list[Card]:
    """The shuffled cards ``c[0 …]`` that the game's deal lays out (``decks`` × 52: the game's
    own number of decks when not given).

    >>> len(shuffled_cards(DealCode.parse("HM1-N-AAAAAAB"))), hex(salt("SH"))
    (104, '0x5348')
    """
    if code.version != 1:
        raise ValueError(f"no dealing algorithm for version {code.version}")
    cards = fresh_decks(DECKS[code.game] if decks is None else decks)
    shuffle(cards, SplitMix64(seed_for(code)))
    return cards
