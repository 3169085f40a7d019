"""Expiry: ``Store.sweep`` deletes old games, then old sessions left without games.

Memory and SQLite delete on a sweep; Redis expires keys by itself (see test_redis.py), so its
sweep only answers 0. One sweep call deletes everything that qualifies, ``batch`` rows per
transaction.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from app.store import SessionData, Store
from app.store.sqlite import SQLiteStore
from app.store.sqlite import sql as sqlite_sql
from app.store.sqlite import sweep as sqlite_sweep
from app.store.sync import SyncStore
from tests.store.helpers import game, now_ms, put

FUTURE = 10**15
"""An ``updated_ms`` no cutoff here reaches: a game played "just now"."""


def test_sweep_removes_old_games_and_keeps_recent_ones(sweeping_store: Store) -> None:
    store = sweeping_store
    put(store, "s1", game("A", 1, updated_ms=100))
    put(store, "s1", game("B", 2, updated_ms=199))
    put(store, "s1", game("C", 3, updated_ms=200))
    put(store, "s2", game("A", 4, updated_ms=FUTURE))
    assert store.sweep(200) == 2
    assert store.load("s1", "A") == (None, None)
    assert store.load("s1", "B") == (None, None)
    assert store.load("s1", "C") == (None, game("C", 3, updated_ms=200))  # not below the cutoff
    assert store.load("s2", "A") == (None, game("A", 4, updated_ms=FUTURE))
    assert [g.code for g in store.recent_games("s1")] == ["C"]
    assert store.sweep(200) == 0


def test_sweep_removes_finished_games_too(sweeping_store: Store) -> None:
    put(sweeping_store, "s1", game("W", state="won", updated_ms=5))
    put(sweeping_store, "s1", game("L", state="lost", updated_ms=5))
    assert sweeping_store.sweep(6) == 2
    assert sweeping_store.load("s1", "W") == (None, None)


def test_sweep_removes_old_sessions_unless_a_game_of_theirs_lives(sweeping_store: Store) -> None:
    store = sweeping_store
    for sid in ["lonely", "playing", "abandoned"]:
        store.save_session(sid, SessionData(f"tok-{sid}"))
    put(store, "playing", game("A", updated_ms=FUTURE))
    put(store, "abandoned", game("A", updated_ms=1))
    cutoff = now_ms() + 60_000  # every session was saved before it
    assert store.sweep(cutoff) == 3  # abandoned's game, then lonely and abandoned
    assert store.load("lonely") == (None, None)
    assert store.load("abandoned", "A") == (None, None)
    assert store.load("playing", "A") == (
        SessionData("tok-playing"),
        game("A", updated_ms=FUTURE),
    )


def test_sweep_keeps_sessions_saved_after_the_cutoff(sweeping_store: Store) -> None:
    cutoff = now_ms() - 60_000
    sweeping_store.save_session("s1", SessionData("tok"))
    assert sweeping_store.sweep(cutoff) == 0
    assert sweeping_store.load("s1") == (SessionData("tok"), None)


def test_saving_a_session_again_renews_it(sweeping_store: Store) -> None:
    sweeping_store.save_session("s1", SessionData("tok"))
    cutoff = now_ms() + 1
    while now_ms() <= cutoff:
        pass
    sweeping_store.save_session("s1", SessionData("tok", lang="fr"))
    assert sweeping_store.sweep(cutoff) == 0
    assert sweeping_store.load("s1") == (SessionData("tok", lang="fr"), None)


def test_one_sweep_deletes_everything_old_in_small_batches(sweeping_store: Store) -> None:
    store = sweeping_store
    for i in range(5):
        put(store, f"g{i}", game("A", updated_ms=i))
    for i in range(3):
        store.save_session(f"s{i}", SessionData("tok"))
    put(store, "keep", game("A", updated_ms=FUTURE))
    assert store.sweep(now_ms() + 60_000, batch=2) == 8
    assert [store.load(f"g{i}", "A") for i in range(5)] == [(None, None)] * 5
    assert [store.load(f"s{i}") for i in range(3)] == [(None, None)] * 3
    assert store.load("keep", "A") == (None, game("A", updated_ms=FUTURE))


@pytest.mark.parametrize("batch", [0, -1])
def test_sweep_refuses_an_empty_batch(store: Store, batch: int) -> None:
    with pytest.raises(ValueError, match="batch"):
        store.sweep(0, batch=batch)


def test_sqlite_sweeps_each_batch_in_its_own_write_transaction(tmp_path: Path) -> None:
    store = SyncStore(SQLiteStore(str(tmp_path / "games.db")))
    for i in range(5):
        put(store, f"g{i}", game("A", updated_ms=i))
    for i in range(3):
        store.save_session(f"s{i}", SessionData("tok"))
    statements: list[str] = []
    store.connection().set_trace_callback(statements.append)  # this thread's connection
    assert sqlite_sweep.sweep(store._file, now_ms() + 60_000, 2, None, 0) == 8
    store.connection().set_trace_callback(None)
    # games 2 + 2 + 1 (short: done), sessions 2 + 1 (short: done), verdicts 0 (short: done),
    # player statistics, deal figures, device links, replays and moves 0 each (short: done),
    # full rate-limit buckets 0 (short: done), leases run out 0 (short: done)
    assert statements.count("BEGIN IMMEDIATE") == 13
    assert statements.count("COMMIT") == 13
    store.close()


def test_sqlite_sweep_finds_old_rows_through_indexes(tmp_path: Path) -> None:
    """Version 2's indexes: the sweep never scans a table to find what is old."""
    store = SyncStore(SQLiteStore(str(tmp_path / "games.db")))
    conn = store.connection()

    def plan(sql: str, *args: int) -> str:
        return " | ".join(row[-1] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}", args))

    games = plan(sqlite_sql.SWEEP_GAMES, 0, 500)
    sessions = plan(sqlite_sql.OLD_SESSIONS, 0, 0, 0, 500)
    delete = plan(sqlite_sql.DELETE_SESSION_WITHOUT_GAMES, 1)
    assert "games_by_updated" in games
    assert "sessions_by_touched" in sessions
    assert "SCAN" not in games + sessions + delete, (games, sessions, delete)
    for table, key, when in (
        ("player_stats", "sid", "updated_ms"),
        ("deal_stats", "code", "updated_ms"),
        ("links", "digest", "created_ms"),
        ("rate_buckets", "key", "full_ms"),
        ("leases", "name", "until_ms"),
    ):  # version 4's tables (issue 16), version 5's (issue 24) and version 9's (issue 44)
        found = plan(f"SELECT {key} FROM {table} WHERE {when} < ? LIMIT ?", 0, 500)
        assert "SCAN" not in found, found
    store.close()


def test_sqlite_sweep_walks_sessions_with_equal_times_and_live_games(tmp_path: Path) -> None:
    """The session cursor is (touched_ms, rowid): equal times are neither skipped nor
    examined twice, and sessions kept alive by a game do not stop the walk."""
    path = tmp_path / "games.db"
    store = SyncStore(SQLiteStore(str(path)))
    with closing(sqlite3.connect(path)) as raw, raw:
        raw.executemany(
            'INSERT INTO sessions VALUES (?, \'{"token": "t"}\', 5, 5)',
            [(f"s{i}",) for i in range(9)],
        )
    for i in range(0, 9, 3):
        put(store, f"s{i}", game("A", updated_ms=FUTURE))
    statements: list[str] = []
    store.connection().set_trace_callback(statements.append)  # this thread's connection
    assert sqlite_sweep.sweep(store._file, 6, 2, None, 0) == 6
    store.connection().set_trace_callback(None)
    assert (
        statements.count("BEGIN IMMEDIATE") == 1 + 5 + 1 + 3 + 1 + 1 + 1 + 1
    )  # games; sessions 2+2+2+2+1; verdicts; v4 tables; replays; moves; full buckets; leases
    with closing(sqlite3.connect(path)) as raw:
        left = [sid for (sid,) in raw.execute("SELECT sid FROM sessions ORDER BY sid")]
    assert left == ["s0", "s3", "s6"]
    store.close()


def test_sqlite_sweep_rests_between_batches_for_other_processes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process's writer polls for the lock; back-to-back batches would starve it."""
    store = SyncStore(SQLiteStore(str(tmp_path / "games.db"), sweep_pause_seconds=0.25))
    for i in range(5):
        put(store, f"g{i}", game("A", updated_ms=i))
    for i in range(3):
        store.save_session(f"s{i}", SessionData("tok"))
    rests: list[float] = []
    monkeypatch.setattr(sqlite_sweep.time, "sleep", rests.append)
    assert store.sweep(now_ms() + 60_000, batch=2) == 8
    assert rests == [0.25] * 3  # after games batches 1 and 2 and sessions batch 1; none at the end
    assert sqlite_sweep.SWEEP_PAUSE_SECONDS == 0.05
    store.close()
