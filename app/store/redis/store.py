"""A store in Redis, or in a Redis Cluster: shared by every worker on every machine,
expiring what is abandoned. The keys are in :mod:`app.store.redis.keys`, the scripts in
:mod:`app.store.redis.scripts`.

**Two round trips a tap.** :meth:`RedisStore.change_game_async` reads the session, the game
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

**A deal's figures for everyone** live in the deal's own slot. The script that writes the
game that ended also files its result under the player's keys (``…:q``); then the result is
folded into the deal's figures (:data:`~app.store.redis.scripts.FOLD_DEAL`, which records
the result's id, so a second fold of it counts nothing) and the filed entry is removed. A
fold that fails (the deal's node unreachable) leaves the entry filed: the player's next
change folds it.

**Replays** (issue 26) are found by their id alone, so each lives in its own slot
(``sol:Y:{id}``), written just before the script that writes the game that ended; the
player's list of them (``sol:{sid}:y``, their cap and deletion) is written by that script,
in the player's slot, and it answers the ids past the cap for the store to delete.

**Never on the loop's time.** Everything is ``redis.asyncio``; the synchronous methods
(tests, tools) run the same coroutines on the store's own loop (:class:`Portal`).

**Expiry.** Every write sets a time to live of ``ttl_seconds`` (default 90 days, the cookie's
lifetime) on each key it writes (a set's is renewed once it has run down a hundredth, at most
a day); a change of a game also renews its session's key and the game sets, so a session
lives as long as its newest game. A session saved without a game
lives :data:`SESSION_IDLE_SECONDS` (a day) unless a game already keeps it longer. Redis
deletes the rest itself, which is why :meth:`RedisStore.sweep` has nothing to do.

**Damaged data** never raises from reads or changes: a session key that is not a session's
JSON (or not a string at all) loads as no session, a game key that is not a game's JSON
loads with ``record == {}`` (the engine refuses it and the web layer offers a fresh start),
and a set of the wrong type lists nothing and is rebuilt by the next change.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import weakref
from functools import partial
from typing import Any, Final, Literal

from app.clock import now_ms
from app.store import counting
from app.store.base import (
    FINISHED_WINDOW,
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
from app.store.jsondata import dict_from_json, dumps, json_or_none
from app.store.ratelimit import BucketLimiter, Limits, RateLimiter
from app.store.redis import records
from app.store.redis.buckets import RedisBuckets
from app.store.redis.connection import Connection
from app.store.redis.keys import Layout, Player
from app.store.redis.known import WRITES_KEPT, Known, KnownGames
from app.store.redis.migrate import migrate
from app.store.redis.scripts import (
    CONFIRM,
    DROP_KEYS,
    FOLD_DEAL,
    LIST_GAMES,
    MOVE_IN,
    MOVE_OUT,
    REPLACE_IF,
    SAVE_SESSION,
    WRITE_GAME,
    digest,
)
from app.store.replays import MAX_REPLAYS_PER_SESSION, ReplaySummary, StoredReplay

log = logging.getLogger(__name__)

DEFAULT_TTL_SECONDS: Final = 90 * 24 * 3600
"""How long an untouched session or game is kept: the session cookie's 90 days."""

MAX_ATTEMPTS: Final = 50
"""How many times a change is tried while other writers keep changing the same keys."""

FENCE_SECONDS: Final = 24 * 3600
"""How long a fence stays (:data:`~app.store.redis.scripts.CONFIRM`): longer than a write
can be on its way (a paused server runs what it was sent as soon as it resumes; a kernel
gives up resending after some 15 minutes)."""

SOCKET_TIMEOUT_SECONDS: Final = 1.0
"""How long one command (or connecting) may take before the store reports Redis unreachable:
Redis answers in well under a millisecond, so a second means it is stalled or gone."""


class RedisStore(Connection):
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
        self.layout: Final = Layout(prefix)
        self.prefix: Final = prefix
        self.ttl_seconds: Final = ttl_seconds
        self._known: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, KnownGames] = (
            weakref.WeakKeyDictionary()
        )
        super().__init__(url, socket_timeout)
        try:
            self._portal.call(self._open)
        except BaseException:
            self.close()
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

    async def load_async(
        self, sid: str, code: str | None = None
    ) -> tuple[SessionData | None, StoredGame | None]:
        """One ``MGET`` of the session and game keys."""
        player = self.layout.player(sid)
        if code is None:
            (raw_session,) = await self._read(player.session)
            return records.session_from(raw_session), None
        raw_session, raw_game = await self._read(player.session, player.game(code))
        return records.session_from(raw_session), records.game_from(code, raw_game)

    async def save_session_async(self, sid: str, session: SessionData) -> None:
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

    async def change_game_async(self, sid: str, code: str, change: Change[T]) -> T:
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
                known = Known.read(code, await self._fetch(*_read_keys(player, code)))
            old = known.game
            new, result = change(known.session, old)
            if new is None:
                if not fresh:  # decided on what this worker knew: true only if still so
                    now = Known.read(code, await self._fetch(*_read_keys(player, code)))
                    if not now.same(known):
                        known, fresh = now, True
                        continue
                known_games.keep(sid, code, known)
                return result
            doc_digest = digest(known.raw_doc) if counting.wants_counts(old, new) else "-"
            # the deal's figures: folded after the write, in their own slot (_fold)
            written = counting.settle(old, new, partial(_counts, known.raw_doc))
            new, result_of = written.game, written.result
            filed = ["", ""]
            if result_of is not None:
                filed = [_result_id(sid, new), records.result_json(code, result_of)]
            writes = (write_id, *known.writes[: WRITES_KEPT - 1])
            game_bytes = records.game_json(new, writes).encode("utf-8")
            doc_bytes = None if written.stats is None else dumps(written.stats).encode("utf-8")
            if written.replay is not None:  # in its own slot, before the game names it
                await self._publish(written.replay)
            listed = ["", ""]
            if written.replay is not None:
                listed = [written.replay.id, dumps(written.replay.summary.to_data())]
            keys = [*_player_keys(player, code), player.fence(write_id)]
            args = [
                known.session_digest,
                known.game_digest,
                doc_digest,
                game_bytes,
                code,
                new.updated_ms,
                "1" if new.state == "playing" else "0",
                self.ttl_seconds,
                self.max_games,
                player.games,
                doc_bytes or "",
                *filed,
                *listed,
                MAX_REPLAYS_PER_SESSION,
            ]
            reply = await self._write(player, code, write_id, keys, args)
            if reply[0] == 1:
                raw_doc = known.raw_doc if doc_bytes is None else doc_bytes
                after = Known(
                    known.session, known.session_digest, new, digest(game_bytes), writes, raw_doc
                )
                known_games.keep(sid, code, after)
                gone = int(reply[1]) if len(reply) > 1 else 0
                if gone:
                    await self._unpublish(records.texts(reply[2 : 2 + gone]))
                if len(reply) > 2 + gone:
                    await self._fold(player, records.pending_from(reply[2 + gone :]))
                return result
            # refused: the answer holds what the keys hold now, so no read is needed
            known = Known.read(code, _values(reply[1:4]))
            # another process wrote since: between this read and this write (a race: pause a
            # little), or since this worker's last change (no race: at once)
            await self._conflicted(attempt, pause=fresh)
            fresh = True
        raise StoreError(
            f"Redis store {self._where!r}: game {code!r} kept changing, gave up after"
            f" {MAX_ATTEMPTS} attempts"
        )

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

    async def _fold(self, player: Player, filed: list[tuple[str, str | None]]) -> None:
        """Add the player's filed results to their deals' figures, then unfile them. A
        failure is logged, never raised: the game's own write is done, and the entries stay
        filed for the next change to fold."""
        try:
            done = []
            for result_id, raw in filed:
                entry = records.result_from(raw)
                if entry is not None:
                    await self._fold_one(result_id, *entry)
                done.append(result_id)
            with self._errors():
                await self._client().execute_command("HDEL", player.pending, *done)
        except StoreError:
            log.warning("a deal's figures were not updated; the player's next change will")

    async def _fold_one(self, result_id: str, code: str, result: counting.DealResult) -> None:
        deal = self.layout.deal(code)
        async with self._on_loop().turn(f"d\0{code}"):
            for attempt in range(MAX_ATTEMPTS):
                (raw,) = await self._fetch(deal.figures)
                folded = dumps(counting.fold_deal(json_or_none(records.text(raw)), result))
                args = [digest(raw), result_id, folded, self.ttl_seconds]
                with self._errors():
                    if await FOLD_DEAL.run(self._client(), [deal.figures, deal.seen], args):
                        return
                await self._conflicted(attempt)
        raise StoreError(f"Redis store {self._where!r}: deal {code!r} kept changing")

    async def recent_games_async(self, sid: str, limit: int = 10) -> list[GameSummary]:
        """The recent set's newest games (ties by code, as in SQLite) in one script, which
        also removes codes whose game is gone."""
        listed = await self._listed(sid, "recent", limit)
        return [GameSummary.of(g) for g in listed if g.state == "playing"]

    async def finished_games_async(self, sid: str, limit: int = 5) -> list[GameSummary]:
        """The ended games among the all-games set's :data:`FINISHED_WINDOW` newest, in one
        script (games gone meanwhile are skipped; the sets are tidied by the next change)."""
        if limit <= 0:
            return []
        ended = [GameSummary.of(g) for g in await self._listed(sid, "all", FINISHED_WINDOW)]
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

    # --- replays (issue 26): each in its own slot, listed under the player's ----------------

    async def _publish(self, replay: StoredReplay) -> None:
        with self._errors(writing=True):
            await self._client().execute_command(
                "SET", self.layout.replay(replay.id), dumps(replay.to_data()),
                "EX", self.ttl_seconds,
            )  # fmt: skip

    async def _unpublish(self, gone: list[str | None]) -> None:
        """Delete the replays that left their player's list past its cap (each in its own
        slot). A failure is logged: the list no longer names them, and they expire."""
        try:
            with self._errors(writing=True):
                for ident in gone:
                    if ident is not None:
                        await self._client().execute_command("DEL", self.layout.replay(ident))
        except StoreError:
            log.warning("a replay past its player's cap was left to expire")

    def _fresh(self, replay: StoredReplay | None) -> StoredReplay | None:
        """A replay that ended within the games' time to live (an older one is gone)."""
        if replay is None or replay.ended_ms < now_ms() - self.ttl_seconds * 1000:
            return None
        return replay

    async def replay_async(self, replay_id: str) -> StoredReplay | None:
        (raw,) = await self._read(self.layout.replay(replay_id))
        return self._fresh(StoredReplay.from_data(json_or_none(raw)))

    async def player_replays_async(self, sid: str) -> list[ReplaySummary]:
        key = self.layout.player(sid).replays
        with self._errors():
            if _kind(await self._client().execute_command("TYPE", key)) != "hash":
                return []
            raw = await self._client().execute_command("HGETALL", key)
        fresh = [r.summary for r in _listed_replays(raw) if self._fresh(r) is not None]
        fresh.sort(key=lambda r: (-r.ended_ms, r.id))
        return fresh

    async def delete_replay_async(self, sid: str, replay_id: str) -> bool:
        """The player's list names its replays: only a replay listed there is deleted. One
        past the time to live is deleted too but answers ``False``, as on the stores whose
        sweep deleted it already: it was gone."""
        key = self.layout.player(sid).replays
        with self._errors():
            if _kind(await self._client().execute_command("TYPE", key)) != "hash":
                return False
            entry = await self._client().execute_command("HGET", key, replay_id)
            if not await self._client().execute_command("HDEL", key, replay_id):
                return False
            await self._client().execute_command("DEL", self.layout.replay(replay_id))
            await self._client().execute_command("DEL", self.layout.analysis(replay_id))
        listed = _listed_replays([replay_id, entry])
        return bool(listed) and self._fresh(listed[0]) is not None

    async def analysis_async(self, replay_id: str) -> dict[str, Any] | None:
        if await self.replay_async(replay_id) is None:
            return None
        (raw,) = await self._read(self.layout.analysis(replay_id))
        data = json_or_none(raw)
        return data if isinstance(data, dict) else None

    async def save_analysis_async(self, replay_id: str, data: dict[str, Any]) -> None:
        if await self.replay_async(replay_id) is None:
            return
        with self._errors(writing=True):
            await self._client().execute_command(
                "SET", self.layout.analysis(replay_id), dumps(data), "EX", self.ttl_seconds
            )

    # --- statistics ----------------------------------------------------------------------------

    async def player_stats_async(self, sid: str) -> dict[str, Any] | None:
        (raw,) = await self._read(self.layout.player(sid).stats)
        return None if raw is None else dict_from_json(raw)

    async def deal_stats_async(self, code: str) -> dict[str, Any] | None:
        (raw,) = await self._read(self.layout.deal(code).figures)
        return None if raw is None else dict_from_json(raw)

    async def reset_stats_async(self, sid: str) -> None:
        """What the reset keeps (:func:`counting.after_reset`: the deals counted), written
        unless a change counted something meanwhile (then read and reset again)."""
        key = self.layout.player(sid).stats
        for attempt in range(MAX_ATTEMPTS):
            (raw,) = await self._fetch(key)
            kept = counting.after_reset(json_or_none(records.text(raw)))
            args = [digest(raw), "" if kept is None else dumps(kept), self.ttl_seconds]
            with self._errors():
                if await REPLACE_IF.run(self._client(), [key], args) == 1:
                    return
            await self._conflicted(attempt)
        raise StoreError(f"Redis store {self._where!r}: statistics kept changing")

    # --- device links: the link's hash names the player, the player's key names the hash --

    async def save_link_async(self, sid: str, digest_: str) -> None:
        """The player's key first: from then on only this link names the player (an older
        link key left behind by a failure names a player whose key names another hash)."""
        own = self.layout.player(sid).link
        (old,) = await self._read(own)
        client, ttl = self._client(), self.ttl_seconds
        with self._errors():
            await client.execute_command("SET", own, digest_, "EX", ttl)
            await client.execute_command("SET", self.layout.link(digest_), sid, "EX", ttl)
            if old and old != digest_:
                await client.execute_command("DEL", self.layout.link(old))

    async def link_owner_async(self, digest_: str) -> str | None:
        (sid,) = await self._read(self.layout.link(digest_))
        if sid is None:
            return None
        (own,) = await self._read(self.layout.player(sid).link)
        return sid if own == digest_ else None

    async def drop_link_async(self, sid: str) -> bool:
        own = self.layout.player(sid).link
        (old,) = await self._read(own)
        if not old:
            return False
        with self._errors():
            await self._client().execute_command("DEL", own)
            await self._client().execute_command("DEL", self.layout.link(old))
        return True

    async def has_link_async(self, sid: str) -> bool:
        with self._errors():
            found = await self._client().execute_command("EXISTS", self.layout.player(sid).link)
        return bool(found)

    # --- the server's secret, and moving a player (issue 23) --------------------------------

    async def kept_secret_async(self) -> bytes:
        """``sol:secret``, set once by whichever instance needs it first (``SET NX``, no
        expiry): every instance on this Redis reads the same."""
        key = f"{self.prefix}secret"
        (value,) = await self._read(key)
        if value is None:  # the first start: a full Redis still gives the secret it has
            with self._errors():
                await self._client().execute_command("SET", key, secrets.token_urlsafe(32), "NX")
            (value,) = await self._read(key)
        if value is None or len(value) < 32:
            raise StoreError(f"Redis store {self._where!r}: the secret {key!r} is too short")
        return value.encode()

    def kept_secret(self) -> bytes:
        return self._sync(self.kept_secret_async)

    async def move_player_async(self, old: str, new: str) -> bool:
        """Three scripts: everything of ``old`` read (:data:`MOVE_OUT`, ``DUMP``), written
        under ``new`` (:data:`MOVE_IN`, ``RESTORE``: the same values and times to live),
        then deleted under ``old`` with its device link (:data:`DROP_KEYS`). Under a cluster
        the two ids are two slots, so this cannot be one script: a failure before the last
        step leaves ``old`` as it was (the revoke fails and can be asked again), never a
        player with nothing."""
        was, now = self.layout.player(old), self.layout.player(new)
        keys = [was.session, was.recent, was.all, was.stats, was.pending, was.link, was.replays]
        with self._errors():
            *dumped, link = await MOVE_OUT.run(self._client(), keys, [was.base])
        names = [dumped[i] for i in range(0, len(dumped), 3)]
        if dumped:
            with self._errors(writing=True):
                await MOVE_IN.run(self._client(), [now.session], [now.base, *dumped])
        hash_ = records.text(link) if isinstance(link, bytes) else None
        with self._errors():
            await DROP_KEYS.run(self._client(), [was.session], [was.base, *names, "o"])
            if hash_:
                await self._client().execute_command("DEL", self.layout.link(hash_))
        return bool(dumped or hash_)

    def move_player(self, old: str, new: str) -> bool:
        return self._sync(self.move_player_async, old, new)

    # --- verdicts ------------------------------------------------------------------------------

    async def verdict_async(self, key: str) -> bool | None:
        (value,) = await self._read(self.layout.verdict(key))
        return None if value not in ("0", "1") else value == "1"

    async def remember_verdict_async(self, key: str, lost: bool) -> None:
        with self._errors():
            await self._client().execute_command(
                "SET", self.layout.verdict(key), "1" if lost else "0", "EX", self.ttl_seconds
            )

    def sweep(self, cutoff_ms: int, batch: int = 500, *, idle_cutoff_ms: int | None = None) -> int:
        """Nothing to do: every key expires ``ttl_seconds`` after its last write, so Redis
        deletes abandoned games and sessions itself (and recent-set entries whose game is
        gone are dropped when the list is read). Returns 0."""
        if batch < 1:
            raise ValueError(f"batch must be at least 1, not {batch}")
        if self._closed:
            raise StoreError(f"Redis store {self._where!r} is closed")
        return 0


def _kind(reply: Any) -> str:
    """A ``TYPE`` reply as text (the client may give bytes or text)."""
    return reply.decode() if isinstance(reply, bytes) else str(reply)


def _listed_replays(raw: Any) -> list[StoredReplay]:
    """A player's replays hash as read (``HGETALL``: a dict, or field, value, … as a list):
    their summaries as replays without a line; damaged entries left out."""
    values = list(raw.values()) if isinstance(raw, dict) else list(raw or [])[1::2]
    found = []
    for value in values:
        data = json_or_none(records.text(value))
        replay = StoredReplay.from_data({**data, "line": ""} if isinstance(data, dict) else None)
        if replay is not None:
            found.append(replay)
    return found


def _counts(raw_doc: bytes | None) -> counting.Counts:
    """The player's statistics document as read (the deal's figures are not read here)."""
    return json_or_none(records.text(raw_doc)), None


def _read_keys(player: Player, code: str) -> tuple[str, str, str]:
    """What a change reads: the session, the game, the statistics."""
    return player.session, player.game(code), player.stats


def _values(reply: list[Any]) -> list[bytes | None]:
    """Values a script answered as stored (``nil``: none)."""
    return [v if isinstance(v, bytes) else None for v in reply]


def _player_keys(player: Player, code: str) -> tuple[str, ...]:
    """The keys :data:`WRITE_GAME` takes, in its order (the write's fence goes last)."""
    return (
        player.session,
        player.game(code),
        player.recent,
        player.all,
        player.stats,
        player.pending,
        player.replays,
    )


def _result_id(sid: str, game: StoredGame) -> str:
    """A counted result's id, the same however often the change that counted it runs (a
    player's game ends once per ``updated_ms``); hashed, so no session id leaves its slot."""
    text = f"{sid}\0{game.code}\0{game.updated_ms}"
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:20]
