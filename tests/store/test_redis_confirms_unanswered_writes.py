"""A write whose answer was lost: the Redis store finds out whether it
landed before it answers. Landed: the change is made. Not landed: it is fenced, so it can
never land later, and only then "not made". Redis still silent: :class:`UnconfirmedChangeError`,
never "not made". Against a real ``redis-server`` paused with SIGSTOP and resumed with
SIGCONT in the test, and a proxy that holds a write back (a paused server reads what its
clients sent in the order they sent it, so only a network can make a write arrive after the
store's question)."""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import redis

from app.store import SessionData, StoredGame, StoreError
from app.store.base import Outcome, UnconfirmedChangeError, outcome_of
from app.store.redis import RedisStore
from app.store.sync import SyncStore
from tests.store.helpers import game, put
from tests.store.holding_proxy import HoldingProxy
from tests.store.redis_server import pausable_redis_server

pytestmark = pytest.mark.slow  # each test starts a Redis server of its own

TIMEOUT = 0.5
"""The store's command timeout in these tests (``SOLITAIRE_STORE_TIMEOUT``)."""


@pytest.fixture
def server(tmp_path) -> Iterator[tuple[int, str]]:
    """A Redis server of this test's own (its pid and URL), resumed and stopped after."""
    with pausable_redis_server(tmp_path) as found:
        yield found


@pytest.fixture
def store(server: tuple[int, str]) -> Iterator[RedisStore]:
    made = SyncStore(RedisStore(server[1], socket_timeout=TIMEOUT))
    yield made
    made.close()


class _Asking(logging.Handler):
    """Calls ``then`` when the store says it asks whether a write landed."""

    def __init__(self, then: threading.Timer) -> None:
        super().__init__()
        self.then = then
        self.asked = 0

    def emit(self, record: logging.LogRecord) -> None:
        if "asking whether it landed" in record.getMessage():
            self.asked += 1
            self.then.start()


@contextmanager
def resumed_when_asked(pid: int) -> Iterator[_Asking]:
    """The paused server resumed half a timeout after the store says it asks whether its
    write landed (and resumed at the end in any case)."""
    asking = _Asking(threading.Timer(TIMEOUT / 2, os.kill, (pid, signal.SIGCONT)))
    logger = logging.getLogger("app.store.redis")
    logger.addHandler(asking)
    try:
        yield asking
    finally:
        logger.removeHandler(asking)
        os.kill(pid, signal.SIGCONT)


def pausing(pid: int, n: int):
    """A change that pauses the server after it decided (between the store's read and its
    write), adding one to the game's ``n``."""

    def change(_s: SessionData | None, g: StoredGame | None) -> tuple[StoredGame, str]:
        os.kill(pid, signal.SIGSTOP)
        return game("A", (0 if g is None else g.record["n"]) + n), "made"

    return change


def test_a_write_that_landed_in_a_stall_is_answered_as_made(
    server: tuple[int, str], store: RedisStore
) -> None:
    """The server pauses after the write was sent and resumes while the store asks: it runs
    the write, then the question, so the change is made and answered as made."""
    pid, _ = server
    put(store, "s1", game("A", 1))
    with resumed_when_asked(pid) as asking:
        assert store.change_game("s1", "A", pausing(pid, 1)) == "made"
    assert asking.asked == 1
    assert store.load("s1", "A") == (None, game("A", 2))


def test_a_write_held_back_until_after_the_question_never_lands(server: tuple[int, str]) -> None:
    """The write reaches Redis only after the store asked: the question fences it, the
    store says "not applied", and the write, when it arrives, changes nothing."""
    _, url = server
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    proxy = HoldingProxy(port)
    store = SyncStore(RedisStore(proxy.url, socket_timeout=TIMEOUT))
    watcher = redis.Redis.from_url(url, decode_responses=True)
    try:
        put(store, "s1", game("A", 1))

        def held(_s: SessionData | None, g: StoredGame | None) -> tuple[StoredGame, None]:
            proxy.hold()  # the connection open now: the write's
            return game("A", 2), None

        with pytest.raises(StoreError, match="was not applied") as raised:
            store.change_game("s1", "A", held)
        assert not isinstance(raised.value, UnconfirmedChangeError)
        assert outcome_of(raised.value) is Outcome.NOT_MADE  # what the answer may say
        before = _script_calls(watcher)
        assert proxy.release() > 0
        deadline = time.monotonic() + 5
        while _script_calls(watcher) == before and time.monotonic() < deadline:
            time.sleep(0.01)
        assert _script_calls(watcher) == before + 1  # the write ran, and refused itself
        assert store.load("s1", "A") == (None, game("A", 1))
        store.change_game("s1", "A", lambda _s, g: (game("A", g.record["n"] + 10), None))
        assert store.load("s1", "A") == (None, game("A", 11))
    finally:
        store.close()
        watcher.close()
        proxy.close()


def _script_calls(client: redis.Redis) -> int:
    stats = client.info("commandstats")
    return sum(
        int(stats.get(f"cmdstat_{name}", {}).get("calls", 0)) for name in ("evalsha", "eval")
    )


def test_a_stall_that_outlasts_the_question_is_unconfirmed(
    server: tuple[int, str], store: RedisStore
) -> None:
    """Still paused when the question's own wait ends: the store says it could not confirm
    (the change may land when the server resumes), within two timeouts; afterwards the
    store reads what the server holds, never what it wrote last."""
    pid, _ = server
    put(store, "s1", game("A", 1))
    start = time.monotonic()
    try:
        with pytest.raises(UnconfirmedChangeError, match="could not be confirmed") as raised:
            store.change_game("s1", "A", pausing(pid, 1))
        assert outcome_of(raised.value) is Outcome.UNKNOWN  # never "not made"
        took = time.monotonic() - start
    finally:
        os.kill(pid, signal.SIGCONT)
    assert took < 2 * TIMEOUT + 0.5
    _, held = store.load("s1", "A")
    assert held in (game("A", 1), game("A", 2))
    seen: list[StoredGame | None] = []

    def plus_ten(_s: SessionData | None, g: StoredGame | None) -> tuple[StoredGame, None]:
        seen.append(g)
        return game("A", (0 if g is None else g.record["n"]) + 10), None

    store.change_game("s1", "A", plus_ten)
    assert seen == [held]
    assert held is not None
    assert store.load("s1", "A") == (None, game("A", held.record["n"] + 10))


def test_a_lost_answer_of_a_new_game_is_confirmed_too(
    server: tuple[int, str], store: RedisStore
) -> None:
    """The first write of a game (nothing stored before) is found as well. (Another game
    first: a server that has not seen the script yet answers its EVALSHA with NOSCRIPT,
    having run nothing, and the store would rightly say the change was not applied.)"""
    pid, _ = server
    put(store, "s1", game("B"))
    with resumed_when_asked(pid) as asking:
        assert store.change_game("s1", "A", pausing(pid, 5)) == "made"
    assert asking.asked == 1
    assert store.load("s1", "A") == (None, game("A", 5))
    assert sorted(g.code for g in store.recent_games("s1")) == ["A", "B"]
