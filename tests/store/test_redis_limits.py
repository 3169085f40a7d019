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


def test_a_full_bucket_expires(redis_url_of: str, redis_cluster: Any) -> None:
    """A bucket back to full is the same as none: its key expires (what every store's
    limiter shares is in tests/store/test_ratelimit.py)."""
    store = SyncStore(RedisStore(redis_url_of))
    try:
        limiter = limiter_of(store)
        take(limiter, limits.parse("5/second"), "brief")
        assert limiter.sync()
        share: Any = limiter._share
        assert portal().call(share.read_bucket, "brief") is not None
        time.sleep(0.3)  # one token back in 0.2 s: full again, and the key is gone
        assert portal().call(share.read_bucket, "brief") is None
    finally:
        store.close()


def test_a_limiter_whose_store_is_closed_lets_the_request_through(redis_url: str) -> None:
    store = SyncStore(RedisStore(redis_url))
    limiter = store.rate_limiter(Limits.parse("1/minute", "1/hour"))
    store.close()
    assert run(limiter.hit("write", "203.0.113.1")) == ALLOWED
