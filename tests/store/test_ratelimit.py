"""The rate limiters: token buckets decided in memory and shared through the store (issue 24),
the store giving its own limiter, and failing open."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import limits
import pytest

from app.clock import now_ms
from app.store import MemoryStore, Store
from app.store.buckets import BucketLimiter
from app.store.ratelimit import (
    ALLOWED,
    Limits,
    RateLimiter,
    Verdict,
)
from app.store.redis import RedisStore
from app.store.sqlite import SQLiteStore
from app.store.sync import SyncStore, portal
from tests.store.helpers import take

OFF = Limits.parse("off", "off")


def bucket_limiter(store: Store) -> BucketLimiter:
    limiter = store.rate_limiter(OFF)
    assert isinstance(limiter, BucketLimiter)
    return limiter


@pytest.fixture(params=["memory", "sqlite", "redis"])
def bucket_store(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    if request.param == "redis":
        request.getfixturevalue("redis_client")  # an empty database
        made: Store = SyncStore(RedisStore(request.getfixturevalue("redis_url")))
    elif request.param == "memory":
        made = SyncStore(MemoryStore())
    else:
        made = SyncStore(SQLiteStore(str(tmp_path / "g.db")))
    yield made
    made.close()


def test_a_token_bucket_allows_its_burst_then_refills_at_its_rate(bucket_store: Store) -> None:
    limiter = bucket_limiter(bucket_store)
    item = limits.parse("3/second")
    try:
        assert [take(limiter, item, "k").allowed for _ in range(4)] == [True] * 3 + [False]
        assert take(limiter, item, "k") == Verdict(False, 1)
        assert take(limiter, item, "other") == ALLOWED  # buckets are per key
        time.sleep(0.4)  # 3 a second: one token back after a third of a second
        assert take(limiter, item, "k") == ALLOWED
        assert not take(limiter, item, "k").allowed
    finally:
        limiter.close()


def test_every_store_gives_a_limiter_that_shares_its_counts_as_it_shares_games(
    tmp_path: Path, redis_url: str, redis_client: Any
) -> None:
    """No store counts per process by accident: each says how (issue 25)."""
    memory, sqlite, redis = (
        SyncStore(MemoryStore()),
        SyncStore(SQLiteStore(str(tmp_path / "g.db"))),
        SyncStore(RedisStore(redis_url)),
    )
    try:
        limiters = [s.rate_limiter(OFF) for s in (memory, sqlite, redis)]
        assert [type(limiter) for limiter in limiters] == [BucketLimiter] * 3
        assert [limiter.shared for limiter in limiters] == [False, True, True]
    finally:
        for store in (memory, sqlite, redis):
            store.close()

    class Forgetful(MemoryStore):  # a store that does not say: cannot be made
        rate_limiter = Store.rate_limiter  # type: ignore[assignment]

    with pytest.raises(TypeError, match="rate_limiter"):
        Forgetful()


def test_two_workers_spend_one_bucket(shared_store: Callable[[], Store]) -> None:
    """Two stores on one place (a file, a Redis, a cluster), as two workers have: each decides
    in its own memory, and the store merges their spends; near the bucket's end each reads the
    other's."""
    one, two = bucket_limiter(shared_store()), bucket_limiter(shared_store())
    item = limits.parse("4/minute")
    verdicts = []
    for limiter in (one, two, one, two, one):
        verdicts.append(take(limiter, item, "k").allowed)
        assert limiter.sync()  # the tap's group commit, which the next request follows
    assert verdicts == [True, True, True, True, False]
    refused = take(two, item, "k")
    assert not refused.allowed and 1 <= refused.retry_after <= 15


def test_far_from_its_end_a_bucket_is_spent_without_reading_the_store(
    shared_store: Callable[[], Store],
) -> None:
    """A spend is decided in memory: the bucket is read once, when it is new to the worker,
    and the spends reach the store in merges."""
    limiter = bucket_limiter(shared_store())
    item = limits.parse("1000/hour")  # refills a token every 3.6 s: 100 spends stay 100
    reads: list[str] = []
    share: Any = limiter._share
    read = share.read_bucket

    async def counted(key: str) -> Any:
        reads.append(key)
        return await read(key)

    share.read_bucket = counted
    assert all(take(limiter, item, "k").allowed for _ in range(100))
    assert limiter.sync()
    assert reads == ["k"]  # once, when it was new to this worker
    assert portal().call(read, "k").tokens == pytest.approx(900, abs=1)


@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_a_busy_worker_shares_its_spends_at_most_every_fifty_milliseconds(
    kind: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Spends made while a share is under way, or too soon after one started, wait for the
    next share, which the limiter starts when it is due — not one share per commit, back to
    back, for as long as the worker is busy (a commit and an fsync each on SQLite, a script
    each on Redis). Every spend still reaches the store, without a sync."""
    if kind == "redis":
        request.getfixturevalue("redis_client")  # an empty database
        store: Store = SyncStore(RedisStore(request.getfixturevalue("redis_url")))
    else:
        store = SyncStore(SQLiteStore(str(tmp_path / "g.db")))
    limiter = bucket_limiter(store)
    item = limits.parse("100000/hour")  # refills 28 a second
    started: list[float] = []
    share: Any = limiter._share
    real = share.share_buckets
    share.share_buckets = lambda spent, done: started.append(time.monotonic()) or real(spent, done)
    try:
        spends, began = 0, time.monotonic()
        # a busy worker: a spend every millisecond, for 0.5 s and until five shares have begun
        # (a loaded machine runs the limiter's thread less often: the bound below is per second)
        while time.monotonic() - began < 0.5 or (len(started) < 5 and spends < 10_000):
            assert take(limiter, item, "k").allowed
            spends += 1
            time.sleep(0.001)
        busy = time.monotonic() - began
        held = limiter._held["k"]
        deadline = time.monotonic() + 2
        while (held.pending or held.sharing) and time.monotonic() < deadline:
            time.sleep(0.01)  # no sync: the limiter's own thread shares the last ones
        assert held.pending == held.sharing == 0
        gaps = [b - a for a, b in itertools.pairwise(started)]
        assert 5 <= len(started) <= busy * 20 + 3, (busy, gaps)  # at most 20 a second
        assert min(gaps) >= 0.045, gaps
        assert portal().call(share.read_bucket, "k").tokens == pytest.approx(
            100_000 - spends, abs=20
        )
    finally:
        store.close()


def test_the_counts_survive_a_restart_within_the_limits_period(
    shared_store: Callable[[], Store],
) -> None:
    item = limits.parse("3/hour")
    store = shared_store()
    limiter = bucket_limiter(store)
    assert take(limiter, item, "k").allowed and take(limiter, item, "k").allowed
    limiter.close()  # a server's shutdown shares what it counted
    store.close()
    restarted = bucket_limiter(shared_store())
    assert [take(restarted, item, "k").allowed for _ in range(2)] == [True, False]


def test_full_buckets_are_swept(tmp_path: Path) -> None:
    store = SyncStore(SQLiteStore(str(tmp_path / "g.db")))
    limiter = bucket_limiter(store)
    try:
        take(limiter, limits.parse("5/second"), "brief")
        take(limiter, limits.parse("5/hour"), "long")
        assert limiter.sync()
        time.sleep(0.25)  # one token back in 0.2 s: "brief" is full again
        store.sweep(now_ms() - 1000)
        keys = [k for (k,) in store.connection().execute("SELECT key FROM rate_buckets")]
        assert keys == ["long"]
    finally:
        store.close()


def test_a_failing_limiter_lets_the_request_through(tmp_path: Path) -> None:
    store = SyncStore(SQLiteStore(str(tmp_path / "g.db")))
    limiter: RateLimiter = store.rate_limiter(Limits.parse("1/minute", "1/hour"))
    store.close()  # the store cannot be read any more
    with ThreadPoolExecutor(1) as pool:  # Playwright keeps a loop running in the main thread
        verdict = pool.submit(asyncio.run, limiter.hit("write", "203.0.113.1")).result()
    assert verdict == ALLOWED


@pytest.mark.parametrize("text", ["sometimes", "5/fortnight"])
def test_a_rate_that_is_not_one_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="is not a rate"):
        Limits.parse(text, "off")


def test_holds_taken_at_once_get_exactly_the_tokens_left(bucket_store: Store) -> None:
    """A hold is taken atomically before the write it allows (issue 34): 64 at once on a
    bucket of 60 get 60; a hold given back is a token again, one spent stays spent, and a
    hold is given back once at most."""
    limiter = bucket_store.rate_limiter(Limits.parse("off", "60/hour"))

    async def main() -> list[bool]:
        holds = await asyncio.gather(*(limiter.hold("new", "203.0.113.5") for _ in range(64)))
        allowed = [h for h in holds if h.verdict.allowed]
        assert len(allowed) == 60
        assert {h.verdict.retry_after for h in holds if not h.verdict.allowed} == {60}
        for h in allowed[:10]:
            h.release()
            h.release()  # twice: still one token
        for h in allowed[10:]:
            await h.spend()
            h.release()  # after its spend: nothing
        again = [await limiter.hold("new", "203.0.113.5") for _ in range(12)]
        return [h.verdict.allowed for h in again]

    try:
        assert portal().call(main) == [True] * 10 + [False] * 2
    finally:
        limiter.close()


def test_a_limit_that_is_off_holds_nothing(bucket_store: Store) -> None:
    limiter = bucket_store.rate_limiter(OFF)

    async def main() -> bool:
        held = await limiter.hold("new", "203.0.113.5")
        await held.spend()
        return held.verdict.allowed

    try:
        assert portal().call(main)
    finally:
        limiter.close()
