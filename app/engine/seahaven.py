"""Seahaven Towers: the deal, positions, moves and the player's actions (SPEC §3).

A position is an immutable value; :meth:`Seahaven.apply` returns a new one or raises
:class:`IllegalMoveError` before anything changes. Places are numbered once for the whole
module (:data:`COLUMNS`, :data:`CELLS`, :data:`FOUNDATIONS`) and named the way the web layer
names them (``column-3``, ``cell-2``, ``foundation-H``)::

    >>> game = Seahaven(DealCode.parse("SH1-C4-AAAAAJ2"))
    >>> [len(column) for column in game.position.columns]
    [5, 5, 5, 5, 5, 5, 5, 5, 5, 5]
    >>> game.position.cells[2:]
    (None, None)

Every card has exactly one card it may sit on in a column (same suit, one rank higher), so a
column-to-column move always carries the whole movable run at the top of its column, and only
a king can start a column.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, Final, NamedTuple

from app.engine.cards import ACE, KING, SUITS, Card, CardParseError, Suit, iter_cards
from app.engine.codes import DealCode, DealCodeError, GameId
from app.engine.game import (
    Game,
    IllegalMoveError,
    Outcome,
    RecordError,
    UnknownPlaceError,
    now_ms,
)
from app.engine.rng import shuffled_cards

Place = int
"""A place on the board as one small integer: columns 0–9, cells 10–13, foundations 14–17."""

COLUMN_COUNT: Final = 10
MAX_CELLS: Final = 4
COLUMNS: Final[range] = range(0, COLUMN_COUNT)
CELLS: Final[range] = range(COLUMN_COUNT, COLUMN_COUNT + MAX_CELLS)
FOUNDATIONS: Final[range] = range(CELLS.stop, CELLS.stop + len(SUITS))
SUIT_INDEX: Final[dict[Suit, int]] = {suit: i for i, suit in enumerate(SUITS)}

POINTS_PER_CARD: Final = 10
CARDS_IN_DECK: Final = 52

LOST_BUDGET: Final = 20_000
"""Nodes the game's own lost detection may visit before it gives up (and announces nothing)."""

VERDICT_VERSION: Final = 1
"""Part of every :func:`position_key`: bump it when lost detection changes what it proves, so
verdicts remembered by an older version are not taken for new ones."""


# --- places --------------------------------------------------------------------------------


def column_place(number: int) -> Place:
    """``column_place(1)`` is the leftmost column (numbers as players read them, 1–10)."""
    return COLUMNS[number - 1]


def cell_place(number: int) -> Place:
    return CELLS[number - 1]


def foundation_place(suit: Suit) -> Place:
    return FOUNDATIONS[SUIT_INDEX[suit]]


def place_name(place: Place) -> str:
    """The web layer's name of a place.

    >>> place_name(2), place_name(11), place_name(15)
    ('column-3', 'cell-2', 'foundation-H')
    """
    if place in COLUMNS:
        return f"column-{place - COLUMNS.start + 1}"
    if place in CELLS:
        return f"cell-{place - CELLS.start + 1}"
    if place in FOUNDATIONS:
        return f"foundation-{SUITS[place - FOUNDATIONS.start]}"
    raise UnknownPlaceError(f"no place has the index {place!r}")


_PLACE_BY_NAME: Final[dict[str, Place]] = {
    place_name(p): p for p in (*COLUMNS, *CELLS, *FOUNDATIONS)
}


def parse_place(name: str, cells: int = MAX_CELLS) -> Place:
    """The place a name stands for on a board with ``cells`` cells.

    >>> parse_place("column-10"), parse_place("foundation-C")
    (9, 17)

    :raises UnknownPlaceError: for any other name, including ``cell-3`` with two cells.
    """
    place = _PLACE_BY_NAME.get(name) if isinstance(name, str) else None
    if place is None or (place in CELLS and place - CELLS.start >= cells):
        raise UnknownPlaceError(f"{name!r} is not a place on a {cells}-cell Seahaven board")
    return place


# --- positions -----------------------------------------------------------------------------

Column = tuple[Card, ...]


class Position(NamedTuple):
    """One board: columns bottom → top, cells (``None`` when free), foundation heights S H D C."""

    columns: tuple[Column, ...]
    cells: tuple[Card | None, ...]
    foundations: tuple[int, int, int, int]

    @property
    def cards_home(self) -> int:
        return sum(self.foundations)

    @property
    def score(self) -> int:
        """10 points per card on the foundations.

        The documents add 10 per card put home, take 10 per card taken back, let undo remove
        what a move brought and never go below zero. All of that equals 10 × the cards now on
        the foundations, which cannot be negative, so the clamp at zero never binds.
        """
        return POINTS_PER_CARD * self.cards_home

    @property
    def is_won(self) -> bool:
        return self.cards_home == CARDS_IN_DECK

    @property
    def free_cells(self) -> int:
        return sum(1 for card in self.cells if card is None)

    @property
    def empty_columns(self) -> int:
        return sum(1 for column in self.columns if not column)

    def foundation_top(self, suit: Suit) -> Card | None:
        height = self.foundations[SUIT_INDEX[suit]]
        return Card(height, suit) if height else None

    def top(self, place: Place) -> Card | None:
        """The card a move from ``place`` would take (``None`` when the place is empty)."""
        if place in COLUMNS:
            column = self.columns[place]
            return column[-1] if column else None
        if place in CELLS:
            return self.cells[place - CELLS.start]
        return self.foundation_top(SUITS[place - FOUNDATIONS.start])

    def run_length(self, column: int) -> int:
        """How many cards at the top of a column form a run (same suit, each one rank lower)."""
        cards = self.columns[column]
        if not cards:
            return 0
        length = 1
        for lower, upper in zip(reversed(cards), reversed(cards[:-1]), strict=False):
            if lower.suit != upper.suit or lower.rank + 1 != upper.rank:
                break
            length += 1
        return length

    def accepts(self, place: Place, card: Card) -> bool:
        """Whether ``card`` (as the bottom of what moves) may go onto this place by the rules
        of card order alone: same suit one rank higher, a king on an empty column, a free cell,
        the next card of its foundation. Group size is checked separately."""
        if place in COLUMNS:
            column = self.columns[place]
            if not column:
                return card.rank == KING
            top = column[-1]
            return top.suit == card.suit and top.rank == card.rank + 1
        if place in CELLS:
            return self.cells[place - CELLS.start] is None
        suit = SUITS[place - FOUNDATIONS.start]
        return card.suit == suit and self.foundations[SUIT_INDEX[suit]] + 1 == card.rank

    def cards(self) -> list[Card]:
        """Every card on the board, foundations included (52 in a sound position)."""
        found: list[Card] = [card for column in self.columns for card in column]
        found.extend(card for card in self.cells if card is not None)
        for suit, height in zip(SUITS, self.foundations, strict=True):
            found.extend(Card(rank, suit) for rank in range(ACE, height + 1))
        return found

    def to_dict(self) -> dict[str, Any]:
        """Card text, as seed files write positions."""
        return {
            "columns": [[str(card) for card in column] for column in self.columns],
            "cells": [None if card is None else str(card) for card in self.cells],
            "foundations": dict(zip(SUITS, self.foundations, strict=True)),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Position:
        """Read a position written as card text and check that it holds each card once.

        :raises ValueError: when the shape is wrong, a card does not parse, or the 52 cards
            are not all there exactly once (foundations count as ace up to their height).
        """
        try:
            columns = tuple(
                tuple(Card.parse(text) for text in column) for column in data["columns"]
            )
            cells = tuple(None if text is None else Card.parse(text) for text in data["cells"])
            heights = data.get("foundations", {})
            foundations = (
                int(heights.get("S", 0)),
                int(heights.get("H", 0)),
                int(heights.get("D", 0)),
                int(heights.get("C", 0)),
            )
        except (KeyError, TypeError, AttributeError, CardParseError) as error:
            raise ValueError(f"not a Seahaven position: {error}") from None
        position = cls(columns, cells, foundations)
        position.check()
        return position

    def check(self) -> None:
        """:raises ValueError: unless this is a sound board (10 columns, 1/2/4 cells, 52 cards)."""
        if len(self.columns) != COLUMN_COUNT:
            raise ValueError(f"a Seahaven board has {COLUMN_COUNT} columns")
        if len(self.cells) not in (1, 2, 4):
            raise ValueError("a Seahaven board has 4, 2 or 1 cells")
        if any(not 0 <= h <= KING for h in self.foundations):
            raise ValueError("foundation heights go from 0 to 13")
        cards = self.cards()
        if len(cards) != CARDS_IN_DECK or set(cards) != set(iter_cards()):
            raise ValueError("a Seahaven board holds each of the 52 cards exactly once")


# --- moves ---------------------------------------------------------------------------------


class Move(NamedTuple):
    """``count`` cards from the top of ``source`` onto ``target`` (more than one: columns only)."""

    source: Place
    count: int  # type: ignore[assignment]  # shadows tuple.count, never needed on a move
    target: Place


_PLACE_LETTERS: Final = "abcdefghij" + "klmn" + "".join(SUITS)
_LETTER_PLACE: Final[dict[str, Place]] = {letter: i for i, letter in enumerate(_PLACE_LETTERS)}
_MOVE_TEXT: Final = re.compile(r"([a-nSHDC])([a-nSHDC])([2-9]|1[0-3])?")


def encode_move(move: Move) -> str:
    """One letter per place (columns a–j, cells k–n, foundations S H D C), then the count when
    more than one card moves.

    >>> encode_move(Move(0, 1, 14)), encode_move(Move(2, 3, 7))
    ('aS', 'ch3')
    """
    text = _PLACE_LETTERS[move.source] + _PLACE_LETTERS[move.target]
    return text if move.count == 1 else text + str(move.count)


def decode_move(text: str) -> Move:
    """:raises RecordError: when ``text`` is not the canonical text of a move."""
    match = _MOVE_TEXT.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise RecordError(f"{text!r} is not a Seahaven move")
    source, target, count = match.groups()
    return Move(_LETTER_PLACE[source], int(count) if count else 1, _LETTER_PLACE[target])


def format_move(move: Move, position: Position | None = None) -> str:
    """A move as a player reads it, e.g. ``7H column-3 → column-5`` (the card needs the position
    the move is played from; without it the count is shown instead).
    """
    head = f"{move.count} cards" if move.count > 1 else "1 card"
    if position is not None:
        card = _moving_card(position, move)
        if card is not None:
            head = str(card) if move.count == 1 else f"{card}…({move.count})"
    return f"{head} {place_name(move.source)} → {place_name(move.target)}"


def _moving_card(position: Position, move: Move) -> Card | None:
    """The bottom card of what ``move`` takes, or ``None`` when the source has no such card."""
    if move.source in COLUMNS:
        column = position.columns[move.source]
        return column[-move.count] if 0 < move.count <= len(column) else None
    return position.top(move.source)


# --- refusals ------------------------------------------------------------------------------


class Reason(Enum):
    """Why a move was refused, as a sentence a player understands. ``GROUP_TOO_LARGE`` takes the
    current limit as ``{limit}``; the web layer can translate by member name."""

    NOT_MOVABLE = "Only the top card or a run of the same suit can move"
    SAME_SUIT_ONE_LOWER = "Same suit, one rank lower"
    KING_ONLY = "Only a king can go to an empty column"
    CELL_HOLDS_ONE = "A cell holds one card"
    FOUNDATION_ORDER = "Foundations are built up by suit from the ace"
    FOUNDATION_ONE_AT_A_TIME = "Cards go to a foundation one at a time"
    GROUP_TOO_LARGE = "That group needs more free cells: at most {limit} cards can move now"
    NO_DESTINATION = "No foundation, column or cell can take this card now"
    NOTHING_THERE = "There is no card there"
    UNKNOWN_PLACE = "There is no such place on this board"

    def text(self, limit: int | None = None) -> str:
        """The English sentence, with the group limit filled in."""
        if self is Reason.GROUP_TOO_LARGE:
            sentence: str = self.value.format(limit=limit)
            return sentence.replace("1 cards", "1 card") if limit == 1 else sentence
        return str(self.value)


@dataclass(frozen=True, slots=True)
class Refusal:
    reason: Reason
    limit: int | None = None

    def __str__(self) -> str:
        return self.reason.text(self.limit)


def max_group(position: Position, target_is_empty_column: bool) -> int:
    """Largest run that may move as one group: ``(free cells + 1) × 2^(empty columns)``, where an
    empty column that is the target does not count (SPEC §3, the documents' formula).

    >>> p = Position(((),) * 2 + ((Card(KING, "S"),),) * 8, (None, Card(2, "H")), (0, 0, 0, 0))
    >>> max_group(p, False), max_group(p, True)
    (8, 4)
    """
    empty = position.empty_columns
    if target_is_empty_column and empty:
        empty -= 1
    return (position.free_cells + 1) << empty


def check_move(position: Position, move: Move) -> Refusal | None:
    """Why ``move`` is illegal in ``position``, or ``None`` when the rules allow it."""
    source, count, target = move
    cell_count = len(position.cells)
    for place in (source, target):
        if not (
            place in COLUMNS
            or place in FOUNDATIONS
            or (place in CELLS and place - CELLS.start < cell_count)
        ):
            return Refusal(Reason.UNKNOWN_PLACE)
    if not isinstance(count, int) or count < 1 or source == target:
        return Refusal(Reason.NOT_MOVABLE)
    if source in COLUMNS:
        column = position.columns[source]
        if not column:
            return Refusal(Reason.NOTHING_THERE)
        if count > position.run_length(source):
            return Refusal(Reason.NOT_MOVABLE)
        card: Card = column[-count]
    else:
        top = position.top(source)
        if top is None:
            return Refusal(Reason.NOTHING_THERE)
        if count != 1:
            return Refusal(Reason.NOT_MOVABLE)
        card = top
    if target in FOUNDATIONS:
        if count > 1:
            return Refusal(Reason.FOUNDATION_ONE_AT_A_TIME)
        if not position.accepts(target, card):
            return Refusal(Reason.FOUNDATION_ORDER)
        return None
    if target in CELLS:
        if count > 1 or not position.accepts(target, card):
            return Refusal(Reason.CELL_HOLDS_ONE)
        return None
    to_empty = not position.columns[target]
    if not position.accepts(target, card):
        return Refusal(Reason.KING_ONLY if to_empty else Reason.SAME_SUIT_ONE_LOWER)
    if count > 1:
        limit = max_group(position, to_empty)
        if count > limit:
            return Refusal(Reason.GROUP_TOO_LARGE, limit)
    return None


def apply_move(position: Position, move: Move) -> Position:
    """The position after a move the rules allow.

    :raises IllegalMoveError: with the player's sentence when they do not.
    """
    refusal = check_move(position, move)
    if refusal is not None:
        raise IllegalMoveError(f"{format_move(move)}: {refusal}")
    return _unchecked_apply(position, move)


def _unchecked_apply(position: Position, move: Move) -> Position:
    source, count, target = move
    columns, cells, foundations = position
    if source in COLUMNS:
        moving = columns[source][-count:]
        columns = (*columns[:source], columns[source][:-count], *columns[source + 1 :])
    elif source in CELLS:
        moving = (cells[source - CELLS.start],)  # type: ignore[assignment]
        i = source - CELLS.start
        cells = (*cells[:i], None, *cells[i + 1 :])
    else:
        i = source - FOUNDATIONS.start
        moving = (Card(foundations[i], SUITS[i]),)
        foundations = _with_height(foundations, i, foundations[i] - 1)
    if target in COLUMNS:
        columns = (*columns[:target], columns[target] + moving, *columns[target + 1 :])
    elif target in CELLS:
        i = target - CELLS.start
        cells = (*cells[:i], moving[0], *cells[i + 1 :])
    else:
        i = target - FOUNDATIONS.start
        foundations = _with_height(foundations, i, foundations[i] + 1)
    return Position(columns, cells, foundations)


def _with_height(
    heights: tuple[int, int, int, int], index: int, height: int
) -> tuple[int, int, int, int]:
    s, h, d, c = heights
    values = [s, h, d, c]
    values[index] = height
    return (values[0], values[1], values[2], values[3])


def _iter_legal(position: Position, take_backs: bool = True) -> Iterator[Move]:
    """Every legal move, in a fixed order: sources columns, cells, foundations."""
    columns, cells, foundations = position
    cell_count = len(cells)
    free_cells = [CELLS.start + i for i, card in enumerate(cells) if card is None]
    empty_cols = [i for i, column in enumerate(columns) if not column]
    limit_full = (len(free_cells) + 1) << len(empty_cols)
    limit_empty = (len(free_cells) + 1) << max(len(empty_cols) - 1, 0)
    tops: dict[Card, Place] = {column[-1]: i for i, column in enumerate(columns) if column}

    def single(card: Card, source: Place) -> Iterator[Move]:
        i = SUIT_INDEX[card.suit]
        if foundations[i] + 1 == card.rank and source not in FOUNDATIONS:
            yield Move(source, 1, FOUNDATIONS.start + i)
        if card.rank == KING:
            for target in empty_cols:
                if target != source:
                    yield Move(source, 1, target)
        else:
            above = tops.get(Card(card.rank + 1, card.suit))
            if above is not None and above != source:
                yield Move(source, 1, above)
        for target in free_cells:
            if target != source:
                yield Move(source, 1, target)

    for source, column in enumerate(columns):
        if not column:
            continue
        yield from single(column[-1], source)
        run = position.run_length(source)
        for count in range(2, run + 1):
            card = column[-count]
            if card.rank == KING:
                if count <= limit_empty:
                    for target in empty_cols:
                        yield Move(source, count, target)
            elif count <= limit_full:
                above = tops.get(Card(card.rank + 1, card.suit))
                if above is not None:
                    yield Move(source, count, above)
    for i in range(cell_count):
        held = cells[i]
        if held is not None:
            yield from single(held, CELLS.start + i)
    if take_backs:
        for i, height in enumerate(foundations):
            if height:
                yield from single(Card(height, SUITS[i]), FOUNDATIONS.start + i)


class LegalMoves:
    """The legal moves of a position: iterate them, count them, test a move with ``in``."""

    __slots__ = ("_moves", "position")

    def __init__(self, position: Position) -> None:
        self.position = position
        self._moves: tuple[Move, ...] | None = None

    def _all(self) -> tuple[Move, ...]:
        if self._moves is None:
            self._moves = tuple(_iter_legal(self.position))
        return self._moves

    def __iter__(self) -> Iterator[Move]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __bool__(self) -> bool:
        return bool(self._all())

    def __contains__(self, move: object) -> bool:
        return (
            isinstance(move, Move)
            and all(isinstance(v, int) for v in move)
            and check_move(self.position, move) is None
        )

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(encode_move(m) for m in self)})>"


def legal_moves(position: Position) -> LegalMoves:
    return LegalMoves(position)


@functools.lru_cache(maxsize=4096)
def deal_position(code: DealCode) -> Position:
    """Columns k = 1 … 10 get ``c[5(k−1) … 5(k−1)+4]`` (last on top); ``c[50]`` goes to cell 1
    and ``c[51]`` to cell 2, or on top of column 2 when there is only one cell."""
    cell_count = code.cells
    if code.game != "SH" or cell_count not in (1, 2, 4):
        raise DealCodeError(f"{code} is not a Seahaven Towers deal")
    c = shuffled_cards(code)
    columns = [tuple(c[5 * k : 5 * k + 5]) for k in range(COLUMN_COUNT)]
    cells: list[Card | None] = [None] * cell_count
    cells[0] = c[50]
    if cell_count == 1:
        columns[1] = (*columns[1], c[51])
    else:
        cells[1] = c[51]
    return Position(tuple(columns), tuple(cells), (0, 0, 0, 0))


# --- the game ------------------------------------------------------------------------------


def position_key(position: Position) -> str:
    """A short canonical key of what lost detection depends on, for remembering verdicts.

    Positions that differ only by the order of the columns or by which cell holds which card
    have the same verdict (the solver's own symmetry), and so the same key; the foundations
    follow from the cards left. The key also names :data:`VERDICT_VERSION` and
    :data:`LOST_BUDGET`, which decide what a verdict means.

    >>> game = Seahaven(DealCode.parse("SH1-C4-AAAAAJ2"))
    >>> key = position_key(game.position)
    >>> key.startswith("sh1-20000:"), len(key)
    (True, 42)
    >>> flipped = game.position._replace(columns=game.position.columns[::-1])
    >>> position_key(flipped) == key
    True
    """
    columns = sorted(" ".join(map(str, column)) for column in position.columns)
    cells = sorted(str(card) for card in position.cells if card is not None)
    text = f"{len(position.cells)}|{'/'.join(columns)}|{' '.join(cells)}"
    digest = hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
    return f"sh{VERDICT_VERSION}-{LOST_BUDGET}:{digest}"


@dataclass(frozen=True, slots=True)
class ActionResult:
    """What a tap, double tap or drag did."""

    outcome: Outcome
    move: Move | None = None
    reason: Reason | None = None
    limit: int | None = None

    @property
    def message(self) -> str:
        """The refusal sentence in English ("" unless refused)."""
        return "" if self.reason is None else self.reason.text(self.limit)


Selection = tuple[Place, Card]
"""The place of the selected card and the card itself (the bottom of the selected run)."""


class Seahaven(Game[Position, Move]):
    """A game of Seahaven Towers with 4, 2 or 1 cells.

    Actions the web layer calls: :meth:`tap` (single tap / select-then-destination),
    :meth:`auto` (double tap) and :meth:`move` (drag). Each validates fully and changes nothing
    when it refuses. A tap on an empty column, cell or foundation is expressed as ``card=None``.
    """

    game_id: ClassVar[GameId] = "SH"
    slug: ClassVar[str] = "seahaven"
    title: ClassVar[str] = "Seahaven Towers"

    def __init__(self, code: DealCode) -> None:
        self._selection: Selection | None = None
        super().__init__(code)
        self._lost_cache: dict[Position, bool] = {}
        self._deferred = False

    @classmethod
    def from_position(cls, position: Position | Mapping[str, Any]) -> Seahaven:
        """A game that starts from a given board (tests, seeds), through
        :meth:`Game.starting_from`: its record is refused, records rebuild games from deal codes."""
        start = position if isinstance(position, Position) else Position.from_dict(position)
        start.check()
        return cls.starting_from(DealCode("SH", 1, f"C{len(start.cells)}", 0), start)

    # --- rules -------------------------------------------------------------------------------

    @classmethod
    def deal(cls, code: DealCode) -> Position:
        return deal_position(code)

    @classmethod
    def apply(cls, position: Position, move: Move) -> Position:
        return apply_move(position, move)

    @classmethod
    def encode_move(cls, move: Move) -> str:
        return encode_move(move)

    @classmethod
    def decode_move(cls, text: str) -> Move:
        return decode_move(text)

    @property
    def cell_count(self) -> int:
        return len(self.position.cells)

    @property
    def score(self) -> int:
        return self.position.score

    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self.position)

    def is_won(self) -> bool:
        return self.position.is_won

    def is_lost(self, budget: int = LOST_BUDGET) -> bool:
        """Proved that no sequence of moves can put another card on a foundation.

        Searches (up to ``budget`` positions) when the verdict on this position is not known
        yet, unless :meth:`defer_proofs` was called: then an unknown verdict counts as not
        lost, and whoever deferred proves :attr:`position` elsewhere and tells the game
        with :meth:`note_verdict`.
        """
        position = self.position
        cached = self._lost_cache.get(position)
        if cached is None:
            if self._deferred:
                return False
            from app.engine.seahaven_solver import is_lost  # the solver imports this module

            cached = is_lost(position, budget) is True
            self.note_verdict(cached)
        return cached

    def is_over(self) -> bool:
        return self.is_won() or self.is_lost()

    def defer_proofs(self) -> None:
        """Never search in :meth:`is_lost` (a server proves positions off its request path)."""
        self._deferred = True

    def verdict(self) -> bool | None:
        """Whether the current position is lost, as far as already known: ``None`` when
        nobody has proved it yet (a won position is never lost)."""
        if self.is_won():
            return False
        return self._lost_cache.get(self.position)

    def note_verdict(self, lost: bool, position: Position | None = None) -> None:
        """Take a verdict found elsewhere (kept with the saved game, remembered by a server,
        proved in another process) on ``position`` (default: the current one)."""
        if len(self._lost_cache) > 256:
            self._lost_cache.clear()
        self._lost_cache[self.position if position is None else position] = lost

    def max_group(self, target_is_empty_column: bool = False) -> int:
        return max_group(self.position, target_is_empty_column)

    # --- selection ---------------------------------------------------------------------------

    @property
    def selection(self) -> Selection | None:
        return self._selection

    def selected_cards(self) -> tuple[Card, ...]:
        """The selected card and the run above it (for highlighting)."""
        if self._selection is None:
            return ()
        place, card = self._selection
        if place in COLUMNS:
            column = self.position.columns[place]
            return column[column.index(card) :]
        return (card,)

    def clear_selection(self) -> None:
        self._selection = None

    def selection_text(self) -> str:
        """``column-3:7H`` or "" when nothing is selected."""
        if self._selection is None:
            return ""
        place, card = self._selection
        return f"{place_name(place)}:{card}"

    def restore_selection(self, text: str) -> None:
        if not text:
            self._selection = None
            return
        try:
            name, card_text = text.split(":")
            place = parse_place(name, self.cell_count)
            card = Card.parse(card_text)
        except (ValueError, UnknownPlaceError, CardParseError):
            raise RecordError(f"{text!r} is not a selection") from None
        if self._movable_count(place, card) is None:
            raise RecordError(f"{card} at {name} cannot be selected now")
        self._selection = (place, card)

    # --- actions -----------------------------------------------------------------------------

    def _is_there(self, place: Place, card: Card | None) -> bool:
        """Whether the player's view of ``place`` is current: ``card`` lies there (anywhere in a
        column, the top of a foundation), or ``None`` and the place is empty."""
        position = self.position
        if place in COLUMNS:
            column = position.columns[place]
            return not column if card is None else card in column
        return position.top(place) == card

    def _movable_count(self, place: Place, card: Card) -> int | None:
        """How many cards move when ``card`` is taken from ``place`` (it and the run above it),
        or ``None`` when it is not movable from there."""
        position = self.position
        if place in COLUMNS:
            column = position.columns[place]
            if card not in column:
                return None
            count = len(column) - column.index(card)
            return count if count <= position.run_length(place) else None
        return 1 if position.top(place) == card else None

    def _place(self, name: str) -> Place:
        return parse_place(name, self.cell_count)

    def _play(self, move: Move, now: int | None) -> ActionResult:
        self.play(move, now)
        return ActionResult(Outcome.MOVED, move)

    def move(
        self, source: str, card: Card | None, target: str, now: int | None = None
    ) -> ActionResult:
        """Move ``card`` (the bottom of the run to move; a foundation's top card) from ``source``
        to ``target`` — a drag, or a selection followed by a destination.

        :raises UnknownPlaceError: for a place name that is not on this board.
        """
        source_place, target_place = self._place(source), self._place(target)
        return self._ticked(self._move(source_place, card, target_place, now), now)

    def _move(
        self, source: Place, card: Card | None, target: Place, now: int | None
    ) -> ActionResult:
        if card is None or not self._is_there(source, card):
            return ActionResult(Outcome.STALE if card is not None else Outcome.IGNORED)
        if source == target:
            return ActionResult(Outcome.IGNORED)
        count = self._movable_count(source, card)
        if count is None:
            return ActionResult(Outcome.REFUSED, reason=Reason.NOT_MOVABLE)
        move = Move(source, count, target)
        refusal = check_move(self.position, move)
        if refusal is not None:
            return ActionResult(
                Outcome.REFUSED, move=None, reason=refusal.reason, limit=refusal.limit
            )
        return self._play(move, now)

    def tap(self, place: str, card: Card | None, now: int | None = None) -> ActionResult:
        """A single tap on ``card`` at ``place`` (``card=None`` for an empty place).

        With no selection: the card goes to its foundation when it is the top card of its
        column or cell and may go there; otherwise it (with the run above it) becomes the
        selection. With a selection: tapping it again deselects; tapping a place that can take
        it moves it there; tapping a card that cannot take it (or another card of the selected
        column) is a fresh tap on that card, so no tap is lost (issue 13); tapping an empty
        place that cannot take it is refused and clears the selection.

        :raises UnknownPlaceError: for a place name that is not on this board.
        """
        tapped = self._place(place)
        if not self._is_there(tapped, card):
            return ActionResult(Outcome.STALE)
        selection = self._selection
        if selection is not None:
            if selection == (tapped, card):
                self._selection = None
                return self._ticked(ActionResult(Outcome.DESELECTED), now)
            if selection[0] != tapped:
                result = self._move(selection[0], selection[1], tapped, now)
                if result.outcome is Outcome.MOVED or card is None:
                    self._selection = None
                    return self._ticked(result, now)
            self._selection = None  # not a destination: a fresh tap on the card
        if card is None:
            return ActionResult(Outcome.IGNORED)
        count = self._movable_count(tapped, card)
        if count is None:
            return self._ticked(ActionResult(Outcome.REFUSED, reason=Reason.NOT_MOVABLE), now)
        if count == 1 and tapped not in FOUNDATIONS:
            home = foundation_place(card.suit)
            if self.position.accepts(home, card):
                return self._play(Move(tapped, 1, home), now)
        self._selection = (tapped, card)
        return self._ticked(ActionResult(Outcome.SELECTED), now)

    def _ticked(self, result: ActionResult, now: int | None) -> ActionResult:
        """A selection or a refusal is an action too: the clock starts with the first one."""
        if result.outcome in (Outcome.SELECTED, Outcome.DESELECTED, Outcome.REFUSED):
            self._tick(now_ms() if now is None else now)
        return result

    def auto(self, place: str, card: Card | None, now: int | None = None) -> ActionResult:
        """A double tap: the card (with its run) goes to its foundation, else onto the longest
        column that accepts it, else (a king) to an empty column, else to an empty cell.

        :raises UnknownPlaceError: for a place name that is not on this board.
        """
        return self._ticked(self._auto(place, card, now), now)

    def _auto(self, place: str, card: Card | None, now: int | None) -> ActionResult:
        source = self._place(place)
        if card is None:
            return ActionResult(Outcome.IGNORED)
        if not self._is_there(source, card):
            return ActionResult(Outcome.STALE)
        count = self._movable_count(source, card)
        if count is None:
            return ActionResult(Outcome.REFUSED, reason=Reason.NOT_MOVABLE)
        position = self.position
        too_large: Refusal | None = None
        for target in self._auto_targets(source, card, count):
            refusal = check_move(position, Move(source, count, target))
            if refusal is None:
                return self._play(Move(source, count, target), now)
            if refusal.reason is Reason.GROUP_TOO_LARGE and too_large is None:
                too_large = refusal
        if too_large is not None:
            return ActionResult(Outcome.REFUSED, reason=too_large.reason, limit=too_large.limit)
        return ActionResult(Outcome.REFUSED, reason=Reason.NO_DESTINATION)

    def finish_double_tap(
        self, place: str, card: Card | None, now: int | None = None
    ) -> ActionResult:
        """The second click of a double tap whose first click was already played as a
        :meth:`tap` (the page sends every click at once and never waits to see whether a second
        one follows). The game ends as :meth:`auto` alone would have left it:

        - the first click selected the card: the selection goes, then the double tap's move is
          made; a refused double tap leaves nothing selected;
        - the first click sent the card to its foundation: that is where the double tap sends it
          too (the foundation comes first), so nothing more happens;
        - the first click put the selection onto this card (a destination): the move is made and
          this click adds nothing — a double click on a destination never flings the pile on;
        - otherwise (the first click deselected the card, or was refused) the double tap's move
          is made now.

        :raises UnknownPlaceError: for a place name that is not on this board.
        """
        tapped = self._place(place)
        if card is None:
            return ActionResult(Outcome.IGNORED)
        if self._selection == (tapped, card):
            self._selection = None
            return self.auto(place, card, now)
        done = self._done_by_first_click(tapped, card)
        if done is not None:
            return ActionResult(Outcome.MOVED, done)
        return self.auto(place, card, now)

    def _done_by_first_click(self, tapped: Place, card: Card) -> Move | None:
        """The last move, when it is what the first click of this double tap did: ``card`` went
        from ``tapped`` to its foundation, or a run landed on ``card`` at ``tapped``."""
        if not self.moves or self._selection is not None:
            return None
        last = self.moves[-1]
        source, count, target = last
        position = self.position
        if source == tapped and count == 1 and target == foundation_place(card.suit):
            return last if position.top(target) == card else None
        if target != tapped or source == tapped:
            return None
        if tapped in COLUMNS:
            column = position.columns[tapped]
            return last if len(column) > count and column[-count - 1] == card else None
        if tapped in FOUNDATIONS:
            top = position.top(tapped)
            below = top is not None and top.rank - 1 == card.rank and top.suit == card.suit
            return last if below else None
        return None

    def _auto_targets(self, source: Place, card: Card, count: int) -> list[Place]:
        position = self.position
        targets: list[Place] = []
        if count == 1 and source not in FOUNDATIONS:
            targets.append(foundation_place(card.suit))
        filled = [
            i for i in COLUMNS if i != source and position.columns[i] and position.accepts(i, card)
        ]
        filled.sort(key=lambda i: -len(position.columns[i]))  # stable: leftmost among equals
        targets.extend(filled)
        whole_column = source in COLUMNS and count == len(position.columns[source])
        if card.rank == KING and not whole_column:  # moving a column's own base is no move
            targets.extend(i for i in COLUMNS if not position.columns[i])
        if count == 1 and source not in CELLS:
            targets.extend(CELLS[: self.cell_count])
        return targets


def position_from_cards(
    columns: Sequence[str], cells: Sequence[str | None], foundations: Mapping[str, int]
) -> Position:
    """Build a position from card text, one string per column (``"KS QS"``) — for tests."""
    return Position.from_dict(
        {
            "columns": [text.split() for text in columns],
            "cells": list(cells),
            "foundations": dict(foundations),
        }
    )
