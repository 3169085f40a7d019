"""Cards: parse ↔ str, precise errors, the start order of a deck."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.engine.cards import KING, Card, CardParseError, fresh_deck, fresh_decks, iter_cards


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [("AS", 1, "S"), ("10D", 10, "D"), ("JC", 11, "C"), ("QS", 12, "S"), ("KH", 13, "H")],
)
def test_card_parses_rank_and_suit(text, rank, suit):
    card = Card.parse(text)
    assert (card.rank, card.suit) == (rank, suit)
    assert str(card) == text


def test_parse_is_forgiving_about_case_spaces_symbols_and_t_for_ten():
    assert Card.parse(" qs ") == Card(12, "S")
    assert Card.parse("K♥") == Card(KING, "H")
    assert Card.parse("TD") == Card.parse("10D")


@given(st.sampled_from(list(iter_cards())))
def test_every_card_round_trips_through_text(card):
    assert Card.parse(str(card)) == card
    assert eval(repr(card), {"Card": Card}) == card


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "expected a rank"),
        ("S", "expected a rank"),
        ("10X", "unknown suit 'X'"),
        ("11H", "unknown rank '11'"),
        ("1H", "unknown rank '1'"),
        ("ZZZ", "unknown suit 'Z'"),
    ],
)
def test_invalid_text_names_what_was_wrong(text, says):
    with pytest.raises(CardParseError, match=says):
        Card.parse(text)
    assert issubclass(CardParseError, ValueError)


def test_cards_are_hashable_values():
    assert len({Card.parse("QH"), Card.parse("qh"), Card.parse("Q♥")}) == 1


def test_face_cards_are_jack_queen_king():
    assert [c.rank_text for c in fresh_deck() if c.is_face] == ["J", "Q", "K"] * 4


def test_deck_start_order_is_spades_hearts_diamonds_clubs_ace_to_king():
    deck = [str(c) for c in fresh_deck()]
    assert deck[:3] == ["AS", "2S", "3S"]
    assert deck[12:14] == ["KS", "AH"]
    assert deck[-1] == "KC"
    assert [str(c) for c in fresh_decks(2)] == deck + deck
