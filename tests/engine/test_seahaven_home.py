"""*Send all home* (issue 27): offered exactly when only foundation moves remain, played as one
action (each card a move, its points as usual), taken back by one Undo, kept in the record."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.cards import Card
from app.engine.codes import DealCode
from app.engine.game import RecordError, Status
from app.engine.seahaven import (
    CELLS,
    COLUMNS,
    FOUNDATIONS,
    Move,
    Outcome,
    Position,
    Reason,
    Seahaven,
    home_line,
    move_result,
)
from app.engine.seahaven.solver import solve_code

SH = DealCode.parse("SH1-C4-AAAAAAB")
"""Its solver line (82 moves) leaves only foundation moves after move 68."""


def sizes(steps) -> list[int]:
    """How many moves each action of a history played."""
    return [len(step.moves) for step in steps]


def solver_line(code: DealCode = SH) -> list[Move]:
    line = solve_code(code).line
    assert line
    return list(line)


def reached(moves: list[Move], code: DealCode = SH) -> Seahaven:
    game = Seahaven(code)
    for move in moves:
        game.play(move, now=0)
    return game


def foundation_only_wins(position: Position, rng: random.Random) -> bool:
    """An independent judge: play random foundation moves until none is left."""
    sources = [*COLUMNS, *CELLS[: len(position.cells)]]
    while not position.is_won():
        ready = [
            Move(s, 1, FOUNDATIONS.start + "SHDC".index(card.suit))
            for s in sources
            if (card := position.top(s)) is not None
            and position.accepts(FOUNDATIONS.start + "SHDC".index(card.suit), card)
        ]
        if not ready:
            return False
        position = move_result(position, rng.choice(ready))
    return True


def test_offered_exactly_from_the_first_position_where_only_foundation_moves_remain():
    line = solver_line()
    game = Seahaven(SH)
    offered = []
    for move in line:
        offered.append(game.can_send_home())
        game.play(move, now=0)
    first = offered.index(True)
    assert first == 68
    assert offered[first:] == [True] * (len(line) - first)  # and from then on, to the end
    assert not game.can_send_home()  # won: nothing left to send
    # before that, some card left needs a move that is not to a foundation
    before = reached(line[: first - 1])
    assert not foundation_only_wins(before.position, random.Random(1))


@settings(max_examples=40, deadline=None)
@given(number=st.integers(0, 2000), steps=st.integers(0, 120), seed=st.integers(0, 2**16))
def test_the_offer_agrees_with_any_order_of_foundation_moves(number, steps, seed):
    """Random playouts: wherever it is offered, random foundation moves win; where it is not,
    they get stuck — the offer never promises more, nor less, than the board shows."""
    rng = random.Random(seed)
    game = Seahaven(DealCode("SH", 1, rng.choice(["C4", "C2", "C1"]), number))
    for _ in range(steps):
        moves = list(game.legal_moves())
        if not moves or game.position.is_won():
            break
        homes = [m for m in moves if m.target in FOUNDATIONS]
        game.play(rng.choice(homes if homes and rng.random() < 0.6 else moves), now=0)
        if not game.position.is_won():
            expected = foundation_only_wins(game.position, random.Random(seed))
            assert game.can_send_home() is expected


def test_send_all_home_is_one_action_each_card_a_move_and_ten_points():
    line = solver_line()
    game = reached(line[:68], SH)
    before = (game.position, game.move_count, game.score, game.clock.to_list())
    result = game.send_home(now=1_000)
    assert result.outcome is Outcome.MOVED
    left = 52 - before[0].cards_home
    assert len(result.cards) == left == 14
    assert game.status() is Status.WON and game.position.is_won()
    assert game.move_count == 68 + left and game.score == 520
    assert sizes(game.steps)[-1] == left and sizes(game.steps)[:-1] == [1] * 68
    assert not game.clock.is_running  # the game ended with it
    # the cards fly home in order: of the cards ready to go, the lowest rank first
    position = before[0]
    for card in result.cards:
        ready = [
            c
            for s in [*COLUMNS, *CELLS]
            if (c := position.top(s)) is not None
            and position.accepts(FOUNDATIONS.start + "SHDC".index(c.suit), c)
        ]
        assert card.rank == min(c.rank for c in ready)
        where = next(s for s in [*COLUMNS, *CELLS] if position.top(s) == card)
        position = move_result(
            position, Move(where, 1, FOUNDATIONS.start + "SHDC".index(card.suit))
        )
    # one Undo takes it all back; one Redo plays it again
    assert game.undo(now=2_000)
    assert (game.position, game.move_count, game.score) == before[:3]
    assert game.can_send_home() and game.can_redo() and sizes(game.undone) == [left]
    assert game.redo(now=3_000) and game.position.is_won() and game.move_count == 82
    assert game.undo(now=4_000) and game.undo(now=4_000)
    assert game.move_count == 67  # the next Undo is one ordinary move


def test_the_line_is_foundation_moves_the_rules_allow_one_after_another():
    game = reached(solver_line()[:68])
    line = home_line(game.position)
    assert line is not None
    position = game.position
    for move in line:
        assert move.count == 1 and move.target in FOUNDATIONS
        assert Seahaven.check(position, move) is None
        position = move_result(position, move)
    assert position.is_won()


def test_refused_when_any_other_move_is_needed_and_nothing_changes():
    game = Seahaven(SH)
    result = game.send_home(now=5)
    assert result.outcome is Outcome.REFUSED and result.reason is Reason.NO_DESTINATION
    assert game.move_count == 0 and game.position == Seahaven(SH).position


def test_a_buried_ace_is_not_offered_until_the_card_on_it_moves_to_a_cell():
    """A♠ under 2♠ in the same column: the 2 must go to a cell first — not a foundation move."""
    spades = [Card(rank, "S") for rank in range(1, 14)]
    columns: list[list[str]] = [[] for _ in range(10)]
    columns[0] = [str(c) for c in reversed(spades[2:])] + ["AS", "2S"]  # K…3, then A, then 2
    for i, suit in enumerate("HDC", start=1):
        columns[i] = [str(Card(rank, suit)) for rank in range(13, 0, -1)]
    board = {"columns": columns, "cells": [None, None, None, None], "foundations": {}}
    game = Seahaven.from_position(board)
    assert not game.can_send_home()
    game.play(Move(COLUMNS.start, 1, CELLS.start), now=0)  # 2♠ to a cell
    assert game.can_send_home() and len(home_line(game.position) or ()) == 52


def test_the_record_keeps_the_action_whole_and_old_records_read_as_before():
    line = solver_line()
    game = reached(line[:68])
    game.send_home(now=1)
    record = game.to_record()
    assert record["moves"].count(".") == 68 and record["moves"].count("+") == 13
    again = Seahaven.from_record(record)
    assert sizes(again.steps) == sizes(game.steps) and again.position.is_won()
    assert again.undo(now=2) and again.move_count == 68
    undone = again.to_record()
    assert undone["moves"].count("+") == 0 and undone["redo"].count("+") == 13
    back = Seahaven.from_record(undone)
    assert sizes(back.undone) == [14] and back.redo(now=3) and back.position.is_won()
    # a record written before issue 27 (no "+") is the same game it always was
    plain = reached(line)
    old = plain.to_record()
    assert "+" not in old["moves"] and sizes(Seahaven.from_record(old).steps) == [1] * 82


@pytest.mark.parametrize("joined", [lambda ms: f"{ms[0]}+{ms[1]}", lambda ms: f"{ms[0]}+"])
def test_a_record_joining_moves_that_are_not_all_foundation_moves_is_refused(joined):
    line = solver_line()
    record = reached(line[:2]).to_record()
    record["moves"] = joined([str(m) for m in line[:2]])
    with pytest.raises(RecordError):
        Seahaven.from_record(record)
