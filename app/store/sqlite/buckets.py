"""The rate limits' token buckets in the SQLite file (``rate_buckets``), shared by every
worker and instance on it: read on the loop, written by the group commit
(:mod:`app.store.buckets`, ``docs/decisions.md``)."""

from __future__ import annotations

import functools
import sqlite3

from app.clock import now_ms
from app.store.ratelimit import Bucket, BucketShare, Shared, Spend, full_at, merged
from app.store.sqlite import sql
from app.store.sqlite.files import SQLiteFile, as_store_error
from app.store.sqlite.writer import GroupCommit


def merge_buckets(conn: sqlite3.Connection, spent: dict[str, Spend]) -> dict[str, Bucket]:
    """Take one limiter's spends from the shared buckets, in the writer's transaction."""
    now = now_ms()
    buckets = {}
    for key, spend in spent.items():
        row = conn.execute(sql.BUCKET, (key,)).fetchone()
        bucket = merged(None if row is None else Bucket(float(row[0]), int(row[1])), spend, now)
        conn.execute(sql.UPSERT_BUCKET, (key, bucket.tokens, bucket.at_ms, full_at(bucket, spend)))
        buckets[key] = bucket
    return buckets


class SQLiteBuckets(BucketShare):
    """The buckets of ``file``: a read in WAL mode never waits for the writer, so it runs on
    the loop; spends go with ``writer``'s next group commit."""

    def __init__(self, file: SQLiteFile, writer: GroupCommit) -> None:
        self._file = file
        self._writer = writer

    async def read_bucket(self, key: str) -> Bucket | None:
        with as_store_error(self._file.path):
            row = self._file.connection().execute(sql.BUCKET, (key,)).fetchone()
        return None if row is None else Bucket(float(row[0]), int(row[1]))

    def share_buckets(self, spent: dict[str, Spend], done: Shared) -> None:
        self._writer.work(functools.partial(merge_buckets, spent=spent), done)
