"""Half Moon winnability as a satisfiability problem: the proof the search cannot finish.

A position is won exactly when its cards can be given removal times such that

* each pile's cards go from the top down: a card's time is later than the card's above it;
* at every time, as many cards of each rank have gone as of its partner rank (A and 10 … 5 and
  6), and as many jacks as queens as kings.

Such times give a winning line: the cards of one rank and of its partner, each sorted by time,
pair up at equal times (the counts agree at every time), so do the jacks, queens and kings; the
groups in order of time are removals, each card playable at its time (the cards over it went
earlier), groups of one time sharing no pile. A winning line gives such times (the move number).
Times run from 1 to the number of groups left, a card under *d* cards no earlier than *d* + 1 and
a card over *b* cards no later than the last time minus *b*.

The encoding: one variable "time ≤ v" per card and time (the order encoding); the counts as
totalizers whose outputs "at least *n* have gone by time v" are made equal between partner ranks.
There are no variables for who pairs with whom: matchings would make the solver refute every
permutation of a pigeonhole, counts let it reason with numbers. Identical reserve cards are
interchangeable, so they take their times in order (symmetry breaking). A SAT solver (Glucose 4,
through python-sat) finds times or proves there are none.

Every answer is checked: a line from the solver's times is replayed through the rules to a won
position before it is returned (an encoding mistake fails loudly, never claims a win it cannot
show). ``tests/engine/test_halfmoon_proof.py`` holds the verdicts to the unpruned search.
"""

from __future__ import annotations

import itertools
import threading
import time
from typing import Final

from pysat.solvers import Solver  # type: ignore[import-untyped]

from app.engine.cards import JACK, KING, QUEEN
from app.engine.halfmoon.rules import PILES, Position, Removal, apply_move
from app.engine.solutions import SolveResult, Verdict

SAT_SOLVER: Final = "glucose4"
"""python-sat's name of the solver: the fastest of six tried on deals and analysis positions."""

Literal = int | bool
"""A DIMACS literal, or a constant folded away."""


class _Formula:
    """The clauses of one position; ``cards`` are (rank, place, cards over it, cards under it)."""

    def __init__(self, cards: list[tuple[int, int, int, int]], groups: int) -> None:
        self.cards = cards
        self.clauses: list[list[int]] = []
        self.top = 0
        self.lo = [above + 1 for _, _, above, _ in cards]
        self.hi = [groups - below for _, _, _, below in cards]
        self.groups = groups
        # le[c][v - lo[c]] is "time(c) <= v" for lo[c] <= v < hi[c] (time(c) <= hi[c] holds).
        self.le: list[list[int]] = []
        for c in range(len(cards)):
            literals = [self.new() for _ in range(self.lo[c], self.hi[c])]
            self.le.append(literals)
            self.clauses += [[-a, b] for a, b in itertools.pairwise(literals)]

    def new(self) -> int:
        self.top += 1
        return self.top

    def at_most(self, c: int, v: int) -> Literal:
        """ "time(c) <= v", or the constant it is outside the card's range."""
        if v < self.lo[c]:
            return False
        if v >= self.hi[c]:
            return True
        return self.le[c][v - self.lo[c]]

    def clause(self, literals: list[Literal]) -> None:
        """Add the disjunction of ``literals`` (constants folded)."""
        kept: list[int] = []
        for x in literals:
            if x is True:  # ``is``, not ``==`` or ``in``: True == 1, a variable
                return
            if x is not False:
                kept.append(x)
        self.clauses.append(kept)

    def no_later(self, a: int, b: int, gap: int = 0) -> None:
        """time(a) + gap <= time(b)."""
        for v in range(self.lo[b], self.hi[b] + 1):
            self.clause([_not(self.at_most(b, v)), self.at_most(a, v - gap)])

    def counts(self, cards: list[int], v: int) -> list[Literal]:
        """``result[n]``: "at least n of ``cards`` have gone by time v" (n = 0 … len)."""
        leaves = [self.at_most(c, v) for c in cards]
        surely = sum(x is True for x in leaves)
        open_ = [x for x in leaves if not isinstance(x, bool)]
        counted: list[Literal] = self._count([[True, x] for x in open_]) if open_ else [True]
        return [True] * surely + counted + [False] * (len(cards) - surely - len(open_))

    def _count(self, parts: list[list[Literal]]) -> list[Literal]:
        """A totalizer, both ways: outputs equal to "at least n" of the leaves' counts."""
        while len(parts) > 1:
            merged = [self._merge(a, b) for a, b in zip(parts[::2], parts[1::2], strict=False)]
            parts = merged + ([parts[-1]] if len(parts) % 2 else [])
        return parts[0]

    def _merge(self, a: list[Literal], b: list[Literal]) -> list[Literal]:
        p, q = len(a) - 1, len(b) - 1
        out: list[Literal] = [True]
        for n in range(1, p + q + 1):
            # At least n in all: some split i + j = n with at least i in a and at least j in b.
            splits = [(a[i], b[n - i]) for i in range(max(0, n - q), min(p, n) + 1)]
            if any(x is True and y is True for x, y in splits):
                out.append(True)
            elif all(x is False or y is False for x, y in splits):
                out.append(False)
            else:
                out.append(self.new())
        a_ = [*a, False]
        b_ = [*b, False]
        not_a = [_not(x) for x in a_]
        not_b = [_not(x) for x in b_]
        not_out = [_not(x) for x in out]
        clause = self.clause
        for i in range(p + 1):
            for j in range(q + 1):
                if i + j:
                    clause([not_a[i], not_b[j], out[i + j]])
                if i + j < p + q:
                    clause([a_[i + 1], b_[j + 1], not_out[i + j + 1]])
        return out

    def same(self, x: Literal, y: Literal) -> None:
        if x is y:
            return
        self.clause([_not(x), y])
        self.clause([x, _not(y)])


def _not(x: Literal) -> Literal:
    return (not x) if isinstance(x, bool) else -x


def _cards(position: Position) -> list[tuple[int, int, int, int]]:
    cards = []
    for p, pile in enumerate(position.piles):
        for i, card in enumerate(pile):
            cards.append((card.rank, p, len(pile) - 1 - i, i))
    for slot, held in enumerate(position.reserve):
        if held is not None:
            cards.append((held.rank, PILES + slot, 0, 0))
    return cards


_PARTNERS: Final = (*((r, 11 - r) for r in range(1, 6)), (JACK, QUEEN), (QUEEN, KING))


def prove(position: Position, deadline: float | None = None) -> SolveResult[Removal]:
    """Decide ``position`` by satisfiability: ``WON`` with a line, ``NO_WIN``, or ``UNDECIDED``
    when ``time.monotonic()`` passes ``deadline`` first.

    >>> from app.engine.codes import DealCode
    >>> from app.engine.halfmoon import deal
    >>> prove(deal(DealCode.parse("HM1-N-AAAAABK"))).verdict.value  # deal 42
    'no win'
    """
    cards = _cards(position)
    if not cards:
        return SolveResult(Verdict.WON)
    by_rank: list[list[int]] = [[] for _ in range(14)]
    for c, (rank, _, _, _) in enumerate(cards):
        by_rank[rank].append(c)
    if any(len(by_rank[a]) != len(by_rank[b]) for a, b in _PARTNERS):
        return SolveResult(Verdict.NO_WIN)  # a card without its partners never goes
    groups = sum(len(by_rank[r]) for r in range(1, 6)) + len(by_rank[JACK])
    formula = _Formula(cards, groups)
    if any(lo > hi for lo, hi in zip(formula.lo, formula.hi, strict=True)):
        return SolveResult(Verdict.NO_WIN)
    for c in range(1, len(cards)):
        if cards[c][1] == cards[c - 1][1] < PILES:  # a pile is listed bottom to top
            formula.no_later(c, c - 1, gap=1)
    for rank in range(1, 14):
        kept = [c for c in by_rank[rank] if cards[c][1] >= PILES]
        for a, b in itertools.pairwise(kept):
            formula.no_later(a, b)
    for v in range(1, groups):
        counts = {rank: formula.counts(by_rank[rank], v) for rank in range(1, 14)}
        for left, right in _PARTNERS:
            for x, y in zip(counts[left], counts[right], strict=True):
                formula.same(x, y)
    answer = _run(formula, deadline)
    if answer is None:
        return SolveResult(Verdict.UNDECIDED)
    if isinstance(answer, bool):
        return SolveResult(Verdict.NO_WIN)
    return SolveResult(Verdict.WON, _line(position, formula, answer, by_rank))


def _run(formula: _Formula, deadline: float | None) -> set[int] | bool | None:
    """The true variables of a model, ``False`` when there is none, ``None`` out of time."""
    with Solver(name=SAT_SOLVER, bootstrap_with=formula.clauses) as solver:
        if deadline is None:
            found = solver.solve()
        else:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            timer = threading.Timer(left, solver.interrupt)
            timer.start()
            try:
                found = solver.solve_limited(expect_interrupt=True)
            finally:
                timer.cancel()
        if found is None:
            return None
        if not found:
            return False
        return {literal for literal in solver.get_model() if literal > 0}


def _line(
    position: Position, formula: _Formula, true: set[int], by_rank: list[list[int]]
) -> tuple[Removal, ...]:
    """The removals the model's times give, replayed to a win to check them."""
    cards = formula.cards

    def time_of(c: int) -> int:
        return next(
            (v for v in range(formula.lo[c], formula.hi[c]) if formula.at_most(c, v) in true),
            formula.hi[c],
        )

    def in_time(rank: int) -> list[tuple[int, int]]:
        return sorted((time_of(c), cards[c][1]) for c in by_rank[rank])

    groups: list[tuple[int, tuple[int, ...]]] = []
    for rank in range(1, 6):
        for (t, a), (_, b) in zip(in_time(rank), in_time(11 - rank), strict=True):
            groups.append((t, (a, b)))
    for (t, j), (_, q), (_, k) in zip(in_time(JACK), in_time(QUEEN), in_time(KING), strict=True):
        groups.append((t, (j, q, k)))
    groups.sort()
    line = tuple(Removal(places) for _, places in groups)
    for removal in line:
        position = apply_move(position, removal)
    if not position.is_won():
        raise AssertionError(f"the proof's line does not win: {line}")
    return line
