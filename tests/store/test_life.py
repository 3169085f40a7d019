"""A game's life as one typed value (issue 43 item 1): read from its row, changed by
transitions each tested alone, and asked by every reader — a table of transition × reader —
and the same on every store (a practice row beside the game, an assisted game, the ending
counted)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from app.status import Status
from app.store import Store, StoredGame, counting
from app.store.counting import normal
from app.store.life import (
    Life,
    Nature,
    Stand,
    abandon,
    deal_of,
    end,
    first_move,
    in_deal_figures,
    in_records,
    in_statistics,
    label,
    life_of,
    practice_key,
    ranked,
    replayed,
    restart,
    shows_result,
    try_from,
    undo_after_end,
)
from app.store.marks import Marks
from tests.store.test_statistics import HM, HM2, figures, stored, write

COUNTED, PRACTICE, ASSISTED = Life(), Life(Nature.PRACTICE), Life(Nature.ASSISTED)


def test_first_move_plays_the_game() -> None:
    assert first_move(COUNTED) == Life(moves=1)
    assert first_move(Life(moves=5)) == Life(moves=5)


def test_the_first_ending_is_the_one_counted() -> None:
    lost = end(first_move(COUNTED), won=False)
    assert (lost.stands, lost.counted) == (Stand.LOST, Stand.LOST)
    again = end(undo_after_end(lost), won=True)  # won after an Undo: the loss still counts
    assert (again.stands, again.counted) == (Stand.WON, Stand.LOST)
    assert end(first_move(PRACTICE), won=True).counted is None  # a practice counts nothing


def test_undo_after_the_end_plays_on_and_keeps_the_ending_counted() -> None:
    won = end(Life(moves=48), won=True)
    assert undo_after_end(won) == Life(Nature.COUNTED, Stand.PLAYING, 48, Stand.WON)


def test_restart_of_an_ended_game_is_a_new_game_for_the_player_alone() -> None:
    lost = end(Life(moves=30), won=False)
    assert restart(lost) == Life(Nature.COUNTED, Stand.PLAYING, 0, None, first=False)
    assert restart(Life(moves=3)) == Life()  # not ended: the same game from the start
    practice = end(Life(Nature.PRACTICE, moves=30), won=True)
    assert restart(practice).nature is Nature.PRACTICE  # back to its move k, still a practice


def test_abandonment_counts_an_unfinished_counted_game_as_lost() -> None:
    gone = abandon(Life(moves=4))
    assert (gone.stands, gone.counted) == (Stand.ABANDONED, Stand.ABANDONED)
    assert abandon(Life()) == Life()  # only opened: nothing to count
    assert abandon(Life(Nature.PRACTICE, moves=4)) == Life(Nature.PRACTICE, moves=4)
    won = end(Life(moves=48), won=True)
    assert abandon(won) == won


def test_try_leaves_the_players_game_and_begins_a_practice_beside_it() -> None:
    lost = end(Life(moves=30), won=False)
    kept, practice = try_from(lost)
    assert kept == lost
    assert practice == Life(Nature.PRACTICE, Stand.PLAYING, 0, None, first=False)


Transition = Callable[[Life], Life]
TRANSITIONS: dict[str, Transition] = {
    "first move": first_move,
    "win": lambda life: end(first_move(life), won=True),
    "loss": lambda life: end(first_move(life), won=False),
    "undo after the end": lambda life: undo_after_end(end(first_move(life), won=False)),
    "restart after the end": lambda life: restart(end(first_move(life), won=True)),
    "abandonment": lambda life: abandon(first_move(life)),
    "try": lambda life: try_from(end(first_move(life), won=False))[1],
}
READERS = (in_statistics, in_records, in_deal_figures, ranked, replayed, shows_result, label)
# (nature, transition) -> statistics, records, deal figures, standings, replay, end box lines,
# what lists say: docs/statistics.md, "The life of a game"
TABLE: dict[tuple[Nature, str], tuple[object, ...]] = {
    (Nature.COUNTED, "first move"): (True, True, True, True, True, False, ""),
    (Nature.COUNTED, "win"): (True, True, True, True, True, True, ""),
    (Nature.COUNTED, "loss"): (True, True, True, True, True, True, ""),
    (Nature.COUNTED, "undo after the end"): (True, True, True, True, True, False, ""),
    (Nature.COUNTED, "restart after the end"): (True, True, False, True, True, False, ""),
    (Nature.COUNTED, "abandonment"): (True, True, True, True, True, True, ""),
    (Nature.PRACTICE, "first move"): (False, False, False, False, False, False, "practice"),
    (Nature.PRACTICE, "win"): (False, False, False, False, False, False, "practice"),
    (Nature.PRACTICE, "loss"): (False, False, False, False, False, False, "practice"),
    (Nature.PRACTICE, "undo after the end"): (False,) * 6 + ("practice",),
    (Nature.PRACTICE, "restart after the end"): (False,) * 6 + ("practice",),
    (Nature.PRACTICE, "abandonment"): (False,) * 6 + ("practice",),
    (Nature.ASSISTED, "first move"): (True, False, False, False, True, False, "assisted"),
    (Nature.ASSISTED, "win"): (True, False, False, False, True, True, "assisted"),
    (Nature.ASSISTED, "loss"): (True, False, False, False, True, True, "assisted"),
    (Nature.ASSISTED, "undo after the end"): (True, False, False, False, True, False, "assisted"),
    (Nature.ASSISTED, "restart after the end"): (True, False, False, False, True, False,
                                                 "assisted"),
    (Nature.ASSISTED, "abandonment"): (True, False, False, False, True, True, "assisted"),
}  # fmt: skip
for _nature in Nature:  # a Try from any game is a practice
    TABLE[(_nature, "try")] = (False,) * 6 + ("practice",)


@pytest.mark.parametrize(("nature", "transition"), sorted(TABLE))
def test_every_reader_after_every_transition(nature: Nature, transition: str) -> None:
    life = TRANSITIONS[transition](Life(nature))
    assert tuple(reader(life) for reader in READERS) == TABLE[(nature, transition)]


def row(state: str = "playing", moves: int = 1, **marks: object) -> StoredGame:
    return dataclasses.replace(stored(HM, state, moves), marks=Marks(**marks))  # type: ignore[arg-type]


def test_a_row_reads_as_its_life() -> None:
    assert life_of(None) == Life()
    assert life_of(row(counted="open")) == Life(moves=1)
    assert life_of(row("won", 48, counted="done", result="won")) == Life(
        Nature.COUNTED, Stand.WON, 48, Stand.WON
    )
    # won after an Undo from the loss that counted
    assert life_of(row("won", 60, counted="done", result="lost")).counted is Stand.LOST
    # a row stored before issue 43 has no result: its present ending is the one counted
    assert life_of(row("stuck", 60, counted="done")).counted is Stand.LOST
    assert life_of(row("won", 60, counted="aside")) == Life(
        Nature.COUNTED, Stand.WON, 60, Stand.WON, first=False
    )
    assert life_of(row(practice=True, start=21)).nature is Nature.PRACTICE
    assert life_of(row(assisted=True)).nature is Nature.ASSISTED
    assert life_of(dataclasses.replace(row(), state=Status.LOST)).stands is Stand.LOST


def test_keys() -> None:
    assert deal_of(practice_key(HM)) == (HM, True)
    assert deal_of(HM) == (HM, False)


def test_a_practice_row_beside_the_game_counts_nothing(store: Store) -> None:
    """The practice's own row (its key beside the game's) is counted nowhere, never replayed,
    and leaves the player's game of the deal as it was."""
    write(store, "p", stored(HM, moves=30))
    lost = write(store, "p", stored(HM, "stuck", moves=31))
    key = practice_key(HM)
    practice = dataclasses.replace(stored(HM, moves=22), code=key, marks=Marks(practice=True))
    store.change_game("p", key, lambda _s, _g: (practice, None))
    won = dataclasses.replace(
        stored(HM, "won", moves=48, ms=5000, score=520), code=key, marks=Marks(practice=True)
    )
    store.change_game("p", key, lambda _s, _g: (won, None))
    written = store.load("p", key)[1]
    assert written is not None and written.marks.practice and written.marks.replay is None
    assert life_of(written) == Life(Nature.PRACTICE, Stand.WON, 48, None, first=True)
    f = figures(store, "p")
    assert (f["played"], f["won"], f["lost"], f["best_ms"]) == (1, 0, 1, 0)
    assert store.load("p", HM)[1] == lost
    deal = store.deal_stats(HM)
    assert deal is not None and (deal["players"], deal["wins"]) == (1, 0)
    assert sorted(g.code for g in store.finished_games("p", 5)) == [HM, key]


def test_an_assisted_game_counts_as_played_but_sets_no_best_nor_deal_figure(store: Store) -> None:
    assisted = Marks(assisted=True)
    write(store, "p", dataclasses.replace(stored(HM, moves=1), marks=assisted))
    won = dataclasses.replace(stored(HM, "won", moves=48, ms=90_000, score=520), marks=assisted)
    written = write(store, "p", won)
    # its ending is set aside from the deal's figures
    assert life_of(written) == Life(Nature.ASSISTED, Stand.WON, 48, Stand.WON, first=False)
    f = figures(store, "p")
    assert (f["played"], f["won"], f["streak"]) == (1, 1, 1)
    assert (f["best_ms"], f["fewest"], f["best_score"]) == (0, 0, 0)
    assert store.deal_stats(HM) is None
    doc = store.player_stats("p")
    assert "first_win" not in normal(doc)["set"]["keys"]


def test_the_ending_counted_is_kept_through_undo_and_win(store: Store) -> None:
    write(store, "p", stored(HM, moves=30))
    assert life_of(write(store, "p", stored(HM, "stuck", moves=31))).counted is Stand.LOST
    write(store, "p", stored(HM, moves=30))  # Undo after the end
    won = write(store, "p", stored(HM, "won", moves=48, ms=60_000, score=520))
    assert (life_of(won).stands, life_of(won).counted) == (Stand.WON, Stand.LOST)
    # another deal abandoned: its row reads the abandonment once it ends
    write(store, "p", stored(HM2, moves=3))
    write(store, "p", stored(HM, moves=0))  # restarted: a new game
    write(store, "p", stored(HM, moves=1))
    assert counting.figures(normal(store.player_stats("p")), "HM")["lost"] == 2
    ended = write(store, "p", stored(HM2, "stuck", moves=9))
    assert life_of(ended).counted is Stand.ABANDONED
