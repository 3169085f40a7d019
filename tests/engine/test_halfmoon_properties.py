"""Properties over random deals and random tap sequences (hypothesis)."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.cards import fresh_decks
from app.engine.codes import MAX_NUMBER, DealCode
from app.engine.halfmoon import (
    PLACES,
    HalfMoon,
    Outcome,
    is_pair,
    is_triple,
    legal_moves,
)
from tests.engine.history import assert_rebuilt

deals = st.integers(min_value=0, max_value=MAX_NUMBER).map(lambda n: DealCode("HM", 1, "N", n))
taps = st.lists(st.integers(min_value=0, max_value=PLACES - 1), max_size=300)


def play_taps(code, places):
    """Tap places in order (the card shown there, so never stale); undo now and then."""
    game = HalfMoon(code)
    for i, place in enumerate(places):
        card = game.position.top(place)
        if card is None:
            assert game.tap(place, fresh_decks(1)[0], now=i).outcome is Outcome.IGNORED
            continue
        game.tap(place, card, now=i)
    return game


def table_cards(position):
    return [c for pile in position.piles for c in pile] + [c for c in position.reserve if c]


@settings(max_examples=60, deadline=None)
@given(deals, taps)
def test_all_104_cards_are_always_accounted_for(code, places):
    game = play_taps(code, places)
    removed = [
        c
        for before, move in zip(game.positions, game.moves, strict=False)
        for c in (before.top(p) for p in move)
    ]
    assert Counter(removed) + Counter(table_cards(game.position)) == Counter(fresh_decks(2))


@settings(max_examples=60, deadline=None)
@given(deals, taps)
def test_score_is_ten_per_pair_and_fifteen_per_triple(code, places):
    game = play_taps(code, places)
    pairs = sum(len(m) == 2 for m in game.moves)
    triples = sum(len(m) == 3 for m in game.moves)
    assert game.score == 10 * pairs + 15 * triples
    assert game.move_count == pairs + triples


@settings(max_examples=60, deadline=None)
@given(deals, taps)
def test_undo_after_any_move_restores_the_identical_state(code, places):
    game = play_taps(code, places)
    moves = list(legal_moves(game.position))
    if not moves:
        return
    before = (game.position, game.score, game.move_count, list(game.moves))
    game.play(moves[0], now=0)
    game.undo(now=0)
    assert (game.position, game.score, game.move_count, game.moves) == before


@settings(max_examples=60, deadline=None)
@given(deals, taps)
def test_stuck_iff_no_pair_or_triple_among_playable_cards(code, places):
    game = play_taps(code, places)
    playable = [c for _, c in game.position.playable()]
    brute = any(is_pair(a, b) for i, a in enumerate(playable) for b in playable[i + 1 :]) or any(
        is_triple((a, b, c))
        for i, a in enumerate(playable)
        for j, b in enumerate(playable[i + 1 :], i + 1)
        for c in playable[j + 1 :]
    )
    assert game.is_stuck() == (bool(playable) and not brute)
    assert bool(list(legal_moves(game.position))) == brute


@settings(max_examples=60, deadline=None)
@given(deals, taps, st.integers(min_value=0, max_value=5))
def test_serialise_then_rebuild_gives_the_identical_game(code, places, undos):
    game = play_taps(code, places)
    for _ in range(undos):
        game.undo(now=0)
    record = game.to_record()
    again = HalfMoon.from_record(record)
    assert_rebuilt(again, game)
    assert again.to_record() == record


@settings(max_examples=40, deadline=None)
@given(deals, taps)
def test_every_legal_removal_is_a_pair_or_a_triple_of_playable_cards(code, places):
    game = play_taps(code, places)
    playable = dict(game.position.playable())
    for move in legal_moves(game.position):
        cards = tuple(playable[p] for p in move)
        assert (len(cards) == 2 and is_pair(*cards)) or is_triple(cards)
