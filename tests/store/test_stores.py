"""One behavioural suite for every store, then what only the SQLite file promises."""

from __future__ import annotations

import re
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from app.store import (
    GameSummary,
    MemoryStore,
    SessionData,
    Store,
    StoredGame,
    StoreError,
    open_store,
)
from app.store.sqlite import SCHEMA_VERSION, SQLiteStore


@pytest.fixture(params=["memory", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    made: Store = (
        MemoryStore() if request.param == "memory" else SQLiteStore(str(tmp_path / "games.db"))
    )
    yield made
    made.close()


def game(code: str = "HM-1", n: int = 0, **fields: Any) -> StoredGame:
    return StoredGame(code=code, record={"n": n}, **fields)


def put(store: Store, sid: str, stored: StoredGame) -> None:
    store.change_game(sid, stored.code, lambda _s, _g: (stored, None))


# The behaviour every store shares.


def test_an_unknown_session_loads_as_nothing(store: Store) -> None:
    assert store.load("nobody") == (None, None)
    assert store.load("nobody", "HM-1") == (None, None)


def test_a_saved_session_loads_equal(store: Store) -> None:
    session = SessionData("tok-1", move_errors=True, placement_help=False, lang="fr")
    store.save_session("s1", session)
    assert store.load("s1") == (session, None)
    assert store.load("s1", "HM-1") == (session, None)


def test_saving_a_session_again_replaces_it(store: Store) -> None:
    store.save_session("s1", SessionData("tok-1", lang="fr"))
    store.save_session("s1", SessionData("tok-2", placement_help=True))
    assert store.load("s1") == (SessionData("tok-2", placement_help=True, lang=None), None)


@pytest.mark.parametrize(
    "session",
    [
        SessionData("t"),
        SessionData("t", move_errors=True, placement_help=True, lang=None),
        SessionData("t", move_errors=False, placement_help=True, lang="de"),
        SessionData("tök ✓", move_errors=True, placement_help=False, lang="pt-BR"),
    ],
)
def test_every_session_field_round_trips(store: Store, session: SessionData) -> None:
    store.save_session("s1", session)
    loaded, _ = store.load("s1")
    assert loaded == session
    assert loaded is not None and loaded.lang == session.lang


def test_a_change_creates_the_game_and_returns_the_callbacks_result(store: Store) -> None:
    session = SessionData("tok")
    store.save_session("s1", session)
    new = StoredGame(
        "HM-1", {"deal": [1, 2], "moves": ["a"]}, "playing", 12, 3, 1000, {"lost": False}
    )
    seen = []

    def create(s: SessionData | None, g: StoredGame | None) -> tuple[StoredGame, str]:
        seen.append((s, g))
        return new, "created"

    assert store.change_game("s1", "HM-1", create) == "created"
    assert seen == [(session, None)]
    assert store.load("s1", "HM-1") == (session, new)


def test_a_change_sees_the_previous_game_exactly_and_replaces_it(store: Store) -> None:
    first = StoredGame("HM-1", {"n": 1, "list": [1, "x", None]}, "playing", 5, 1, 100, {"k": [1]})
    second = StoredGame("HM-1", {"n": 2}, "won", 52, 2, 200, {})
    put(store, "s1", first)
    seen = []

    def update(s: SessionData | None, g: StoredGame | None) -> tuple[StoredGame, int]:
        seen.append((s, g))
        return second, 7

    assert store.change_game("s1", "HM-1", update) == 7
    assert seen == [(None, first)]
    assert store.load("s1", "HM-1") == (None, second)


def test_a_raising_change_writes_nothing(store: Store) -> None:
    put(store, "s1", game(n=1))

    class RefusedError(Exception):
        pass

    def refuse(_s: SessionData | None, _g: StoredGame | None) -> tuple[StoredGame, None]:
        raise RefusedError("the engine said no")

    with pytest.raises(RefusedError):
        store.change_game("s1", "HM-1", refuse)
    with pytest.raises(RefusedError):
        store.change_game("s1", "HM-2", refuse)
    assert store.load("s1", "HM-1") == (None, game(n=1))
    assert store.load("s1", "HM-2") == (None, None)
    put(store, "s1", game(n=2))  # the store is still usable: no transaction left open
    assert store.load("s1", "HM-1") == (None, game(n=2))


def test_a_change_returning_no_game_writes_nothing(store: Store) -> None:
    put(store, "s1", game(n=1))
    assert store.change_game("s1", "HM-1", lambda _s, _g: (None, "kept")) == "kept"
    assert store.change_game("s1", "HM-2", lambda _s, _g: (None, "none")) == "none"
    assert store.load("s1", "HM-1") == (None, game(n=1))
    assert store.load("s1", "HM-2") == (None, None)
    assert store.recent_games("s1") == [GameSummary("HM-1", "playing", 0, 0, 0)]


def test_games_are_kept_apart_per_session_and_per_code(store: Store) -> None:
    put(store, "s1", game("HM-1", 1))
    put(store, "s1", game("HM-2", 2))
    put(store, "s2", game("HM-1", 3))
    assert store.load("s1", "HM-1") == (None, game("HM-1", 1))
    assert store.load("s1", "HM-2") == (None, game("HM-2", 2))
    assert store.load("s2", "HM-1") == (None, game("HM-1", 3))
    assert store.load("s2", "HM-2") == (None, None)
    assert store.load("s3", "HM-1") == (None, None)


def test_recent_games_lists_playing_games_newest_first_up_to_the_limit(store: Store) -> None:
    put(store, "s1", game("A", score=1, moves=10, updated_ms=300))
    put(store, "s1", game("B", score=2, moves=20, updated_ms=500))
    put(store, "s1", game("C", score=3, moves=30, updated_ms=100))
    put(store, "s1", game("D", score=4, moves=40, updated_ms=400))
    put(store, "s1", game("W", state="won", updated_ms=900))
    put(store, "s1", game("S", state="stuck", updated_ms=800))
    put(store, "s1", game("L", state="lost", updated_ms=700))
    put(store, "s2", game("X", updated_ms=1000))
    assert store.recent_games("s1") == [
        GameSummary("B", "playing", 2, 20, 500),
        GameSummary("D", "playing", 4, 40, 400),
        GameSummary("A", "playing", 1, 10, 300),
        GameSummary("C", "playing", 3, 30, 100),
    ]
    assert [g.code for g in store.recent_games("s1", limit=2)] == ["B", "D"]
    assert store.recent_games("s1", limit=0) == []
    assert store.recent_games("nobody") == []


def test_a_finished_game_leaves_the_recent_list(store: Store) -> None:
    put(store, "s1", game("A", updated_ms=1))
    put(store, "s1", game("A", state="won", updated_ms=2))
    assert store.recent_games("s1") == []


def increment(store: Store, sid: str, code: str, times: int, errors: list[BaseException]) -> None:
    def plus_one(_s: SessionData | None, g: StoredGame | None) -> tuple[StoredGame, None]:
        n = 0 if g is None else g.record["n"]
        time.sleep(0)  # let another thread run between the read and the write
        return game(code, n + 1), None

    try:
        for _ in range(times):
            store.change_game(sid, code, plus_one)
    except BaseException as exc:  # reported to the main thread
        errors.append(exc)


def test_concurrent_changes_of_one_game_lose_no_update(store: Store) -> None:
    errors: list[BaseException] = []
    threads = [
        threading.Thread(target=increment, args=(store, "s1", "HM-1", 50, errors)) for _ in range(8)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert store.load("s1", "HM-1") == (None, game("HM-1", 400))


# What only the SQLite file promises.


def test_sqlite_data_survives_closing_and_reopening(tmp_path: Path) -> None:
    path = str(tmp_path / "deep" / "er" / "games.db")
    session = SessionData("tok", move_errors=True, lang="fr")
    stored = StoredGame("HM-1", {"n": 1}, "playing", 3, 4, 5, {"x": 1})
    first = SQLiteStore(path)
    first.save_session("s1", session)
    put(first, "s1", stored)
    first.close()
    second = SQLiteStore(path)
    assert second.load("s1", "HM-1") == (session, stored)
    assert second.recent_games("s1") == [GameSummary("HM-1", "playing", 3, 4, 5)]
    second.close()


def test_a_closed_sqlite_store_refuses_use(tmp_path: Path) -> None:
    store = SQLiteStore(str(tmp_path / "games.db"))
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.load("s1")


def test_sqlite_connections_use_wal_and_full_sync(tmp_path: Path) -> None:
    store = SQLiteStore(str(tmp_path / "games.db"))
    conns: list[sqlite3.Connection] = [store.connection()]
    worker = threading.Thread(target=lambda: conns.append(store.connection()))
    worker.start()
    worker.join()
    assert conns[0] is not conns[1]  # one connection per thread
    for conn in conns:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert conn.execute("PRAGMA synchronous").fetchone() == (2,)
        assert conn.execute("PRAGMA foreign_keys").fetchone() == (1,)
        assert conn.execute("PRAGMA busy_timeout").fetchone() == (5000,)
        assert conn.isolation_level is None
    store.close()


def test_a_new_sqlite_file_gets_schema_version_1(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    SQLiteStore(str(path)).close()
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA user_version").fetchone() == (1,)
    assert SCHEMA_VERSION == 1
    tables = {name for (name,) in raw.execute("SELECT name FROM sqlite_master")}
    assert {"sessions", "games", "games_by_state"} <= tables
    raw.close()


def test_a_file_from_a_newer_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    SQLiteStore(str(path)).close()
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA user_version = 2")
    raw.close()
    with pytest.raises(StoreError, match="schema version 2"):
        SQLiteStore(str(path))


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match=re.escape(str(tmp_path))):
        SQLiteStore(str(tmp_path))


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("these are not the tables you are looking for\n" * 100)
    with pytest.raises(StoreError, match=re.escape(str(path))):
        SQLiteStore(str(path))


def test_a_path_under_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(StoreError, match="file"):
        SQLiteStore(str(tmp_path / "file" / "games.db"))


@pytest.mark.parametrize("data", ["{not json", "[1, 2]", '{"token": 5}', "null", "7"])
def test_a_damaged_session_row_loads_as_no_session(tmp_path: Path, data: str) -> None:
    path = tmp_path / "games.db"
    store = SQLiteStore(str(path))
    store.save_session("s1", SessionData("tok"))
    with closing(sqlite3.connect(path)) as raw, raw:
        raw.execute("UPDATE sessions SET data = ? WHERE sid = 's1'", (data,))
    assert store.load("s1") == (None, None)
    store.close()


@pytest.mark.parametrize("record", ["{not json", "[1, 2]", '"text"', "null", ""])
def test_a_damaged_game_record_loads_as_an_empty_record(tmp_path: Path, record: str) -> None:
    path = tmp_path / "games.db"
    store = SQLiteStore(str(path))
    put(store, "s1", game("HM-1", 1, score=3, moves=4, updated_ms=5))
    with closing(sqlite3.connect(path)) as raw, raw:
        raw.execute("UPDATE games SET record = ? WHERE sid = 's1'", (record,))
    assert store.load("s1", "HM-1") == (
        None,
        StoredGame("HM-1", {}, "playing", 3, 4, 5, {}),
    )
    store.close()


def test_damaged_game_columns_load_as_defaults(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    store = SQLiteStore(str(path))
    put(store, "s1", game("HM-1", 1))
    with closing(sqlite3.connect(path)) as raw, raw:
        raw.execute(
            "UPDATE games SET state = 'odd', score = 'x', moves = 1.5, extra = '[' WHERE sid = 's1'"
        )
    assert store.load("s1", "HM-1") == (None, StoredGame("HM-1", {"n": 1}, "playing", 0, 0, 0, {}))
    store.close()


def test_two_sqlite_stores_on_one_file_lose_no_update(tmp_path: Path) -> None:
    """Two stores stand for two worker processes: only BEGIN IMMEDIATE keeps them in line."""
    path = str(tmp_path / "games.db")
    stores = [SQLiteStore(path), SQLiteStore(path)]
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


# Choosing a store from configuration text.


def test_open_store_reads_a_sqlite_url(tmp_path: Path) -> None:
    path = tmp_path / "a" / "games.db"
    store = open_store(f"sqlite:///{path}")
    assert isinstance(store, SQLiteStore)
    store.save_session("s1", SessionData("tok"))
    store.close()
    assert path.is_file()


def test_open_store_reads_a_plain_path(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    store = open_store(str(path))
    assert isinstance(store, SQLiteStore)
    store.close()
    assert path.is_file()


def test_open_store_reads_memory() -> None:
    assert isinstance(open_store("memory:"), MemoryStore)


def test_open_store_refuses_an_unknown_scheme() -> None:
    with pytest.raises(StoreError, match="redis://x"):
        open_store("redis://x")
