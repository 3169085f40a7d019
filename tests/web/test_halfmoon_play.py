"""Half Moon through HTTP alone: taps, a whole won game, the documents' examples, history."""

import re

import pytest

from app.engine.codes import DealCode
from app.engine.halfmoon import HalfMoon, Position, deal, place_name, position_from_data
from app.engine.halfmoon.solver import solve
from tests import seeds
from tests.web.conftest import HTMX, WHOLE_ANSWER, board_version, deal_as, varies
from tests.web.html import parse

CODE = "HM1-N-AAAAAAB"
SEED = seeds.load("half-moon", "documents-worked-example")


@pytest.fixture
def dealt(monkeypatch, app):
    """Make HM1-N-AAAAAAB deal a given position (the documents' own cards, or a tiny table)."""

    def use(position: Position) -> None:
        deal_as(monkeypatch, HalfMoon, CODE, position, app)

    return use


@pytest.mark.slow
@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
@pytest.mark.all_stores
def test_a_whole_game_is_won_through_http_with_48_moves_and_520_points(player, htmx):
    line = solve(deal(DealCode.parse(CODE))).line
    p = player(CODE, htmx=htmx)
    for removal in line:
        for place in removal:
            p.tap(place_name(place))
    board = p.board
    assert board.attrs["data-state"] == "won"
    assert board.attrs["data-moves"] == "48"
    assert board.attrs["data-score"] == "520"
    assert all(place.attrs["data-count"] == "0" for place in board.find_all(data_place=True))
    assert board.find_all(data_card=True) == []
    assert board.find(class_="ending won summary").find("h2").text == "You won!"
    assert board.by_id("summary-score").text == "520"
    assert p.doc.by_id("clock").attrs["data-running"] == "false"
    assert p.doc.by_id("score").text == "520"
    assert p.doc.by_id("moves").text == "48"


def test_an_htmx_tap_answers_only_the_changed_place_the_info_bar_and_status(player, client):
    """The page sends the version of the board it shows; the answer is out of band only:
    ``#board``'s attributes (morphed), the one place whose card became selected, the info bar
    and the live region."""
    p = player()
    card = p.top("pile-1")
    response = client.post(
        f"/half-moon/{CODE}/tap",
        data={"place": "pile-1", "card": card, "token": p.token},
        headers={**HTMX, **board_version(p.board)},
    )
    assert response.status_code == 200
    assert "HX-Request" in varies(response)
    fragment = parse(response.text)
    ids = [c.attrs["id"] for c in fragment.children]
    assert ids == [
        "board",
        "place-pile-1",
        "stats",
        "control-undo",
        "control-redo",
        "control-restart",
        "status",
    ]
    swaps = [c.attrs["hx-swap-oob"] for c in fragment.children]
    assert swaps == ["outerMorph", "true", "true", "true", "true", "true", "true"]
    assert fragment.children[0].children == []  # attributes only: the places stay
    assert fragment.find(data_place="pile-1").find("button").attrs["aria-pressed"] == "true"
    assert fragment.by_id("status").text.endswith("selected.")


def test_an_htmx_tap_from_a_page_without_a_board_version_answers_the_whole_board(player, client):
    p = player()
    response = client.post(
        f"/half-moon/{CODE}/tap",
        data={"place": "pile-1", "card": p.top("pile-1"), "token": p.token},
        headers=HTMX,
    )
    fragment = parse(response.text)
    assert [c.attrs["id"] for c in fragment.children] == WHOLE_ANSWER
    assert {c.attrs["hx-swap-oob"] for c in fragment.children} == {"true"}
    assert len(fragment.by_id("board").find_all(data_place=True)) == 20
    assert fragment.find(data_place="pile-1").find("button").attrs["aria-pressed"] == "true"


def test_a_plain_form_tap_answers_303_to_the_game_page(player, client):
    p = player()
    response = client.post(
        f"/half-moon/{CODE}/tap",
        data={"place": "pile-1", "card": p.top("pile-1"), "token": p.token},
    )
    assert response.status_code == 303
    assert response.headers["location"] == f"/half-moon/{CODE}"
    assert "HX-Request" in varies(response)
    page = parse(client.get(f"/half-moon/{CODE}").text)
    assert page.find(data_place="pile-1").find("button").attrs["aria-pressed"] == "true"


def test_every_place_has_its_name_count_and_top_card(player):
    p = player()
    position = deal(DealCode.parse(CODE))
    places = p.board.find_all(data_place=True)
    assert [e.attrs["data-place"] for e in places] == [place_name(i) for i in range(20)]
    for index, element in enumerate(places):
        assert element.attrs["data-count"] == str(position.count(index))
        assert element.find("button").attrs["data-card"] == str(position.top(index))
    assert p.board.attrs == {
        "id": "board",
        "class": "board half-moon",
        "data-game": "half-moon",
        "data-code": CODE,
        "data-state": "playing",
        "data-score": "0",
        "data-moves": "0",
        "data-line": "",
        "data-redo": "",
        "data-floor": "0",
        "hx-headers:inherited": p.board.attrs["hx-headers:inherited"],
    }
    assert re.fullmatch(
        r'\{"X-Board-Version":"[0-9a-f]{8}"\}', p.board.attrs["hx-headers:inherited"]
    )


def _settings(client, token, **fields):
    response = client.post(
        "/settings", data={**fields, "token": token, "next": f"/half-moon/{CODE}"}
    )
    assert response.status_code == 303


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_the_documents_examples_through_http_with_move_errors_and_placement_help(
    player, client, dealt, htmx
):
    dealt(position_from_data(SEED["position"]))
    p = player(CODE, htmx=htmx)
    _settings(client, p.token, move_errors="on", placement_help="on")
    p.open()
    for do, step, expect in seeds.actions(SEED):  # one format, any other action fails
        where = step["say"]
        if do == "tap":
            p.tap(step["place"], step["card"])
        else:
            assert do == "check", where
        pressed = [
            e.attrs["data-place"]
            for e in p.board.find_all(data_place=True)
            if e.find_all(aria_pressed="true")
        ]
        if "selection" in expect:
            assert sorted(pressed) == sorted(expect["selection"]), where
        if "message" in expect:
            assert p.status == expect["message"], where
        if "dimmed" in expect:
            dimmed = [
                e.attrs["data-place"]
                for e in p.board.find_all(data_place=True)
                if "dimmed" in e.classes()
            ]
            assert sorted(dimmed) == sorted(expect["dimmed"]), where
        if "score" in expect:
            assert p.board.attrs["data-score"] == str(expect["score"]), where
        if "moves" in expect:
            assert p.board.attrs["data-moves"] == str(expect["moves"]), where
        if "board" in expect:
            tops = [p.top(place_name(i)) or None for i in range(20)]
            counts = [int(e.attrs["data-count"]) for e in p.board.find_all(data_place=True)]
            assert tops == expect["board"]["tops"], where
            assert counts == expect["board"]["counts"], where


def test_with_move_errors_off_a_refusal_only_clears_the_selection(player, dealt):
    dealt(position_from_data(SEED["position"]))
    p = player()
    p.tap("pile-1", "5S")
    p.tap("pile-2", "AH")
    assert p.status == "Selection cleared."
    assert p.board.find_all(aria_pressed="true") == []


def test_the_jqk_refusal_message_with_move_errors_on(player, client, dealt):
    dealt(position_from_data(SEED["position"]))
    p = player()
    _settings(client, p.token, move_errors="on")
    p.tap("pile-3", "KH")
    p.tap("pile-1", "5S")
    assert p.status == "You need a jack, a queen and a king."


def test_without_placement_help_nothing_is_dimmed(player, dealt):
    dealt(position_from_data(SEED["position"]))
    p = player()
    p.tap("pile-1", "5S")
    assert [e for e in p.board.find_all(data_place=True) if "dimmed" in e.classes()] == []


def test_announcements_name_the_cards(player, dealt):
    dealt(position_from_data(SEED["position"]))
    p = player()
    p.tap("pile-1", "5S")
    assert p.status == "Five of spades selected."
    p.tap("pile-8", "6D")
    assert p.status == "Removed five of spades and six of diamonds: 10 points."
    p.tap("pile-3", "KH")
    p.tap("pile-12", "KH")
    assert p.status == "King of hearts selected instead."
    p.tap("pile-12", "KH")
    assert p.status == "King of hearts no longer selected."


@pytest.mark.all_stores
def test_undo_redo_and_restart(player, dealt):
    dealt(position_from_data(SEED["position"]))
    p = player()
    assert "disabled" in p.doc.by_id("control-undo").attrs
    p.tap("pile-1", "5S")
    p.tap("pile-8", "6D")
    assert (p.top("pile-1"), p.top("pile-8"), p.board.attrs["data-score"]) == ("7H", "JC", "10")
    assert "disabled" not in p.doc.by_id("control-undo").attrs
    p.post("undo")
    assert (p.top("pile-1"), p.top("pile-8"), p.board.attrs["data-score"]) == ("5S", "6D", "0")
    assert p.board.attrs["data-moves"] == "0"
    assert p.status == "Move taken back."
    assert "disabled" not in p.doc.by_id("control-redo").attrs
    p.post("redo")
    assert (p.top("pile-1"), p.board.attrs["data-score"], p.board.attrs["data-moves"]) == (
        "7H",
        "10",
        "1",
    )
    p.post("redo")
    assert p.status == "There is nothing to redo."
    p.post("restart")  # asks first (issue 13): nothing changes yet
    assert (p.top("pile-1"), p.board.attrs["data-moves"]) == ("7H", "1")
    p.post("restart", confirm="yes")
    assert (p.top("pile-1"), p.board.attrs["data-moves"]) == ("5S", "0")
    assert p.doc.by_id("clock").attrs == {
        "id": "clock",
        "data-elapsed": "0",
        "data-running": "false",
        "data-away-left": "0",
    }
    p.post("undo")
    assert p.status == "There is nothing to undo."


@pytest.mark.parametrize("verb", ["undo", "redo", "restart"])
def test_history_routes_take_no_query_parameter_of_their_own(player, client, dealt, verb):
    """``?action=…`` is nobody's parameter: the route does what its path says (no 422)."""
    dealt(position_from_data(SEED["position"]))
    p = player()
    p.tap("pile-1", "5S")
    p.tap("pile-8", "6D")
    if verb == "redo":
        p.post("undo")
    response = client.post(
        f"/half-moon/{CODE}/{verb}?action=x",
        data={"token": p.token, "confirm": "yes"},
        headers=HTMX,
    )
    assert response.status_code == 200, response.text[:300]
    moves = {"undo": "0", "redo": "1", "restart": "0"}[verb]
    assert parse(response.text).by_id("board").attrs["data-moves"] == moves


def test_without_javascript_undo_with_nothing_to_undo_says_so_after_the_redirect(player):
    p = player(htmx=False)
    p.post("undo")
    assert p.status == "There is nothing to undo."


def test_a_stuck_game_says_so_and_offers_undo_and_new_game(player, dealt):
    dealt(position_from_data({"piles": [["2S", "5S"], ["6D"]] + [[]] * 10, "reserve": [None] * 8}))
    p = player()
    p.tap("pile-1", "5S")
    p.tap("pile-2", "6D")
    assert p.board.attrs["data-state"] == "stuck"
    ending = p.board.find(class_="ending stuck")
    assert ending.by_id("ending-text").text.startswith("No moves left: no pair sums to 11")
    assert ending.find("button", id="ending-undo").text == "Undo"
    assert ending.find("a", id="ending-new").attrs["href"] == "/half-moon"
    assert "No moves left" in p.status
    assert p.doc.by_id("clock").attrs["data-running"] == "false"
    p.post("undo")
    assert p.board.attrs["data-state"] == "playing"
    assert p.doc.by_id("clock").attrs["data-running"] == "true"


@pytest.mark.slow
def test_the_clock_starts_with_the_first_action(player):
    p = player()
    assert p.doc.by_id("clock").attrs["data-running"] == "false"
    p.tap("pile-1")
    assert p.doc.by_id("clock").attrs["data-running"] == "true"


def test_a_stale_tap_changes_nothing_and_returns_the_fresh_board(player, client, dealt):
    dealt(position_from_data(SEED["position"]))
    first = player()
    second = player()  # the same session in another tab
    first.tap("pile-1", "5S")
    first.tap("pile-8", "6D")
    second.tap("pile-8", "6D")  # it still shows 6D at pile 8
    assert (
        second.status
        == "That card is no longer there (the game moved on in another tab). Here is the board now."
    )
    assert second.top("pile-8") == "JC"
    assert second.board.attrs["data-moves"] == "1"
    assert second.board.find_all(aria_pressed="true") == []


def test_a_stale_tap_without_javascript_redirects_with_the_notice(player, dealt):
    dealt(position_from_data(SEED["position"]))
    first = player()
    second = player(htmx=False)
    first.tap("pile-1", "5S")
    first.tap("pile-8", "6D")
    response = second.tap("pile-8", "6D")
    assert response.headers["location"].startswith(f"/half-moon/{CODE}?n=stale&t=")
    assert second.status.startswith("That card is no longer there")


def test_new_game_redirects_to_a_fresh_random_deal(client):
    response = client.get("/half-moon")
    assert response.status_code == 303
    assert re.fullmatch(r"/half-moon/HM1-N-[A-Z2-7]{7}", response.headers["location"])
    assert response.headers["location"] != client.get("/half-moon").headers["location"]


@pytest.mark.all_stores
def test_a_selection_survives_a_reload(player):
    p = player()
    p.tap("pile-4")
    p.open()
    assert p.board.find(data_place="pile-4").find("button").attrs["aria-pressed"] == "true"
