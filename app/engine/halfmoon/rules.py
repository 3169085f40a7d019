"""Half Moon's rules as plain functions over positions: the places, the cards a removal may
take (:func:`check`), the position after it (:func:`result`), the removals allowed now
(:func:`generate`). The game (:class:`~app.engine.halfmoon.HalfMoon`) and its solver
(:mod:`app.engine.halfmoon.solver`) both play by them."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping
from itertools import combinations
from typing import Any, Final, NamedTuple

from app.engine import game
from app.engine.cards import JACK, KING, QUEEN, Card
from app.engine.codes import DealCode
from app.engine.game import IllegalMoveError, LegalMoves, MoveParseError, Refusal, UnknownPlaceError
from app.engine.rng import shuffled_cards
from app.engine.texts import N_

PlaceIndex = int
"""0 … 11 are piles 1 … 12; 12 … 19 are reserve slots R1 … R8."""

DECKS: Final = 2
PILES: Final = 12
PILE_SIZE: Final = 8
RESERVE: Final = 8
PLACES: Final = PILES + RESERVE
CARDS: Final = 104
FACE_CARDS: Final = 24
"""Jacks, queens and kings of both decks."""
PAIR_POINTS: Final = 10
TRIPLE_POINTS: Final = 15
WON_MOVES: Final = 48
"""40 pairs (80 number cards) and 8 triples (24 face cards)."""
WON_SCORE: Final = 40 * PAIR_POINTS + 8 * TRIPLE_POINTS

_FACES: Final = frozenset({JACK, QUEEN, KING})
_LETTERS: Final = "abcdefghijklmnopqrst"  # one letter a place, for records


class Outcome(game.Outcome):
    """What one Half Moon tap did."""

    SELECTED = "selected"
    DESELECTED = "deselected"
    REPLACED = "replaced"
    """A face card took the place of the selected card of its rank."""
    REMOVED = "removed"
    """A pair or a triple left the game."""
    REFUSED = "refused"
    IGNORED = "ignored"
    STALE = "stale"


class Reason(game.Reason):
    """Why the rules refused a Half Moon removal."""

    SUM_NOT_ELEVEN = ("sum", N_("The sum must be 11."))
    NEED_JACK_QUEEN_KING = ("jqk", N_("You need a jack, a queen and a king."))
    NOTHING_THERE = ("nothing_there", N_("There is no card there."))
    UNKNOWN_PLACE = ("unknown_place", N_("There is no such place on this board."))
    NOT_A_REMOVAL = ("not_a_removal", N_("A removal takes two or three different cards."))


class Removal(tuple[PlaceIndex, ...]):
    """A move: the places of a pair (2) or a triple (3) removed together, kept sorted.

    It prints as one letter a place (``a`` … ``l`` the piles, ``m`` … ``t`` the reserve) and
    parses back; it equals the plain tuple of its places.

    >>> removal = Removal((12, 0))
    >>> removal, str(removal), Removal.parse("am") == removal == (0, 12), removal.points
    (Removal.parse('am'), 'am', True, 10)
    """

    __slots__ = ()

    def __new__(cls, places: Iterable[PlaceIndex]) -> Removal:
        return super().__new__(cls, sorted(places))

    @classmethod
    def parse(cls, text: str) -> Removal:
        """:raises MoveParseError: when ``text`` is not two or three different place letters."""
        places = _decode_places(text)
        if len(places) not in (2, 3) or len(set(places)) != len(places):
            raise MoveParseError(f"{text!r} is not a Half Moon removal")
        return cls(places)

    @property
    def points(self) -> int:
        """+10 a pair, +15 a triple."""
        return PAIR_POINTS if len(self) == 2 else TRIPLE_POINTS

    def __str__(self) -> str:
        return "".join(_LETTERS[p] if 0 <= p < PLACES else f"?{p}" for p in self)

    def __repr__(self) -> str:
        return f"Removal.parse({str(self)!r})"


def place_name(index: PlaceIndex) -> str:
    """``pile-N`` or ``reserve-N``, the names the web layer and records use."""
    if 0 <= index < PILES:
        return f"pile-{index + 1}"
    if PILES <= index < PLACES:
        return f"reserve-{index - PILES + 1}"
    raise UnknownPlaceError(f"there is no place number {index}")


def parse_place(name: str) -> PlaceIndex:
    """The index of ``pile-1`` … ``pile-12`` or ``reserve-1`` … ``reserve-8``.

    :raises UnknownPlaceError: for any other text.
    """
    kind, _, number = name.strip().lower().partition("-")
    if number.isdigit() and len(number) <= 2:
        n = int(number)
        if kind == "pile" and 1 <= n <= PILES:
            return n - 1
        if kind == "reserve" and 1 <= n <= RESERVE:
            return PILES + n - 1
    raise UnknownPlaceError(
        f"{name!r} is not a Half Moon place: expected pile-1 … pile-12 or reserve-1 … reserve-8"
    )


class Position(NamedTuple):
    """The table: each pile bottom → top, and the reserve slots (``None`` once emptied)."""

    piles: tuple[tuple[Card, ...], ...]
    reserve: tuple[Card | None, ...]

    def top(self, place: PlaceIndex) -> Card | None:
        """The playable card at a place, or ``None`` when the place is empty."""
        if place < PILES:
            pile = self.piles[place]
            return pile[-1] if pile else None
        return self.reserve[place - PILES]

    def count(self, place: PlaceIndex) -> int:
        """Cards at a place (the label's ``7 cards``)."""
        if place < PILES:
            return len(self.piles[place])
        return 0 if self.reserve[place - PILES] is None else 1

    def playable(self) -> list[tuple[PlaceIndex, Card]]:
        """Every pile's top card and every card left in the reserve, by place."""
        found = [(i, pile[-1]) for i, pile in enumerate(self.piles) if pile]
        found += [(PILES + i, card) for i, card in enumerate(self.reserve) if card is not None]
        return found

    @property
    def cards_left(self) -> int:
        return sum(len(pile) for pile in self.piles) + sum(c is not None for c in self.reserve)

    def is_won(self) -> bool:
        return self.cards_left == 0

    def has_removal(self) -> bool:
        """Is there a pair summing to 11 or a J-Q-K triple among the playable cards?"""
        ranks = {card.rank for _, card in self.playable()}
        if ranks >= _FACES:
            return True
        return any(r in ranks and 11 - r in ranks for r in range(1, 6))

    def is_stuck(self) -> bool:
        """Cards remain but no pair and no triple can be removed (SPEC §2, End)."""
        return not self.is_won() and not self.has_removal()


@functools.lru_cache(maxsize=4096)
def deal(code: DealCode) -> Position:
    """Pile p (1–12) gets ``c[8(p−1) … 8(p−1)+7]``, the last on top; R1–R8 get ``c[96 … 103]``.

    Cached: every rebuilt game starts from its deal, and positions are immutable values.
    """
    cards = shuffled_cards(code, DECKS)
    piles = tuple(tuple(cards[PILE_SIZE * p : PILE_SIZE * (p + 1)]) for p in range(PILES))
    return Position(piles, tuple(cards[PILES * PILE_SIZE :]))


def position_from_data(data: Mapping[str, Any]) -> Position:
    """A position written as card text, as seed files hold it.

    ``{"piles": [["AS", …], … 12 lists bottom → top], "reserve": ["10H", null, … 8 slots]}``

    :raises ValueError: when the shape is wrong or a card does not parse.
    """
    piles, reserve = data.get("piles"), data.get("reserve")
    if not isinstance(piles, list) or len(piles) != PILES:
        raise ValueError(f"a Half Moon position has {PILES} piles")
    if not isinstance(reserve, list) or len(reserve) != RESERVE:
        raise ValueError(f"a Half Moon position has {RESERVE} reserve slots")
    return Position(
        tuple(tuple(Card.parse(text) for text in pile) for pile in piles),
        tuple(None if text is None else Card.parse(text) for text in reserve),
    )


def position_to_data(position: Position) -> dict[str, Any]:
    """The inverse of :func:`position_from_data`."""
    return {
        "piles": [[str(card) for card in pile] for pile in position.piles],
        "reserve": [None if card is None else str(card) for card in position.reserve],
    }


def is_pair(a: Card, b: Card) -> bool:
    """Two number cards (ace = 1 … 10) summing to 11; face cards never pair."""
    return not a.is_face and not b.is_face and a.rank + b.rank == 11


def is_triple(cards: tuple[Card, ...]) -> bool:
    """One jack, one queen and one king, any suits."""
    return len(cards) == 3 and {c.rank for c in cards} == _FACES


def _decode_places(text: str) -> tuple[PlaceIndex, ...]:
    places = tuple(_LETTERS.find(ch) for ch in text) if isinstance(text, str) else (-1,)
    if not text or len(text) > 3 or -1 in places:
        raise MoveParseError(f"{text!r} does not name Half Moon places")
    return places


def _all_cards(position: Position) -> Iterator[tuple[PlaceIndex, Card]]:
    """Every card still on the table, covered ones too, with its place."""
    for index, pile in enumerate(position.piles):
        for card in pile:
            yield index, card
    for index, held in enumerate(position.reserve):
        if held is not None:
            yield PILES + index, held


def _check_index(index: PlaceIndex) -> PlaceIndex:
    if not 0 <= index < PLACES:
        raise UnknownPlaceError(f"there is no place number {index}")
    return index


def _top(position: Position, place: PlaceIndex) -> Card:
    card = position.top(place)
    assert card is not None, "a selected place is never empty"
    return card


def check(position: Position, removal: Removal) -> Refusal | None:
    """Two or three different places whose top cards make a pair or a triple."""
    if len(removal) not in (2, 3) or len(set(removal)) != len(removal):
        return Refusal(Reason.NOT_A_REMOVAL)
    cards = []
    for place in removal:
        if not 0 <= place < PLACES:
            return Refusal(Reason.UNKNOWN_PLACE)
        card = position.top(place)
        if card is None:
            return Refusal(Reason.NOTHING_THERE)
        cards.append(card)
    if len(cards) == 2 and not is_pair(cards[0], cards[1]):
        return Refusal(Reason.SUM_NOT_ELEVEN)
    if len(cards) == 3 and not is_triple(tuple(cards)):
        return Refusal(Reason.NEED_JACK_QUEEN_KING)
    return None


def result(position: Position, removal: Removal) -> Position:
    """The position without the cards at ``removal``'s places."""
    piles = list(position.piles)
    reserve = list(position.reserve)
    for place in removal:
        if place < PILES:
            piles[place] = piles[place][:-1]
        else:
            reserve[place - PILES] = None
    return Position(tuple(piles), tuple(reserve))


def generate(position: Position) -> Iterator[Removal]:
    """Every pair and triple of playable places that may be removed now."""
    playable = position.playable()
    numbers = [(i, c) for i, c in playable if not c.is_face]
    for (i, a), (j, b) in combinations(numbers, 2):
        if a.rank + b.rank == 11:
            yield Removal((i, j))
    by_rank = {r: [i for i, c in playable if c.rank == r] for r in (JACK, QUEEN, KING)}
    for j in by_rank[JACK]:
        for q in by_rank[QUEEN]:
            for k in by_rank[KING]:
                yield Removal((j, q, k))


def apply_move(position: Position, removal: tuple[PlaceIndex, ...]) -> Position:
    """The position after ``removal``.

    :raises IllegalMoveError: when a place is empty or repeated, or the cards do not combine.
    """
    refusal = check(position, Removal(removal))
    if refusal is not None:
        raise IllegalMoveError(f"{Removal(removal)}: {refusal}", refusal)
    return result(position, Removal(removal))


def legal_moves(position: Position) -> LegalMoves[Position, Removal]:
    """The removals the rules allow now: iterate, count, or test one with ``in``."""
    return LegalMoves(position, generate, check)
