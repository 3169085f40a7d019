"""The one synchronous face of every store: :class:`SyncStore` runs a store's coroutines on
an event loop of its own, in a daemon thread (:class:`Portal`), and waits for them — for code
without a loop (tests, tools, benchmarks, a server's start). The web layer awaits the store
on its own loop instead.

    >>> from app.store.memory import MemoryStore
    >>> store = SyncStore(MemoryStore())
    >>> store.load("nobody")
    (None, None)

(anyio's blocking portal does the same, but its thread is not a daemon: a store a test
forgot to close would keep the interpreter from exiting.)
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from app.store.base import Store

R = TypeVar("R")


class Portal:
    """An event loop in a daemon thread, and calls into it from any other thread."""

    def __init__(self, name: str) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name=name, daemon=True)
        self._thread.start()

    def call(self, make: Callable[..., Awaitable[R]], *args: Any, **kwargs: Any) -> R:
        """Run ``make(*args, **kwargs)`` on the portal's loop and wait for its result.

        :raises RuntimeError: when called from the portal's own thread (it would wait for
            itself: a change callback must not call a store synchronously).
        """
        if threading.get_ident() == self._thread.ident:
            raise RuntimeError("a synchronous store call made from the store portal's own loop")

        async def run() -> R:
            return await make(*args, **kwargs)

        return asyncio.run_coroutine_threadsafe(run(), self._loop).result()

    def submit(self, make: Callable[..., Awaitable[Any]], *args: Any) -> None:
        """Start ``make(*args)`` on the portal's loop and return at once (from any thread)."""

        async def run() -> None:
            await make(*args)

        asyncio.run_coroutine_threadsafe(run(), self._loop)

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        return self._loop

    def close(self) -> None:
        """Stop the loop (a portal of one's own: the process's lives as long as it)."""
        if self._loop.is_closed():
            return
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)
        if not self._thread.is_alive():
            self._loop.close()


_portal: Portal | None = None
_portal_lock = threading.Lock()


def portal() -> Portal:
    """The process's portal, started on first use (one loop thread for every store)."""
    global _portal
    with _portal_lock:
        if _portal is None:
            _portal = Portal("store-portal")
        return _portal


class SyncStore:
    """``store`` with every coroutine method made a blocking call (``load``, ``change_game``
    … each with the same arguments and result); other attributes are the store's own, read
    and set through.

    One adapter for every store, written once: a store is written asynchronously only.
    ``own`` is a portal of the adapter's own (closed with it) instead of the process's: a test
    that stands for two processes calls one store from inside the other's change."""

    store: Store

    def __init__(self, store: Store, own: Portal | None = None) -> None:
        object.__setattr__(self, "store", store)
        object.__setattr__(self, "_own", own)

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.store, name)
        if inspect.iscoroutinefunction(found):
            return functools.partial((self._own or portal()).call, found)
        return found

    def close(self) -> None:
        """Close the store (on the portal's loop), then the adapter's own portal."""
        (self._own or portal()).call(self.store.close)
        if self._own is not None:
            self._own.close()

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self.store, name, value)

    def __repr__(self) -> str:
        return f"SyncStore({self.store!r})"
