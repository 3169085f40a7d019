"""Replays in every store (issue 26): written with the game change that ends a game, found by
their id alone, listed and deleted by their player only, bounded per session, expired with
the games; and each deal's wins as a bounded histogram, the same in every store."""

from __future__ import annotations

import json
import random
from typing import Any

from app.clock import now_ms
from app.engine.codes import DealCode
from app.engine.games import kind_of
from app.store import Store, StoredGame
from app.store.bounds import MAX_REPLAYS_PER_SESSION
from app.store.counting import DealResult
from app.store.histogram import MAX_CELLS, add, cell, cells_of, standing
from app.store.marks import Marks
from app.store.redis import DEFAULT_TTL_SECONDS, RedisStore
from app.store.replays import StoredReplay
from app.store.settling import fold_deal
from tests.store.helpers import footprint

HM = "HM1-N-AAAAAAB"
RID = "R" * 21 + "A"
"""A replay id as the web layer draws them: 22 URL-safe characters (128 bits)."""


def rid(n: int) -> str:
    return f"{n:022d}"


def game(
    state: str = "playing",
    moves: int = 1,
    ms: int = 4_000,
    at: int | None = None,
    replay: str | None = None,
    line: str = "ae",
    code: str = HM,
) -> StoredGame:
    record = {"code": code, "moves": line, "clock": [ms, None]}
    at = now_ms() if at is None else at
    kind = kind_of(DealCode.parse(code))  # as the web layer names it
    return StoredGame(code, record, state, moves * 10, moves, at, Marks(replay=replay), kind=kind)


def write(store: Store, sid: str, row: StoredGame) -> None:
    store.change_game(sid, row.code, lambda _s, _g: (row, None))


def test_the_footprint_counts_a_replay(store: Store) -> None:
    """``footprint`` (what tests of GETs compare) sees a replay in every store."""
    write(store, "p", game("stuck", moves=2, replay=None, line="ae.bq"))
    before = footprint(store)
    write(store, "p", game("stuck", moves=2, replay=RID, line="ae.bq"))
    # the replay (in Redis a key, and the player's list of replays, a key too)
    assert footprint(store) == before + (2 if isinstance(store.store, RedisStore) else 1)
    assert store.delete_replay("p", RID)
    assert footprint(store) == before


def test_a_game_that_ends_writes_its_replay_with_the_game(store: Store) -> None:
    write(store, "p", game(moves=1, replay=None))
    assert store.replay(RID) is None
    ended = game("stuck", moves=2, ms=65_000, replay=RID, line="ae.bq")
    write(store, "p", ended)
    replay = store.replay(RID)
    assert replay == StoredReplay(
        RID, HM, "stuck", 65_000, 2, 20, ended.updated_ms, "ae.bq"
    )  # the game as it ended: its line, result, time, moves, score and when
    assert store.player_replays("p") == [replay.summary]
    assert store.player_replays("q") == []


def test_a_replay_is_written_once_at_the_end_and_not_by_later_changes(store: Store) -> None:
    write(store, "p", game("won", moves=2, replay=RID, line="ae.bq"))
    write(store, "p", game("won", moves=3, replay=RID, line="ae.bq.cd"))  # still over
    replay = store.replay(RID)
    assert replay is not None and (replay.line, replay.moves) == ("ae.bq", 2)
    write(store, "p", game("playing", moves=1, replay=RID, line="ae"))  # undone: kept
    assert store.replay(RID) is not None


def test_a_game_that_never_ended_or_names_no_replay_writes_none(store: Store) -> None:
    write(store, "p", game("playing", moves=3, replay=RID))
    write(store, "p", game("won", moves=0, replay=rid(2), code="HM1-N-AAAAAAC"))
    write(store, "p", game("won", moves=2, replay="not-an-id", code="HM1-N-AAAAAAD"))
    write(store, "p", game("won", moves=2, replay=None, code="HM1-N-AAAAAAE"))
    assert store.player_replays("p") == []


def test_only_its_player_deletes_a_replay_and_then_nobody_finds_it(store: Store) -> None:
    write(store, "p", game("won", replay=RID))
    assert store.delete_replay("q", RID) is False
    assert store.replay(RID) is not None
    assert store.delete_replay("p", RID) is True
    assert store.replay(RID) is None and store.player_replays("p") == []
    assert store.delete_replay("p", RID) is False


def test_a_session_keeps_at_most_its_cap_of_replays_the_oldest_go_first(store: Store) -> None:
    at = now_ms() - 10_000
    for n in range(MAX_REPLAYS_PER_SESSION + 2):
        code = f"HM1-N-{''.join('ABCDEFGHIJ'[int(d)] for d in f'{n:07d}')}"
        write(store, "p", game("won", replay=rid(n), at=at + n, code=code))
    kept = store.player_replays("p")
    assert len(kept) == MAX_REPLAYS_PER_SESSION
    assert [r.id for r in kept][:2] == [
        rid(MAX_REPLAYS_PER_SESSION + 1),
        rid(MAX_REPLAYS_PER_SESSION),
    ]
    assert store.replay(rid(0)) is None and store.replay(rid(1)) is None
    assert store.replay(rid(2)) is not None


def test_the_async_calls_answer_as_the_blocking_ones(store: Store) -> None:
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    write(store, "p", game("won", replay=RID))

    async def main() -> tuple[Any, ...]:
        found = await store.store.replay(RID)
        listed = await store.store.player_replays("p")
        deleted = await store.store.delete_replay("p", RID)
        gone = await store.store.replay(RID)
        await store.store.close()
        return found, listed, deleted, gone

    with ThreadPoolExecutor(1) as pool:
        found, listed, deleted, gone = pool.submit(asyncio.run, main()).result()
    assert found is not None and listed == [found.summary] and deleted and gone is None


def test_the_sweep_deletes_replays_that_ended_before_the_cutoff(sweeping_store: Store) -> None:
    write(sweeping_store, "p", game("won", replay=RID, at=1_000))
    write(sweeping_store, "p", game("won", replay=rid(7), at=9_000, code="HM1-N-AAAAAAC"))
    sweeping_store.sweep(5_000)
    assert sweeping_store.replay(RID) is None
    assert sweeping_store.replay(rid(7)) is not None


EXPIRY_MS = DEFAULT_TTL_SECONDS * 1000
"""The games' expiry (90 days): the Redis store's time to live, the sweep's age for the others."""


def housekeep(store: Store) -> None:
    """What the application does every hour (app.services.housekeeping): sweep what is older
    than the expiry; Redis deletes by itself (its sweep deletes nothing)."""
    store.sweep(now_ms() - EXPIRY_MS)


def test_a_replay_older_than_the_expiry_is_gone_and_leaves_its_players_list(
    store: Store,
) -> None:
    """On every store: a replay that ended more than the expiry ago reads as None and is not
    listed, once the housekeeping ran (Redis: at once, by the age it reads — its key's time to
    live started when it was written), while a replay a minute younger than the expiry stays."""
    old, young = now_ms() - EXPIRY_MS - 60_000, now_ms() - EXPIRY_MS + 60_000
    write(store, "p", game("won", replay=RID, at=old))
    write(store, "p", game("stuck", replay=rid(7), at=young, code="HM1-N-AAAAAAC"))
    housekeep(store)
    assert store.replay(RID) is None
    assert [r.id for r in store.player_replays("p")] == [rid(7)]
    assert store.replay(rid(7)) is not None
    assert store.delete_replay("p", RID) is False


# --- the deals' figures: a bounded histogram of moves and time -------------------------------


def test_every_store_folds_a_deals_wins_into_the_same_cells(store: Store) -> None:
    for sid, ms in (("a", 250_000), ("b", 300_000), ("c", 250_400)):
        write(store, sid, game("playing", moves=1))
        write(store, sid, game("won", moves=48, ms=ms, replay=None))
    figures = store.deal_stats(HM)
    assert figures is not None
    assert figures["cells"] == {"48.37": 2, "48.42": 1}  # 250 s twice (10-second buckets), 300 s
    assert cell(48, 250_000) == cell(48, 250_400) == (48, 37)


def test_a_deals_figures_stay_bounded_whatever_its_number_of_players() -> None:
    """2,500 players, nearly every win a cell of its own: the cells stop at MAX_CELLS (a win
    past them joins the nearest cell), every win still counted."""
    draw = random.Random(26)
    figures: dict[str, Any] | None = None
    wins = 0
    for n in range(2_500):
        won = n % 7 != 0
        wins += won
        result = DealResult(won, draw.randrange(30_000, 3_000_000), draw.randrange(52, 600))
        figures = fold_deal(figures, result)
    assert figures is not None
    cells = cells_of(figures["cells"])
    assert len(cells) == MAX_CELLS
    assert sum(cells.values()) == figures["wins"] == wins
    assert figures["players"] == 2_500
    assert len(json.dumps(figures)) < 16_000


def test_a_win_stands_above_the_wins_in_worse_cells_and_half_of_its_own() -> None:
    data: dict[str, int] = {}
    for moves, ms in ((48, 100_000), (48, 200_000), (48, 200_500), (48, 400_000)):
        data = add(data, moves, ms)
    # by time: 200 s beats 400 s, and half of the other win in its own 10-second bucket;
    # the player's own win is left out of those it is compared with
    assert standing(data, 48, 200_000, by_moves=False, mine=(48, 200_000)) == (1.5, 3)
    assert standing(data, 48, 100_000, by_moves=False, mine=(48, 100_000)) == (3, 3)
    assert standing(data, 48, 90_000, by_moves=False, mine=(48, 100_000)) == (3, 3)
    assert standing(data, 48, 500_000, by_moves=False) == (0, 4)
    # fewer moves first, then time: 90 moves in 1,000 s beat 120 moves in 10 s
    by_moves = add(add({}, 90, 1_000_000), 120, 10_000)
    assert standing(by_moves, 90, 1_000_000, by_moves=True, mine=(90, 1_000_000)) == (1, 1)
    assert standing(by_moves, 120, 10_000, by_moves=True, mine=(120, 10_000)) == (0, 1)
    assert standing(by_moves, 120, 10_000, by_moves=False, mine=(120, 10_000)) == (1, 1)


def test_a_player_moved_to_a_new_id_takes_their_replays(store: Store) -> None:
    """A revoked device link moves the player (issue 23): the replays' list goes with them,
    the replays keep their ids (their links still work) and only the new id deletes them."""
    write(store, "p", game("won", moves=2, replay=RID, line="ae.bq"))
    store.save_link("p", "digest")
    assert store.revoke_link("p", "q") == "q"
    assert [r.id for r in store.player_replays("q")] == [RID]
    assert store.player_replays("p") == [] and not store.delete_replay("p", RID)
    assert store.replay(RID) is not None
    assert store.replay_owner(RID) == "q"  # where its player went (issue 44)
    assert store.delete_replay("q", RID) and store.replay(RID) is None
    assert store.replay_owner(RID) is None


def test_a_replay_names_its_player(store: Store) -> None:
    """Issue 43 item 6: the owner's row decides what a stranger sees of a finding."""
    assert store.replay_owner(RID) is None
    write(store, "p", game("won", moves=2, replay=RID, line="ae.bq"))
    assert store.replay_owner(RID) == "p"


def test_an_analysis_is_kept_with_its_replay_and_goes_with_it(store: Store) -> None:
    """Where the win slipped away (issue 33): read back by the replay id alone, replaced
    whole, nothing kept for a replay that does not exist, deleted with the replay."""
    data = {"version": 1, "kind": "slipped", "k": 1, "line": "am ab", "for": "d1"}
    store.save_analysis(RID, data)  # no replay yet: nothing kept
    assert store.analysis(RID) is None
    write(store, "p", game("stuck", moves=2, replay=RID, line="ae.bq"))
    assert store.analysis(RID) is None
    store.save_analysis(RID, data)
    assert store.analysis(RID) == data
    again = {**data, "kind": "cannot_win", "k": None, "line": ""}
    store.save_analysis(RID, again)
    assert store.analysis(RID) == again
    assert store.analysis(rid(7)) is None
    assert store.delete_replay("p", RID)
    assert store.analysis(RID) is None
    write(store, "p", game("stuck", moves=2, replay=RID, line="ae.bq"))
    assert store.analysis(RID) in (None, again)  # the stores that drop it on a rewrite do
