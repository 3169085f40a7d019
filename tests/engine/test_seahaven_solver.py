"""The solver and lost detection (SPEC §3 End)."""

from __future__ import annotations

import random
import time
from collections import deque

import pytest

from app.engine.codes import DealCode
from app.engine.seahaven import (
    FOUNDATIONS,
    Move,
    Outcome,
    Position,
    Seahaven,
    deal_position,
    format_move,
    legal_moves,
    place_name,
    position_from_cards,
    position_key,
)
from app.engine.seahaven import solver as seahaven_solver
from app.engine.seahaven.solver import (
    _key,
    _play,
    _state,
    _steps,
    describe_line,
    is_lost,
    solve,
    solve_code,
)
from app.engine.solutions import Verdict


@pytest.mark.parametrize("code", ["SH1-C4-AAAAAJ2", "SH1-C4-AAAAAAB", "SH1-C2-AAAAAAD"])
def test_a_winning_line_replays_through_the_rules(code: str):
    deal = DealCode.parse(code)
    result = solve_code(deal, 100_000)
    assert result.verdict is Verdict.WON
    game = Seahaven(deal)
    game.replay(result.line, now=0)
    assert game.is_won()
    assert game.score == 520
    assert game.move_count == len(result.line)


def test_a_won_game_replayed_through_taps_and_drags_scores_520():
    deal = DealCode.parse("SH1-C4-AAAAAJ2")
    result = solve(deal)
    game = Seahaven(deal)
    for move in result.line:
        position = game.position
        source = place_name(move.source)
        if move.source < 10:
            card = position.columns[move.source][-move.count]
        else:
            card = position.top(move.source)
        if move.target in FOUNDATIONS:
            outcome = game.tap(source, card, now=1)
        else:
            outcome = game.move(source, card, place_name(move.target), now=1)
        assert outcome.outcome is Outcome.MOVED
        assert outcome.move == move
    assert game.is_won()
    assert game.is_over()
    assert game.score == 520
    assert not game.clock.is_running


def test_a_lost_deal_has_no_win():
    result = solve_code(DealCode.parse("SH1-C1-AAAAAAC"), 10_000)
    assert result.verdict is Verdict.NO_WIN
    assert result.line == ()


def test_the_solver_gives_up_when_its_budget_runs_out():
    result = solve_code(DealCode.parse("SH1-C4-AAAAAJ2"), 5)
    assert result.verdict is Verdict.UNDECIDED
    assert result.nodes <= 5
    assert not result.is_decided


def test_a_won_position_is_solved_with_an_empty_line():
    done = position_from_cards([""] * 10, [None] * 4, {"S": 13, "H": 13, "D": 13, "C": 13})
    assert solve(done).verdict is Verdict.WON
    assert solve(done).line == ()


def test_safe_foundation_moves_appear_in_the_line():
    one_left = position_from_cards(
        ["KS", "", "", "", "", "", "", "", "", ""], [None] * 4, {"S": 12, "H": 13, "D": 13, "C": 13}
    )
    assert solve(one_left).line == (Move(0, 1, 14),)


def test_describe_line_reads_each_move_in_its_position():
    deal = DealCode.parse("SH1-C4-AAAAAJ2")
    line = solve_code(deal).line
    texts = describe_line(deal_position(deal), line[:2])
    assert texts[0] == format_move(line[0], deal_position(deal))
    assert "→" in texts[0]
    assert texts[0].split()[0] in {str(c) for c in deal_position(deal).cards()}


# --- lost detection --------------------------------------------------------------------------


def test_a_deal_with_moves_but_no_way_home_is_lost():
    position = deal_position(DealCode.parse("SH1-C1-AAAAAAC"))
    assert len(legal_moves(position)) == 2
    assert is_lost(position, 10_000) is True
    game = Seahaven(DealCode.parse("SH1-C1-AAAAAAC"))
    assert game.is_lost()
    assert game.is_over()


def test_a_deal_with_a_card_to_put_home_is_not_lost():
    assert is_lost(deal_position(DealCode.parse("SH1-C2-AAAAAAB")), 10) is False


def test_a_won_game_is_not_lost():
    done = position_from_cards([""] * 10, [None] * 4, {"S": 13, "H": 13, "D": 13, "C": 13})
    assert is_lost(done, 10) is False


def test_lost_detection_announces_nothing_when_its_budget_runs_out():
    position = deal_position(DealCode.parse("SH1-C4-AAAAAJ2"))
    assert not any(m.target in FOUNDATIONS for m in legal_moves(position))
    assert is_lost(position, 1) is None
    assert is_lost(position, 10_000) is False


def test_taking_back_never_helps_lost_detection_on_a_real_game():
    """Take-backs are left out of the search: the card taken back could only ever hold the next
    lower card of its suit, which is already home."""
    position = deal_position(DealCode.parse("SH1-C1-AAAAAAC"))
    assert not any(move.source in FOUNDATIONS for move in legal_moves(position))
    assert is_lost(position, 10_000) is True


# --- the solver's own move generator agrees with the rules -----------------------------------


def _canonical_children(position: Position) -> set[object]:
    return {
        _key(_state(Seahaven.apply(position, move)))
        for move in legal_moves(position)
        if move.source not in FOUNDATIONS and move.target not in FOUNDATIONS
    } - {_key(_state(position))}


def _fast_children(position: Position) -> set[object]:
    state = _state(position)
    return {_key(_play(state, step)) for step in _steps(state, len(position.cells))}


@pytest.mark.parametrize("seed", range(12))
def test_the_search_visits_exactly_the_boards_the_rules_reach(seed: int):
    """Lost detection walks the game's own moves, group moves included (up to symmetry)."""
    rng = random.Random(seed)
    game = Seahaven(DealCode("SH", 1, rng.choice(["C4", "C2", "C1"]), rng.randrange(10**6)))
    for _ in range(60):
        assert _fast_children(game.position) == _canonical_children(game.position)
        moves = list(game.legal_moves())
        if not moves:
            break
        game.play(rng.choice(moves), now=0)


def test_canonical_keys_ignore_column_order_and_cell_order():
    heights = {"S": 12, "H": 12, "D": 12, "C": 13}
    a = position_from_cards(["KS", "KH", *[""] * 8], ["KD", None], heights)
    b = position_from_cards(["", "KH", "", "", "KS", *[""] * 5], [None, "KD"], heights)
    assert _key(_state(a)) == _key(_state(b))
    assert a != b


def _brute_force_winnable(start: Position) -> bool:
    """Every board reachable with the rules' own moves (no take-backs), breadth first."""
    seen = {_key(_state(start))}
    queue = deque([start])
    while queue:
        position = queue.popleft()
        if position.is_won():
            return True
        for move in legal_moves(position):
            if move.source in FOUNDATIONS:
                continue
            child = Seahaven.apply(position, move)
            key = _key(_state(child))
            if key not in seen:
                seen.add(key)
                queue.append(child)
    return False


@pytest.mark.parametrize(
    "code", ["SH1-C2-AAAAAAB", "SH1-C2-AAAAAAC", "SH1-C1-AAAAAJ2", "SH1-C4-AAAAAAG"]
)
def test_no_win_agrees_with_a_plain_breadth_first_search(code: str):
    deal = DealCode.parse(code)
    assert solve_code(deal, 10_000).verdict is Verdict.NO_WIN
    assert _brute_force_winnable(deal_position(deal)) is False


# --- what a server needs: deferred proofs, position keys, a time bound ------------------------


def test_a_game_that_defers_proofs_never_searches(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("searched")

    game = Seahaven(DealCode.parse("SH1-C1-AAAAAAC"))  # lost at the deal
    game.defer_proofs()
    monkeypatch.setattr(seahaven_solver, "is_lost", refuse)
    assert (game.verdict(), game.is_lost(), game.is_over()) == (None, False, False)
    game.note_verdict(True)
    assert (game.verdict(), game.is_lost(), game.is_over()) == (True, True, True)


def test_the_position_key_ignores_column_order_and_which_cell_holds_a_card():
    position = deal_position(DealCode.parse("SH1-C4-AAAAAJ2"))
    key = position_key(position)
    assert position_key(position._replace(columns=position.columns[::-1])) == key
    assert position_key(position._replace(cells=position.cells[::-1])) == key
    assert position_key(deal_position(DealCode.parse("SH1-C2-AAAAAJ2"))) != key
    moved = Seahaven(DealCode.parse("SH1-C4-AAAAAJ2"))
    moved.play(next(iter(moved.legal_moves())))
    assert position_key(moved.position) != key


def test_a_proof_past_its_deadline_gives_up_without_a_verdict():
    costly = deal_position(DealCode.parse("SH1-C4-AAAABBX"))
    assert is_lost(costly, deadline=time.monotonic()) is None
