"""Replays of finished games (issue 26): what a store keeps of each, decided as plain data.

A game row names its replay in its marks (:attr:`app.store.marks.Marks.replay`: the id the web
layer drew, 128 random bits). When a change writes a row that has *just ended* (won, stuck, lost,
from a row that had not) and names a replay, the store writes the replay in the same
transaction as the game (:func:`replay_of`, called by :func:`app.store.settling.settle`): the
deal code, the line as the record holds it (the record's ``moves``), the result, time, moves
and score, and when it ended. A replay is changed only by being written again whole with the
same id: the same game ending again after an Undo (as it ended this time). So replays grow no
faster than the moves that make them. The id is drawn (:func:`new_replay_id`) by the web
layer's :func:`app.store.base.carry` the first time this game of the deal ends, kept while
the game goes on from the same deal, and dropped when it restarts (*Play this deal again*,
Restart): the next game gets its own when it ends.

A replay is found by its id alone — whoever has the link sees it — and deleted only by its
player; a session keeps at most the store's ``bounds.replays`` (:mod:`app.store.bounds`: a new
one past that deletes the session's replay that ended longest ago), and a replay is deleted
by the sweep once it ended longer ago than the games' expiry (Redis: filtered out when read).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, Final

from app.status import ENDED
from app.store.marks import REPLAY_ID
from app.store.values import StoredGame, clock_elapsed

ID_PATTERN: Final = REPLAY_ID
"""A replay id: 16 random bytes, URL-safe base64 without padding (128 bits)."""


def new_replay_id() -> str:
    """128 random bits from the operating system, URL-safe (22 characters)."""
    return secrets.token_urlsafe(16)


@dataclass(frozen=True, slots=True)
class ReplaySummary:
    """A replay as a list shows it (``/stats``): everything but the line."""

    id: str
    code: str
    state: str
    ms: int
    """The game's clock when it ended."""
    moves: int
    score: int
    ended_ms: int

    def to_data(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "code": self.code,
            "state": self.state,
            "ms": self.ms,
            "moves": self.moves,
            "score": self.score,
            "ended_ms": self.ended_ms,
        }


@dataclass(frozen=True, slots=True)
class StoredReplay(ReplaySummary):
    """A replay as stored: its summary and the line (a record's ``moves`` text)."""

    line: str = ""

    @property
    def summary(self) -> ReplaySummary:
        return ReplaySummary(
            self.id, self.code, self.state, self.ms, self.moves, self.score, self.ended_ms
        )

    def to_data(self) -> dict[str, Any]:
        return {**ReplaySummary.to_data(self), "line": self.line}

    @classmethod
    def from_data(cls, data: Any) -> StoredReplay | None:
        """The replay in ``data`` (:meth:`to_data`'s shape), ``None`` for anything else."""
        if not isinstance(data, dict):
            return None
        ident, code, state, line = (data.get(k) for k in ("id", "code", "state", "line"))
        ms, moves, score, ended = (
            _whole(data.get(k)) for k in ("ms", "moves", "score", "ended_ms")
        )
        texts = (ident, code, state, line)
        if not all(isinstance(v, str) for v in texts) or None in (ms, moves, score, ended):
            return None
        return cls(
            str(ident),
            str(code),
            str(state),
            ms or 0,
            moves or 0,
            score or 0,
            ended or 0,
            str(line),
        )


def _whole(value: Any) -> int | None:
    """A count as JSON holds it (``None`` for anything else)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def replay_id(game: StoredGame | None) -> str | None:
    """The replay id a game row names, ``None`` when it names none (or names no well-formed id:
    a store that keeps rows as values, the memory store, never read them from JSON)."""
    ident = None if game is None else game.marks.replay
    return ident if ident is not None and ID_PATTERN.fullmatch(ident) else None


def replay_of(old: StoredGame | None, new: StoredGame) -> StoredReplay | None:
    """The replay a game change writes: ``new`` has just ended (``old`` had not, or ended
    with another replay) and names a replay; ``None`` for every other change.

    >>> from app.store.marks import Marks
    >>> row = StoredGame("HM1-N-AAAAAAB", {"moves": "ae", "clock": [900, None]}, "stuck",
    ...                  10, 1, 5, Marks(replay="A" * 22))
    >>> replay_of(None, row).line, replay_of(row, row)
    ('ae', None)
    """
    ident = replay_id(new)
    line = new.record.get("moves")
    if ident is None or new.state not in ENDED or new.moves <= 0 or not isinstance(line, str):
        return None
    if old is not None and old.state in ENDED and replay_id(old) == ident:
        return None
    return StoredReplay(
        ident, new.code, new.state, clock_elapsed(new.record), new.moves, new.score,
        new.updated_ms, line,
    )  # fmt: skip
