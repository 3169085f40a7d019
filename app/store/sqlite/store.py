"""The SQLite store: the :class:`~app.store.base.Store` interface over one file's tables."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path
from typing import Any, Final

from app.clock import now_ms
from app.store import counting
from app.store.base import (
    FINISHED_WINDOW,
    GAME_STATES,
    Change,
    GameSummary,
    SessionData,
    Store,
    StoredGame,
    StoreError,
    StoreFullError,
    T,
)
from app.store.jsondata import dict_from_json, dumps, int_or_zero, json_or_none
from app.store.marks import Marks
from app.store.ratelimit import BucketLimiter, Limits, RateLimiter
from app.store.replays import MAX_REPLAYS_PER_SESSION, ReplaySummary, StoredReplay
from app.store.secretfile import kept_secret
from app.store.sqlite import sql
from app.store.sqlite.buckets import SQLiteBuckets
from app.store.sqlite.files import SQLiteFile, as_store_error
from app.store.sqlite.sweep import SWEEP_PAUSE_SECONDS, sweep
from app.store.sqlite.writer import GroupCommit

PROBE: Final = "health:probe:" + "x" * 16_384
"""The key of the row ``/health`` writes (and deletes) to see whether the file has room for
one more game's row again (16 KiB: more than a record at the move cap)."""


def _probe(conn: sqlite3.Connection) -> None:
    """A write that needs room for a game's row and leaves nothing behind."""
    conn.execute(sql.UPSERT_BUCKET, (PROBE, 0.0, 0, 0))
    conn.execute("DELETE FROM rate_buckets WHERE key = ?", (PROBE,))


class SQLiteStore(Store):
    """Sessions and games in the SQLite file at ``path`` (created, with its folders, if missing).

    Damaged rows never make :meth:`load` raise: a session that does not parse loads as ``None``
    (the player gets a new one), and a game whose record is not a JSON object loads with
    ``record == {}`` — the engine refuses that record and the web layer offers a fresh start.

    :raises StoreError: when the file cannot be opened, is not a database, or was written by
        a newer version of this code.
    """

    def __init__(self, path: str, *, sweep_pause_seconds: float = SWEEP_PAUSE_SECONDS) -> None:
        self._file = SQLiteFile(path)
        self.path: Final = path
        self._sweep_pause = sweep_pause_seconds
        self._writer = GroupCommit(self._file, self._apply)

    @property
    def batches(self) -> int:
        """Transactions the group-commit writer committed (benchmarks read it)."""
        return self._writer.batches

    @property
    def batched_changes(self) -> int:
        return self._writer.batched_changes

    def rate_limiter(self, configured: Limits) -> RateLimiter:
        """Token buckets decided in this process's memory, shared with every process on the
        file through the group commit (``rate_buckets``, :mod:`app.store.ratelimit`)."""
        return BucketLimiter(configured, SQLiteBuckets(self._file, self._writer))

    def connection(self) -> sqlite3.Connection:
        """This thread's connection, opened on its first use."""
        return self._file.connection()

    @staticmethod
    def _read(
        conn: sqlite3.Connection, sid: str, code: str | None
    ) -> tuple[SessionData | None, StoredGame | None]:
        data, record, state, score, moves, extra, updated_ms = conn.execute(
            sql.LOAD, (sid, sid, code)
        ).fetchone()
        session = None if data is None else SessionData.from_data(json_or_none(data))
        if code is None or record is None:
            return session, None
        game = StoredGame(
            code=code,
            record=dict_from_json(record),
            state=state if state in GAME_STATES else "playing",
            score=int_or_zero(score),
            moves=int_or_zero(moves),
            updated_ms=int_or_zero(updated_ms),
            marks=Marks.from_data(json_or_none(extra)),
        )
        return session, game

    def load(
        self, sid: str, code: str | None = None
    ) -> tuple[SessionData | None, StoredGame | None]:
        """Session and game in one statement; damaged rows load as described on the class
        (an unknown ``state`` loads as ``playing``, so the engine's replay decides)."""
        with as_store_error(self.path):
            return self._read(self.connection(), sid, code)

    def save_session(self, sid: str, session: SessionData) -> None:
        now = now_ms()
        conn = self.connection()
        with self._file.write_lock, as_store_error(self.path):
            conn.execute(sql.UPSERT_SESSION, (sid, dumps(session.to_data()), now, now))

    def change_game(self, sid: str, code: str, change: Change[T]) -> T:
        """One ``BEGIN IMMEDIATE`` transaction: read, ``change``, upsert the game it returns.

        The game is stored under ``code`` (its ``updated_ms`` as the caller set it); when
        ``change`` raises, the transaction is rolled back and the exception propagates (an
        ``sqlite3.Error``, from the store or the callback, as :class:`StoreError`).
        """
        return self._file.in_write_transaction(lambda conn: self._apply(conn, sid, code, change))

    async def change_game_async(self, sid: str, code: str, change: Change[T]) -> T:
        """Queue the change for the group commit (:mod:`app.store.sqlite.writer`) and wait
        for its commit: an acknowledged tap is on disk."""
        return await self._writer.change(sid, code, change)

    def _apply(self, conn: sqlite3.Connection, sid: str, code: str, change: Change[T]) -> T:
        """Read, decide, write — inside a transaction the caller holds."""
        session, game = self._read(conn, sid, code)
        new, result = change(session, game)
        if new is None:
            return result

        def counts() -> counting.Counts:
            row = conn.execute(sql.STATS, (sid,)).fetchone()
            figures = conn.execute(sql.DEAL, (code,)).fetchone()
            return (
                None if row is None else json_or_none(row[0]),
                None if figures is None else sql.deal(figures),
            )

        written = counting.settle(game, new, counts)
        new, now = written.game, written.game.updated_ms
        if written.stats is not None:
            conn.execute(sql.UPSERT_STATS, (sid, dumps(written.stats), now))
        if written.deal is not None:
            conn.execute(sql.UPSERT_DEAL, (code, *sql.deal_row(written.deal), now))
        if written.created:
            conn.execute(sql.MAKE_ROOM, {"sid": sid, "cap": self.max_games})
        if written.replay is not None:
            room = {"sid": sid, "cap": MAX_REPLAYS_PER_SESSION, "id": written.replay.id}
            conn.execute(sql.REPLAY_ROOM, room)
            conn.execute(sql.UPSERT_REPLAY, sql.replay_row(sid, written.replay))
        conn.execute(
            sql.UPSERT_GAME,
            (
                sid,
                code,
                dumps(new.record),
                new.state,
                new.score,
                new.moves,
                dumps(new.marks.to_data()),
                now,
            ),
        )
        return result

    def player_stats(self, sid: str) -> dict[str, Any] | None:
        with as_store_error(self.path):
            row = self.connection().execute(sql.STATS, (sid,)).fetchone()
        return None if row is None else dict_from_json(row[0])

    def deal_stats(self, code: str) -> dict[str, Any] | None:
        with as_store_error(self.path):
            row = self.connection().execute(sql.DEAL, (code,)).fetchone()
        return None if row is None else sql.deal(row)

    def replay(self, replay_id: str) -> StoredReplay | None:
        with as_store_error(self.path):
            row = self.connection().execute(sql.REPLAY, (replay_id,)).fetchone()
        return None if row is None else sql.stored_replay(row)

    def player_replays(self, sid: str) -> list[ReplaySummary]:
        with as_store_error(self.path):
            rows = self.connection().execute(sql.PLAYER_REPLAYS, (sid,)).fetchall()
        return [sql.replay_summary(row) for row in rows]

    def delete_replay(self, sid: str, replay_id: str) -> bool:
        return bool(
            self._file.in_write_transaction(
                lambda conn: conn.execute(sql.DELETE_REPLAY, (replay_id, sid)).rowcount
            )
        )

    async def delete_replay_async(self, sid: str, replay_id: str) -> bool:
        return await asyncio.to_thread(self.delete_replay, sid, replay_id)

    def analysis(self, replay_id: str) -> dict[str, Any] | None:
        with as_store_error(self.path):
            row = self.connection().execute(sql.ANALYSIS, (replay_id,)).fetchone()
        return None if row is None or row[0] is None else dict_from_json(row[0])

    def save_analysis(self, replay_id: str, data: dict[str, Any]) -> None:
        self._file.in_write_transaction(
            lambda conn: conn.execute(sql.SAVE_ANALYSIS, (dumps(data), replay_id))
        )

    async def analysis_async(self, replay_id: str) -> dict[str, Any] | None:
        return await asyncio.to_thread(self.analysis, replay_id)

    async def save_analysis_async(self, replay_id: str, data: dict[str, Any]) -> None:
        await asyncio.to_thread(self.save_analysis, replay_id, data)

    def reset_stats(self, sid: str) -> None:
        """One write transaction: what the reset keeps (:func:`counting.after_reset`)."""
        now = now_ms()

        def work(conn: sqlite3.Connection) -> None:
            row = conn.execute(sql.STATS, (sid,)).fetchone()
            kept = counting.after_reset(None if row is None else json_or_none(row[0]))
            if kept is None:
                conn.execute("DELETE FROM player_stats WHERE sid = ?", (sid,))
            else:
                conn.execute(sql.UPSERT_STATS, (sid, dumps(kept), now))

        self._file.in_write_transaction(work)

    async def reset_stats_async(self, sid: str) -> None:
        await asyncio.to_thread(self.reset_stats, sid)

    def save_link(self, sid: str, digest: str) -> None:
        now = time.time_ns() // 1_000_000

        def work(conn: sqlite3.Connection) -> None:
            conn.execute("DELETE FROM links WHERE sid = ?", (sid,))
            conn.execute(
                "INSERT INTO links (digest, sid, created_ms) VALUES (?, ?, ?)", (digest, sid, now)
            )

        self._file.in_write_transaction(work)

    def link_owner(self, digest: str) -> str | None:
        with as_store_error(self.path):
            row = (
                self.connection()
                .execute("SELECT sid FROM links WHERE digest = ?", (digest,))
                .fetchone()
            )
        return None if row is None else str(row[0])

    def has_link(self, sid: str) -> bool:
        with as_store_error(self.path):
            row = self.connection().execute("SELECT 1 FROM links WHERE sid = ?", (sid,)).fetchone()
        return row is not None

    def drop_link(self, sid: str) -> bool:
        return bool(
            self._file.in_write_transaction(
                lambda conn: conn.execute("DELETE FROM links WHERE sid = ?", (sid,)).rowcount
            )
        )

    def kept_secret(self) -> bytes:
        """``PATH.secret`` beside the file (:mod:`app.store.secretfile`)."""
        return kept_secret(Path(f"{self.path}.secret"))

    def move_player(self, old: str, new: str) -> bool:
        """One write transaction: the rows of every table keyed by the player change hands."""

        def work(conn: sqlite3.Connection) -> bool:
            moved = 0
            for table in ("sessions", "games", "player_stats", "replays"):  # fixed names
                update = f"UPDATE {table} SET sid = ? WHERE sid = ?"
                moved += conn.execute(update, (new, old)).rowcount
            moved += conn.execute("DELETE FROM links WHERE sid = ?", (old,)).rowcount
            return moved > 0

        return bool(self._file.in_write_transaction(work))

    async def move_player_async(self, old: str, new: str) -> bool:
        """In a thread: the write may wait for the write lock behind a group commit."""
        return await asyncio.to_thread(self.move_player, old, new)

    async def save_link_async(self, sid: str, digest: str) -> None:
        await asyncio.to_thread(self.save_link, sid, digest)

    async def drop_link_async(self, sid: str) -> bool:
        return await asyncio.to_thread(self.drop_link, sid)

    def verdict(self, key: str) -> bool | None:
        with as_store_error(self.path):
            row = (
                self.connection()
                .execute("SELECT lost FROM verdicts WHERE key = ?", (key,))
                .fetchone()
            )
        return None if row is None else bool(row[0])

    def remember_verdict(self, key: str, lost: bool) -> None:
        """A short write transaction of its own (not durable on its own: a verdict lost in a
        power cut is proved again)."""
        now = now_ms()
        self._file.in_write_transaction(
            lambda conn: conn.execute(sql.UPSERT_VERDICT, (key, int(lost), now)).rowcount
        )

    async def remember_verdict_async(self, key: str, lost: bool) -> None:
        """In a thread: the write may wait for the write lock behind a group commit."""
        await asyncio.to_thread(self.remember_verdict, key, lost)

    async def save_session_async(self, sid: str, session: SessionData) -> None:
        """In a thread: the write may wait for the write lock behind a group commit."""
        await asyncio.to_thread(self.save_session, sid, session)

    def recent_games(self, sid: str, limit: int = 10) -> list[GameSummary]:
        conn = self.connection()
        with as_store_error(self.path):
            rows = conn.execute(sql.RECENT, (sid, limit)).fetchall()
        return [sql.summary(row) for row in rows]

    def finished_games(self, sid: str, limit: int = 5) -> list[GameSummary]:
        conn = self.connection()
        with as_store_error(self.path):
            rows = conn.execute(sql.FINISHED, (sid, FINISHED_WINDOW, limit)).fetchall()
        return [sql.summary(row) for row in rows]

    def sweep(self, cutoff_ms: int, batch: int = 500, *, idle_cutoff_ms: int | None = None) -> int:
        """:func:`app.store.sqlite.sweep.sweep`, resting ``sweep_pause_seconds`` between
        batches so the other processes' waiting writers get the lock."""
        return sweep(self._file, cutoff_ms, batch, idle_cutoff_ms, self._sweep_pause)

    async def ping(self) -> None:
        """The file is local: it answers. It can write unless the last write failed for want
        of room or permission (:attr:`SQLiteFile.cannot_write`); then a small write is tried
        again (a 16 KiB row of ``rate_buckets``, written and deleted in one transaction), so
        the store reports healthy again as soon as room was made.

        :raises StoreFullError: when the file cannot write.
        """
        if self._file.cannot_write is None:
            return
        try:
            await asyncio.to_thread(self._file.in_write_transaction, _probe)
        except StoreError as error:
            raise StoreFullError(f"SQLite store {self.path!r} cannot write: {error}") from error

    def close(self) -> None:
        """Finish the queued changes and close this thread's connection; later use raises
        :class:`StoreError` (:meth:`SQLiteFile.close` says why other threads' connections
        are not closed from here)."""
        self._writer.close()
        self._file.close()
