"""Rate limits per client address, kept where every worker and instance sees them.

Two limits (``app.config``): **writes** — every POST (taps, settings) — and **new** — writes
that create something that will be kept (a game for a deal the session has not played, a
session row with settings). Both take the ``limits`` notation (``240/minute``, ``60/hour``).

Where the counts live follows the store, so the limit is shared exactly as the games are:

- Redis store: the ``limits`` library's sliding-window counter in the same Redis (keys under
  the store's prefix + ``rl:``, two small counters per address and limit, expiring by
  themselves): every instance counts against one total.
- SQLite store: a token bucket in a side file next to the database (``PATH.limits``), shared
  by the worker processes of the host. ``limits`` has no SQLite storage, and its memory
  storage is per process (four workers would allow four times the limit). The side file runs
  with ``synchronous=OFF`` — a lost count after a power cut costs nothing — so a hit never
  waits for the disk, and never queues behind the game writer's fsyncs.
- Memory store (tests, a single process): ``limits``' memory storage.

A limiter that fails (Redis gone, file locked past a short timeout) lets the request through
and logs: the store's own error handling answers the write itself. It then lets everything
through for :data:`PAUSE_AFTER_FAILURE_SECONDS` without asking, so a stalled Redis costs a
request one timeout (the store's), not one per limit checked.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ipaddress
import logging
import math
import random
import sqlite3
import threading
import time
import weakref
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

import anyio.to_thread
import limits
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import SlidingWindowCounterRateLimiter

from app.clock import now_ms
from app.store.base import Store
from app.store.memory import MemoryStore

log = logging.getLogger(__name__)

Kind = Literal["write", "new", "guess"]
KINDS: Final[tuple[Kind, ...]] = ("write", "new", "guess")

DEFAULT_GUESSES: Final = "20/hour"
"""Device links that name no player (issue 16), per client address: a secret of 128 bits
cannot be guessed, but nobody gets to try more than this."""


@dataclass(frozen=True, slots=True)
class Verdict:
    allowed: bool
    retry_after: int = 0
    """Whole seconds until one more would pass (``Retry-After``); 0 when allowed."""


ALLOWED: Final = Verdict(True)


GUESSES: Final = limits.parse(DEFAULT_GUESSES)


@dataclass(frozen=True, slots=True)
class Limits:
    """The configured limits; ``None`` for a kind that is not limited (``off``)."""

    write: limits.RateLimitItem | None
    new: limits.RateLimitItem | None
    guess: limits.RateLimitItem | None = GUESSES

    @classmethod
    def parse(cls, write: str, new: str, guess: str = DEFAULT_GUESSES) -> Limits:
        """:raises ValueError: for text that is neither ``off`` nor a ``limits`` rate."""
        return cls(_item(write), _item(new), _item(guess))

    def item(self, kind: Kind) -> limits.RateLimitItem | None:
        return self.write if kind == "write" else self.new if kind == "new" else self.guess


def _item(text: str) -> limits.RateLimitItem | None:
    text = text.strip().lower()
    if text in ("off", "none", "0"):
        return None
    try:
        return limits.parse(text)
    except ValueError:
        raise ValueError(
            f"{text!r} is not a rate: write N/second, N/minute, N/hour, N/day "
            "(or N per 10 minutes), or off"
        ) from None


@functools.lru_cache(maxsize=4096)
def client_key(host: str | None) -> str:
    """The address a limit counts: IPv4 as it is, IPv6 by its /64 (one subscriber's network:
    an IPv6 client can pick any address within it).

    >>> client_key("203.0.113.9"), client_key("2001:db8:1:2:3:4:5:6"), client_key(None)
    ('203.0.113.9', '2001:db8:1:2::/64', 'unknown')
    """
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


PAUSE_AFTER_FAILURE_SECONDS: Final = 5.0


class RateLimiter(ABC):
    def __init__(self, configured: Limits) -> None:
        self.limits = configured
        self._failed_at = -math.inf

    async def hit(self, kind: Kind, client: str) -> Verdict:
        """Count one ``kind`` for ``client``; refused when the limit is reached (then
        nothing is counted)."""
        item = self.limits.item(kind)
        if item is None or self._paused():
            return ALLOWED
        try:
            return await self._hit(item, kind, client)
        except Exception:
            return self._failed()

    async def test(self, kind: Kind, client: str) -> Verdict:
        """Would one more ``kind`` pass now? Counts nothing."""
        item = self.limits.item(kind)
        if item is None or self._paused():
            return ALLOWED
        try:
            return await self._test(item, kind, client)
        except Exception:
            return self._failed()

    def _paused(self) -> bool:
        return time.monotonic() - self._failed_at < PAUSE_AFTER_FAILURE_SECONDS

    def _failed(self) -> Verdict:
        log.exception("the rate limiter failed; letting requests through for a few seconds")
        self._failed_at = time.monotonic()
        return ALLOWED

    @abstractmethod
    async def _hit(self, item: limits.RateLimitItem, kind: Kind, client: str) -> Verdict: ...

    @abstractmethod
    async def _test(self, item: limits.RateLimitItem, kind: Kind, client: str) -> Verdict: ...

    def close(self) -> None:  # noqa: B027  (optional)
        """Release files and connections."""


class LimitsRateLimiter(RateLimiter):
    """The ``limits`` library's sliding-window counter on one of its async storages.

    ``make_storage`` is called once per event loop that uses the limiter: an async Redis
    client's connections belong to the loop that opened them (a server has one loop per
    worker; tests run several). A storage kept in this process's memory is made once and
    shared, so that all loops count together.
    """

    def __init__(
        self, configured: Limits, make_storage: Callable[[], Storage], *, per_loop: bool
    ) -> None:
        super().__init__(configured)
        self._make_storage = make_storage
        self._per_loop = per_loop
        self._shared: SlidingWindowCounterRateLimiter | None = None
        self._by_loop: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, SlidingWindowCounterRateLimiter
        ] = weakref.WeakKeyDictionary()

    def _strategy(self) -> SlidingWindowCounterRateLimiter:
        if not self._per_loop:
            if self._shared is None:
                self._shared = SlidingWindowCounterRateLimiter(self._make_storage())
            return self._shared
        loop = asyncio.get_running_loop()
        strategy = self._by_loop.get(loop)
        if strategy is None:
            strategy = SlidingWindowCounterRateLimiter(self._make_storage())
            self._by_loop[loop] = strategy
        return strategy

    async def _hit(self, item: limits.RateLimitItem, kind: Kind, client: str) -> Verdict:
        strategy = self._strategy()
        if await strategy.hit(item, kind, client):
            return ALLOWED
        return await _refused(strategy, item, kind, client)

    async def _test(self, item: limits.RateLimitItem, kind: Kind, client: str) -> Verdict:
        strategy = self._strategy()
        if await strategy.test(item, kind, client):
            return ALLOWED
        return await _refused(strategy, item, kind, client)


async def _refused(
    strategy: SlidingWindowCounterRateLimiter, item: limits.RateLimitItem, kind: Kind, client: str
) -> Verdict:
    stats = await strategy.get_window_stats(item, kind, client)
    return Verdict(False, max(1, math.ceil(stats.reset_time - time.time())))


BUSY_TIMEOUT_MS: Final = 1000
"""How long a hit waits for another process's hit before letting the request through."""

_BUCKETS: Final = """
CREATE TABLE IF NOT EXISTS buckets (
    key TEXT PRIMARY KEY, tokens REAL NOT NULL, at_ms INTEGER NOT NULL
) WITHOUT ROWID
"""


class SQLiteRateLimiter(RateLimiter):
    """A token bucket per (kind, address) in a SQLite file of its own.

    A bucket holds up to the limit's amount and refills at amount/period: ``60/hour`` allows
    a burst of 60, then one a minute. A full bucket is no row at all: rows untouched for a
    whole period are deleted now and then, so the file holds only the addresses of the last
    period.
    """

    def __init__(self, configured: Limits, path: str) -> None:
        super().__init__(configured)
        self.path = path
        self._local = threading.local()
        self._conns: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = self._connection()
        conn.execute(_BUCKETS)

    def _connection(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(
                self.path,
                timeout=BUSY_TIMEOUT_MS / 1000,
                isolation_level=None,
                check_same_thread=False,
            )
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            with contextlib.suppress(sqlite3.OperationalError):  # another process switches it
                conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = OFF")
            self._local.conn = conn
            with self._lock:
                self._conns.append(conn)
        return conn

    async def _hit(self, item: limits.RateLimitItem, kind: Kind, client: str) -> Verdict:
        return await anyio.to_thread.run_sync(self.take, item, f"{kind}:{client}", True)

    async def _test(self, item: limits.RateLimitItem, kind: Kind, client: str) -> Verdict:
        return await anyio.to_thread.run_sync(self.take, item, f"{kind}:{client}", False)

    def take(self, item: limits.RateLimitItem, key: str, spend: bool) -> Verdict:
        """Refill the bucket for the time passed, then take a token when one is there (and
        ``spend``): one short ``BEGIN IMMEDIATE`` transaction."""
        capacity = float(item.amount)
        per_ms = capacity / (item.get_expiry() * 1000)
        now = now_ms()
        conn = self._connection()
        if not spend:
            row = conn.execute("SELECT tokens, at_ms FROM buckets WHERE key = ?", (key,)).fetchone()
            tokens = capacity if row is None else min(capacity, row[0] + (now - row[1]) * per_ms)
            return ALLOWED if tokens >= 1 else _wait(tokens, per_ms)
        conn.execute("BEGIN IMMEDIATE")
        try:
            row = conn.execute("SELECT tokens, at_ms FROM buckets WHERE key = ?", (key,)).fetchone()
            tokens = capacity if row is None else min(capacity, row[0] + (now - row[1]) * per_ms)
            if tokens >= 1:
                conn.execute(
                    "INSERT INTO buckets (key, tokens, at_ms) VALUES (?, ?, ?)"
                    " ON CONFLICT (key) DO UPDATE SET tokens = excluded.tokens,"
                    " at_ms = excluded.at_ms",
                    (key, tokens - 1, now),
                )
                verdict = ALLOWED
            else:
                verdict = _wait(tokens, per_ms)
            if random.random() < 0.01:  # now and then: forget buckets that are full again
                conn.execute(
                    "DELETE FROM buckets WHERE at_ms < ?", (now - item.get_expiry() * 1000,)
                )
            conn.execute("COMMIT")
        finally:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
        return verdict

    def close(self) -> None:
        with self._lock:
            conns, self._conns = self._conns, []
        for conn in conns:
            with contextlib.suppress(sqlite3.Error):
                conn.close()
        self._local = threading.local()


def _wait(tokens: float, per_ms: float) -> Verdict:
    return Verdict(False, max(1, math.ceil((1 - tokens) / per_ms / 1000)))


def limiter_for(store: Store, configured: Limits) -> RateLimiter:
    """The limiter that shares its counts the way ``store`` shares games (module notes)."""
    from app.store.redis import RedisStore
    from app.store.sqlite import SQLiteStore

    if isinstance(store, RedisStore):
        uri, prefix, timeout = "async+" + store.url, f"{store.prefix}rl", store.timeout

        def redis_storage() -> Storage:
            return RedisStorage(
                uri,
                implementation="redispy",
                key_prefix=prefix,
                socket_timeout=timeout,  # the store's: a stalled Redis fails fast
                socket_connect_timeout=timeout,
            )

        return LimitsRateLimiter(configured, redis_storage, per_loop=True)
    if isinstance(store, SQLiteStore):
        return SQLiteRateLimiter(configured, f"{store.path}.limits")
    if not isinstance(store, MemoryStore):
        log.warning("no shared rate-limit storage for %s: counting in this process", store)
    return LimitsRateLimiter(configured, MemoryStorage, per_loop=False)
