"""A day's daily deals never change once dealt (issue 16): these codes are pinned; from
``DAILY_FROM`` on they come from the table of deals proved winnable (issue 33)."""

from __future__ import annotations

import asyncio
import datetime
from concurrent.futures import ThreadPoolExecutor

import pytest

from app.services import daily, winnable
from app.services.daily import (
    DAILY_VARIANTS,
    candidate,
    codes_of,
    daily_code,
    day_of,
    dead_at_deal,
    first_alive,
    proved_winnable,
)
from app.services.winnable import DAILY_FROM

PINNED = {
    "2026-12-01": ("HM1-N-Y5GESIS", "SH1-C4-6XJ4RH4", "SH1-C2-LS5HVDO", "SH1-C1-JJLJ37S"),
    "2026-12-02": ("HM1-N-KWCSFLS", "SH1-C4-BMYJ564", "SH1-C2-RO4MHP7", "SH1-C1-5OQ3FNA"),
    "2026-12-05": ("HM1-N-PDNG2CV", "SH1-C4-YWDHJDI", "SH1-C2-JI5OPB3", "SH1-C1-3QYMCXV"),
    # from DAILY_FROM on: the table's (app/data/winnable.json), each proved winnable
    "2026-12-06": ("HM1-N-HHKFGEZ", "SH1-C4-U4GCRZF", "SH1-C2-U7DSYQF", "SH1-C1-SAS3LVP"),
    "2027-01-01": ("HM1-N-BKZZR7Q", "SH1-C4-MVRUL2Z", "SH1-C2-CGJFIW2", "SH1-C1-LWORIZ4"),
}
"""Days dealt before :data:`DAILY_FROM` (2026-12-05 was dealt, the day this table began)
keep their deals; the days after are the table's."""


@pytest.mark.parametrize("day", sorted(PINNED))
def test_the_daily_deals_of_a_day_never_change(day):
    assert tuple(str(c) for c in codes_of(day).values()) == PINNED[day]


def test_the_days_before_the_table_keep_the_first_deal_not_lost_at_the_deal():
    assert DAILY_FROM == "2026-12-06"
    for day in ("2026-12-01", "2026-12-02", "2026-12-05"):
        assert codes_of(day) == {
            kind: first_alive(day, code.game, code.variant) for kind, code in codes_of(day).items()
        }
        assert not any(proved_winnable(day, c.game, c.variant) for c in codes_of(day).values())


def test_past_the_tables_last_day_the_first_deal_not_lost_at_the_deal_is_dealt_again():
    last = len(winnable.table()["HM-N"]["daily"])
    after = (datetime.date.fromisoformat(DAILY_FROM) + datetime.timedelta(days=last)).isoformat()
    assert daily_code(after, "SH", "C1") == first_alive(after, "SH", "C1")
    assert not proved_winnable(after, "SH", "C1")


def test_the_table_holds_a_year_of_daily_deals_for_every_daily_variant():
    for game, variant in DAILY_VARIANTS:
        assert len(winnable.table()[f"{game}-{variant}"]["daily"]) >= 366


def test_a_deal_lost_at_the_deal_is_replaced_by_the_next_candidate():
    # 2026-12-09, one cell: the first candidate has no useful move at the deal
    first = candidate("2026-12-09", "SH", "C1", 0)
    assert str(first) == "SH1-C1-H6XDVVQ" and dead_at_deal(first)
    assert str(first_alive("2026-12-09", "SH", "C1")) == "SH1-C1-JKXHN33"
    assert not dead_at_deal(first_alive("2026-12-09", "SH", "C1"))


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
