"""Where the win slipped away: the last winnable position of an ended game.

A position is winnable or not, and every position after a lost one is lost too (a position
only reaches positions its own moves reach). So along a game's line — the moves as played,
undone moves left out — the winnable positions are a prefix, and a binary search over the
line finds the last one in about log₂(moves) solver calls:

* **cannot be won** — the deal's start is proved lost;
* **slipped** at move *k* — position *k* (after the first *k* moves) is won by the line the
  finding carries, and position *k* + 1 is proved lost: move *k* + 1 lost it;
* **undecided** — a needed verdict ran out of its budget. Never a guess: every "winnable" carries
  its winning line, every "lost" comes from a search that ran to its end.

Each winning line also settles, without a solver call, every later position of the game that
lies on it (the player followed it for a while): they are winnable by the rest of the line.

>>> from app.engine.codes import DealCode
>>> from app.engine.halfmoon import HalfMoon
>>> code = DealCode.parse("HM1-N-AAAAAAB")
>>> finding = analyse(HalfMoon, HalfMoon.deal(code), [])
>>> finding.kind.value, finding.last_winnable
('undecided', None)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final, Generic, TypeVar

from app.engine.game import Game
from app.engine.solutions import Verdict

P = TypeVar("P")
M = TypeVar("M")

ANALYSIS_VERSION: Final = 1
"""Written with every stored finding: bump it when what a finding proves changes."""


class Finding(Enum):
    CANNOT_WIN = "cannot_win"
    """The deal's start is proved lost: no sequence of moves wins it."""
    SLIPPED = "slipped"
    """Position *k* is winnable (with a line), position *k* + 1 proved lost."""
    UNDECIDED = "undecided"
    """The solver could not decide a needed position within its budget."""


@dataclass(frozen=True, slots=True)
class Analysis(Generic[M]):
    """What the analysis of one ended game found."""

    kind: Finding
    last_winnable: int | None = None
    """*k*: the moves played while the game could still be won (``SLIPPED`` only)."""
    winning_line: tuple[M, ...] = ()
    """A line that wins from position *k* (``SLIPPED`` only)."""
    solver_calls: int = 0
    nodes: int = 0
    seconds: float = 0.0

    @property
    def losing_move(self) -> int | None:
        """The index in the line of the move that lost the win (move *k* + 1)."""
        return self.last_winnable

    def to_data(self) -> dict[str, Any]:
        """Plain JSON for a store; moves in the game's notation (``str(move)``)."""
        return {
            "version": ANALYSIS_VERSION,
            "kind": self.kind.value,
            "k": self.last_winnable,
            "line": " ".join(str(move) for move in self.winning_line),
            "calls": self.solver_calls,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
        }

    @classmethod
    def from_data(cls, data: Any, parse_move: Callable[[str], M]) -> Analysis[M] | None:
        """A stored finding read back; ``None`` when it is not one this version wrote."""
        if not isinstance(data, dict) or data.get("version") != ANALYSIS_VERSION:
            return None
        try:
            kind = Finding(data["kind"])
            k = data.get("k")
            line = tuple(parse_move(text) for text in str(data.get("line", "")).split())
            calls, nodes = int(data.get("calls", 0)), int(data.get("nodes", 0))
            seconds = float(data.get("seconds", 0.0))
        except (KeyError, ValueError, TypeError):
            return None
        if (kind is Finding.SLIPPED) != (isinstance(k, int) and k >= 0 and bool(line)):
            return None
        return cls(kind, k if kind is Finding.SLIPPED else None, line, calls, nodes, seconds)


@dataclass
class _Line(Generic[P, M]):
    """The game's positions and what is known of each: a winning line, or lost."""

    game: type[Game[P, M]]
    positions: list[P]
    budget: int | None
    deadline: float | None
    wins: dict[int, tuple[M, ...]] = field(default_factory=dict)
    lost: set[int] = field(default_factory=set)
    undecided: set[int] = field(default_factory=set)
    calls: int = 0
    nodes: int = 0

    def probe(self, i: int) -> Verdict:
        result = self.game.solve_position(self.positions[i], self.budget, self.deadline)
        self.calls += 1
        self.nodes += result.nodes
        if result.verdict is Verdict.WON:
            self._learn(i, result.line)
        elif result.verdict is Verdict.NO_WIN:
            self.lost.add(i)
        else:
            self.undecided.add(i)
        return result.verdict

    def _learn(self, i: int, line: tuple[M, ...]) -> None:
        """Position ``i`` is won by ``line``; so is every later position of the game on it."""
        self.wins[i] = line
        along: dict[P, int] = {}
        position = self.positions[i]
        for step, move in enumerate(line):
            position = self.game.result(position, move)
            along.setdefault(position, step + 1)
        for j in range(i + 1, len(self.positions)):
            rest = along.get(self.positions[j])
            if rest is not None:
                self.wins[j] = line[rest:]


def line_positions(game: type[Game[P, M]], start: P, moves: Sequence[M]) -> list[P]:
    """The positions along ``moves`` from ``start`` (``moves + 1`` of them).

    :raises IllegalMoveError: when a move is not legal where it is played.
    """
    positions = [start]
    for move in moves:
        positions.append(game.apply(positions[-1], move))
    return positions


def analyse(
    game: type[Game[P, M]],
    start: P,
    moves: Sequence[M],
    budget: int | None = None,
    deadline: float | None = None,
) -> Analysis[M]:
    """Find where the win slipped away along ``moves`` (binary search).

    ``budget`` bounds each solver call (positions), ``deadline`` (``time.monotonic()``) the
    whole analysis. When the line's last position is winnable (the game has not ended lost),
    the answer is ``UNDECIDED``: there is nothing to find.

    :raises IllegalMoveError: when a move is not legal where it is played.
    """
    started = time.monotonic()
    known = _Line(game, line_positions(game, start, moves), budget, deadline)
    lo, hi = -1, len(moves) + 1  # lo: winnable (or none yet); hi: lost (or none yet)
    try:
        while hi - lo > 1:
            settled = [i for i in range(lo + 1, hi) if i in known.wins]
            if settled:
                lo = max(settled)
                continue
            open_ = [i for i in range(lo + 1, hi) if i not in known.undecided]
            if not open_:
                break
            middle = (lo + hi) / 2
            i = min(open_, key=lambda j: (abs(j - middle), j))
            verdict = known.probe(i)
            if verdict is Verdict.NO_WIN:
                hi = i
    finally:
        game.forget_searches()  # what the solver kept between this analysis's calls
    return _conclude(known, lo, hi, len(moves), started)


def analyse_linearly(
    game: type[Game[P, M]], start: P, moves: Sequence[M], budget: int | None = None
) -> Analysis[M]:
    """The same finding by solving every position from the end back (a check for tests)."""
    started = time.monotonic()
    known = _Line(game, line_positions(game, start, moves), budget, None)
    hi = len(moves) + 1
    for i in range(len(moves), -1, -1):
        verdict = known.probe(i) if i not in known.wins else Verdict.WON
        if verdict is Verdict.WON:
            return _conclude(known, i, hi, len(moves), started)
        if verdict is Verdict.UNDECIDED:
            return _conclude(known, -1, len(moves) + 1, len(moves), started)
        hi = i
    return _conclude(known, -1, hi, len(moves), started)


def _conclude(known: _Line[P, M], lo: int, hi: int, n: int, started: float) -> Analysis[M]:
    effort = (known.calls, known.nodes, time.monotonic() - started)
    if hi == lo + 1 and lo == -1 and 0 in known.lost:
        return Analysis(Finding.CANNOT_WIN, None, (), *effort)
    if hi == lo + 1 and 0 <= lo < n and hi in known.lost:
        return Analysis(Finding.SLIPPED, lo, known.wins[lo], *effort)
    return Analysis(Finding.UNDECIDED, None, (), *effort)


__all__ = [
    "ANALYSIS_VERSION",
    "Analysis",
    "Finding",
    "analyse",
    "analyse_linearly",
    "line_positions",
]
