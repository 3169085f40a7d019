"""An address's hour of analysis time (issue 44) is one budget for every instance on a store:
the analysts of two instances (two stores on one file, Redis or cluster, as two workers or
machines have) spend the same bucket."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import limits

from app.services import analyses
from app.services.analyses import Analyst, Progress
from app.store.buckets import BucketLimiter
from app.store.ratelimit import Limits
from app.store.replays import StoredReplay
from app.store.sync import SyncStore
from tests.loops import run_apart

BUDGET = Limits(None, None, analysis=limits.parse("6/hour"))


def _replay(ident: str) -> StoredReplay:
    return StoredReplay(ident.ljust(22, "A"), "HM1-N-AAAAAAB", "stuck", 1000, 1, 10, 1, "ae")


def test_two_instances_share_an_addresss_analysis_time(
    shared_store: Callable[[], SyncStore], monkeypatch: Any
) -> None:
    ran = threading.Event()

    def analysed(code: str, line: str, seconds: float) -> dict[str, Any]:
        ran.set()
        return {"version": 1, "kind": "undecided", "k": None, "line": "", "seconds": 5.5}

    monkeypatch.setattr(analyses, "analyse_line", analysed)
    one, two = shared_store(), shared_store()
    first_limiter = one.rate_limiter(BUDGET)
    second_limiter = two.rate_limiter(BUDGET)
    assert isinstance(first_limiter, BucketLimiter) and isinstance(second_limiter, BucketLimiter)

    async def scenario() -> tuple[Progress, Progress, Progress]:
        with ThreadPoolExecutor(1) as pool:
            first = Analyst(pool=pool, limiter=first_limiter)
            second = Analyst(pool=pool, limiter=second_limiter)
            began = await first.answer(one.store, _replay("one"), player="p", client="x")
            await first.wait(_replay("one").id)
            assert first_limiter.sync()  # the store has the spends
            other = await second.answer(two.store, _replay("two"), player="q", client="x")
            elsewhere = await second.answer(two.store, _replay("three"), player="r", client="y")
            await first.close()
            await second.close()
            return began.progress, other.progress, elsewhere.progress

    assert run_apart(scenario()) == (Progress.RUNNING, Progress.SPENT, Progress.RUNNING)
    assert ran.is_set()
    first_limiter.close()
    second_limiter.close()
