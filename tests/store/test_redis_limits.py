"""The rate limits on a Redis store (issue 24 item 3): token buckets decided in each worker's
memory, merged into Redis right after a spend, off the request's path — on one Redis and on a
cluster. (tests/store/test_ratelimit.py holds what every store's limiter does.)"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import limits
import pytest

from app.store.buckets import BucketLimiter
from app.store.ratelimit import ALLOWED, Limits
from app.store.redis import RedisStore
from app.store.sync import SyncStore, portal
from tests.store.helpers import take

OFF = Limits.parse("off", "off")


@pytest.fixture(params=["redis", "redis-cluster"])
def redis_url_of(request: pytest.FixtureRequest) -> Iterator[str]:
    """An emptied Redis, or an emptied three-primary cluster."""
    if request.param == "redis":
        request.getfixturevalue("redis_client")
        yield request.getfixturevalue("redis_url")
    else:
        request.getfixturevalue("redis_cluster_client")
        yield request.getfixturevalue("redis_cluster").url


def limiter_of(store: RedisStore) -> BucketLimiter:
    limiter = store.rate_limiter(OFF)
    assert isinstance(limiter, BucketLimiter) and limiter.shared
    return limiter


def run(coroutine: Any) -> Any:
    with ThreadPoolExecutor(1) as pool:  # a loop of its own (browser tests leave one)
        return pool.submit(asyncio.run, coroutine).result()


def test_two_instances_spend_one_bucket(redis_url_of: str) -> None:
    """Each decides in its own memory; Redis holds what both spent; near the bucket's end
    each reads the other's spends before deciding."""
    first, second = SyncStore(RedisStore(redis_url_of)), SyncStore(RedisStore(redis_url_of))
    one, two = limiter_of(first), limiter_of(second)
    item = limits.parse("4/minute")
    try:
        verdicts = []
        for limiter in (one, two, one, two, one):
            verdicts.append(run(limiter.take_async(item, "k", "spend")).allowed)
            assert limiter.sync()
        assert verdicts == [True, True, True, True, False]
        refused = take(two, item, "k")
        assert not refused.allowed and 1 <= refused.retry_after <= 15
    finally:
        first.close()
        second.close()


def test_far_from_its_end_a_hit_makes_no_round_trip(redis_url_of: str, redis_cluster: Any) -> None:
    """A hit is decided in memory: the bucket is read once, when it is new to the worker, and
    the spends reach Redis in merges on the store's own loop."""
    store = SyncStore(RedisStore(redis_url_of))
    limiter = limiter_of(store)
    share: Any = limiter._share
    reads: list[str] = []
    read = share.read_bucket

    async def counted(key: str) -> Any:
        reads.append(key)
        return await read(key)

    share.read_bucket = counted
    item = limits.parse("1000/minute")

    async def hits() -> list[bool]:
        return [(await limiter.take_async(item, "k", "spend")).allowed for _ in range(100)]

    try:
        assert run(hits()) == [True] * 100
        assert limiter.sync()
        assert reads == ["k"]
        stored = portal().call(share.read_bucket, "k")
        assert stored is not None and stored.tokens == pytest.approx(900, abs=1)
    finally:
        store.close()


def test_the_counts_survive_a_restart_and_a_full_bucket_expires(
    redis_url_of: str, redis_cluster: Any
) -> None:
    item = limits.parse("3/hour")
    store = SyncStore(RedisStore(redis_url_of))
    limiter = limiter_of(store)
    assert all(run(limiter.take_async(item, "k", "spend")).allowed for _ in range(2))
    limiter.close()  # a server's shutdown merges what it counted
    store.close()
    again = SyncStore(RedisStore(redis_url_of))
    try:
        restarted = limiter_of(again)
        assert [take(restarted, item, "k").allowed for _ in range(2)] == [True, False]
        take(restarted, limits.parse("5/second"), "brief")
        assert restarted.sync()
        share: Any = restarted._share
        assert portal().call(share.read_bucket, "brief") is not None
        time.sleep(0.3)  # one token back in 0.2 s: full again, and the key is gone
        assert portal().call(share.read_bucket, "brief") is None
    finally:
        again.close()


def test_a_limiter_whose_store_is_closed_lets_the_request_through(redis_url: str) -> None:
    store = SyncStore(RedisStore(redis_url))
    limiter = store.rate_limiter(Limits.parse("1/minute", "1/hour"))
    store.close()
    assert run(limiter.hit("write", "203.0.113.1")) == ALLOWED
