"""The Redis store's connection to its server or cluster: a client per event loop, failures
as :class:`StoreError`, and the round trips every operation is made of (``MGET``, scripts,
pipelines)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
import weakref
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, Final, TypeVar

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisClusterException, RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.store.base import Store, StoreError, StoreFullError, UnconfirmedChangeError
from app.store.redis import records
from app.store.redis.clients import (
    Client,
    OnLoop,
    connector,
    is_cluster,
    ping_primaries,
    pipelined,
    without_password,
)
from app.store.redis.keys import Layout
from app.store.redis.scripts import Script
from app.store.sync import portal

T = TypeVar("T")

_FAILURES: Final = (RedisError, RedisClusterException)

MAX_ATTEMPTS: Final = 50
"""How many times a change is tried while other writers keep changing the same keys."""


def is_full(info: Any) -> bool:
    """Whether ``INFO memory``'s answer says writes are refused: ``used_memory`` above a
    ``maxmemory`` that eviction cannot relieve.

    >>> is_full({"used_memory": 101, "maxmemory": 100, "maxmemory_policy": "noeviction"})
    True
    >>> is_full({"used_memory": 101, "maxmemory": 100, "maxmemory_policy": "allkeys-lru"})
    False
    >>> is_full({"used_memory": 101, "maxmemory": 0, "maxmemory_policy": "noeviction"})
    False
    """
    if not isinstance(info, dict):
        return False
    used, limit = info.get("used_memory"), info.get("maxmemory")
    policy = str(info.get("maxmemory_policy", ""))
    if not isinstance(used, int) or not isinstance(limit, int) or limit <= 0:
        return False
    return used > limit and not policy.startswith("allkeys-")


class Connection(Store):
    """What every operation of the Redis store goes through (the store is abstract until
    :class:`~app.store.redis.store.RedisStore` says what is stored where)."""

    layout: Layout
    """Where each thing is kept (set by the store)."""
    prefix: str
    ttl_seconds: int

    def __init__(self, url: str, timeout: float) -> None:
        self._where = without_password(url)
        self.url: Final = url
        self.timeout: Final = timeout
        """Seconds one command (or connecting) may take."""
        self.cluster: Final = is_cluster(url)
        try:
            self._connect = connector(url, timeout)
        except ValueError as exc:
            raise StoreError(f"bad Redis store URL {self._where!r}: {exc}") from exc
        self._closed = False
        self._conflicts = 0
        self._conflicts_lock = threading.Lock()
        self._loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, OnLoop] = (
            weakref.WeakKeyDictionary()
        )

    @property
    def conflicts(self) -> int:
        """How many changes had to run again because another writer came first (a gauge
        of contention; the tests read it)."""
        return self._conflicts

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._where!r})"

    # --- plumbing ----------------------------------------------------------------------------

    def _on_loop(self) -> OnLoop:
        """The running loop's client (made on first use: its connections belong to one loop,
        and tests run several loops one after another)."""
        if self._closed:
            raise StoreError(f"Redis store {self._where!r} is closed")
        loop = asyncio.get_running_loop()
        held = self._loops.get(loop)
        if held is None:
            held = self._loops[loop] = OnLoop(self._connect())
        return held

    def _client(self) -> Client:
        return self._on_loop().client

    @contextlib.contextmanager
    def _errors(self, *, writing: bool = False) -> Iterator[None]:
        """Redis's failures as :class:`StoreError`; while ``writing``, a lost connection
        (a timeout included) is :class:`UnconfirmedChangeError`: the write may have
        happened, or may still happen."""
        try:
            yield
        except (RedisConnectionError, RedisTimeoutError) as exc:
            held = self._loops.get(asyncio.get_running_loop())
            if held is not None:
                held.after_failure(exc)
            if writing:
                raise UnconfirmedChangeError(
                    f"Redis store {self._where!r}: connection lost during a change, whose"
                    f" outcome could not be confirmed: {exc}"
                ) from exc
            raise StoreError(f"Redis store {self._where!r}: {exc}") from exc
        except _FAILURES as exc:
            raise StoreError(f"Redis store {self._where!r}: {exc}") from exc

    async def _fetch(self, *keys: str) -> list[bytes | None]:
        """One ``MGET``, the values as stored (a key of another type reads as missing)."""
        with self._errors():
            values = await self._client().execute_command("MGET", *keys)
        return [v if isinstance(v, bytes) else None for v in values]

    async def _fetch_each(self, keys: list[str]) -> list[bytes | None]:
        """:meth:`_fetch` of keys in different slots: one pipeline, one ``MGET`` each."""
        with self._errors():
            answers = await pipelined(self._client(), [("MGET", key) for key in keys])
        return [a[0] if isinstance(a, list) and isinstance(a[0], bytes) else None for a in answers]

    async def _run_each(
        self, script: Script, calls: list[tuple[list[str], list[Any]]]
    ) -> list[Any]:
        with self._errors():
            return await script.run_each(self._client(), calls)

    def _portal_submit(self, make: Callable[..., Awaitable[Any]], *args: Any) -> None:
        """Start ``make(*args)`` on the loop of the process's store portal
        (:func:`app.store.sync.portal`), whichever loop calls."""
        if self._closed:
            raise StoreError(f"Redis store {self._where!r} is closed")
        portal().submit(make, *args)

    async def _read(self, *keys: str) -> list[str | None]:
        """:meth:`_fetch` as text (bytes that are not UTF-8 are damage: replaced)."""
        return [records.text(value) for value in await self._fetch(*keys)]

    async def _conflicted(self, attempt: int, *, pause: bool = True) -> None:
        """Count a refused write and (when it lost a race) pause a little, longer after each
        (with jitter, so the writers that collided do not collide again)."""
        with self._conflicts_lock:
            self._conflicts += 1
        if pause:
            await asyncio.sleep(random.random() * min(0.02, 0.0002 * 2**attempt))

    # --- the server ----------------------------------------------------------------------------

    async def ping(self) -> None:
        """``INFO memory`` (which a live server answers as it answers ``PING``); on a
        cluster, ``PING`` to every primary at once, and the store answers while one does (a
        paused node costs its own players their taps, not every player the site).

        :raises StoreFullError: when the server is above its ``maxmemory`` and may not evict
            (``noeviction``, or a ``volatile-`` policy that finds nothing to evict): it
            refuses every write then (issue 23: ``/health`` said ``ok`` meanwhile).
        """
        client = self._client()
        with self._errors():
            if self.cluster:
                await ping_primaries(client)
                return
            info = await client.execute_command("INFO", "memory")
        if is_full(info):
            raise StoreFullError(
                f"Redis store {self._where!r} is full: used_memory {info.get('used_memory')}"
                f" above maxmemory {info.get('maxmemory')} ({info.get('maxmemory_policy')})"
            )

    async def close(self) -> None:
        """Close the running loop's client and the portal's (the loop the rate limits'
        shares run on, :meth:`_portal_submit`); later use raises :class:`StoreError`."""
        if self._closed:
            return
        self._closed = True
        await self._close_own()
        shared = portal()
        if asyncio.get_running_loop() is not shared.loop:
            await asyncio.wrap_future(
                asyncio.run_coroutine_threadsafe(self._close_own(), shared.loop)
            )

    async def _close_own(self) -> None:
        held = self._loops.pop(asyncio.get_running_loop(), None)
        if held is not None:
            with contextlib.suppress(*_FAILURES, OSError):
                await held.client.aclose()
