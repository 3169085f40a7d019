"""The Half Moon solver: exact answers, lines that replay through taps, budgets."""

import random
import subprocess
import sys

import pytest

from app.engine.analysis import line_positions
from app.engine.codes import DealCode
from app.engine.halfmoon import WON_MOVES, WON_SCORE, HalfMoon, Outcome, deal, place_name, solver
from app.engine.halfmoon.solver import solve
from app.engine.solutions import Verdict

from .test_halfmoon_rules import table
from .test_solvers_exhaustive import small_half_moon, small_half_moon_positions, winnable


def test_a_solver_line_replayed_through_taps_wins_with_48_moves_and_520_points():
    code = DealCode.parse("HM1-N-AAAAAAB")
    result = solve(deal(code))
    assert result.verdict is Verdict.WON
    game = HalfMoon(code)
    for removal in result.line:
        outcomes = [game.tap(place_name(p), game.position.top(p), now=0).outcome for p in removal]
        assert outcomes[-1] is Outcome.REMOVED
        assert all(o is Outcome.SELECTED for o in outcomes[:-1])
    assert game.is_won()
    assert (game.move_count, game.score) == (WON_MOVES, WON_SCORE) == (48, 520)


def test_no_win_is_proved_for_a_blocked_position():
    # The 6 lies under the 5 in one pile, and there is no other 5 or 6.
    result = solve(table(["6D 5S", "AH", "10C"]))
    assert result.verdict is Verdict.NO_WIN


def test_a_cycle_between_two_piles_has_no_win():
    # 3 needs the 8 under the 6, and the 6 needs the 5 under the 3.
    result = solve(table(["5S 3S", "8H 6H"]))
    assert result.verdict is Verdict.NO_WIN


def test_the_budget_bounds_the_search():
    result = solve(deal(DealCode.parse("HM1-N-AAAAAAB")), budget=3)
    assert result.verdict is Verdict.UNDECIDED
    assert result.nodes == 4


def test_identical_reserve_cards_are_one_choice():
    # Two identical sixes in the reserve: both branches are the same position.
    position = table(["5S", "5S"], ["6D", "6D", None, None, None, None, None, None])
    result = solve(position)
    assert result.verdict is Verdict.WON and len(result.line) == 2


def test_the_command_line_prints_the_verdict_and_the_line():
    out = subprocess.run(
        [sys.executable, "-m", "app.engine.solve_cli", "hm1-n-aaaaaab"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.splitlines()[0].startswith("HM1-N-AAAAAAB: won in 48 moves")
    assert "  1. pile-" in out


# --- each pruning rule against the unpruned search (tests/engine/test_solvers_exhaustive.py) ---


@pytest.fixture(autouse=True)
def _relax_at_once(monkeypatch):
    """The relaxations from the first position on (small positions are solved sooner)."""
    monkeypatch.setattr(solver, "RELAX_AFTER", 0)


def test_each_relaxation_refuses_only_positions_the_unpruned_search_cannot_win():
    refused = 0
    for position in small_half_moon_positions(150, seed=4):
        search = solver._Search(position, 10, keep=False)
        won = winnable(HalfMoon, position)
        for relaxed, key in zip(search.relaxed, search.relaxed_keys, strict=True):
            if not relaxed.clears(key):
                refused += 1
                assert not won, (relaxed.classes, position)
        blocked = any(search._is_blocked(k) for k in range(6))
        assert not (blocked and won), position
    assert refused >= 50  # the rule is met often enough for the agreement to mean something


def test_the_hall_test_alone_refuses_only_positions_the_unpruned_search_cannot_win():
    for position in small_half_moon_positions(150, seed=5):
        search = solver._Search(position, 10, keep=False, prune=False)
        if any(search._is_blocked(k) for k in range(6)):
            assert not winnable(HalfMoon, position), position


def test_with_and_without_the_relaxations_the_verdicts_agree_with_the_unpruned_search():
    for position in small_half_moon_positions(60, seed=6):
        expected = Verdict.WON if winnable(HalfMoon, position) else Verdict.NO_WIN
        for prune, deep_first in ((True, False), (False, False), (True, True)):
            result = solve(position, keep=False, prune=prune, deep_first=deep_first)
            assert result.verdict is expected, (prune, deep_first, position)
            if expected is Verdict.WON:
                assert line_positions(HalfMoon, position, result.line)[-1].is_won()


def test_dead_positions_kept_between_calls_mislead_no_later_call():
    # The positions of a few games, solved in a shuffled order, those of two games mixed: every
    # call may reuse (or must drop) what the earlier ones proved.
    rng = random.Random(7)
    games = []
    for _ in range(12):
        position = small_half_moon(rng)
        line = [position]
        while moves := list(HalfMoon.generate(line[-1])):
            line.append(HalfMoon.result(line[-1], rng.choice(moves)))
        games.append(line)
    for first, second in zip(games[::2], games[1::2], strict=True):
        mixed = first + first + second + first
        rng.shuffle(mixed)
        for position in mixed:
            expected = Verdict.WON if winnable(HalfMoon, position) else Verdict.NO_WIN
            result = solve(position)
            assert result.verdict is expected, position
            if expected is Verdict.WON:
                assert line_positions(HalfMoon, position, result.line)[-1].is_won()


def test_the_kept_dead_positions_serve_a_later_position_of_the_same_game():
    code = DealCode.parse("HM1-N-AAAAAAB")
    position = deal(code)
    line = solve(position, keep=False).line
    later = line_positions(HalfMoon, position, line[:10])[-1]
    solve(position)
    assert solve(later).nodes <= solve(later, keep=False).nodes
