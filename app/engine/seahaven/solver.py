"""Seahaven Towers solver and lost detection ("no useful move left", SPEC §3).

Both searches run on a compact copy of the board — cards as small integers ``16 × suit + rank``
so a card's successor in a column is ``card + 1`` — and visit each position once, up to
symmetry: the order of the columns and which cell holds which card do not change what can be
played, so the transposition key sorts both.

Two facts of a same-suit game keep the searches small and are what make them sound:

* **A card put on its foundation never needs to come back.** A card in a column can only ever
  hold the next lower card of its own suit, and that card is already on the foundation. So
  taking a card back from a foundation never helps (lost detection and the solver leave those
  moves out), and putting any playable card home never hurts (the solver plays every such
  move at once, and writes each into the line it returns).
* **Every card has exactly one card it may sit on**, so between columns only whole runs move
  and the moves per position are few.

Lost detection follows the game's own move generator, group moves included: the documents'
group formula allows groups that single moves could not build, so it must be searched as is.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable, Sequence
from typing import Final

from app.engine.cards import KING, SUITS, Card
from app.engine.codes import DealCode
from app.engine.seahaven.rules import (
    CELLS,
    COLUMN_COUNT,
    COLUMNS,
    FOUNDATIONS,
    Move,
    Position,
    apply_move,
    deal_position,
    format_move,
    group_limit,
)
from app.engine.solutions import SolveResult, Verdict

LOST_BUDGET: Final = 20_000
"""Nodes the game's own lost detection may visit before it gives up (and announces nothing)."""

VERDICT_VERSION: Final = 1
"""Part of every :func:`position_key`: bump it when lost detection changes what it proves, so
verdicts remembered by an older version are not taken for new ones."""

SOLVE_BUDGET: Final = 100_000
"""Default node budget of :func:`solve`: a few seconds at most."""

_CELL: Final = -1
_HOME: Final = -2

CardId = int
Cols = tuple[tuple[CardId, ...], ...]
State = tuple[Cols, tuple[CardId, ...], tuple[int, int, int, int]]
"""Columns (real order), cells (sorted, occupied only), foundation heights S H D C."""
Step = tuple[int, int, int, CardId]
"""(source column or _CELL, count, target column or _CELL or _HOME, bottom card moved)."""


def _card_id(card: Card) -> CardId:
    return SUITS.index(card.suit) * 16 + card.rank


def _state(position: Position) -> State:
    columns = tuple(tuple(_card_id(c) for c in column) for column in position.columns)
    cells = tuple(sorted(_card_id(c) for c in position.cells if c is not None))
    return columns, cells, position.foundations


def _key(state: State) -> tuple[Cols, tuple[CardId, ...]]:
    """Columns as a sorted multiset, cells as a set; foundations follow from what is left."""
    return tuple(sorted(state[0])), state[1]


def _run_length(column: tuple[CardId, ...]) -> int:
    length = 1
    i = len(column) - 1
    while i > 0 and column[i - 1] == column[i] + 1:
        length += 1
        i -= 1
    return length


def _steps(state: State, cell_count: int) -> list[Step]:
    """Every move between columns and cells, up to symmetry (one of several equal free cells or
    empty columns; no cell-to-cell move, no base king moved to another empty column). Foundation
    moves are left to the callers, take-backs are left out (module docstring)."""
    cols, cells, _ = state
    free = cell_count - len(cells)
    empty = -1
    empties = 0
    tops: dict[CardId, int] = {}
    for i, column in enumerate(cols):
        if column:
            tops[column[-1]] = i
        else:
            empties += 1
            if empty < 0:
                empty = i
    limit_full = group_limit(free, empties, False)
    limit_empty = group_limit(free, empties, True)
    steps: list[Step] = []
    for i, column in enumerate(cols):
        if not column:
            continue
        run = _run_length(column)
        for count in range(1, run + 1):
            bottom = column[-count]
            if bottom & 15 == KING:
                if empty >= 0 and count < len(column) and count <= limit_empty:
                    steps.append((i, count, empty, bottom))
            elif count <= limit_full:
                j = tops.get(bottom + 1)
                if j is not None and j != i:
                    steps.append((i, count, j, bottom))
        if free:
            steps.append((i, 1, _CELL, column[-1]))
    for card in cells:
        if card & 15 == KING:
            if empty >= 0:
                steps.append((_CELL, 1, empty, card))
        else:
            j = tops.get(card + 1)
            if j is not None:
                steps.append((_CELL, 1, j, card))
    return steps


def _play(state: State, step: Step) -> State:
    cols, cells, found = state
    source, count, target, card = step
    if source == _CELL:
        moving: tuple[CardId, ...] = (card,)
        rest = list(cells)
        rest.remove(card)
        cells = tuple(rest)
    else:
        moving = cols[source][-count:]
        cols = (*cols[:source], cols[source][:-count], *cols[source + 1 :])
    if target == _CELL:
        cells = tuple(sorted((*cells, card)))
    elif target == _HOME:
        suit = card >> 4
        heights = list(found)
        heights[suit] += 1
        found = (heights[0], heights[1], heights[2], heights[3])
    else:
        cols = (*cols[:target], cols[target] + moving, *cols[target + 1 :])
    return cols, cells, found


def _home_steps(state: State) -> list[Step]:
    """Cards that may go to their foundation now (column tops and cells)."""
    cols, cells, found = state
    steps: list[Step] = [
        (i, 1, _HOME, column[-1])
        for i, column in enumerate(cols)
        if column and found[column[-1] >> 4] + 1 == column[-1] & 15
    ]
    steps.extend((_CELL, 1, _HOME, card) for card in cells if found[card >> 4] + 1 == card & 15)
    return steps


def _autoplay(state: State) -> tuple[State, list[Step]]:
    """Put home every card that can go, repeatedly (never harmful: module docstring)."""
    played: list[Step] = []
    while True:
        steps = _home_steps(state)
        if not steps:
            return state, played
        for step in steps:
            state = _play(state, step)
            played.append(step)


def _depth_of_next(state: State) -> int:
    """How many cards lie above the next card each foundation needs (cells count 0)."""
    cols, _, found = state
    wanted = {s * 16 + found[s] + 1: s for s in range(4) if found[s] < KING}
    depth = 0
    for column in cols:
        for k, card in enumerate(column):
            if card in wanted:
                depth += len(column) - 1 - k
    return depth


def _buried_kings(cols: Cols) -> int:
    """Kings that are not at the base of their column: each must travel to an empty column."""
    return sum(1 for column in cols for card in column[1:] if card & 15 == KING)


def _evaluate(state: State, cell_count: int) -> int:
    cols, cells, found = state
    empties = sum(1 for column in cols if not column)
    free = cell_count - len(cells)
    return (
        100 * sum(found)
        + 12 * free
        + 25 * empties
        - 4 * _depth_of_next(state)
        - 6 * _buried_kings(cols)
    )


# --- lost detection ------------------------------------------------------------------------


def position_key(position: Position) -> str:
    """A short canonical key of what lost detection depends on, for remembering verdicts.

    Positions that differ only by the order of the columns or by which cell holds which card
    have the same verdict (the solver's own symmetry), and so the same key; the foundations
    follow from the cards left. The key also names :data:`VERDICT_VERSION` and
    :data:`LOST_BUDGET`, which decide what a verdict means.

    >>> position = deal_position(DealCode.parse("SH1-C4-AAAAAJ2"))
    >>> key = position_key(position)
    >>> key.startswith("sh1-20000:"), len(key)
    (True, 42)
    >>> flipped = position._replace(columns=position.columns[::-1])
    >>> position_key(flipped) == key
    True
    """
    columns = sorted(" ".join(map(str, column)) for column in position.columns)
    cells = sorted(str(card) for card in position.cells if card is not None)
    text = f"{len(position.cells)}|{'/'.join(columns)}|{' '.join(cells)}"
    digest = hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
    return f"sh{VERDICT_VERSION}-{LOST_BUDGET}:{digest}"


def is_lost(
    position: Position, budget: int = LOST_BUDGET, deadline: float | None = None
) -> bool | None:
    """Whether the player has no useful move left.

    ``True`` only when every position reachable without putting a card home (group moves
    included, foundation take-backs left out: they never help) has no card that may go home;
    ``False`` when some sequence of moves can put another card on a foundation, or the game is
    won (a won game is not lost); ``None`` when more than ``budget`` positions would have to be
    visited — then nothing is announced — or when ``time.monotonic()`` passes ``deadline``
    (a server's bound on one proof; unlike the budget, running out of time is not a fact about
    the position, so callers should not remember that ``None``).
    """
    if position.is_won():
        return False
    cell_count = len(position.cells)
    start = _state(position)
    if _home_steps(start):
        return False
    seen = {_key(start)}
    stack = [start]
    while stack:
        state = stack.pop()
        for step in _steps(state, cell_count):
            child = _play(state, step)
            if _home_steps(child):
                return False
            key = _key(child)
            if key not in seen:
                if len(seen) >= budget:
                    return None
                seen.add(key)
                stack.append(child)
                if deadline is not None and not len(seen) & 511 and time.monotonic() > deadline:
                    return None
    return True


# --- solver --------------------------------------------------------------------------------


def _to_moves(position: Position, steps: Iterable[Step]) -> list[Move]:
    """Turn internal steps into real moves, replaying them to pick the actual cells."""
    moves: list[Move] = []
    for source, count, target, card_id in steps:
        card = Card(card_id & 15, SUITS[card_id >> 4])
        if source == _CELL:
            source_place = CELLS.start + position.cells.index(card)
        else:
            source_place = COLUMNS[source]
        if target == _CELL:
            target_place = CELLS.start + position.cells.index(None)
        elif target == _HOME:
            target_place = FOUNDATIONS.start + SUITS.index(card.suit)
        else:
            target_place = COLUMNS[target]
        move = Move(source_place, count, target_place)
        position = apply_move(position, move)
        moves.append(move)
    return moves


def solve(
    position_or_code: Position | DealCode,
    budget: int = SOLVE_BUDGET,
    deadline: float | None = None,
) -> SolveResult[Move]:
    """Search for a win: depth first, best-looking child first, each position once.

    ``WON`` comes with a line of moves that replays through :meth:`Seahaven.apply` from the
    given position (the foundation moves the search makes on its own are in it); ``NO_WIN``
    only when every reachable position was searched (the search ran to its end);
    ``UNDECIDED`` when more than ``budget`` positions would be needed or ``time.monotonic()``
    passed ``deadline`` first.
    """
    if isinstance(position_or_code, DealCode):
        position = deal_position(position_or_code)
    else:
        position = position_or_code
    cell_count = len(position.cells)
    start, first = _autoplay(_state(position))
    if sum(start[2]) == 52:
        return SolveResult(Verdict.WON, tuple(_to_moves(position, first)), 1)
    seen = {_key(start)}
    nodes = 1
    # Each frame: the state, its children still to try (best last), the steps that led here.
    path: list[list[Step]] = [first]
    states: list[State] = [start]
    pending: list[list[tuple[State, list[Step]]]] = [_children(start, cell_count, seen)]
    while pending:
        if not pending[-1]:
            pending.pop()
            states.pop()
            path.pop()
            continue
        child, steps = pending[-1].pop()
        key = _key(child)
        if key in seen:
            continue
        seen.add(key)
        nodes += 1
        if sum(child[2]) == 52:
            line = [step for leg in path for step in leg] + steps
            return SolveResult(Verdict.WON, tuple(_to_moves(position, line)), nodes)
        if nodes >= budget or (
            deadline is not None and not nodes & 255 and time.monotonic() > deadline
        ):
            return SolveResult(Verdict.UNDECIDED, (), nodes)
        path.append(steps)
        states.append(child)
        pending.append(_children(child, cell_count, seen))
    return SolveResult(Verdict.NO_WIN, (), nodes)


def _children(
    state: State, cell_count: int, seen: set[tuple[Cols, tuple[CardId, ...]]]
) -> list[tuple[State, list[Step]]]:
    """Positions one move away (foundation moves played at once), worst first."""
    scored: list[tuple[int, int, State, list[Step]]] = []
    for n, step in enumerate(_steps(state, cell_count)):
        child, home = _autoplay(_play(state, step))
        if _key(child) in seen:
            continue
        scored.append((_evaluate(child, cell_count), -n, child, [step, *home]))
    scored.sort(key=lambda item: (item[0], item[1]))
    return [(child, steps) for _, _, child, steps in scored]


def solve_code(code: DealCode, budget: int = SOLVE_BUDGET) -> SolveResult[Move]:
    """The CLI's entry point: solve a deal from its start."""
    return solve(deal_position(code), budget)


def describe_line(position: Position, moves: Sequence[Move]) -> list[str]:
    """Human-readable moves (``7H column-3 → column-5``), each read in the position it is
    played from."""
    lines: list[str] = []
    for move in moves:
        lines.append(format_move(move, position))
        position = apply_move(position, move)
    return lines


def timed_solve(code: DealCode, budget: int = SOLVE_BUDGET) -> tuple[SolveResult[Move], float]:
    """Solve and measure wall time in seconds (the bench's helper)."""
    started = time.perf_counter()
    result = solve_code(code, budget)
    return result, time.perf_counter() - started


__all__ = [
    "COLUMN_COUNT",
    "LOST_BUDGET",
    "SOLVE_BUDGET",
    "VERDICT_VERSION",
    "describe_line",
    "format_move",
    "is_lost",
    "position_key",
    "solve",
    "solve_code",
    "timed_solve",
]
