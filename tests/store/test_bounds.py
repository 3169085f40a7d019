"""Issue 17: what one session can keep — games per session capped (the oldest untouched give
way), sessions without a game gone within a day."""

from __future__ import annotations

from app.store import SessionData, Store
from app.store.base import SESSION_IDLE_SECONDS
from app.store.bounds import Bounds
from app.store.redis import RedisStore
from app.store.sync import SyncStore
from tests.store.helpers import game, now_ms, put


def codes(store: Store, sid: str, candidates: str) -> list[str]:
    return [c for c in candidates if store.load(sid, c)[1] is not None]


def test_a_new_game_past_the_cap_pushes_out_the_oldest_untouched(store: Store) -> None:
    store.bounds = Bounds(games=3)
    put(store, "s1", game("A", updated_ms=10))
    put(store, "s1", game("B", updated_ms=20))
    put(store, "s1", game("C", updated_ms=30))
    put(store, "s1", game("A", 1, updated_ms=40))  # A played again: B is now the oldest
    put(store, "s2", game("X", updated_ms=1))  # another session is not counted
    assert codes(store, "s1", "ABCD") == ["A", "B", "C"]
    put(store, "s1", game("D", updated_ms=50))
    assert codes(store, "s1", "ABCD") == ["A", "C", "D"]
    assert [g.code for g in store.recent_games("s1")] == ["D", "A", "C"]
    assert store.load("s2", "X")[1] == game("X", updated_ms=1)
    put(store, "s1", game("E", updated_ms=60))
    assert codes(store, "s1", "ABCDE") == ["A", "D", "E"]


def test_changing_a_game_already_kept_never_pushes_one_out(store: Store) -> None:
    store.bounds = Bounds(games=2)
    put(store, "s1", game("A", updated_ms=10))
    put(store, "s1", game("B", updated_ms=20))
    for n in range(5):
        put(store, "s1", game("A", n, updated_ms=30 + n))
    assert codes(store, "s1", "AB") == ["A", "B"]


def test_finished_games_count_and_give_way_too(store: Store) -> None:
    store.bounds = Bounds(games=2)
    put(store, "s1", game("W", state="won", updated_ms=10))
    put(store, "s1", game("B", updated_ms=20))
    put(store, "s1", game("C", updated_ms=30))
    assert codes(store, "s1", "WBC") == ["B", "C"]


def test_a_session_without_games_is_swept_after_a_day(sweeping_store: Store) -> None:
    store = sweeping_store
    store.save_session("lonely", SessionData("t1"))
    store.save_session("player", SessionData("t2"))
    put(store, "player", game("A", updated_ms=now_ms()))
    games_cutoff = now_ms() - 90 * 86_400_000
    assert store.sweep(games_cutoff, idle_cutoff_ms=now_ms() - 86_400_000) == 0  # not a day old
    assert store.sweep(games_cutoff, idle_cutoff_ms=now_ms() + 1000) == 1
    assert store.load("lonely") == (None, None)
    assert store.load("player")[0] == SessionData("t2")  # kept alive by its game


def test_redis_keeps_a_session_without_games_a_day_and_one_with_games_as_long_as_them(
    redis_url: str, redis_client
) -> None:
    store = SyncStore(RedisStore(redis_url, ttl_seconds=90 * 86_400))
    try:
        store.save_session("lonely", SessionData("t1"))
        assert 0 < redis_client.ttl("sol:{lonely}:s") <= SESSION_IDLE_SECONDS
        put(store, "lonely", game("A", updated_ms=now_ms()))
        assert redis_client.ttl("sol:{lonely}:s") > SESSION_IDLE_SECONDS
        store.save_session("lonely", SessionData("t1", lang="tr"))  # a setting later
        assert redis_client.ttl("sol:{lonely}:s") > SESSION_IDLE_SECONDS
    finally:
        store.close()


def test_the_cap_holds_for_changes_made_on_the_event_loop(store: Store) -> None:
    """The web layer changes games through ``change_game_async`` (Redis: its asyncio client)."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    store.bounds = Bounds(games=2)

    async def main() -> None:
        for code, updated in (("A", 10), ("B", 20), ("C", 30)):
            stored = game(code, updated_ms=updated)
            await store.store.change_game("s1", code, lambda _s, _g, g=stored: (g, None))

    with ThreadPoolExecutor(1) as pool:  # Playwright keeps a loop running in the main thread
        pool.submit(asyncio.run, main()).result()
    assert codes(store, "s1", "ABC") == ["B", "C"]
