"""Every game's :meth:`Game.walk` against the rules' own loop (issue 44).

A pasted line is checked whole by ``Game.walk``; Seahaven's walks one board changed in place
(:func:`app.engine.seahaven.rules.walk`), not a new immutable position per move. These tests
hold every game's walk to :func:`app.engine.game.walk_by_rules` — ``check`` then ``result``,
move after move — over random lines (legal moves, moves of other positions, moves no board has)
and real ones (solvers' wins, a 5,000-move game, a refused move anywhere in it): the same
refusal at the same move, and with ``every=1`` the same position after every move.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.codes import MAX_NUMBER, DealCode
from app.engine.game import MAX_RECORD_MOVES, Game, Walk, walk_by_rules
from app.engine.games import GAMES
from app.engine.halfmoon import HalfMoon
from app.engine.halfmoon import deal as half_moon_deal
from app.engine.halfmoon.solver import solve as solve_half_moon
from app.engine.seahaven import Move, Seahaven
from app.engine.seahaven.solver import solve_code

AnyGame = type[Game[Any, Any]]
ROOT = Path(__file__).resolve().parents[2]


def positions(walked: Walk[Any]) -> list[Any]:
    return [walked.snapshot(k) for k in range(len(walked.kept))]


def assert_same_walk(game: AnyGame, start: Any, moves: list[Any], every: int = 1) -> Walk[Any]:
    """``game.walk`` and the rules' loop agree: refused move, refusal, every snapshot."""
    walked = game.walk(start, moves, every)
    expected = walk_by_rules(game, start, moves, every)
    assert (walked.refused, walked.refusal) == (expected.refused, expected.refusal)
    assert positions(walked) == positions(expected)
    return walked


def odd_seahaven_moves(draw: random.Random) -> Move:
    """A move no rule would allow, or one the notation cannot write: places past the board or
    on no board of this variant, no card, more cards than a run has."""
    return Move(draw.randrange(-2, 20), draw.randrange(0, 15), draw.randrange(-2, 20))


def random_line(game: AnyGame, code: DealCode, draw: random.Random, length: int) -> list[Any]:
    """Mostly legal moves (each drawn from the position reached), sometimes a move of an
    earlier position or one the rules know nothing of; past a refusal, anything."""
    position = game.deal(code)
    seen: list[Any] = []
    moves: list[Any] = []
    for _ in range(length):
        legal = list(game.generate(position))
        roll = draw.random()
        if legal and roll < 0.85:
            move = draw.choice(legal)
        elif seen and roll < 0.95:
            move = draw.choice(seen)
        elif game is Seahaven:
            move = odd_seahaven_moves(draw)
        elif seen:
            move = draw.choice(seen)
        else:
            break
        seen.append(move)
        moves.append(move)
        if game.check(position, move) is None:
            position = game.result(position, move)
    return moves


@pytest.mark.parametrize("game", list(GAMES.values()), ids=list(GAMES))
def test_a_walk_of_random_lines_is_the_rules_own(game: AnyGame) -> None:
    draw = random.Random(44)
    for variant in game.variants:
        for _ in range(12):
            code = DealCode(game.game_id, 1, variant.code, draw.randrange(MAX_NUMBER))
            moves = random_line(game, code, draw, draw.randrange(1, 300))
            for every in (1, 7, 32):
                assert_same_walk(game, game.deal(code), moves, every)


@settings(max_examples=60, deadline=None)
@given(
    variant=st.sampled_from(["C4", "C2", "C1"]),
    number=st.integers(0, MAX_NUMBER),
    picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=150),
    start_after=st.integers(0, 60),
)
def test_a_seahaven_walk_from_any_position_is_the_rules_own(variant, number, picks, start_after):
    """From a deal or a position part way through a game (cards on the foundations, cells
    full, columns emptied): a move drawn from the position's legal moves (take-backs
    included), a move of an earlier position or an odd one, and every position compared."""
    code = DealCode("SH", 1, variant, number)
    draw = random.Random(number)
    start = Seahaven.deal(code)
    for pick in picks[:start_after]:
        legal = list(Seahaven.generate(start))
        if not legal:
            break
        start = Seahaven.result(start, legal[pick % len(legal)])
    position, moves = start, []
    for pick in picks:
        legal = list(Seahaven.generate(position))
        if legal and pick % 10:
            move = legal[pick % len(legal)]
        elif moves and pick % 3:
            move = moves[pick % len(moves)]
        else:
            move = odd_seahaven_moves(draw)
        moves.append(move)
        if Seahaven.check(position, move) is None:
            position = Seahaven.result(position, move)
    assert_same_walk(Seahaven, start, moves)


def test_the_solvers_wins_walk_as_the_rules_do() -> None:
    """Three deals of each cell count proved winnable (app/data/winnable.json), their
    solver's line; Half Moon's solver's too."""
    table = json.loads((ROOT / "app" / "data" / "winnable.json").read_text())
    for variant in ("C4", "C2", "C1"):
        for number in table[f"SH-{variant}"]["deals"][:3]:
            code = DealCode("SH", 1, variant, number)
            line = list(solve_code(code).line)
            walked = assert_same_walk(Seahaven, Seahaven.deal(code), line)
            assert walked.refused is None and walked.snapshot(len(walked.kept) - 1).is_won()
    for text in ("HM1-N-AAAAAAB", "HM1-N-AAAAAAC"):
        code = DealCode.parse(text)
        line = list(solve_half_moon(half_moon_deal(code)).line)
        assert_same_walk(HalfMoon, HalfMoon.deal(code), line)


def every_move_of_the_notation() -> list[Move]:
    """One card from any place to any other, a run of 2–13 cards between any two columns,
    and a few the rules know nothing of."""
    places = range(18)
    single = [Move(s, 1, t) for s in places for t in places if s != t]
    runs = [Move(s, n, t) for s in range(10) for t in range(10) if s != t for n in range(2, 14)]
    odd = [Move(0, 1, 0), Move(3, 0, 4), Move(15, 2, 16), Move(10, 2, 3), Move(2, 2, 11)]
    return [*single, *runs, *odd]


def positions_along(code: DealCode, line: list[Any], count: int) -> list[Any]:
    position, reached = Seahaven.deal(code), []
    for move in line:
        if Seahaven.check(position, move) is None:
            position = Seahaven.result(position, move)
            reached.append(position)
    return reached[:: max(1, len(reached) // count)]


def test_every_move_in_many_positions_is_judged_as_the_rules_judge_it() -> None:
    """Positions along solvers' wins of each variant (empty columns, foundations built, full
    cells) and after random play: every move the notation can write, alone, walked."""
    draw = random.Random(5)
    reached = []
    for text in ("SH1-C4-AAAAAJ2", "SH1-C4-AAAAAAB", "SH1-C2-AAMSGIZ", "SH1-C1-AMSQVSX"):
        code = DealCode.parse(text)
        found = solve_code(code)
        reached += positions_along(code, list(found.line), 12)
        reached += positions_along(code, random_line(Seahaven, code, draw, 80), 4)
    assert len(reached) > 60 and {len(p.cells) for p in reached} == {1, 2, 4}
    assert any(not column for p in reached for column in p.columns)
    assert any(p.foundations != (0, 0, 0, 0) for p in reached)
    moves = every_move_of_the_notation()
    for position in reached:
        for move in moves:
            assert_same_walk(Seahaven, position, [move])


def long_game() -> tuple[DealCode, list[Move]]:
    """5,000 moves: a card moved round the cells, then the solver's win (as bench_replay)."""
    code = DealCode.parse("SH1-C4-AAAAAJ2")
    line = list(solve_code(code).line)
    pairs = (MAX_RECORD_MOVES - len(line)) // 2
    return code, [*[Move.parse(m) for m in ("km", "mk")] * pairs, *line]


@pytest.mark.parametrize("refused_at", [None, 0, 1, 31, 32, 2500, 4997, 4998])
def test_a_5000_move_line_walks_as_the_rules_do_whatever_move_is_refused(refused_at) -> None:
    """The longest line a game may have, whole, or with one move the rules refuse put in at a
    snapshot, next to one, in the shuffle or in the solver's win: each refused move one card
    between two places of the board (what the walk settles itself)."""
    code, moves = long_game()
    start = Seahaven.deal(code)
    if refused_at is not None:
        position = start
        for move in moves[:refused_at]:
            position = Seahaven.result(position, move)
        refused = [
            move
            for move in (Move(s, 1, t) for s in range(18) for t in range(18) if s != t)
            if Seahaven.check(position, move) is not None
        ]
        moves[refused_at] = random.Random(refused_at).choice(refused)
    walked = assert_same_walk(Seahaven, start, moves, every=32)
    assert walked.refused == refused_at
