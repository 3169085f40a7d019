"""The daily deal's function is stable forever (issue 16): these codes never change."""

from __future__ import annotations

import asyncio
import datetime
from concurrent.futures import ThreadPoolExecutor

import pytest

from app.services import daily
from app.services.daily import candidate, codes_of, daily_code, day_of, dead_at_deal

PINNED = {
    "2026-12-01": ("HM1-N-Y5GESIS", "SH1-C4-6XJ4RH4", "SH1-C2-LS5HVDO", "SH1-C1-JJLJ37S"),
    "2026-12-02": ("HM1-N-KWCSFLS", "SH1-C4-BMYJ564", "SH1-C2-RO4MHP7", "SH1-C1-5OQ3FNA"),
    "2027-01-01": ("HM1-N-BKZZR7Q", "SH1-C4-MVRUL2Z", "SH1-C2-JL36YM4", "SH1-C1-KPKRSXL"),
    "2030-06-15": ("HM1-N-RZGWMZH", "SH1-C4-VQC3MRA", "SH1-C2-ZPA4FD2", "SH1-C1-MHVR6O6"),
}


@pytest.mark.parametrize("day", sorted(PINNED))
def test_the_daily_deals_of_a_day_never_change(day):
    assert tuple(str(c) for c in codes_of(day).values()) == PINNED[day]


def test_a_deal_lost_at_the_deal_is_replaced_by_the_next_candidate():
    # 2026-12-09, one cell: the first candidate has no useful move at the deal
    first = candidate("2026-12-09", "SH", "C1", 0)
    assert str(first) == "SH1-C1-H6XDVVQ" and dead_at_deal(first)
    assert str(daily_code("2026-12-09", "SH", "C1")) == "SH1-C1-JKXHN33"
    assert not dead_at_deal(daily_code("2026-12-09", "SH", "C1"))


def test_the_day_is_the_utc_day():
    late = datetime.datetime(
        2026, 12, 1, 23, 59, tzinfo=datetime.timezone(datetime.timedelta(hours=-5))
    )
    assert daily.today(late) == "2026-12-02"


def in_thread(coroutine):
    """Run on a loop of its own, in a thread (browser tests leave one running here)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_a_code_is_known_as_todays_or_yesterdays_daily_deal():
    now = datetime.datetime(2026, 12, 2, 0, 30, tzinfo=datetime.UTC)
    assert in_thread(day_of("HM1-N-KWCSFLS", now)) == "2026-12-02"
    assert in_thread(day_of("HM1-N-Y5GESIS", now)) == "2026-12-01"  # begun before midnight
    assert in_thread(day_of("HM1-N-AAAAAAB", now)) is None


def test_a_malformed_day_is_refused():
    with pytest.raises(ValueError, match="month"):
        daily_code("2026-13-01", "HM", "N")
