"""A store in this process's memory: tests, and a run that need not survive a restart."""

from __future__ import annotations

import threading

from app.store.base import Change, GameSummary, SessionData, Store, StoredGame, T


class MemoryStore(Store):
    """Dicts behind one lock; the lock makes :meth:`change_game` atomic across threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sessions: dict[str, SessionData] = {}
        self._games: dict[tuple[str, str], StoredGame] = {}

    def load(
        self, sid: str, code: str | None = None
    ) -> tuple[SessionData | None, StoredGame | None]:
        with self._lock:
            game = None if code is None else self._games.get((sid, code))
            return self._sessions.get(sid), game

    def save_session(self, sid: str, session: SessionData) -> None:
        with self._lock:
            self._sessions[sid] = session

    def change_game(self, sid: str, code: str, change: Change[T]) -> T:
        with self._lock:
            new, result = change(self._sessions.get(sid), self._games.get((sid, code)))
            if new is not None:
                self._games[(sid, code)] = new
            return result

    def recent_games(self, sid: str, limit: int = 10) -> list[GameSummary]:
        with self._lock:
            games = [g for (s, _), g in self._games.items() if s == sid and g.state == "playing"]
        games.sort(key=lambda g: g.updated_ms, reverse=True)
        return [GameSummary(g.code, g.state, g.score, g.moves, g.updated_ms) for g in games[:limit]]
