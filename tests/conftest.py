"""Fixtures every test folder shares: one real Redis server and one real Redis Cluster per
test run."""

from __future__ import annotations

import concurrent.futures
from collections.abc import Iterator

import pytest
import redis

from app.services.proofs import make_pool
from app.store import counting
from tests.store.redis_server import (
    Cluster,
    start_redis_cluster,
    start_redis_server,
    stop_redis_server,
)

FOLDER_MARKERS = {"browser": "browser", "system": "system"}
"""Every test in these folders carries the marker: ``-m "not browser and not system"``."""


LONG_FOLDERS = ("browser", "system")
"""Folders whose files take long (each test seconds): sent to xdist's workers first."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        folder = item.path.parent.name
        if folder in FOLDER_MARKERS and item.path.parent.parent.name == "tests":
            item.add_marker(FOLDER_MARKERS[folder])
    if hasattr(config, "workerinput"):
        # scripts/test runs one pytest-xdist worker per core with ``--dist loadfile
        # --no-loadscope-reorder``: each file goes to one worker whole (its tests in their
        # order, its module fixtures set up once), the files in this order. The long ones go
        # first — the browser and system files, and any file with a test marked slow — so
        # that one of them left for last does not keep one worker busy while the other idles.
        # (Sorted on every worker alike, as xdist requires; the sort keeps a file's order.)
        long = {
            item.path
            for item in items
            if item.path.parent.name in LONG_FOLDERS or item.get_closest_marker("slow")
        }
        items.sort(key=lambda item: item.path not in long)


@pytest.fixture(autouse=True)
def _no_human_floor(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests play faster than any human: the time a ranked win must take
    (:data:`app.store.counting.FLOOR_MS_PER_MOVE`) is 0 except in tests marked
    ``human_floor``, which hold it (servers in other processes keep it)."""
    if request.node.get_closest_marker("human_floor") is None:
        monkeypatch.setattr(counting, "FLOOR_MS_PER_MOVE", 0)


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``redis://127.0.0.1:PORT/0`` of a server started for this test run (fails, never
    skips, when ``redis-server`` is missing)."""
    process, url = start_redis_server(tmp_path_factory.mktemp("redis"))
    try:
        yield url
    finally:
        stop_redis_server(process)


@pytest.fixture
def redis_client(redis_url: str) -> Iterator[redis.Redis]:
    """A plain client on the test server's database, emptied first: to look at keys, or to
    damage them."""
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    client.flushdb()
    yield client
    client.close()


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """A Redis Cluster of three primaries started for this test run (fails, never skips,
    when ``redis-server`` or ``redis-cli`` is missing); its store URL is ``.url``."""
    cluster = start_redis_cluster(tmp_path_factory.mktemp("redis-cluster"))
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def redis_cluster_client(redis_cluster: Cluster) -> Iterator[redis.RedisCluster]:
    """A plain cluster client, every primary emptied first."""
    client = redis.RedisCluster(
        host="127.0.0.1", port=redis_cluster.ports[0], decode_responses=True
    )
    client.flushall(target_nodes=redis.RedisCluster.PRIMARIES)
    yield client
    client.close()


@pytest.fixture(scope="session")
def proof_pool() -> Iterator[concurrent.futures.Executor]:
    """One pool of proof processes for the whole run (an app starting its own costs a
    fraction of a second of process start-up)."""
    pool = make_pool(1)
    yield pool
    pool.shutdown(wait=True, cancel_futures=True)
