"""One behavioural suite for every store, then what only the SQLite file promises."""

from __future__ import annotations

import asyncio
import re
import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path

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
from app.store.base import FINISHED_WINDOW
from app.store.marks import Marks, Win
from app.store.redis import RedisStore
from app.store.sqlite import SCHEMA_VERSION, SQLiteStore
from app.store.sync import SyncStore
from tests.store.helpers import (
    MARKED,
    REPLAY,
    assert_two_stores_lose_no_update,
    game,
    increment,
    now_ms,
    put,
)

# The behaviour every store shares (the ``store`` fixture, tests/store/conftest.py, is each of
# memory, SQLite and Redis in turn).


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
    new = StoredGame("HM-1", {"deal": [1, 2], "moves": ["a"]}, "playing", 12, 3, 1000, MARKED)
    seen = []

    def create(s: SessionData | None, g: StoredGame | None) -> tuple[StoredGame, str]:
        seen.append((s, g))
        return new, "created"

    assert store.change_game("s1", "HM-1", create) == "created"
    assert seen == [(session, None)]
    assert store.load("s1", "HM-1") == (session, new)


def test_a_change_sees_the_previous_game_exactly_and_replaces_it(store: Store) -> None:
    unproved = Marks(unproved=True)  # the one mark a change sets afresh (never carried)
    first = StoredGame("HM-1", {"n": 1, "list": [1, "x", None]}, "playing", 5, 1, 100, unproved)
    second = StoredGame("HM-1", {"n": 2}, "won", 52, 2, 200)
    put(store, "s1", first)
    seen = []

    def update(s: SessionData | None, g: StoredGame | None) -> tuple[StoredGame, int]:
        seen.append((s, g))
        return second, 7

    assert store.change_game("s1", "HM-1", update) == 7
    assert seen == [(None, first)]
    assert store.load("s1", "HM-1") == (None, second)


def test_a_change_keeps_the_marks_of_the_game_it_replaces(store: Store) -> None:
    """One carry for every store (issue 25 item 4): the statistics' mark is the store's own,
    the daily day and an earlier win stay unless the change sets them, a won game played
    again keeps its win and that win's replay, and ``unproved`` and ``retry`` are the
    change's alone."""
    won = StoredGame("HM-1", {"clock": [90_000, None]}, "won", 520, 48, 100, MARKED)
    put(store, "s1", won)
    again = StoredGame("HM-1", {"n": 2}, "playing", 0, 0, 200, Marks(counted="done"))
    put(store, "s1", again)
    stored = store.load("s1", "HM-1")[1]
    assert stored is not None
    # the win keeps its replay; the game started afresh has none (it gets its own when it ends)
    assert stored.marks == Marks("open", "2026-12-01", Win(90_000, 48, 520, REPLAY), False)
    put(store, "s1", StoredGame("HM-1", {"n": 3}, "playing", 0, 1, 300, Marks(daily="2026-12-02")))
    assert store.load("s1", "HM-1")[1].marks.daily == "2026-12-02"  # type: ignore[union-attr]


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


def test_finished_games_lists_ended_games_newest_first_with_their_time_and_marks(
    store: Store,
) -> None:
    won = StoredGame("W", {"clock": [205000, None]}, "won", 520, 48, 900, MARKED)
    put(store, "s1", won)
    put(store, "s1", game("S", state="stuck", score=30, moves=3, updated_ms=800))
    put(store, "s1", game("L", state="lost", updated_ms=950))
    put(store, "s1", game("P", updated_ms=1000))
    put(store, "s2", game("X", state="won", updated_ms=1000))
    assert store.finished_games("s1") == [
        GameSummary("L", "lost", 0, 0, 950),
        GameSummary("W", "won", 520, 48, 900, 205000, MARKED),
        GameSummary("S", "stuck", 30, 3, 800),
    ]
    assert [g.code for g in store.finished_games("s1", limit=1)] == ["L"]
    assert store.finished_games("s1", limit=0) == []
    assert store.finished_games("nobody") == []
    assert run_loop(store.store.finished_games("s1", limit=2)) == store.finished_games("s1")[:2]


def test_finished_games_look_only_among_the_most_recently_changed(store: Store) -> None:
    put(store, "s1", game("OLD", state="won", updated_ms=1))
    for number in range(FINISHED_WINDOW):
        put(store, "s1", game(f"P{number:02}", updated_ms=10 + number))
    assert store.finished_games("s1") == []
    put(store, "s1", game("NEW", state="won", updated_ms=500))
    assert [g.code for g in store.finished_games("s1")] == ["NEW"]


def test_a_game_played_again_leaves_the_finished_list(store: Store) -> None:
    put(store, "s1", game("A", state="won", updated_ms=2))
    put(store, "s1", game("A", updated_ms=3))
    assert store.finished_games("s1") == []
    assert [g.code for g in store.recent_games("s1")] == ["A"]


def test_recent_games_orders_equal_times_by_code_and_cuts_at_the_limit(store: Store) -> None:
    for code in ["D", "B", "C", "A"]:
        put(store, "s1", game(code, updated_ms=100))
    put(store, "s1", game("E", updated_ms=200))
    put(store, "s1", game("F", updated_ms=50))
    assert [g.code for g in store.recent_games("s1", limit=3)] == ["E", "A", "B"]
    assert [g.code for g in store.recent_games("s1", limit=1)] == ["E"]
    assert [g.code for g in store.recent_games("s1")] == ["E", "A", "B", "C", "D", "F"]


def test_a_game_changed_again_moves_up_the_recent_list(store: Store) -> None:
    put(store, "s1", game("A", updated_ms=1))
    put(store, "s1", game("B", updated_ms=2))
    put(store, "s1", game("A", n=1, moves=1, updated_ms=3))
    assert store.recent_games("s1") == [
        GameSummary("A", "playing", 0, 1, 3),
        GameSummary("B", "playing", 0, 0, 2),
    ]


@pytest.mark.parametrize(
    ("first", "second"),
    [(("a:b", "c"), ("a", "b:c")), (("a%3Ab", "c"), ("a:b", "c")), (("x", "y"), ("x:y", ""))],
)
def test_odd_session_ids_and_codes_never_share_a_game(
    store: Store, first: tuple[str, str], second: tuple[str, str]
) -> None:
    put(store, first[0], game(first[1], 1))
    put(store, second[0], game(second[1], 2))
    assert store.load(*first) == (None, game(first[1], 1))
    assert store.load(*second) == (None, game(second[1], 2))
    assert [g.code for g in store.recent_games(first[0])] == [first[1]]
    assert [g.code for g in store.recent_games(second[0])] == [second[1]]


def test_unicode_and_large_values_round_trip(store: Store) -> None:
    stored = StoredGame(
        "SH-ü✓",
        {"moves": list(range(2000)), "name": 'tök ✓ \u0000 "q"', "deep": [[[[{"a": None}]]]]},
        "stuck",
        -3,
        2**40,
        2**42,
        MARKED._replace(daily="2026-12-01 ✓ \u0000"),
    )
    put(store, "sid-ü", stored)
    assert store.load("sid-ü", "SH-ü✓") == (None, stored)


@pytest.mark.slow
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
    stored = StoredGame("HM-1", {"n": 1}, "playing", 3, 4, 5, MARKED)
    first = SyncStore(SQLiteStore(path))
    first.save_session("s1", session)
    put(first, "s1", stored)
    first.close()
    second = SyncStore(SQLiteStore(path))
    assert second.load("s1", "HM-1") == (session, stored)
    assert second.recent_games("s1") == [GameSummary("HM-1", "playing", 3, 4, 5, 0, MARKED)]
    second.close()


def test_a_closed_sqlite_store_refuses_use(tmp_path: Path) -> None:
    store = SyncStore(SQLiteStore(str(tmp_path / "games.db")))
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.load("s1")


def test_sqlite_connections_use_wal_and_full_sync(tmp_path: Path) -> None:
    store = SyncStore(SQLiteStore(str(tmp_path / "games.db")))
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


def test_a_new_sqlite_file_gets_the_latest_schema_version(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    SyncStore(SQLiteStore(str(path))).close()
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA user_version").fetchone() == (9,)
    assert SCHEMA_VERSION == 9
    tables = {name for (name,) in raw.execute("SELECT name FROM sqlite_master")}
    assert {
        "sessions",
        "games",
        "games_by_state",
        "games_by_updated",
        "sessions_by_touched",
        "verdicts",
        "verdicts_by_updated",
        "moved",
        "leases",
    } <= tables
    raw.close()


def test_a_file_from_a_newer_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    SyncStore(SQLiteStore(str(path))).close()
    raw = sqlite3.connect(path)
    raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    raw.close()
    with pytest.raises(StoreError, match=f"schema version {SCHEMA_VERSION + 1} is newer"):
        SyncStore(SQLiteStore(str(path)))


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match=re.escape(str(tmp_path))):
        SyncStore(SQLiteStore(str(tmp_path)))


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("these are not the tables you are looking for\n" * 100)
    with pytest.raises(StoreError, match=re.escape(str(path))):
        SyncStore(SQLiteStore(str(path)))


def test_a_path_under_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(StoreError, match="file"):
        SyncStore(SQLiteStore(str(tmp_path / "file" / "games.db")))


@pytest.mark.parametrize("data", ["{not json", "[1, 2]", '{"token": 5}', "null", "7"])
def test_a_damaged_session_row_loads_as_no_session(tmp_path: Path, data: str) -> None:
    path = tmp_path / "games.db"
    store = SyncStore(SQLiteStore(str(path)))
    store.save_session("s1", SessionData("tok"))
    with closing(sqlite3.connect(path)) as raw, raw:
        raw.execute("UPDATE sessions SET data = ? WHERE sid = 's1'", (data,))
    assert store.load("s1") == (None, None)
    store.close()


@pytest.mark.parametrize("record", ["{not json", "[1, 2]", '"text"', "null", ""])
def test_a_damaged_game_record_loads_as_an_empty_record(tmp_path: Path, record: str) -> None:
    path = tmp_path / "games.db"
    store = SyncStore(SQLiteStore(str(path)))
    put(store, "s1", game("HM-1", 1, score=3, moves=4, updated_ms=5))
    with closing(sqlite3.connect(path)) as raw, raw:
        raw.execute("UPDATE games SET record = ? WHERE sid = 's1'", (record,))
    assert store.load("s1", "HM-1") == (
        None,
        StoredGame("HM-1", {}, "playing", 3, 4, 5),
    )
    store.close()


def test_damaged_game_columns_load_as_defaults(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    store = SyncStore(SQLiteStore(str(path)))
    put(store, "s1", game("HM-1", 1))
    with closing(sqlite3.connect(path)) as raw, raw:
        raw.execute(
            "UPDATE games SET state = 'odd', score = 'x', moves = 1.5, extra = '[' WHERE sid = 's1'"
        )
    assert store.load("s1", "HM-1") == (None, StoredGame("HM-1", {"n": 1}, "playing", 0, 0, 0))
    store.close()


@pytest.mark.slow
def test_two_sqlite_stores_on_one_file_lose_no_update(tmp_path: Path) -> None:
    """Two stores stand for two worker processes: flock and BEGIN IMMEDIATE keep them in line."""
    path = str(tmp_path / "games.db")
    assert_two_stores_lose_no_update([SyncStore(SQLiteStore(path)), SyncStore(SQLiteStore(path))])


# Choosing a store from configuration text.


def test_open_store_reads_a_sqlite_url(tmp_path: Path) -> None:
    path = tmp_path / "a" / "games.db"
    store = SyncStore(open_store(f"sqlite:///{path}"))
    assert isinstance(store.store, SQLiteStore)
    store.save_session("s1", SessionData("tok"))
    store.close()
    assert path.is_file()


def test_open_store_reads_a_plain_path(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    store = SyncStore(open_store(str(path)))
    assert isinstance(store.store, SQLiteStore)
    store.close()
    assert path.is_file()


def test_open_store_reads_memory() -> None:
    assert isinstance(open_store("memory:"), MemoryStore)


def test_open_store_reads_a_redis_url(redis_url: str) -> None:
    opened = open_store(f" {redis_url} ")
    assert isinstance(opened, RedisStore)
    store = SyncStore(opened)
    store.save_session("s1", SessionData("tok"))
    assert store.load("s1") == (SessionData("tok"), None)
    store.close()


def test_open_store_reads_a_rediss_url() -> None:
    """TLS goes through the same store; nothing listens on port 1, so opening it fails."""
    url = "rediss://127.0.0.1:1/0"
    with pytest.raises(StoreError, match=re.escape(f"cannot reach the Redis store {url!r}")):
        open_store(url)


def test_open_store_refuses_an_unknown_scheme() -> None:
    with pytest.raises(StoreError, match="unknown store scheme 'postgres'") as refused:
        open_store("postgres://user:secret@x/db")
    assert "secret" not in str(refused.value)


SID, CODE = "s-async", "HM1-N-AAAAAAB"


def run_loop(coroutine):
    """Run on a fresh event loop in its own thread: Playwright's sync API (the browser tests)
    keeps a loop running in the main thread for the whole session."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


@pytest.mark.slow
def test_change_game_async_applies_concurrent_changes_in_order_exactly_once(store):
    """Many changes of one game awaited together: each applied once, none lost (for SQLite,
    through the group-commit writer)."""

    async def main():
        def bump(session, game):
            n = (game.record.get("n", 0) if game else 0) + 1
            return StoredGame(CODE, {"n": n}, updated_ms=n), n

        return await asyncio.gather(*(store.store.change_game(SID, CODE, bump) for _ in range(200)))

    results = run_loop(main())
    assert sorted(results) == list(range(1, 201))
    assert store.load(SID, CODE)[1].record == {"n": 200}
    if isinstance(store.store, SQLiteStore):  # group commit: many changes share each transaction
        assert store.batched_changes == 200
        assert store.batches <= 20


def test_a_refused_change_in_a_batch_leaves_the_others(store):
    async def main():
        def bump(session, game):
            n = (game.record.get("n", 0) if game else 0) + 1
            return StoredGame(CODE, {"n": n}, updated_ms=n), n

        def refuse(session, game):
            raise ValueError("refused")

        calls = [
            store.store.change_game(SID, CODE, refuse if i % 3 == 0 else bump) for i in range(30)
        ]
        return await asyncio.gather(*calls, return_exceptions=True)

    results = run_loop(main())
    refused = [r for r in results if isinstance(r, ValueError)]
    assert len(refused) == 10
    assert sorted(r for r in results if isinstance(r, int)) == list(range(1, 21))
    assert store.load(SID, CODE)[1].record == {"n": 20}


# --- the asyncio side ----------------------------------------------------------------------


def test_the_asyncio_calls_see_what_the_others_wrote(store: Store) -> None:
    store.save_session("s1", SessionData("tok"))
    put(store, "s1", game("SH1-C4-AAAAAJ2", n=3, updated_ms=5))

    async def main():
        loaded = await store.store.load("s1", "SH1-C4-AAAAAJ2")
        await store.store.save_session("s2", SessionData("tok2", lang="tr"))
        recent = await store.store.recent_games("s1")
        await store.store.ping()
        return loaded, recent

    (session, stored), recent = run_loop(main())
    assert session == SessionData("tok")
    assert stored is not None and stored.record == {"n": 3}
    assert [g.code for g in recent] == ["SH1-C4-AAAAAJ2"]
    assert store.load("s2")[0] == SessionData("tok2", lang="tr")


def test_sqlite_verdicts_an_older_version_wrote_are_swept_with_old_games(tmp_path: Path) -> None:
    store = SyncStore(SQLiteStore(str(tmp_path / "v.db")))
    try:
        with store.connection() as conn:
            conn.execute("INSERT INTO verdicts VALUES ('old', 1, ?)", (now_ms(),))
        store.sweep(cutoff_ms=now_ms() + 1000)
        assert store.connection().execute("SELECT count(*) FROM verdicts").fetchone() == (0,)
    finally:
        store.close()


def test_a_batch_wakes_its_loop_once_not_once_per_change(tmp_path: Path) -> None:
    """The group-commit writer answers a batch's callers with one ``call_soon_threadsafe``
    per loop: each call wakes the loop and takes the GIL (docs/performance.md, "The
    writer")."""
    store = SyncStore(SQLiteStore(str(tmp_path / "s.db")))
    wakes: list[object] = []

    async def main():
        loop = asyncio.get_running_loop()
        plain = loop.call_soon_threadsafe

        def counted(callback, *args, **kwargs):
            wakes.append(callback)
            return plain(callback, *args, **kwargs)

        loop.call_soon_threadsafe = counted  # type: ignore[method-assign]

        def bump(session, game):
            n = (game.record.get("n", 0) if game else 0) + 1
            return StoredGame(CODE, {"n": n}, updated_ms=n), n

        return await asyncio.gather(*(store.store.change_game(SID, CODE, bump) for _ in range(60)))

    try:
        results = run_loop(main())
        assert sorted(results) == list(range(1, 61))
        assert store.batched_changes == 60
        assert store.batches < 60  # the changes did share transactions
        assert len(wakes) == store.batches
    finally:
        store.close()
