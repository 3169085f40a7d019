"""A store in Redis: shared by every worker on every machine, expiring what is abandoned.

Keys, under a configurable prefix (default ``sol:``):

``sol:s:{sid}``
    The session: JSON of :meth:`SessionData.to_data` plus ``created_ms`` and ``touched_ms``.
``sol:g:{sid}:{code}``
    A game: JSON with ``record``, ``state``, ``score``, ``moves``, ``extra`` and ``updated_ms``.
``sol:r:{sid}``
    A sorted set of the codes of the session's games in state ``playing``, scored by their
    ``updated_ms``: :meth:`RedisStore.recent_games` reads it instead of scanning keys.
``sol:a:{sid}``
    A sorted set of the codes of all the session's games, scored by ``updated_ms``: a change
    that creates a game past :attr:`Store.max_games` deletes the lowest-scored ones (the
    oldest untouched) in the same transaction.
``sol:p:{sid}``
    The player's statistics document (:mod:`app.store.counting`), written in the same
    ``MULTI`` as the game change that counted it (and watched with it).
``sol:d:{code}``
    How a deal went for everyone who finished it (JSON: players, wins, best_ms, fewest and
    the wins' cells, :mod:`app.store.histogram`).
``sol:Y:{id}`` / ``sol:y:{sid}``
    A replay (:mod:`app.store.replays`: JSON of the game as it ended, with its line), and a
    hash of the player's replays (id → the replay's summary) for their list, their cap and
    their deletion; both written in the ``MULTI`` of the game change that ended the game.
``sol:l:{hash}`` / ``sol:o:{sid}``
    A device link: the hash of its secret → the player, and the player → the hash.
``sol:v:{position key}``
    A verdict on a position (``1``: lost, ``0``: not proved lost), shared by everyone, with
    the same time to live as games.

**Never on the loop's time.** The web layer calls the ``…_async`` methods, which use
``redis.asyncio`` with short connect and command timeouts (``timeout``, default
:data:`SOCKET_TIMEOUT_SECONDS`) and no retries: a stalled or stopped server costs a request at
most one timeout and never holds up the event loop. The synchronous methods (tests, tools,
the sweep in its thread) use the blocking client with the same timeouts.

A ``%`` or ``:`` in a session id is written ``%25`` / ``%3A`` so a game key names one game
(the web layer's ids hold neither).

**Atomic changes.** :meth:`RedisStore.change_game` is optimistic: ``WATCH`` the game and session
keys, read both, call ``change``, then ``MULTI`` … ``EXEC`` the writes. When another client
changed a watched key in between, Redis refuses the ``EXEC`` and the whole read-decide-write
runs again (at most :data:`MAX_ATTEMPTS` times, with a short random pause) — so ``change`` can
run more than once and must be a pure function of the session and game it is given. When
the connection breaks during the change its outcome is unknown: that is a
:class:`StoreError`, never a silent second attempt (a tap must not be applied twice).

**Expiry.** Every write sets a time to live of ``ttl_seconds`` (default 90 days, the cookie's
lifetime) on each key it writes; a change of a game also renews its session's key and the
game sets, so a session lives as long as its newest game. A session saved without a game
lives :data:`SESSION_IDLE_SECONDS` (a day) unless a game already keeps it longer. Redis
deletes the rest itself, which is why :meth:`RedisStore.sweep` has nothing to do. An entry of
the recent set whose game has expired is removed when :meth:`RedisStore.recent_games` meets
it.

**Damaged data** never raises from reads or changes: a session key that is not a session's
JSON (or not a string at all) loads as no session, and a game key that is not a game's JSON
loads with ``record == {}`` (the engine refuses it and the web layer offers a fresh start),
just as in the SQLite store; a recent set of the wrong type is listed as empty and rebuilt by
the next change.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
import time
from collections.abc import Iterator
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

import redis
import redis.asyncio
from redis.asyncio.retry import Retry as AsyncRetry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError, ResponseError, WatchError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.clock import now_ms
from app.store import counting
from app.store.base import (
    FINISHED_WINDOW,
    GAME_STATES,
    SESSION_IDLE_SECONDS,
    Change,
    GameSummary,
    SessionData,
    Store,
    StoredGame,
    StoreError,
    T,
)
from app.store.jsondata import dumps, int_or_zero, json_dict, json_or_none
from app.store.ratelimit import Limits, RateLimiter, redis_limiter
from app.store.replays import (
    MAX_REPLAYS_PER_SESSION,
    ReplaySummary,
    StoredReplay,
    past_cap,
    replay_of,
)

DEFAULT_TTL_SECONDS: Final = 90 * 24 * 3600
"""How long an untouched session or game is kept: the session cookie's 90 days."""

MAX_ATTEMPTS: Final = 50
"""How many times a change is tried while other writers keep changing the same keys."""

SOCKET_TIMEOUT_SECONDS: Final = 1.0
"""How long one command (or connecting) may take before the store reports Redis unreachable:
Redis answers in well under a millisecond, so a second means it is stalled or gone."""

ASYNC_CONNECTIONS: Final = 64
"""Connections the asyncio client of one process may open; more requests at once wait (at
most the timeout) for one to be free."""

_REMOVE_GONE = """
local removed = 0
for i = 2, #KEYS do
    if redis.call('TYPE', KEYS[i]).ok ~= 'string' then
        removed = removed + redis.call('ZREM', KEYS[1], ARGV[i - 1])
    end
end
return removed
"""
"""KEYS: the recent set, then game keys; ARGV: their codes. Removes the codes whose game is
gone (expired, or damaged into another type), checked and removed atomically so a game
written meanwhile keeps its entry."""

_RECENT_PASSES: Final = 3
"""How often :meth:`RedisStore.recent_games` reads again after removing codes whose game is
gone (each pass removes them, so a full list needs a second pass only after many expired)."""


def _key_part(sid: str) -> str:
    """``sid`` with ``%`` and ``:`` escaped, so ``{sid}:{code}`` splits one way only.

    >>> _key_part("abc-_9"), _key_part("a:b%c")
    ('abc-_9', 'a%3Ab%25c')
    """
    return sid.replace("%", "%25").replace(":", "%3A")


def _without_password(url: str) -> str:
    """``url`` fit for an error message: any password replaced by ``***``.

    >>> _without_password("redis://user:secret@host:6379/0")
    'redis://user:***@host:6379/0'
    >>> _without_password("redis://host/1")
    'redis://host/1'
    """
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        user = parts.username or ""
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port is not None else ""
        return urlunsplit(parts._replace(netloc=f"{user}:***@{host}{port}"))
    except ValueError:
        return "<unparsable URL>"


def _text(value: object) -> str | None:
    """A reply as text (the client decodes already; this keeps the types honest)."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value if isinstance(value, str) else None


def _texts(values: list[bytes | str | None]) -> list[str | None]:
    return [_text(value) for value in values]


def _scored(entries: object) -> list[tuple[str, float]]:
    """A ``WITHSCORES`` reply as (member, score) pairs (RESP2 tuples or RESP3 lists)."""
    pairs: list[tuple[str, float]] = []
    if isinstance(entries, list):
        for entry in entries:
            if isinstance(entry, tuple | list) and len(entry) == 2:
                member, score = _text(entry[0]), entry[1]
                if member is not None and isinstance(score, int | float):
                    pairs.append((member, float(score)))
    return pairs


def _session_from(text: str | None) -> SessionData | None:
    return None if text is None else SessionData.from_data(json_or_none(text))


def _game_from(code: str, text: str | None) -> StoredGame | None:
    """The game a key holds; damaged fields load as defaults, a damaged whole as ``{}``."""
    if text is None:
        return None
    data = json_dict(json_or_none(text))
    state = data.get("state")
    return StoredGame(
        code=code,
        record=json_dict(data.get("record")),
        state=state if isinstance(state, str) and state in GAME_STATES else "playing",
        score=int_or_zero(data.get("score")),
        moves=int_or_zero(data.get("moves")),
        updated_ms=int_or_zero(data.get("updated_ms")),
        extra=json_dict(data.get("extra")),
    )


def _finished(codes: list[str], values: list[str | None], limit: int) -> list[GameSummary]:
    """The ended games among ``codes`` (newest first) whose keys still hold a game."""
    games = (_game_from(code, text) for code, text in zip(codes, values, strict=True))
    ended = [GameSummary.of(g) for g in games if g is not None and g.state != "playing"]
    ended.sort(key=lambda g: (-g.updated_ms, g.code))
    return ended[:limit]


def _replay_ids(raw: Any) -> list[tuple[int, str]]:
    """The (ended_ms, id) of a player's replays hash as read (damaged entries end at 0)."""
    held = []
    for ident, text in (raw or {}).items():
        ended = json_dict(json_or_none(text)).get("ended_ms")
        held.append((ended if isinstance(ended, int) else 0, str(ident)))
    return held


def _replays_past_cap(held: list[tuple[int, str]], replay: StoredReplay) -> list[str]:
    """The player's replays to delete so that ``replay`` fits under the cap."""
    if any(ident == replay.id for _, ident in held):
        return []
    return past_cap(held, MAX_REPLAYS_PER_SESSION)


def _game_json(game: StoredGame) -> str:
    return dumps(
        {
            "record": game.record,
            "state": game.state,
            "score": game.score,
            "moves": game.moves,
            "extra": game.extra,
            "updated_ms": game.updated_ms,
        }
    )


class RedisStore(Store):
    """Sessions and games in the Redis database ``url`` names (``redis://host:port/db``,
    ``rediss://`` for TLS; a password goes in the URL). Thread-safe: every command takes a
    connection from the client's pool.

    :raises StoreError: when the URL is not a Redis URL or the server does not answer.
    """

    def __init__(
        self,
        url: str,
        *,
        prefix: str = "sol:",
        ttl_seconds: int = DEFAULT_TTL_SECONDS,
        socket_timeout: float = SOCKET_TIMEOUT_SECONDS,
    ) -> None:
        if ttl_seconds < 1:
            raise ValueError(f"ttl_seconds must be at least 1, not {ttl_seconds}")
        self._where = _without_password(url)
        self.url: Final = url
        """The server's URL (the rate limiter opens its own connections to it)."""
        self.prefix: Final = prefix
        self._prefix = prefix
        self.ttl_seconds: Final = ttl_seconds
        self._closed = False
        self._conflicts = 0
        self._conflicts_lock = threading.Lock()
        self._url = url
        self._timeout = socket_timeout
        self.timeout: Final = socket_timeout
        """Seconds one command may take (the rate limiter's connections use it too)."""
        self._async: tuple[asyncio.AbstractEventLoop, redis.asyncio.Redis] | None = None
        self._game_locks: dict[str, tuple[asyncio.Lock, int]] = {}
        """Changes of one game from this process queue here (``WATCH`` is left for the other
        processes): many concurrent taps on one game would otherwise keep refusing each
        other's ``EXEC``."""
        try:
            self._redis: redis.Redis = redis.Redis.from_url(
                url,
                decode_responses=True,
                encoding_errors="replace",  # bytes that are not UTF-8 are damage, not a crash
                socket_timeout=socket_timeout,
                socket_connect_timeout=socket_timeout,
                health_check_interval=30,
            )
        except ValueError as exc:
            raise StoreError(f"bad Redis store URL {self._where!r}: {exc}") from exc
        self._remove_gone = self._redis.register_script(_REMOVE_GONE)
        try:
            self._redis.ping()
        except RedisError as exc:
            self._redis.close()
            raise StoreError(f"cannot reach the Redis store {self._where!r}: {exc}") from exc

    def rate_limiter(self, configured: Limits) -> RateLimiter:
        """The ``limits`` library's sliding window in this Redis (keys ``{prefix}rl…``)."""
        return redis_limiter(configured, self.url, f"{self.prefix}rl", self.timeout)

    @property
    def conflicts(self) -> int:
        """How many changes had to run again because another writer came first (a gauge
        of contention; the tests read it)."""
        return self._conflicts

    def _session_key(self, sid: str) -> str:
        return f"{self._prefix}s:{_key_part(sid)}"

    def _game_key(self, sid: str, code: str) -> str:
        return f"{self._prefix}g:{_key_part(sid)}:{code}"

    def _recent_key(self, sid: str) -> str:
        return f"{self._prefix}r:{_key_part(sid)}"

    def _all_key(self, sid: str) -> str:
        return f"{self._prefix}a:{_key_part(sid)}"

    @contextlib.contextmanager
    def _errors(self) -> Iterator[None]:
        """Redis's failures as :class:`StoreError`, except a :class:`WatchError` that only
        says another writer came first (the caller tries again)."""
        if self._closed:
            raise StoreError(f"Redis store {self._where!r} is closed")
        try:
            yield
        except WatchError as exc:
            lost = exc.__context__
            if isinstance(lost, RedisConnectionError | RedisTimeoutError):
                raise StoreError(
                    f"Redis store {self._where!r}: connection lost during a change, which may"
                    f" or may not have been applied: {lost}"
                ) from exc
            raise
        except RedisError as exc:
            raise StoreError(f"Redis store {self._where!r}: {exc}") from exc

    def _conflicted(self, attempt: int) -> None:
        """Count a refused ``EXEC`` and pause a little, longer after each (with jitter, so
        the writers that collided do not collide again)."""
        with self._conflicts_lock:
            self._conflicts += 1
        time.sleep(random.random() * min(0.02, 0.0002 * 2**attempt))

    def load(
        self, sid: str, code: str | None = None
    ) -> tuple[SessionData | None, StoredGame | None]:
        """One ``MGET`` of the session and game keys (a key of another type reads as
        missing)."""
        keys = [self._session_key(sid)]
        if code is not None:
            keys.append(self._game_key(sid, code))
        with self._errors():
            values = _texts(self._redis.mget(keys))
        session = _session_from(values[0])
        game = None if code is None else _game_from(code, values[1])
        return session, game

    def save_session(self, sid: str, session: SessionData) -> None:
        """Write the session, keeping when it was created. It expires a day later
        (:data:`SESSION_IDLE_SECONDS`) unless a game keeps it longer (a change of a game sets
        the session's time to live to the game's)."""
        key = self._session_key(sid)
        for attempt in range(MAX_ATTEMPTS):
            now = now_ms()
            with self._errors(), self._redis.pipeline(transaction=True) as pipe:
                pipe.watch(key)  # type: ignore[no-untyped-call]  # untyped in redis-py
                (old,) = _texts(pipe.mget([key]))
                left = pipe.ttl(key)
                created = int_or_zero(json_dict(json_or_none(old)).get("created_ms")) or now
                data = {**session.to_data(), "created_ms": created, "touched_ms": now}
                ttl = max(SESSION_IDLE_SECONDS, left if isinstance(left, int) else 0)
                pipe.multi()
                pipe.set(key, dumps(data), ex=min(ttl, self.ttl_seconds))
                try:
                    pipe.execute()
                    return
                except WatchError:
                    pass  # written by another client meanwhile (or the connection broke): again
            self._conflicted(attempt)
        raise StoreError(
            f"Redis store {self._where!r}: session kept changing, gave up after"
            f" {MAX_ATTEMPTS} attempts"
        )

    def change_game(self, sid: str, code: str, change: Change[T]) -> T:
        """``WATCH``, read, ``change``, ``MULTI``/``EXEC``; again from the read when another
        writer came first (see the module's note: ``change`` may run more than once).

        The game is stored under ``code`` with its ``updated_ms`` as the caller set it, and
        listed in (or, when not ``playing``, removed from) the recent set. When ``change``
        raises, nothing is written and the exception propagates as it is.

        :raises StoreError: when Redis fails, the connection breaks, or the game kept being
            changed by others for :data:`MAX_ATTEMPTS` attempts.
        """
        session_key = self._session_key(sid)
        game_key = self._game_key(sid, code)
        recent_key = self._recent_key(sid)
        all_key = self._all_key(sid)
        for attempt in range(MAX_ATTEMPTS):
            with self._errors():
                pipe = self._redis.pipeline(transaction=True)
            try:
                with self._errors():
                    pipe.watch(game_key, session_key, all_key)  # type: ignore[no-untyped-call]
                    raw_session, raw_game = _texts(pipe.mget([session_key, game_key]))
                old = _game_from(code, raw_game)
                new, result = change(_session_from(raw_session), old)
                if new is None:
                    return result
                new = counting.carry(old, new)
                with self._errors():
                    counted: tuple[StoredGame, Any, Any, Any] | None = None
                    if counting.wants(new):
                        keys = [self._stats_key(sid), self._deal_key(code)]
                        pipe.watch(*keys)  # type: ignore[no-untyped-call]
                        raw_doc, raw_deal = _texts(pipe.mget(keys))
                        counted = (*counting.count(json_or_none(raw_doc), old, new), raw_deal)
                        new = counted[0]
                    gone = self._oldest_past_cap(pipe, all_key) if raw_game is None else []
                    replay = replay_of(old, new)
                    if replay is not None:
                        pipe.watch(self._replays_key(sid))  # type: ignore[no-untyped-call]
                        held = _replay_ids(pipe.hgetall(self._replays_key(sid)))
                        replayed = (replay, _replays_past_cap(held, replay))
                    pipe.multi()
                    self._queue_game_write(
                        pipe, sid, code, new, counted, gone, (all_key, recent_key, session_key)
                    )
                    if replay is not None:
                        self._queue_replay_write(pipe, sid, *replayed)
                    replies: list[Any] = pipe.execute(raise_on_error=False)
                self._check_replies(replies, recent_key, code, new)
                return result
            except WatchError:
                pass
            finally:
                with contextlib.suppress(RedisError):
                    pipe.reset()  # UNWATCH when the change wrote nothing; returns the connection
            self._conflicted(attempt)
        raise StoreError(
            f"Redis store {self._where!r}: game {code!r} kept changing, gave up after"
            f" {MAX_ATTEMPTS} attempts"
        )

    def _stats_key(self, sid: str) -> str:
        return f"{self._prefix}p:{_key_part(sid)}"

    def _deal_key(self, code: str) -> str:
        return f"{self._prefix}d:{code}"

    def _link_key(self, digest: str) -> str:
        return f"{self._prefix}l:{digest}"

    def _replay_key(self, replay_id: str) -> str:
        return f"{self._prefix}Y:{replay_id}"

    def _replays_key(self, sid: str) -> str:
        return f"{self._prefix}y:{_key_part(sid)}"

    def _queue_replay_write(
        self, pipe: Any, sid: str, replay: StoredReplay, gone: list[str]
    ) -> None:
        """Queue (inside ``MULTI``) a replay and its place in the player's list, making room
        under the cap."""
        key, ttl = self._replays_key(sid), self.ttl_seconds
        if gone:
            pipe.hdel(key, *gone)
            pipe.delete(*(self._replay_key(ident) for ident in gone))
        pipe.set(self._replay_key(replay.id), dumps(replay.to_data()), ex=ttl)
        pipe.hset(key, replay.id, dumps(replay.summary.to_data()))
        pipe.expire(key, ttl)

    def _fresh(self, replay: StoredReplay | None) -> StoredReplay | None:
        """A replay that ended within the store's time to live (an older one is gone)."""
        if replay is None or replay.ended_ms < now_ms() - self.ttl_seconds * 1000:
            return None
        return replay

    def _summaries(self, raw: Any) -> list[ReplaySummary]:
        found = []
        for text in (raw or {}).values():
            replay = self._fresh(
                StoredReplay.from_data({**json_dict(json_or_none(text)), "line": ""})
            )
            if replay is not None:
                found.append(replay.summary)
        found.sort(key=lambda r: (-r.ended_ms, r.id))
        return found

    def replay(self, replay_id: str) -> StoredReplay | None:
        with self._errors():
            text = _text(self._redis.get(self._replay_key(replay_id)))
        return self._fresh(StoredReplay.from_data(json_or_none(text)))

    async def replay_async(self, replay_id: str) -> StoredReplay | None:
        with self._errors():
            text = _text(await self._client().get(self._replay_key(replay_id)))
        return self._fresh(StoredReplay.from_data(json_or_none(text)))

    def player_replays(self, sid: str) -> list[ReplaySummary]:
        with self._errors():
            try:
                raw = self._redis.hgetall(self._replays_key(sid))
            except ResponseError:  # a damaged key (another type): no replays listed
                return []
        return self._summaries(raw)

    async def player_replays_async(self, sid: str) -> list[ReplaySummary]:
        with self._errors():
            try:
                raw = await self._client().hgetall(self._replays_key(sid))
            except ResponseError:
                return []
        return self._summaries(raw)

    def delete_replay(self, sid: str, replay_id: str) -> bool:
        with self._errors():
            try:
                held = self._redis.hdel(self._replays_key(sid), replay_id)
            except ResponseError:
                return False
            if held:
                self._redis.delete(self._replay_key(replay_id))
        return bool(held)

    async def delete_replay_async(self, sid: str, replay_id: str) -> bool:
        client = self._client()
        with self._errors():
            try:
                held = await client.hdel(self._replays_key(sid), replay_id)
            except ResponseError:
                return False
            if held:
                await client.delete(self._replay_key(replay_id))
        return bool(held)

    def _own_link_key(self, sid: str) -> str:
        return f"{self._prefix}o:{_key_part(sid)}"

    def _queue_game_write(
        self,
        pipe: Any,
        sid: str,
        code: str,
        new: StoredGame,
        counted: Any,
        gone: list[str],
        keys: tuple[str, str, str],
    ) -> None:
        """Queue one game's write inside ``MULTI``: the same commands for the sync and the
        asyncio pipeline (queueing is synchronous in both)."""
        all_key, recent_key, session_key = keys
        ttl = self.ttl_seconds
        if counted is not None:
            self._write_counted(pipe, sid, code, counted)
        if gone:
            pipe.delete(*(self._game_key(sid, c) for c in gone))
            pipe.zrem(recent_key, *gone)
            pipe.zrem(all_key, *gone)
        pipe.zadd(all_key, {code: new.updated_ms})
        pipe.expire(all_key, ttl)
        pipe.set(self._game_key(sid, code), _game_json(new), ex=ttl)
        if new.state == "playing":
            pipe.zadd(recent_key, {code: new.updated_ms})
        else:
            pipe.zrem(recent_key, code)
        pipe.expire(recent_key, ttl)
        pipe.expire(session_key, ttl)

    def _write_counted(
        self, pipe: Any, sid: str, code: str, counted: tuple[StoredGame, Any, Any, Any]
    ) -> None:
        """Queue (inside ``MULTI``) the statistics a game change counted."""
        _, doc, deal, raw_deal = counted
        if doc is not None:
            pipe.set(self._stats_key(sid), dumps(doc), ex=self.ttl_seconds)
        if deal is not None:
            folded = counting.fold_deal(json_or_none(raw_deal), deal)
            pipe.set(self._deal_key(code), dumps(folded), ex=self.ttl_seconds)

    def player_stats(self, sid: str) -> dict[str, Any] | None:
        with self._errors():
            text = _text(self._redis.get(self._stats_key(sid)))
        return None if text is None else json_dict(json_or_none(text))

    def deal_stats(self, code: str) -> dict[str, Any] | None:
        with self._errors():
            text = _text(self._redis.get(self._deal_key(code)))
        return None if text is None else json_dict(json_or_none(text))

    def reset_stats(self, sid: str) -> None:
        with self._errors():
            self._redis.delete(self._stats_key(sid))

    async def player_stats_async(self, sid: str) -> dict[str, Any] | None:
        with self._errors():
            text = _text(await self._client().get(self._stats_key(sid)))
        return None if text is None else json_dict(json_or_none(text))

    async def deal_stats_async(self, code: str) -> dict[str, Any] | None:
        with self._errors():
            text = _text(await self._client().get(self._deal_key(code)))
        return None if text is None else json_dict(json_or_none(text))

    async def reset_stats_async(self, sid: str) -> None:
        with self._errors():
            await self._client().delete(self._stats_key(sid))

    def save_link(self, sid: str, digest: str) -> None:
        """The link's hash names the player, and the player's key names the hash (to revoke
        it); an older link of the player is deleted in the same transaction."""
        own = self._own_link_key(sid)
        with self._errors():
            old = _text(self._redis.get(own))
            with self._redis.pipeline(transaction=True) as pipe:
                if old:
                    pipe.delete(self._link_key(old))
                pipe.set(self._link_key(digest), sid, ex=self.ttl_seconds)
                pipe.set(own, digest, ex=self.ttl_seconds)
                pipe.execute()

    def link_owner(self, digest: str) -> str | None:
        with self._errors():
            return _text(self._redis.get(self._link_key(digest)))

    def has_link(self, sid: str) -> bool:
        with self._errors():
            return bool(self._redis.exists(self._own_link_key(sid)))

    async def has_link_async(self, sid: str) -> bool:
        with self._errors():
            return bool(await self._client().exists(self._own_link_key(sid)))

    def drop_link(self, sid: str) -> bool:
        own = self._own_link_key(sid)
        with self._errors():
            old = _text(self._redis.get(own))
            if not old:
                return False
            self._redis.delete(self._link_key(old), own)
        return True

    async def save_link_async(self, sid: str, digest: str) -> None:
        await asyncio.to_thread(self.save_link, sid, digest)

    async def link_owner_async(self, digest: str) -> str | None:
        with self._errors():
            return _text(await self._client().get(self._link_key(digest)))

    async def drop_link_async(self, sid: str) -> bool:
        return await asyncio.to_thread(self.drop_link, sid)

    def _oldest_past_cap(self, pipe: Any, all_key: str) -> list[str]:
        """The codes to delete so one more game fits under :attr:`max_games` (read while
        watching: a game added meanwhile makes the transaction run again)."""
        try:
            count = int(pipe.zcard(all_key))
            if count < self.max_games:
                return []
            return [c for c in _texts(pipe.zrange(all_key, 0, count - self.max_games)) if c]
        except ResponseError:  # a damaged set (another type): rebuilt by this change
            pipe.delete(all_key)
            return []

    def _check_replies(
        self, replies: list[Any], recent_key: str, code: str, new: StoredGame
    ) -> None:
        """Raise for a failed write, except the recent set being of the wrong type (only a
        damaged database has that): then it is rebuilt holding this game alone."""
        errors = [reply for reply in replies if isinstance(reply, Exception)]
        if not errors:
            return
        if all(isinstance(e, ResponseError) and str(e).startswith("WRONGTYPE") for e in errors):
            with self._errors(), self._redis.pipeline(transaction=True) as pipe:
                pipe.delete(recent_key)
                if new.state == "playing":
                    pipe.zadd(recent_key, {code: new.updated_ms})
                    pipe.expire(recent_key, self.ttl_seconds)
                pipe.execute()
            return
        raise StoreError(f"Redis store {self._where!r}: {errors[0]}")

    def recent_games(self, sid: str, limit: int = 10) -> list[GameSummary]:
        """The recent set's newest codes (ties by code, as in SQLite), then one ``MGET`` of
        their games. Codes whose game is gone are removed from the set, and the list is read
        again when they left it short."""
        if limit <= 0:
            return []
        recent_key = self._recent_key(sid)
        for attempt in range(_RECENT_PASSES):
            with self._errors():
                entries = self._newest(recent_key, limit)
                if not entries:
                    return []
                codes = [code for code, _ in entries]
                game_keys = [self._game_key(sid, code) for code in codes]
                values = _texts(self._redis.mget(game_keys))
                gone = [i for i, text in enumerate(values) if text is None]
                if gone:
                    self._remove_gone(
                        keys=[recent_key, *(game_keys[i] for i in gone)],
                        args=[codes[i] for i in gone],
                    )
            if gone and len(entries) == limit and attempt + 1 < _RECENT_PASSES:
                continue
            games = [_game_from(code, text) for code, text in zip(codes, values, strict=True)]
            return [GameSummary.of(g) for g in games if g is not None and g.state == "playing"]
        return []  # pragma: no cover  (the last pass returns)

    def finished_games(self, sid: str, limit: int = 5) -> list[GameSummary]:
        """The all-games set's :data:`FINISHED_WINDOW` newest codes, one ``MGET`` of their
        games, and the ended ones among them (games gone meanwhile are skipped; the sets are
        tidied by :meth:`recent_games` and by the next change)."""
        if limit <= 0:
            return []
        with self._errors():
            entries = self._newest(self._all_key(sid), FINISHED_WINDOW)
            if not entries:
                return []
            codes = [code for code, _ in entries]
            values = _texts(self._redis.mget([self._game_key(sid, c) for c in codes]))
        return _finished(codes, values, limit)

    def _newest(self, recent_key: str, limit: int) -> list[tuple[str, float]]:
        """The ``limit`` newest (code, updated_ms) of a recent set, ties ordered by code.

        Redis orders equal scores by member, descending in ``ZREVRANGE``: the codes tied
        with the last one are fetched too so the cut falls where SQLite's ``ORDER BY
        updated_ms DESC, code`` puts it. A key holding something else (damaged) lists nothing."""
        try:
            entries = _scored(self._redis.zrevrange(recent_key, 0, limit - 1, withscores=True))
        except ResponseError as exc:
            if str(exc).startswith("WRONGTYPE"):
                return []
            raise
        if len(entries) == limit:
            last = entries[-1][1]
            tied = _scored(self._redis.zrangebyscore(recent_key, last, last, withscores=True))
            entries = [*entries, *(e for e in tied if e not in entries)]
        entries.sort(key=lambda e: (-e[1], e[0]))
        return entries[:limit]

    def sweep(self, cutoff_ms: int, batch: int = 500, *, idle_cutoff_ms: int | None = None) -> int:
        """Nothing to do: every key expires ``ttl_seconds`` after its last write, so Redis
        deletes abandoned games and sessions itself (and recent-set entries whose game is
        gone are dropped by :meth:`recent_games`). Returns 0."""
        if batch < 1:
            raise ValueError(f"batch must be at least 1, not {batch}")
        with self._errors():
            return 0

    def close(self) -> None:
        """Disconnect the client's connection pool; later use raises :class:`StoreError`."""
        self._closed = True
        with contextlib.suppress(RedisError):
            self._redis.close()
            self._redis.connection_pool.disconnect()

    # --- the asyncio side: what the web layer calls on its event loop -------------------------

    def _client(self) -> redis.asyncio.Redis:
        """The asyncio client of the running loop (made on first use: its connections belong
        to one loop, and tests run several loops one after another)."""
        if self._closed:
            raise StoreError(f"Redis store {self._where!r} is closed")
        loop = asyncio.get_running_loop()
        if self._async is None or self._async[0] is not loop:
            pool = redis.asyncio.BlockingConnectionPool.from_url(
                self._url,
                max_connections=ASYNC_CONNECTIONS,
                timeout=self._timeout,  # waiting for a free connection counts as a timeout too
                decode_responses=True,
                encoding_errors="replace",
                socket_timeout=self._timeout,
                socket_connect_timeout=self._timeout,
                retry=AsyncRetry(NoBackoff(), 0),  # a stalled server costs one timeout, not four
                health_check_interval=30,
            )
            client = redis.asyncio.Redis.from_pool(pool)
            self._async = (loop, client)
            self._game_locks = {}
        return self._async[1]

    async def load_async(
        self, sid: str, code: str | None = None
    ) -> tuple[SessionData | None, StoredGame | None]:
        keys = [self._session_key(sid)]
        if code is not None:
            keys.append(self._game_key(sid, code))
        with self._errors():
            values = _texts(await self._client().mget(keys))
        session = _session_from(values[0])
        game = None if code is None else _game_from(code, values[1])
        return session, game

    async def save_session_async(self, sid: str, session: SessionData) -> None:
        key = self._session_key(sid)
        client = self._client()
        for attempt in range(MAX_ATTEMPTS):
            now = now_ms()
            with self._errors():
                async with client.pipeline(transaction=True) as pipe:
                    await pipe.watch(key)
                    (old,) = _texts(await pipe.mget([key]))
                    left = await pipe.ttl(key)
                    created = int_or_zero(json_dict(json_or_none(old)).get("created_ms")) or now
                    data = {**session.to_data(), "created_ms": created, "touched_ms": now}
                    ttl = max(SESSION_IDLE_SECONDS, left if isinstance(left, int) else 0)
                    pipe.multi()  # type: ignore[no-untyped-call]  # untyped in redis-py
                    pipe.set(key, dumps(data), ex=min(ttl, self.ttl_seconds))
                    try:
                        await pipe.execute()
                        return
                    except WatchError:
                        pass
            await self._aconflicted(attempt)
        raise StoreError(
            f"Redis store {self._where!r}: session kept changing, gave up after"
            f" {MAX_ATTEMPTS} attempts"
        )

    async def change_game_async(self, sid: str, code: str, change: Change[T]) -> T:
        """:meth:`change_game` with the asyncio client (same keys, same retries); changes of
        one game from this process take turns."""
        client = self._client()
        name = self._game_key(sid, code)
        lock, users = self._game_locks.get(name) or (asyncio.Lock(), 0)
        self._game_locks[name] = (lock, users + 1)
        try:
            async with lock:
                return await self._change_game_async(client, sid, code, change)
        finally:
            lock, users = self._game_locks[name]
            if users == 1:
                del self._game_locks[name]
            else:
                self._game_locks[name] = (lock, users - 1)

    async def _change_game_async(
        self, client: redis.asyncio.Redis, sid: str, code: str, change: Change[T]
    ) -> T:
        session_key = self._session_key(sid)
        game_key = self._game_key(sid, code)
        recent_key = self._recent_key(sid)
        all_key = self._all_key(sid)
        for attempt in range(MAX_ATTEMPTS):
            pipe = client.pipeline(transaction=True)
            try:
                with self._errors():
                    await pipe.watch(game_key, session_key, all_key)
                    raw_session, raw_game = _texts(await pipe.mget([session_key, game_key]))
                old = _game_from(code, raw_game)
                new, result = change(_session_from(raw_session), old)
                if new is None:
                    return result
                new = counting.carry(old, new)
                with self._errors():
                    counted: tuple[StoredGame, Any, Any, Any] | None = None
                    if counting.wants(new):
                        keys = [self._stats_key(sid), self._deal_key(code)]
                        await pipe.watch(*keys)
                        raw_doc, raw_deal = _texts(await pipe.mget(keys))
                        counted = (*counting.count(json_or_none(raw_doc), old, new), raw_deal)
                        new = counted[0]
                    gone = (
                        await self._oldest_past_cap_async(pipe, all_key) if raw_game is None else []
                    )
                    replay = replay_of(old, new)
                    if replay is not None:
                        await pipe.watch(self._replays_key(sid))
                        held = _replay_ids(await pipe.hgetall(self._replays_key(sid)))
                        replayed = (replay, _replays_past_cap(held, replay))
                    pipe.multi()  # type: ignore[no-untyped-call]  # untyped in redis-py
                    self._queue_game_write(
                        pipe, sid, code, new, counted, gone, (all_key, recent_key, session_key)
                    )
                    if replay is not None:
                        self._queue_replay_write(pipe, sid, *replayed)
                    replies: list[Any] = await pipe.execute(raise_on_error=False)
                if any(isinstance(reply, Exception) for reply in replies):
                    await asyncio.to_thread(
                        self._check_replies, replies, recent_key, code, new
                    )  # only a damaged database gets here
                return result
            except WatchError:
                pass
            finally:
                with contextlib.suppress(RedisError, OSError, asyncio.CancelledError):
                    await pipe.reset()  # type: ignore[no-untyped-call]
            await self._aconflicted(attempt)
        raise StoreError(
            f"Redis store {self._where!r}: game {code!r} kept changing, gave up after"
            f" {MAX_ATTEMPTS} attempts"
        )

    async def _oldest_past_cap_async(self, pipe: Any, all_key: str) -> list[str]:
        """:meth:`_oldest_past_cap` with the asyncio client."""
        try:
            count = int(await pipe.zcard(all_key))
            if count < self.max_games:
                return []
            oldest = await pipe.zrange(all_key, 0, count - self.max_games)
            return [c for c in _texts(oldest) if c]
        except ResponseError:  # a damaged set (another type): rebuilt by this change
            await pipe.delete(all_key)
            return []

    async def _aconflicted(self, attempt: int) -> None:
        with self._conflicts_lock:
            self._conflicts += 1
        await asyncio.sleep(random.random() * min(0.02, 0.0002 * 2**attempt))

    async def recent_games_async(self, sid: str, limit: int = 10) -> list[GameSummary]:
        """The recent list through the asyncio client: one ``ZREVRANGE`` and one ``MGET``;
        when some listed games are gone, the blocking method tidies up, in a thread."""
        if limit <= 0:
            return []
        recent_key = self._recent_key(sid)
        client = self._client()
        with self._errors():
            try:
                entries = _scored(await client.zrevrange(recent_key, 0, limit, withscores=True))
            except ResponseError as exc:
                if str(exc).startswith("WRONGTYPE"):
                    return []
                raise
            if not entries:
                return []
            entries.sort(key=lambda e: (-e[1], e[0]))
            codes = [code for code, _ in entries]
            values = _texts(await client.mget([self._game_key(sid, c) for c in codes]))
        if any(text is None for text in values) or len(entries) > limit:
            # games gone from the list, or more than ``limit`` (ties at the cut): the
            # blocking method's full treatment, off the loop
            return await asyncio.to_thread(self.recent_games, sid, limit)
        games = [_game_from(code, text) for code, text in zip(codes, values, strict=True)]
        return [GameSummary.of(g) for g in games if g is not None and g.state == "playing"]

    async def finished_games_async(self, sid: str, limit: int = 5) -> list[GameSummary]:
        """:meth:`finished_games` through the asyncio client: one ``ZREVRANGE``, one ``MGET``."""
        if limit <= 0:
            return []
        client = self._client()
        with self._errors():
            try:
                reply = await client.zrevrange(
                    self._all_key(sid), 0, FINISHED_WINDOW - 1, withscores=True
                )
            except ResponseError as exc:
                if str(exc).startswith("WRONGTYPE"):
                    return []
                raise
            entries = _scored(reply)
            if not entries:
                return []
            entries.sort(key=lambda e: (-e[1], e[0]))
            codes = [code for code, _ in entries]
            values = _texts(await client.mget([self._game_key(sid, c) for c in codes]))
        return _finished(codes, values, limit)

    def _verdict_key(self, key: str) -> str:
        return f"{self._prefix}v:{key}"

    def verdict(self, key: str) -> bool | None:
        with self._errors():
            value = _text(self._redis.get(self._verdict_key(key)))
        return None if value not in ("0", "1") else value == "1"

    def remember_verdict(self, key: str, lost: bool) -> None:
        with self._errors():
            self._redis.set(self._verdict_key(key), "1" if lost else "0", ex=self.ttl_seconds)

    async def verdict_async(self, key: str) -> bool | None:
        with self._errors():
            value = _text(await self._client().get(self._verdict_key(key)))
        return None if value not in ("0", "1") else value == "1"

    async def remember_verdict_async(self, key: str, lost: bool) -> None:
        with self._errors():
            await self._client().set(
                self._verdict_key(key), "1" if lost else "0", ex=self.ttl_seconds
            )

    async def ping(self) -> None:
        with self._errors():
            await self._client().ping()

    async def aclose(self) -> None:
        """Close the asyncio client on its loop, then the blocking one."""
        held, self._async = self._async, None
        if held is not None and held[0] is asyncio.get_running_loop():
            with contextlib.suppress(RedisError, OSError):
                await held[1].aclose()
        self.close()
