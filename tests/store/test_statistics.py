"""Statistics are counted in the transaction that writes the game (issue 16), exactly once:
the same rules for every store, then the races (threads on one store, two stores on one file
or one Redis)."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from app.clock import now_ms
from app.engine.codes import encode_number
from app.store import MemoryStore, SessionData, Store, StoredGame, counting
from app.store.bounds import Bounds
from app.store.counting import count, empty_kind, normal
from app.store.marks import Marks
from app.store.redis import RedisStore
from app.store.settling import Written, settle
from app.store.sqlite import SQLiteStore
from app.store.sync import SyncStore

HM = "HM1-N-AAAAAAB"
HM2 = "HM1-N-AAAAAAC"
SH = "SH1-C4-AAAAAJ2"


def kind_of(code: str) -> str:
    """What the web layer names a game's kind (the game registry's: the game's letters, with
    the variant where the game has several)."""
    game, variant = code.split("-")[:2]
    return game[:-1] if variant == "N" else f"{game[:-1]}-{variant}"


def stored(
    code: str, state: str = "playing", moves: int = 1, ms: int = 0, score: int = 0, at: int = 1000
) -> StoredGame:
    record: dict[str, Any] = {"code": code, "clock": [ms, None if state != "playing" else at]}
    return StoredGame(code, record, state, score, moves, at, kind=kind_of(code))


def write(store: Store, sid: str, game: StoredGame) -> StoredGame:
    """Save ``game`` as a screen does (a change that returns it); what was written."""
    store.change_game(sid, game.code, lambda _s, _g: (game, None))
    written = store.load(sid, game.code)[1]
    assert written is not None
    return written


def figures(store: Store, sid: str, kind: str = "HM") -> dict[str, int]:
    doc = store.player_stats(sid)
    assert doc is not None
    return counting.figures(normal(doc), kind)


def test_a_game_written_without_a_kind_is_not_counted(store: Store) -> None:
    """The store names no game: what a game counts as comes with the game the web writes."""
    write(store, "p", dataclasses.replace(stored(HM, moves=3), kind=None))
    assert store.player_stats("p") is None
    assert write(store, "p", stored(HM, moves=4)).marks.counted == "open"
    assert list(figures_doc(store, "p")["k"]) == ["HM"]  # only the kinds the games named


def figures_doc(store: Store, sid: str) -> dict[str, Any]:
    doc = store.player_stats(sid)
    assert doc is not None
    return doc


def test_a_deal_only_opened_is_not_played(store: Store) -> None:
    write(store, "p", stored(HM, moves=0))
    assert store.player_stats("p") is None


def test_the_first_move_counts_a_game_as_played_and_lists_it(store: Store) -> None:
    game = write(store, "p", stored(HM, moves=1, at=5000))
    assert game.marks == Marks(counted="open")
    assert figures(store, "p") == {**empty_kind(), "played": 1}  # nothing else counted yet
    doc = store.player_stats("p")
    assert doc is not None
    assert doc["recent"] == [
        {"code": HM, "r": "playing", "ms": 0, "moves": 1, "score": 0, "at": 5000}
    ]
    assert doc["open"] == {"HM": HM}
    write(store, "p", stored(HM, moves=2))  # more moves: nothing more to count
    assert figures(store, "p")["played"] == 1


def test_a_win_counts_once_with_its_time_moves_and_score(store: Store) -> None:
    write(store, "p", stored(HM, moves=1))
    won = stored(HM, "won", moves=48, ms=90_000, score=520, at=9000)
    assert write(store, "p", won).marks == Marks(counted="done", result="won")
    write(store, "p", won)  # the same finishing tap again (a retry, another tab)
    assert figures(store, "p") == {
        "played": 1,
        "won": 1,
        "lost": 0,
        "streak": 1,
        "best_streak": 1,
        "best_ms": 90_000,
        "fewest": 48,
        "best_score": 520,
    }
    assert store.deal_stats(HM) == {
        "players": 1,
        "wins": 1,
        "best_ms": 90_000,
        "fewest": 48,
        "cells": {"48.18": 1},  # 48 moves, 90 s: the 5-second bucket 18 (issue 26)
    }
    doc = store.player_stats("p")
    assert doc is not None
    assert doc["recent"][0] == {
        "code": HM,
        "r": "won",
        "ms": 90_000,
        "moves": 48,
        "score": 520,
        "at": 9000,
    }
    assert doc["open"] == {}


def test_undo_after_the_end_and_a_later_win_count_nothing_more(store: Store) -> None:
    write(store, "p", stored(HM, moves=1))
    write(store, "p", stored(HM, "stuck", moves=20, score=100))
    write(store, "p", stored(HM, moves=19))  # undone: playing again
    write(store, "p", stored(HM, "won", moves=48, score=520))
    f = figures(store, "p")
    assert (f["played"], f["won"], f["lost"], f["best_score"]) == (1, 0, 1, 100)
    assert store.deal_stats(HM) == {
        "players": 1,
        "wins": 0,
        "best_ms": 0,
        "fewest": 0,
        "cells": {},
    }


def test_a_new_game_of_the_same_kind_abandons_the_open_one(store: Store) -> None:
    write(store, "p", stored(HM, moves=3))
    write(store, "p", stored(SH, moves=1))  # another game: HM stays open
    assert figures(store, "p")["lost"] == 0
    write(store, "p", stored(HM2, moves=1))
    f = figures(store, "p")
    assert (f["played"], f["won"], f["lost"]) == (2, 0, 1)
    doc = store.player_stats("p")
    assert doc is not None
    assert [(e["code"], e["r"]) for e in doc["recent"]] == [
        (HM2, "playing"),
        (SH, "playing"),
        (HM, "abandoned"),
    ]
    # coming back to the abandoned game and winning it counts nothing more
    write(store, "p", stored(HM, moves=4))
    write(store, "p", stored(HM, "won", moves=48, score=520))
    f = figures(store, "p")
    assert (f["played"], f["won"], f["lost"]) == (2, 0, 1)
    assert store.deal_stats(HM) is None  # an abandoned game is not in the deal's figures
    assert store.load("p", HM)[1].marks == Marks(counted="done", result="abandoned")  # type: ignore[union-attr]


def test_streaks_best_time_and_fewest_moves(store: Store) -> None:
    for i, (state, ms, moves) in enumerate(
        [("won", 80_000, 48), ("won", 70_000, 48), ("stuck", 5_000, 10), ("won", 95_000, 48)]
    ):
        code = f"HM1-N-AAAAAB{'ABCD'[i]}"
        write(store, "p", stored(code, moves=1))
        write(store, "p", stored(code, state, moves=moves, ms=ms, score=moves * 10))
    f = figures(store, "p")
    assert f == {
        "played": 4,
        "won": 3,
        "lost": 1,
        "streak": 1,
        "best_streak": 2,
        "best_ms": 70_000,
        "fewest": 48,
        "best_score": 480,
    }


def test_the_deal_figures_count_each_player_once(store: Store) -> None:
    for sid, state, ms, moves in [
        ("a", "won", 80_000, 48),
        ("b", "stuck", 3_000, 9),
        ("c", "won", 60_000, 48),
    ]:
        write(store, sid, stored(HM, moves=1))
        write(store, sid, stored(HM, state, moves=moves, ms=ms))
        write(store, sid, stored(HM, state, moves=moves, ms=ms))
    assert store.deal_stats(HM) == {
        "players": 3,
        "wins": 2,
        "best_ms": 60_000,
        "fewest": 48,
        "cells": {"48.12": 1, "48.16": 1},
    }


def test_a_reset_forgets_the_figures_and_an_open_game_counts_when_it_ends(store: Store) -> None:
    write(store, "p", stored(HM, moves=1))
    write(store, "p", stored(HM, "won", moves=48))
    write(store, "p", stored(HM2, moves=1))
    store.reset_stats("p")
    assert figures(store, "p") == empty_kind()  # only the deals counted stay (issue 23)
    write(store, "p", stored(HM2, "won", moves=48, ms=1000))
    f = figures(store, "p")
    assert (f["played"], f["won"], f["best_ms"]) == (1, 1, 1000)


def test_a_daily_deal_won_on_days_in_a_row_makes_a_daily_streak(store: Store) -> None:
    for i, day in enumerate(["2026-12-01", "2026-12-02", "2026-12-04", "2026-12-05"]):
        code = f"HM1-N-AAAAAC{'ABCD'[i]}"
        start = stored(code, moves=1)
        write(store, "p", dataclasses.replace(start, marks=Marks(daily=day)))
        write(store, "p", stored(code, "won", moves=48))
    doc = store.player_stats("p")
    assert doc is not None
    assert doc["daily"] == {
        "last": "2026-12-05",
        "streak": 2,
        "best": 2,
        "days": ["2026-12-01", "2026-12-02", "2026-12-04", "2026-12-05"],
    }


def test_the_document_stays_small_after_many_games(store: Store) -> None:
    for i in range(300):
        code = f"HM1-N-{encode_number(1000 + i)}"
        write(store, "p", stored(code, moves=1, at=i))
    doc = store.player_stats("p")
    assert doc is not None
    assert len(doc["recent"]) == 20 and len(doc["gone"]) <= 100


def test_counting_is_a_function_of_what_is_stored() -> None:
    """Redis may run a change twice: the same inputs give the same outputs."""
    new = stored(HM, "won", moves=48, ms=5)
    assert count(None, None, new) == count(None, None, new)


def test_settling_a_change_reads_the_counts_only_when_it_counts() -> None:
    """The one carry → count → fold → make-room sequence every store runs (issue 25)."""
    reads: list[str] = []

    def counts() -> tuple[Any, Any]:
        reads.append("read")
        return None, {"players": 2, "wins": 1, "best_ms": 9000, "fewest": 50}

    opened = stored(HM, moves=0)
    assert settle(None, opened, counts) == Written(opened, None, None, True)
    assert reads == []  # a deal only opened counts nothing: nothing read
    played = settle(opened, stored(HM, moves=1), counts)
    assert (played.game.marks, played.deal, played.created, reads) == (
        Marks(counted="open"),
        None,
        False,
        ["read"],
    )
    won = settle(played.game, stored(HM, "won", moves=48, ms=7000), counts)
    assert won.game.marks == Marks(counted="done", result="won")
    assert won.deal == {
        "players": 3,
        "wins": 2,
        "best_ms": 7000,
        "fewest": 48,
        "cells": {"48.1": 1},
    }
    assert won.stats is not None and won.stats["k"]["HM"]["won"] == 1
    again = settle(won.game, stored(HM, "won", moves=48, ms=7000), counts)
    assert (again.stats, again.deal, len(reads)) == (None, None, 2)  # counted once


# --- races ---------------------------------------------------------------------------------


def finish_together(stores: list[Store], sid: str, threads: int = 8) -> None:
    """``threads`` writers (two tabs, retried taps, two instances) finish one game at once."""
    write(stores[0], sid, stored(HM, moves=1))
    start = threading.Barrier(threads)
    errors: list[BaseException] = []

    def finish(store: Store) -> None:
        try:
            start.wait()
            store.change_game(
                sid, HM, lambda _s, _g: (stored(HM, "won", moves=48, ms=7000, score=520), None)
            )
        except BaseException as exc:
            errors.append(exc)

    workers = [
        threading.Thread(target=finish, args=(stores[i % len(stores)],)) for i in range(threads)
    ]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert errors == []
    f = figures(stores[0], sid)
    assert (f["played"], f["won"], f["streak"]) == (1, 1, 1)
    assert stores[0].deal_stats(HM) == {
        "players": 1,
        "wins": 1,
        "best_ms": 7000,
        "fewest": 48,
        "cells": {"48.1": 1},
    }


def test_many_tabs_finishing_one_game_count_it_once(store: Store) -> None:
    finish_together([store], "p")


def test_two_sqlite_stores_on_one_file_count_a_game_once(tmp_path: Path) -> None:
    stores: list[Store] = [SyncStore(SQLiteStore(str(tmp_path / "g.db"))) for _ in range(2)]
    finish_together(stores, "p")
    for s in stores:
        s.close()


def test_two_redis_stores_count_a_game_once(redis_url: str, redis_client: Any) -> None:
    stores: list[Store] = [SyncStore(RedisStore(redis_url)), SyncStore(RedisStore(redis_url))]
    finish_together(stores, "p", threads=12)
    for s in stores:
        s.close()


def test_async_changes_count_once_too(store: Store) -> None:
    write(store, "p", stored(HM, moves=1))

    async def main() -> None:
        won = stored(HM, "won", moves=48, ms=7000)
        await asyncio.gather(
            *(store.store.change_game("p", HM, lambda _s, _g: (won, None)) for _ in range(6))
        )
        doc = await store.store.player_stats("p")
        assert doc is not None and doc["k"]["HM"]["won"] == 1
        assert await store.store.deal_stats(HM) == {
            "players": 1,
            "wins": 1,
            "best_ms": 7000,
            "fewest": 48,
            "cells": {"48.1": 1},
        }
        await store.store.close()

    with ThreadPoolExecutor(1) as pool:  # a loop of its own (browser tests leave one)
        pool.submit(asyncio.run, main()).result()


def test_statistics_and_deal_figures_are_swept_with_old_games(tmp_path: Path) -> None:
    for store in (SyncStore(MemoryStore()), SyncStore(SQLiteStore(str(tmp_path / "s.db")))):
        write(store, "p", stored(HM, moves=1, at=1000))
        write(store, "p", stored(HM, "won", moves=48, at=2000))
        store.sweep(1500)
        assert store.player_stats("p") is not None and store.deal_stats(HM) is not None
        store.sweep(2500)
        assert store.player_stats("p") is None and store.deal_stats(HM) is None
        store.close()


def test_a_device_link_names_one_player_until_revoked(store: Store) -> None:
    store.save_link("p", "hash-1")
    assert store.link_owner("hash-1") == "p"
    store.save_link("p", "hash-2")  # a new link replaces the old one
    assert (store.link_owner("hash-1"), store.link_owner("hash-2")) == (None, "p")
    assert store.revoke_link("p", "q") == "q"
    assert (store.link_owner("hash-2"), store.has_link("p"), store.has_link("q")) == (
        None,
        False,
        False,
    )


def test_a_device_link_is_swept_like_an_expired_game(tmp_path: Path) -> None:
    """A link lives as long as a game untouched since it was made (Redis: the same TTL)."""
    for store in (SyncStore(MemoryStore()), SyncStore(SQLiteStore(str(tmp_path / "s.db")))):
        store.save_link("p", "hash-1")
        made = now_ms()
        store.sweep(made - 60_000)  # younger than the cutoff: kept
        assert store.link_owner("hash-1") == "p" and store.has_link("p")
        store.sweep(made + 60_000)
        assert store.link_owner("hash-1") is None and not store.has_link("p")
        store.close()


def test_sessions_are_untouched_by_counting(store: Store) -> None:
    store.save_session("p", SessionData("tok"))
    write(store, "p", stored(HM, "won", moves=48))
    assert store.load("p")[0] == SessionData("tok")


def test_redis_statistics_keys_carry_the_games_time_to_live(
    redis_url: str, redis_client: Any
) -> None:
    store = SyncStore(RedisStore(redis_url, ttl_seconds=1000))
    write(store, "p", stored(HM, moves=1))
    write(store, "p", stored(HM, "won", moves=48))
    store.save_link("p", "hash-1")
    keys = ("sol:{p}:p", f"sol:d:{{{HM}}}", f"sol:d:{{{HM}}}:seen", "sol:l:hash-1", "sol:{p}:o")
    for key in keys:
        assert 990 <= redis_client.ttl(key) <= 1000, key
    store.close()


# --- issue 23: a deal's first result stays its result after its row is gone -------------------


def test_a_won_deal_pushed_out_of_the_game_cap_counts_nothing_when_played_again(
    store: Store,
) -> None:
    """Before: once 100 newer games pushed the won game out of the session, the same deal
    counted again (won 1 → 2, the deal's players + 1)."""
    store.bounds = Bounds(games=3)
    write(store, "p", stored(HM, moves=1))
    write(store, "p", stored(HM, "won", moves=48, ms=5000))
    for i in range(3):  # three newer games push the won one out
        write(store, "p", stored(f"HM1-N-{encode_number(500 + i)}", moves=0, at=2000 + i))
    assert store.load("p", HM)[1] is None
    write(store, "p", stored(HM, moves=1, at=3000))
    again = write(store, "p", stored(HM, "won", moves=48, ms=4000, at=3001))
    assert again.marks.counted == "done"
    f = figures(store, "p")
    assert (f["played"], f["won"], f["best_ms"]) == (1, 1, 5000)
    assert store.deal_stats(HM)["players"] == 1


def test_a_reset_does_not_let_a_deal_count_again(store: Store) -> None:
    store.bounds = Bounds(games=2)
    write(store, "p", stored(HM, moves=1))
    write(store, "p", stored(HM, "won", moves=48))
    store.reset_stats("p")
    for i in range(2):
        write(store, "p", stored(f"HM1-N-{encode_number(600 + i)}", moves=0, at=2000 + i))
    write(store, "p", stored(HM, moves=1, at=3000))
    write(store, "p", stored(HM, "won", moves=48, at=3001))
    assert figures(store, "p")["won"] == 0
    assert store.deal_stats(HM)["players"] == 1


def test_an_open_game_pushed_out_goes_on_and_counts_its_end_once(store: Store) -> None:
    store.bounds = Bounds(games=2)
    write(store, "p", stored(HM, moves=1))
    for i in range(2):
        write(store, "p", stored(f"HM1-N-{encode_number(700 + i)}", moves=0, at=2000 + i))
    write(store, "p", stored(HM, moves=1, at=3000))
    write(store, "p", stored(HM, "won", moves=48, at=3001))
    f = figures(store, "p")
    assert (f["played"], f["won"]) == (1, 1)


def test_the_counted_deals_are_bounded() -> None:
    import base64

    from app.store.fingerprints import FINGERPRINT, SEEN, was_counted

    doc: Any = None
    for i in range(SEEN + 10):
        new = stored(f"HM1-N-{encode_number(10_000 + i)}", moves=1, at=i)
        doc = count(doc, None, new)[1]
    data = normal(doc)
    assert len(base64.b64decode(data["seen"])) == SEEN * FINGERPRINT  # 8 KiB
    assert not was_counted(data, f"HM1-N-{encode_number(10_000)}")  # the oldest forgotten
    assert was_counted(data, f"HM1-N-{encode_number(10_000 + SEEN + 9)}")


@pytest.mark.parametrize("damaged", [1, "not base64!", "QUJD"])
def test_a_damaged_list_of_counted_deals_reads_as_empty(damaged: Any) -> None:
    assert normal({"seen": damaged})["seen"] == ""
