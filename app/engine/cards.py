"""Playing cards: ranks, suits and a small hashable card type shared by both games.

A card's text form is its rank then its suit letter, and it parses back::

    >>> Card.parse("10D")
    Card.parse('10D')
    >>> str(Card.parse("qs"))
    'QS'
    >>> Card.parse("K♥") == Card(KING, "H")
    True
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final, Literal, NamedTuple

Rank = int
"""1 (ace) … 13 (king). In Half Moon an ace counts 1 towards a sum of 11."""

Suit = Literal["S", "H", "D", "C"]

ACE: Final[Rank] = 1
JACK: Final[Rank] = 11
QUEEN: Final[Rank] = 12
KING: Final[Rank] = 13
RANKS: Final[tuple[Rank, ...]] = tuple(range(ACE, KING + 1))

SUITS: Final[tuple[Suit, ...]] = ("S", "H", "D", "C")
"""Suit order of a fresh deck before shuffling: ♠ ♥ ♦ ♣ (SPEC §1)."""

SUIT_SYMBOLS: Final[dict[Suit, str]] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS: Final[frozenset[Suit]] = frozenset({"H", "D"})

_RANK_TEXT: Final[dict[Rank, str]] = {
    1: "A",
    **{n: str(n) for n in range(2, 11)},
    11: "J",
    12: "Q",
    13: "K",
}
_RANK_BY_TEXT: Final[dict[str, Rank]] = {text: rank for rank, text in _RANK_TEXT.items()}
_RANK_BY_TEXT["T"] = 10  # a common one-letter spelling of ten in solitaire tools
_SUIT_BY_TEXT: Final[dict[str, Suit]] = {
    **{s: s for s in SUITS},
    **{symbol: suit for suit, symbol in SUIT_SYMBOLS.items()},
}


class CardParseError(ValueError):
    """Text that does not name a card; the message says which part was wrong."""


class Card(NamedTuple):
    """One card. Tuples keep it hashable, comparable and cheap to copy into positions."""

    rank: Rank
    suit: Suit

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``AS``, ``10D``, ``jc``, ``K♥``.

        :raises CardParseError: when the rank or the suit is not recognised.
        """
        cleaned = text.strip().upper()
        if len(cleaned) < 2:
            raise CardParseError(
                f"{text!r} is not a card: expected a rank (A, 2–10, J, Q, K) "
                "followed by a suit (S, H, D, C), e.g. 10D or QS"
            )
        rank_text, suit_text = cleaned[:-1], cleaned[-1]
        suit = _SUIT_BY_TEXT.get(suit_text)
        if suit is None:
            raise CardParseError(
                f"{text!r} is not a card: unknown suit {suit_text!r} (expected S, H, D or C)"
            )
        rank = _RANK_BY_TEXT.get(rank_text)
        if rank is None:
            raise CardParseError(
                f"{text!r} is not a card: unknown rank {rank_text!r} "
                "(expected A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q or K)"
            )
        return _CARDS[(rank, suit)]

    @property
    def is_face(self) -> bool:
        """Jack, queen or king: the cards that never pair in Half Moon."""
        return self.rank >= JACK

    @property
    def is_red(self) -> bool:
        return self.suit in RED_SUITS

    @property
    def rank_text(self) -> str:
        return _RANK_TEXT[self.rank]

    def __str__(self) -> str:
        return _RANK_TEXT[self.rank] + self.suit

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


_CARDS: Final[dict[tuple[Rank, Suit], Card]] = {
    (rank, suit): Card(rank, suit) for suit in SUITS for rank in RANKS
}


def fresh_deck() -> list[Card]:
    """One deck in start order: ♠ ♥ ♦ ♣, each ace to king (SPEC §1)."""
    return [_CARDS[(rank, suit)] for suit in SUITS for rank in RANKS]


def fresh_decks(count: int) -> list[Card]:
    """``count`` decks one after the other: deck 1 then deck 2 (SPEC §1)."""
    return [card for _ in range(count) for card in fresh_deck()]


def parse_cards(text: str) -> list[Card]:
    """Cards separated by spaces, as seed files write them: ``"5S 6D JC"``.

    >>> [str(c) for c in parse_cards("5S 6D  JC")]
    ['5S', '6D', 'JC']
    """
    return [Card.parse(word) for word in text.split()]


def iter_cards() -> Iterator[Card]:
    """The 52 distinct cards, in start order."""
    return iter(fresh_deck())
