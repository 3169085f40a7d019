"""The SQLite store's SQL text, and the rows it reads turned into the store's values."""

from __future__ import annotations

from typing import Any, Final

from app.store.jsondata import dict_from_json, dumps, int_or_zero, json_or_none
from app.store.marks import Marks
from app.store.replays import ReplaySummary, StoredReplay
from app.store.values import GameSummary, clock_elapsed, status_of

LOAD = """
SELECT s.data, g.record, g.state, g.score, g.moves, g.extra, g.updated_ms
FROM (SELECT 1) AS k
LEFT JOIN sessions AS s ON s.sid = ?
LEFT JOIN games AS g ON g.sid = ? AND g.code = ?
"""
"""Session and game in one statement: always exactly one row, NULLs for what is missing."""

UPSERT_GAME = """
INSERT INTO games (sid, code, record, state, score, moves, extra, updated_ms)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (sid, code) DO UPDATE SET
    record = excluded.record, state = excluded.state, score = excluded.score,
    moves = excluded.moves, extra = excluded.extra, updated_ms = excluded.updated_ms
"""

MAKE_ROOM = """
DELETE FROM games WHERE rowid IN (
    SELECT rowid FROM games WHERE sid = :sid ORDER BY updated_ms, code
    LIMIT max(0, (SELECT count(*) FROM games WHERE sid = :sid) - :cap + 1)
)
"""
"""Before a session's new game: delete its oldest games so the new one fits under the cap."""

RECENT = """
SELECT code, state, score, moves, updated_ms, record, extra FROM games
WHERE sid = ? AND state = 'playing' ORDER BY updated_ms DESC, code LIMIT ?
"""

FINISHED = """
SELECT code, state, score, moves, updated_ms, record, extra FROM (
    SELECT * FROM games WHERE sid = ? ORDER BY updated_ms DESC, code LIMIT ?
) WHERE state != 'playing' ORDER BY updated_ms DESC, code LIMIT ?
"""
"""Ended games among the session's ``FINISHED_WINDOW`` most recently changed."""

UPSERT_STATS = """
INSERT INTO player_stats (sid, data, updated_ms) VALUES (?, ?, ?)
ON CONFLICT (sid) DO UPDATE SET data = excluded.data, updated_ms = excluded.updated_ms
"""

DEAL_FIELDS: Final = ("players", "wins", "best_ms", "fewest")
DEAL = "SELECT players, wins, best_ms, fewest, cells FROM deal_stats WHERE code = ?"
UPSERT_DEAL = """
INSERT INTO deal_stats (code, players, wins, best_ms, fewest, cells, updated_ms)
VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (code) DO UPDATE SET players = excluded.players, wins = excluded.wins,
    best_ms = excluded.best_ms, fewest = excluded.fewest, cells = excluded.cells,
    updated_ms = excluded.updated_ms
"""


def deal(row: tuple[Any, ...]) -> dict[str, Any]:
    """A deal's figures from a row of :data:`DEAL` (damaged values read as empty)."""
    figures: dict[str, Any] = dict(zip(DEAL_FIELDS, map(int_or_zero, row[:4]), strict=True))
    figures["cells"] = dict_from_json(row[4])
    return figures


def deal_row(figures: dict[str, Any]) -> tuple[Any, ...]:
    """What :data:`UPSERT_DEAL` writes after the code: the figures, their cells as JSON."""
    return (*(figures[f] for f in DEAL_FIELDS), dumps(figures.get("cells", {})))


UPSERT_REPLAY = """
INSERT INTO replays (id, sid, code, state, ms, moves, score, ended_ms, line)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (id) DO UPDATE SET code = excluded.code, state = excluded.state, ms = excluded.ms,
    moves = excluded.moves, score = excluded.score, ended_ms = excluded.ended_ms,
    line = excluded.line, analysis = NULL
WHERE replays.sid = excluded.sid
"""
"""Write a replay (again, with the same id: the same ending); another player's id is left."""

REPLAY_ROOM = """
DELETE FROM replays WHERE id IN (
    SELECT id FROM replays WHERE sid = :sid ORDER BY ended_ms, id
    LIMIT max(0, (SELECT count(*) FROM replays WHERE sid = :sid) - :cap + 1)
) AND NOT EXISTS (SELECT 1 FROM replays WHERE id = :id)
"""
"""Before a session's new replay: delete its oldest so the new one fits under the cap."""

REPLAY = """
SELECT id, code, state, ms, moves, score, ended_ms, line FROM replays WHERE id = ?
"""
PLAYER_REPLAYS = """
SELECT id, code, state, ms, moves, score, ended_ms FROM replays WHERE sid = ?
ORDER BY ended_ms DESC, id
"""
REPLAY_OWNER = "SELECT sid FROM replays WHERE id = ?"
MOVED = "SELECT to_sid FROM moved WHERE sid = ?"
DELETE_REPLAY = "DELETE FROM replays WHERE id = ? AND sid = ?"
ANALYSIS = "SELECT analysis FROM replays WHERE id = ?"
SAVE_ANALYSIS = "UPDATE replays SET analysis = ? WHERE id = ?"


def replay_row(sid: str, replay: StoredReplay) -> tuple[Any, ...]:
    """What :data:`UPSERT_REPLAY` writes."""
    return (
        replay.id, sid, replay.code, replay.state, replay.ms, replay.moves, replay.score,
        replay.ended_ms, replay.line,
    )  # fmt: skip


def replay_summary(row: tuple[Any, ...]) -> ReplaySummary:
    """A replay's summary from a row of :data:`PLAYER_REPLAYS` (or the start of :data:`REPLAY`)."""
    ident, code, state, ms, moves, score, ended = row[:7]
    return ReplaySummary(
        str(ident), str(code), str(state), int_or_zero(ms), int_or_zero(moves),
        int_or_zero(score), int_or_zero(ended),
    )  # fmt: skip


def stored_replay(row: tuple[Any, ...]) -> StoredReplay:
    """A replay from a row of :data:`REPLAY`."""
    s = replay_summary(row)
    return StoredReplay(s.id, s.code, s.state, s.ms, s.moves, s.score, s.ended_ms, str(row[7]))


UPSERT_SESSION = """
INSERT INTO sessions (sid, data, created_ms, touched_ms) VALUES (?, ?, ?, ?)
ON CONFLICT (sid) DO UPDATE SET data = excluded.data, touched_ms = excluded.touched_ms
"""

SWEEP_GAMES = """
DELETE FROM games WHERE rowid IN (SELECT rowid FROM games WHERE updated_ms < ? LIMIT ?)
"""

UPSERT_VERDICT = """
INSERT INTO verdicts (key, lost, updated_ms) VALUES (?, ?, ?)
ON CONFLICT (key) DO UPDATE SET lost = excluded.lost, updated_ms = excluded.updated_ms
"""

SWEEP_VERDICTS = """
DELETE FROM verdicts WHERE key IN (SELECT key FROM verdicts WHERE updated_ms < ? LIMIT ?)
"""

SWEEP_FULL_BUCKETS = """
DELETE FROM rate_buckets WHERE key IN (SELECT key FROM rate_buckets WHERE full_ms < ? LIMIT ?)
"""
"""Rate-limit buckets full again: a missing bucket reads as full (``app.store.ratelimit``)."""

OLD_SESSIONS = """
SELECT touched_ms, rowid FROM sessions
WHERE touched_ms < ? AND (touched_ms, rowid) > (?, ?) ORDER BY touched_ms, rowid LIMIT ?
"""
"""The next batch of sessions not saved since the cutoff, after the last one examined: a
batch examines at most ``batch`` rows even when many old sessions still have live games."""

DELETE_SESSION_WITHOUT_GAMES = """
DELETE FROM sessions WHERE rowid = ?
AND NOT EXISTS (SELECT 1 FROM games AS g WHERE g.sid = sessions.sid)
"""
"""Delete one old session unless a game of it is left (``games``' key finds them)."""

BUCKET = "SELECT tokens, at_ms FROM rate_buckets WHERE key = ?"
TAKE_LEASE = """
INSERT INTO leases (name, holder, until_ms) VALUES (:name, :holder, :until)
ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until_ms = excluded.until_ms
WHERE leases.holder = excluded.holder OR leases.until_ms <= :now
"""
"""A lease taken (nobody holds it, or its time ran out) or renewed by its holder: one row
changed; none while another holder's time runs."""

DROP_LEASE = "DELETE FROM leases WHERE name = ? AND holder = ? RETURNING until_ms"
"""A holder's lease released (one that ran out too: it is no one's now)."""

SWEEP_LEASES = """
DELETE FROM leases WHERE name IN (SELECT name FROM leases WHERE until_ms < ? LIMIT ?)
"""
"""Leases whose time ran out (their holder died without releasing them)."""

UPSERT_BUCKET = """
INSERT INTO rate_buckets (key, tokens, at_ms, full_ms) VALUES (?, ?, ?, ?)
ON CONFLICT (key) DO UPDATE SET tokens = excluded.tokens, at_ms = excluded.at_ms,
    full_ms = excluded.full_ms
"""

STATS = "SELECT data FROM player_stats WHERE sid = ?"

INSERT_LINK = "INSERT INTO links (digest, sid, created_ms) VALUES (?, ?, ?)"


def summary(row: tuple[Any, ...]) -> GameSummary:
    """A list line from a row of :data:`RECENT` or :data:`FINISHED` (damaged values read as
    defaults, like the store's ``load``)."""
    code, state, score, moves, updated_ms, record, extra = row
    return GameSummary(
        code,
        status_of(state),
        int_or_zero(score),
        int_or_zero(moves),
        int_or_zero(updated_ms),
        clock_elapsed(dict_from_json(record)),
        Marks.from_data(json_or_none(extra)),
    )
