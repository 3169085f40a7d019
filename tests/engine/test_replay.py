"""A game's line from its deal (issue 26): every step's position without replaying the whole
line, the text form that parses back, and the errors that name the text's line."""

from __future__ import annotations

import pytest

from app.engine.codes import DealCode
from app.engine.game import MAX_RECORD_MOVES, MoveParseError, RecordError
from app.engine.halfmoon import HalfMoon, deal
from app.engine.halfmoon.solver import solve
from app.engine.replay import (
    CODE_TEXT_MAX,
    MOVE_TEXT_MAX,
    SNAPSHOT_EVERY,
    TEXT_MAX,
    Line,
    LineError,
)
from app.engine.seahaven import Seahaven
from app.engine.seahaven.rules import Move
from app.engine.seahaven.solver import solve_code

HM = DealCode.parse("HM1-N-AAAAAAB")
SH = DealCode.parse("SH1-C4-AAAAAJ2")


def won_half_moon() -> HalfMoon:
    game = HalfMoon(HM)
    game.replay(solve(deal(HM)).line, now=0)
    return game


def won_seahaven() -> Seahaven:
    game = Seahaven(SH)
    game.replay(solve_code(SH).line, now=0)
    return game


@pytest.mark.parametrize("make", [won_half_moon, won_seahaven], ids=["half-moon", "seahaven"])
def test_the_text_of_a_game_replays_through_the_engine_to_its_final_position(make) -> None:
    game = make()
    line = Line.from_moves_text(type(game), game.code, game.to_record()["moves"])
    text = line.text()
    rows = text.splitlines()
    assert rows[0] == str(game.code)
    assert rows[1:] == [str(move) for move in game.moves]  # the engine's own notation
    again = Line.from_text(text)
    replayed = type(game)(game.code)
    replayed.replay([type(game).parse_move(row) for row in rows[1:]], now=0)
    assert again.position(len(again)) == replayed.position == game.position
    assert replayed.is_won()


def test_a_step_is_a_move_of_the_games_counter_send_all_home_one_a_card() -> None:
    """A record keeps *Send all home* as one action (its moves joined by ``+``); its line has
    a step for each card sent home, as the game's Moves count them, and a run moved as one
    (``ge2``) is one step."""
    code = DealCode.parse("SH1-C4-AAAAAAB")
    game = Seahaven(code)
    game.replay(solve_code(code).line[:68], now=0)
    game.send_home(now=0)
    assert game.is_won()
    record = game.to_record()["moves"]
    assert record.count("+") == 13 and ".ge2." in record
    line = Line.from_moves_text(Seahaven, code, record)
    assert len(line) == game.move_count == 82
    assert line.moves == tuple(game.moves)
    assert str(line.move(20)) == "ge2" and line.move(20).count == 2
    assert line.position(82) == game.position


def test_every_step_is_the_position_the_moves_before_it_reach() -> None:
    game = won_seahaven()
    line = Line(Seahaven, SH, game.moves)
    assert len(line) == len(game.moves) > SNAPSHOT_EVERY
    for step, position in enumerate(game.positions):
        assert line.position(step) == position
    assert line.move(1) == game.moves[0]
    with pytest.raises(IndexError):
        line.position(len(line) + 1)
    with pytest.raises(IndexError):
        line.move(0)


def test_a_step_replays_fewer_moves_than_a_snapshot_apart(monkeypatch) -> None:
    """A 5,000-move game: the position of its last step costs a snapshot and fewer than
    SNAPSHOT_EVERY moves, never the whole line."""
    shuffle = [Seahaven.parse_move(text) for text in ("km", "mk") * 2500]  # cell 1 ↔ cell 3
    line = Line(Seahaven, SH, shuffle)
    assert len(line) == 5000
    played = []
    real = Seahaven.result

    def counted(cls, position, move):
        played.append(move)
        return real(position, move)

    monkeypatch.setattr(Seahaven, "result", classmethod(counted))
    assert line.position(4999) == line.position(1)  # km then mk, 2499 times over
    assert len(played) < 2 * SNAPSHOT_EVERY


def test_a_lines_text_is_written_once(monkeypatch) -> None:
    """A pasted game's every step carries its text: the second call writes nothing."""
    line = Line(Seahaven, SH, [Seahaven.parse_move(text) for text in ("km", "mk") * 2500])
    first = line.text()
    monkeypatch.setattr(Move, "__str__", lambda move: pytest.fail("the text was written again"))
    assert line.text() is first and len(first.splitlines()) == 5001


def test_the_longest_text_bound_holds_the_longest_move_of_each_game() -> None:
    """TEXT_MAX (the POST /replay body limit is made from it) names the notation's longest
    move: Seahaven's thirteen cards, Half Moon's triple."""
    longest = (str(Move(0, 13, 1)), str(HalfMoon.parse_move("bcl")))
    assert longest == ("ab13", "bcl")
    assert max(map(len, longest)) == MOVE_TEXT_MAX
    with pytest.raises(MoveParseError):
        Seahaven.parse_move("ab14")
    assert TEXT_MAX == CODE_TEXT_MAX + 1 + MAX_RECORD_MOVES * (MOVE_TEXT_MAX + 1) == 25_065


def test_a_line_with_a_move_the_rules_refuse_names_its_line() -> None:
    with pytest.raises(LineError) as caught:
        Line.from_text("HM1-N-AAAAAAB\n\nae\n  ae  \n")
    error = caught.value
    assert (error.kind, error.number, error.text, error.game) == ("illegal", 4, "ae", HalfMoon)
    assert error.refusal is not None and str(error.refusal) == "The sum must be 11."


@pytest.mark.parametrize(
    ("text", "kind", "number", "shown"),
    [
        ("", "empty", 1, ""),
        ("\n \n", "empty", 1, ""),
        ("XX1-N-AAAAAAB\nae", "code", 1, "XX1-N-AAAAAAB"),
        ("\nhm1-n-aaaaaab\nae\nzz\n", "move", 4, "zz"),
        ("SH1-C4-AAAAAJ2\nkm\nae1\n", "move", 3, "ae1"),
        ("SH1-C4-AAAAAJ2\nkm\nmk\nmk\n", "illegal", 4, "mk"),
    ],
)
def test_a_text_that_is_not_a_game_is_refused_at_its_first_bad_line(text, kind, number, shown):
    with pytest.raises(LineError) as caught:
        Line.from_text(text)
    assert (caught.value.kind, caught.value.number, caught.value.text) == (kind, number, shown)


def test_a_text_of_more_moves_than_a_record_keeps_is_refused() -> None:
    text = "SH1-C4-AAAAAJ2\n" + "km\nmk\n" * 2500 + "km\n"
    with pytest.raises(LineError) as caught:
        Line.from_text(text)
    assert (caught.value.kind, caught.value.number) == ("too_long", 5002)
    assert len(Line.from_text(text.removesuffix("km\n"))) == 5000


def test_a_record_whose_line_the_rules_refuse_is_a_record_error() -> None:
    with pytest.raises(RecordError):
        Line.from_moves_text(HalfMoon, HM, "ae.ae")
    with pytest.raises(RecordError):
        Line.from_moves_text(HalfMoon, HM, "ae.zz")
    assert len(Line.from_moves_text(HalfMoon, HM, "")) == 0


def test_points_of_a_position_are_the_score_the_game_has_there() -> None:
    for game in (won_half_moon(), won_seahaven()):
        replayed = type(game)(game.code)
        for move in game.moves:
            replayed.play(move, now=0)
            assert type(game).points(replayed.position) == replayed.score
