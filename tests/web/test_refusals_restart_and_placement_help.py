"""Through HTTP, the details of play a player notices in both games: a refused tap and what it
says, Restart that asks first, Placement help, the New game dialog's level, the clock's start
and the status sentences."""

from __future__ import annotations

import pytest

from app.engine.halfmoon import HalfMoon
from app.engine.seahaven import Seahaven
from tests.engine.test_halfmoon_rules import table
from tests.engine.test_seahaven_rules import EXAMPLE
from tests.web.conftest import HTMX, Player, deal_as
from tests.web.html import parse
from tests.web.test_seahaven_play import CUSTOM, SeahavenPlayer

HM = "HM1-N-AAAAAAB"


@pytest.fixture
def example(monkeypatch):
    """SH1-C4-AAAAAAB deals the rules tests' example board (EXAMPLE)."""
    deal_as(monkeypatch, Seahaven, CUSTOM, EXAMPLE)


@pytest.fixture
def hm_table(monkeypatch):
    def use(position) -> None:
        deal_as(monkeypatch, HalfMoon, HM, position)

    return use


def _opened(p, settings: dict[str, str]):
    """The player's page opened, with ``settings`` saved first when there are any."""
    p.open()
    if settings:
        data = {**settings, "token": p.token, "next": p.url}
        assert p.client.post("/settings", data=data).status_code == 303
        p.open()
    return p


def _sh(client, htmx: bool = True, **settings: str) -> SeahavenPlayer:
    return _opened(SeahavenPlayer(client, f"/seahaven/{CUSTOM}", htmx), settings)


def _hm(client, htmx: bool = True, **settings: str) -> Player:
    return _opened(Player(client, f"/half-moon/{HM}", htmx), settings)


def _marked(p) -> list[str]:
    return [
        f.attrs["data-place"]
        for f in p.board.find_all(data_place=True)
        if "destination" in f.classes()
    ]


def _pressed(p) -> list[str]:
    return [b.attrs["data-card"] for b in p.board.find_all(aria_pressed="true")]


# --- 1. a pending selection never swallows a tap ---------------------------------------------


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_a_tap_on_a_card_that_cannot_take_the_selection_is_a_fresh_tap(client, example, htmx):
    p = _sh(client, htmx)
    p.tap("column-8", "7D")  # cannot go home (♦ is at 5): selected
    assert _pressed(p) == ["7D"]
    p.tap("column-9", "6D")  # 7♦ cannot go on 6♦; 6♦ can go home: it goes, at once
    assert p.cards_at("foundation-D") == "6D"
    assert p.board.attrs["data-moves"] == "1"
    assert _pressed(p) == []
    p.tap("column-2", "5S")
    p.tap("column-4", "10D")  # 5♠ cannot go on 10♦: 10♦ becomes the selection
    assert _pressed(p) == ["10D"]
    assert p.board.attrs["data-moves"] == "1"


# --- 3. the New game dialog remembers the level ----------------------------------------------


def test_new_game_from_a_hard_game_deals_hard_and_the_dialog_offers_hard(client):
    page = parse(client.get("/seahaven/SH1-C1-AAAAAJ2").text)
    assert page.by_id("control-new").attrs["href"] == "/seahaven?cells=1"  # issue 45: one tap
    dialog = parse(client.get("/seahaven", params={"last": "1"}).text)
    radios = dialog.find("form", action="/seahaven").find_all("input", type="radio", name="cells")
    assert [(r.attrs["value"], "checked" in r.attrs) for r in radios] == [
        ("4", False),
        ("2", False),
        ("1", True),
    ]
    page = parse(client.get("/seahaven/SH1-C2-AAAAAJ2").text)
    assert page.by_id("control-new").attrs["href"] == "/seahaven?cells=2"


@pytest.mark.parametrize("query", [{"last": "3"}, {"last": ""}, {"level": "1"}])
def test_the_dialog_refuses_a_bad_hint_with_a_clear_message(client, query):
    response = client.get("/seahaven", params=query)
    assert response.status_code == 422
    detail = parse(response.text).find(class_="detail").text
    assert ("Accepted: 4, 2 or 1 cells." in detail) or ("is not accepted here" in detail)


# --- 4. Move errors and Placement help act in both games -------------------------------------


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_seahaven_refusal_with_move_errors_off_says_only_that_nothing_moved(client, example, htmx):
    p = _sh(client, htmx)
    response = p.move("column-2", "5S", "column-5")
    assert p.status == "Not allowed: nothing moved."
    assert p.board.attrs["data-moves"] == "0"
    if not htmx:
        assert response.headers["location"].startswith(f"/seahaven/{CUSTOM}?n=refused&t=")


def test_seahaven_refusal_with_move_errors_on_explains_itself(client, example):
    p = _sh(client, move_errors="on")
    p.move("column-2", "5S", "column-5")
    assert p.status == "Only a king can go to an empty column."


def test_half_moon_refusal_without_javascript_still_says_so(client, hm_table):
    hm_table(table(["5S", "6D", "4C"], ["7D", None, None, None, None, None, None, None]))
    p = _hm(client, htmx=False)
    p.tap("pile-1", "5S")
    response = p.tap("pile-3", "4C")
    assert response.headers["location"].startswith(f"/half-moon/{HM}?n=cleared&t=")
    assert p.status == "Selection cleared."


def test_seahaven_placement_help_marks_every_destination_of_the_selection(client, example):
    p = _sh(client, placement_help="on")
    assert "with-help" in p.board.classes()
    assert _marked(p) == []
    p.tap("column-1", "10S")  # 10♠ may go onto J♠ (column 7) or into the free cell 4
    assert _marked(p) == ["cell-4", "column-7"]
    assert p.board.by_id("slot-cell-4").attrs["aria-label"] == ("cell 4, the selection can go here")
    assert p.board.by_id("card-JS").attrs["aria-label"] == (
        "jack of spades, column 7, 4 cards, the selection can go here"
    )
    p.tap("column-1", "10S")  # deselected: nothing is marked
    assert _marked(p) == []
    p.tap("column-2", "9S")  # the run 9♠…2♠ may go onto 10♠ (8 cards: (1 + 1) × 2² = 8)
    assert _marked(p) == ["column-1"]
    top = p.board.by_id("card-10S")
    assert top.attrs["aria-label"] == (
        "ten of spades, column 1, 2 cards, the selection can go here"
    )


def test_seahaven_placement_help_tells_the_drag_where_each_card_may_go(client, example):
    p = _sh(client, placement_help="on")
    assert p.board.by_id("card-9S").attrs["data-targets"] == "column-1"
    assert p.board.by_id("card-6D").attrs["data-targets"] == "column-8 cell-4 foundation-D"
    assert "data-targets" not in p.board.by_id("card-6C").attrs  # buried: cannot move


def test_without_placement_help_seahaven_marks_nothing(client, example):
    p = _sh(client)
    p.tap("column-2", "9S")
    assert p.board.find_all(class_="destination") == []
    assert "data-targets" not in p.board.by_id("card-9S").attrs


# --- 5. Restart asks first -------------------------------------------------------------------


def test_restart_asks_before_throwing_moves_away_and_confirm_restarts(client, example):
    p = _sh(client)
    p.tap("column-9", "6D")
    p.post("restart")
    assert p.board.attrs["data-moves"] == "1"  # nothing lost yet
    ask = p.board.by_id("confirm-restart")
    assert ask.find("input", name="confirm").attrs["value"] == "yes"
    assert ask.by_id("confirm-restart-no").attrs["href"] == f"/seahaven/{CUSTOM}"
    assert p.doc.by_id("status").text == (
        "Restart this deal from the beginning? Your moves so far are lost."
    )
    p.post("restart", confirm="yes")
    assert p.board.attrs["data-moves"] == "0"
    assert p.board.find_all(id="confirm-restart") == []
    assert p.status == "The deal starts again from the beginning."


def test_restart_asks_without_javascript_too(client, example):
    p = _sh(client, htmx=False)
    p.tap("column-9", "6D")
    response = p.post("restart")
    assert response.headers["location"] == f"/seahaven/{CUSTOM}?ask=restart"
    assert p.board.attrs["data-moves"] == "1"
    assert p.board.by_id("confirm-restart-yes").text == "Restart"
    p.post("restart", confirm="yes")
    assert p.board.attrs["data-moves"] == "0"


def test_restart_with_nothing_to_lose_does_not_ask(client, example):
    p = _sh(client)
    p.post("restart")
    assert p.board.find_all(id="confirm-restart") == []
    assert p.status == "The deal starts again from the beginning."


def test_a_bad_confirm_value_is_a_clear_422(client, example):
    p = _sh(client)
    response = client.post(f"{p.url}/restart", data={"token": p.token, "confirm": "maybe"})
    assert response.status_code == 422
    assert "confirm" in parse(response.text).find(class_="detail").text


# --- 6. the clock ----------------------------------------------------------------------------


def test_a_seahaven_selection_starts_the_clock(client, example):
    p = _sh(client)
    assert p.doc.by_id("clock").attrs["data-running"] == "false"
    p.tap("column-2", "9S")
    clock = p.doc.by_id("clock").attrs
    assert clock["data-running"] == "true"
    assert 290_000 <= int(clock["data-away-left"]) <= 300_000


# --- 9. the end of a game is printed once; sentences start with a capital --------------------


def test_the_end_of_a_game_is_printed_once_and_still_announced(client, hm_table):
    hm_table(table(["5S", "6D", "2C"], ["3H", None, None, None, None, None, None, None]))
    p = _hm(client)
    p.tap("pile-1", "5S")
    response = p.tap("pile-2", "6D")
    status = parse(response.text).by_id("status")
    hidden = status.find(class_="visually-hidden")
    assert hidden.text.startswith("No moves left")
    assert status.text.startswith("Removed five of spades and six of diamonds: 10 points.")
    assert p.board.find(class_="ending stuck").by_id("ending-text").text.startswith("No moves left")


@pytest.mark.parametrize("lang", ["en", "tr", "bg"])
@pytest.mark.parametrize("card", ["9S", "10D", "KC"])
def test_status_sentences_start_with_a_capital_in_every_language(client, example, lang, card):
    p = _sh(client, lang=lang)
    place = p.board.by_id(f"card-{card}")
    where = next(f for f in p.board.find_all(data_place=True) if place in f.iter())
    response = client.post(
        f"{p.url}/tap",
        data={"place": where.attrs["data-place"], "card": card, "token": p.token},
        headers=HTMX,
    )
    said = parse(response.text).by_id("status").text
    assert said and said[0].isalpha() and said[0] == said[0].upper(), said
