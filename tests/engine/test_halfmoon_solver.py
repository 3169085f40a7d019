"""The Half Moon solver: exact answers, lines that replay through taps, budgets."""

import subprocess
import sys

from app.engine.codes import DealCode
from app.engine.halfmoon import WON_MOVES, WON_SCORE, HalfMoon, Outcome, deal, place_name
from app.engine.halfmoon.solver import solve
from app.engine.solving import Verdict

from .test_halfmoon_rules import table


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
        [sys.executable, "-m", "app.engine.solve", "hm1-n-aaaaaab"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.splitlines()[0].startswith("HM1-N-AAAAAAB: won in 48 moves")
    assert "  1. pile-" in out
