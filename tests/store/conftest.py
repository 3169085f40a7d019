"""The ``store`` fixture that runs the behavioural suite against every store: memory,
SQLite, one Redis, and a Redis Cluster of three primaries (both from tests/conftest.py).

The tests call the stores synchronously, through the one adapter every caller without an
event loop uses (:class:`app.store.sync.SyncStore`); ``store.store`` is the store itself."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from app.store import MemoryStore, Store
from app.store.redis import RedisStore
from app.store.sqlite import SQLiteStore
from app.store.sync import SyncStore


def make_store(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    if kind == "memory":
        return MemoryStore()
    if kind == "sqlite":
        return SQLiteStore(str(tmp_path / "games.db"))
    if kind == "redis-cluster":
        request.getfixturevalue("redis_cluster_client")  # every primary emptied
        return RedisStore(request.getfixturevalue("redis_cluster").url)
    request.getfixturevalue("redis_client")  # an empty database
    return RedisStore(request.getfixturevalue("redis_url"))


@pytest.fixture(params=["memory", "sqlite", "redis", "redis-cluster"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SyncStore]:
    """Each store in turn (Redis on an emptied database, the cluster on emptied primaries)."""
    made = SyncStore(make_store(request.param, request, tmp_path))
    yield made
    made.close()


@pytest.fixture(params=["sqlite", "redis", "redis-cluster"])
def shared_store(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[Callable[[], SyncStore]]:
    """Opens stores that share one place (a SQLite file, a Redis, a cluster) as a server's
    workers do: each call is another worker's store; all are closed at the end."""
    opened: list[SyncStore] = []

    def open_one() -> SyncStore:
        opened.append(SyncStore(make_store(request.param, request, tmp_path)))
        return opened[-1]

    yield open_one
    for made in opened:
        made.close()


@pytest.fixture(params=["memory", "sqlite"])
def sweeping_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SyncStore]:
    """The stores whose :meth:`Store.sweep` deletes (Redis expires keys by itself)."""
    made = SyncStore(make_store(request.param, request, tmp_path))
    yield made
    made.close()
