"""The write-ahead log goes back into the database file on the checkpointer thread, never inside
the writer's commits (an automatic checkpoint made the commit that filled the log wait)."""

from __future__ import annotations

import asyncio
import os
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import app.store.sqlite.writer as sqlite_writer
from app.store import StoredGame
from app.store.sqlite import SQLiteStore
from app.store.sync import SyncStore

PAGE = 4096


def write(store: SQLiteStore, first: int, count: int) -> None:
    """``count`` new games of about a page each (each player's first), through the
    group-commit writer, 20 at a time: a commit each."""

    async def main() -> None:
        def put(session, game):
            return StoredGame("HM1-N-AAAAAAB", {"pad": secrets.token_hex(1500)}, updated_ms=1), None

        for start in range(first, first + count, 20):
            sids = [f"{n:032d}" for n in range(start, min(start + 20, first + count))]
            await asyncio.gather(*(store.store.change_game(s, "HM1-N-AAAAAAB", put) for s in sids))

    with ThreadPoolExecutor(1) as pool:  # a loop of its own (the browser tests keep one running)
        pool.submit(asyncio.run, main()).result()


def log_pages(path: Path) -> int:
    wal = Path(f"{path}-wal")
    return wal.stat().st_size // PAGE if wal.exists() else 0


def test_the_writers_commits_never_checkpoint(tmp_path, monkeypatch):
    monkeypatch.setattr(sqlite_writer, "CHECKPOINT_SECONDS", 3600.0)  # no checkpointer round
    path = tmp_path / "games.db"
    store = SyncStore(SQLiteStore(str(path)))
    try:
        write(store, 0, 1500)
        # SQLite's own checkpoint would have run at 1,000 pages and the log restarted there
        assert log_pages(path) > 1500
    finally:
        store.close()


def test_the_checkpointer_keeps_the_log_short(tmp_path, monkeypatch):
    monkeypatch.setattr(sqlite_writer, "CHECKPOINT_SECONDS", 0.05)
    path = tmp_path / "games.db"
    store = SyncStore(SQLiteStore(str(path)))
    try:
        write(store, 0, 600)
        one_round = log_pages(path)
        for first in (600, 1200):
            time.sleep(0.5)  # a checkpoint copies the log: the next commit starts it over
            write(store, first, 600)
        assert log_pages(path) < one_round * 1.5
    finally:
        store.close()
    assert os.path.exists(path)


@pytest.mark.parametrize("seconds", [0.05])
def test_closing_the_store_stops_the_checkpointer(tmp_path, monkeypatch, seconds):
    monkeypatch.setattr(sqlite_writer, "CHECKPOINT_SECONDS", seconds)
    store = SyncStore(SQLiteStore(str(tmp_path / "games.db")))
    write(store, 0, 10)
    thread = store._writer._checkpointer
    assert thread is not None and thread.is_alive()
    store.close()
    assert not thread.is_alive()
