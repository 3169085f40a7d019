"""Every pruning rule of both solvers against a search that prunes nothing, on small positions.

The reference searches every legal move of the rules (``Game.generate``) and remembers the
positions it has seen; nothing else, except that Seahaven's reference takes no card back from a
foundation (with take-backs all 52 cards come back into play and the search never ends; the
solver's argument that they never help is in its docstring). On a few hundred
small random positions the solvers must agree with it exactly, and every winning line must
replay through the rules to a win.
"""

from __future__ import annotations

import random

import pytest

from app.engine.analysis import line_positions
from app.engine.cards import SUITS, Card
from app.engine.halfmoon import PILES, HalfMoon
from app.engine.halfmoon import Position as HalfMoonPosition
from app.engine.seahaven import Seahaven
from app.engine.seahaven.rules import FOUNDATIONS
from app.engine.seahaven.rules import Position as SeahavenPosition
from app.engine.solutions import Verdict

CLASSES = ((1, 10), (2, 9), (3, 8), (4, 7), (5, 6), (11, 12, 13))


def same_board(position):
    """A position up to the order of Seahaven's columns and cells (which change no move)."""
    if isinstance(position, SeahavenPosition):
        cells = tuple(sorted(map(str, filter(None, position.cells))))
        return tuple(sorted(map(str, position.columns))), cells, position.foundations
    return position


def winnable(game, position) -> bool:
    """Unpruned: any legal move sequence from ``position`` that wins."""
    seen = {same_board(position)}
    stack = [position]
    while stack:
        here = stack.pop()
        if here.is_won():
            return True
        for move in game.generate(here):
            if isinstance(here, SeahavenPosition) and move.source in FOUNDATIONS:
                continue
            after = game.result(here, move)
            if same_board(after) not in seen:
                seen.add(same_board(after))
                stack.append(after)
    return False


def small_half_moon(rng: random.Random) -> HalfMoonPosition:
    """Two to four classes, one or two groups each, dealt to random piles and the reserve."""
    cards = []
    for ranks in rng.sample(CLASSES, rng.randint(2, 3)):
        for _ in range(rng.randint(1, 2)):
            cards += [Card(rank, rng.choice(SUITS)) for rank in ranks]
    rng.shuffle(cards)
    piles: list[list[Card]] = [[] for _ in range(PILES)]
    reserve: list[Card | None] = [None] * 8
    for card in cards:
        free = [i for i, slot in enumerate(reserve) if slot is None]
        if free and rng.random() < 0.15:
            reserve[rng.choice(free)] = card
        else:
            piles[rng.randrange(4)].append(card)  # few piles: deep, interlocked
    return HalfMoonPosition(tuple(tuple(p) for p in piles), tuple(reserve))


def small_half_moon_positions(count: int, seed: int):
    """``count`` small random positions and, after each, the positions a random line from it
    passes through."""
    rng = random.Random(seed)
    for _ in range(count):
        position = small_half_moon(rng)
        yield position
        while moves := list(HalfMoon.generate(position)):
            position = HalfMoon.result(position, rng.choice(moves))
            yield position


def small_seahaven(rng: random.Random) -> SeahavenPosition:
    """Foundations most of the way up; the rest of the cards in random columns and cells."""
    heights = tuple(rng.randint(8, 13) for _ in SUITS)
    rest = [Card(r, s) for s, h in zip(SUITS, heights, strict=True) for r in range(h + 1, 14)]
    rng.shuffle(rest)
    cells: list[Card | None] = [None] * rng.choice((1, 1, 2))
    columns: list[list[Card]] = [[] for _ in range(10)]
    for card in rest:
        free = [i for i, held in enumerate(cells) if held is None]
        if free and rng.random() < 0.2:
            cells[free[0]] = card
        else:
            columns[rng.randrange(2)].append(card)
    return SeahavenPosition(tuple(tuple(c) for c in columns), tuple(cells), heights)


@pytest.mark.parametrize(
    ("game", "make", "count"),
    [(HalfMoon, small_half_moon, 300), (Seahaven, small_seahaven, 200)],
)
def test_the_solver_agrees_with_an_unpruned_search_on_small_positions(game, make, count):
    rng = random.Random(33)
    verdicts = []
    for _ in range(count):
        position = make(rng)
        result = game.solve_position(position)
        assert result.verdict is not Verdict.UNDECIDED
        expected = Verdict.WON if winnable(game, position) else Verdict.NO_WIN
        assert result.verdict is expected, position
        if result.verdict is Verdict.WON:
            assert line_positions(game, position, result.line)[-1].is_won()
        verdicts.append(result.verdict)
    # both answers are met often enough for the agreement to mean something
    assert min(verdicts.count(Verdict.WON), verdicts.count(Verdict.NO_WIN)) >= count // 20
