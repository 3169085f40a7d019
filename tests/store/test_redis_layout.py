"""The Redis key layout of issue 24 item 4: keys of the first layout moved at start-up, and
a deal's figures updated after the game's own write, once per result however often it is
folded."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from app.store import GameSummary, SessionData, StoredGame, StoreError
from app.store.marks import Marks
from app.store.redis import RedisStore
from app.store.redis import figures as deal_figures
from app.store.redis.records import result_id
from app.store.sync import SyncStore, portal
from tests.store.helpers import put

HM = "HM1-N-AAAAAAB"
TTL = 7_000_000


def _old_game(code: str, state: str, updated_ms: int, moves: int = 3) -> str:
    return json.dumps(
        {
            "record": {"n": updated_ms},
            "state": state,
            "score": 7,
            "moves": moves,
            "extra": {"counted": "open"},
            "updated_ms": updated_ms,
        }
    )


def write_first_layout(client: redis.Redis, sid: str = "p%1:x") -> dict[str, str]:
    """A player's keys as the version before wrote them (its id escaped its way), with
    times to live; returns the old name of each."""
    escaped = sid.replace("%", "%25").replace(":", "%3A")
    old = {
        "session": f"sol:s:{escaped}",
        "game": f"sol:g:{escaped}:{HM}",
        "won": f"sol:g:{escaped}:SH1-C4-AAAAAAB",
        "recent": f"sol:r:{escaped}",
        "all": f"sol:a:{escaped}",
        "stats": f"sol:p:{escaped}",
        "own": f"sol:o:{escaped}",
        "deal": "sol:d:SH1-C4-AAAAAAB",
    }
    session = {"token": "tok", "move_errors": False, "placement_help": True, "lang": "tr"}
    client.set(old["session"], json.dumps({**session, "created_ms": 5, "touched_ms": 6}), ex=TTL)
    client.set(old["game"], _old_game(HM, "playing", 200), ex=TTL)
    client.set(old["won"], _old_game("SH1-C4-AAAAAAB", "won", 100), ex=TTL)
    client.zadd(old["recent"], {HM: 200})
    client.zadd(old["all"], {HM: 200, "SH1-C4-AAAAAAB": 100})
    client.set(old["stats"], json.dumps({"k": {"SH-C4": {"played": 1, "won": 1}}}), ex=TTL)
    client.set(old["own"], "hash-1", ex=TTL)
    client.set("sol:l:hash-1", sid, ex=TTL)  # the link's own key keeps its name
    client.set(old["deal"], json.dumps({"players": 4, "wins": 2, "best_ms": 9, "fewest": 3}))
    for key in (old["recent"], old["all"]):
        client.expire(key, TTL)
    return old


def test_keys_of_the_first_layout_are_moved_at_start_up(redis_url: str, redis_client: Any) -> None:
    old = write_first_layout(redis_client)
    store = SyncStore(RedisStore(redis_url))
    try:
        sid = "p%1:x"
        assert store.load(sid, HM) == (
            SessionData("tok", placement_help=True, lang="tr"),
            StoredGame(HM, {"n": 200}, "playing", 7, 3, 200, Marks(counted="open")),
        )
        assert store.recent_games(sid) == [
            GameSummary(HM, "playing", 7, 3, 200, 0, Marks(counted="open"))
        ]
        assert [g.code for g in store.finished_games(sid)] == ["SH1-C4-AAAAAAB"]
        assert store.player_stats(sid) == {"k": {"SH-C4": {"played": 1, "won": 1}}}
        assert store.deal_stats("SH1-C4-AAAAAAB") == {
            "players": 4,
            "wins": 2,
            "best_ms": 9,
            "fewest": 3,
        }
        assert store.link_owner("hash-1") == sid and store.has_link(sid)
        assert not any(redis_client.exists(key) for key in old.values())
        assert sorted(redis_client.keys("*")) == [
            "sol:d:{SH1-C4-AAAAAAB}",
            "sol:l:hash-1",
            "sol:layout",
            "sol:{p%251%3Ax}:a",
            "sol:{p%251%3Ax}:g:HM1-N-AAAAAAB",
            "sol:{p%251%3Ax}:g:SH1-C4-AAAAAAB",
            "sol:{p%251%3Ax}:o",
            "sol:{p%251%3Ax}:p",
            "sol:{p%251%3Ax}:r",
            "sol:{p%251%3Ax}:s",
        ]
        for key in redis_client.keys("sol:{*"):
            assert TTL - 100 < redis_client.ttl(key) <= TTL, key  # times to live kept
        assert redis_client.ttl("sol:d:{SH1-C4-AAAAAAB}") == -1  # none before, none now
        assert redis_client.get("sol:layout") == "2"
    finally:
        store.close()


def test_a_second_start_up_moves_nothing_and_a_newer_key_is_kept(
    redis_url: str, redis_client: Any
) -> None:
    """A start-up that stopped half way (or another instance's, at the same time) left a key
    at both names: the new one was written by this version and wins; the old one goes."""
    old = write_first_layout(redis_client, sid="p")
    redis_client.set("sol:{p}:g:" + HM, _old_game(HM, "playing", 900))
    SyncStore(RedisStore(redis_url)).close()
    store = SyncStore(RedisStore(redis_url))
    try:
        assert store.load("p", HM)[1] == StoredGame(
            HM, {"n": 900}, "playing", 7, 3, 900, Marks(counted="open")
        )
        assert not redis_client.exists(old["game"])
        redis_client.set(old["session"], "written by an old instance after the move")
        SyncStore(RedisStore(redis_url)).close()  # the layout key says done: no scan
        assert redis_client.exists(old["session"])
    finally:
        store.close()


def test_the_migration_leaves_other_prefixes_and_this_layouts_keys_alone(
    redis_url: str, redis_client: Any
) -> None:
    redis_client.set("other:s:p", "x")
    redis_client.set("sol:v:position", "1")
    redis_client.set("sol:rl/x", "3")
    SyncStore(RedisStore(redis_url)).close()
    assert sorted(redis_client.keys("*")) == [
        "other:s:p",
        "sol:layout",
        "sol:rl/x",
        "sol:v:position",
    ]


# --- the deal's figures ------------------------------------------------------------------------


@pytest.fixture
def store(redis_url: str, redis_client: redis.Redis) -> Iterator[RedisStore]:
    made = SyncStore(RedisStore(redis_url))
    yield made
    made.close()


def _played(code: str = HM, at: int = 1000) -> StoredGame:
    return StoredGame(code, {"clock": [5000, None]}, "playing", 0, 1, at, kind="HM")


def _won(code: str = HM, at: int = 2000) -> StoredGame:
    return StoredGame(code, {"clock": [7000, None]}, "won", 520, 48, at, kind="HM")


def test_a_result_folded_twice_counts_once(store: RedisStore, redis_client: Any) -> None:
    put(store, "p", _played())
    put(store, "p", _won())
    figures = {"players": 1, "wins": 1, "best_ms": 7000, "fewest": 48, "cells": {"48.1": 1}}
    assert store.deal_stats(HM) == figures
    counted = result_id("p", _won())
    assert redis_client.smembers(f"sol:d:{{{HM}}}:seen") == {counted}
    # a retry of the fold (the first one's answer lost) finds the id and adds nothing
    entry = json.dumps({"code": HM, "won": True, "ms": 7000, "moves": 48})
    portal().call(deal_figures.fold, store.store, store.layout.player("p"), [(counted, entry)])
    assert store.deal_stats(HM) == figures
    assert not redis_client.exists("sol:{p}:q")


def test_a_fold_that_failed_is_done_by_the_players_next_change(
    store: RedisStore, redis_client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The deal's node did not answer after the game's write: the tap still succeeded, the
    result waits under the player's keys, and the next change (any game) folds it, once."""
    put(store, "p", _played())
    real = deal_figures._fold_one

    async def unreachable(*_args: Any) -> None:
        raise StoreError("the deal's node does not answer")

    monkeypatch.setattr(deal_figures, "_fold_one", unreachable)
    put(store, "p", _won())
    assert store.load("p", HM)[1] is not None and store.load("p", HM)[1].state == "won"
    assert store.deal_stats(HM) is None
    waiting = redis_client.hgetall("sol:{p}:q")
    assert list(waiting) == [result_id("p", _won())]
    assert json.loads(waiting[result_id("p", _won())]) == {
        "code": HM,
        "won": True,
        "ms": 7000,
        "moves": 48,
    }
    monkeypatch.setattr(deal_figures, "_fold_one", real)
    put(store, "p", _played("HM1-N-AAAAAAC", at=3000))
    assert store.deal_stats(HM) == {
        "players": 1, "wins": 1, "best_ms": 7000, "fewest": 48, "cells": {"48.1": 1}
    }  # fmt: skip
    assert not redis_client.exists("sol:{p}:q")
    put(store, "p", _played("HM1-N-AAAAAAC", at=4000))
    assert store.deal_stats(HM)["players"] == 1  # type: ignore[index]


def test_a_fold_that_failed_after_the_write_is_done_in_the_background(
    store: RedisStore, redis_client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34: the deal's figures are work after the game's commit. A fold that fails
    (the deal's node away for a moment) never makes the change fail — it was made — and it is
    not left to a next change the player may never make: it is tried again, and done."""
    put(store, "p", _played())
    real, failures = deal_figures._fold_one, [2]

    async def away_for_a_moment(*args: Any) -> None:
        if failures[0]:
            failures[0] -= 1
            raise StoreError("the deal's node does not answer")
        await real(*args)

    monkeypatch.setattr(deal_figures, "_fold_one", away_for_a_moment)
    assert store.change_game("p", HM, lambda _s, _g: (_won(), "made")) == "made"
    assert store.deal_stats(HM) is None  # not yet
    deadline = time.monotonic() + 10
    while store.deal_stats(HM) is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert store.deal_stats(HM) == {
        "players": 1, "wins": 1, "best_ms": 7000, "fewest": 48, "cells": {"48.1": 1}
    }  # fmt: skip
    assert failures == [0] and not redis_client.exists("sol:{p}:q")


def test_two_players_finishing_one_deal_are_both_counted(store: RedisStore, redis_url: str) -> None:
    other = SyncStore(RedisStore(redis_url))  # another instance
    try:
        for who, at in ((store, 1000), (other, 1500)):
            sid = f"p{at}"
            put(who, sid, _played(at=at))
            put(who, sid, _won(at=at + 1))
        assert store.deal_stats(HM) == {
            "players": 2, "wins": 2, "best_ms": 7000, "fewest": 48, "cells": {"48.1": 2}
        }  # fmt: skip
    finally:
        other.close()


def test_a_damaged_filed_result_is_dropped(store: RedisStore, redis_client: Any) -> None:
    redis_client.hset("sol:{p}:q", "x", "{not json")
    put(store, "p", _played())
    assert not redis_client.exists("sol:{p}:q")
    assert store.deal_stats(HM) is None
