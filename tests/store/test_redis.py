"""What only the Redis store promises: its keys, their time to live, optimistic retries,
damaged keys, and failures as StoreError."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from redis.crc import key_slot

from app.store import GameSummary, SessionData, StoredGame, StoreError
from app.store.marks import Marks
from app.store.redis import DEFAULT_TTL_SECONDS, MAX_ATTEMPTS, RedisStore
from app.store.sync import Portal, SyncStore
from tests.store.helpers import (
    MARKED,
    MARKED_EXTRA,
    assert_two_stores_lose_no_update,
    game,
    now_ms,
    put,
)
from tests.store.redis_server import start_redis_server, stop_redis_server

DAMAGED = StoredGame("HM-1", {}, "playing", 0, 0, 0)
"""How a game key that does not hold a game's JSON loads (as in the SQLite store)."""


@pytest.fixture
def store(redis_url: str, redis_client: redis.Redis) -> Iterator[RedisStore]:
    """A Redis store on an emptied database (``redis_client`` looks at its keys)."""
    made = SyncStore(RedisStore(redis_url))
    yield made
    made.close()


SENT_ONLY = ("mget", "evalsha", "eval", "watch", "multi", "exec", "unwatch", "hdel")
"""Commands the store sends that its scripts never run (the server's counts include the
commands scripts run)."""


def command_calls(client: redis.Redis) -> dict[str, int]:
    """Commands of :data:`SENT_ONLY` the server ran since the last ``CONFIG RESETSTAT``."""
    stats: dict[str, Any] = client.info("commandstats")
    return {
        name: int(fields["calls"])
        for name, fields in ((n.removeprefix("cmdstat_"), f) for n, f in stats.items())
        if name in SENT_ONLY
    }


# Keys and their contents.


def test_keys_hold_the_session_the_game_and_the_recent_set(
    store: RedisStore, redis_client: redis.Redis
) -> None:
    before = now_ms()
    store.save_session("s1", SessionData("tok", move_errors=True, lang="fr"))
    put(store, "s1", StoredGame("HM-1", {"n": 1}, "playing", 3, 4, 500, MARKED))
    put(store, "s1", StoredGame("SH-2", {"n": 2}, "won", 52, 9, 600))
    assert sorted(redis_client.keys("*")) == [
        "sol:layout",  # the keys have this layout (app/store/redis/migrate.py)
        "sol:{s1}:a",
        "sol:{s1}:g:HM-1",
        "sol:{s1}:g:SH-2",
        "sol:{s1}:r",
        "sol:{s1}:s",
    ]
    session = json.loads(redis_client.get("sol:{s1}:s") or "")
    assert session.pop("created_ms") == session.pop("touched_ms")
    assert session == {"token": "tok", "move_errors": True, "placement_help": False, "lang": "fr"}
    held = json.loads(redis_client.get("sol:{s1}:g:HM-1") or "")
    assert re.fullmatch("[0-9a-f]{16}", held.pop("w")[0])  # the write's id
    assert held == {
        "record": {"n": 1},
        "state": "playing",
        "score": 3,
        "moves": 4,
        "extra": MARKED_EXTRA,
        "updated_ms": 500,
    }
    assert redis_client.zrange("sol:{s1}:r", 0, -1, withscores=True) == [("HM-1", 500.0)]
    assert before <= json.loads(redis_client.get("sol:{s1}:s") or "")["touched_ms"] <= now_ms()


def test_saving_a_session_again_keeps_when_it_was_created(
    store: RedisStore, redis_client: redis.Redis
) -> None:
    store.save_session("s1", SessionData("tok"))
    first = json.loads(redis_client.get("sol:{s1}:s") or "")
    time.sleep(0.005)
    store.save_session("s1", SessionData("tok", lang="de"))
    second = json.loads(redis_client.get("sol:{s1}:s") or "")
    assert second["created_ms"] == first["created_ms"]
    assert second["touched_ms"] > first["touched_ms"]
    assert second["lang"] == "de"


def test_the_key_prefix_is_configurable(redis_url: str, redis_client: redis.Redis) -> None:
    other = SyncStore(RedisStore(redis_url, prefix="solitaire:test:"))
    default = SyncStore(RedisStore(redis_url))
    other.save_session("s1", SessionData("tok"))
    put(other, "s1", game("A", 1))
    assert sorted(redis_client.keys("*")) == [
        "sol:layout",
        "solitaire:test:layout",
        "solitaire:test:{s1}:a",
        "solitaire:test:{s1}:g:A",
        "solitaire:test:{s1}:r",
        "solitaire:test:{s1}:s",
    ]
    assert default.load("s1", "A") == (None, None)
    assert other.load("s1", "A") == (SessionData("tok"), game("A", 1))
    other.close()
    default.close()


def test_odd_characters_of_a_session_id_are_escaped_in_keys(
    store: RedisStore, redis_client: redis.Redis
) -> None:
    put(store, "a:b%c", game("X:Y"))
    assert sorted(redis_client.keys("*")) == [
        "sol:layout",
        "sol:{a%3Ab%25c}:a",
        "sol:{a%3Ab%25c}:g:X:Y",
        "sol:{a%3Ab%25c}:r",
    ]


# Round trips.


def test_a_load_is_one_mget(store: RedisStore, redis_client: redis.Redis) -> None:
    put(store, "s1", game("A"))
    redis_client.config_resetstat()
    store.load("s1", "A")
    assert command_calls(redis_client) == {"mget": 1}
    redis_client.config_resetstat()
    store.load("s1")
    assert command_calls(redis_client) == {"mget": 1}


def test_a_change_is_one_mget_and_one_script(store: RedisStore, redis_client: redis.Redis) -> None:
    """Two round trips: the read, then the write with its check (no WATCH, no MULTI)."""
    other = SyncStore(RedisStore(store.url))  # another worker wrote last
    put(other, "s1", game("A"))
    redis_client.config_resetstat()
    put(store, "s1", game("A", 1))
    assert command_calls(redis_client) == {"mget": 1, "evalsha": 1}
    other.close()


def test_a_change_of_a_game_this_worker_wrote_last_is_one_script(
    store: RedisStore, redis_client: redis.Redis
) -> None:
    """What the worker wrote is what it decides on: one round trip, the checked write."""
    put(store, "s1", game("A"))
    redis_client.config_resetstat()
    put(store, "s1", game("A", 1))
    put(store, "s1", game("A", 2))
    assert command_calls(redis_client) == {"evalsha": 2}
    assert store.load("s1", "A") == (None, game("A", 2))


def test_a_change_that_writes_nothing_is_checked_by_a_read(
    store: RedisStore, redis_client: redis.Redis, redis_url: str
) -> None:
    """Nothing written, nothing checked by the script: the worker's knowledge is checked by a
    read, and the change decided again when another worker wrote since."""
    other = SyncStore(RedisStore(redis_url))
    put(store, "s1", game("A", 1))
    redis_client.config_resetstat()
    assert store.change_game("s1", "A", lambda _s, g: (None, g)) == game("A", 1)
    assert command_calls(redis_client) == {"mget": 1}
    put(other, "s1", game("A", 5))
    seen: list[StoredGame | None] = []
    assert store.change_game("s1", "A", lambda _s, g: (seen.append(g), (None, g))[1]) == game(
        "A", 5
    )
    assert seen == [game("A", 1), game("A", 5)]
    other.close()


def test_a_refused_write_answers_what_the_keys_hold_now(
    store: RedisStore, redis_client: redis.Redis, redis_url: str
) -> None:
    """Another worker wrote since this one's last write: the script refuses and answers the
    values, the change is decided again on them and written — no read, no pause."""
    other = SyncStore(RedisStore(redis_url))
    put(store, "s1", game("A", 1))
    put(other, "s1", game("A", 5))
    redis_client.config_resetstat()
    seen: list[StoredGame | None] = []

    def plus_one(_s: SessionData | None, g: StoredGame | None) -> tuple[StoredGame, None]:
        seen.append(g)
        return game("A", (0 if g is None else g.record["n"]) + 1), None

    store.change_game("s1", "A", plus_one)
    assert seen == [game("A", 1), game("A", 5)]
    assert command_calls(redis_client) == {"evalsha": 2}
    assert store.load("s1", "A") == (None, game("A", 6))
    other.close()


def test_a_server_without_the_script_is_sent_its_text(
    store: RedisStore, redis_client: redis.Redis
) -> None:
    """After a restart (or SCRIPT FLUSH) the node knows no script: EVALSHA answers NOSCRIPT,
    which ran nothing, and the script's text follows once."""
    redis_client.script_flush()
    redis_client.config_resetstat()
    put(store, "s1", game("A", 1))
    assert command_calls(redis_client) == {"mget": 1, "evalsha": 1, "eval": 1}
    assert store.load("s1", "A") == (None, game("A", 1))


def test_one_players_keys_share_one_hash_slot(store: RedisStore, redis_client: redis.Redis) -> None:
    """What a cluster needs: every key a change touches is in the slot of ``{sid}``."""
    store.save_session("s1", SessionData("tok"))
    write_counted = StoredGame("HM1-N-AAAAAAB", {"n": 1}, "won", 10, 48, 500, kind="HM")
    put(store, "s1", StoredGame("HM1-N-AAAAAAB", {"n": 0}, "playing", 0, 1, 400, kind="HM"))
    put(store, "s1", write_counted)
    store.save_link("s1", "hash-1")
    own = list(redis_client.keys("sol:{s1}:*"))
    assert sorted(own) == [
        "sol:{s1}:a",
        "sol:{s1}:g:HM1-N-AAAAAAB",
        "sol:{s1}:o",
        "sol:{s1}:p",
        "sol:{s1}:s",
    ]  # the recent set is gone with the game's end, the filed result once folded
    assert {key_slot(k.encode()) for k in own} == {key_slot(b"s1")}
    deal = ["sol:d:{HM1-N-AAAAAAB}", "sol:d:{HM1-N-AAAAAAB}:seen"]
    assert all(redis_client.exists(k) for k in deal)
    assert {key_slot(k.encode()) for k in deal} == {key_slot(b"HM1-N-AAAAAAB")}


# Time to live, and why sweep has nothing to do.


def test_every_written_key_gets_the_stores_time_to_live(
    redis_url: str, redis_client: redis.Redis
) -> None:
    store = SyncStore(RedisStore(redis_url, ttl_seconds=1000))
    store.save_session("s1", SessionData("tok"))
    assert 990 < redis_client.ttl("sol:{s1}:s") <= 1000
    redis_client.expire("sol:{s1}:s", 50)
    put(store, "s1", game("A"))
    for key in ["sol:{s1}:s", "sol:{s1}:g:A", "sol:{s1}:r"]:
        assert 990 < redis_client.ttl(key) <= 1000, key  # a change renews the session too
    put(store, "s1", game("A", state="won"))
    assert redis_client.exists("sol:{s1}:r") == 0  # empty sorted sets vanish
    store.close()


def test_the_default_time_to_live_is_the_cookies_90_days(
    store: RedisStore, redis_client: redis.Redis
) -> None:
    assert store.ttl_seconds == DEFAULT_TTL_SECONDS == 90 * 24 * 3600
    put(store, "s1", game("A"))
    assert DEFAULT_TTL_SECONDS - 10 < redis_client.ttl("sol:{s1}:g:A") <= DEFAULT_TTL_SECONDS


@pytest.mark.slow
def test_redis_expires_abandoned_sessions_and_games_by_itself(
    redis_url: str, redis_client: redis.Redis
) -> None:
    store = SyncStore(RedisStore(redis_url, ttl_seconds=1))
    store.save_session("s1", SessionData("tok"))
    put(store, "s1", game("A"))
    assert store.sweep(now_ms() + 10_000) == 0  # nothing for the sweep to do
    assert store.load("s1", "A") == (SessionData("tok"), game("A"))
    deadline = time.monotonic() + 5
    while redis_client.dbsize() > 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert redis_client.keys("*") == ["sol:layout"]
    assert store.load("s1", "A") == (None, None)
    assert store.recent_games("s1") == []
    store.close()


def test_a_time_to_live_below_a_second_is_refused(redis_url: str) -> None:
    with pytest.raises(ValueError, match="ttl_seconds"):
        SyncStore(RedisStore(redis_url, ttl_seconds=0))


# The recent set.


def test_recent_games_drops_codes_whose_game_is_gone(
    store: RedisStore, redis_client: redis.Redis
) -> None:
    for i in range(12):
        put(store, "s1", game(f"G{i:02}", updated_ms=i))
    redis_client.delete(*(f"sol:{{s1}}:g:G{i:02}" for i in range(2, 12)))  # the newest ten expired
    assert store.recent_games("s1", limit=10) == [
        GameSummary("G01", "playing", 0, 0, 1),
        GameSummary("G00", "playing", 0, 0, 0),
    ]
    assert redis_client.zrange("sol:{s1}:r", 0, -1) == ["G00", "G01"]


def test_a_finished_game_leaves_the_recent_set(
    store: RedisStore, redis_client: redis.Redis
) -> None:
    put(store, "s1", game("A", updated_ms=1))
    put(store, "s1", game("B", updated_ms=2))
    put(store, "s1", game("A", state="stuck", updated_ms=3))
    assert redis_client.zrange("sol:{s1}:r", 0, -1) == ["B"]


# Optimistic concurrency.


def test_a_change_that_lost_the_race_runs_again_on_the_winners_game(
    store: RedisStore, redis_url: str
) -> None:
    other = SyncStore(RedisStore(redis_url), Portal("other"))  # another worker
    put(store, "s1", game("A", 1))
    seen: list[StoredGame | None] = []

    def plus_ten(_s: SessionData | None, g: StoredGame | None) -> tuple[StoredGame, int]:
        seen.append(g)
        if len(seen) == 1:  # the other worker writes between our read and our write
            put(other, "s1", game("A", 5))
        n = 0 if g is None else g.record["n"]
        return game("A", n + 10), len(seen)

    assert store.change_game("s1", "A", plus_ten) == 2  # the last call's result
    assert seen == [game("A", 1), game("A", 5)]
    assert store.load("s1", "A") == (None, game("A", 15))
    assert store.conflicts == 1
    other.close()


def test_a_change_of_the_session_meanwhile_also_means_again(
    store: RedisStore, redis_url: str
) -> None:
    other = SyncStore(RedisStore(redis_url), Portal("other"))
    store.save_session("s1", SessionData("old"))
    seen: list[SessionData | None] = []

    def note(s: SessionData | None, _g: StoredGame | None) -> tuple[StoredGame, None]:
        seen.append(s)
        if len(seen) == 1:
            other.save_session("s1", SessionData("new"))
        return game("A"), None

    store.change_game("s1", "A", note)
    assert seen == [SessionData("old"), SessionData("new")]
    other.close()


def test_a_change_that_always_loses_gives_up_with_a_store_error(
    store: RedisStore, redis_url: str
) -> None:
    other = SyncStore(RedisStore(redis_url), Portal("other"))
    calls = 0

    def always_overtaken(_s: SessionData | None, g: StoredGame | None) -> tuple[StoredGame, None]:
        nonlocal calls
        calls += 1
        put(other, "s1", game("A", calls))
        return game("A", -1), None

    with pytest.raises(StoreError, match=f"kept changing, gave up after {MAX_ATTEMPTS} attempts"):
        store.change_game("s1", "A", always_overtaken)
    assert calls == MAX_ATTEMPTS
    assert store.load("s1", "A") == (None, game("A", MAX_ATTEMPTS))  # never ours
    other.close()


@pytest.mark.slow
def test_two_redis_stores_lose_no_update(redis_url: str, redis_client: redis.Redis) -> None:
    """Two stores stand for two machines: only WATCH/MULTI keeps them in line."""

    assert_two_stores_lose_no_update(
        [SyncStore(RedisStore(redis_url)), SyncStore(RedisStore(redis_url))]
    )


# Damaged keys never raise.


@pytest.mark.parametrize(
    "value", ["{not json", "[1, 2]", '{"token": 5}', "null", "7", "", b"\xff\xfe{"]
)
def test_a_damaged_session_key_loads_as_no_session(
    store: RedisStore, redis_client: redis.Redis, value: str | bytes
) -> None:
    put(store, "s1", game("A"))
    redis_client.set("sol:{s1}:s", value)
    assert store.load("s1", "A") == (None, game("A"))
    seen: list[SessionData | None] = []
    store.change_game("s1", "A", lambda s, _g: (seen.append(s), (None, None))[1])
    assert seen[-1] is None  # decided last on the key as it is now


@pytest.mark.parametrize("value", ["{not json", "[1, 2]", '"text"', "null", "", b"\xff\xfe{"])
def test_a_damaged_game_key_loads_with_an_empty_record(
    store: RedisStore, redis_client: redis.Redis, value: str | bytes
) -> None:
    put(store, "s1", game("HM-1", 1, score=3, updated_ms=5))
    redis_client.set("sol:{s1}:g:HM-1", value)
    assert store.load("s1", "HM-1") == (None, DAMAGED)
    assert store.recent_games("s1") == [GameSummary("HM-1", "playing", 0, 0, 0)]
    seen: list[StoredGame | None] = []

    def repair(_s: SessionData | None, g: StoredGame | None) -> tuple[StoredGame, None]:
        seen.append(g)
        return game("HM-1", 2, updated_ms=6), None

    store.change_game("s1", "HM-1", repair)
    assert seen[-1] == DAMAGED  # decided last on the key as it is now
    assert store.load("s1", "HM-1") == (None, game("HM-1", 2, updated_ms=6))


def test_damaged_game_fields_load_as_defaults(store: RedisStore, redis_client: redis.Redis) -> None:
    redis_client.set(
        "sol:{s1}:g:HM-1",
        json.dumps(
            {
                "record": {"n": 1},
                "state": "odd",
                "score": "x",
                "moves": 1.5,
                "extra": "[",
                "updated_ms": True,
            }
        ),
    )
    assert store.load("s1", "HM-1") == (None, StoredGame("HM-1", {"n": 1}, "playing", 0, 0, 0))
    redis_client.set("sol:{s1}:g:HM-1", json.dumps({"record": [1], "state": ["won"], "extra": 5}))
    assert store.load("s1", "HM-1") == (None, DAMAGED)


def test_keys_of_the_wrong_type_read_as_missing_and_are_overwritten(
    store: RedisStore, redis_client: redis.Redis
) -> None:
    redis_client.hset("sol:{s1}:s", "token", "tok")
    redis_client.rpush("sol:{s1}:g:A", "x")
    redis_client.set("sol:{s1}:r", "not a sorted set")
    assert store.load("s1", "A") == (None, None)
    assert store.recent_games("s1") == []
    put(store, "s1", game("A", 1, updated_ms=7))
    assert store.load("s1", "A") == (None, game("A", 1, updated_ms=7))
    assert store.recent_games("s1") == [GameSummary("A", "playing", 0, 0, 7)]  # set rebuilt
    store.save_session("s1", SessionData("tok"))
    assert store.load("s1") == (SessionData("tok"), None)


def test_a_recent_entry_whose_game_key_has_another_type_is_dropped(
    store: RedisStore, redis_client: redis.Redis
) -> None:
    put(store, "s1", game("A", updated_ms=1))
    put(store, "s1", game("B", updated_ms=2))
    redis_client.delete("sol:{s1}:g:B")
    redis_client.rpush("sol:{s1}:g:B", "x")
    redis_client.zadd("sol:{s1}:r", {"ghost": 3})
    assert [g.code for g in store.recent_games("s1")] == ["A"]
    assert redis_client.zrange("sol:{s1}:r", 0, -1) == ["A"]


# Failures are StoreErrors.


def test_an_unreachable_server_is_a_store_error_without_the_password() -> None:
    with pytest.raises(StoreError, match="cannot reach the Redis store") as refused:
        SyncStore(RedisStore("redis://user:hunter2@127.0.0.1:1/0", socket_timeout=1))
    assert "hunter2" not in str(refused.value)
    assert "redis://user:***@127.0.0.1:1/0" in str(refused.value)


@pytest.mark.parametrize("url", ["redis://127.0.0.1:notaport/0", "redis://127.0.0.1:6379/db"])
def test_a_bad_url_is_a_store_error(url: str) -> None:
    with pytest.raises(StoreError, match=re.escape(url)):
        SyncStore(RedisStore(url))


def test_a_server_that_goes_away_is_a_store_error(tmp_path: Path) -> None:
    process, url = start_redis_server(tmp_path)
    store = SyncStore(RedisStore(url, socket_timeout=1))
    put(store, "s1", game("A", 1))
    stop_redis_server(process)
    port = url.rsplit(":", 1)[1].split("/")[0]
    with pytest.raises(StoreError, match=f"127.0.0.1:{port}"):
        store.load("s1", "A")
    with pytest.raises(StoreError):
        put(store, "s1", game("A", 2))
    with pytest.raises(StoreError):
        store.save_session("s1", SessionData("tok"))
    with pytest.raises(StoreError):
        store.recent_games("s1")
    store.close()


def test_a_connection_lost_during_a_change_is_not_retried(
    store: RedisStore, redis_client: redis.Redis
) -> None:
    """The write may have happened: applying the tap again could apply it twice."""
    put(store, "s1", game("A", 1))
    calls = 0

    def cut_off(_s: SessionData | None, g: StoredGame | None) -> tuple[StoredGame, None]:
        nonlocal calls
        calls += 1
        redis_client.client_kill_filter(_type="normal", skipme=True)  # the store's connection
        return game("A", 2), None

    with pytest.raises(StoreError, match="connection lost during a change"):
        store.change_game("s1", "A", cut_off)
    assert calls == 1
    assert store.load("s1", "A") == (None, game("A", 1))  # a new connection: usable again


def test_a_closed_store_refuses_use(store: RedisStore) -> None:
    store.close()
    for use in [
        lambda: store.load("s1"),
        lambda: store.save_session("s1", SessionData("tok")),
        lambda: put(store, "s1", game("A")),
        lambda: store.recent_games("s1"),
        lambda: store.sweep(0),
    ]:
        with pytest.raises(StoreError, match="closed"):
            use()


def test_damaged_recent_and_all_games_sets_list_nothing(
    store: RedisStore, redis_client: redis.Redis
) -> None:
    """A key where a sorted set belongs (written by something else) lists no games, for the
    home page's "Continue playing" and "Recently finished" alike, instead of failing."""
    put(store, "s1", StoredGame("HM-1", {"n": 1}, "playing", 0, 1, 500))
    put(store, "s1", StoredGame("SH-2", {"n": 2}, "won", 52, 9, 600))
    assert [g.code for g in store.recent_games("s1")] == ["HM-1"]
    assert [g.code for g in store.finished_games("s1")] == ["SH-2"]
    redis_client.set("sol:{s1}:r", "not a set")
    redis_client.set("sol:{s1}:a", "not a set")
    assert store.recent_games("s1") == []
    assert store.finished_games("s1") == []


def test_a_replay_is_its_own_key_listed_under_its_player_by_the_games_script(
    store: RedisStore, redis_client: redis.Redis
) -> None:
    """Issue 26: the replay by its id alone (``sol:Y:{id}``, its own slot: a link holds no
    session), the player's list of replays in the player's slot, written by the one script
    that writes the game that ended: the same round trips as an ending without a replay."""
    rid = "R" * 21 + "A"
    record = {"moves": "ae.bq", "clock": [9000, None]}
    calls = []
    at = now_ms()  # a replay that ended longer ago than the time to live is gone
    for sid, marks in (("s0", Marks()), ("s1", Marks()), ("s2", Marks(replay=rid))):
        put(store, sid, StoredGame("HM1-N-AAAAAAB", record, "playing", 0, 1, at - 100, kind="HM"))
        redis_client.config_resetstat()
        put(store, sid, StoredGame("HM1-N-AAAAAAB", record, "stuck", 20, 2, at, marks, kind="HM"))
        calls.append(command_calls(redis_client))
    assert calls[2] == calls[1]  # the replay's own SET is not counted: scripts run SETs too
    assert redis_client.ttl(f"sol:Y:{{{rid}}}") > 0
    assert json.loads(redis_client.get(f"sol:Y:{{{rid}}}"))["line"] == "ae.bq"
    listed = redis_client.hgetall("sol:{s2}:y")
    assert list(listed) == [rid] and "line" not in json.loads(listed[rid])
    assert redis_client.ttl("sol:{s2}:y") > 0
    assert not redis_client.exists("sol:{s1}:y")
    assert key_slot(b"sol:{s2}:y") == key_slot(b"s2")
    assert key_slot(f"sol:Y:{{{rid}}}".encode()) == key_slot(rid.encode())
    assert not store.delete_replay("s1", rid)  # another player's
    assert store.delete_replay("s2", rid)
    assert not redis_client.exists(f"sol:Y:{{{rid}}}") and not redis_client.exists("sol:{s2}:y")
