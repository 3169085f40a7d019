"""The synchronous face of a store written once, with asyncio: each method runs its
``…_async`` twin's coroutine on the store's own loop (tests, tools and scripts call these;
the web layer awaits the ``…_async`` methods on its own loop)."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from app.store.base import Change, GameSummary, SessionData, Store, StoredGame
from app.store.replays import ReplaySummary, StoredReplay

R = TypeVar("R")
T = TypeVar("T")


class SyncFace(Store):
    """A :class:`Store` whose every operation is its ``…_async`` method."""

    @abstractmethod
    def _sync(self, make: Callable[..., Awaitable[R]], *args: Any) -> R:
        """Run ``make(*args)`` to its end and give its result."""

    def load(
        self, sid: str, code: str | None = None
    ) -> tuple[SessionData | None, StoredGame | None]:
        return self._sync(self.load_async, sid, code)

    def save_session(self, sid: str, session: SessionData) -> None:
        self._sync(self.save_session_async, sid, session)

    def change_game(self, sid: str, code: str, change: Change[T]) -> T:
        result: T = self._sync(self.change_game_async, sid, code, change)
        return result

    def recent_games(self, sid: str, limit: int = 10) -> list[GameSummary]:
        return self._sync(self.recent_games_async, sid, limit)

    def finished_games(self, sid: str, limit: int = 5) -> list[GameSummary]:
        return self._sync(self.finished_games_async, sid, limit)

    def player_stats(self, sid: str) -> dict[str, Any] | None:
        return self._sync(self.player_stats_async, sid)

    def deal_stats(self, code: str) -> dict[str, Any] | None:
        return self._sync(self.deal_stats_async, code)

    def reset_stats(self, sid: str) -> None:
        self._sync(self.reset_stats_async, sid)

    def save_link(self, sid: str, digest: str) -> None:
        self._sync(self.save_link_async, sid, digest)

    def link_owner(self, digest: str) -> str | None:
        return self._sync(self.link_owner_async, digest)

    def drop_link(self, sid: str) -> bool:
        return self._sync(self.drop_link_async, sid)

    def has_link(self, sid: str) -> bool:
        return self._sync(self.has_link_async, sid)

    def verdict(self, key: str) -> bool | None:
        return self._sync(self.verdict_async, key)

    def remember_verdict(self, key: str, lost: bool) -> None:
        self._sync(self.remember_verdict_async, key, lost)

    def replay(self, replay_id: str) -> StoredReplay | None:
        return self._sync(self.replay_async, replay_id)

    def player_replays(self, sid: str) -> list[ReplaySummary]:
        return self._sync(self.player_replays_async, sid)

    def delete_replay(self, sid: str, replay_id: str) -> bool:
        return self._sync(self.delete_replay_async, sid, replay_id)

    def analysis(self, replay_id: str) -> dict[str, Any] | None:
        return self._sync(self.analysis_async, replay_id)

    def save_analysis(self, replay_id: str, data: dict[str, Any]) -> None:
        self._sync(self.save_analysis_async, replay_id, data)
