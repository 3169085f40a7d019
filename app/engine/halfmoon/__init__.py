"""Half Moon: two decks, twelve piles in an arc, an eight-card reserve; remove elevens and J-Q-K.

Rules as the documents give them (SPEC §2). Places are numbered 0 … 19 inside the engine and
named ``pile-1`` … ``pile-12`` and ``reserve-1`` … ``reserve-8`` outside it:

>>> game = HalfMoon(DealCode.parse("HM1-N-AAAAAAB"))
>>> [place_name(i) for i in (0, 11, 12, 19)]
['pile-1', 'pile-12', 'reserve-1', 'reserve-8']
>>> sum(len(pile) for pile in game.position.piles), len(game.position.reserve)
(96, 8)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping
from itertools import combinations
from typing import Any, ClassVar, Final, NamedTuple

from app.clock import now_ms
from app.engine import game
from app.engine.cards import JACK, KING, QUEEN, Card
from app.engine.codes import DealCode, Variant
from app.engine.game import (
    ActionResult,
    Game,
    LegalMoves,
    MoveParseError,
    RecordError,
    Refusal,
    Status,
    UnknownPlaceError,
)
from app.engine.rng import shuffled_cards
from app.engine.solutions import Solution, SolveResult
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


class HalfMoon(Game[Position, Removal]):
    """A Half Moon game: the position stack plus the player's selection.

    The selection is the ordered places the player has tapped: one number card, or one or two
    face cards of different ranks. It is part of the game (it survives a reload) and is
    cleared whenever the position changes.
    """

    game_id: ClassVar = "HM"
    slug: ClassVar = "half-moon"
    title: ClassVar = N_("Half Moon")
    variants: ClassVar = (Variant("N", N_("Half Moon"), N_("Half Moon")),)
    decks: ClassVar = DECKS
    code_example: ClassVar = N_("HM1-N-AAAAAAB (Half Moon)")
    notation: ClassVar = N_(
        "A Half Moon move is the letters of the two or three places it removes from: a to l"
        " the piles 1 to 12, m to t the reserve places 1 to 8 (for example ae or bcl)."
    )
    reasons: ClassVar = frozenset({Reason.SUM_NOT_ELEVEN, Reason.NEED_JACK_QUEEN_KING})
    position_type: ClassVar = Position

    def __init__(self, code: DealCode) -> None:
        super().__init__(code)
        self.selection: tuple[PlaceIndex, ...] = ()

    def _copy_state(self, clone: HalfMoon) -> None:
        clone.selection = self.selection

    @classmethod
    def deal(cls, code: DealCode) -> Position:
        return deal(code)

    @classmethod
    def check(cls, position: Position, removal: Removal) -> Refusal | None:
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

    @classmethod
    def result(cls, position: Position, removal: Removal) -> Position:
        """The position without the cards at ``removal``'s places."""
        piles = list(position.piles)
        reserve = list(position.reserve)
        for place in removal:
            if place < PILES:
                piles[place] = piles[place][:-1]
            else:
                reserve[place - PILES] = None
        return Position(tuple(piles), tuple(reserve))

    @classmethod
    def generate(cls, position: Position) -> Iterator[Removal]:
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

    @classmethod
    def parse_move(cls, text: str) -> Removal:
        return Removal.parse(text)

    @classmethod
    def solve(cls, code: DealCode, budget: int | None = None) -> Solution:
        from app.engine.halfmoon import solver  # the solver imports this module

        position = deal(code)
        result = solver.solve(position, budget or solver.SEARCH_FIRST, exact=True)
        steps = []
        for removal in result.line:
            steps.append(" + ".join(f"{place_name(p)} {position.top(p)}" for p in removal))
            position = apply_move(position, removal)
        return Solution(result.verdict, result.nodes, tuple(steps))

    @classmethod
    def solve_position(
        cls, position: Position, budget: int | None = None, deadline: float | None = None
    ) -> SolveResult[Removal]:
        from app.engine.halfmoon import solver  # the solver imports this module

        return solver.solve(
            position, budget or solver.SEARCH_FIRST, deadline, deep_first=True, exact=True
        )

    @classmethod
    def forget_searches(cls) -> None:
        from app.engine.halfmoon import solver  # the solver imports this module

        solver.forget()

    @classmethod
    def canonical_move(cls, move: Removal) -> Removal:
        return Removal(move)

    # --- state the screens show --------------------------------------------------------------

    def status(self) -> Status:
        position = self.position
        if position.is_won():
            return Status.WON
        return Status.STUCK if position.is_stuck() else Status.PLAYING

    def is_stuck(self) -> bool:
        return self.status() is Status.STUCK

    @property
    def score(self) -> int:
        """+10 a pair, +15 a triple; it can only grow, so it never drops below zero."""
        return sum(move.points for step in self.steps for move in step.moves)

    @classmethod
    def points(cls, position: Position) -> int:
        """The number cards gone came in pairs, the face cards in triples.

        >>> HalfMoon.points(deal(DealCode.parse("HM1-N-AAAAAAB")))
        0
        """
        left = [card for _, card in _all_cards(position)]
        faces = sum(card.is_face for card in left)
        numbers_gone, faces_gone = CARDS - FACE_CARDS - (len(left) - faces), FACE_CARDS - faces
        return numbers_gone // 2 * PAIR_POINTS + faces_gone // 3 * TRIPLE_POINTS

    def selected_cards(self) -> tuple[Card, ...]:
        return tuple(_top(self.position, p) for p in self.selection)

    def dimmed(self) -> frozenset[PlaceIndex]:
        """*Placement help*: playable places whose card cannot combine with the selection.

        With a number card selected, only its complement to 11 stays lit; with face cards
        selected, only the face ranks still missing from the triple stay lit. The selection
        itself is never dimmed; with no selection nothing is.
        """
        if not self.selection:
            return frozenset()
        chosen = self.selected_cards()
        if not chosen[0].is_face:
            wanted = {11 - chosen[0].rank}
        else:
            wanted = set(_FACES) - {c.rank for c in chosen}
        return frozenset(
            place
            for place, card in self.position.playable()
            if place not in self.selection and card.rank not in wanted
        )

    # --- taps --------------------------------------------------------------------------------

    def tap(
        self, place: str | PlaceIndex, card: Card, now: int | None = None
    ) -> ActionResult[Removal]:
        """One tap on ``card``, which the player saw at ``place`` (SPEC §2, Taps).

        :raises UnknownPlaceError: when ``place`` is not a place of the board.
        """
        index = parse_place(place) if isinstance(place, str) else _check_index(place)
        top = self.position.top(index)
        if top is None:
            return ActionResult(Outcome.IGNORED)
        if top != card:
            return ActionResult(Outcome.STALE)
        result = self._decide(index, card)
        if result.move is not None:  # _decide made sure the cards combine
            self._play_allowed(result.move, now)
        else:
            self._tick(now_ms() if now is None else now)
        return result

    def _decide(self, index: PlaceIndex, card: Card) -> ActionResult[Removal]:
        """Work out a tap's effect on the selection; only a removal is left to the caller."""
        selection = self.selection
        if index in selection:
            self.selection = tuple(p for p in selection if p != index)
            return ActionResult(Outcome.DESELECTED)
        if not selection:
            self.selection = (index,)
            return ActionResult(Outcome.SELECTED)
        chosen = self.selected_cards()
        if not chosen[0].is_face:  # a number card waits for its complement
            if is_pair(chosen[0], card):
                return ActionResult(
                    Outcome.REMOVED, Removal((selection[0], index)), cards=(chosen[0], card)
                )
            self.selection = ()
            return ActionResult(
                Outcome.REFUSED, cards=(chosen[0], card), refusal=Refusal(Reason.SUM_NOT_ELEVEN)
            )
        if not card.is_face:
            self.selection = ()
            return ActionResult(
                Outcome.REFUSED,
                cards=(*chosen, card),
                refusal=Refusal(Reason.NEED_JACK_QUEEN_KING),
            )
        same_rank = [p for p, c in zip(selection, chosen, strict=True) if c.rank == card.rank]
        if same_rank:
            self.selection = tuple(index if p == same_rank[0] else p for p in selection)
            return ActionResult(Outcome.REPLACED)
        if len(selection) == 2:
            return ActionResult(
                Outcome.REMOVED, Removal((*selection, index)), cards=(*chosen, card)
            )
        self.selection = (*selection, index)
        return ActionResult(Outcome.SELECTED)

    # --- selection in records ----------------------------------------------------------------

    def clear_selection(self) -> None:
        self.selection = ()

    def selection_text(self) -> str:
        return "".join(_LETTERS[p] for p in self.selection)

    def restore_selection(self, text: str) -> None:
        try:
            places = _decode_places(text) if text else ()
        except MoveParseError as error:
            raise RecordError(str(error)) from None
        cards = []
        for p in places:
            card = self.position.top(p)
            if card is None:
                raise RecordError(f"the selection names the empty place {place_name(p)}")
            cards.append(card)
        ranks = [c.rank for c in cards]
        valid = (
            not cards
            or (len(cards) == 1)
            or (all(c.is_face for c in cards) and len(set(ranks)) == len(ranks) == 2)
        )
        if not valid or len(set(places)) != len(places):
            raise RecordError(f"{text!r} is not a selection a player can make")
        self.selection = tuple(places)


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


def apply_move(position: Position, removal: tuple[PlaceIndex, ...]) -> Position:
    """The position after ``removal``.

    :raises IllegalMoveError: when a place is empty or repeated, or the cards do not combine.
    """
    return HalfMoon.apply(position, Removal(removal))


def legal_moves(position: Position) -> LegalMoves[Position, Removal]:
    """The removals the rules allow now: iterate, count, or test one with ``in``."""
    return HalfMoon.legal_moves_of(position)


GAME: Final = HalfMoon
"""This package's game (the table of games, :mod:`app.engine.games`, finds it here)."""
