"""Small builders shared by the store tests."""

from __future__ import annotations

import threading
import time
from typing import Any

from app.clock import now_ms as now_ms  # the stores' clock
from app.store import SessionData, Store, StoredGame
from app.store.base import Marks, Win

MARKED = Marks("open", "2026-12-01", Win(205_000, 48, 520), True)
"""Every mark set: what round-trips through a store must come back exactly."""


def game(code: str = "HM-1", n: int = 0, **fields: Any) -> StoredGame:
    return StoredGame(code=code, record={"n": n}, **fields)


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
