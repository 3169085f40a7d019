"""A store in this process's memory: tests, and a run that need not survive a restart."""

from __future__ import annotations

import secrets
import threading
from typing import Any

from app.clock import now_ms
from app.status import Status
from app.store import counting, settling
from app.store.base import (
    Change,
    GameSummary,
    SessionData,
    Store,
    StoredGame,
    T,
)
from app.store.bounds import MOVED_HOPS, past_cap
from app.store.buckets import BucketLimiter
from app.store.ratelimit import Limits, RateLimiter
from app.store.replays import ReplaySummary, StoredReplay


class MemoryStore(Store):
    """Dicts behind one lock; the lock makes :meth:`change_game` atomic across threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sessions: dict[str, SessionData] = {}
        self._touched_ms: dict[str, int] = {}
        """When each session was last saved: :meth:`sweep` keeps it while it is recent."""
        self._games: dict[tuple[str, str], StoredGame] = {}
        self._moved: dict[str, tuple[str, int]] = {}
        """Revoked players: the old id → the new one and when it moved."""
        self._stats: dict[str, tuple[dict[str, Any], int]] = {}
        """Each player's statistics document, and when it was last written."""
        self._deals: dict[str, tuple[dict[str, int], int]] = {}
        self._links: dict[str, tuple[str, int]] = {}
        """Device links: the secret's hash → the player and when the link was made (swept as
        an expired game is, as the SQLite store does)."""
        self._replays: dict[str, tuple[str, StoredReplay]] = {}
        self._analyses: dict[str, dict[str, Any]] = {}
        """Analyses by replay id (each goes with its replay)."""
        """Replays by id, each with its player."""
        self._leases: dict[str, tuple[str, int]] = {}
        """Leases by name: the holder and when its time runs out."""
        self._secret = secrets.token_urlsafe(32).encode()
        """This store's secret: the store lives as long as the process, and so does it."""

    async def kept_secret(self) -> bytes:
        return self._secret

    async def revoke_link(self, old: str, new: str) -> str | None:
        with self._lock:
            went = self._moved.get(old)
            if went is not None:
                return self._moved_to(went[0])
            mine = [d for d, (s, _) in self._links.items() if s == old]
            if not mine:
                return None
            for digest in mine:
                del self._links[digest]
            if old in self._sessions:
                self._sessions[new] = self._sessions.pop(old)
                self._touched_ms[new] = self._touched_ms.pop(old)
            for sid, code in [key for key in self._games if key[0] == old]:
                self._games[(new, code)] = self._games.pop((sid, code))
            if old in self._stats:
                self._stats[new] = self._stats.pop(old)
            for ident, (sid, replay) in list(self._replays.items()):
                if sid == old:  # the replays go with their player (their ids stay)
                    self._replays[ident] = (new, replay)
            self._moved[old] = (new, now_ms())
            return new

    def _moved_to(self, sid: str) -> str:
        """Where ``sid``'s data is now, following later moves (under the lock)."""
        for _ in range(MOVED_HOPS):
            went = self._moved.get(sid)
            if went is None:
                break
            sid = went[0]
        return sid

    def rate_limiter(self, configured: Limits) -> RateLimiter:
        """Token buckets in this process: the store is this process's too."""
        return BucketLimiter(configured)

    async def load(
        self, sid: str, code: str | None = None
    ) -> tuple[SessionData | None, StoredGame | None]:
        with self._lock:
            game = None if code is None else self._games.get((sid, code))
            return self._sessions.get(sid), game

    async def save_session(self, sid: str, session: SessionData) -> None:
        now = now_ms()
        with self._lock:
            self._sessions[sid] = session
            self._touched_ms[sid] = now

    async def change_game(self, sid: str, code: str, change: Change[T]) -> T:
        with self._lock:
            old = self._games.get((sid, code))
            new, result = change(self._sessions.get(sid), old)
            if new is not None:
                held_stats, held_deal = self._stats.get(sid), self._deals.get(code)
                written = settling.settle(
                    old, new, lambda: (held_stats and held_stats[0], held_deal and held_deal[0])
                )
                now = written.game.updated_ms
                if written.stats is not None:
                    self._stats[sid] = (written.stats, now)
                if written.deal is not None:
                    self._deals[code] = (written.deal, now)
                if written.created:
                    own = [(g.updated_ms, c) for (s, c), g in self._games.items() if s == sid]
                    for gone in past_cap(own, self.bounds.games):
                        del self._games[(sid, gone)]
                if written.replay is not None:
                    self._keep_replay(sid, written.replay)
                self._games[(sid, code)] = written.game
            return result

    def _keep_replay(self, sid: str, replay: StoredReplay) -> None:
        """Under the lock: write a replay, making room under the session's cap for a new one."""
        held = self._replays.get(replay.id)
        if held is not None and held[0] != sid:
            return  # another player's id (never drawn twice): left alone
        if held is None:
            own = [(r.ended_ms, i) for i, (s, r) in self._replays.items() if s == sid]
            for gone in past_cap(own, self.bounds.replays):
                del self._replays[gone]
                self._analyses.pop(gone, None)
        self._replays[replay.id] = (sid, replay)

    async def replay(self, replay_id: str) -> StoredReplay | None:
        with self._lock:
            held = self._replays.get(replay_id)
        return None if held is None else held[1]

    async def replay_owner(self, replay_id: str) -> str | None:
        with self._lock:
            held = self._replays.get(replay_id)
        return None if held is None else held[0]

    async def moved_to(self, sid: str) -> str | None:
        with self._lock:
            went = self._moved_to(sid)
        return None if went == sid else went

    async def player_replays(self, sid: str) -> list[ReplaySummary]:
        with self._lock:
            mine = [r for s, r in self._replays.values() if s == sid]
        mine.sort(key=lambda r: (-r.ended_ms, r.id))
        return [r.summary for r in mine]

    async def delete_replay(self, sid: str, replay_id: str) -> bool:
        with self._lock:
            held = self._replays.get(replay_id)
            if held is None or held[0] != sid:
                return False
            del self._replays[replay_id]
            self._analyses.pop(replay_id, None)
            return True

    async def analysis(self, replay_id: str) -> dict[str, Any] | None:
        with self._lock:
            held = self._analyses.get(replay_id) if replay_id in self._replays else None
        return None if held is None else dict(held)

    async def save_analysis(self, replay_id: str, data: dict[str, Any]) -> None:
        with self._lock:
            if replay_id in self._replays:
                self._analyses[replay_id] = dict(data)

    async def take_lease(self, name: str, holder: str, ttl_ms: int) -> bool:
        now = now_ms()
        with self._lock:
            held = self._leases.get(name)
            if held is not None and held[0] != holder and held[1] > now:
                return False
            self._leases[name] = (holder, now + ttl_ms)
            return True

    async def drop_lease(self, name: str, holder: str) -> bool:
        with self._lock:
            held = self._leases.get(name)
            if held is None or held[0] != holder or held[1] <= now_ms():
                return False
            del self._leases[name]
            return True

    async def player_stats(self, sid: str) -> dict[str, Any] | None:
        with self._lock:
            held = self._stats.get(sid)
        return None if held is None else held[0]

    async def deal_stats(self, code: str) -> dict[str, Any] | None:
        with self._lock:
            held = self._deals.get(code)
        return None if held is None else dict(held[0])

    async def reset_stats(self, sid: str) -> None:
        with self._lock:
            held = self._stats.pop(sid, None)
            kept = counting.after_reset(held and held[0])
            if kept is not None:
                self._stats[sid] = (kept, now_ms())

    async def save_link(self, sid: str, digest: str) -> None:
        with self._lock:
            for old in [d for d, (s, _) in self._links.items() if s == sid]:
                del self._links[old]
            self._links[digest] = (sid, now_ms())

    async def link_owner(self, digest: str) -> str | None:
        with self._lock:
            owner = self._links.get(digest)
            return None if owner is None else owner[0]

    async def has_link(self, sid: str) -> bool:
        with self._lock:
            return any(s == sid for s, _ in self._links.values())

    async def recent_games(self, sid: str, limit: int = 10) -> list[GameSummary]:
        with self._lock:
            games = [
                g for (s, _), g in self._games.items() if s == sid and g.state == Status.PLAYING
            ]
        games.sort(key=lambda g: (-g.updated_ms, g.code))
        return [GameSummary.of(g) for g in games[:limit]]

    async def finished_games(self, sid: str, limit: int = 5) -> list[GameSummary]:
        with self._lock:
            games = [g for (s, _), g in self._games.items() if s == sid]
        games.sort(key=lambda g: (-g.updated_ms, g.code))
        window = games[: self.bounds.finished_window]
        return [GameSummary.of(g) for g in window if g.state != Status.PLAYING][:limit]

    async def sweep(
        self, cutoff_ms: int, batch: int = 500, *, idle_cutoff_ms: int | None = None
    ) -> int:
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
        with self._lock:  # statistics and deal figures untouched as long as games expire
            for sid in [s for s, (_, t) in self._stats.items() if t < cutoff_ms]:
                del self._stats[sid]
            for code in [c for c, (_, t) in self._deals.items() if t < cutoff_ms]:
                del self._deals[code]
            for digest in [d for d, (_, t) in self._links.items() if t < cutoff_ms]:
                del self._links[digest]  # a device link lives as long as an untouched game
            for ident in [i for i, (_, r) in self._replays.items() if r.ended_ms < cutoff_ms]:
                del self._replays[ident]  # a replay as long as a game untouched since its end
                self._analyses.pop(ident, None)
            for sid in [s for s, (_, t) in self._moved.items() if t < cutoff_ms]:
                del self._moved[sid]
            now = now_ms()
            for name in [n for n, (_, until) in self._leases.items() if until <= now]:
                del self._leases[name]  # run out: its holder never released it
        return deleted
