"""The SQLite store's schema: forward migrations only.

``PRAGMA user_version`` says how many steps of :data:`MIGRATIONS` a file has had (0: a new,
empty file); ``MIGRATIONS[i]`` takes a file from version ``i`` to ``i + 1``. Opening a store
runs the missing steps in one ``BEGIN IMMEDIATE`` transaction, so when several worker
processes open one file at once the first migrates and the others, waiting for its write
lock, then find the new version and do nothing; a failing step rolls back all of them. The
rule for changing the schema: never edit a step that has shipped — append a new one (a file
in use has already run the old ones). A step must not commit, must work on a file holding
data, and should leave rows readable by the code of the version before it where it can
(workers are upgraded one at a time). A file from a newer version of this code is refused
rather than guessed at.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from app.store.base import StoreError


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
    """Version 1 → 2: indexes that let the sweep find old rows without a scan."""
    conn.execute("CREATE INDEX IF NOT EXISTS games_by_updated ON games (updated_ms)")
    conn.execute("CREATE INDEX IF NOT EXISTS sessions_by_touched ON sessions (touched_ms)")


def add_verdicts_v3(conn: sqlite3.Connection) -> None:
    """Version 2 → 3: verdicts on positions (a game's "no useful move left"), keyed by the
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


def add_moved_v7(conn: sqlite3.Connection) -> None:
    """Version 6 → 7 (issue 34): where a revoked player's data went (the old id → the new
    one), so a revocation sent again, or several at once, all end on the id that holds it;
    swept like games."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS moved (sid TEXT PRIMARY KEY, to_sid TEXT NOT NULL,"
        " moved_ms INTEGER NOT NULL) WITHOUT ROWID"
    )
    conn.execute("CREATE INDEX IF NOT EXISTS moved_by_time ON moved (moved_ms)")


def add_analyses_v8(conn: sqlite3.Connection) -> None:
    """Version 7 → 8: a replay's analysis (where the win slipped away), kept in its row so it
    goes with the replay; a replay written again (the game ended again) drops it."""
    conn.execute("ALTER TABLE replays ADD COLUMN analysis TEXT")


def add_leases_v9(conn: sqlite3.Connection) -> None:
    """Version 8 → 9 (issue 44): leases shared by every worker on the file (a name → its
    holder and when its time runs out): one analysis running per player and per address on
    the whole site. A row is deleted when its holder releases it, or by the sweep once its
    time ran out (a killed holder's)."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL,"
        " until_ms INTEGER NOT NULL) WITHOUT ROWID"
    )
    conn.execute("CREATE INDEX IF NOT EXISTS leases_by_until ON leases (until_ms)")


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [
    create_schema_v1,
    add_sweep_indexes_v2,
    add_verdicts_v3,
    add_statistics_v4,
    add_rate_buckets_v5,
    add_replays_v6,
    add_moved_v7,
    add_analyses_v8,
    add_leases_v9,
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
