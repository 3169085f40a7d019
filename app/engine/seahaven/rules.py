"""Seahaven Towers' rules: places, positions, moves and what the rules allow (SPEC §3).

A position is an immutable value; :func:`apply_move` returns a new one or raises
:class:`IllegalMoveError` before anything changes. Places are numbered once for the whole
module (:data:`COLUMNS`, :data:`CELLS`, :data:`FOUNDATIONS`) and named the way the web layer
names them (``column-3``, ``cell-2``, ``foundation-H``)::

    >>> position = deal_position(DealCode.parse("SH1-C4-AAAAAJ2"))
    >>> [len(column) for column in position.columns]
    [5, 5, 5, 5, 5, 5, 5, 5, 5, 5]
    >>> position.cells[2:]
    (None, None)

Every card has exactly one card it may sit on in a column (same suit, one rank higher), so a
column-to-column move always carries the whole movable run at the top of its column, and only
a king can start a column. The game a player plays (selection, taps, verdicts) is
:mod:`app.engine.seahaven`; the searches are :mod:`app.engine.seahaven.solver`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final, NamedTuple

from app.engine import game
from app.engine.cards import ACE, KING, SUITS, Card, CardParseError, Suit, iter_cards
from app.engine.codes import DealCode, DealCodeError
from app.engine.game import (
    IllegalMoveError,
    LegalMoves,
    MoveParseError,
    Refusal,
    UnknownPlaceError,
    Walk,
)
from app.engine.rng import shuffled_cards
from app.engine.texts import N_, Translator

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
VARIANT_CELLS: Final[dict[str, int]] = {"C4": 4, "C2": 2, "C1": 1}
"""The variants of a deal code and the cells each deals."""


class Reason(game.Reason):
    """Why the rules refused a Seahaven move.

    >>> refusal = Refusal(Reason.GROUP_TOO_LARGE, 1)
    >>> str(refusal), refusal.key, Refusal.from_key("group-1", Reason) == refusal
    ('That group needs more free cells: at most 1 card can move now.', 'group-1', True)
    """

    NOT_MOVABLE = ("not_movable", N_("Only the top card or a run of the same suit can move."))
    SAME_SUIT_ONE_LOWER = ("same_suit_one_lower", N_("Same suit, one rank lower."))
    KING_ONLY = ("king_only", N_("Only a king can go to an empty column."))
    CELL_HOLDS_ONE = ("cell_holds_one", N_("A cell holds one card."))
    FOUNDATION_ORDER = ("foundation_order", N_("Foundations are built up by suit from the ace."))
    FOUNDATION_ONE_AT_A_TIME = (
        "foundation_one_at_a_time",
        N_("Cards go to a foundation one at a time."),
    )
    GROUP_TOO_LARGE = ("group", "")
    """Names the largest group that can move now (:attr:`Refusal.limit`), with a plural."""
    NO_DESTINATION = ("no_destination", N_("No foundation, column or cell can take this card now."))
    NOTHING_THERE = ("nothing_there", N_("There is no card there."))
    UNKNOWN_PLACE = ("unknown_place", N_("There is no such place on this board."))

    def takes_limit(self) -> bool:
        return self is Reason.GROUP_TOO_LARGE

    def explain(self, t: Translator, limit: int | None) -> str:
        if self is Reason.GROUP_TOO_LARGE:
            n = limit or 0
            return t.ngettext(
                "That group needs more free cells: at most %(limit)s card can move now.",
                "That group needs more free cells: at most %(limit)s cards can move now.",
                n,
            ) % {"limit": n}
        return super().explain(t, limit)


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


_PLACE_LETTERS: Final = "abcdefghij" + "klmn" + "".join(SUITS)
_LETTER_PLACE: Final[dict[str, Place]] = {letter: i for i, letter in enumerate(_PLACE_LETTERS)}
_MOVE_TEXT: Final = re.compile(r"([a-nSHDC])([a-nSHDC])([2-9]|1[0-3])?")


class Move(NamedTuple):
    """``count`` cards from the top of ``source`` onto ``target`` (more than one: columns only).

    It prints as one letter per place (columns a–j, cells k–n, foundations S H D C), then the
    count when more than one card moves, and parses back:

    >>> str(Move(0, 1, 14)), str(Move(2, 3, 7)), Move.parse("ch3")
    ('aS', 'ch3', Move(source=2, count=3, target=7))
    """

    source: Place
    count: int  # type: ignore[assignment]  # shadows tuple.count, never needed on a move
    target: Place

    @classmethod
    def parse(cls, text: str) -> Move:
        """:raises MoveParseError: when ``text`` is not the canonical text of a move."""
        match = _MOVE_TEXT.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise MoveParseError(f"{text!r} is not a Seahaven move")
        source, target, count = match.groups()
        return cls(_LETTER_PLACE[source], int(count) if count else 1, _LETTER_PLACE[target])

    def __str__(self) -> str:
        letters = [
            _PLACE_LETTERS[p] if isinstance(p, int) and 0 <= p < len(_PLACE_LETTERS) else f"?{p}"
            for p in (self.source, self.target)
        ]
        text = letters[0] + letters[1]
        return text if self.count == 1 else f"{text}{self.count}"


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


def group_limit(free_cells: int, empty_columns: int, to_empty_column: bool) -> int:
    """Largest run that may move as one group: ``(free cells + 1) × 2^(empty columns)``, where an
    empty column that is the target does not count (SPEC §3, the documents' formula). The one
    place the formula is written: the rules, the move generator and the solver all ask here.

    >>> group_limit(1, 2, False), group_limit(1, 2, True), group_limit(0, 0, True)
    (8, 4, 1)
    """
    if to_empty_column and empty_columns:
        empty_columns -= 1
    return (free_cells + 1) << empty_columns


def max_group(position: Position, target_is_empty_column: bool) -> int:
    """:func:`group_limit` on ``position``.

    >>> p = Position(((),) * 2 + ((Card(KING, "S"),),) * 8, (None, Card(2, "H")), (0, 0, 0, 0))
    >>> max_group(p, False), max_group(p, True)
    (8, 4)
    """
    return group_limit(position.free_cells, position.empty_columns, target_is_empty_column)


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
        raise IllegalMoveError(f"{format_move(move)}: {refusal}", refusal)
    return move_result(position, move)


def move_result(position: Position, move: Move) -> Position:
    """The position after a move :func:`check_move` allowed (nothing is checked again)."""
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


# --- a line checked on one board -----------------------------------------------------------
#
# A pasted 5,000-move game is checked whole before it is shown (issue 44). check_move and
# move_result make a new immutable position per move (about 5 µs); walk() below checks the
# same rules on one board changed in place, cards as small integers (suit × 16 + rank, so a
# card one rank higher of the same suit is the integer one higher): about 0.2 µs a move. It
# settles only the moves it fully understands — one card between existing places, or a run
# from column to column — and hands anything else, refusals included, to check_move on the
# position reached, so every refusal is check_move's own. tests/engine/test_walk.py holds it
# to the move-by-move loop (app.engine.game.walk_by_rules) over random and real lines.

_CARD_CODE: Final[dict[Card, int]] = {
    card: SUIT_INDEX[card.suit] * 16 + card.rank for card in iter_cards()
}
_CODE_CARD: Final[dict[int, Card]] = {code: card for card, code in _CARD_CODE.items()}
_FOUNDATION_BASE: Final = tuple(16 * i for i in range(len(SUITS)))

Stacks = list[list[int]]
"""Every place's cards bottom → top, by place: columns, cells (one card or none; a cell the
variant does not have stays empty and no move reaches it), foundations (ace up)."""


@functools.lru_cache(maxsize=len(VARIANT_CELLS) + 1)
def _settled(cell_count: int) -> frozenset[Move]:
    """The moves :func:`walk` settles itself on a board of ``cell_count`` cells: one card from
    any existing place to another, a run of 2–13 cards from column to column."""
    places = [*COLUMNS, *CELLS[:cell_count], *FOUNDATIONS]
    single = {Move(s, 1, t) for s in places for t in places if s != t}
    runs = {Move(s, n, t) for s in COLUMNS for t in COLUMNS if s != t for n in range(2, 14)}
    return frozenset(single | runs)


def _stacks(position: Position) -> Stacks:
    stacks = [[_CARD_CODE[card] for card in column] for column in position.columns]
    stacks += [[] if card is None else [_CARD_CODE[card]] for card in position.cells]
    stacks += [[] for _ in range(MAX_CELLS - len(position.cells))]
    stacks += [
        list(range(base + 1, base + 1 + h))
        for base, h in zip(_FOUNDATION_BASE, position.foundations, strict=True)
    ]
    return stacks


def _unpack(kept: tuple[int, tuple[tuple[int, ...], ...]]) -> Position:
    """The position a :func:`walk` snapshot stands for."""
    cell_count, stacks = kept
    card = _CODE_CARD
    columns = tuple(tuple([card[c] for c in stacks[place]]) for place in COLUMNS)
    cells = tuple(
        card[held[0]] if held else None for held in stacks[CELLS.start : CELLS.start + cell_count]
    )
    s, h, d, c = (len(stacks[place]) for place in FOUNDATIONS)
    return Position(columns, cells, (s, h, d, c))


def walk(start: Position, moves: Sequence[Move], every: int) -> Walk[Position]:
    """:meth:`Game.walk <app.engine.game.Game.walk>` for Seahaven, on one board changed in
    place (the rules are :func:`check_move`'s; see the comment above).

    >>> start = deal_position(DealCode.parse("SH1-C4-AAAAAJ2"))
    >>> walked = walk(start, [Move.parse(m) for m in ("km", "mk", "mk")], 2)
    >>> walked.refused, str(walked.refusal), walked.snapshot(1) == start
    (2, 'There is no card there.', True)
    """
    cell_count = len(start.cells)
    settled = _settled(cell_count)
    stacks = _stacks(start)
    kept: list[tuple[int, tuple[tuple[int, ...], ...]]] = [(cell_count, tuple(map(tuple, stacks)))]
    cells = stacks[CELLS.start : CELLS.start + cell_count]
    columns = stacks[: COLUMNS.stop]
    left = every
    first_cell, first_foundation, bases = CELLS.start, FOUNDATIONS.start, _FOUNDATION_BASE
    for index, move in enumerate(moves):
        done = False
        if move in settled:
            source, count, target = move
            src, dst = stacks[source], stacks[target]
            if count == 1:
                if src:
                    card = src[-1]
                    if target < first_cell:  # a column: one rank higher, same suit; a king
                        done = dst[-1] == card + 1 if dst else card & 15 == KING
                    elif target < first_foundation:  # a free cell
                        done = not dst
                    else:  # the next card of its suit
                        done = card == bases[target - first_foundation] + len(dst) + 1
                    if done:
                        dst.append(src.pop())
            elif len(src) >= count and all(src[-k] + 1 == src[-k - 1] for k in range(1, count)):
                card = src[-count]  # a run from column to column, its bottom card onto dst
                done = dst[-1] == card + 1 if dst else card & 15 == KING
                free = sum(1 for cell in cells if not cell)
                empty = sum(1 for column in columns if not column)
                if done and count <= group_limit(free, empty, not dst):
                    dst.extend(src[-count:])
                    del src[-count:]
                else:
                    done = False
        if not done:  # not settled here: the rules themselves, on the position reached
            position = _unpack((cell_count, tuple(map(tuple, stacks))))
            refusal = check_move(position, move)
            if refusal is not None:
                return Walk(tuple(kept), _unpack, index, refusal)
            stacks[:] = _stacks(move_result(position, move))
            cells = stacks[CELLS.start : CELLS.start + cell_count]
            columns = stacks[: COLUMNS.stop]
        left -= 1
        if not left:
            kept.append((cell_count, tuple(map(tuple, stacks))))
            left = every
    return Walk(tuple(kept), _unpack)


def _iter_legal(position: Position, take_backs: bool = True) -> Iterator[Move]:
    """Every legal move, in a fixed order: sources columns, cells, foundations."""
    columns, cells, foundations = position
    cell_count = len(cells)
    free_cells = [CELLS.start + i for i, card in enumerate(cells) if card is None]
    empty_cols = [i for i, column in enumerate(columns) if not column]
    limit_full = group_limit(len(free_cells), len(empty_cols), False)
    limit_empty = group_limit(len(free_cells), len(empty_cols), True)
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


def legal_moves(position: Position) -> LegalMoves[Position, Move]:
    """The moves the rules allow now: iterate, count, or test one with ``in``."""
    return LegalMoves(position, _iter_legal, check_move)


@functools.lru_cache(maxsize=4096)
def deal_position(code: DealCode) -> Position:
    """Columns k = 1 … 10 get ``c[5(k−1) … 5(k−1)+4]`` (last on top); ``c[50]`` goes to cell 1
    and ``c[51]`` to cell 2, or on top of column 2 when there is only one cell."""
    cell_count = VARIANT_CELLS.get(code.variant, 0) if code.game == "SH" else 0
    if not cell_count:
        raise DealCodeError(f"{code} is not a Seahaven Towers deal")
    c = shuffled_cards(code, 1)
    columns = [tuple(c[5 * k : 5 * k + 5]) for k in range(COLUMN_COUNT)]
    cells: list[Card | None] = [None] * cell_count
    cells[0] = c[50]
    if cell_count == 1:
        columns[1] = (*columns[1], c[51])
    else:
        cells[1] = c[51]
    return Position(tuple(columns), tuple(cells), (0, 0, 0, 0))


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
