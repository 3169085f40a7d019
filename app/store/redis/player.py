"""What the Redis store keeps of a player beside their games: the replays (each in its own
slot, listed under the player's), the statistics as read and reset, the device link, the
revocation that moves the player (:mod:`app.store.redis.revoke`), and the server's secret.
:class:`~app.store.redis.store.RedisStore` is these and the games."""

from __future__ import annotations

import logging
import secrets
from typing import Any

from app.clock import now_ms
from app.store import counting
from app.store.base import StoreError
from app.store.bounds import MOVED_HOPS
from app.store.jsondata import dict_from_json, dumps, json_or_none
from app.store.redis import records, revoke
from app.store.redis.connection import MAX_ATTEMPTS, Connection
from app.store.redis.scripts import REPLACE_IF, digest
from app.store.replays import ReplaySummary, StoredReplay

log = logging.getLogger(__name__)


class PlayerKeys(Connection):
    """A player's keys other than their games (abstract: :class:`RedisStore` is the store)."""

    # --- replays (issue 26): each in its own slot, listed under the player's ----------------

    async def _publish(self, replay: StoredReplay, sid: str) -> None:
        """The replay in its own slot, naming its player (:meth:`replay_owner`)."""
        with self._errors(writing=True):
            await self._client().execute_command(
                "SET", self.layout.replay(replay.id), dumps({**replay.to_data(), "sid": sid}),
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
                        await self._client().execute_command("DEL", self.layout.analysis(ident))
        except StoreError:
            log.warning("a replay past its player's cap was left to expire")

    def _fresh(self, replay: StoredReplay | None) -> StoredReplay | None:
        """A replay that ended within the games' time to live (an older one is gone)."""
        if replay is None or replay.ended_ms < now_ms() - self.ttl_seconds * 1000:
            return None
        return replay

    async def replay(self, replay_id: str) -> StoredReplay | None:
        (raw,) = await self._read(self.layout.replay(replay_id))
        return self._fresh(StoredReplay.from_data(json_or_none(raw)))

    async def replay_owner(self, replay_id: str) -> str | None:
        (raw,) = await self._read(self.layout.replay(replay_id))
        data = json_or_none(raw)
        sid = data.get("sid") if isinstance(data, dict) else None
        if not isinstance(sid, str) or self._fresh(StoredReplay.from_data(data)) is None:
            return None
        return await self.moved_to(sid) or sid

    async def moved_to(self, sid: str) -> str | None:
        went = sid
        for _ in range(MOVED_HOPS):
            (raw,) = await self._fetch(self.layout.player(went).moved)
            if raw is None:
                break
            went = revoke.moved_target(raw)
        return None if went == sid else went

    async def player_replays(self, sid: str) -> list[ReplaySummary]:
        key = self.layout.player(sid).replays
        with self._errors():
            if _kind(await self._client().execute_command("TYPE", key)) != "hash":
                return []
            raw = await self._client().execute_command("HGETALL", key)
        fresh = [r.summary for r in _listed_replays(raw) if self._fresh(r) is not None]
        fresh.sort(key=lambda r: (-r.ended_ms, r.id))
        return fresh

    async def delete_replay(self, sid: str, replay_id: str) -> bool:
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

    async def analysis(self, replay_id: str) -> dict[str, Any] | None:
        if await self.replay(replay_id) is None:
            return None
        (raw,) = await self._read(self.layout.analysis(replay_id))
        data = json_or_none(raw)
        return data if isinstance(data, dict) else None

    async def save_analysis(self, replay_id: str, data: dict[str, Any]) -> None:
        if await self.replay(replay_id) is None:
            return
        with self._errors(writing=True):
            await self._client().execute_command(
                "SET", self.layout.analysis(replay_id), dumps(data), "EX", self.ttl_seconds
            )

    # --- statistics ----------------------------------------------------------------------------

    async def player_stats(self, sid: str) -> dict[str, Any] | None:
        (raw,) = await self._read(self.layout.player(sid).stats)
        return None if raw is None else dict_from_json(raw)

    async def deal_stats(self, code: str) -> dict[str, Any] | None:
        (raw,) = await self._read(self.layout.deal(code).figures)
        return None if raw is None else dict_from_json(raw)

    async def reset_stats(self, sid: str) -> None:
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

    async def save_link(self, sid: str, digest_: str) -> None:
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

    async def link_owner(self, digest_: str) -> str | None:
        (sid,) = await self._read(self.layout.link(digest_))
        if sid is None:
            return None
        (own,) = await self._read(self.layout.player(sid).link)
        return sid if own == digest_ else None

    async def has_link(self, sid: str) -> bool:
        with self._errors():
            found = await self._client().execute_command("EXISTS", self.layout.player(sid).link)
        return bool(found)

    # --- the server's secret, and moving a player (issue 23) --------------------------------

    async def kept_secret(self) -> bytes:
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

    async def revoke_link(self, old: str, new: str) -> str | None:
        """In four steps, each safe to run again (:mod:`app.store.redis.revoke`)."""
        return await revoke.revoke_link(self, old, new)


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
