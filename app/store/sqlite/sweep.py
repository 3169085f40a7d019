"""The SQLite store's sweep: what was abandoned, deleted a batch per short transaction."""

from __future__ import annotations

import functools
import sqlite3
import time
from typing import Final

from app.clock import now_ms
from app.store.sqlite import sql
from app.store.sqlite.files import SQLiteFile

SWEEP_PAUSE_SECONDS: Final = 0.05
"""The sweep's rest between batches. A writer of another process waiting for the lock polls
(SQLite's busy handler sleeps 1, 2, 5 … 50 ms between tries, 100 ms only after 1/3 s): a
sweep taking the next batch at once kept such a writer out for a whole sweep (measured: a
tap waited 0.8 s), while a rest as long as the poll interval lets it in after one batch."""

AS_OLD_AS_GAMES: Final = (
    ("player_stats", "sid", "updated_ms"),
    ("deal_stats", "code", "updated_ms"),
    ("links", "digest", "created_ms"),
    ("replays", "id", "ended_ms"),
    ("moved", "sid", "moved_ms"),
)
"""Tables whose rows go once as old as an expired game (a device link lives as long)."""


def _sweep_sessions(
    conn: sqlite3.Connection, *, cutoff_ms: int, after: tuple[int, int], batch: int
) -> tuple[int, list[tuple[int, int]]]:
    """Examine the next ``batch`` old sessions after ``after``; delete those without games.
    Returns how many were deleted and the (touched_ms, rowid) examined."""
    rows: list[tuple[int, int]] = conn.execute(
        sql.OLD_SESSIONS, (cutoff_ms, *after, batch)
    ).fetchall()
    deleted = conn.executemany(sql.DELETE_SESSION_WITHOUT_GAMES, [(r,) for _, r in rows]).rowcount
    return deleted, rows


def _rows(file: SQLiteFile, query: str, cutoff_ms: int, batch: int) -> int:
    """One batch of ``query`` (``DELETE … < ? LIMIT ?``) in its own transaction."""

    def work(conn: sqlite3.Connection) -> int:
        return conn.execute(query, (cutoff_ms, batch)).rowcount

    return file.in_write_transaction(work)


def sweep(
    file: SQLiteFile, cutoff_ms: int, batch: int, idle_cutoff_ms: int | None, pause: float
) -> int:
    """Old games, then old sessions without games: each batch one ``BEGIN IMMEDIATE``
    transaction examining at most ``batch`` rows (found through the version-2 indexes), so a
    tap waits for one batch at most (a few milliseconds for 500 rows). Between batches the
    sweep rests ``pause`` seconds so the other processes' waiting writers get the lock.
    Sessions are walked with a cursor: one kept alive by its games is examined once per
    sweep, not once per batch. Then verdicts, statistics, deal figures, device links,
    replays and revoked players' moves as old as an expired game, rate-limit buckets
    full again, and leases whose time ran out. Returns how many games and sessions it deleted.

    :raises ValueError: when ``batch`` is below 1.
    """
    if batch < 1:
        raise ValueError(f"batch must be at least 1, not {batch}")
    deleted = 0
    while True:
        count = _rows(file, sql.SWEEP_GAMES, cutoff_ms, batch)
        deleted += count
        if count < batch:
            break
        time.sleep(pause)
    idle = cutoff_ms if idle_cutoff_ms is None else idle_cutoff_ms
    after: tuple[int, int] = (-(2**63), -(2**63))  # (touched_ms, rowid) examined last
    while True:
        count, rows = file.in_write_transaction(
            functools.partial(_sweep_sessions, cutoff_ms=idle, after=after, batch=batch)
        )
        deleted += count
        if len(rows) < batch:
            break
        after = rows[-1]
        time.sleep(pause)
    while _rows(file, sql.SWEEP_VERDICTS, cutoff_ms, batch) == batch:
        time.sleep(pause)  # verdicts are not counted: they are no one's data
    for table, key, when in AS_OLD_AS_GAMES:
        query = (
            f"DELETE FROM {table} WHERE {key} IN"  # fixed names, no input
            f" (SELECT {key} FROM {table} WHERE {when} < ? LIMIT ?)"
        )
        while _rows(file, query, cutoff_ms, batch) == batch:
            time.sleep(pause)
    while _rows(file, sql.SWEEP_FULL_BUCKETS, now_ms(), batch) == batch:  # a missing one is full
        time.sleep(pause)
    while _rows(file, sql.SWEEP_LEASES, now_ms(), batch) == batch:  # run out: holder died
        time.sleep(pause)
    return deleted
