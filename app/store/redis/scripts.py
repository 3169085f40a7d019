"""The Lua scripts of the Redis store: each is one round trip, runs atomically on the node
that holds its keys, and touches one hash slot (its keys share a hash tag, see
:mod:`app.store.redis.keys`).

A change is optimistic without ``WATCH``: the store reads the keys a decision depends on,
decides in Python, and sends the writes with the SHA-1 of every value it read; the script
compares them with what the keys hold now and writes only when nothing changed (else the
store reads and decides again). A key missing or holding another type than a string reads
as missing (``MGET`` gives ``nil`` for both), whose digest is the empty string.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Final

from redis.exceptions import NoScriptError

from app.store.redis.clients import pipelined


def digest(value: bytes | None) -> str:
    """What a script compares: the SHA-1 of a value as stored, ``""`` for none.

    >>> digest(None), digest(b"a")
    ('', '86f7e437faa5a7fce15d1ddcb9eaeaea377667b8')
    """
    return "" if value is None else hashlib.sha1(value).hexdigest()


HELPERS: Final = """
local function value(key)  -- a key missing, or of another type, reads as missing (false)
    local held = redis.pcall('GET', key)
    if type(held) ~= 'string' then return false end
    return held
end
local function digest(held)  -- of a value (false: none)
    if not held then return '' end
    return redis.sha1hex(held)
end
local function renew(key, ttl)  -- renewed once a hundredth of it (at most a day) has run
    if redis.call('TTL', key) < ttl - math.min(86400, math.floor(ttl / 100)) then
        redis.call('EXPIRE', key, ttl)
    end
end
local function repaired(command, key, ...)  -- a key of another type is damage: dropped
    local answer = redis.pcall(command, key, ...)
    if type(answer) == 'table' and answer.err then
        redis.call('DEL', key)
        answer = redis.call(command, key, ...)
    end
    return answer
end
local function filed(key, ttl)  -- the player's results not yet folded: {1, id, result, ...}
    if repaired('HLEN', key) == 0 then return {1} end
    renew(key, ttl)
    local reply = redis.call('HGETALL', key)
    table.insert(reply, 1, 1)
    return reply
end
"""
"""Shared by the scripts. Each ``redis.call`` costs the server about as much as a command of
its own, so a key's type is learnt from the command's answer, not asked first; and a time to
live is renewed only once it has run down a little (``EXPIRE`` costs several times a ``TTL``:
a tap renewing three keys spent 40 % of its script on it). A key written by a change thus
expires between ``ttl`` and ``ttl`` less a day (or a hundredth of ``ttl``) after it."""


@dataclass(frozen=True, slots=True)
class Script:
    """A script's text and its SHA-1 (``EVALSHA``; the text is sent when a node lacks it)."""

    name: str
    text: str

    @property
    def sha(self) -> str:
        return hashlib.sha1(self.text.encode("utf-8")).hexdigest()

    async def run(self, client: Any, keys: list[str], args: list[Any]) -> Any:
        """Run on the node of ``keys`` (a plain or a cluster client): ``EVALSHA``, then
        ``EVAL`` when the node has not seen the script yet (after a restart). A node that
        answers ``NOSCRIPT`` ran nothing, so sending the text is no second run."""
        try:
            return await client.execute_command("EVALSHA", self.sha, len(keys), *keys, *args)
        except NoScriptError:
            return await client.execute_command("EVAL", self.text, len(keys), *keys, *args)

    async def run_each(self, client: Any, calls: list[tuple[list[str], list[Any]]]) -> list[Any]:
        """Run once per (keys, args) in one pipeline (on a cluster, each on its own node);
        the answers in order.

        :raises ResponseError: the first error a call answered.
        """
        answers = await pipelined(client, [("EVALSHA", self.sha, len(k), *k, *a) for k, a in calls])
        missing = [i for i, answer in enumerate(answers) if isinstance(answer, NoScriptError)]
        again = await pipelined(
            client,
            [("EVAL", self.text, len(calls[i][0]), *calls[i][0], *calls[i][1]) for i in missing],
        )
        for i, answer in zip(missing, again, strict=True):
            answers[i] = answer
        for answer in answers:
            if isinstance(answer, Exception):
                raise answer
        return answers


WRITE_GAME: Final = Script(
    "write_game",
    HELPERS
    + """
-- KEYS: session, game, recent, all, stats, pending, replays (one player's), this write's fence
-- ARGV: digests of session, game and stats as read ('-': stats not read for this),
--       game JSON, code, updated_ms, '1' when playing, ttl, max games, game key prefix,
--       stats JSON ('' keeps it), result id and JSON ('' when none),
--       replay id and its summary JSON ('' when none), max replays
if redis.call('EXISTS', KEYS[8]) == 1 then return {2} end
local session, game = value(KEYS[1]), value(KEYS[2])
local stats = ARGV[3] ~= '-' and value(KEYS[5])
if digest(session) ~= ARGV[1] or digest(game) ~= ARGV[2]
        or (ARGV[3] ~= '-' and digest(stats) ~= ARGV[3]) then
    if ARGV[3] == '-' then stats = value(KEYS[5]) end
    return {0, session, game, stats}
end
local ttl, code, at = tonumber(ARGV[8]), ARGV[5], ARGV[6]
if ARGV[2] == '' then  -- a game the player has not kept: make room under the cap
    local over = repaired('ZCARD', KEYS[4]) - tonumber(ARGV[9]) + 1
    if over > 0 then
        local gone = redis.call('ZRANGE', KEYS[4], 0, over - 1)
        for _, old in ipairs(gone) do redis.call('DEL', ARGV[10] .. old) end
        redis.call('ZREM', KEYS[4], unpack(gone))
        repaired('ZREM', KEYS[3], unpack(gone))
    end
end
redis.call('SET', KEYS[2], ARGV[4], 'EX', ttl)
repaired('ZADD', KEYS[4], at, code)
renew(KEYS[4], ttl)
if ARGV[7] == '1' then
    repaired('ZADD', KEYS[3], at, code)
    renew(KEYS[3], ttl)
else
    repaired('ZREM', KEYS[3], code)
end
renew(KEYS[1], ttl)
if ARGV[11] ~= '' then redis.call('SET', KEYS[5], ARGV[11], 'EX', ttl) end
if ARGV[12] ~= '' then repaired('HSET', KEYS[6], ARGV[12], ARGV[13]) end
local gone = {}
if ARGV[14] ~= '' then  -- list the replay; past the cap, the ones that ended first go
    repaired('HSET', KEYS[7], ARGV[14], ARGV[15])
    renew(KEYS[7], ttl)
    local cap = tonumber(ARGV[16])
    if redis.call('HLEN', KEYS[7]) > cap then
        local held, all = {}, redis.call('HGETALL', KEYS[7])
        for i = 1, #all, 2 do
            if all[i] ~= ARGV[14] then
                local ok, data = pcall(cjson.decode, all[i + 1])
                local ended = ok and type(data) == 'table' and tonumber(data.ended_ms) or -1
                table.insert(held, {ended, all[i]})
            end
        end
        table.sort(held, function(a, b)
            if a[1] ~= b[1] then return a[1] < b[1] end
            return a[2] < b[2]
        end)
        for i = 1, #held - cap + 1 do table.insert(gone, held[i][2]) end
        if #gone > 0 then redis.call('HDEL', KEYS[7], unpack(gone)) end
    end
end
local reply = {1, #gone}
for _, ident in ipairs(gone) do table.insert(reply, ident) end
if repaired('HLEN', KEYS[6]) == 0 then return reply end
renew(KEYS[6], ttl)
for _, held in ipairs(redis.call('HGETALL', KEYS[6])) do table.insert(reply, held) end
return reply
""",
)
"""Write a decided game change: the game, both sets, the statistics document, the deal
result still to fold, and the player's list of replays (the replay itself is written in its
own slot just before, see :mod:`app.store.redis.keys`). Answers
``{1, n, gone_1 … gone_n, id, result, id, result, …}``: the ``n`` replay ids that left the
list past its cap (their replays to delete in their own slots), then every result of the
player not folded yet; ``{0, session, game, stats}`` with the values the keys hold now when
one that was read changed meanwhile (``nil`` for none), so the change is decided again
without reading; ``{2}`` when the write was fenced (:data:`CONFIRM`) and must never land."""


CONFIRM: Final = Script(
    "confirm",
    HELPERS
    + """
-- KEYS: the game, the write's fence, pending (one player's); ARGV: the write's id, the
-- fence's time to live, the store's
local game = value(KEYS[1])
if game and string.find(game, '"' .. ARGV[1] .. '"', 1, true) then
    local reply = filed(KEYS[3], tonumber(ARGV[3]))
    table.insert(reply, 2, 0)  -- as WRITE_GAME answers: no replay ids (they expire)
    return reply
end
redis.call('SET', KEYS[2], '1', 'EX', ARGV[2])
return {0}
""",
)
"""Ask, after a write's answer was lost, whether it landed: ``{1, 0, id, result, …}`` as
:data:`WRITE_GAME` answers when the game's value names the write (among its last writes),
else ``{0}`` — and then the write's fence is set, so the write, if it is still on its way
(queued in a paused server, held in the network), refuses itself when it arrives. One
script: no write can land between the question and the fence."""


SAVE_SESSION: Final = Script(
    "save_session",
    HELPERS
    + """
-- KEYS: session; ARGV: its digest as read, the JSON, the idle ttl, the store's ttl
if digest(value(KEYS[1])) ~= ARGV[1] then return 0 end
local left = redis.call('TTL', KEYS[1])
local ttl = math.min(math.max(tonumber(ARGV[3]), left), tonumber(ARGV[4]))
redis.call('SET', KEYS[1], ARGV[2], 'EX', ttl)
return 1
""",
)
"""Write a session read before (its creation time kept); it lives a day, or as long as a
game already keeps it."""


FOLD_DEAL: Final = Script(
    "fold_deal",
    HELPERS
    + """
-- KEYS: the deal's figures and its folded ids; ARGV: the figures' digest as read, the
-- result id, the new figures' JSON, the ttl
if redis.pcall('SISMEMBER', KEYS[2], ARGV[2]) == 1 then return 2 end
if digest(value(KEYS[1])) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[3], 'EX', ARGV[4])
repaired('SADD', KEYS[2], ARGV[2])
redis.call('EXPIRE', KEYS[2], ARGV[4])
return 1
""",
)
"""Add one result to a deal's figures unless it was added before: ``1`` added, ``2`` added
before (a retry), ``0`` the figures changed since they were read (read and fold again)."""


CHECKED_SET: Final = Script(
    "checked_set",
    HELPERS
    + """
-- KEYS: one key; ARGV: its digest as read, the new value, its time to live in milliseconds
if digest(value(KEYS[1])) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
""",
)
"""Write one key unless it changed since it was read: a rate limit's bucket."""


LIST_GAMES: Final = Script(
    "list_games",
    """
-- KEYS: a sorted set of one player's codes; ARGV: the game key prefix, how many, '1' to
-- remove codes whose game is gone. Answers code, score, game JSON for the newest entries
-- (every entry tied with the last one included: the caller orders ties by code).
if redis.call('TYPE', KEYS[1]).ok ~= 'zset' then return {} end
local limit, tidy = tonumber(ARGV[2]), ARGV[3] == '1'
while true do
    local entries = redis.call('ZREVRANGE', KEYS[1], 0, limit - 1, 'WITHSCORES')
    if #entries == 2 * limit then
        local last = entries[#entries]
        local tied = redis.call('ZRANGEBYSCORE', KEYS[1], last, last)
        local have = {}
        for i = 1, #entries, 2 do have[entries[i]] = true end
        for _, code in ipairs(tied) do
            if not have[code] then
                table.insert(entries, code)
                table.insert(entries, last)
            end
        end
    end
    local reply, gone = {}, {}
    for i = 1, #entries, 2 do
        local game = redis.pcall('GET', ARGV[1] .. entries[i])
        if type(game) == 'string' then
            table.insert(reply, entries[i])
            table.insert(reply, entries[i + 1])
            table.insert(reply, game)
        else
            table.insert(gone, entries[i])
        end
    end
    if not tidy or #gone == 0 then return reply end
    redis.call('ZREM', KEYS[1], unpack(gone))
    if #entries < 2 * limit then return reply end
end
""",
)
"""One player's newest games of a set, in one round trip: the home page's lists."""


REPLACE_IF: Final = Script(
    "replace_if",
    HELPERS
    + """
-- KEYS: one key; ARGV: its digest as read, the new value ('' deletes it), its time to live
if digest(value(KEYS[1])) ~= ARGV[1] then return 0 end
if ARGV[2] == '' then
    redis.call('DEL', KEYS[1])
else
    redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
end
return 1
""",
)
"""Replace (or delete) one key unless it changed since it was read: a statistics reset."""


TAKE_LEASE: Final = Script(
    "take_lease",
    HELPERS
    + """
-- KEYS: the lease; ARGV: the holder, its time in milliseconds. Taken when missing (Redis
-- deleted it when its time ran out) or damaged, renewed when the holder holds it.
local held = value(KEYS[1])
if held and held ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
""",
)
"""A lease taken or renewed by its holder (``1``), or held by another (``0``)."""


DROP_LEASE: Final = Script(
    "drop_lease",
    HELPERS
    + """
-- KEYS: the lease; ARGV: the holder. Deleted only when this holder holds it.
if value(KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1
""",
)
"""A lease released by its holder (``1``); another's is left alone (``0``)."""
