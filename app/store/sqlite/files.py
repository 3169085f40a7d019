"""One SQLite file as a process uses it: a connection per thread, and the locks its writers
queue on.

Every thread gets its own connection (sqlite3 connections must not be used by two threads at
once). The file runs in WAL mode so readers never wait for the writer, with
``synchronous=FULL`` so a committed move survives a power cut. Writers take ``BEGIN
IMMEDIATE``: the write lock is held from the read to the write, so two taps on one game
cannot both start from the same position. Before SQLite's lock, a writer queues on this
process's lock and then on ``flock`` of ``PATH.lock`` with the other processes' writers: the
kernel wakes the next one the moment the lock is free, where SQLite's busy handler polls
with sleeps.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Final, TypeVar

from app.store.base import StoreError
from app.store.sqlite.schema import migrate

T = TypeVar("T")

BUSY_TIMEOUT_MS: Final = 5000
"""How long a writer waits for another process's transaction before giving up."""

BEGIN_DEADLINE_SECONDS: Final = 10.0
"""How long a writer keeps asking for the write lock before giving up."""


def begin_immediate(conn: sqlite3.Connection) -> None:
    """``BEGIN IMMEDIATE``, asked again while SQLite answers "locked" without waiting (it
    does, in WAL mode, while another connection recovers or checkpoints the log)."""
    deadline = time.monotonic() + BEGIN_DEADLINE_SECONDS
    pause = 0.001
    while True:
        try:
            conn.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
            if time.monotonic() > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.05)


@contextlib.contextmanager
def as_store_error(path: str) -> Iterator[None]:
    """Turn sqlite3's errors (a lock held past the busy timeout, a full disk, a closed store)
    into :class:`StoreError`, the one failure the web layer handles."""
    try:
        yield
    except sqlite3.Error as exc:
        raise StoreError(f"SQLite store {path!r}: {exc}") from exc


def use_wal(conn: sqlite3.Connection) -> None:
    """Switch the file to WAL (a lasting property of the file: usually already done).

    While another connection switches a new file, ``PRAGMA journal_mode = WAL`` can fail
    with ``SQLITE_BUSY`` at once, without waiting in the busy handler — several workers
    opening a new file together hit that — so it is retried here, within the busy timeout.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    delay = 0.001
    while True:
        try:
            if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorcode != sqlite3.SQLITE_BUSY or time.monotonic() > deadline:
                raise
        time.sleep(delay)
        delay = min(delay * 2, 0.05)


CANNOT_WRITE: Final = frozenset(
    {sqlite3.SQLITE_FULL, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN}
)
"""Primary result codes of a write that failed because the file cannot take it: the disk
(or ``max_page_count``) is full, the file or its folder is read-only, the disk fails."""


class SQLiteFile:
    """The file at ``path`` (created, with its folders, if missing), its schema brought up
    to date on opening.

    :raises StoreError: when the file cannot be opened, is not a database, or was written by
        a newer version of this code.
    """

    def __init__(self, path: str) -> None:
        if path in ("", ":memory:") or path.startswith("file:"):
            raise StoreError(f"SQLite store needs a file path, not {path!r} (use memory:)")
        self.path: Final = path
        self._local = threading.local()
        self.lock = threading.Lock()
        """Guards :attr:`closed` (and what the store starts once, its writer)."""
        self.write_lock = threading.Lock()
        """Queues this process's writers: SQLite's busy handler polls with sleeps, so waiting
        here is faster and fairer; other processes still wait through ``BEGIN IMMEDIATE``."""
        self.closed = False
        self.cannot_write: str | None = None
        """Why the last write failed for want of room or permission (a full disk, a file or
        folder made read-only), until a write succeeds again: ``/health`` reports it."""
        self._lock_fd: int | None = None
        try:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            self._lock_fd = os.open(f"{path}.lock", os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StoreError(f"cannot open SQLite store {path!r}: {exc}") from exc
        self._check_schema(self.connection())

    def _open(self) -> sqlite3.Connection:
        """A new connection with the settings every connection needs."""
        try:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(
                self.path,
                timeout=BUSY_TIMEOUT_MS / 1000,
                isolation_level=None,
                check_same_thread=False,  # used by one thread; only close() may come from another
            )
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open SQLite store {self.path!r}: {exc}") from exc
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            use_wal(conn)
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA foreign_keys = ON")
        except sqlite3.Error as exc:
            conn.close()
            raise StoreError(f"cannot use SQLite store {self.path!r}: {exc}") from exc
        return conn

    def connection(self) -> sqlite3.Connection:
        """This thread's connection, opened on its first use."""
        if self.closed:
            own: sqlite3.Connection | None = getattr(self._local, "conn", None)
            if own is not None:  # closed by another thread: release ours here, unused
                self._local.conn = None
                with contextlib.suppress(sqlite3.Error):
                    own.close()
            raise StoreError(f"SQLite store {self.path!r} is closed")
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._open()
            self._local.conn = conn
        return conn

    def release(self) -> None:
        """Close this thread's connection (a thread of the store's ending)."""
        own: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if own is not None:
            with contextlib.suppress(sqlite3.Error):
                own.close()

    def _check_schema(self, conn: sqlite3.Connection) -> None:
        """Bring the file's schema up to date (:mod:`app.store.sqlite.schema`); refuse a file
        from a newer version of this code."""
        try:
            with self.write_lock, self._writers_of_the_file():
                begin_immediate(conn)
                try:
                    migrate(conn)
                    conn.execute("COMMIT")
                finally:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
        except sqlite3.Error as exc:
            self.close()
            raise StoreError(f"cannot use SQLite store {self.path!r}: {exc}") from exc
        except StoreError as exc:
            self.close()
            raise StoreError(f"SQLite store {self.path!r}: {exc}") from None

    def in_write_transaction(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work`` in a ``BEGIN IMMEDIATE`` transaction of this thread's connection
        (immediate, not deferred: a deferred one could not upgrade to writing after another
        process wrote, ``SQLITE_BUSY_SNAPSHOT``); rolled back when it raises."""
        conn = self.connection()
        with self.write_lock, self._writers_of_the_file(), as_store_error(self.path):
            try:
                begin_immediate(conn)
                try:
                    result = work(conn)
                    conn.execute("COMMIT")
                finally:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
            except sqlite3.Error as exc:
                self.note(exc)
                raise
        self.cannot_write = None
        return result

    def note(self, error: BaseException) -> None:
        """Remember a failed write that says the file cannot take more (:attr:`cannot_write`)."""
        code = getattr(error, "sqlite_errorcode", None)
        if isinstance(code, int) and code & 0xFF in CANNOT_WRITE:
            self.cannot_write = str(error)

    @contextlib.contextmanager
    def _writers_of_the_file(self) -> Iterator[None]:
        """Queue this process's writer behind the other processes' with ``flock`` on
        ``PATH.lock``: the kernel wakes the next writer the moment the lock is free, where
        SQLite's own busy handler polls with sleeps of up to 100 ms (measured: p99 of a tap
        at 32 connections on two workers fell from 958 ms). SQLite's locking still guards
        the file against any other program."""
        fd = self._lock_fd
        if fd is None:
            yield
            return
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)

    def close(self) -> None:
        """Close this thread's connection; later use raises :class:`StoreError`.

        Connections other threads opened are not closed from here: closing a connection
        while its thread runs a statement crashes CPython's sqlite3 module (seen with an
        expiry sweep still running at shutdown). A thread in the middle of a statement
        finishes it; its next call finds the file closed; the connections are released
        with their last reference.
        """
        with self.lock:
            self.closed = True
        self.release()
        self._local = threading.local()
        fd, self._lock_fd = self._lock_fd, None
        if fd is not None:
            with self.write_lock:  # a write under way elsewhere finishes first
                os.close(fd)
