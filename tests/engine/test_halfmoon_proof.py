"""The Half Moon prover (app/engine/halfmoon/proof.py) held to the unpruned search."""

import itertools
import random
import time

import pytest
from pysat.solvers import Solver

from app.engine.analysis import line_positions
from app.engine.codes import DealCode, encode_number
from app.engine.halfmoon import HalfMoon, deal, solver
from app.engine.halfmoon.proof import SAT_SOLVER, _Formula, prove
from app.engine.solutions import Verdict

from .test_halfmoon_rules import table
from .test_solvers_exhaustive import small_half_moon_positions, winnable

DEAL_42 = DealCode.parse("HM1-N-AAAAABK")
"""A deal the search cannot decide in 200,000 positions; the prover shows it lost."""


def test_the_verdicts_agree_with_the_unpruned_search_and_every_line_wins():
    verdicts = {Verdict.WON: 0, Verdict.NO_WIN: 0}
    for position in small_half_moon_positions(150, seed=11):
        result = prove(position)
        expected = Verdict.WON if winnable(HalfMoon, position) else Verdict.NO_WIN
        assert result.verdict is expected, position
        verdicts[result.verdict] += 1
        if expected is Verdict.WON:
            assert line_positions(HalfMoon, position, result.line)[-1].is_won()
    assert min(verdicts.values()) >= 50  # both answers met often enough to mean something


@pytest.mark.slow  # about 10 s: the prover encodes each of some 200 positions
def test_the_verdicts_agree_with_the_search_on_positions_of_real_deals():
    # Positions a random line of a real deal passes through, where the search decides alone.
    rng = random.Random(3)
    compared = {Verdict.WON: 0, Verdict.NO_WIN: 0}
    for number in range(6):
        position = deal(DealCode.parse(f"HM1-N-{encode_number(number + 1000)}"))
        while moves := list(HalfMoon.generate(position)):
            position = HalfMoon.result(position, rng.choice(moves))
            searched = solver.solve(position, 20_000, keep=False)
            if searched.verdict is Verdict.UNDECIDED:
                continue
            proved = prove(position)
            assert proved.verdict is searched.verdict, position
            if proved.verdict is Verdict.WON:
                assert line_positions(HalfMoon, position, proved.line)[-1].is_won()
            compared[proved.verdict] += 1
    assert min(compared.values()) >= 20, compared


def test_the_counts_are_exact_both_ways():
    # Every leaf assignment of up to six cards: "at least n have gone" is forced true when n
    # have gone and forced false when fewer have.
    for size in range(1, 7):
        formula = _Formula([(1, 12, 0, 0)] * size, groups=2)  # each card: one "time <= 1"
        leaves = [formula.at_most(c, 1) for c in range(size)]
        outputs = formula.counts(list(range(size)), 1)
        assert len(outputs) == size + 1 and outputs[0] is True
        with Solver(name=SAT_SOLVER, bootstrap_with=formula.clauses) as sat:
            for gone in itertools.product((False, True), repeat=size):
                assumed = [x if g else -x for x, g in zip(leaves, gone, strict=True)]
                for n, out in enumerate(outputs[1:], start=1):
                    can_be_true = sat.solve(assumptions=[*assumed, out])
                    can_be_false = sat.solve(assumptions=[*assumed, -out])
                    assert (can_be_true, can_be_false) == (
                        sum(gone) >= n,
                        sum(gone) < n,
                    ), (size, gone, n)


def test_a_card_without_its_partner_never_goes():
    assert prove(table(["5S", "AH 10C"])).verdict is Verdict.NO_WIN


def test_a_card_under_its_own_partner_never_goes():
    # The 6 under the 5 and no other 5 or 6: the times allowed are empty.
    assert prove(table(["6D 5S", "AH", "10C"])).verdict is Verdict.NO_WIN


def test_a_cycle_between_two_piles_has_no_win():
    assert prove(table(["5S 3S", "8H 6H"])).verdict is Verdict.NO_WIN


def test_identical_reserve_cards_are_won_in_either_order():
    position = table(["5S", "5S"], ["6D", "6D", None, None, None, None, None, None])
    result = prove(position)
    assert result.verdict is Verdict.WON and len(result.line) == 2
    assert line_positions(HalfMoon, position, result.line)[-1].is_won()


def test_an_empty_table_is_won_with_no_line():
    result = prove(table([]))
    assert (result.verdict, result.line) == (Verdict.WON, ())


def test_the_search_hands_a_deal_it_cannot_finish_to_the_prover():
    position = deal(DEAL_42)
    alone = solver.solve(position, solver.SEARCH_FIRST, keep=False)
    assert alone.verdict is Verdict.UNDECIDED
    handed = solver.solve(position, solver.SEARCH_FIRST, keep=False, exact=True)
    assert (handed.verdict, handed.nodes) == (Verdict.NO_WIN, alone.nodes)


def test_a_deal_the_search_wins_within_its_budget_never_reaches_the_prover(monkeypatch):
    def no_prover(*_args):
        raise AssertionError("the prover was asked")

    monkeypatch.setattr(solver, "prove", no_prover)
    result = solver.solve(deal(DealCode.parse("HM1-N-AAAAAAB")), solver.SEARCH_FIRST, exact=True)
    assert result.verdict is Verdict.WON


def test_a_passed_deadline_answers_undecided_never_a_guess():
    position = deal(DEAL_42)
    assert prove(position, deadline=time.monotonic() - 1).verdict is Verdict.UNDECIDED
    result = solver.solve(position, 10, time.monotonic() + 60, keep=False, exact=True)
    assert result.verdict is Verdict.NO_WIN
    late = solver.solve(position, 10, time.monotonic() + 0.01, keep=False, exact=True)
    assert late.verdict is Verdict.UNDECIDED


def test_the_games_solve_uses_the_prover():
    assert HalfMoon.solve(DEAL_42).verdict is Verdict.NO_WIN
