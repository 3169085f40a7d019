"""A store in one SQLite file: survives restarts, shared by the worker processes of one host.

Every thread gets its own connection (sqlite3 connections must not be used by two threads at
once, and FastAPI runs sync endpoints in a thread pool). The file runs in WAL mode so readers
never wait for the writer, with ``synchronous=FULL`` so a committed move survives a power cut.
Writers take ``BEGIN IMMEDIATE``: the write lock is held from the read to the write, so two
taps on one game cannot both start from the same position.

The schema grows by forward migrations only. ``PRAGMA user_version`` says how many steps of
:data:`MIGRATIONS` a file has had (0: a new, empty file); ``MIGRATIONS[i]`` takes a file from
version ``i`` to ``i + 1``. Opening a store runs the missing steps in one ``BEGIN IMMEDIATE``
transaction, so when several worker processes open one file at once the first migrates and
the others, waiting for its write lock, then find the new version and do nothing; a failing
step rolls back all of them. The rule for changing the schema: never edit a step that has
shipped — append a new one (a file in use has already run the old ones). A step must not
commit, must work on a file holding data, and should leave rows readable by the code of the
version before it where it can (workers are upgraded one at a time). A file from a newer
version of this code is refused rather than guessed at.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import functools
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final, NamedTuple

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
    T,
    clock_elapsed,
)
from app.store.jsondata import dict_from_json, dumps, int_or_zero, json_or_none
from app.store.replays import MAX_REPLAYS_PER_SESSION, ReplaySummary, StoredReplay
from app.store.ratelimit import (
    Bucket,
    BucketLimiter,
    BucketShare,
    Limits,
    RateLimiter,
    Shared,
    Spend,
    full_at,
    merged,
)

BUSY_TIMEOUT_MS = 5000
"""How long a writer waits for another process's transaction before giving up."""

SWEEP_PAUSE_SECONDS = 0.05
"""The sweep's rest between batches. A writer of another process waiting for the lock polls
(SQLite's busy handler sleeps 1, 2, 5 … 50 ms between tries, 100 ms only after 1/3 s): a
sweep taking the next batch at once kept such a writer out for a whole sweep (measured: a
tap waited 0.8 s), while a rest as long as the poll interval lets it in after one batch."""

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

_MAKE_ROOM = """
DELETE FROM games WHERE rowid IN (
    SELECT rowid FROM games WHERE sid = :sid ORDER BY updated_ms, code
    LIMIT max(0, (SELECT count(*) FROM games WHERE sid = :sid) - :cap + 1)
)
"""
"""Before a session's new game: delete its oldest games so the new one fits under the cap."""

_RECENT = """
SELECT code, state, score, moves, updated_ms, record, extra FROM games
WHERE sid = ? AND state = 'playing' ORDER BY updated_ms DESC, code LIMIT ?
"""

_FINISHED = """
SELECT code, state, score, moves, updated_ms, record, extra FROM (
    SELECT * FROM games WHERE sid = ? ORDER BY updated_ms DESC, code LIMIT ?
) WHERE state != 'playing' ORDER BY updated_ms DESC, code LIMIT ?
"""
"""Ended games among the session's :data:`FINISHED_WINDOW` most recently changed."""


def _summary(row: tuple[Any, ...]) -> GameSummary:
    """A list line from a row of :data:`_RECENT` or :data:`_FINISHED` (damaged values read as
    defaults, like :meth:`SQLiteStore.load`)."""
    code, state, score, moves, updated_ms, record, extra = row
    return GameSummary(
        code,
        state if state in GAME_STATES else "playing",
        int_or_zero(score),
        int_or_zero(moves),
        int_or_zero(updated_ms),
        clock_elapsed(dict_from_json(record)),
        dict_from_json(extra),
    )


_UPSERT_STATS = """
INSERT INTO player_stats (sid, data, updated_ms) VALUES (?, ?, ?)
ON CONFLICT (sid) DO UPDATE SET data = excluded.data, updated_ms = excluded.updated_ms
"""

_DEAL_FIELDS: Final = ("players", "wins", "best_ms", "fewest")
_DEAL = "SELECT players, wins, best_ms, fewest, cells FROM deal_stats WHERE code = ?"
_UPSERT_DEAL = """
INSERT INTO deal_stats (code, players, wins, best_ms, fewest, cells, updated_ms)
VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (code) DO UPDATE SET players = excluded.players, wins = excluded.wins,
    best_ms = excluded.best_ms, fewest = excluded.fewest, cells = excluded.cells,
    updated_ms = excluded.updated_ms
"""


def _deal(row: tuple[Any, ...]) -> dict[str, Any]:
    """A deal's figures from a row of :data:`_DEAL` (damaged values read as empty)."""
    figures: dict[str, Any] = dict(zip(_DEAL_FIELDS, map(int_or_zero, row[:4]), strict=True))
    figures["cells"] = dict_from_json(row[4])
    return figures


_UPSERT_REPLAY = """
INSERT INTO replays (id, sid, code, state, ms, moves, score, ended_ms, line)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (id) DO UPDATE SET code = excluded.code, state = excluded.state, ms = excluded.ms,
    moves = excluded.moves, score = excluded.score, ended_ms = excluded.ended_ms,
    line = excluded.line
WHERE replays.sid = excluded.sid
"""
"""Write a replay (again, with the same id: the same ending); another player's id is left."""

_REPLAY_ROOM = """
DELETE FROM replays WHERE id IN (
    SELECT id FROM replays WHERE sid = :sid ORDER BY ended_ms, id
    LIMIT max(0, (SELECT count(*) FROM replays WHERE sid = :sid) - :cap + 1)
) AND NOT EXISTS (SELECT 1 FROM replays WHERE id = :id)
"""
"""Before a session's new replay: delete its oldest so the new one fits under the cap."""

_REPLAY_FIELDS: Final = "id, code, state, ms, moves, score, ended_ms"

_UPSERT_SESSION = """
INSERT INTO sessions (sid, data, created_ms, touched_ms) VALUES (?, ?, ?, ?)
ON CONFLICT (sid) DO UPDATE SET data = excluded.data, touched_ms = excluded.touched_ms
"""


_SWEEP_GAMES = """
DELETE FROM games WHERE rowid IN (SELECT rowid FROM games WHERE updated_ms < ? LIMIT ?)
"""

_UPSERT_VERDICT = """
INSERT INTO verdicts (key, lost, updated_ms) VALUES (?, ?, ?)
ON CONFLICT (key) DO UPDATE SET lost = excluded.lost, updated_ms = excluded.updated_ms
"""

_SWEEP_VERDICTS = """
DELETE FROM verdicts WHERE key IN (SELECT key FROM verdicts WHERE updated_ms < ? LIMIT ?)
"""

_SWEEP_FULL_BUCKETS = """
DELETE FROM rate_buckets WHERE key IN (SELECT key FROM rate_buckets WHERE full_ms < ? LIMIT ?)
"""
"""Rate-limit buckets full again: a missing bucket reads as full (``app.store.ratelimit``)."""

_OLD_SESSIONS = """
SELECT touched_ms, rowid FROM sessions
WHERE touched_ms < ? AND (touched_ms, rowid) > (?, ?) ORDER BY touched_ms, rowid LIMIT ?
"""
"""The next batch of sessions not saved since the cutoff, after the last one examined: a
batch examines at most ``batch`` rows even when many old sessions still have live games."""

_DELETE_SESSION_WITHOUT_GAMES = """
DELETE FROM sessions WHERE rowid = ?
AND NOT EXISTS (SELECT 1 FROM games AS g WHERE g.sid = sessions.sid)
"""
"""Delete one old session unless a game of it is left (``games``' key finds them)."""


def create_schema_v1(conn: sqlite3.Connection) -> None:
    """Version 0 → 1: the sessions and games tables."""
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


def add_sweep_indexes_v2(conn: sqlite3.Connection) -> None:
    """Version 1 → 2: indexes that let :meth:`SQLiteStore.sweep` find old rows without a scan."""
    conn.execute("CREATE INDEX IF NOT EXISTS games_by_updated ON games (updated_ms)")
    conn.execute("CREATE INDEX IF NOT EXISTS sessions_by_touched ON sessions (touched_ms)")


def add_verdicts_v3(conn: sqlite3.Connection) -> None:
    """Version 2 → 3: verdicts on positions (Seahaven's "no useful move left"), keyed by the
    engine's canonical position key and shared by every session; swept like games."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS verdicts (key TEXT PRIMARY KEY, lost INTEGER NOT NULL,"
        " updated_ms INTEGER NOT NULL) WITHOUT ROWID"
    )
    conn.execute("CREATE INDEX IF NOT EXISTS verdicts_by_updated ON verdicts (updated_ms)")


def add_statistics_v4(conn: sqlite3.Connection) -> None:
    """Version 3 → 4 (issue 16): each player's statistics document, each deal's figures for
    everyone, and device links (the hash of a secret → the player). Swept like games."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS player_stats (sid TEXT PRIMARY KEY, data TEXT NOT NULL,"
        " updated_ms INTEGER NOT NULL) WITHOUT ROWID"
    )
    conn.execute("CREATE INDEX IF NOT EXISTS player_stats_by_updated ON player_stats (updated_ms)")
    conn.execute(
        "CREATE TABLE IF NOT EXISTS deal_stats (code TEXT PRIMARY KEY, players INTEGER NOT NULL,"
        " wins INTEGER NOT NULL, best_ms INTEGER NOT NULL, fewest INTEGER NOT NULL,"
        " updated_ms INTEGER NOT NULL) WITHOUT ROWID"
    )
    conn.execute("CREATE INDEX IF NOT EXISTS deal_stats_by_updated ON deal_stats (updated_ms)")
    conn.execute(
        "CREATE TABLE IF NOT EXISTS links (digest TEXT PRIMARY KEY, sid TEXT NOT NULL UNIQUE,"
        " created_ms INTEGER NOT NULL) WITHOUT ROWID"
    )
    conn.execute("CREATE INDEX IF NOT EXISTS links_by_created ON links (created_ms)")


def add_rate_buckets_v5(conn: sqlite3.Connection) -> None:
    """Version 4 → 5 (issue 24): the rate limits' token buckets, shared by every worker on
    the file through the group commit (``app.store.ratelimit``); a row is deleted by the
    sweep once its bucket is full again (``full_ms``)."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS rate_buckets (key TEXT PRIMARY KEY, tokens REAL NOT NULL,"
        " at_ms INTEGER NOT NULL, full_ms INTEGER NOT NULL) WITHOUT ROWID"
    )
    conn.execute("CREATE INDEX IF NOT EXISTS rate_buckets_by_full ON rate_buckets (full_ms)")


def add_replays_v6(conn: sqlite3.Connection) -> None:
    """Version 5 → 6 (issue 26): replays of finished games (found by their id alone, listed
    by their player, swept once ended longer ago than the games' expiry) and each deal's
    wins as cells of moves and time (``app.store.histogram``; ``{}`` for older rows)."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS replays (id TEXT PRIMARY KEY, sid TEXT NOT NULL,"
        " code TEXT NOT NULL, state TEXT NOT NULL, ms INTEGER NOT NULL,"
        " moves INTEGER NOT NULL, score INTEGER NOT NULL, ended_ms INTEGER NOT NULL,"
        " line TEXT NOT NULL) WITHOUT ROWID"
    )
    conn.execute("CREATE INDEX IF NOT EXISTS replays_by_sid ON replays (sid, ended_ms)")
    conn.execute("CREATE INDEX IF NOT EXISTS replays_by_ended ON replays (ended_ms)")
    conn.execute("ALTER TABLE deal_stats ADD COLUMN cells TEXT NOT NULL DEFAULT '{}'")


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [
    create_schema_v1,
    add_sweep_indexes_v2,
    add_verdicts_v3,
    add_statistics_v4,
    add_rate_buckets_v5,
    add_replays_v6,
]
"""``MIGRATIONS[i]`` migrates a file from ``user_version`` ``i`` to ``i + 1``: append only."""

SCHEMA_VERSION = len(MIGRATIONS)
"""``PRAGMA user_version`` of the schema this code writes; a newer file is refused."""


def migrate(conn: sqlite3.Connection) -> tuple[int, int]:
    """Run the steps of :data:`MIGRATIONS` the file lacks; the caller holds the write
    transaction. Returns the versions before and after.

    :raises StoreError: when the file is from a newer version of this code.
    """
    version: int = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"schema version {version} is newer than this code knows ({SCHEMA_VERSION}):"
            " upgrade the application"
        )
    for step in range(version, SCHEMA_VERSION):
        MIGRATIONS[step](conn)
        conn.execute(f"PRAGMA user_version = {step + 1}")
    return version, SCHEMA_VERSION


BEGIN_DEADLINE_SECONDS = 10.0
"""How long a writer keeps asking for the write lock before giving up."""


def _begin_immediate(conn: sqlite3.Connection) -> None:
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


MAX_BATCH = 256
"""Most changes one group commit takes."""


class _Pending(NamedTuple):
    sid: str
    code: str
    change: Change[Any]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]


class _Work(NamedTuple):
    """Writes that go with the next group commit (the rate limits' shared buckets): ``work``
    runs in the batch's transaction, ``done`` hears its result once committed (``None``: it
    failed), on the writer thread, before the batch's callers are answered."""

    work: Callable[[sqlite3.Connection], Any]
    done: Callable[[Any], None]


_BUCKET = "SELECT tokens, at_ms FROM rate_buckets WHERE key = ?"
_UPSERT_BUCKET = """
INSERT INTO rate_buckets (key, tokens, at_ms, full_ms) VALUES (?, ?, ?, ?)
ON CONFLICT (key) DO UPDATE SET tokens = excluded.tokens, at_ms = excluded.at_ms,
    full_ms = excluded.full_ms
"""


def _merge_buckets(conn: sqlite3.Connection, spent: dict[str, Spend]) -> dict[str, Bucket]:
    """Take one limiter's spends from the shared buckets, in the writer's transaction."""
    now = now_ms()
    buckets = {}
    for key, spend in spent.items():
        row = conn.execute(_BUCKET, (key,)).fetchone()
        bucket = merged(None if row is None else Bucket(float(row[0]), int(row[1])), spend, now)
        conn.execute(_UPSERT_BUCKET, (key, bucket.tokens, bucket.at_ms, full_at(bucket, spend)))
        buckets[key] = bucket
    return buckets


class _Buckets(BucketShare):
    """The rate limits' buckets in the store's file: read on the loop (a read in WAL mode
    never waits for the writer), written by the group commit."""

    def __init__(self, store: SQLiteStore) -> None:
        self._store = store

    def read_bucket(self, key: str) -> Bucket | None:
        with _as_store_error(self._store.path):
            row = self._store.connection().execute(_BUCKET, (key,)).fetchone()
        return None if row is None else Bucket(float(row[0]), int(row[1]))

    def share_buckets(self, spent: dict[str, Spend], done: Shared) -> None:
        self._store._writer().put(_Work(functools.partial(_merge_buckets, spent=spent), done))


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


@contextlib.contextmanager
def _as_store_error(path: str) -> Iterator[None]:
    """Turn sqlite3's errors (a lock held past the busy timeout, a full disk, a closed store)
    into :class:`StoreError`, the one failure the web layer handles."""
    try:
        yield
    except sqlite3.Error as exc:
        raise StoreError(f"SQLite store {path!r}: {exc}") from exc


def _use_wal(conn: sqlite3.Connection) -> None:
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


def _sweep_sessions(
    conn: sqlite3.Connection, *, cutoff_ms: int, after: tuple[int, int], batch: int
) -> tuple[int, list[tuple[int, int]]]:
    """Examine the next ``batch`` old sessions after ``after``; delete those without games.
    Returns how many were deleted and the (touched_ms, rowid) examined."""
    rows: list[tuple[int, int]] = conn.execute(_OLD_SESSIONS, (cutoff_ms, *after, batch)).fetchall()
    deleted = conn.executemany(_DELETE_SESSION_WITHOUT_GAMES, [(r,) for _, r in rows]).rowcount
    return deleted, rows


CHECKPOINT_SECONDS: Final = 1.0
"""How often the checkpointer copies the write-ahead log back into the database file."""


class SQLiteStore(Store):
    """Sessions and games in the SQLite file at ``path`` (created, with its folders, if missing).

    Damaged rows never make :meth:`load` raise: a session that does not parse loads as ``None``
    (the player gets a new one), and a game whose record is not a JSON object loads with
    ``record == {}`` — the engine refuses that record and the web layer offers a fresh start.

    :raises StoreError: when the file cannot be opened, is not a database, or was written by
        a newer version of this code.
    """

    def __init__(self, path: str, *, sweep_pause_seconds: float = SWEEP_PAUSE_SECONDS) -> None:
        self._queue: queue.SimpleQueue[_Pending | _Work | None] | None = None
        self._writer_thread: threading.Thread | None = None
        self._checkpointer: threading.Thread | None = None
        self._stop_checkpoints = threading.Event()
        self.batches = 0
        """Transactions the group-commit writer committed (benchmarks read it)."""
        self.batched_changes = 0
        if path in ("", ":memory:") or path.startswith("file:"):
            raise StoreError(f"SQLite store needs a file path, not {path!r} (use memory:)")
        self._path = path
        self.path: Final = path
        self._sweep_pause = sweep_pause_seconds
        self._local = threading.local()
        self._lock = threading.Lock()
        """Guards the closed flag and the writer thread's start."""
        self._lock_fd: int | None = None
        self._write_lock = threading.Lock()
        """Queues this process's writers: SQLite's busy handler polls with sleeps, so waiting
        here is faster and fairer; other processes still wait through ``BEGIN IMMEDIATE``."""
        self._closed = False
        try:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            self._lock_fd = os.open(f"{path}.lock", os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StoreError(f"cannot open SQLite store {path!r}: {exc}") from exc
        self._check_schema(self.connection())

    def rate_limiter(self, configured: Limits) -> RateLimiter:
        """Token buckets decided in this process's memory, shared with every process on the
        file through the group commit (``rate_buckets``, :mod:`app.store.ratelimit`)."""
        return BucketLimiter(configured, _Buckets(self))

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
            _use_wal(conn)
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA foreign_keys = ON")
        except sqlite3.Error as exc:
            conn.close()
            raise StoreError(f"cannot use SQLite store {self._path!r}: {exc}") from exc
        return conn

    def connection(self) -> sqlite3.Connection:
        """This thread's connection, opened on its first use."""
        if self._closed:
            own: sqlite3.Connection | None = getattr(self._local, "conn", None)
            if own is not None:  # closed by another thread: release ours here, unused
                self._local.conn = None
                with contextlib.suppress(sqlite3.Error):
                    own.close()
            raise StoreError(f"SQLite store {self._path!r} is closed")
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._open()
            self._local.conn = conn
        return conn

    def _check_schema(self, conn: sqlite3.Connection) -> None:
        """Bring the file's schema up to date (see the module's migration rule); refuse a file
        from a newer version of this code."""
        try:
            with self._write_lock, self._writers_of_the_file():
                _begin_immediate(conn)
                try:
                    migrate(conn)
                    conn.execute("COMMIT")
                finally:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
        except sqlite3.Error as exc:
            self.close()
            raise StoreError(f"cannot use SQLite store {self._path!r}: {exc}") from exc
        except StoreError as exc:
            self.close()
            raise StoreError(f"SQLite store {self._path!r}: {exc}") from None

    @staticmethod
    def _read(
        conn: sqlite3.Connection, sid: str, code: str | None
    ) -> tuple[SessionData | None, StoredGame | None]:
        data, record, state, score, moves, extra, updated_ms = conn.execute(
            _LOAD, (sid, sid, code)
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
            extra=dict_from_json(extra),
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
        now = now_ms()
        conn = self.connection()
        with self._write_lock, _as_store_error(self._path):
            conn.execute(_UPSERT_SESSION, (sid, dumps(session.to_data()), now, now))

    def change_game(self, sid: str, code: str, change: Change[T]) -> T:
        """One ``BEGIN IMMEDIATE`` transaction: read, ``change``, upsert the game it returns.

        The game is stored under ``code`` (its ``updated_ms`` as the caller set it); when
        ``change`` raises, the transaction is rolled back and the exception propagates (an
        ``sqlite3.Error``, from the store or the callback, as :class:`StoreError`).
        """
        return self._in_write_transaction(lambda conn: self._apply(conn, sid, code, change))

    def _apply(self, conn: sqlite3.Connection, sid: str, code: str, change: Change[T]) -> T:
        """Read, decide, write — inside a transaction the caller holds."""
        session, game = self._read(conn, sid, code)
        new, result = change(session, game)
        if new is None:
            return result

        def counts() -> counting.Counts:
            row = conn.execute("SELECT data FROM player_stats WHERE sid = ?", (sid,)).fetchone()
            figures = conn.execute(_DEAL, (code,)).fetchone()
            return (
                None if row is None else json_or_none(row[0]),
                None if figures is None else _deal(figures),
            )

        written = counting.settle(game, new, counts)
        new, now = written.game, written.game.updated_ms
        if written.stats is not None:
            conn.execute(_UPSERT_STATS, (sid, dumps(written.stats), now))
        if written.deal is not None:
            deal = written.deal
            figures = (*(deal[f] for f in _DEAL_FIELDS), dumps(deal.get("cells", {})))
            conn.execute(_UPSERT_DEAL, (code, *figures, now))
        if written.created:
            conn.execute(_MAKE_ROOM, {"sid": sid, "cap": self.max_games})
        replay = written.replay
        if replay is not None:
            room = {"sid": sid, "cap": MAX_REPLAYS_PER_SESSION, "id": replay.id}
            conn.execute(_REPLAY_ROOM, room)
            conn.execute(
                _UPSERT_REPLAY,
                (replay.id, sid, replay.code, replay.state, replay.ms, replay.moves,
                 replay.score, replay.ended_ms, replay.line),
            )  # fmt: skip
        conn.execute(
            _UPSERT_GAME,
            (
                sid,
                code,
                dumps(new.record),
                new.state,
                new.score,
                new.moves,
                dumps(new.extra),
                now,
            ),
        )
        return result

    def player_stats(self, sid: str) -> dict[str, Any] | None:
        with _as_store_error(self._path):
            row = (
                self.connection()
                .execute("SELECT data FROM player_stats WHERE sid = ?", (sid,))
                .fetchone()
            )
        return None if row is None else dict_from_json(row[0])

    def deal_stats(self, code: str) -> dict[str, Any] | None:
        with _as_store_error(self._path):
            row = self.connection().execute(_DEAL, (code,)).fetchone()
        return None if row is None else _deal(row)

    def replay(self, replay_id: str) -> StoredReplay | None:
        query = f"SELECT {_REPLAY_FIELDS}, line FROM replays WHERE id = ?"  # fixed names
        with _as_store_error(self._path):
            row = self.connection().execute(query, (replay_id,)).fetchone()
        if row is None:
            return None
        ident, code, state, ms, moves, score, ended, line = row
        return StoredReplay(
            str(ident), str(code), str(state), int_or_zero(ms), int_or_zero(moves),
            int_or_zero(score), int_or_zero(ended), str(line),
        )  # fmt: skip

    def player_replays(self, sid: str) -> list[ReplaySummary]:
        query = f"SELECT {_REPLAY_FIELDS} FROM replays WHERE sid = ? ORDER BY ended_ms DESC, id"
        with _as_store_error(self._path):
            rows = self.connection().execute(query, (sid,)).fetchall()
        return [
            ReplaySummary(
                str(i), str(c), str(s), int_or_zero(ms), int_or_zero(m), int_or_zero(p),
                int_or_zero(e),
            )  # fmt: skip
            for i, c, s, ms, m, p, e in rows
        ]

    def delete_replay(self, sid: str, replay_id: str) -> bool:
        return bool(
            self._in_write_transaction(
                lambda conn: conn.execute(
                    "DELETE FROM replays WHERE id = ? AND sid = ?", (replay_id, sid)
                ).rowcount
            )
        )

    async def delete_replay_async(self, sid: str, replay_id: str) -> bool:
        return await asyncio.to_thread(self.delete_replay, sid, replay_id)

    def reset_stats(self, sid: str) -> None:
        self._in_write_transaction(
            lambda conn: conn.execute("DELETE FROM player_stats WHERE sid = ?", (sid,)).rowcount
        )

    async def reset_stats_async(self, sid: str) -> None:
        await asyncio.to_thread(self.reset_stats, sid)

    def save_link(self, sid: str, digest: str) -> None:
        now = time.time_ns() // 1_000_000

        def work(conn: sqlite3.Connection) -> None:
            conn.execute("DELETE FROM links WHERE sid = ?", (sid,))
            conn.execute(
                "INSERT INTO links (digest, sid, created_ms) VALUES (?, ?, ?)", (digest, sid, now)
            )

        self._in_write_transaction(work)

    def link_owner(self, digest: str) -> str | None:
        with _as_store_error(self._path):
            row = (
                self.connection()
                .execute("SELECT sid FROM links WHERE digest = ?", (digest,))
                .fetchone()
            )
        return None if row is None else str(row[0])

    def has_link(self, sid: str) -> bool:
        with _as_store_error(self._path):
            row = self.connection().execute("SELECT 1 FROM links WHERE sid = ?", (sid,)).fetchone()
        return row is not None

    def drop_link(self, sid: str) -> bool:
        return bool(
            self._in_write_transaction(
                lambda conn: conn.execute("DELETE FROM links WHERE sid = ?", (sid,)).rowcount
            )
        )

    async def save_link_async(self, sid: str, digest: str) -> None:
        await asyncio.to_thread(self.save_link, sid, digest)

    async def drop_link_async(self, sid: str) -> bool:
        return await asyncio.to_thread(self.drop_link, sid)

    # --- group commit ----------------------------------------------------------------------

    async def change_game_async(self, sid: str, code: str, change: Change[T]) -> T:
        """Queue the change for the writer thread and wait for its commit.

        ``synchronous=FULL`` makes every commit wait for the disk (milliseconds). The writer
        takes every change queued while the previous commit was on its way to disk and
        applies them in one ``BEGIN IMMEDIATE`` transaction, each under its own savepoint (a
        change that raises rolls back alone, and later changes of the same game see earlier
        ones, in arrival order), then commits once: one fsync for the whole batch, and only
        after it is every caller answered — an acknowledged tap is on disk.
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._writer().put(_Pending(sid, code, change, loop, future))
        result: T = await future
        return result

    def _writer(self) -> queue.SimpleQueue[_Pending | _Work | None]:
        with self._lock:
            if self._closed:
                raise StoreError(f"SQLite store {self._path!r} is closed")
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
                    self.connection().execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        finally:
            own: sqlite3.Connection | None = getattr(self._local, "conn", None)
            if own is not None:
                with contextlib.suppress(sqlite3.Error):
                    own.close()

    def _write_loop(self, pending: queue.SimpleQueue[_Pending | _Work | None]) -> None:
        try:
            with contextlib.suppress(StoreError, sqlite3.Error):  # the checkpointer's job
                self.connection().execute("PRAGMA wal_autocheckpoint = 0")
            self._write_batches(pending)
        finally:
            own: sqlite3.Connection | None = getattr(self._local, "conn", None)
            if own is not None:
                with contextlib.suppress(sqlite3.Error):
                    own.close()

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
                    conn.execute("ROLLBACK TO change")
                    outcomes.append((False, exc))
                conn.execute("RELEASE change")

        try:
            self._in_write_transaction(work)
            self.batches += 1
            self.batched_changes += sum(isinstance(item, _Pending) for item in batch)
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

    def verdict(self, key: str) -> bool | None:
        with _as_store_error(self._path):
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
        self._in_write_transaction(
            lambda conn: conn.execute(_UPSERT_VERDICT, (key, int(lost), now)).rowcount
        )

    async def remember_verdict_async(self, key: str, lost: bool) -> None:
        """In a thread: the write may wait for the write lock behind a group commit."""
        await asyncio.to_thread(self.remember_verdict, key, lost)

    async def save_session_async(self, sid: str, session: SessionData) -> None:
        """In a thread: the write may wait for the write lock behind a group commit."""
        await asyncio.to_thread(self.save_session, sid, session)

    def recent_games(self, sid: str, limit: int = 10) -> list[GameSummary]:
        conn = self.connection()
        with _as_store_error(self._path):
            rows = conn.execute(_RECENT, (sid, limit)).fetchall()
        return [_summary(row) for row in rows]

    def finished_games(self, sid: str, limit: int = 5) -> list[GameSummary]:
        conn = self.connection()
        with _as_store_error(self._path):
            rows = conn.execute(_FINISHED, (sid, FINISHED_WINDOW, limit)).fetchall()
        return [_summary(row) for row in rows]

    def sweep(self, cutoff_ms: int, batch: int = 500, *, idle_cutoff_ms: int | None = None) -> int:
        """Old games, then old sessions without games: each batch one ``BEGIN IMMEDIATE``
        transaction examining at most ``batch`` rows (found through the version-2 indexes),
        so a tap waits for one batch at most (a few milliseconds for 500 rows). Between
        batches the sweep rests ``sweep_pause_seconds`` (:data:`SWEEP_PAUSE_SECONDS`) so the
        other processes' waiting writers get the lock. Sessions are walked with a cursor:
        one kept alive by its games is examined once per sweep, not once per batch."""
        if batch < 1:
            raise ValueError(f"batch must be at least 1, not {batch}")
        deleted = 0
        while True:
            count = self._in_write_transaction(
                lambda conn: conn.execute(_SWEEP_GAMES, (cutoff_ms, batch)).rowcount
            )
            deleted += count
            if count < batch:
                break
            time.sleep(self._sweep_pause)
        idle = cutoff_ms if idle_cutoff_ms is None else idle_cutoff_ms
        after: tuple[int, int] = (-(2**63), -(2**63))  # (touched_ms, rowid) examined last
        while True:
            count, rows = self._in_write_transaction(
                functools.partial(_sweep_sessions, cutoff_ms=idle, after=after, batch=batch)
            )
            deleted += count
            if len(rows) < batch:
                break
            after = rows[-1]
            time.sleep(self._sweep_pause)
        while (
            self._in_write_transaction(
                lambda conn: conn.execute(_SWEEP_VERDICTS, (cutoff_ms, batch)).rowcount
            )
            == batch
        ):
            time.sleep(self._sweep_pause)  # verdicts are not counted: they are no one's data
        for table, key, when in (
            ("player_stats", "sid", "updated_ms"),
            ("deal_stats", "code", "updated_ms"),
            ("links", "digest", "created_ms"),
            ("replays", "id", "ended_ms"),
        ):  # as old as an expired game: gone too (a device link lives as long)
            sweep_rows = (
                f"DELETE FROM {table} WHERE {key} IN"  # fixed names, no input
                f" (SELECT {key} FROM {table} WHERE {when} < ? LIMIT ?)"
            )
            while self._sweep_rows(sweep_rows, cutoff_ms, batch) == batch:
                time.sleep(self._sweep_pause)
        while self._sweep_rows(_SWEEP_FULL_BUCKETS, now_ms(), batch) == batch:
            time.sleep(self._sweep_pause)
        return deleted

    def _sweep_rows(self, query: str, cutoff_ms: int, batch: int) -> int:
        def work(conn: sqlite3.Connection) -> int:
            return conn.execute(query, (cutoff_ms, batch)).rowcount

        return self._in_write_transaction(work)

    def _in_write_transaction(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work`` in a ``BEGIN IMMEDIATE`` transaction of this thread's connection
        (immediate, not deferred: a deferred one could not upgrade to writing after another
        process wrote, ``SQLITE_BUSY_SNAPSHOT``); rolled back when it raises."""
        conn = self.connection()
        with self._write_lock, self._writers_of_the_file(), _as_store_error(self._path):
            _begin_immediate(conn)
            try:
                result = work(conn)
                conn.execute("COMMIT")
            finally:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
        return result

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
        """Finish the queued changes and close this thread's connection; later use raises
        :class:`StoreError`.

        Connections other threads opened are not closed from here: closing a connection
        while its thread runs a statement crashes CPython's sqlite3 module (seen with an
        expiry sweep still running at shutdown). A thread in the middle of a statement
        finishes it; its next call finds the store closed; the connections are released
        with their last reference.
        """
        with self._lock:
            writer, self._writer_thread = self._writer_thread, None
            checkpointer, self._checkpointer = self._checkpointer, None
            if self._queue is not None:
                self._queue.put(None)
        if writer is not None and writer is not threading.current_thread():
            writer.join(10)
        self._stop_checkpoints.set()
        if checkpointer is not None:
            checkpointer.join(10)
        with self._lock:
            self._closed = True
        own: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if own is not None:
            with contextlib.suppress(sqlite3.Error):
                own.close()
        self._local = threading.local()
        fd, self._lock_fd = self._lock_fd, None
        if fd is not None:
            with self._write_lock:  # a write under way elsewhere finishes first
                os.close(fd)
