"""Where the win slipped away: binary search over an ended game's line, checked exhaustively."""

import time

import pytest

from app.engine.analysis import Analysis, Finding, analyse, analyse_linearly, line_positions
from app.engine.codes import DealCode
from app.engine.halfmoon import HalfMoon, Removal
from app.engine.seahaven import Seahaven
from app.engine.solutions import SolveResult, Verdict

from .ended_games import ended_games
from .test_halfmoon_rules import table

# 5♠ over 6♦ in pile 1, a 5♥ alone in pile 2, a 6♠ in the reserve: 5♠ + 6♠ first wins (the 6♦
# then takes the 5♥); 5♥ + 6♠ first leaves the 5♠ with its only 6 underneath.
SMALL = table(["6D 5S", "5H"], ["6S", None, None, None, None, None, None, None])
LOSING = Removal.parse("bm")  # pile 2 + reserve 1


def test_the_first_move_that_loses_is_found_with_a_win_from_just_before_it():
    finding = analyse(HalfMoon, SMALL, [LOSING])
    assert finding.kind is Finding.SLIPPED
    assert (finding.last_winnable, finding.losing_move) == (0, 0)
    assert [str(m) for m in finding.winning_line] == ["am", "ab"]


def test_a_start_proved_lost_cannot_be_won():
    lost = table(["5S 3S", "8H 6H"])
    finding = analyse(HalfMoon, lost, [])
    assert finding.kind is Finding.CANNOT_WIN
    assert (finding.last_winnable, finding.winning_line) == (None, ())


def test_an_analysis_leaves_nothing_of_its_searches_behind():
    """The Half Moon solver keeps dead positions between the calls of one analysis (its
    thread's memo); when the analysis ends they are let go: a proof-pool worker holds nothing
    between analyses."""
    from app.engine.halfmoon import solver

    HalfMoon.solve_position(SMALL)
    assert solver._memos.memo is not None  # kept between calls
    analyse(HalfMoon, SMALL, [LOSING])
    assert solver._memos.memo is None


def test_a_game_that_is_still_winnable_has_nothing_to_find():
    assert analyse(HalfMoon, SMALL, []).kind is Finding.UNDECIDED


def test_an_exhausted_budget_is_undecided_never_a_guess():
    code = DealCode.parse("HM1-N-AAAAAAB")
    finding = analyse(HalfMoon, HalfMoon.deal(code), [], budget=3)
    assert finding.kind is Finding.UNDECIDED
    past = time.monotonic() - 1
    assert HalfMoon.solve_position(HalfMoon.deal(code), None, past).verdict is Verdict.UNDECIDED
    sh = Seahaven.deal(DealCode.parse("SH1-C4-AAAAAJ2"))
    assert Seahaven.solve_position(sh, 300, None).verdict is Verdict.UNDECIDED


def test_a_finding_is_stored_as_plain_data_and_read_back():
    finding = analyse(HalfMoon, SMALL, [LOSING])
    data = finding.to_data()
    assert {k: data[k] for k in ("version", "kind", "k", "line")} == {
        "version": 1,
        "kind": "slipped",
        "k": 0,
        "line": "am ab",
    }
    again = Analysis.from_data(data, HalfMoon.parse_move)
    assert again is not None
    assert (again.kind, again.last_winnable, again.winning_line) == (
        finding.kind,
        finding.last_winnable,
        finding.winning_line,
    )
    assert Analysis.from_data({**data, "version": 0}, HalfMoon.parse_move) is None
    assert Analysis.from_data({**data, "line": ""}, HalfMoon.parse_move) is None
    assert Analysis.from_data({**data, "line": "zz"}, HalfMoon.parse_move) is None


BUDGET = 20_000
"""Positions per solver call: keeps these tests to seconds (bench/bench_analysis.py sweeps)."""


def _check(game, code, moves):
    start = game.deal(code)
    fast = analyse(game, start, moves, BUDGET)
    slow = analyse_linearly(game, start, moves, BUDGET)
    if Finding.UNDECIDED not in (fast.kind, slow.kind):
        assert (fast.kind, fast.last_winnable) == (slow.kind, slow.last_winnable), code
    if fast.kind is Finding.SLIPPED:
        k = fast.last_winnable
        positions = line_positions(game, start, moves)
        # See a win: the first k moves, then the winning line, replayed through the rules.
        assert line_positions(game, start, [*moves[:k], *fast.winning_line])[-1].is_won()
        assert game.solve_position(positions[k + 1], BUDGET).verdict is Verdict.NO_WIN
    elif fast.kind is Finding.CANNOT_WIN:
        assert game.solve_position(start, BUDGET).verdict is Verdict.NO_WIN
    return fast.kind


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "variant", "count"),
    [(HalfMoon, "N", 5), (Seahaven, "C4", 5), (Seahaven, "C2", 3), (Seahaven, "C1", 6)],
)
def test_binary_search_agrees_with_a_linear_scan_on_random_ended_games(game, variant, count):
    kinds = [_check(game, code, moves) for code, moves in ended_games(game, variant, count, 33)]
    assert kinds.count(Finding.UNDECIDED) <= 1


def test_a_position_undecided_in_the_middle_of_the_line_is_skipped_not_taken_as_lost(
    monkeypatch,
):
    """Issue 43 item 7 (a mutation spot-check): taking an undecided probe for a lost one
    passed every test. Here the solver cannot decide the first position the search probes,
    the middle of the line, which lies before the slip: the search goes on around it and
    finds the slip; taken as lost, the search would have ended "undecided" below it."""
    found = None
    for code, moves in ended_games(HalfMoon, "N", 40, 7):
        whole = analyse(HalfMoon, HalfMoon.deal(code), moves, BUDGET)
        middle = len(moves) // 2  # the first probe: the nearest the middle, the lower on a tie
        if whole.kind is Finding.SLIPPED and whole.last_winnable > middle + 1:
            found = code, moves, whole, middle
            break
    assert found is not None
    code, moves, whole, middle = found
    positions = line_positions(HalfMoon, HalfMoon.deal(code), moves)
    real = HalfMoon.solve_position.__func__
    probed = []

    def solve(cls, position, budget=None, deadline=None):
        probed.append(positions.index(position) if position in positions else None)
        if position == positions[middle]:
            return SolveResult(Verdict.UNDECIDED)
        return real(cls, position, budget, deadline)

    monkeypatch.setattr(HalfMoon, "solve_position", classmethod(solve))
    finding = analyse(HalfMoon, HalfMoon.deal(code), moves, BUDGET)
    assert probed[0] == middle  # the undecided probe was the first, in the middle
    assert (finding.kind, finding.last_winnable) == (Finding.SLIPPED, whole.last_winnable)
