"""Half Moon rules, one test per sentence of the documents (000_… Turkish, 001_… Bulgarian).

Each test names the sentence it checks. Positions are written as text so every board is exact.
"""

import pytest

from app.engine.cards import Card, fresh_decks
from app.engine.codes import DealCode
from app.engine.game import IllegalMoveError, Refusal, UnknownPlaceError
from app.engine.halfmoon import (
    WON_MOVES,
    WON_SCORE,
    HalfMoon,
    Outcome,
    Position,
    Reason,
    apply_move,
    deal,
    legal_moves,
    parse_place,
    place_name,
    position_from_data,
    position_to_data,
)
from app.engine.rng import shuffled_cards

CODE = DealCode.parse("HM1-N-AAAAAAB")


def table(piles, reserve=(None,) * 8):
    """A position from short texts: piles as space-separated cards bottom → top."""
    piles = list(piles) + [""] * (12 - len(piles))
    return position_from_data({"piles": [p.split() for p in piles], "reserve": list(reserve)})


def game_on(position):
    return HalfMoon.starting_from(CODE, position)


def tap(game, place, card):
    return game.tap(place, Card.parse(card), now=0)


# --- Kurulum / Начално подреждане ------------------------------------------------------------


def test_two_decks_104_cards_each_twice():
    """ "2 deste … her karttan iki kopya olmak üzere 104 kart"."""
    position = deal(CODE)
    cards = [c for pile in position.piles for c in pile] + list(position.reserve)
    assert sorted(cards) == sorted(fresh_decks(2))


def test_twelve_piles_of_eight_and_eight_reserve_cards_from_the_shuffle():
    """ "96 tanesini, her birinde 8 kart bulunan 12 yığına … kalan 8 kart rezervi oluşturur"."""
    cards = shuffled_cards(CODE)
    position = deal(CODE)
    for p in range(12):
        assert position.piles[p] == tuple(cards[8 * p : 8 * p + 8])  # the last on top
    assert position.reserve == tuple(cards[96:])


def test_places_are_named_pile_and_reserve():
    assert [place_name(i) for i in range(20)] == [f"pile-{n}" for n in range(1, 13)] + [
        f"reserve-{n}" for n in range(1, 9)
    ]
    assert parse_place("pile-8") == 7
    assert parse_place(" Reserve-3 ") == 14
    for bad in ("pile-0", "pile-13", "reserve-9", "cell-1", "pile-", "pile-08x", ""):
        with pytest.raises(UnknownPlaceError):
            parse_place(bad)


def test_only_top_card_of_each_pile_is_shown_and_counted():
    """ "her yığının yalnızca en üst kartını gösterir"."""
    position = table(["AS 2S 3S"], ["KH", None, None, None, None, None, None, None])
    assert position.top(0) == Card.parse("3S")
    assert position.count(0) == 3
    assert position.top(12) == Card.parse("KH") and position.count(12) == 1
    assert position.top(1) is None and position.count(1) == 0


# --- İzin verilen kart kaldırma işlemleri / Разрешените премахвания --------------------------


def test_playable_cards_are_pile_tops_and_every_reserve_card():
    """ "Oynanabilir kartlar: … her birinin en üst kartı ve rezervde kalan her kart"."""
    position = table(["AS 2S", "", "5H"], ["9D", None, "JC", None, None, None, None, "KD"])
    assert [(place_name(p), str(c)) for p, c in position.playable()] == [
        ("pile-1", "2S"),
        ("pile-3", "5H"),
        ("reserve-1", "9D"),
        ("reserve-3", "JC"),
        ("reserve-8", "KD"),
    ]


@pytest.mark.parametrize(
    ("a", "b"), [("AS", "10H"), ("2D", "9C"), ("3H", "8H"), ("4C", "7S"), ("5S", "6D")]
)
def test_the_five_pairs_summing_to_eleven_are_removed(a, b):
    """ "Beş tür çift vardır: As ile 10, 2 ile 9, 3 ile 8, 4 ile 7, 5 ile 6. Kart türü önemli değildir"."""
    game = game_on(table([a, b]))
    assert tap(game, "pile-1", a).outcome is Outcome.SELECTED
    result = tap(game, "pile-2", b)
    assert result.outcome is Outcome.REMOVED
    assert result.move == (0, 1)
    assert game.position.count(0) == game.position.count(1) == 0
    assert game.score == 10


def test_ace_counts_one():
    """ "As (1 değerindedir)": ace + 10 = 11, ace + ace is not."""
    game = game_on(table(["AS", "10S", "AH"]))
    tap(game, "pile-1", "AS")
    assert tap(game, "pile-3", "AH").outcome is Outcome.REFUSED
    tap(game, "pile-1", "AS")
    assert tap(game, "pile-2", "10S").outcome is Outcome.REMOVED


def test_jack_queen_king_of_any_suits_form_a_triple():
    """ "Üçlü: herhangi bir kart türünden bir Vale, bir Kız ve bir Papaz"."""
    game = game_on(table(["JS", "QD", "KC"]))
    tap(game, "pile-1", "JS")
    tap(game, "pile-2", "QD")
    result = tap(game, "pile-3", "KC")
    assert result.outcome is Outcome.REMOVED
    assert [str(c) for c in result.cards] == ["JS", "QD", "KC"]
    assert game.score == 15


@pytest.mark.parametrize(("a", "b"), [("JS", "QS"), ("KH", "AD"), ("QC", "10D"), ("JD", "JD")])
def test_face_cards_never_pair(a, b):
    """ "Resimli kartlar hiçbir zaman çift oluşturmaz"."""
    position = table([a, b])
    assert list(legal_moves(position)) == []
    with pytest.raises(IllegalMoveError):
        apply_move(position, (0, 1))


def test_cards_combine_from_any_sources():
    """ "bir yığın kartıyla bir rezerv kartı, iki rezerv kartı veya yığınlardan iki kart"."""
    position = table(["4S", "7S"], ["7H", "4H", None, None, None, None, None, None])
    assert set(legal_moves(position)) == {(0, 1), (0, 12), (1, 13), (12, 13)}
    game = game_on(position)
    tap(game, "reserve-1", "7H")
    assert tap(game, "reserve-2", "4H").outcome is Outcome.REMOVED


def test_removed_cards_leave_and_emptied_places_stay_empty():
    """ "Kaldırılan kartlar oyundan çıkar; boşaltılan bir yığın ve … rezerv yeri boş kalır"."""
    game = game_on(table(["5S", "2C 6D"], ["AC", None, None, None, None, None, None, None]))
    tap(game, "pile-1", "5S")
    tap(game, "pile-2", "6D")
    assert game.position.top(0) is None and game.position.count(0) == 0
    assert game.position.top(1) == Card.parse("2C")
    assert game.position.cards_left == 2
    # An empty place is not playable: tapping it changes nothing.
    assert tap(game, "pile-1", "5S").outcome is Outcome.IGNORED


def test_a_removal_that_is_not_a_pair_or_triple_is_illegal():
    position = table(["5S", "5H", "JC", "QC", "KC"])
    for bad in [(0, 1), (0,), (0, 0), (2, 3), (0, 1, 2), (2, 3, 4, 0), (5, 6)]:
        with pytest.raises(IllegalMoveError):
            apply_move(position, bad)


# --- Kartlara dokunmak / Докосване на картите -------------------------------------------------


def test_first_tap_selects_the_card():
    """ "İlk karta dokunulur: kart seçilir"."""
    game = game_on(table(["5S", "6D"]))
    result = tap(game, "pile-1", "5S")
    assert result.outcome is Outcome.SELECTED
    assert game.selection == (0,)
    assert game.score == 0 and game.move_count == 0


def test_tapping_the_selected_card_again_deselects_it():
    """ "Seçili karta yeniden dokunmak seçimi kaldırır"."""
    game = game_on(table(["JS", "QD", "KC"]))
    tap(game, "pile-1", "JS")
    tap(game, "pile-2", "QD")
    assert tap(game, "pile-2", "QD").outcome is Outcome.DESELECTED
    assert game.selection == (0,)
    assert tap(game, "pile-1", "JS").outcome is Outcome.DESELECTED
    assert game.selection == ()


def test_triple_is_removed_only_on_the_third_tap_in_any_order():
    """ "üç resimli karta art arda dokunulur; üçüncü dokunuşta kaldırılırlar"."""
    for order in (("pile-3", "pile-1", "pile-2"), ("pile-2", "pile-3", "pile-1")):
        game = game_on(table(["JS", "QD", "KC"]))
        cards = {"pile-1": "JS", "pile-2": "QD", "pile-3": "KC"}
        outcomes = [tap(game, place, cards[place]).outcome for place in order]
        assert outcomes == [Outcome.SELECTED, Outcome.SELECTED, Outcome.REMOVED]


def test_the_app_never_picks_the_third_card():
    """ "Uygulama üçüncü kartı hiçbir zaman oyuncunun yerine seçmez"."""
    game = game_on(table(["JS", "QD", "KC"]))
    tap(game, "pile-1", "JS")
    tap(game, "pile-2", "QD")
    assert game.move_count == 0
    assert game.position.cards_left == 3
    assert game.selection == (0, 1)


def test_two_number_cards_not_summing_to_eleven_clear_the_selection():
    """ "toplamı 11 olmayan iki sayı kartı … seçimi temizler"."""
    game = game_on(table(["5S", "AH"]))
    tap(game, "pile-1", "5S")
    result = tap(game, "pile-2", "AH")
    assert result.outcome is Outcome.REFUSED
    assert result.refusal == Refusal(Reason.SUM_NOT_ELEVEN)
    assert game.selection == ()
    assert game.position.cards_left == 2


def test_number_card_then_face_card_clears_the_selection():
    """ "bir sayı kartıyla bir resimli kart (5♠ ve R♥) seçimi temizler"."""
    game = game_on(table(["5S", "KH"]))
    tap(game, "pile-1", "5S")
    result = tap(game, "pile-2", "KH")
    assert (result.outcome, result.refusal) == (Outcome.REFUSED, Refusal(Reason.SUM_NOT_ELEVEN))
    assert game.selection == ()


def test_face_card_then_number_card_clears_the_selection():
    game = game_on(table(["JH", "QS", "5S"]))
    tap(game, "pile-1", "JH")
    tap(game, "pile-2", "QS")
    result = tap(game, "pile-3", "5S")
    assert (result.outcome, result.refusal) == (
        Outcome.REFUSED,
        Refusal(Reason.NEED_JACK_QUEEN_KING),
    )
    assert game.selection == ()


def test_two_face_cards_of_the_same_rank_do_not_combine_the_second_is_selected():
    """ "Aynı değerde iki resimli kart (iki R♥) birleştirilmez: ikinci kart seçili kart olur"."""
    game = game_on(table(["KH", "KH"]))
    tap(game, "pile-1", "KH")
    assert tap(game, "pile-2", "KH").outcome is Outcome.REPLACED
    assert game.selection == (1,)


def test_same_rank_face_replaces_in_place_keeping_the_other():
    """SPEC §2: J♣ Q♥ then J♦ → J♦ Q♥."""
    game = game_on(table(["JC", "QH", "JD", "KS"]))
    tap(game, "pile-1", "JC")
    tap(game, "pile-2", "QH")
    assert tap(game, "pile-3", "JD").outcome is Outcome.REPLACED
    assert [str(c) for c in game.selected_cards()] == ["JD", "QH"]
    assert tap(game, "pile-4", "KS").outcome is Outcome.REMOVED
    assert game.position.top(0) == Card.parse("JC")


def test_refusal_messages_are_the_documents_sentences():
    """ "Toplam 11 olmalıdır." / "Bir Vale, bir Kız ve bir Papaz gerekir."."""
    assert str(Refusal(Reason.SUM_NOT_ELEVEN)) == "The sum must be 11."
    assert str(Refusal(Reason.NEED_JACK_QUEEN_KING)) == "You need a jack, a queen and a king."


def test_placement_help_dims_cards_that_cannot_combine():
    """ "Yerleştirme yardımı … onunla birlikte kullanılamayan kartları karartır"."""
    game = game_on(
        table(["5S", "6D", "6H", "4C", "JS"], ["QD", None, None, None, None, None, None, "JH"])
    )
    assert game.dimmed() == frozenset()
    tap(game, "pile-1", "5S")
    dimmed = ["pile-4", "pile-5", "reserve-1", "reserve-8"]
    assert sorted(place_name(p) for p in game.dimmed()) == dimmed
    tap(game, "pile-1", "5S")
    tap(game, "pile-5", "JS")
    dimmed = ["pile-1", "pile-2", "pile-3", "pile-4", "reserve-8"]
    assert sorted(place_name(p) for p in game.dimmed()) == dimmed


def test_a_stale_tap_changes_nothing():
    """The card the player saw is no longer there: nothing happens."""
    game = game_on(table(["5S", "6D"]))
    tap(game, "pile-1", "5S")
    before = (game.position, game.selection)
    assert tap(game, "pile-2", "6H").outcome is Outcome.STALE
    assert (game.position, game.selection) == before


def test_tapping_an_unknown_place_raises():
    game = game_on(table(["5S"]))
    with pytest.raises(UnknownPlaceError):
        tap(game, "pile-13", "5S")
    with pytest.raises(UnknownPlaceError):
        game.tap(20, Card.parse("5S"))


# --- Puan / Резултатът -----------------------------------------------------------------------


def test_pair_scores_ten_triple_fifteen_and_moves_count_removals():
    """ "Her çift puana 10, her üçlü 15 ekler"."""
    game = game_on(table(["5S", "6D", "JS", "QD", "KC"]))
    game.play((0, 1), now=0)
    assert (game.score, game.move_count) == (10, 1)
    game.play((2, 3, 4), now=0)
    assert (game.score, game.move_count) == (25, 2)


def test_a_won_game_is_48_moves_and_520_points():
    """ "her zaman 40 çift ve 8 üçlü kaldırılır: tam olarak 48 hamle ve 520 puan"."""
    assert (WON_MOVES, WON_SCORE) == (48, 520)


# --- Oyunun sonu / Краят на играта --------------------------------------------------------------


def test_won_when_all_cards_are_removed():
    game = game_on(table(["5S", "6D"]))
    assert not game.is_won()
    game.play((0, 1), now=0)
    assert game.is_won() and game.is_over() and not game.is_stuck()


def test_stuck_when_no_pair_and_no_triple_is_playable():
    """ "oynanabilir kartlar arasında toplamı 11 olan hiçbir çift ve … üçlüsü yoktur"."""
    stuck = table(["6D 5S", "JS", "QD", "2C"], ["2H", "7C", None, None, None, None, None, None])
    assert stuck.is_stuck()
    open_pair = table(["5S", "6D"])
    assert not open_pair.is_stuck()
    open_triple = table(["JS", "QD"], ["KS", None, None, None, None, None, None, None])
    assert not open_triple.is_stuck()
    hidden = table(["5S 6D"])  # the 6 lies under the 5: same pile, never together
    assert hidden.is_stuck()


def test_a_card_under_another_of_the_same_pile_is_not_playable():
    position = table(["6D 5S"])
    assert list(legal_moves(position)) == []


# --- Uygulamanın sundukları / Какво прави приложението ---------------------------------------


def test_undo_returns_cards_to_their_places_and_lowers_score_and_counter():
    """ "Geri alma: … kartlar yerlerine döner, puan ve hamle sayacı azalır"."""
    game = game_on(table(["5S", "6D", "JS", "QD", "KC"]))
    start = game.position
    game.play((0, 1), now=0)
    after_pair = game.position
    game.play((2, 3, 4), now=0)
    assert game.undo(now=0)
    assert (game.position, game.score, game.move_count) == (after_pair, 10, 1)
    assert game.undo(now=0)
    assert (game.position, game.score, game.move_count) == (start, 0, 0)
    assert not game.undo(now=0)


def test_redo_replays_the_undone_moves_and_a_new_move_drops_them():
    game = game_on(table(["5S", "6D", "JS", "QD", "KC", "4S", "7S"]))
    game.play((0, 1), now=0)
    game.play((2, 3, 4), now=0)
    game.undo(now=0)
    game.undo(now=0)
    assert game.redo(now=0)
    assert game.moves == [(0, 1)] and game.can_redo()
    game.play((5, 6), now=0)
    assert not game.can_redo() and not game.redo(now=0)


def test_undo_clears_the_selection():
    game = game_on(table(["5S", "6D", "JS"]))
    game.play((0, 1), now=0)
    tap(game, "pile-3", "JS")
    game.undo(now=0)
    assert game.selection == ()


def test_restart_deals_the_same_cards_from_the_start():
    game = HalfMoon(CODE)
    start = game.position
    move = next(iter(legal_moves(start)))
    game.play(move, now=5)
    game.restart()
    assert (game.position, game.score, game.move_count, game.can_undo()) == (start, 0, 0, False)
    assert game.clock.elapsed(10_000) == 0


def test_clock_starts_with_the_first_action_and_stops_when_won():
    game = game_on(table(["5S", "6D", "4C"], ["7D", None, None, None, None, None, None, None]))
    assert game.clock.elapsed(50_000) == 0
    game.tap("pile-1", Card.parse("5S"), now=10_000)
    assert game.clock.elapsed(12_000) == 2_000
    game.tap("pile-2", Card.parse("6D"), now=13_000)
    game.tap("pile-3", Card.parse("4C"), now=15_000)
    game.tap("reserve-1", Card.parse("7D"), now=16_000)
    assert game.is_won()
    assert game.clock.elapsed(99_000) == 6_000


def test_clock_stops_when_stuck_and_resumes_after_undo():
    game = game_on(table(["5S", "6D", "2C"], ["3H", None, None, None, None, None, None, None]))
    game.tap("pile-1", Card.parse("5S"), now=0)
    game.tap("pile-2", Card.parse("6D"), now=1_000)
    assert game.is_stuck()
    assert game.clock.elapsed(60_000) == 1_000
    game.undo(now=60_000)
    assert game.clock.elapsed(61_000) == 2_000


def test_positions_round_trip_through_seed_data():
    position = deal(CODE)
    data = position_to_data(position)
    assert data["piles"][0] == [str(c) for c in shuffled_cards(CODE)[:8]]
    assert position_from_data(data) == position


def test_a_deal_is_the_position_a_code_gives():
    assert HalfMoon(CODE).position == deal(CODE)
    assert isinstance(deal(CODE), Position)
