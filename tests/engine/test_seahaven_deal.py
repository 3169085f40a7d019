"""SPEC §3 Deal: golden deals pinned card by card, and the layout rule itself."""

from __future__ import annotations

import pytest

from app.engine.codes import DealCode
from app.engine.rng import shuffled_cards
from app.engine.seahaven import Position, Seahaven, deal_position


def _layout(position: Position) -> list[str]:
    rows = [" ".join(str(card) for card in column) for column in position.columns]
    rows.append("cells " + " ".join("-" if c is None else str(c) for c in position.cells))
    return rows


GOLDEN = {
    "SH1-C4-AAAAAJ2": [
        "5C 10D 7D 3H 8D",
        "2H QS 2S KD 4D",
        "5S AH 2D 10S QC",
        "QH 7C 9S QD JD",
        "JS 2C 10C 6S 3D",
        "4S 7H 8H 6D JH",
        "7S 8S KC KS JC",
        "AS 6H 5H 5D KH",
        "4H AD 8C AC 6C",
        "3C 9C 9D 3S 4C",
        "cells 10H 9H - -",
    ],
    "SH1-C2-AAAAAAB": [
        "JD 6D 9D 8S AH",
        "KH 5S 10C KS QH",
        "5D 5H 9S 7D 10D",
        "QS 4C 3S AC 7S",
        "AD 2H 7C 10H 5C",
        "8C 6H 9C JS JH",
        "2C QC KD 9H KC",
        "10S 3C 2D AS 4D",
        "6C 3D 4S 6S 4H",
        "8H 7H 3H JC 8D",
        "cells QD 2S",
    ],
    "SH1-C4-7777777": [
        "KH 3C KS 2D 4S",
        "10S 3D 8C 7H 4H",
        "QH QS 6D 8H AH",
        "KD 7C AD JH 4D",
        "8S 10H QC 2S 9C",
        "6H 9H 4C 2H 6S",
        "9D 6C 2C 5C 9S",
        "5S JS JC AS 7S",
        "5H 10C 3S JD KC",
        "8D AC 10D 5D 7D",
        "cells QD 3H - -",
    ],
}


@pytest.mark.parametrize("code", sorted(GOLDEN))
def test_golden_deal_is_dealt_card_by_card(code: str):
    assert _layout(deal_position(DealCode.parse(code))) == GOLDEN[code]


def test_one_cell_deals_the_four_cells_deal_with_the_second_cells_card_on_column_two():
    """SH1-C1-AAAAAJ2, pinned by the four-cell deal of the same number: the same shuffle, the
    card the second cell would get (9H) on top of column 2, one cell (10H)."""
    four = _layout(deal_position(DealCode.parse("SH1-C4-AAAAAJ2")))
    one = _layout(deal_position(DealCode.parse("SH1-C1-AAAAAJ2")))
    assert four == GOLDEN["SH1-C4-AAAAAJ2"]
    assert one == [four[0], four[1] + " 9H", *four[2:10], "cells 10H"]
    assert one[1] == "2H QS 2S KD 4D 9H"


@pytest.mark.parametrize("variant", ["C4", "C2", "C1"])
def test_columns_get_five_consecutive_cards_last_on_top(variant: str):
    code = DealCode("SH", 1, variant, 98765)
    c = shuffled_cards(code)
    position = deal_position(code)
    for k in range(1, 11):
        expected = tuple(c[5 * (k - 1) : 5 * (k - 1) + 5])
        if variant == "C1" and k == 2:
            expected = (*expected, c[51])
        assert position.columns[k - 1] == expected


def test_four_cells_hold_the_last_two_cards_and_two_start_empty():
    code = DealCode.parse("SH1-C4-AAAAAJ2")
    c = shuffled_cards(code)
    assert deal_position(code).cells == (c[50], c[51], None, None)


def test_two_cells_are_both_filled():
    code = DealCode.parse("SH1-C2-AAAAAJ2")
    c = shuffled_cards(code)
    assert deal_position(code).cells == (c[50], c[51])


def test_one_cell_puts_the_last_card_on_top_of_column_two():
    code = DealCode.parse("SH1-C1-AAAAAJ2")
    c = shuffled_cards(code)
    position = deal_position(code)
    assert position.cells == (c[50],)
    assert len(position.columns[1]) == 6
    assert position.columns[1][-1] == c[51]


def test_the_variant_does_not_change_the_cards():
    c4 = deal_position(DealCode.parse("SH1-C4-AAAAAJ2"))
    c1 = deal_position(DealCode.parse("SH1-C1-AAAAAJ2"))
    assert sorted(c4.cards()) == sorted(c1.cards())
    assert c4.columns[0] == c1.columns[0]


def test_a_deal_starts_with_empty_foundations_and_no_score():
    game = Seahaven(DealCode.parse("SH1-C2-AAAAAAB"))
    assert game.position.foundations == (0, 0, 0, 0)
    assert game.score == 0
    assert game.move_count == 0


def test_a_half_moon_code_is_not_a_seahaven_deal():
    with pytest.raises(ValueError, match="not a Seahaven Towers deal"):
        Seahaven(DealCode.parse("HM1-N-AAAAAAB"))
