"""SPEC §3 Controls: single tap, double tap, drag, selection — what the web layer calls."""

from __future__ import annotations

import copy

import pytest

from app.engine.cards import Card
from app.engine.codes import DealCode
from app.engine.game import RecordError
from app.engine.seahaven import (
    ActionResult,
    Move,
    Outcome,
    Reason,
    Refusal,
    Seahaven,
)
from tests.engine.test_seahaven_rules import EXAMPLE


def card(text: str) -> Card:
    return Card.parse(text)


def game() -> Seahaven:
    return Seahaven.from_position(EXAMPLE)


def columns(g: Seahaven) -> list[str]:
    return [" ".join(map(str, column)) for column in g.position.columns]


def moved(text: str) -> ActionResult:
    return ActionResult(Outcome.MOVED, Move.parse(text))


# --- single tap ------------------------------------------------------------------------------


def test_tap_sends_a_top_card_to_its_foundation():
    g = game()
    assert g.tap("column-9", card("6D"), now=0) == moved("iD")
    assert g.position.foundations == (1, 5, 6, 4)
    assert g.score == 160
    assert g.move_count == 1


def test_tap_on_a_card_that_cannot_go_home_selects_it_with_its_run():
    g = game()
    assert g.tap("column-2", card("5S"), now=0) == ActionResult(Outcome.SELECTED)
    assert g.selection_text() == "column-2:5S"
    assert [str(c) for c in g.selected_cards()] == ["5S", "4S", "3S", "2S"]
    assert g.move_count == 0


def test_tapping_the_selection_again_deselects_it():
    g = game()
    g.tap("column-2", card("9S"))
    assert g.tap("column-2", card("9S")) == ActionResult(Outcome.DESELECTED)
    assert g.selection is None


def test_tapping_a_destination_moves_the_selection_there():
    g = game()
    g.tap("column-2", card("9S"), now=0)
    assert g.tap("column-1", card("10S"), now=0) == moved("ba8")
    assert columns(g)[:2] == ["5C 10S 9S 8S 7S 6S 5S 4S 3S 2S", "6C"]
    assert g.selection is None


def test_tapping_any_card_of_another_column_targets_that_column():
    g = game()
    g.tap("column-2", card("9S"), now=0)
    assert g.tap("column-1", card("5C"), now=0) == moved("ba8")


def test_a_refused_destination_clears_the_selection_and_says_why():
    g = game()
    g.tap("column-3", card("KH"))
    result = g.tap("column-5", None)
    assert result == ActionResult(Outcome.REFUSED, refusal=Refusal(Reason.GROUP_TOO_LARGE, 4))
    assert result.message == "That group needs more free cells: at most 4 cards can move now."
    assert g.selection is None
    assert g.position == EXAMPLE


def test_a_selection_moves_into_an_empty_cell_or_onto_a_foundation():
    g = game()
    g.tap("column-1", card("10S"))
    assert g.tap("cell-4", None, now=0) == moved("an")
    assert g.tap("foundation-D", card("5D")) == ActionResult(Outcome.SELECTED)
    assert g.tap("column-9", card("6D"), now=0) == moved("Di")


def test_tapping_a_buried_card_is_refused():
    g = game()
    result = g.tap("column-2", card("6C"))
    assert result == ActionResult(Outcome.REFUSED, refusal=Refusal(Reason.NOT_MOVABLE))
    assert result.message == "Only the top card or a run of the same suit can move."
    assert g.selection is None


def test_tapping_an_empty_place_without_a_selection_does_nothing():
    g = game()
    assert g.tap("column-5", None) == ActionResult(Outcome.IGNORED)
    assert g.tap("cell-4", None) == ActionResult(Outcome.IGNORED)
    assert g.position == EXAMPLE


def test_a_stale_tap_changes_nothing():
    g = game()
    g.tap("column-2", card("9S"))
    assert g.tap("column-1", card("JS"), now=0) == ActionResult(Outcome.STALE)
    assert g.tap("column-5", card("KS")) == ActionResult(Outcome.STALE)
    assert g.tap("cell-4", card("2H")) == ActionResult(Outcome.STALE)
    assert g.tap("cell-1", None) == ActionResult(Outcome.STALE)
    assert g.selection_text() == "column-2:9S"
    assert g.position == EXAMPLE


def test_tapping_another_card_of_the_selected_column_starts_afresh():
    g = game()
    g.tap("column-2", card("9S"))
    assert g.tap("column-2", card("4S")) == ActionResult(Outcome.SELECTED)
    assert g.selection_text() == "column-2:4S"


def test_a_tapped_top_card_goes_home_even_when_something_else_was_selected_in_its_column():
    g = game()
    g.tap("column-2", card("3S"))
    assert g.tap("column-2", card("2S"), now=0) == moved("bS")


# --- double tap ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("place", "top", "line"),
    [
        ("column-2", "2S", "bS"),
        ("column-1", "10S", "ag"),
        ("column-4", "KD", "de4"),
        ("column-10", "8D", "jn"),
    ],
    ids=["foundation", "longest-column", "king-and-run-to-empty-column", "empty-cell"],
)
def test_double_tap_goes_to_the_foundation_then_a_column_then_an_empty_cell(place, top, line):
    """The documents' order, each case the first that takes the card: its foundation, the
    longest column that accepts it, an empty column (a king with its run), an empty cell."""
    assert game().auto(place, card(top), now=0) == moved(line)


def test_double_tap_on_a_run_that_is_too_large_names_the_limit():
    g = game()
    result = g.auto("column-3", card("KH"))
    assert result == ActionResult(Outcome.REFUSED, refusal=Refusal(Reason.GROUP_TOO_LARGE, 4))
    assert g.position == EXAMPLE


def test_double_tap_with_nowhere_to_go_says_so():
    g = game()
    g.play(Move(0, 1, 13), now=0)  # 10S fills the last free cell
    result = g.auto("column-10", card("8D"))
    assert result == ActionResult(Outcome.REFUSED, refusal=Refusal(Reason.NO_DESTINATION))
    assert result.message == "No foundation, column or cell can take this card now."
    assert g.move_count == 1


def test_double_tap_on_a_buried_card_is_refused():
    g = game()
    assert g.auto("column-2", card("6C")) == ActionResult(
        Outcome.REFUSED, refusal=Refusal(Reason.NOT_MOVABLE)
    )


def test_double_tap_never_also_selects():
    g = game()
    g.auto("column-3", card("KH"))
    assert g.selection is None


# --- a double tap whose first click was already played as a tap ----------------------------
# The page sends every click at once; the second click of a double tap then asks the engine to
# finish it. The game must end exactly as the double tap alone would have left it.


def same_game(a: Seahaven, b: Seahaven) -> None:
    assert a.position == b.position
    assert a.moves == b.moves
    assert a.redo_stack == b.redo_stack
    assert a.selection_text() == b.selection_text()


def tap_then_finish(place: str, text: str) -> tuple[ActionResult, ActionResult, Seahaven]:
    g = game()
    first = g.tap(place, card(text), now=0)
    return first, g.finish_double_tap(place, card(text), now=0), g


def auto_alone(place: str, text: str) -> tuple[ActionResult, Seahaven]:
    g = game()
    return g.auto(place, card(text), now=0), g


def test_finishing_a_double_tap_after_the_card_went_home_adds_nothing():
    first, second, g = tap_then_finish("column-9", "6D")
    assert first == moved("iD")
    assert second == moved("iD")  # the double tap's own move, already made
    result, alone = auto_alone("column-9", "6D")
    assert result == moved("iD")
    same_game(g, alone)
    assert g.move_count == 1


def test_finishing_a_double_tap_after_a_selecting_tap_moves_and_leaves_no_selection():
    first, second, g = tap_then_finish("column-1", "10S")
    assert first == ActionResult(Outcome.SELECTED)
    assert second == moved("ag")
    result, alone = auto_alone("column-1", "10S")
    assert result == moved("ag")
    same_game(g, alone)
    assert g.selection is None
    assert columns(g)[6] == "9C KS QS JS 10S"


def test_finishing_a_refused_double_tap_after_a_selecting_tap_leaves_no_selection():
    first, second, g = tap_then_finish("column-3", "KH")
    assert first == ActionResult(Outcome.SELECTED)
    refused = ActionResult(Outcome.REFUSED, refusal=Refusal(Reason.GROUP_TOO_LARGE, 4))
    assert second == refused
    result, alone = auto_alone("column-3", "KH")
    assert result == refused
    same_game(g, alone)
    assert g.selection is None
    assert g.position == EXAMPLE


def test_finishing_a_double_tap_with_nowhere_to_go_leaves_no_selection():
    g = game()
    g.play(Move(0, 1, 13), now=0)  # 10S fills the last free cell
    assert g.tap("column-10", card("8D"), now=0) == ActionResult(Outcome.SELECTED)
    result = g.finish_double_tap("column-10", card("8D"), now=0)
    assert result == ActionResult(Outcome.REFUSED, refusal=Refusal(Reason.NO_DESTINATION))
    assert g.selection is None
    assert g.move_count == 1


def test_finishing_a_double_tap_on_the_selection_deselected_by_its_first_click_moves_it():
    g = game()
    g.tap("column-1", card("10S"), now=0)  # selected before the double tap
    assert g.tap("column-1", card("10S"), now=0) == ActionResult(Outcome.DESELECTED)
    assert g.finish_double_tap("column-1", card("10S"), now=0) == moved("ag")
    alone = game()
    alone.tap("column-1", card("10S"), now=0)
    assert alone.auto("column-1", card("10S"), now=0) == moved("ag")
    same_game(g, alone)


def test_finishing_a_double_tap_on_a_destination_keeps_the_move_its_first_click_made():
    g = game()
    g.tap("column-2", card("9S"), now=0)
    assert g.tap("column-1", card("10S"), now=0) == moved("ba8")
    after_first = copy.deepcopy(g)
    assert g.finish_double_tap("column-1", card("10S"), now=0) == moved("ba8")
    same_game(g, after_first)
    assert columns(g)[0] == "5C 10S 9S 8S 7S 6S 5S 4S 3S 2S"


def test_finishing_a_double_tap_on_a_foundation_destination_keeps_the_move():
    g = game()
    g.tap("column-9", card("6D"), now=0)  # home: foundation D now ends at 6D
    g.restore_selection("column-8:7D")  # selected before it could go home (another tab)
    assert g.tap("foundation-D", card("6D"), now=0) == moved("hD")
    before = copy.deepcopy(g)
    assert g.finish_double_tap("foundation-D", card("6D"), now=0) == moved("hD")
    same_game(g, before)


def test_finishing_a_double_tap_on_an_empty_place_does_nothing():
    g = game()
    assert g.finish_double_tap("column-5", None, now=0) == ActionResult(Outcome.IGNORED)
    assert g.position == EXAMPLE


# --- drag ------------------------------------------------------------------------------------


def test_drag_moves_the_run_from_the_named_card():
    g = game()
    assert g.move("column-2", card("9S"), "column-1", now=0) == moved("ba8")


def test_drag_of_a_buried_card_is_refused():
    g = game()
    assert g.move("column-2", card("6C"), "column-5") == ActionResult(
        Outcome.REFUSED, refusal=Refusal(Reason.NOT_MOVABLE)
    )


def test_drag_onto_its_own_place_is_ignored():
    g = game()
    assert g.move("column-2", card("9S"), "column-2") == ActionResult(Outcome.IGNORED)


def test_drag_of_a_card_that_is_gone_is_stale():
    g = game()
    assert g.move("column-2", card("KS"), "column-5") == ActionResult(Outcome.STALE)


def test_drag_from_a_foundation_takes_its_top_card():
    g = game()
    assert g.move("foundation-S", card("AS"), "column-2", now=0) == moved("Sb")
    assert g.score == 140


# --- selection in records --------------------------------------------------------------------


def test_selection_survives_a_record_round_trip():
    g = Seahaven(DealCode.parse("SH1-C4-AAAAAJ2"))
    g.tap("column-1", card("8D"))
    record = g.to_record()
    assert record["sel"] == "column-1:8D"
    assert Seahaven.from_record(record).selection == (0, card("8D"))


@pytest.mark.parametrize(
    "sel", ["column-1:5C", "column-1", "cell-3:9H", "column-11:8D", "cell-1:9H", "x:y:z"]
)
def test_an_impossible_selection_in_a_record_is_refused(sel: str):
    record = Seahaven(DealCode.parse("SH1-C2-AAAAAJ2")).to_record()
    record["sel"] = sel
    with pytest.raises(RecordError):
        Seahaven.from_record(record)


def test_a_game_from_a_custom_board_has_no_record():
    with pytest.raises(RecordError, match="custom board"):
        game().to_record()


def test_every_position_change_clears_the_selection():
    g = game()
    g.tap("column-2", card("9S"))
    g.play(Move(8, 1, 16), now=0)
    assert g.selection is None
    g.tap("column-2", card("9S"))
    g.undo(now=0)
    assert g.selection is None
    assert str(g.redo_stack[-1]) == "iD"


# --- SPEC §3 Controls and End ----------------------------------------------------------------


def test_no_card_goes_home_by_itself():
    g = game()
    g.move("column-1", card("10S"), "column-7", now=0)
    assert g.position.foundations == EXAMPLE.foundations
    assert g.position.columns[1][-1] == card("2S")  # could go home, stays until played
    assert g.move_count == 1


def test_the_clock_stops_when_the_game_is_lost():
    g = Seahaven(DealCode.parse("SH1-C1-AAAAAAC"))
    assert g.move("column-2", card("QS"), "column-9", now=1_000) == moved("bi")
    assert g.is_lost()
    assert not g.clock.is_running
    assert g.clock.elapsed(9_000) == 0
    g.undo(now=2_000)
    assert g.is_lost()  # the deal itself is already lost


# --- issue 13: a tap that is not a destination is a fresh tap ---------------------------------


def test_a_tap_on_a_card_that_cannot_take_the_selection_sends_that_card_home():
    """5♠ selected, then the top 6♦ of column 9 (can go home; 5♠ cannot go on it): 6♦ goes home
    at once instead of the move being refused and the tap lost."""
    g = game()
    g.tap("column-8", card("7D"), now=0)  # 7♦ cannot go home yet (♦ is at 5): selected
    assert g.selection_text() == "column-8:7D"
    assert g.tap("column-9", card("6D"), now=0) == moved("iD")
    assert g.selection is None
    assert g.position.foundations == (1, 5, 6, 4)


def test_a_tap_on_a_card_that_cannot_take_the_selection_selects_that_card():
    g = game()
    g.tap("column-2", card("5S"), now=0)
    assert g.tap("column-4", card("10D"), now=0) == ActionResult(Outcome.SELECTED)
    assert g.selection_text() == "column-4:10D"
    assert g.position == EXAMPLE
    assert g.tap("column-7", card("JS"), now=0) == ActionResult(Outcome.SELECTED)
    assert g.selection_text() == "column-7:JS"


def test_a_tap_on_a_buried_card_that_cannot_take_the_selection_clears_it():
    g = game()
    g.tap("column-4", card("10D"), now=0)
    result = g.tap("column-2", card("6C"), now=0)
    assert result == ActionResult(Outcome.REFUSED, refusal=Refusal(Reason.NOT_MOVABLE))
    assert g.selection is None


def test_a_selection_starts_the_clock():
    g = Seahaven(DealCode.parse("SH1-C4-AAAAAJ2"))
    top = g.position.columns[0][-1]
    g.tap("column-1", top, now=10_000)
    assert g.clock.is_running
    assert g.clock.elapsed(12_000) == 2_000


def test_double_tap_sends_a_lone_king_to_an_empty_column_before_a_cell():
    """The documents' order: foundation, longest column, empty column, then cell. A king alone
    on top of its column (on an ace: no run), with empty columns and every cell free, goes to
    the first empty column."""
    down = ("Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "A")
    spades = [f"{rank}S" for rank in down]
    others = [[f"{rank}{suit}" for rank in ("K", *down)] for suit in "HDC"]
    board = {
        "columns": [[*spades, "KS"], *others, [], [], [], [], [], []],
        "cells": [None, None, None, None],
        "foundations": {},
    }
    g = Seahaven.from_position(board)
    assert g.auto("column-1", card("KS"), now=0) == moved("ae")
    assert columns(g)[4] == "KS" and g.position.cells == (None, None, None, None)
