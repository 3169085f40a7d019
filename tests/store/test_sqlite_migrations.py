"""SQLite schema migrations: forward steps run at open, in one write transaction."""

from __future__ import annotations

import sqlite3
import threading
from contextlib import closing
from pathlib import Path

import pytest

from app.store import GameSummary, SessionData, StoredGame, StoreError
from app.store.marks import Marks
from app.store.sqlite import MIGRATIONS, SCHEMA_VERSION, SQLiteStore
from app.store.sqlite import schema as sqlite_schema
from app.store.sync import SyncStore
from tests.store.helpers import game, put


def version_of(path: Path) -> int:
    with closing(sqlite3.connect(path)) as raw:
        version: int = raw.execute("PRAGMA user_version").fetchone()[0]
        return version


def names_in(path: Path) -> set[str]:
    with closing(sqlite3.connect(path)) as raw:
        return {name for (name,) in raw.execute("SELECT name FROM sqlite_master")}


def file_at(path: Path, version: int, *rows: tuple[str, tuple[object, ...]]) -> None:
    """A file made by the first ``version`` migrations, as that version of this code made it,
    with ``rows``: (an INSERT, its values)."""
    with closing(sqlite3.connect(path)) as raw:
        for step in MIGRATIONS[:version]:
            step(raw)
        raw.execute(f"PRAGMA user_version = {version}")
        for statement, values in rows:
            raw.execute(statement, values)
        raw.commit()


GAME_ROW = (
    "INSERT INTO games (sid, code, record, state, score, moves, extra, updated_ms)"
    " VALUES ('s1', 'HM1-N-AAAAAAB', '{\"clock\":[1000,5]}', 'playing', 10, 3, '{}', 5)",
    (),
)
"""One Half Moon game in play, as every version's ``games`` table holds it."""


def test_migrations_are_numbered_by_their_position() -> None:
    assert SCHEMA_VERSION == len(MIGRATIONS) == 9
    assert [step.__name__ for step in MIGRATIONS] == [
        "create_schema_v1",
        "add_sweep_indexes_v2",
        "add_verdicts_v3",
        "add_statistics_v4",
        "add_rate_buckets_v5",
        "add_replays_v6",
        "add_moved_v7",
        "add_analyses_v8",
        "add_leases_v9",
    ]


def test_a_version_5_file_gains_replays_and_the_deals_cells_and_keeps_its_figures(
    tmp_path: Path,
) -> None:
    """Version 5 → 6 (issue 26): replays, and each deal's wins as cells; a deal's figures
    from before read with no cells (the end box then leaves out where a win stands)."""
    path = tmp_path / "games.db"
    file_at(
        path,
        5,
        (
            "INSERT INTO deal_stats (code, players, wins, best_ms, fewest, updated_ms)"
            " VALUES ('HM1-N-AAAAAAB', 3, 2, 9000, 48, 5)",
            (),
        ),
    )
    store = SyncStore(SQLiteStore(str(path)))
    assert version_of(path) == SCHEMA_VERSION
    assert {"replays", "replays_by_sid", "replays_by_ended"} <= names_in(path)
    assert store.deal_stats("HM1-N-AAAAAAB") == {
        "players": 3,
        "wins": 2,
        "best_ms": 9000,
        "fewest": 48,
        "cells": {},
    }
    assert store.replay("A" * 22) is None and store.player_replays("s1") == []
    store.close()


def test_a_version_8_file_gains_the_leases_and_keeps_its_games(tmp_path: Path) -> None:
    """Version 8 → 9 (issue 44): the leases every worker on the file shares (one analysis
    running per player and per address on the whole site)."""
    path = tmp_path / "games.db"
    file_at(path, 8, GAME_ROW)
    store = SyncStore(SQLiteStore(str(path)))
    assert version_of(path) == 9
    assert {"leases", "leases_by_until"} <= names_in(path)
    assert store.load("s1", "HM1-N-AAAAAAB")[1] is not None
    assert store.take_lease("analysis:address:x", "one", 60_000) is True
    store.close()


def test_a_version_4_file_gains_the_rate_buckets_and_keeps_its_games(tmp_path: Path) -> None:
    """Version 4 → 5 (issue 24): the rate limits' buckets move into the store's own file."""
    path = tmp_path / "games.db"
    file_at(path, 4, GAME_ROW)
    store = SyncStore(SQLiteStore(str(path)))
    assert version_of(path) == SCHEMA_VERSION
    assert {"rate_buckets", "rate_buckets_by_full"} <= names_in(path)
    assert [g.code for g in store.recent_games("s1")] == ["HM1-N-AAAAAAB"]
    store.close()


def test_a_version_3_file_gains_the_statistics_tables_and_counts(tmp_path: Path) -> None:
    """Version 3 → 4 (issue 16): a file with games in play migrates; a game played before
    the migration counts as played when it ends."""
    path = tmp_path / "games.db"
    file_at(path, 3, GAME_ROW)
    assert not {"player_stats", "deal_stats", "links"} & names_in(path)
    store = SyncStore(SQLiteStore(str(path)))
    assert version_of(path) == SCHEMA_VERSION
    assert {"player_stats", "deal_stats", "links", "player_stats_by_updated"} <= names_in(path)
    won = StoredGame("HM1-N-AAAAAAB", {"clock": [9000, None]}, "won", 520, 48, 10, kind="HM")
    put(store, "s1", won)
    doc = store.player_stats("s1")
    assert doc is not None
    assert (doc["k"]["HM"]["played"], doc["k"]["HM"]["won"], doc["k"]["HM"]["best_ms"]) == (
        1,
        1,
        9000,
    )
    assert store.deal_stats("HM1-N-AAAAAAB") == {
        "players": 1,
        "wins": 1,
        "best_ms": 9000,
        "fewest": 48,
        "cells": {"48.1": 1},
    }
    store.close()


def test_a_version_1_file_with_data_migrates_to_the_latest_and_keeps_it(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with closing(sqlite3.connect(path)) as raw:
        MIGRATIONS[0](raw)  # the version-1 schema, as version 1 of this code created it
        raw.execute("PRAGMA user_version = 1")
        raw.executemany(
            "INSERT INTO sessions (sid, data, created_ms, touched_ms) VALUES (?, ?, ?, ?)",
            [
                (
                    "s1",
                    '{"token":"t1","move_errors":true,"placement_help":false,"lang":"fr"}',
                    1,
                    2,
                ),
                (
                    "s2",
                    '{"token":"t2","move_errors":false,"placement_help":true,"lang":null}',
                    3,
                    4,
                ),
            ],
        )
        raw.executemany(
            "INSERT INTO games (sid, code, record, state, score, moves, extra, updated_ms)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                ("s1", "HM-1", '{"n":1}', "playing", 5, 6, '{"daily":"2026-11-30"}', 700),
                ("s1", "SH-2", '{"n":2}', "won", 52, 80, "{}", 800),
                ("s2", "HM-1", '{"n":3}', "playing", 0, 1, "{}", 900),
            ],
        )
        raw.commit()
    assert version_of(path) == 1
    assert "games_by_updated" not in names_in(path)

    store = SyncStore(SQLiteStore(str(path)))
    assert version_of(path) == SCHEMA_VERSION
    assert {"games_by_updated", "sessions_by_touched"} <= names_in(path)
    s1 = SessionData("t1", move_errors=True, placement_help=False, lang="fr")
    s2 = SessionData("t2", move_errors=False, placement_help=True, lang=None)
    assert store.load("s1", "HM-1") == (
        s1,
        StoredGame("HM-1", {"n": 1}, "playing", 5, 6, 700, Marks(daily="2026-11-30")),
    )
    assert store.load("s1", "SH-2") == (s1, StoredGame("SH-2", {"n": 2}, "won", 52, 80, 800))
    assert store.load("s2", "HM-1") == (s2, StoredGame("HM-1", {"n": 3}, "playing", 0, 1, 900))
    assert store.recent_games("s1") == [
        GameSummary("HM-1", "playing", 5, 6, 700, 0, Marks(daily="2026-11-30"))
    ]
    put(store, "s2", game("HM-1", 4, updated_ms=1000))  # and it is writable
    assert store.load("s2", "HM-1")[1] == game("HM-1", 4, updated_ms=1000)
    assert store.sweep(850) == 3  # s1's two games, then s1; s2 lives on through its game
    assert store.load("s1", "HM-1") == (None, None)
    assert store.load("s2") == (s2, None)
    store.close()

    reopened = SyncStore(SQLiteStore(str(path)))  # already at the latest version: nothing to do
    assert version_of(path) == SCHEMA_VERSION
    assert reopened.load("s2", "HM-1")[1] == game("HM-1", 4, updated_ms=1000)
    reopened.close()


def test_a_failing_step_rolls_back_every_step_of_the_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(conn: sqlite3.Connection) -> None:
        conn.execute("CREATE TABLE half_done (x)")
        conn.execute("SELECT * FROM no_such_table")

    monkeypatch.setattr(sqlite_schema, "MIGRATIONS", [*MIGRATIONS, broken])
    monkeypatch.setattr(sqlite_schema, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    path = tmp_path / "games.db"
    with pytest.raises(StoreError, match="no_such_table"):
        SyncStore(SQLiteStore(str(path)))
    assert version_of(path) == 0
    assert names_in(path) == set()  # not even version 1's tables: one transaction


def open_together(path: Path, count: int) -> tuple[list[SQLiteStore], list[BaseException]]:
    """``count`` threads open a store on ``path`` at the same moment."""
    start = threading.Barrier(count)
    opened: list[SQLiteStore] = []
    errors: list[BaseException] = []

    def open_it() -> None:
        start.wait()
        try:
            opened.append(SyncStore(SQLiteStore(str(path))))
        except BaseException as exc:  # reported to the main thread
            errors.append(exc)

    threads = [threading.Thread(target=open_it) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return opened, errors


@pytest.mark.slow
@pytest.mark.parametrize("count", [2, 4])
def test_stores_opening_a_new_file_at_once_all_succeed(tmp_path: Path, count: int) -> None:
    """Workers starting together: one migrates, the others wait for its write lock and then
    find the file migrated (ten new files, to give the race its chances)."""
    for round_ in range(10):
        path = tmp_path / f"games-{round_}.db"
        opened, errors = open_together(path, count)
        assert errors == []
        assert len(opened) == count
        assert version_of(path) == SCHEMA_VERSION
        put(opened[0], "s1", game("A", 1))
        assert opened[-1].load("s1", "A") == (None, game("A", 1))
        for store in opened:
            store.close()


def test_stores_opening_a_version_1_file_at_once_migrate_it_once(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    file_at(path, 1)
    opened, errors = open_together(path, 4)
    assert errors == []
    assert version_of(path) == SCHEMA_VERSION
    for store in opened:
        store.close()


def test_a_version_7_file_keeps_its_replays_and_gains_their_analyses(tmp_path: Path) -> None:
    """Version 7 → 8: a replay's analysis lives in its row (none for old rows)."""
    path = tmp_path / "games.db"
    file_at(
        path,
        7,
        (
            "INSERT INTO replays (id, sid, code, state, ms, moves, score, ended_ms, line)"
            " VALUES (?, 's1', 'HM1-N-AAAAAAB', 'stuck', 9000, 1, 10, 5, 'ae')",
            ("A" * 22,),
        ),
    )
    store = SyncStore(SQLiteStore(str(path)))
    assert version_of(path) == SCHEMA_VERSION
    assert store.replay("A" * 22) is not None and store.analysis("A" * 22) is None
    store.save_analysis("A" * 22, {"kind": "cannot_win"})
    assert store.analysis("A" * 22) == {"kind": "cannot_win"}
    store.close()
