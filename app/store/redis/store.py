"""A store in Redis, or in a Redis Cluster: shared by every worker on every machine,
expiring what is abandoned. The keys are in :mod:`app.store.redis.keys`, the scripts in
:mod:`app.store.redis.scripts`.

**Two round trips a tap.** :meth:`RedisStore.change_game` reads the session, the game
and the player's statistics in one ``MGET`` (one player's keys share a hash tag, so they are
one slot, on one node), lets ``change`` decide, and writes in one script
(:data:`~app.store.redis.scripts.WRITE_GAME`) that first checks the keys still hold what
was read. When another process wrote meanwhile, nothing is written and the change is read
and decided again (at most :data:`MAX_ATTEMPTS` times, with a short random pause), so
``change`` may run more than once and must be a pure function of the session and game it
is given. Changes of one game from one process take turns on an ``asyncio.Lock``, so only
other processes ever conflict. When the connection breaks during the write its outcome is
unknown: that is a :class:`StoreError`, never a silent second attempt (a tap must not be
applied twice).

**A deal's figures** live in the deal's own slot, folded in after the write that ended a game
(:mod:`app.store.redis.figures`; retried in the background, never failing the change).
**Replays** (issue 26) each live in their own slot (``sol:Y:{id}``), written just before the
game's script, which keeps the player's list of them (cap, deletion) in the player's slot.
**Never on the loop's time**: everything is ``redis.asyncio``; the synchronous methods run the
same coroutines on the store's own loop (:class:`Portal`). **Expiry**: every write sets a time
to live of ``ttl_seconds`` (90 days by default) on each key it writes; a change of a game renews
its session and sets; a session without a game lives :data:`SESSION_IDLE_SECONDS`; Redis
deletes the rest itself (:meth:`RedisStore.sweep` has nothing to do).

**Damaged data** never raises: a bad session key loads as no session, a bad game key with
``record == {}`` (the web layer offers a fresh start), a set of the wrong type lists nothing.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import weakref
from functools import partial
from typing import Any, Final, Literal, NamedTuple

from app.clock import now_ms
from app.store import settling
from app.store.base import (
    SESSION_IDLE_SECONDS,
    Change,
    GameSummary,
    SessionData,
    StoredGame,
    StoreError,
    StoreFullError,
    T,
    UnconfirmedChangeError,
)
from app.store.buckets import BucketLimiter
from app.store.jsondata import dumps, json_or_none
from app.store.ratelimit import Limits, RateLimiter
from app.store.redis import figures, records
from app.store.redis.buckets import RedisBuckets
from app.store.redis.connection import MAX_ATTEMPTS
from app.store.redis.keys import Layout, Player
from app.store.redis.known import WRITES_KEPT, Known, KnownGames
from app.store.redis.migrate import migrate
from app.store.redis.player import PlayerKeys
from app.store.redis.scripts import (
    CONFIRM,
    DROP_LEASE,
    LIST_GAMES,
    SAVE_SESSION,
    TAKE_LEASE,
    WRITE_GAME,
    digest,
)
from app.store.sync import portal

log = logging.getLogger(__name__)

DEFAULT_TTL_SECONDS: Final = 90 * 24 * 3600
"""How long an untouched session or game is kept: the session cookie's 90 days."""

FENCE_SECONDS: Final = 24 * 3600
"""How long a fence stays (:data:`~app.store.redis.scripts.CONFIRM`): longer than a write
can be on its way (a paused server runs what it was sent as soon as it resumes; a kernel
gives up resending after some 15 minutes)."""

SOCKET_TIMEOUT_SECONDS: Final = 1.0
"""How long one command (or connecting) may take before the store reports Redis unreachable:
Redis answers in well under a millisecond, so a second means it is stalled or gone."""


class Written(NamedTuple):
    """One attempt's write (:meth:`RedisStore._written`)."""

    game: StoredGame
    args: list[Any]
    """The write script's arguments."""
    writes: tuple[str, ...]
    """The row's last writes, this one first."""
    game_bytes: bytes
    doc: bytes | None
    """The player's new statistics document (``None``: unchanged)."""


class RedisStore(PlayerKeys):
    """Sessions and games in the Redis database ``url`` names (``redis://host:port/db``,
    ``rediss://`` for TLS, ``redis+cluster://host:port,…`` for a cluster; a password goes in
    the URL). Opening it moves keys of the first layout (:mod:`app.store.redis.migrate`).

    :raises StoreError: when the URL is not a Redis URL or the server does not answer.
    :raises ValueError: for a time to live below a second, or a prefix with braces.
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
        self.layout = Layout(prefix)
        self.prefix = prefix
        self.ttl_seconds = ttl_seconds
        self._known: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, KnownGames] = (
            weakref.WeakKeyDictionary()
        )
        super().__init__(url, socket_timeout)
        try:
            portal().call(self._open)
        except BaseException:
            portal().call(self.close)
            raise

    async def _open(self) -> None:
        """Check that the server answers, then move keys of the first layout."""
        try:
            await self.ping()
        except StoreFullError as exc:  # it answers: reads work, /health says it is full
            log.warning("%s", exc)
        except StoreError as exc:
            raise StoreError(f"cannot reach the Redis store {self._where!r}: {exc}") from exc
        with self._errors():
            await migrate(self._client(), self.layout)

    def rate_limiter(self, configured: Limits) -> RateLimiter:
        """Token buckets decided in each worker's memory and merged into this Redis right
        after each spend, off the request's path (:mod:`app.store.redis.buckets`)."""
        return BucketLimiter(configured, RedisBuckets(self))

    # --- sessions and games ------------------------------------------------------------------

    async def load(
        self, sid: str, code: str | None = None
    ) -> tuple[SessionData | None, StoredGame | None]:
        """One ``MGET`` of the session and game keys."""
        player = self.layout.player(sid)
        if code is None:
            (raw_session,) = await self._read(player.session)
            return records.session_from(raw_session), None
        raw_session, raw_game = await self._read(player.session, player.game(code))
        return records.session_from(raw_session), records.game_from(code, raw_game)

    async def save_session(self, sid: str, session: SessionData) -> None:
        """Write the session, keeping when it was created. It expires a day later
        (:data:`SESSION_IDLE_SECONDS`) unless a game keeps it longer (a change of a game sets
        the session's time to live to the game's)."""
        key = self.layout.player(sid).session
        for attempt in range(MAX_ATTEMPTS):
            (raw,) = await self._fetch(key)
            now = now_ms()
            data = records.session_json(session, records.created_ms(records.text(raw)) or now, now)
            args = [digest(raw), data, SESSION_IDLE_SECONDS, self.ttl_seconds]
            with self._errors(writing=True):
                if await SAVE_SESSION.run(self._client(), [key], args) == 1:
                    return
            await self._conflicted(attempt)
        raise StoreError(
            f"Redis store {self._where!r}: session kept changing, gave up after"
            f" {MAX_ATTEMPTS} attempts"
        )

    async def change_game(self, sid: str, code: str, change: Change[T]) -> T:
        """Read, ``change``, write in one script; again from the read when another process
        wrote first (see the module's note: ``change`` may run more than once).

        The game is stored under ``code`` with its ``updated_ms`` as the caller set it, and
        listed in (or, when not ``playing``, removed from) the recent set. When ``change``
        raises, nothing is written and the exception propagates as it is.

        :raises StoreError: when Redis fails, the connection breaks, or the game kept being
            changed by others for :data:`MAX_ATTEMPTS` attempts.
        """
        held = self._on_loop()
        async with held.turn(f"g\0{sid}\0{code}"):
            return await self._change(sid, code, change)

    async def _change(self, sid: str, code: str, change: Change[T]) -> T:
        player = self.layout.player(sid)
        known_games = self._known_games()
        known = known_games.take(sid, code)  # put back only with what the keys now hold
        fresh = known is None  # read for this change (not known from before)
        write_id = secrets.token_hex(8)
        for attempt in range(MAX_ATTEMPTS):
            if known is None:
                known = Known.read(code, await self._fetch(*player.read_keys(code)))
            old = known.game
            new, result = change(known.session, old)
            if new is None:
                if not fresh:  # decided on what this worker knew: true only if still so
                    now = Known.read(code, await self._fetch(*player.read_keys(code)))
                    if not now.same(known):
                        known, fresh = now, True
                        continue
                known_games.keep(sid, code, known)
                return result
            written = await self._written(sid, player, code, write_id, known, old, new)
            new, writes = written.game, written.writes
            keys = [*player.write_keys(code), player.fence(write_id)]
            reply = await self._write(player, code, write_id, keys, written.args)
            if reply[0] == 1:
                raw_doc = known.raw_doc if written.doc is None else written.doc
                after = Known(
                    known.session, known.session_digest, new, digest(written.game_bytes),
                    writes, raw_doc,
                )  # fmt: skip
                known_games.keep(sid, code, after)
                gone = int(reply[1]) if len(reply) > 1 else 0
                if gone:
                    await self._unpublish(records.texts(reply[2 : 2 + gone]))
                if len(reply) > 2 + gone:
                    await figures.fold(self, player, records.pending_from(reply[2 + gone :]))
                return result
            # refused: the answer holds what the keys hold now, so no read is needed
            known = Known.read(code, records.values(reply[1:4]))
            # another process wrote since: between this read and this write (a race: pause a
            # little), or since this worker's last change (no race: at once)
            await self._conflicted(attempt, pause=fresh)
            fresh = True
        raise StoreError(
            f"Redis store {self._where!r}: game {code!r} kept changing, gave up after"
            f" {MAX_ATTEMPTS} attempts"
        )

    async def _written(
        self,
        sid: str,
        player: Player,
        code: str,
        write_id: str,
        known: Known,
        old: StoredGame | None,
        new: StoredGame,
    ) -> Written:
        """What one attempt of :meth:`_change` writes: the game as the statistics settle it,
        the write script's arguments and the row's last writes (its replay, when it names one,
        published first in its own slot)."""
        doc_digest = digest(known.raw_doc) if settling.wants_counts(old, new) else "-"
        # the deal's figures: folded after the write, in their own slot (_fold)
        written = settling.settle(old, new, partial(_counts, known.raw_doc))
        new, result_of = written.game, written.result
        filed = ["", ""]
        if result_of is not None:
            filed = [records.result_id(sid, new), records.result_json(code, result_of)]
        writes = (write_id, *known.writes[: WRITES_KEPT - 1])
        game_bytes = records.game_json(new, writes).encode("utf-8")
        doc_bytes = None if written.stats is None else dumps(written.stats).encode("utf-8")
        listed = ["", ""]
        if written.replay is not None:  # in its own slot, before the game names it
            await self._publish(written.replay, sid)
            listed = [written.replay.id, dumps(written.replay.summary.to_data())]
        args = [
            known.session_digest,
            known.game_digest,
            doc_digest,
            game_bytes,
            code,
            new.updated_ms,
            "1" if new.state == "playing" else "0",
            self.ttl_seconds,
            self.bounds.games,
            player.games,
            doc_bytes or "",
            *filed,
            *listed,
            self.bounds.replays,
        ]
        return Written(new, args, writes, game_bytes, doc_bytes)

    async def _write(
        self, player: Player, code: str, write_id: str, keys: list[str], args: list[Any]
    ) -> list[Any]:
        """Run :data:`WRITE_GAME`. When its answer is lost (the connection broke, or Redis
        did not answer within the timeout) the write may have landed, or may still: ask
        (:data:`CONFIRM`, within one more timeout) and answer as the write would have when
        it landed; when it did not, the question fenced it, so the change was not made and
        never will be (:class:`StoreError`); when the question gets no answer either,
        :class:`UnconfirmedChangeError`.

        :raises StoreError: Redis failed or refused; or the write's answer was lost and it
            did not land.
        """
        try:
            with self._errors(writing=True):
                reply = await WRITE_GAME.run(self._client(), keys, args)
        except UnconfirmedChangeError as lost:
            return await self._confirm(player, code, write_id, lost)
        if not isinstance(reply, list) or not reply or reply[0] not in (0, 1):
            raise StoreError(f"Redis store {self._where!r}: the write was refused ({reply!r})")
        return reply

    async def _confirm(
        self, player: Player, code: str, write_id: str, lost: UnconfirmedChangeError
    ) -> list[Any]:
        log.warning("a change's answer was lost (%s); asking whether it landed", lost.__cause__)
        keys = [player.game(code), player.fence(write_id), player.pending]
        try:
            async with asyncio.timeout(self.timeout):
                with self._errors():
                    reply = await CONFIRM.run(
                        self._client(), keys, [write_id, FENCE_SECONDS, self.ttl_seconds]
                    )
        except (StoreError, TimeoutError):
            log.error("a change's outcome could not be confirmed: %s", lost)
            raise lost from lost.__cause__
        if isinstance(reply, list) and reply and reply[0] == 1:
            log.warning("the change whose answer was lost had landed")
            return reply
        raise StoreError(
            f"Redis store {self._where!r}: connection lost during a change, which was not"
            f" applied (and now never will be): {lost.__cause__}"
        )

    def _known_games(self) -> KnownGames:
        """The running loop's :class:`KnownGames` (each loop's own, as its client is)."""
        loop = asyncio.get_running_loop()
        known = self._known.get(loop)
        if known is None:
            known = self._known[loop] = KnownGames()
        return known

    async def recent_games(self, sid: str, limit: int = 10) -> list[GameSummary]:
        """The recent set's newest games (ties by code, as in SQLite) in one script, which
        also removes codes whose game is gone."""
        listed = await self._listed(sid, "recent", limit)
        return [GameSummary.of(g) for g in listed if g.state == "playing"]

    async def finished_games(self, sid: str, limit: int = 5) -> list[GameSummary]:
        """The ended games among the all-games set's ``bounds.finished_window`` newest, in one
        script (games gone meanwhile are skipped; the sets are tidied by the next change)."""
        if limit <= 0:
            return []
        ended = [
            GameSummary.of(g) for g in await self._listed(sid, "all", self.bounds.finished_window)
        ]
        ended = [g for g in ended if g.state != "playing"]
        ended.sort(key=lambda g: (-g.updated_ms, g.code))
        return ended[:limit]

    async def _listed(
        self, sid: str, which: Literal["recent", "all"], limit: int
    ) -> list[StoredGame]:
        """The newest ``limit`` games of the player's ``recent`` or ``all`` set, in one
        script (:data:`LIST_GAMES`): codes whose game is gone leave the recent set then, the
        all-games set at the next change."""
        if limit <= 0:
            return []
        player = self.layout.player(sid)
        key, tidy = (player.recent, "1") if which == "recent" else (player.all, "0")
        with self._errors():
            reply = await LIST_GAMES.run(self._client(), [key], [player.games, limit, tidy])
        return records.listed(reply, limit)

    async def take_lease(self, name: str, holder: str, ttl_ms: int) -> bool:
        """``SET … PX`` unless another holds it (:data:`TAKE_LEASE`); Redis expires it."""
        with self._errors(writing=True):
            taken = await TAKE_LEASE.run(
                self._client(), [self.layout.lease(name)], [holder, max(1, ttl_ms)]
            )
        return bool(taken == 1)

    async def drop_lease(self, name: str, holder: str) -> bool:
        """Compare and delete in one script (:data:`DROP_LEASE`)."""
        with self._errors(writing=True):
            dropped = await DROP_LEASE.run(self._client(), [self.layout.lease(name)], [holder])
        return bool(dropped == 1)

    async def sweep(
        self, cutoff_ms: int, batch: int = 500, *, idle_cutoff_ms: int | None = None
    ) -> int:
        """Nothing to do (every key expires ``ttl_seconds`` after its last write): 0."""
        if batch < 1:
            raise ValueError(f"batch must be at least 1, not {batch}")
        if self._closed:
            raise StoreError(f"Redis store {self._where!r} is closed")
        return 0


def _counts(raw_doc: bytes | None) -> settling.Counts:
    """The player's statistics document as read (the deal's figures are not read here)."""
    return json_or_none(records.text(raw_doc)), None
