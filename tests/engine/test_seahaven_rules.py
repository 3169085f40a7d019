"""SPEC §3 Moves, Score and places: one test per rule sentence, on small hand-built boards."""

from __future__ import annotations

import pytest

from app.engine.cards import Card
from app.engine.codes import DealCode
from app.engine.game import IllegalMoveError, MoveParseError, RecordError, UnknownPlaceError
from app.engine.seahaven import (
    CELLS,
    FOUNDATIONS,
    Move,
    Position,
    Reason,
    Refusal,
    Seahaven,
    check_move,
    format_move,
    legal_moves,
    max_group,
    parse_place,
    place_name,
    position_from_cards,
)

# Columns 1 … 10; 3 of 4 cells filled; S 1, H 5, D 5, C 4 home (the documents' example board).
EXAMPLE = position_from_cards(
    [
        "5C 10S",
        "6C 9S 8S 7S 6S 5S 4S 3S 2S",
        "7C KH QH JH 10H 9H",
        "8C KD QD JD 10D",
        "",
        "",
        "9C KS QS JS",
        "10C 6H 7D",
        "JC 7H 6D",
        "QC 8D",
    ],
    ["8H", "9D", "KC", None],
    {"S": 1, "H": 5, "D": 5, "C": 4},
)


def col(n: int) -> int:
    return parse_place(f"column-{n}")


def cell(n: int) -> int:
    return parse_place(f"cell-{n}")


def home(suit: str) -> int:
    return parse_place(f"foundation-{suit}")


def board(position: Position) -> list[str]:
    return [" ".join(map(str, column)) for column in position.columns]


# --- places ----------------------------------------------------------------------------------


def test_place_names_are_the_web_layers():
    names = [place_name(p) for p in range(18)]
    assert names == [
        *(f"column-{k}" for k in range(1, 11)),
        "cell-1",
        "cell-2",
        "cell-3",
        "cell-4",
        "foundation-S",
        "foundation-H",
        "foundation-D",
        "foundation-C",
    ]
    assert all(parse_place(name) == p for p, name in enumerate(names))


@pytest.mark.parametrize(
    ("name", "cells"), [("cell-3", 2), ("cell-2", 1), ("column-11", 4), ("pile-1", 4), ("", 4)]
)
def test_unknown_places_are_refused(name: str, cells: int):
    with pytest.raises(UnknownPlaceError):
        parse_place(name, cells)


def game_of(code: str) -> Seahaven:
    return Seahaven(DealCode.parse(code))


def test_a_two_cell_game_refuses_cell_3_in_actions():
    game = Seahaven(DealCode.parse("SH1-C2-AAAAAJ2"))
    with pytest.raises(UnknownPlaceError):
        game.tap("cell-3", None)
    with pytest.raises(UnknownPlaceError):
        game.move("column-1", Card.parse("8D"), "cell-3")
    with pytest.raises(UnknownPlaceError):  # an index the caller parsed is checked too
        game.tap(parse_place("cell-3"), None)


def test_actions_take_places_already_parsed_like_half_moon():
    by_name, by_index = game_of("SH1-C4-AAAAAJ2"), game_of("SH1-C4-AAAAAJ2")
    top = by_name.position.columns[0][-1]
    assert by_index.auto(parse_place("column-1"), top, now=0) == by_name.auto(
        "column-1", top, now=0
    )
    assert by_index.position == by_name.position


def test_a_move_to_a_cell_the_variant_removed_is_illegal():
    position = Seahaven(DealCode.parse("SH1-C2-AAAAAJ2")).position
    assert check_move(position, Move(col(1), 1, CELLS[2])) == Refusal(Reason.UNKNOWN_PLACE)
    with pytest.raises(IllegalMoveError):
        Seahaven.apply(position, Move(col(1), 1, CELLS[2]))


# --- moves onto columns ------------------------------------------------------------------------


def test_a_card_goes_onto_the_same_suit_one_rank_higher():
    moved = Seahaven.apply(EXAMPLE, Move(col(9), 1, col(8)))
    assert board(moved)[7:9] == ["10C 6H 7D 6D", "JC 7H"]


def assert_refused(reason: Reason, sentence: str, *moves: Move) -> None:
    """Each of ``moves`` on the example board is refused for ``reason``, which says
    ``sentence``."""
    for move in moves:
        assert check_move(EXAMPLE, move) == Refusal(reason), move
    assert str(Refusal(reason)) == sentence


def test_a_card_of_another_suit_or_rank_is_refused():
    moves = (Move(col(10), 1, col(9)), Move(col(10), 1, col(3)), Move(cell(1), 1, col(8)))
    assert_refused(Reason.SAME_SUIT_ONE_LOWER, "Same suit, one rank lower.", *moves)


def test_a_card_in_a_cell_moves_onto_a_column():
    moved = Seahaven.apply(EXAMPLE, Move(cell(1), 1, col(3)))
    assert board(moved)[2] == "7C KH QH JH 10H 9H 8H"
    assert moved.cells == (None, Card.parse("9D"), Card.parse("KC"), None)


def test_only_the_top_card_or_the_run_above_a_card_can_move():
    # 6C in column 2 lies under the spade run: moving "from" it is not a run.
    assert check_move(EXAMPLE, Move(col(2), 9, col(5))) == Refusal(Reason.NOT_MOVABLE)
    assert (
        str(Refusal(Reason.NOT_MOVABLE)) == "Only the top card or a run of the same suit can move."
    )


# --- empty columns -----------------------------------------------------------------------------


def test_empty_column_takes_only_a_king():
    moves = (Move(col(10), 1, col(5)), Move(col(2), 8, col(5)))
    assert_refused(Reason.KING_ONLY, "Only a king can go to an empty column.", *moves)


def test_a_king_from_a_cell_goes_to_an_empty_column():
    moved = Seahaven.apply(EXAMPLE, Move(cell(3), 1, col(5)))
    assert board(moved)[4] == "KC"
    assert moved.cells[2] is None


def test_a_king_led_run_moves_into_an_empty_column():
    moved = Seahaven.apply(EXAMPLE, Move(col(4), 4, col(6)))
    assert board(moved)[3:6] == ["8C", "", "KD QD JD 10D"]


# --- group moves -------------------------------------------------------------------------------


def test_group_size_example_from_the_documents():
    assert EXAMPLE.free_cells == 1
    assert EXAMPLE.empty_columns == 2
    assert max_group(EXAMPLE, target_is_empty_column=False) == 8
    assert max_group(EXAMPLE, target_is_empty_column=True) == 4


def test_a_run_of_eight_moves_onto_a_column_with_one_cell_and_two_empty_columns():
    moved = Seahaven.apply(EXAMPLE, Move(col(2), 8, col(1)))
    assert board(moved)[:2] == ["5C 10S 9S 8S 7S 6S 5S 4S 3S 2S", "6C"]


def test_a_king_led_run_of_five_into_an_empty_column_is_refused_with_the_limit():
    refusal = check_move(EXAMPLE, Move(col(3), 5, col(5)))
    assert refusal == Refusal(Reason.GROUP_TOO_LARGE, 4)
    assert str(refusal) == "That group needs more free cells: at most 4 cards can move now."


def test_the_group_limit_counts_free_cells_plus_one_times_two_per_empty_column():
    full = EXAMPLE._replace(cells=(Card.parse("8H"), Card.parse("9D"), Card.parse("KC"), None))
    assert max_group(full, False) == (1 + 1) * 2**2
    one_cell = Seahaven.from_position(
        position_from_cards(
            ["KS QS JS", "", "", "", "", "", "", "", "", ""],
            [None],
            {"S": 10, "H": 13, "D": 13, "C": 13},
        )
    )
    assert one_cell.max_group() == (1 + 1) * 2**9
    assert one_cell.max_group(target_is_empty_column=True) == (1 + 1) * 2**8


def test_a_group_over_the_limit_names_the_singular_limit():
    assert str(Refusal(Reason.GROUP_TOO_LARGE, 1)) == (
        "That group needs more free cells: at most 1 card can move now."
    )


def test_runs_never_go_into_a_cell_or_onto_a_foundation():
    two = position_from_cards(
        ["3S 2S", "", "", "", "", "", "", "", "", "KS QS JS 10S 9S 8S 7S 6S 5S 4S"],
        [None, None, None, None],
        {"S": 1, "H": 13, "D": 13, "C": 13},
    )
    assert check_move(two, Move(col(1), 2, cell(1))) == Refusal(Reason.CELL_HOLDS_ONE)
    assert check_move(two, Move(col(1), 2, home("S"))) == Refusal(Reason.FOUNDATION_ONE_AT_A_TIME)


# --- cells -------------------------------------------------------------------------------------


def test_a_cell_holds_one_card():
    assert check_move(EXAMPLE, Move(col(1), 1, cell(1))) == Refusal(Reason.CELL_HOLDS_ONE)
    moved = Seahaven.apply(EXAMPLE, Move(col(1), 1, cell(4)))
    assert moved.cells[3] == Card.parse("10S")
    assert str(Refusal(Reason.CELL_HOLDS_ONE)) == "A cell holds one card."


# --- foundations -------------------------------------------------------------------------------


def test_foundations_are_built_from_the_ace_up_one_card_at_a_time():
    position = position_from_cards(
        ["3S 2S AS", "KS QS JS 10S 9S 8S 7S 6S 5S 4S", "", "", "", "", "", "", "", ""],
        [None, None, None, None],
        {"S": 0, "H": 13, "D": 13, "C": 13},
    )
    assert check_move(position, Move(col(1), 1, home("H"))) == Refusal(Reason.FOUNDATION_ORDER)
    for height in (1, 2, 3):
        position = Seahaven.apply(position, Move(col(1), 1, home("S")))
        assert position.foundations[0] == height
    assert position.score == 10 * (3 + 13 * 3)
    assert check_move(position, Move(col(2), 1, home("S"))) is None


def test_a_card_out_of_order_is_refused_by_its_foundation():
    position = position_from_cards(
        ["AS 2S", "KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S", "", "", "", "", "", "", "", ""],
        [None, None, None, None],
        {"S": 0, "H": 13, "D": 13, "C": 13},
    )
    refusal = check_move(position, Move(col(1), 1, home("S")))
    assert refusal == Refusal(Reason.FOUNDATION_ORDER)
    assert str(refusal) == "Foundations are built up by suit from the ace."


def test_a_foundation_top_can_be_taken_back_onto_a_column_or_into_a_cell():
    position = position_from_cards(
        ["KS QS JS", "", "", "", "", "", "", "", "", ""],
        [None, "10S", None, None],
        {"S": 9, "H": 13, "D": 13, "C": 13},
    )
    assert check_move(position, Move(home("S"), 1, col(1))) == Refusal(Reason.SAME_SUIT_ONE_LOWER)
    into_cell = Seahaven.apply(position, Move(home("S"), 1, cell(1)))
    assert into_cell.cells[0] == Card.parse("9S")
    assert into_cell.foundations[0] == 8
    assert into_cell.score == position.score - 10


def test_a_king_on_a_foundation_can_come_back_to_an_empty_column():
    position = position_from_cards(
        ["", "", "", "", "", "", "", "", "", ""],
        [None, None, None, None],
        {"S": 13, "H": 13, "D": 13, "C": 13},
    )
    back = Seahaven.apply(position, Move(home("H"), 1, col(3)))
    assert board(back)[2] == "KH"
    assert back.foundations == (13, 12, 13, 13)
    assert check_move(position, Move(home("H"), 1, col(3))) is None


def test_an_empty_foundation_has_nothing_to_take_back():
    assert check_move(EXAMPLE, Move(home("S"), 1, cell(4))) is None
    zero = Seahaven(DealCode.parse("SH1-C4-AAAAAJ2")).position
    assert check_move(zero, Move(home("S"), 1, CELLS[2])) == Refusal(Reason.NOTHING_THERE)


# --- score -------------------------------------------------------------------------------------


def test_score_is_ten_per_card_on_the_foundations():
    assert EXAMPLE.score == 10 * (1 + 5 + 5 + 4)


def test_undo_restores_the_identical_position_and_score():
    game = Seahaven.from_position(EXAMPLE)
    before = (game.position, game.score, game.move_count)
    game.play(Move(col(9), 1, home("D")), now=0)
    assert game.score == before[1] + 10
    assert game.move_count == 1
    assert game.undo(now=0)
    assert (game.position, game.score, game.move_count) == before


# --- legal moves -------------------------------------------------------------------------------


def test_legal_moves_can_be_iterated_and_tested_with_in():
    moves = legal_moves(EXAMPLE)
    assert Move(col(2), 8, col(1)) in moves
    assert Move(col(3), 5, col(5)) not in moves
    assert Move(col(4), 4, col(5)) in moves
    assert Move(col(9), 1, home("D")) in moves
    assert "ab" not in moves
    assert sorted(str(m) for m in moves) == [
        "Cn",
        "Di",
        "Dn",
        "Hn",
        "Sb",
        "Sn",
        "ag",
        "an",
        "bS",
        "ba8",
        "bn",
        "cn",
        "de4",
        "df4",
        "dn",
        "ge3",
        "gf3",
        "gn",
        "hj",
        "hn",
        "iD",
        "ih",
        "in",
        "jn",
        "kc",
        "kn",
        "ld",
        "ln",
        "me",
        "mf",
        "mn",
    ]
    assert all(check_move(EXAMPLE, m) is None for m in moves)
    assert len(moves) == len(list(moves))


def test_the_deal_s_legal_moves_are_exactly_these():
    position = Seahaven(DealCode.parse("SH1-C2-AAAAAAB")).position
    assert sorted(str(m) for m in legal_moves(position)) == ["aH", "fb"]


# --- move text ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "text"),
    [
        (Move(0, 1, 14), "aS"),
        (Move(9, 13, 4), "je13"),
        (Move(13, 1, 17), "nC"),
        (Move(15, 1, 10), "Hk"),
        (Move(2, 3, 7), "ch3"),
    ],
)
def test_move_text_round_trips(move: Move, text: str):
    assert str(move) == text
    assert Move.parse(text) == move


@pytest.mark.parametrize("text", ["", "a", "aSx", "ab1", "ab14", "ab0", "zz", "AB", "ab 2", "a-b"])
def test_garbage_move_text_is_a_syntax_error_not_an_illegal_move(text: str):
    with pytest.raises(MoveParseError) as raised:
        Move.parse(text)
    assert not isinstance(raised.value, IllegalMoveError)


def test_garbage_move_text_in_a_record_is_a_record_error():
    record = Seahaven(DealCode.parse("SH1-C4-AAAAAJ2")).to_record() | {"moves": "ab14"}
    with pytest.raises(RecordError, match="'ab14' is not a Seahaven move"):
        Seahaven.from_record(record)


def test_format_move_names_the_card_and_places():
    assert format_move(Move(col(2), 8, col(1)), EXAMPLE) == "9S…(8) column-2 → column-1"
    assert format_move(Move(col(9), 1, home("D")), EXAMPLE) == "6D column-9 → foundation-D"
    assert format_move(Move(col(9), 1, home("D"))) == "1 card column-9 → foundation-D"
    assert FOUNDATIONS[1] == home("H")
