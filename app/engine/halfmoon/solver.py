"""An exact Half Moon solver: depth-first search over removals with memoised dead positions.

Only ranks matter in Half Moon (suits never do), and a pile only ever loses its top card, so a
position is fully described by the twelve pile heights and the multiset of reserve ranks. That
key makes identical cards interchangeable: the two 5♠ of the reserve, or a 5♠ and a 5♥, are one
choice, not two, and positions reached in different orders are searched once.

One dominance rule cuts the branching further: when a pile shows a card of rank r, taking a
rank-r card from the reserve instead is never better. The position after taking the pile's card
has every card the other position has playable (the reserve keeps a card of the same rank in
place of the pile's), plus the card uncovered beneath it; any winning line from the other
position can be copied move for move, using the kept reserve card where it used the pile's.

Two more cuts prove dead positions early; neither changes a verdict or the line found (they
skip only positions without a win). Each class alone and each two classes together, the other
cards taken away whenever they are in the way, must still be clearable (``_Relaxed``: small
searches, remembered); and the dead positions one call proves serve the next call on the same
piles (``_Memo``: the analysis of a game solves several of its positions).

A tool for tests, analysis and the browser tests; never offered in the game screens.
"""

from __future__ import annotations

import sys
import threading
import time
from itertools import combinations
from typing import Final

from app.engine.cards import JACK, KING, QUEEN
from app.engine.halfmoon.proof import prove
from app.engine.halfmoon.rules import PILES, PLACES, Position, Removal, apply_move
from app.engine.solutions import SolveResult, Verdict

DEFAULT_BUDGET: Final = 200_000
"""Positions expanded before the search answers *undecided* (or, ``exact``, hands over)."""
SEARCH_FIRST: Final = 2_000
"""Positions the search expands before the proof takes over (``exact``): most deals and most
positions of ended games are won sooner; the rest cost the search far more than the proof."""

Source = int
"""A pile 0 … 11, or ``_RESERVE + rank`` for "a reserve card of that rank"."""
_RESERVE: Final = 100
_PAIRS: Final = tuple((r, 11 - r) for r in range(1, 6))
_CLASS: Final = (0, *(min(r, 11 - r) - 1 for r in range(1, 11)), 5, 5, 5)
"""Rank → class: 0 … 4 for the pairs A+10 … 5+6, 5 for the faces."""
_CLASS_RANKS: Final = (*_PAIRS, (JACK, QUEEN, KING))


class _OutOfBudgetError(Exception):
    pass


_HEIGHT_BITS: Final = 4
_RESERVE_SHIFT: Final = PILES * _HEIGHT_BITS
_WEIGHT: Final = tuple(
    1 << (_HEIGHT_BITS * s)
    if s < PILES
    else 1 << (_RESERVE_SHIFT + _HEIGHT_BITS * (s - _RESERVE))
    if s > _RESERVE
    else 0
    for s in range(_RESERVE + 14)
)
"""A source's weight in the position key: the key is the heights and the reserve counts, four
bits each, as one integer (kept up to date move by move)."""
RELAX_AFTER = 1000
"""Positions searched before the relaxations are tested: most deals are won sooner, and for
them the relaxations would cost more than they save."""
MEMO_LIMIT: Final = 1_000_000
"""Dead positions kept between solver calls (about 70 bytes each)."""


class _Memo:
    """Dead positions, kept from one call to the next while the positions solved share piles.

    A key is the pile heights and the reserve counts; it names one position as long as the
    piles it counts into are the same cards. The positions of one game keep the deal's piles,
    each cut to a prefix, so every position of the game (and the analysis solves several) can
    use the dead positions an earlier call proved: ``piles`` holds each pile at its longest
    seen, and a position whose piles are not prefixes of them (or the reverse) starts afresh.
    """

    def __init__(self, piles: list[tuple[int, ...]]) -> None:
        self.piles = piles
        self.dead: set[int] = set()
        # The relaxations (see _Relaxed): each class alone and each two classes together.
        self.relaxed = [
            _Relaxed(piles, classes)
            for classes in [(k,) for k in range(6)] + list(combinations(range(6), 2))
        ]

    def size(self) -> int:
        return len(self.dead) + sum(len(relaxed.cache) for relaxed in self.relaxed)

    def adopt(self, piles: list[tuple[int, ...]]) -> bool:
        """Take in a position's piles if they agree with ours; ``False`` when they do not."""
        merged = []
        for mine, theirs in zip(self.piles, piles, strict=True):
            if len(mine) >= len(theirs):
                if mine[: len(theirs)] != theirs:
                    return False
                merged.append(mine)
            else:
                if theirs[: len(mine)] != mine:
                    return False
                merged.append(theirs)
        if merged != self.piles:
            self.piles = merged
            for relaxed in self.relaxed:
                relaxed.cut(merged)
        return True


_memos = threading.local()


def forget() -> None:
    """Drop the dead positions this thread keeps between calls (:class:`_Memo`)."""
    _memos.memo = None


def _memo_for(piles: list[tuple[int, ...]], keep: bool) -> _Memo:
    if not keep:
        return _Memo(piles)
    memo: _Memo | None = getattr(_memos, "memo", None)
    if memo is None or memo.size() > MEMO_LIMIT or not memo.adopt(piles):
        memo = _Memo(piles)
        _memos.memo = memo
    return memo


def solve(
    position: Position,
    budget: int = DEFAULT_BUDGET,
    deadline: float | None = None,
    *,
    keep: bool = True,
    prune: bool = True,
    deep_first: bool = False,
    exact: bool = False,
) -> SolveResult[Removal]:
    """Decide whether ``position`` can be cleared, with a winning line when it can.

    ``NO_WIN`` only when the search ran to its end; ``UNDECIDED`` when more than ``budget``
    positions would be needed or ``time.monotonic()`` passed ``deadline`` first.
    ``exact``: when the search runs out of ``budget``, satisfiability decides
    (:func:`app.engine.halfmoon.proof.prove`, bounded by ``deadline`` alone).

    ``keep``: use and add to the dead positions earlier calls proved on the same piles (see
    ``_Memo``); ``prune``: refuse positions a relaxation cannot clear (see ``_Relaxed``);
    ``deep_first``: try the moves from the tallest piles first (faster to a win, and what the
    analysis of ended games uses; the default order keeps the lines the tests and examples
    know). None of them changes a verdict, only the effort.

    >>> from app.engine.codes import DealCode
    >>> from app.engine.halfmoon import deal
    >>> result = solve(deal(DealCode.parse("HM1-N-AAAAAAB")))
    >>> result.verdict.value, len(result.line)
    ('won', 48)
    """
    search = _Search(position, budget, deadline, keep=keep, prune=prune, deep_first=deep_first)
    try:
        won = search.run()
    except _OutOfBudgetError:
        if exact and (deadline is None or time.monotonic() < deadline):
            proved = prove(position, deadline)
            return SolveResult(proved.verdict, proved.line, search.nodes)
        return SolveResult(Verdict.UNDECIDED, nodes=search.nodes)
    if not won:
        return SolveResult(Verdict.NO_WIN, nodes=search.nodes)
    return SolveResult(Verdict.WON, _to_removals(position, search.line), search.nodes)


class _Relaxed:
    """A few classes alone, the other cards vanishing when in the way: can their cards all go?

    A necessary condition: any winning line, its other removals left out, clears these classes
    here, where a card is playable as soon as the cards of these classes above it are gone.
    A position of the relaxed game is its key: the classes' cards left in each pile and each
    of their ranks in the reserve, four bits each, weighted as in the full position's key (so
    a move changes both keys alike). Answers are remembered; a search longer than ``limit``
    positions answers yes (no proof, so no pruning).
    """

    def __init__(
        self, piles: list[tuple[int, ...]], classes: tuple[int, ...], limit: int = 300
    ) -> None:
        self.classes = classes
        self.ranks = tuple(r for k in classes for r in _CLASS_RANKS[k])
        self.groups = tuple(_CLASS_RANKS[k] for k in classes)
        self.cache: dict[int, bool] = {}
        self.limit = limit
        self.steps = 0
        self.cut(piles)

    def cut(self, piles: list[tuple[int, ...]]) -> None:
        """The classes' cards of each pile (longer piles keep the answers: keys count prefixes)."""
        self.seq = [tuple(r for r in pile if r in self.ranks) for pile in piles]

    def clears(self, key: int) -> bool:
        known = self.cache.get(key)
        if known is not None:
            return known
        self.steps = 0
        try:
            return self._search(key)
        except _OutOfBudgetError:
            self.cache[key] = True
            return True

    def _search(self, key: int) -> bool:
        known = self.cache.get(key)
        if known is not None:
            return known
        if not key:
            return True
        self.steps += 1
        if self.steps > self.limit:
            raise _OutOfBudgetError
        tops: dict[int, list[int]] = {r: [] for r in self.ranks}
        for p, seq in enumerate(self.seq):
            c = (key >> (_HEIGHT_BITS * p)) & 15
            if c:
                tops[seq[c - 1]].append(p)
        sources = {
            r: tops[r] or ([_RESERVE + r] if key & (15 * _WEIGHT[_RESERVE + r]) else [])
            for r in self.ranks
        }
        found = False
        for group in self.groups:
            weights = [0]
            for r in group:
                weights = [w + _WEIGHT[s] for w in weights for s in sources[r]]
            for w in weights:
                if self._search(key - w):
                    found = True
                    break
            if found:
                break
        self.cache[key] = found
        return found


class _Search:
    def __init__(
        self,
        position: Position,
        budget: int,
        deadline: float | None = None,
        *,
        keep: bool = True,
        prune: bool = True,
        deep_first: bool = False,
    ) -> None:
        ranks = [tuple(card.rank for card in pile) for pile in position.piles]
        self.memo = _memo_for(ranks, keep)
        self.piles = self.memo.piles
        self.dead = self.memo.dead
        self.prune = prune
        self.relax_after = RELAX_AFTER
        self.deep_first = deep_first
        self.heights = [len(pile) for pile in ranks]
        self.reserve = [0] * 14  # reserve cards by rank
        for card in position.reserve:
            if card is not None:
                self.reserve[card.rank] += 1
        self.left = sum(self.heights) + sum(self.reserve)
        self.key = sum(h * _WEIGHT[p] for p, h in enumerate(self.heights)) + sum(
            n * _WEIGHT[_RESERVE + r] for r, n in enumerate(self.reserve) if r
        )
        # Cards of each class (the five complementary pairs, the faces) left in each pile and
        # in all; see _is_blocked.
        self.in_pile = [[0] * PILES for _ in range(6)]
        self.in_all = [0] * 6
        for p, h in enumerate(self.heights):
            for rank in self.piles[p][:h]:
                self.in_pile[_CLASS[rank]][p] += 1
                self.in_all[_CLASS[rank]] += 1
        for rank, n in enumerate(self.reserve):
            if n:
                self.in_all[_CLASS[rank]] += n
        # The relaxations' keys, and for each class the indexes of those it takes part in.
        self.relaxed = self.memo.relaxed if prune else []
        self.relaxed_keys: list[int] = []
        self.relaxed_of: list[list[int]] = [[] for _ in range(6)]
        for i, relaxed in enumerate(self.relaxed):
            classes = relaxed.classes
            for k in classes:
                self.relaxed_of[k].append(i)
            self.relaxed_keys.append(
                sum(
                    _WEIGHT[_RESERVE + r] * self.reserve[r]
                    for k in classes
                    for r in _CLASS_RANKS[k]
                )
                + sum(_WEIGHT[p] * self.in_pile[k][p] for k in classes for p in range(PILES))
            )
        self.budget = budget
        self.deadline = deadline
        self.nodes = 0
        self.line: list[tuple[Source, ...]] = []

    def run(self) -> bool:
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 1000))
        try:
            if self.left == 0:
                return True
            if any(self._is_blocked(k) for k in range(6)):
                return False
            return self._dfs()
        finally:
            sys.setrecursionlimit(limit)

    def _sources(self, tops: list[list[int]], rank: int) -> list[Source]:
        if tops[rank]:
            return tops[rank]
        return [_RESERVE + rank] if self.reserve[rank] else []

    def _moves(self) -> list[tuple[Source, ...]]:
        tops: list[list[int]] = [[] for _ in range(14)]
        piles, heights = self.piles, self.heights
        for p in range(PILES):
            h = heights[p]
            if h:
                tops[piles[p][h - 1]].append(p)
        forced = self._forced(tops)
        if forced is not None:
            return [forced]
        moves: list[tuple[Source, ...]] = []
        for a, b in _PAIRS:
            for x in self._sources(tops, a):
                for y in self._sources(tops, b):
                    moves.append((x, y))
        for j in self._sources(tops, JACK):
            for q in self._sources(tops, QUEEN):
                for k in self._sources(tops, KING):
                    moves.append((j, q, k))
        # Uncover pile cards first: moves that take more cards from piles go first; deep first,
        # among those, the moves that take from the tallest piles.
        if self.deep_first:
            heights = self.heights
            moves.sort(
                key=lambda m: (
                    -sum(s < _RESERVE for s in m),
                    -sum(heights[s] for s in m if s < _RESERVE),
                )
            )
        else:
            moves.sort(key=lambda m: -sum(s < _RESERVE for s in m))
        return moves

    def _forced(self, tops: list[list[int]]) -> tuple[Source, ...] | None:
        """A removal that cannot hurt, if there is one: it is then the only one tried.

        When every card left of a class is playable, removing them all at once is safe: they
        pair only among themselves, stay playable until removed, and taking them now only
        uncovers cards sooner. So one removal of that class is made without branching.
        """
        for k, ranks in enumerate(_CLASS_RANKS):
            left = self.in_all[k]
            if left and left == sum(len(tops[r]) + self.reserve[r] for r in ranks):
                return tuple(self._sources(tops, r)[0] for r in ranks)
        return None

    def _take(self, move: tuple[Source, ...], delta: int) -> int:
        """Remove (``delta`` −1) or put back (+1) the cards of ``move``; returns its class."""
        k = 0
        weight = 0
        for s in move:
            if s < _RESERVE:
                if delta < 0:
                    self.heights[s] -= 1
                    k = _CLASS[self.piles[s][self.heights[s]]]
                else:
                    k = _CLASS[self.piles[s][self.heights[s]]]
                    self.heights[s] += 1
                self.in_pile[k][s] += delta
            else:
                k = _CLASS[s - _RESERVE]
                self.reserve[s - _RESERVE] += delta
            weight += _WEIGHT[s]
        weight *= delta
        self.key += weight
        keys = self.relaxed_keys
        for i in self.relaxed_of[k]:
            keys[i] += weight
        self.in_all[k] += delta * len(move)
        self.left += delta * len(move)
        return k

    def _is_blocked(self, k: int) -> bool:
        """Can some pile never be cleared of class ``k``, whatever the order? (a cheap test)

        Two cards of one pile are never playable together, so every removal takes at most one
        card of a class from a given pile. With n removals of a class left, a pile holding more
        than n cards of that class can never be cleared (Hall's condition for the matching).
        """
        if max(self.in_pile[k]) > self.in_all[k] // (3 if k == 5 else 2):
            return True
        if self.nodes < self.relax_after:
            return False
        keys = self.relaxed_keys
        return not all(self.relaxed[i].clears(keys[i]) for i in self.relaxed_of[k])

    def _dfs(self) -> bool:
        """Search on from the current position, known not blocked and not known dead."""
        self.nodes += 1
        if self.nodes > self.budget or (
            self.deadline is not None and self.nodes & 255 == 1 and time.monotonic() > self.deadline
        ):
            raise _OutOfBudgetError
        dead = self.dead
        for move in self._moves():
            k = self._take(move, -1)
            if self.left == 0:
                self.line.append(move)
                return True
            if self.key not in dead and not self._is_blocked(k):
                self.line.append(move)
                if self._dfs():
                    return True
                self.line.pop()
            self._take(move, +1)
        dead.add(self.key)
        return False


def _to_removals(position: Position, line: list[tuple[Source, ...]]) -> tuple[Removal, ...]:
    """Turn rank-level moves into removals of real places, replaying them as it goes."""
    removals = []
    for move in line:
        places = []
        for s in move:
            if s < _RESERVE:
                places.append(s)
            else:
                places.append(
                    next(
                        p
                        for p in range(PILES, PLACES)
                        if p not in places
                        and (card := position.top(p)) is not None
                        and card.rank == s - _RESERVE
                    )
                )
        removal = Removal(places)
        position = apply_move(position, removal)
        removals.append(removal)
    return tuple(removals)
