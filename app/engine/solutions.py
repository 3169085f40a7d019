"""What the solvers of both games answer: a verdict, a winning line when there is one, effort."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Generic, NamedTuple, TypeVar

M = TypeVar("M")


class Verdict(Enum):
    WON = "won"
    """A winning line was found (and is given)."""
    NO_WIN = "no win"
    """Every line was searched: the position cannot be won."""
    UNDECIDED = "undecided"
    """The node budget ran out first."""


@dataclass(frozen=True, slots=True)
class SolveResult(Generic[M]):
    verdict: Verdict
    line: tuple[M, ...] = ()
    nodes: int = 0

    @property
    def is_decided(self) -> bool:
        return self.verdict is not Verdict.UNDECIDED


class Solution(NamedTuple):
    """A deal solved for the command line (``python -m app.engine.solve_cli``)."""

    verdict: Verdict
    nodes: int
    """Positions the solver expanded."""
    steps: tuple[str, ...]
    """The winning line, one move a line as a player reads it (empty without a win)."""
