"""Half Moon records: compact, exact, and refusing tampering."""

import json

import pytest

from app.engine.cards import Card
from app.engine.codes import DealCode
from app.engine.game import RecordError
from app.engine.halfmoon import HalfMoon
from app.engine.halfmoon.solver import solve

CODE = DealCode.parse("HM1-N-AAAAAAB")


def won_game():
    game = HalfMoon(CODE)
    game.replay(solve(game.position).line, now=0)
    return game


def test_a_full_game_record_is_well_under_2_kb():
    record = won_game().to_record()
    assert len(json.dumps(record, separators=(",", ":"))) < 400


def test_record_holds_code_moves_selection_and_clock():
    game = HalfMoon(CODE)
    game.tap("pile-2", Card.parse("5D"), now=1_000)
    assert game.to_record() == {
        "v": 1,
        "code": "HM1-N-AAAAAAB",
        "moves": "",
        "redo": "",
        "floor": 0,
        "sel": "b",
        "clock": [0, 1_000],
    }


def test_rebuild_of_a_won_game_is_identical():
    game = won_game()
    again = HalfMoon.from_record(game.to_record())
    assert again.position == game.position and again.is_won() and again.score == 520


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"moves": "ab"}, "illegal move"),  # 3H + 5D do not sum to 11
        ({"moves": "az"}, "does not name Half Moon places"),
        ({"moves": "a"}, "not a Half Moon removal"),
        ({"moves": "aa"}, "not a Half Moon removal"),
        ({"sel": "zz"}, "does not name Half Moon places"),
        ({"sel": "ab"}, "not a selection a player can make"),  # two number cards
        ({"sel": "cc"}, "not a selection"),
        ({"redo": "ab"}, "illegal move"),
        ({"code": "SH1-C4-AAAAAAB"}, "not a canonical Half Moon code"),
    ],
)
def test_tampered_records_are_refused(change, says):
    record = HalfMoon(CODE).to_record() | change
    with pytest.raises(RecordError, match=says):
        HalfMoon.from_record(record)


def test_a_selection_on_an_emptied_place_is_refused():
    game = HalfMoon(CODE)
    line = solve(game.position).line
    game.play(line[0], now=0)
    letter = "abcdefghijklmnopqrst"[line[0][0]]
    record = game.to_record() | {"sel": letter}
    if game.position.top(line[0][0]) is None:
        with pytest.raises(RecordError, match="empty place"):
            HalfMoon.from_record(record)
    else:
        assert HalfMoon.from_record(record).selection == (line[0][0],)
