"""A store in one SQLite file: survives restarts, shared by the worker processes of one host.

Every thread gets its own connection (sqlite3 connections must not be used by two threads at
once, and FastAPI runs sync endpoints in a thread pool). The file runs in WAL mode so readers
never wait for the writer, with ``synchronous=FULL`` so a committed move survives a power cut.
Writers take ``BEGIN IMMEDIATE``: the write lock is held from the read to the write, so two
taps on one game cannot both start from the same position.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from app.store.base import (
    GAME_STATES,
    Change,
    GameSummary,
    SessionData,
    Store,
    StoredGame,
    StoreError,
    T,
)

SCHEMA_VERSION = 1
"""``PRAGMA user_version`` of the schema this code writes; a newer file is refused."""

BUSY_TIMEOUT_MS = 5000
"""How long a writer waits for another process's transaction before giving up."""

_LOAD = """
SELECT s.data, g.record, g.state, g.score, g.moves, g.extra, g.updated_ms
FROM (SELECT 1) AS k
LEFT JOIN sessions AS s ON s.sid = ?
LEFT JOIN games AS g ON g.sid = ? AND g.code = ?
"""
"""Session and game in one statement: always exactly one row, NULLs for what is missing."""

_UPSERT_GAME = """
INSERT INTO games (sid, code, record, state, score, moves, extra, updated_ms)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (sid, code) DO UPDATE SET
    record = excluded.record, state = excluded.state, score = excluded.score,
    moves = excluded.moves, extra = excluded.extra, updated_ms = excluded.updated_ms
"""

_RECENT = """
SELECT code, state, score, moves, updated_ms FROM games
WHERE sid = ? AND state = 'playing' ORDER BY updated_ms DESC, code LIMIT ?
"""

_UPSERT_SESSION = """
INSERT INTO sessions (sid, data, created_ms, touched_ms) VALUES (?, ?, ?, ?)
ON CONFLICT (sid) DO UPDATE SET data = excluded.data, touched_ms = excluded.touched_ms
"""


def create_schema_v1(conn: sqlite3.Connection) -> None:
    """Create the version-1 tables in an empty file (the caller holds the write transaction).

    Later versions add migration steps from here; ``user_version`` says which have run.
    """
    conn.execute(
        "CREATE TABLE IF NOT EXISTS sessions (sid TEXT PRIMARY KEY, data TEXT NOT NULL,"
        " created_ms INTEGER NOT NULL, touched_ms INTEGER NOT NULL)"
    )
    conn.execute(
        "CREATE TABLE IF NOT EXISTS games (sid TEXT NOT NULL, code TEXT NOT NULL,"
        " record TEXT NOT NULL, state TEXT NOT NULL, score INTEGER NOT NULL,"
        " moves INTEGER NOT NULL, extra TEXT NOT NULL, updated_ms INTEGER NOT NULL,"
        " PRIMARY KEY (sid, code))"
    )
    conn.execute("CREATE INDEX IF NOT EXISTS games_by_state ON games (sid, state, updated_ms)")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _json_or_none(text: Any) -> Any:
    """The value ``text`` holds, or ``None`` when it is not JSON (a damaged row)."""
    try:
        return json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return None


def _dict(text: Any) -> dict[str, Any]:
    """The JSON object ``text`` holds, or ``{}`` when it holds anything else."""
    value = _json_or_none(text)
    return value if isinstance(value, dict) else {}


def _int(value: Any) -> int:
    """An INTEGER column's value; a damaged one (SQLite keeps text as given) counts as 0."""
    return value if isinstance(value, int) else 0


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@contextlib.contextmanager
def _as_store_error(path: str) -> Iterator[None]:
    """Turn sqlite3's errors (a lock held past the busy timeout, a full disk, a closed store)
    into :class:`StoreError`, the one failure the web layer handles."""
    try:
        yield
    except sqlite3.Error as exc:
        raise StoreError(f"SQLite store {path!r}: {exc}") from exc


class SQLiteStore(Store):
    """Sessions and games in the SQLite file at ``path`` (created, with its folders, if missing).

    Damaged rows never make :meth:`load` raise: a session that does not parse loads as ``None``
    (the player gets a new one), and a game whose record is not a JSON object loads with
    ``record == {}`` — the engine refuses that record and the web layer offers a fresh start.

    :raises StoreError: when the file cannot be opened, is not a database, or was written by
        a newer version of this code.
    """

    def __init__(self, path: str) -> None:
        if path in ("", ":memory:") or path.startswith("file:"):
            raise StoreError(f"SQLite store needs a file path, not {path!r} (use memory:)")
        self._path = path
        self._local = threading.local()
        self._lock = threading.Lock()
        """Guards the connection list and the closed flag."""
        self._write_lock = threading.Lock()
        """Queues this process's writers: SQLite's busy handler polls with sleeps, so waiting
        here is faster and fairer; other processes still wait through ``BEGIN IMMEDIATE``."""
        self._connections: list[sqlite3.Connection] = []
        self._closed = False
        self._check_schema(self.connection())

    def _open(self) -> sqlite3.Connection:
        """A new connection with the settings every connection needs."""
        try:
            Path(self._path).parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(
                self._path,
                timeout=BUSY_TIMEOUT_MS / 1000,
                isolation_level=None,
                check_same_thread=False,  # used by one thread; only close() may come from another
            )
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open SQLite store {self._path!r}: {exc}") from exc
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA foreign_keys = ON")
        except sqlite3.Error as exc:
            conn.close()
            raise StoreError(f"cannot use SQLite store {self._path!r}: {exc}") from exc
        return conn

    def connection(self) -> sqlite3.Connection:
        """This thread's connection, opened on its first use."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            with self._lock:
                if self._closed:
                    raise StoreError(f"SQLite store {self._path!r} is closed")
            conn = self._open()
            with self._lock:
                self._connections.append(conn)
            self._local.conn = conn
        return conn

    def _check_schema(self, conn: sqlite3.Connection) -> None:
        """Create the schema in a new file; refuse a file from a newer version of this code."""
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                if version > SCHEMA_VERSION:
                    raise StoreError(
                        f"SQLite store {self._path!r} has schema version {version}; this code"
                        f" knows up to {SCHEMA_VERSION}: upgrade the application"
                    )
                if version < 1:
                    create_schema_v1(conn)
                conn.execute("COMMIT")
            finally:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
        except sqlite3.Error as exc:
            self.close()
            raise StoreError(f"cannot use SQLite store {self._path!r}: {exc}") from exc
        except StoreError:
            self.close()
            raise

    @staticmethod
    def _read(
        conn: sqlite3.Connection, sid: str, code: str | None
    ) -> tuple[SessionData | None, StoredGame | None]:
        data, record, state, score, moves, extra, updated_ms = conn.execute(
            _LOAD, (sid, sid, code)
        ).fetchone()
        session = None if data is None else SessionData.from_data(_json_or_none(data))
        if code is None or record is None:
            return session, None
        game = StoredGame(
            code=code,
            record=_dict(record),
            state=state if state in GAME_STATES else "playing",
            score=_int(score),
            moves=_int(moves),
            updated_ms=_int(updated_ms),
            extra=_dict(extra),
        )
        return session, game

    def load(
        self, sid: str, code: str | None = None
    ) -> tuple[SessionData | None, StoredGame | None]:
        """Session and game in one statement; damaged rows load as described on the class
        (an unknown ``state`` loads as ``playing``, so the engine's replay decides)."""
        with _as_store_error(self._path):
            return self._read(self.connection(), sid, code)

    def save_session(self, sid: str, session: SessionData) -> None:
        now = time.time_ns() // 1_000_000
        conn = self.connection()
        with self._write_lock, _as_store_error(self._path):
            conn.execute(_UPSERT_SESSION, (sid, _dumps(session.to_data()), now, now))

    def change_game(self, sid: str, code: str, change: Change[T]) -> T:
        """One ``BEGIN IMMEDIATE`` transaction: read, ``change``, upsert the game it returns.

        The game is stored under ``code`` (its ``updated_ms`` as the caller set it); when
        ``change`` raises, the transaction is rolled back and the exception propagates (an
        ``sqlite3.Error``, from the store or the callback, as :class:`StoreError`).
        """
        conn = self.connection()
        with self._write_lock, _as_store_error(self._path):
            conn.execute("BEGIN IMMEDIATE")
            try:
                session, game = self._read(conn, sid, code)
                new, result = change(session, game)
                if new is not None:
                    conn.execute(
                        _UPSERT_GAME,
                        (
                            sid,
                            code,
                            _dumps(new.record),
                            new.state,
                            new.score,
                            new.moves,
                            _dumps(new.extra),
                            new.updated_ms,
                        ),
                    )
                conn.execute("COMMIT")
            finally:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
        return result

    def recent_games(self, sid: str, limit: int = 10) -> list[GameSummary]:
        conn = self.connection()
        with _as_store_error(self._path):
            rows = conn.execute(_RECENT, (sid, limit)).fetchall()
        return [
            GameSummary(code, state, _int(score), _int(moves), _int(updated_ms))
            for code, state, score, moves, updated_ms in rows
        ]

    def close(self) -> None:
        """Close every connection this store opened, in any thread (a thread still using
        one gets an error on its next statement); later use raises :class:`StoreError`."""
        with self._lock:
            self._closed = True
            connections, self._connections = self._connections, []
        for conn in connections:
            with contextlib.suppress(sqlite3.Error):
                conn.close()
        self._local = threading.local()
