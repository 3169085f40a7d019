"""The rate limiters: SQLite's token bucket shared through its file, and failing open."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import limits
import pytest

from app.store.ratelimit import ALLOWED, Limits, SQLiteRateLimiter, Verdict


def test_a_token_bucket_allows_its_burst_then_refills_at_its_rate(tmp_path: Path) -> None:
    limiter = SQLiteRateLimiter(Limits.parse("off", "off"), str(tmp_path / "x.limits"))
    item = limits.parse("3/second")
    try:
        assert [limiter.take(item, "k", True).allowed for _ in range(4)] == [True] * 3 + [False]
        assert limiter.take(item, "k", True) == Verdict(False, 1)
        assert limiter.take(item, "other", True) == ALLOWED  # buckets are per key
        time.sleep(0.4)  # 3 a second: one token back after a third of a second
        assert limiter.take(item, "k", False) == ALLOWED  # a test takes nothing …
        assert limiter.take(item, "k", True) == ALLOWED  # … so this one still gets it
        assert not limiter.take(item, "k", True).allowed
    finally:
        limiter.close()


def test_two_limiters_on_one_file_share_the_buckets(tmp_path: Path) -> None:
    path = str(tmp_path / "x.limits")
    first, second = (SQLiteRateLimiter(Limits.parse("off", "off"), path) for _ in range(2))
    item = limits.parse("2/minute")
    try:
        assert first.take(item, "k", True).allowed
        assert second.take(item, "k", True).allowed
        refused = first.take(item, "k", True)
        assert not refused.allowed and 1 <= refused.retry_after <= 30
    finally:
        first.close()
        second.close()


def test_a_failing_limiter_lets_the_request_through(tmp_path: Path) -> None:
    limiter = SQLiteRateLimiter(Limits.parse("1/minute", "1/hour"), str(tmp_path / "x.limits"))
    limiter.close()
    limiter.path = str(tmp_path / "no" / "such" / "dir" / "x.limits")  # cannot be opened
    with ThreadPoolExecutor(1) as pool:  # Playwright keeps a loop running in the main thread
        verdict = pool.submit(asyncio.run, limiter.hit("write", "203.0.113.1")).result()
    assert verdict == ALLOWED


@pytest.mark.parametrize("text", ["sometimes", "5/fortnight"])
def test_a_rate_that_is_not_one_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="is not a rate"):
        Limits.parse(text, "off")
