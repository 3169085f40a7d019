"""Revoking a device link in Redis: the player's keys move to a new id, and the old id
remembers where they went (``sol:{old}:m``), so a revocation sent twice, or ten at once, all
end on the id that holds the data.

Under a cluster the two ids are two slots, so a move cannot be one script. It is four steps,
each safe to run again: :data:`CLAIM` (in the old id's slot: where the player went already,
else the move is claimed for the new id — ``NEW 0``, under way — and the link dropped, so it
opens nothing from then on), :data:`MOVE_OUT` (``DUMP`` of every key), :data:`MOVE_IN`
(``RESTORE`` under the new id, a key already there left as it is) and :data:`FINISH` (the old
keys deleted, the move marked done: ``NEW 1``). A revocation that finds a move under way
finishes it before it answers, so a move cut short by a failure is finished by the next
(the player's data is never in neither place: the old keys go only once the new ones are
written).
"""

from __future__ import annotations

from typing import Final

from app.store.bounds import MOVED_HOPS
from app.store.redis import records
from app.store.redis.connection import Connection
from app.store.redis.scripts import HELPERS, Script

CLAIM: Final = Script(
    "claim_move",
    HELPERS
    + """
-- KEYS: the old id's moved key and link key; ARGV: the new id, the ttl
local went = value(KEYS[1])
if went then return {1, went} end
local link = value(KEYS[2])
if not link then return {0} end
redis.call('SET', KEYS[1], ARGV[1] .. ' 0', 'EX', ARGV[2])
redis.call('DEL', KEYS[2])
return {2, ARGV[1] .. ' 0', link}
""",
)
"""``{1, "ID STATE"}`` the player moved (or is moving) already; ``{0}`` no link, no move;
``{2, "NEW 0", link hash}`` the move is claimed and the link dropped."""

MOVE_OUT: Final = Script(
    "move_out",
    """
-- KEYS: one player's session, recent, all, stats, pending, link and replays keys (the
-- replays themselves, sol:Y:{id}, stay: their ids do not change); ARGV: the player's
-- key prefix. Answers name, time to live (ms), DUMP for every key of the player that exists
-- (its games named g:CODE, found through the all-games set)
local out = {}
local function take(name, key)
    local dumped = redis.call('DUMP', key)
    if dumped then
        table.insert(out, name)
        table.insert(out, redis.call('PTTL', key))
        table.insert(out, dumped)
    end
end
local names = {'s', 'r', 'a', 'p', 'q', 'o', 'y'}
for i = 1, 7 do take(names[i], KEYS[i]) end
if redis.call('TYPE', KEYS[3]).ok == 'zset' then
    for _, code in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1)) do
        take('g:' .. code, ARGV[1] .. 'g:' .. code)
    end
end
return out
""",
)
"""Everything one player has, to move it to another id."""

MOVE_IN: Final = Script(
    "move_in",
    """
-- KEYS: the new player's session key (its slot); ARGV: the new player's key prefix, then
-- name, time to live (ms), DUMP for each key (MOVE_OUT's answer)
for i = 2, #ARGV, 3 do
    local ttl = tonumber(ARGV[i + 1])
    if ttl < 0 then ttl = 0 end
    local done = redis.pcall('RESTORE', ARGV[1] .. ARGV[i], ttl, ARGV[i + 2])
    if type(done) == 'table' and done.err and not string.find(done.err, 'BUSYKEY', 1, true) then
        return done
    end
end
return 1
""",
)
"""Write a moved player's keys under their new id (the same values and times to live); a key
an earlier attempt wrote already is left as it is."""

FINISH: Final = Script(
    "finish_move",
    """
-- KEYS: the old id's moved key; ARGV: the old id's key prefix, the new id, the ttl, then the
-- names of the keys to delete
for i = 4, #ARGV do redis.call('DEL', ARGV[1] .. ARGV[i]) end
redis.call('SET', KEYS[1], ARGV[2] .. ' 1', 'EX', ARGV[3])
return 1
""",
)
"""Delete a moved player's keys under their old id, and mark the move done."""


async def revoke_link(store: Connection, old: str, new: str) -> str | None:
    """:meth:`app.store.base.Store.revoke_link` (the module's steps)."""
    was = store.layout.player(old)
    with store._errors(writing=True):
        reply = await CLAIM.run(store._client(), [was.moved, was.link], [new, store.ttl_seconds])
    if reply[0] == 0:
        return None
    went, done = _move(reply[1])
    if not done:
        await _finish(store, old, went)
    if reply[0] == 2 and isinstance(reply[2], bytes):
        with store._errors():  # the link's own key: it names nobody now, this tidies it
            await store._client().execute_command("DEL", store.layout.link(reply[2].decode()))
    for _ in range(MOVED_HOPS):  # later revocations of the new id, by its own browser
        (raw,) = await store._fetch(store.layout.player(went).moved)
        if raw is None:
            break
        later, done = _move(raw)
        if not done:
            await _finish(store, went, later)
        went = later
    return went


def moved_target(raw: object) -> str:
    """Where a moved key says the player went (moved or still moving)."""
    return _move(raw)[0]


def _move(raw: object) -> tuple[str, bool]:
    """A moved key's value: the new id, and whether the move is done."""
    target, _, state = (records.text(raw) or "").partition(" ")
    return target, state == "1"


async def _finish(store: Connection, old: str, new: str) -> None:
    """Copy ``old``'s keys to ``new`` and delete them under ``old`` (safe to run again)."""
    was, now = store.layout.player(old), store.layout.player(new)
    keys = [was.session, was.recent, was.all, was.stats, was.pending, was.link, was.replays]
    with store._errors():
        dumped = await MOVE_OUT.run(store._client(), keys, [was.base])
    if dumped:
        with store._errors(writing=True):
            await MOVE_IN.run(store._client(), [now.session], [now.base, *dumped])
    names = [records.text(dumped[i]) for i in range(0, len(dumped), 3)]
    with store._errors(writing=True):
        await FINISH.run(store._client(), [was.moved], [was.base, new, store.ttl_seconds, *names])
