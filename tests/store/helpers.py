"""Small builders shared by the store tests."""

from __future__ import annotations

import threading
import time
from typing import Any

from app.clock import now_ms as now_ms  # the stores' clock
from app.store import SessionData, Store, StoredGame
from app.store.marks import Marks, Win

WON_REPLAY, REPLAY = "W" * 21 + "A", "R" * 21 + "A"
"""Replay ids as the web layer draws them (22 URL-safe characters)."""

MARKED = Marks("open", "2026-12-01", Win(205_000, 48, 520, WON_REPLAY), True, "0a1b2c", REPLAY)
"""Every mark set: what round-trips through a store must come back exactly."""

MARKED_EXTRA: dict[str, Any] = {
    "counted": "open",
    "daily": "2026-12-01",
    "won": {"ms": 205_000, "moves": 48, "score": 520, "replay": WON_REPLAY},
    "unproved": True,
    "retry": "0a1b2c",
    "replay": {"id": REPLAY},
}
""":data:`MARKED` as stored (a row's ``extra``): the keys and shapes the version before typed
marks wrote, so rows saved by it load, and it reads the rows written now."""


def game(code: str = "HM-1", n: int = 0, **fields: Any) -> StoredGame:
    return StoredGame(code=code, record={"n": n}, **fields)


def take(limiter: Any, item: Any, key: str) -> Any:
    """Spend one token of ``key``'s bucket (``BucketLimiter.take_async``) from code without a
    loop: on the store portal's, as the stores' own calls from tests run."""
    from app.store.sync import portal

    return portal().call(limiter.take_async, item, key, "spend")


def put(store: Store, sid: str, stored: StoredGame) -> None:
    store.change_game(sid, stored.code, lambda _s, _g: (stored, None))


def increment(store: Store, sid: str, code: str, times: int, errors: list[BaseException]) -> None:
    """Add 1 to the game's ``n`` ``times`` times, one change each (run in a thread)."""

    def plus_one(_s: SessionData | None, g: StoredGame | None) -> tuple[StoredGame, None]:
        n = 0 if g is None else g.record["n"]
        time.sleep(0)  # let another thread run between the read and the write
        return game(code, n + 1), None

    try:
        for _ in range(times):
            store.change_game(sid, code, plus_one)
    except BaseException as exc:  # reported to the main thread
        errors.append(exc)


def assert_two_stores_lose_no_update(stores: list[Store]) -> None:
    """Eight threads, alternating between two stores on the same data (two processes or two
    machines), each add 1 fifty times: the game ends at exactly 400. Closes the stores."""
    errors: list[BaseException] = []
    threads = [
        threading.Thread(target=increment, args=(stores[i % 2], "s1", "HM-1", 50, errors))
        for i in range(8)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert stores[0].load("s1", "HM-1") == (None, game("HM-1", 400))
    for s in stores:
        s.close()


def footprint(store: Store) -> int:
    """Everything the store holds, counted: rows of every table (SQLite), keys (Redis) or
    entries (memory) — sessions, games, statistics, deals, links, replays, verdicts,
    rate-limit counters — the server's secret aside. A GET without a cookie must leave it as it was."""
    from app.store import MemoryStore
    from app.store.redis import RedisStore
    from app.store.sqlite import SQLiteStore
    from app.store.sync import SyncStore

    if isinstance(store, SyncStore):
        store = store.store
    if isinstance(store, MemoryStore):
        held = (
            store._sessions,
            store._games,
            store._moved,
            store._stats,
            store._deals,
            store._links,
            store._replays,
        )
        return sum(map(len, held))
    if isinstance(store, SQLiteStore):
        conn = store.connection()
        tables = [
            row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        ]
        return sum(conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in tables)
    if isinstance(store, RedisStore):
        import redis

        secret = f"{store.prefix}secret"
        if store.cluster:  # every node's keys, counted on each node alone
            ports = [int(n.rsplit(":", 1)[1]) for n in store.url.split("://", 1)[1].split(",")]
            total = 0
            for port in ports:
                with redis.Redis(port=port) as node:
                    if node.execute_command("ROLE")[0] == b"master":
                        total += int(node.dbsize())
            with redis.RedisCluster(host="127.0.0.1", port=ports[0]) as cluster:
                return total - int(cluster.exists(secret))
        with redis.Redis.from_url(store.url) as client:
            return int(client.dbsize()) - int(client.exists(secret))
    raise TypeError(f"no footprint for {type(store).__name__}")
