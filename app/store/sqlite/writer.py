"""The SQLite store's group commit: one writer thread commits every change queued meanwhile in
one transaction, and a checkpointer thread copies the log back into the file.

``synchronous=FULL`` makes every commit wait for the disk (milliseconds). The writer takes
every change queued while the previous commit was on its way to disk and applies them in one
``BEGIN IMMEDIATE`` transaction, each under its own savepoint (a change that raises rolls back
alone, and later changes of the same game see earlier ones, in arrival order), then commits
once: one fsync for the whole batch, and only after it is every caller answered — an
acknowledged tap is on disk. Other writes may ride along (:meth:`GroupCommit.work`: the rate
limits' shared buckets).
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
from collections.abc import Callable
from typing import Any, Final, NamedTuple

from app.store.base import Change, StoreError, T
from app.store.sqlite.files import SQLiteFile

MAX_BATCH: Final = 256
"""Most changes one group commit takes."""

CHECKPOINT_SECONDS: Final = 1.0
"""How often the checkpointer copies the write-ahead log back into the database file."""

Apply = Callable[[sqlite3.Connection, str, str, Change[Any]], Any]
"""Read, decide and write one change inside the transaction (the store's ``_apply``)."""


class _Pending(NamedTuple):
    sid: str
    code: str
    change: Change[Any]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]


class _Work(NamedTuple):
    """Writes that go with the next group commit: ``work`` runs in the batch's transaction,
    ``done`` hears its result once committed (``None``: it failed), on the writer thread,
    before the batch's callers are answered."""

    work: Callable[[sqlite3.Connection], Any]
    done: Callable[[Any], None]


def _settle(future: asyncio.Future[Any], ok: bool, value: Any) -> None:
    if future.cancelled():
        return
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


def _settle_all(settled: list[tuple[asyncio.Future[Any], bool, Any]]) -> None:
    """Answer a batch's callers of one loop, on that loop: one wake-up for the batch."""
    for future, ok, value in settled:
        _settle(future, ok, value)


class GroupCommit:
    """The writer and the checkpointer of one :class:`SQLiteFile`, started on first use."""

    def __init__(self, file: SQLiteFile, apply: Apply) -> None:
        self._file = file
        self._apply = apply
        self._queue: queue.SimpleQueue[_Pending | _Work | None] | None = None
        self._writer_thread: threading.Thread | None = None
        self._checkpointer: threading.Thread | None = None
        self._stop_checkpoints = threading.Event()
        self.batches = 0
        """Transactions the writer committed (benchmarks read it)."""
        self.batched_changes = 0

    async def change(self, sid: str, code: str, change: Change[T]) -> T:
        """Queue the change for the writer thread and wait for its commit."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._writer().put(_Pending(sid, code, change, loop, future))
        result: T = await future
        return result

    def work(self, work: Callable[[sqlite3.Connection], Any], done: Callable[[Any], None]) -> None:
        """Run ``work`` in the next group commit; ``done`` gets its result once committed.

        :raises StoreError: when the store is closed.
        """
        self._writer().put(_Work(work, done))

    def _writer(self) -> queue.SimpleQueue[_Pending | _Work | None]:
        with self._file.lock:
            if self._file.closed:
                raise StoreError(f"SQLite store {self._file.path!r} is closed")
            if self._queue is None:
                self._queue = queue.SimpleQueue()
                self._writer_thread = threading.Thread(
                    target=self._write_loop, args=(self._queue,), name="sqlite-writer", daemon=True
                )
                self._writer_thread.start()
                self._checkpointer = threading.Thread(
                    target=self._checkpoint_loop, name="sqlite-checkpoints", daemon=True
                )
                self._checkpointer.start()
            return self._queue

    def _checkpoint_loop(self) -> None:
        """Copy the log back into the file every :data:`CHECKPOINT_SECONDS`, off the writer.

        The writer's connection does not checkpoint on its own (``wal_autocheckpoint=0``):
        SQLite's automatic checkpoint runs inside the commit that fills the log past 1,000
        pages, so every few hundred taps one commit also wrote the pages back and synced the
        file, and every tap queued behind it waited (``docs/performance.md``, *Checkpoints*).
        A passive checkpoint never blocks the writer and never waits for readers; a log that
        a reader still needs is copied on a later round.
        """
        try:
            while not self._stop_checkpoints.wait(CHECKPOINT_SECONDS):
                with contextlib.suppress(StoreError, sqlite3.Error):
                    self._file.connection().execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        finally:
            self._file.release()

    def _write_loop(self, pending: queue.SimpleQueue[_Pending | _Work | None]) -> None:
        try:
            with contextlib.suppress(StoreError, sqlite3.Error):  # the checkpointer's job
                self._file.connection().execute("PRAGMA wal_autocheckpoint = 0")
            self._write_batches(pending)
        finally:
            self._file.release()

    def _write_batches(self, pending: queue.SimpleQueue[_Pending | _Work | None]) -> None:
        while True:
            first = pending.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < MAX_BATCH:
                try:
                    more = pending.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            self._commit_batch(batch)
            if stop:
                return

    def _commit_batch(self, batch: list[_Pending | _Work]) -> None:
        outcomes: list[tuple[bool, Any]] = []

        def work(conn: sqlite3.Connection) -> None:
            for item in batch:
                conn.execute("SAVEPOINT change")
                try:
                    if isinstance(item, _Work):
                        outcomes.append((True, item.work(conn)))
                    else:
                        outcomes.append((True, self._apply(conn, item.sid, item.code, item.change)))
                except Exception as exc:  # this change alone is refused; the batch goes on
                    self._file.note(exc)
                    if not conn.in_transaction:  # SQLite rolled it all back (a full disk)
                        raise
                    conn.execute("ROLLBACK TO change")
                    outcomes.append((False, exc))
                conn.execute("RELEASE change")

        try:
            self._file.in_write_transaction(work)
            self.batches += 1
            self.batched_changes += sum(isinstance(item, _Pending) for item in batch)
            for ok, value in outcomes:  # a change refused because the file is full
                if not ok:
                    self._file.note(value)
        except BaseException as exc:  # the commit failed: nobody's change is on disk
            failure = exc if isinstance(exc, StoreError) else StoreError(str(exc))
            outcomes = [(False, failure)] * len(batch)
        # one call_soon_threadsafe per loop and batch, not per change: each call wakes the
        # loop and takes the GIL once (measured in docs/performance.md, "The writer")
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], bool, Any]]]
        by_loop = {}
        for item, (ok, value) in zip(batch, outcomes, strict=True):
            if isinstance(item, _Work):
                with contextlib.suppress(Exception):  # a listener's failure is its own
                    item.done(value if ok else None)
            else:
                by_loop.setdefault(item.loop, []).append((item.future, ok, value))
        for loop, settled in by_loop.items():
            # a loop that has closed meanwhile has nobody waiting: the writer goes on
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_settle_all, settled)

    def close(self) -> None:
        """Finish the queued changes and stop both threads (waiting at most 10 s each)."""
        with self._file.lock:
            writer, self._writer_thread = self._writer_thread, None
            checkpointer, self._checkpointer = self._checkpointer, None
            if self._queue is not None:
                self._queue.put(None)
        if writer is not None and writer is not threading.current_thread():
            writer.join(10)
        self._stop_checkpoints.set()
        if checkpointer is not None:
            checkpointer.join(10)
