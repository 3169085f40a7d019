"""At the store: the secret kept beside the store, moving a player to a new id (a
device link revoked), and a store that cannot write reported by ``/health``."""

from __future__ import annotations

import asyncio
import stat
import warnings
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from app.main import create_app
from app.store import SessionData, Store, StoredGame, StoreError, StoreFullError
from app.store.sqlite import SQLiteStore
from app.store.sqlite import files as sqlite_files
from app.store.sync import SyncStore
from tests.store.helpers import footprint, now_ms
from tests.store.redis_server import fill_redis


def run(coroutine):
    """``asyncio.run`` in a thread of its own: the browser tests' Playwright keeps an event
    loop running in the main thread for the rest of the run."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


# --- the secret ----------------------------------------------------------------------------------


def test_every_store_keeps_one_secret_for_everyone_who_opens_it(store: Store) -> None:
    first = store.kept_secret()
    assert len(first) >= 32 and store.kept_secret() == first


def test_a_sqlite_secret_is_made_once_beside_the_file_and_read_by_every_process(
    tmp_path: Path,
) -> None:
    stores = [SyncStore(SQLiteStore(str(tmp_path / "games.db"))) for _ in range(2)]
    try:
        assert stores[0].kept_secret() == stores[1].kept_secret()
        kept = tmp_path / "games.db.secret"
        assert stat.S_IMODE(kept.stat().st_mode) == 0o600
        assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    finally:
        for s in stores:
            s.close()


def test_a_damaged_sqlite_secret_is_refused_not_guessed(tmp_path: Path) -> None:
    (tmp_path / "games.db.secret").write_text("short")
    store = SyncStore(SQLiteStore(str(tmp_path / "games.db")))
    try:
        with pytest.raises(StoreError, match="too short"):
            store.kept_secret()
    finally:
        store.close()


def test_two_redis_stores_share_the_secret(redis_url: str, redis_client) -> None:
    from app.store.redis import RedisStore

    stores = [SyncStore(RedisStore(redis_url)), SyncStore(RedisStore(redis_url))]
    try:
        assert stores[0].kept_secret() == stores[1].kept_secret()
    finally:
        for s in stores:
            s.close()


# --- moving a player -----------------------------------------------------------------------------


def _game(code: str, moves: int = 1, state: str = "playing") -> StoredGame:
    record = {"code": code, "clock": [0, None]}
    return StoredGame(code, record, state, 0, moves, now_ms(), kind="HM")  # as the web names it


def test_revoking_carries_everything_to_the_new_id_and_leaves_the_old_id_empty(
    store: Store,
) -> None:
    store.save_session("old", SessionData("tok", move_errors=True))
    for code in ("HM1-N-AAAAAAB", "HM1-N-AAAAAAC"):
        store.change_game("old", code, lambda s, g, c=code: (_game(c), None))
    store.change_game("old", "HM1-N-AAAAAAC", lambda s, g: (_game("HM1-N-AAAAAAC", 9, "won"), None))
    store.change_game("other", "HM1-N-AAAAAAB", lambda s, g: (_game("HM1-N-AAAAAAB"), None))
    before = (store.player_stats("old"), footprint(store))
    store.save_link("old", "digest")
    assert store.revoke_link("old", "new") == "new"
    assert store.load("new")[0] == SessionData("tok", move_errors=True)
    assert [g.code for g in store.recent_games("new")] == ["HM1-N-AAAAAAB"]
    assert [g.code for g in store.finished_games("new")] == ["HM1-N-AAAAAAC"]
    assert store.player_stats("new") == before[0] is not None
    assert not store.knows("old") and store.link_owner("digest") is None
    assert store.load("other", "HM1-N-AAAAAAB")[1] is not None  # nobody else's
    # the same rows (or keys), the link gone, where "old" went remembered
    assert footprint(store) == before[1] + 1
    assert store.revoke_link("nobody", "new2") is None


def test_an_id_without_a_device_link_is_not_revoked(store: Store) -> None:
    """Nothing to revoke: nothing moves, and the answer says so (``None``)."""
    store.change_game("p", "HM1-N-AAAAAAB", lambda s, g: (_game("HM1-N-AAAAAAB"), None))
    assert store.revoke_link("p", "q") is None
    assert store.knows("p") and not store.knows("q")


def test_a_revocation_sent_again_answers_where_the_player_went(store: Store) -> None:
    """The first Revoke's answer was lost, or it was pressed twice: the second moves nothing
    and answers the id that holds the data, whatever new id it brought."""
    store.change_game("old", "HM1-N-AAAAAAB", lambda s, g: (_game("HM1-N-AAAAAAB"), None))
    store.save_link("old", "digest")
    assert store.revoke_link("old", "first") == "first"
    assert store.revoke_link("old", "second") == "first"
    assert store.knows("first") and not store.knows("second") and not store.knows("old")
    store.save_link("first", "digest-2")  # the player's next link, revoked in turn
    assert store.revoke_link("first", "third") == "third"
    assert store.revoke_link("old", "fourth") == "third"  # followed to where the data is


def test_where_a_revoked_id_went_is_read_without_moving_anything(store: Store) -> None:
    """Issue 44: a browser that still holds an emptied id of its own is offered the way back;
    asking where it went never revokes a link that is still there."""
    store.change_game("old", "HM1-N-AAAAAAB", lambda s, g: (_game("HM1-N-AAAAAAB"), None))
    store.save_link("old", "digest")
    assert store.moved_to("old") is None
    assert store.link_owner("digest") == "old"  # asking moved nothing
    assert store.revoke_link("old", "first") == "first"
    assert store.moved_to("old") == "first" and store.moved_to("first") is None
    store.save_link("first", "digest-2")
    assert store.revoke_link("first", "second") == "second"
    assert store.moved_to("old") == "second"  # followed to where the data is
    assert store.moved_to("nobody") is None


def test_ten_revocations_at_once_all_answer_the_id_that_holds_the_data(store: Store) -> None:
    store.change_game("old", "HM1-N-AAAAAAB", lambda s, g: (_game("HM1-N-AAAAAAB"), None))
    store.save_link("old", "digest")

    def revoke(n: int) -> str | None:  # as a worker process of its own would
        answer: str | None = asyncio.run(store.store.revoke_link("old", f"new{n}"))
        return answer

    with ThreadPoolExecutor(10) as pool:
        answers = list(pool.map(revoke, range(10)))
    holder = answers[0]
    assert holder is not None and answers == [holder] * 10
    assert [g.code for g in store.recent_games(holder)] == ["HM1-N-AAAAAAB"]
    assert [store.knows(f"new{n}") for n in range(10)].count(True) == 1


def test_a_moved_player_keeps_counting_once(store: Store) -> None:
    code = "HM1-N-AAAAAAB"
    store.change_game("old", code, lambda s, g: (_game(code), None))
    store.save_link("old", "digest")
    store.revoke_link("old", "new")
    store.change_game("new", code, lambda s, g: (_game(code, 48, "won"), None))
    doc = store.player_stats("new")
    assert doc is not None and (doc["k"]["HM"]["played"], doc["k"]["HM"]["won"]) == (1, 1)


# --- a store that cannot write -------------------------------------------------------------------


@pytest.fixture
def small_sqlite(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[SQLiteStore]:
    """A SQLite store whose file may not grow past 64 pages (``max_page_count``: the same
    ``SQLITE_FULL`` a full disk gives)."""
    opened = sqlite_files.SQLiteFile._open

    def limited(self):  # type: ignore[no-untyped-def]
        conn = opened(self)
        conn.execute("PRAGMA max_page_count = 64")
        return conn

    monkeypatch.setattr(sqlite_files.SQLiteFile, "_open", limited)
    store = SyncStore(SQLiteStore(str(tmp_path / "games.db")))
    yield store
    store.close()


def _fill(store: SQLiteStore) -> int:
    """Write games until the file is full; how many were written."""
    for n in range(10_000):
        code = f"HM1-N-AAAA{n:03d}"
        row = StoredGame(code, {"pad": "x" * 3000}, "playing", 0, 0, now_ms())
        try:
            run(store.store.change_game(f"p{n % 50}", code, lambda s, g, r=row: (r, None)))
        except StoreError:
            return n
    raise AssertionError("the file never filled")


def test_a_full_sqlite_file_is_unhealthy_until_room_is_made(small_sqlite: SQLiteStore) -> None:
    small_sqlite.ping()
    assert _fill(small_sqlite) > 0
    with pytest.raises(StoreFullError, match="full"):
        small_sqlite.ping()
    small_sqlite.sweep(now_ms() + 1)  # room again: every game deleted
    small_sqlite.ping()
    assert small_sqlite._file.cannot_write is None


def test_health_says_a_full_sqlite_store_cannot_write(small_sqlite: SQLiteStore) -> None:
    """Before: ``/health`` said ``ok`` while every new game was refused."""
    with TestClient(create_app(store=small_sqlite.store)) as client:
        assert client.get("/health").text == "ok"
        _fill(small_sqlite)
        answer = client.get("/health")
        assert (answer.status_code, answer.text) == (503, "store cannot write")


@pytest.fixture
def full_redis(redis_url: str, redis_client) -> Iterator[Store]:
    """A store on the test server, which is then given a ``maxmemory`` just above what it
    uses, ``noeviction``, and filled to it (restored afterwards: the server is shared by the
    whole run)."""
    from app.store.redis import RedisStore

    store = SyncStore(RedisStore(redis_url))  # opened before: it has written its layout's marker
    store.kept_secret()  # and the secret, as the site's first start did
    saved = redis_client.config_get("maxmemory*")
    used = int(redis_client.info("memory")["used_memory"])
    redis_client.config_set("maxmemory-policy", "noeviction")
    redis_client.config_set("maxmemory", used + 512 * 1024)
    try:
        fill_redis(redis_client)
        # well over it, not by a hair: the server frees client buffers over time, and then
        # used_memory fell back under maxmemory between the checks
        full = int(redis_client.info("memory")["used_memory"]) - 256 * 1024
        redis_client.config_set("maxmemory", full)
        yield store
    finally:
        redis_client.config_set("maxmemory", saved["maxmemory"])
        redis_client.config_set("maxmemory-policy", saved["maxmemory-policy"])
        redis_client.flushdb()
        store.close()


def test_health_says_a_full_redis_cannot_write(full_redis: Store) -> None:
    """Before: a new player's first tap answered 503 while ``/health`` said 200."""
    with pytest.raises(StoreFullError, match="maxmemory"):
        full_redis.ping()
    with TestClient(create_app(store=full_redis.store)) as client:
        answer = client.get("/health")
        assert (answer.status_code, answer.text) == (503, "store cannot write")
