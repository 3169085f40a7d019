"""The table of deals proved winnable (issue 33, item 5: ``app/data/winnable.json``): every
deal it holds is won by its game's own solver here, in the test, and the winning line replayed
through the rules ends won. The fast loop proves a fixed sample of each list (every 40th deal
and every 50th day: 52 solves, 2 s); the test marked ``slow`` proves all 2,400 (2 min 32 s on
the 2-core development machine at load average 4.5)."""

from __future__ import annotations

import datetime

import pytest

from app.engine.analysis import line_positions
from app.engine.codes import MAX_NUMBER, DealCode
from app.engine.games import game_by_id
from app.engine.solutions import Verdict
from app.services import winnable
from app.services.daily import DAILY_VARIANTS, candidate
from app.services.winnable import DAILY_FROM

KINDS = ("HM-N", "SH-C4", "SH-C2", "SH-C1")
DAILY_TRIES = 400
"""As many candidates as ``bench/winnable_table.py`` tries for a day."""


def is_proved_winnable(code: DealCode) -> bool:
    """The game's solver wins the deal, and its line, played by the rules, ends won."""
    game = game_by_id(code.game)
    result = game.solve_position(game.deal(code))
    if result.verdict is not Verdict.WON:
        return False
    return bool(line_positions(game, game.deal(code), result.line)[-1].is_won())


def codes(kind: str, part: str, step: int = 1) -> list[DealCode]:
    game, variant = kind.split("-")
    numbers = winnable.table()[kind][part]
    return [DealCode(game, 1, variant, n) for n in numbers[::step]]  # type: ignore[arg-type]


def test_the_table_has_deals_and_days_for_every_variant():
    assert sorted(k for k in winnable.table() if k != "about") == sorted(KINDS)
    assert sorted(f"{g}-{v}" for g, v in DAILY_VARIANTS) == sorted(KINDS)
    for kind in KINDS:
        deals = winnable.table()[kind]["deals"]
        assert len(deals) == 200 and deals == sorted(set(deals)), kind
        assert all(0 <= n <= MAX_NUMBER for n in deals), kind


def test_each_daily_deal_is_one_of_its_days_candidates():
    first = datetime.date.fromisoformat(DAILY_FROM)
    for kind in KINDS:
        game, variant = kind.split("-")
        for offset, number in enumerate(winnable.table()[kind]["daily"]):
            day = (first + datetime.timedelta(days=offset)).isoformat()
            numbers = (candidate(day, game, variant, i).number for i in range(DAILY_TRIES))  # type: ignore[arg-type]
            assert number in numbers, (kind, day)


@pytest.mark.parametrize("kind", KINDS)
def test_a_sample_of_the_table_is_proved_winnable(kind):
    sample = codes(kind, "deals", 40) + codes(kind, "daily", 50)
    assert len(sample) == 5 + 8
    assert [str(c) for c in sample if not is_proved_winnable(c)] == []


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_every_deal_of_the_table_is_proved_winnable(kind):
    every = codes(kind, "deals") + codes(kind, "daily")
    assert [str(c) for c in every if not is_proved_winnable(c)] == []


def test_a_deal_the_solver_cannot_win_is_not_proved_winnable():
    """The check can fail: a one-cell deal lost at the deal (``tests/web/test_attacks.py``)."""
    assert not is_proved_winnable(DealCode.parse("SH1-C1-AAAAAAC"))
