"""A store in this process's memory: tests, and a run that need not survive a restart."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Final

from app.clock import now_ms
from app.store.base import Change, GameSummary, SessionData, Store, StoredGame, T

MAX_VERDICTS: Final = 65_536
"""Verdicts kept in memory; the oldest are forgotten first (they can always be proved again)."""


class MemoryStore(Store):
    """Dicts behind one lock; the lock makes :meth:`change_game` atomic across threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sessions: dict[str, SessionData] = {}
        self._touched_ms: dict[str, int] = {}
        """When each session was last saved: :meth:`sweep` keeps it while it is recent."""
        self._games: dict[tuple[str, str], StoredGame] = {}
        self._verdicts: OrderedDict[str, bool] = OrderedDict()

    def load(
        self, sid: str, code: str | None = None
    ) -> tuple[SessionData | None, StoredGame | None]:
        with self._lock:
            game = None if code is None else self._games.get((sid, code))
            return self._sessions.get(sid), game

    def save_session(self, sid: str, session: SessionData) -> None:
        now = now_ms()
        with self._lock:
            self._sessions[sid] = session
            self._touched_ms[sid] = now

    def change_game(self, sid: str, code: str, change: Change[T]) -> T:
        with self._lock:
            old = self._games.get((sid, code))
            new, result = change(self._sessions.get(sid), old)
            if new is not None:
                if old is None:
                    self._make_room(sid)
                self._games[(sid, code)] = new
            return result

    def _make_room(self, sid: str) -> None:
        """Delete the session's oldest games so one more fits under :attr:`max_games`."""
        own = sorted((g.updated_ms, c) for (s, c), g in self._games.items() if s == sid)
        for _, code in own[: max(0, len(own) - self.max_games + 1)]:
            del self._games[(sid, code)]

    def recent_games(self, sid: str, limit: int = 10) -> list[GameSummary]:
        with self._lock:
            games = [g for (s, _), g in self._games.items() if s == sid and g.state == "playing"]
        games.sort(key=lambda g: (-g.updated_ms, g.code))
        return [GameSummary(g.code, g.state, g.score, g.moves, g.updated_ms) for g in games[:limit]]

    def verdict(self, key: str) -> bool | None:
        with self._lock:
            return self._verdicts.get(key)

    def remember_verdict(self, key: str, lost: bool) -> None:
        with self._lock:
            self._verdicts[key] = lost
            self._verdicts.move_to_end(key)
            while len(self._verdicts) > MAX_VERDICTS:
                self._verdicts.popitem(last=False)

    def sweep(self, cutoff_ms: int, batch: int = 500, *, idle_cutoff_ms: int | None = None) -> int:
        """Old games, then old sessions without games, ``batch`` at a time under the lock
        (released between batches so changes are not held up)."""
        if batch < 1:
            raise ValueError(f"batch must be at least 1, not {batch}")
        deleted = 0
        while True:
            with self._lock:
                old = [key for key, g in self._games.items() if g.updated_ms < cutoff_ms]
                for key in old[:batch]:
                    del self._games[key]
            deleted += min(len(old), batch)
            if len(old) <= batch:
                break
        while True:
            with self._lock:
                alive = {s for s, _ in self._games}
                idle = cutoff_ms if idle_cutoff_ms is None else idle_cutoff_ms
                old_sids = [s for s, t in self._touched_ms.items() if t < idle and s not in alive]
                for s in old_sids[:batch]:
                    del self._sessions[s], self._touched_ms[s]
            deleted += min(len(old_sids), batch)
            if len(old_sids) <= batch:
                break
        return deleted
