"""What the solvers of both games answer: a verdict, a winning line when there is one, effort."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Generic, TypeVar

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
