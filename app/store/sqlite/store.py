"""The SQLite store: the :class:`~app.store.base.Store` interface over one file's tables."""

from __future__ import annotations

import asyncio
import functools
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, TypeVar

import anyio.to_thread

from app.clock import now_ms
from app.store import counting, settling
from app.store.base import (
    Change,
    GameSummary,
    SessionData,
    Store,
    StoredGame,
    StoreError,
    StoreFullError,
    T,
)
from app.store.bounds import MOVED_HOPS
from app.store.buckets import BucketLimiter
from app.store.jsondata import dict_from_json, dumps, int_or_zero, json_or_none
from app.store.marks import Marks
from app.store.ratelimit import Limits, RateLimiter
from app.store.replays import ReplaySummary, StoredReplay
from app.store.secretfile import kept_secret
from app.store.sqlite import sql
from app.store.sqlite.buckets import SQLiteBuckets
from app.store.sqlite.files import SQLiteFile, as_store_error
from app.store.sqlite.sweep import SWEEP_PAUSE_SECONDS, sweep
from app.store.sqlite.writer import GroupCommit
from app.store.values import status_of

R = TypeVar("R")

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
            state=status_of(state),
            score=int_or_zero(score),
            moves=int_or_zero(moves),
            updated_ms=int_or_zero(updated_ms),
            marks=Marks.from_data(json_or_none(extra)),
        )
        return session, game

    async def load(
        self, sid: str, code: str | None = None
    ) -> tuple[SessionData | None, StoredGame | None]:
        """Session and game in one statement; damaged rows load as described on the class
        (an unknown ``state`` loads as ``playing``, so the engine's replay decides)."""
        with as_store_error(self.path):
            return self._read(self.connection(), sid, code)

    async def _write(self, work: Callable[[sqlite3.Connection], R]) -> R:
        """``work`` in a write transaction of its own, in a thread: it may wait for the write
        lock behind a group commit, or another process's."""
        return await asyncio.to_thread(self._file.in_write_transaction, work)

    async def save_session(self, sid: str, session: SessionData) -> None:
        now, data = now_ms(), dumps(session.to_data())
        await self._write(lambda conn: conn.execute(sql.UPSERT_SESSION, (sid, data, now, now)))

    async def change_game(self, sid: str, code: str, change: Change[T]) -> T:
        """Queue the change for the group commit (:mod:`app.store.sqlite.writer`) and wait
        for its commit: an acknowledged tap is on disk. One ``BEGIN IMMEDIATE`` transaction
        reads, lets ``change`` decide and upserts the game it returns; when ``change`` raises,
        its savepoint is rolled back and the exception propagates (an ``sqlite3.Error``, from
        the store or the callback, as :class:`StoreError`)."""
        return await self._writer.change(sid, code, change)

    def _apply(self, conn: sqlite3.Connection, sid: str, code: str, change: Change[T]) -> T:
        """Read, decide, write — inside a transaction the caller holds."""
        session, game = self._read(conn, sid, code)
        new, result = change(session, game)
        if new is None:
            return result

        def counts() -> settling.Counts:
            row = conn.execute(sql.STATS, (sid,)).fetchone()
            figures = conn.execute(sql.DEAL, (code,)).fetchone()
            return (
                None if row is None else json_or_none(row[0]),
                None if figures is None else sql.deal(figures),
            )

        written = settling.settle(game, new, counts)
        new, now = written.game, written.game.updated_ms
        if written.stats is not None:
            conn.execute(sql.UPSERT_STATS, (sid, dumps(written.stats), now))
        if written.deal is not None:
            conn.execute(sql.UPSERT_DEAL, (code, *sql.deal_row(written.deal), now))
        if written.created:
            conn.execute(sql.MAKE_ROOM, {"sid": sid, "cap": self.bounds.games})
        if written.replay is not None:
            room = {"sid": sid, "cap": self.bounds.replays, "id": written.replay.id}
            conn.execute(sql.REPLAY_ROOM, room)
            conn.execute(sql.UPSERT_REPLAY, sql.replay_row(sid, written.replay))
        marks = dumps(new.marks.to_data())
        row = (sid, code, dumps(new.record), new.state, new.score, new.moves, marks, now)
        conn.execute(sql.UPSERT_GAME, row)
        return result

    def _one(self, query: str, *args: Any) -> Any:
        """The first row ``query`` finds (``None``: none), read on this thread's connection
        (WAL: a read never waits for the writer)."""
        with as_store_error(self.path):
            return self.connection().execute(query, args).fetchone()

    def _all(self, query: str, *args: Any) -> list[Any]:
        with as_store_error(self.path):
            return self.connection().execute(query, args).fetchall()

    async def player_stats(self, sid: str) -> dict[str, Any] | None:
        row = self._one(sql.STATS, sid)
        return None if row is None else dict_from_json(row[0])

    async def deal_stats(self, code: str) -> dict[str, Any] | None:
        row = self._one(sql.DEAL, code)
        return None if row is None else sql.deal(row)

    async def replay(self, replay_id: str) -> StoredReplay | None:
        row = self._one(sql.REPLAY, replay_id)
        return None if row is None else sql.stored_replay(row)

    async def replay_owner(self, replay_id: str) -> str | None:
        row = self._one(sql.REPLAY_OWNER, replay_id)
        return None if row is None else str(row[0])

    async def moved_to(self, sid: str) -> str | None:
        went = sid
        for _ in range(MOVED_HOPS):
            row = self._one(sql.MOVED, went)
            if row is None:
                break
            went = str(row[0])
        return None if went == sid else went

    async def player_replays(self, sid: str) -> list[ReplaySummary]:
        return [sql.replay_summary(row) for row in self._all(sql.PLAYER_REPLAYS, sid)]

    async def delete_replay(self, sid: str, replay_id: str) -> bool:
        deleted = await self._write(
            lambda conn: conn.execute(sql.DELETE_REPLAY, (replay_id, sid)).rowcount
        )
        return bool(deleted)

    async def analysis(self, replay_id: str) -> dict[str, Any] | None:
        row = self._one(sql.ANALYSIS, replay_id)
        return None if row is None or row[0] is None else dict_from_json(row[0])

    async def save_analysis(self, replay_id: str, data: dict[str, Any]) -> None:
        await self._write(lambda conn: conn.execute(sql.SAVE_ANALYSIS, (dumps(data), replay_id)))

    async def take_lease(self, name: str, holder: str, ttl_ms: int) -> bool:
        """One upsert in a write transaction of its own: the file's write lock makes it one
        step for every process on the file."""
        now = now_ms()
        row = {"name": name, "holder": holder, "until": now + ttl_ms, "now": now}
        changed = await self._write(lambda conn: conn.execute(sql.TAKE_LEASE, row).rowcount)
        return bool(changed)

    async def drop_lease(self, name: str, holder: str) -> bool:
        now = now_ms()

        def work(conn: sqlite3.Connection) -> bool:
            row = conn.execute(sql.DROP_LEASE, (name, holder)).fetchone()
            return row is not None and int(row[0]) > now

        return await self._write(work)

    async def reset_stats(self, sid: str) -> None:
        """One write transaction: what the reset keeps (:func:`counting.after_reset`)."""
        now = now_ms()

        def work(conn: sqlite3.Connection) -> None:
            row = conn.execute(sql.STATS, (sid,)).fetchone()
            kept = counting.after_reset(None if row is None else json_or_none(row[0]))
            if kept is None:
                conn.execute("DELETE FROM player_stats WHERE sid = ?", (sid,))
            else:
                conn.execute(sql.UPSERT_STATS, (sid, dumps(kept), now))

        await self._write(work)

    async def save_link(self, sid: str, digest: str) -> None:
        now = now_ms()

        def work(conn: sqlite3.Connection) -> None:
            conn.execute("DELETE FROM links WHERE sid = ?", (sid,))
            conn.execute(sql.INSERT_LINK, (digest, sid, now))

        await self._write(work)

    async def link_owner(self, digest: str) -> str | None:
        row = self._one("SELECT sid FROM links WHERE digest = ?", digest)
        return None if row is None else str(row[0])

    async def has_link(self, sid: str) -> bool:
        return self._one("SELECT 1 FROM links WHERE sid = ?", sid) is not None

    async def kept_secret(self) -> bytes:
        """``PATH.secret`` beside the file (:mod:`app.store.secretfile`)."""
        return kept_secret(Path(f"{self.path}.secret"))

    async def revoke_link(self, old: str, new: str) -> str | None:
        """One write transaction: where ``old`` went already, else the rows of every table
        keyed by the player change hands and the move is remembered (``moved``)."""
        now = now_ms()

        def work(conn: sqlite3.Connection) -> str | None:
            went = old
            for _ in range(MOVED_HOPS):
                row = conn.execute("SELECT to_sid FROM moved WHERE sid = ?", (went,)).fetchone()
                if row is None:
                    break
                went = str(row[0])
            if went != old:
                return went
            if not conn.execute("DELETE FROM links WHERE sid = ?", (old,)).rowcount:
                return None
            for table in ("sessions", "games", "player_stats", "replays"):  # fixed names
                conn.execute(f"UPDATE {table} SET sid = ? WHERE sid = ?", (new, old))
            conn.execute(
                "INSERT INTO moved (sid, to_sid, moved_ms) VALUES (?, ?, ?)", (old, new, now)
            )
            return new

        return await self._write(work)

    async def recent_games(self, sid: str, limit: int = 10) -> list[GameSummary]:
        return [sql.summary(row) for row in self._all(sql.RECENT, sid, limit)]

    async def finished_games(self, sid: str, limit: int = 5) -> list[GameSummary]:
        rows = self._all(sql.FINISHED, sid, self.bounds.finished_window, limit)
        return [sql.summary(row) for row in rows]

    async def sweep(
        self, cutoff_ms: int, batch: int = 500, *, idle_cutoff_ms: int | None = None
    ) -> int:
        """:func:`app.store.sqlite.sweep.sweep` in a thread, resting ``sweep_pause_seconds``
        between batches so the other processes' waiting writers get the lock. Cancelled, it
        still waits for the thread: a sweep under way finishes before the store closes."""
        work = functools.partial(
            sweep, self._file, cutoff_ms, batch, idle_cutoff_ms, self._sweep_pause
        )
        return await anyio.to_thread.run_sync(work)

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
            await self._write(_probe)
        except StoreError as error:
            raise StoreFullError(f"SQLite store {self.path!r} cannot write: {error}") from error

    async def close(self) -> None:
        """Finish the queued changes (the writer's thread, waited for in a thread) and close
        this thread's connection; later use raises :class:`StoreError`
        (:meth:`SQLiteFile.close` says why other threads' connections are not closed from
        here)."""
        await asyncio.to_thread(self._writer.close)
        self._file.close()
