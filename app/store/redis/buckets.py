"""The rate limits' token buckets in Redis (:class:`app.store.buckets.BucketLimiter`): a
hit is decided in the worker's memory, with no round trip of its own; what the workers spent
is merged into one key per bucket, on the store portal's loop, right after the spend.

A bucket is ``sol:b:{kind:address}`` holding ``"TOKENS AT_MS"``; it expires when it would be
full again (a missing bucket is full), so the keys are those of the addresses active in the
last period. Each is a single key, so it is one slot on a cluster. A merge reads the buckets
(one pipeline), takes the spends off them (:func:`~app.store.ratelimit.merged`, the rule
written once) and writes each back unless another worker wrote it meanwhile
(:data:`~app.store.redis.scripts.CHECKED_SET`; then that bucket is read and merged again).
"""

from __future__ import annotations

import logging
from typing import Any, Final

from app.clock import now_ms
from app.store.base import StoreError
from app.store.ratelimit import Bucket, BucketShare, Shared, Spend, full_at, merged
from app.store.redis import records
from app.store.redis.connection import Connection
from app.store.redis.keys import key_part
from app.store.redis.scripts import CHECKED_SET, digest

log = logging.getLogger(__name__)

MERGE_ATTEMPTS: Final = 20
"""How often a bucket that other workers keep writing is read and merged again."""


def bucket_from(raw: str | None) -> Bucket | None:
    """A stored bucket; ``None`` (full) for none, or for damage.

    >>> bucket_from("2.5 1000"), bucket_from(None), bucket_from("x")
    (Bucket(tokens=2.5, at_ms=1000), None, None)
    """
    try:
        tokens, at_ms = (raw or "").split()
        return Bucket(float(tokens), int(at_ms))
    except ValueError:
        return None


def bucket_text(bucket: Bucket) -> str:
    return f"{bucket.tokens!r} {bucket.at_ms}"


class RedisBuckets(BucketShare):
    """The buckets of one Redis store (or cluster)."""

    def __init__(self, store: Connection) -> None:
        self._store = store

    def _key(self, key: str) -> str:
        return f"{self._store.prefix}b:{key_part(key)}"

    async def read_bucket(self, key: str) -> Bucket | None:
        (raw,) = await self._store._read(self._key(key))
        return bucket_from(raw)

    def share_buckets(self, spent: dict[str, Spend], done: Shared) -> None:
        """Merge on the store portal's loop (:func:`app.store.sync.portal`), so that a caller
        waiting for the share (a server shutting down, :meth:`BucketLimiter.sync`) never
        waits for its own loop."""
        self._store._portal_submit(self._share, spent, done)

    async def _share(self, spent: dict[str, Spend], done: Shared) -> None:
        try:
            buckets = await self._merge(spent)
        except Exception:
            log.exception("the rate limits' counts were not merged into Redis")
            done(None)
        else:
            done(buckets)

    async def _merge(self, spent: dict[str, Spend]) -> dict[str, Bucket]:
        merged_buckets: dict[str, Bucket] = {}
        left = dict(spent)
        for _ in range(MERGE_ATTEMPTS):
            keys = list(left)
            raws = await self._store._fetch_each([self._key(k) for k in keys])
            now = now_ms()
            writes: list[tuple[str, list[Any], list[Any]]] = []
            for key, raw in zip(keys, raws, strict=True):
                bucket = merged(bucket_from(records.text(raw)), left[key], now)
                merged_buckets[key] = bucket
                ttl = max(1, full_at(bucket, left[key]) - now)
                writes.append((key, [self._key(key)], [digest(raw), bucket_text(bucket), ttl]))
            answers = await self._store._run_each(CHECKED_SET, [(k, a) for _, k, a in writes])
            left = {
                key: left[key] for (key, _, _), ok in zip(writes, answers, strict=True) if ok != 1
            }
            if not left:
                return merged_buckets
        raise StoreError("rate-limit buckets kept changing")
