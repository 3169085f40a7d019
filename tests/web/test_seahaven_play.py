"""Seahaven Towers through HTTP alone: the dialog, a won game, the documents' examples, refusals."""

import json
import re

import pytest

from app.engine.cards import Card
from app.engine.codes import DealCode
from app.engine.seahaven import (
    CELLS,
    COLUMNS,
    FOUNDATIONS,
    Position,
    Reason,
    Refusal,
    Seahaven,
    place_name,
)
from app.engine.seahaven.solver import solve_code
from app.store.marks import Marks
from tests import seeds
from tests.engine.test_seahaven_rules import EXAMPLE
from tests.web.conftest import HTMX, WHOLE_ANSWER, Player, deal_as, sid_of, varies
from tests.web.html import parse

CUSTOM = "SH1-C4-AAAAAAB"
EXAMPLE_DATA = EXAMPLE.to_dict()
"""The documents' example board (tests/engine/test_seahaven_rules.py)."""


class SeahavenPlayer(Player):
    def column(self, number: int) -> list[str]:
        place = self.board.find(data_place=f"column-{number}")
        return [b.attrs["data-card"] for b in place.find_all(data_card=True)]

    def cards_at(self, name: str) -> str:
        place = self.board.find(data_place=name)
        cards = [b.attrs["data-card"] for b in place.find_all(data_card=True)]
        return " ".join(cards)

    def move(self, source: str, card: str, target: str):
        return self.post("move", **{"from": source, "card": card, "to": target})

    def tap(self, place: str, card: str = ""):
        return self.post("tap", place=place, card=card)

    def auto(self, place: str, card: str):
        return self.post("auto", place=place, card=card)


@pytest.fixture
def sh(client):
    def make(
        code: str = "SH1-C4-AAAAAJ2", htmx: bool = True, move_errors: bool = False
    ) -> SeahavenPlayer:
        p = SeahavenPlayer(client, f"/seahaven/{code}", htmx)
        p.open()
        if move_errors:  # refusals explain themselves only with Move errors on
            response = client.post(
                "/settings", data={"move_errors": "on", "token": p.token, "next": p.url}
            )
            assert response.status_code == 303
            p.open()
        return p

    return make


@pytest.fixture
def dealt(monkeypatch, app):
    """Make SH1-C4-AAAAAAB deal a given board (a seed's position)."""

    def use(data) -> None:
        deal_as(monkeypatch, Seahaven, CUSTOM, Position.from_dict(data), app)

    return use


# --- the New game dialog and codes -----------------------------------------------------------------


def test_new_game_opens_the_dialog_with_4_2_or_1_cells_default_4(client):
    response = client.get("/seahaven")
    assert response.status_code == 200
    page = parse(response.text)
    radios = page.find("form", action="/seahaven").find_all("input", type="radio", name="cells")
    assert [(r.attrs["value"], "checked" in r.attrs) for r in radios] == [
        ("4", True),
        ("2", False),
        ("1", False),
    ]
    cells, choice = page.find("form", action="/seahaven").find_all("fieldset")
    assert [label.text for label in cells.find_all("label")] == [
        "Easy · 4 cells",
        "Medium · 2 cells",
        "Hard · 1 cell",
    ]
    assert [label.text for label in choice.find_all("label")] == [
        "Medium and Hard",
        "Always",
        "Never",
    ]


@pytest.mark.parametrize("cells", ["4", "2", "1"])
def test_the_dialog_deals_a_random_deal_with_that_many_cells(client, cells):
    response = client.get("/seahaven", params={"cells": cells})
    assert response.status_code == 303
    assert re.fullmatch(rf"/seahaven/SH1-C{cells}-[A-Z2-7]{{7}}", response.headers["location"])


@pytest.mark.parametrize("bad", ["3", "four", ""])
def test_the_dialog_refuses_other_cell_counts(client, bad):
    response = client.get("/seahaven", params={"cells": bad})
    assert response.status_code == 422
    assert "Accepted: 4, 2 or 1 cells." in response.text


def test_codes_behave_as_for_half_moon(client):
    assert client.get("/seahaven/sh1-c4-aaaaaj2").headers["location"] == "/seahaven/SH1-C4-AAAAAJ2"
    assert client.get("/seahaven/HM1-N-AAAAAAB").headers["location"] == "/half-moon/HM1-N-AAAAAAB"
    assert client.get("/half-moon/SH1-C2-AAAAAJ2").headers["location"] == "/seahaven/SH1-C2-AAAAAJ2"
    response = client.get("/seahaven/SH1-C3-AAAAAJ2")
    assert response.status_code == 404
    assert parse(response.text).find("a", href="/seahaven").text == "New game"


# --- the board -----------------------------------------------------------------------------------------


def test_the_board_shows_every_card_bottom_to_top_with_labels(sh):
    p = sh()
    game = Seahaven(DealCode.parse("SH1-C4-AAAAAJ2"))
    assert p.board.attrs["data-game"] == "seahaven"
    assert p.board.attrs["data-state"] == "playing"
    for index in COLUMNS:
        column = game.position.columns[index]
        place = p.board.find(data_place=place_name(index))
        assert place.attrs["data-count"] == str(len(column))
        assert p.column(index + 1) == [str(c) for c in column]
        assert place.find(class_="label").text == f"column {index + 1}, {len(column)} cards"
    cells = [p.board.find(data_place=f"cell-{n}") for n in range(1, 5)]
    assert [c.attrs["data-count"] for c in cells] == ["1", "1", "0", "0"]
    assert [c.find(class_="label").text for c in cells] == ["cell 1", "cell 2", "cell 3", "cell 4"]
    foundations = [p.board.find(data_place=f"foundation-{s}") for s in "SHDC"]
    assert [f.find(class_="label").text for f in foundations] == [
        "foundation ♠, 0 cards",
        "foundation ♥, 0 cards",
        "foundation ♦, 0 cards",
        "foundation ♣, 0 cards",
    ]
    assert p.board.find(data_card="10H").attrs["aria-label"].endswith(", cell 1")


def test_the_one_cell_deal_draws_one_cell_and_six_cards_in_column_2(sh):
    p = sh("SH1-C1-AAAAAJ2")
    assert [e.attrs["data-place"] for e in p.board.find_all(class_="place cell")] == ["cell-1"]
    assert p.board.find(data_place="column-2").attrs["data-count"] == "6"
    assert p.board.find_all(data_place="cell-2") == []
    four = sh("SH1-C4-AAAAAJ2")
    assert p.column(2)[:5] == four.column(2)
    assert p.column(2)[5] == four.cards_at("cell-2")


def test_a_removed_cell_is_no_place(sh, client):
    p = sh("SH1-C2-AAAAAJ2")
    response = client.post(f"{p.url}/tap", data={"place": "cell-3", "card": "", "token": p.token})
    assert response.status_code == 422
    assert "A Seahaven place is column-1" in response.text


# --- a whole game ------------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.all_stores
def test_a_whole_game_is_won_through_http_using_move_tap_auto_and_select(sh):
    code = DealCode.parse("SH1-C4-AAAAAJ2")
    line = solve_code(code).line
    mirror = Seahaven(code)
    p = sh(str(code))
    used = {"tap-home": 0, "auto": 0, "move": 0, "select": 0}
    for number, move in enumerate(line):
        source, count, target = move
        position = mirror.position
        card = position.columns[source][-count] if source in COLUMNS else position.top(source)
        name_from, name_to, text = place_name(source), place_name(target), str(card)
        probe = Seahaven.from_record(mirror.to_record())
        auto = probe.auto(name_from, card, now=0).move
        if target in FOUNDATIONS and count == 1 and source not in FOUNDATIONS:
            p.tap(name_from, text)
            used["tap-home"] += 1
        elif auto == move and number % 2 == 0:
            p.auto(name_from, text)
            used["auto"] += 1
        elif number % 3 == 0:
            p.tap(name_from, text)  # select (it cannot go home) …
            assert p.board.find(data_card=text).attrs["aria-pressed"] == "true"
            empty = target in CELLS or (target in COLUMNS and not position.columns[target])
            top = (
                ""
                if empty
                else (position.columns[target][-1] if target in COLUMNS else position.top(target))
            )
            p.tap(name_to, str(top) if top else "")  # … then the destination
            used["select"] += 1
        else:
            p.move(name_from, text, name_to)
            used["move"] += 1
        mirror.play(move, now=0)
        assert p.board.attrs["data-moves"] == str(number + 1), (number, move, p.status)
    assert p.board.attrs["data-state"] == "won"
    assert p.board.attrs["data-score"] == "520"
    assert all(count > 0 for count in used.values()), used
    assert [p.board.find(data_place=f"foundation-{s}").attrs["data-count"] for s in "SHDC"] == [
        "13"
    ] * 4
    assert p.board.find(class_="ending won summary").find("h2").text == "You won!"
    assert p.board.by_id("summary-score").text == "520"


# --- the documents' examples -----------------------------------------------------------------------------


def _seed(name):
    return seeds.load("seahaven", name)


def _replay(p, seed):
    for do, action, expect in seeds.actions(seed):  # one format, any other action fails
        if "error" in expect:  # a place that is not on this board: 422, nothing changes
            fields = {k: v or "" for k, v in action.items() if k in ("place", "card")}
            before = p.board.attrs["data-moves"]
            response = p.client.post(f"{p.url}/{do}", data={**fields, "token": p.token})
            assert response.status_code == 422, action
            p.open()
            assert p.board.attrs["data-moves"] == before
            continue
        if do == "tap":
            p.tap(action["place"], action["card"] or "")
        elif do == "auto":
            p.auto(action["place"], action["card"])
        elif do == "move":
            p.move(action["source"], action["card"], action["target"])
        elif do == "undo":
            p.post("undo")
        elif do == "max_group":
            continue  # a number of the rules: nothing to send, nothing the page shows
        else:
            assert do == "check", do  # the board as it stands
        where = json.dumps(action)
        if expect.get("outcome") == "refused":
            refusal = Refusal(Reason[expect["reason"]], expect.get("limit"))
            assert p.status == str(refusal), where
        if expect.get("outcome") == "stale":
            assert p.status.startswith("That card is no longer there"), where
        for name, cards in expect.get("places", {}).items():
            assert p.cards_at(name) == (
                cards.split()[-1] if cards and not name.startswith("column") else cards
            ), where
        if "score" in expect:
            assert p.board.attrs["data-score"] == str(expect["score"]), where
        if "moves" in expect:
            assert p.board.attrs["data-moves"] == str(expect["moves"]), where
        if "selection" in expect:
            pressed = [b.attrs["data-card"] for b in p.board.find_all(aria_pressed="true")]
            assert pressed[:1] == [text.split(":")[1] for text in expect["selection"]], where


@pytest.mark.parametrize(
    "name", ["group_size_example", "empty_column_takes_only_a_king", "take_back_from_foundation"]
)
@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
@pytest.mark.all_stores
def test_the_documents_examples_replay_through_http(sh, dealt, name, htmx):
    seed = _seed(name)
    dealt(seed["position"])
    _replay(sh(CUSTOM, htmx=htmx, move_errors=True), seed)


def test_the_one_cell_seed_replays_through_http(sh):
    seed = _seed("one_cell_deal")
    _replay(sh(seed["code"], move_errors=True), seed)


def test_a_deal_lost_at_the_deal_offers_only_a_new_game(sh):
    """Issue 13 item 2: no Undo that answers "nothing to undo", no Restart that restarts
    nothing — in the end box or in the info bar."""
    p = sh("SH1-C1-AAAAAAC")
    assert p.board.attrs["data-state"] == "lost"
    ending = p.board.find(class_="ending lost")
    assert ending.by_id("ending-text").text.startswith(
        "No useful move left: no card of this deal can reach a foundation. Start a new game."
    )
    assert ending.find_all("button") == []
    assert ending.find("a", href="/seahaven?cells=1").text == "New game"
    assert "disabled" in p.doc.by_id("control-undo").attrs
    assert "disabled" in p.doc.by_id("control-restart").attrs


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_the_losing_move_is_announced_and_offers_undo_and_restart(sh, store, client, htmx):
    p = sh("SH1-C1-AAAAAAC", htmx=htmx)
    p.move("column-2", "QS", "column-9")
    assert p.board.attrs["data-state"] == "lost"
    ending = p.board.find(class_="ending lost")
    assert ending.by_id("ending-text").text.startswith(
        "No useful move left: no card can reach a foundation any more. Undo, or restart the deal."
    )
    assert [b.text for b in ending.find_all("button")] == ["Undo", "Restart"]
    if htmx:  # printed in the end box, announced (not printed again) in the live region
        status = p.doc.by_id("status")
        assert status.text.startswith("Queen of spades to column 9.")
        assert status.find(class_="visually-hidden").text.strip() == (
            "No useful move left: no card can reach a foundation any more. Undo, or restart the"
            " deal."
        )
    stored = store.load(sid_of(client), "SH1-C1-AAAAAAC")[1]
    assert (stored.state, stored.moves) == ("lost", 1)
    # the verdict's write keeps the losing move's retry key (app.web.play.retries) and the ended
    # game's replay (app.store.replays)
    assert (stored.marks.retry is not None) == htmx
    assert stored.marks.replay is not None
    assert stored.marks._replace(retry=None, replay=None) == Marks(counted="done", result="lost")
    assert stored.record["clock"] == [0, None]  # stopped with the losing move


@pytest.mark.all_stores
def test_the_lost_verdict_is_kept_with_the_saved_game(sh, store, client):
    p = sh("SH1-C1-AAAAAAC")
    p.tap("column-1", p.column(1)[-1])  # an action (a selection), so the game is saved
    stored = store.load(sid_of(client), "SH1-C1-AAAAAAC")[1]
    assert stored.state == "lost"


# --- refusals and bad input --------------------------------------------------------------------------------


def test_a_refusal_explains_itself_and_leaves_the_board(sh, dealt):
    seed = _seed("empty_column_takes_only_a_king")
    dealt(seed["position"])
    p = sh(CUSTOM, move_errors=True)
    before = p.board.attrs["data-moves"], p.column(2)
    p.move("column-2", "QS", "column-1")
    assert p.status == "Only a king can go to an empty column."
    assert (p.board.attrs["data-moves"], p.column(2)) == before


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ({"from": "column-3", "card": "JD", "to": "column-9"}, Reason.NOT_MOVABLE),
        ({"from": "column-9", "card": "9S", "to": "column-7"}, Reason.SAME_SUIT_ONE_LOWER),
        ({"from": "column-2", "card": "QS", "to": "column-1"}, Reason.KING_ONLY),
        ({"from": "column-9", "card": "9S", "to": "cell-1"}, Reason.CELL_HOLDS_ONE),
        ({"from": "column-9", "card": "9S", "to": "foundation-H"}, Reason.FOUNDATION_ORDER),
        ({"from": "column-7", "card": "JC", "to": "foundation-C"}, Reason.FOUNDATION_ONE_AT_A_TIME),
    ],
)
def test_every_move_refusal_reason_reaches_the_player(sh, dealt, action, reason):
    dealt(_seed("empty_column_takes_only_a_king")["position"])
    p = sh(CUSTOM, move_errors=True)
    p.post("move", **action)
    assert p.status == str(Refusal(reason))
    assert p.board.attrs["data-moves"] == "0"


def test_the_group_limit_and_no_destination_reasons(sh, dealt):
    dealt(_seed("group_size_example")["position"])
    p = sh(CUSTOM, move_errors=True)
    p.move("column-3", "KH", "column-5")
    assert p.status == "That group needs more free cells: at most 4 cards can move now."
    # a card no foundation, column or cell can take (found with the engine on the same board)
    full = json.loads(json.dumps(_seed("group_size_example")["position"]))
    full["cells"][3] = full["columns"][7].pop()  # no free cell left
    dealt(full)
    p = sh(CUSTOM, move_errors=True)

    def probe():
        return Seahaven.from_position(full)

    stuck = next(
        (place_name(i), str(column[-1]))
        for i, column in enumerate(probe().position.columns)
        if column and probe().auto(place_name(i), column[-1], now=0).reason is Reason.NO_DESTINATION
    )
    p.auto(*stuck)
    assert p.status == "No foundation, column or cell can take this card now."
    assert p.board.attrs["data-moves"] == "0"


def test_a_stale_move_changes_nothing(sh, dealt):
    dealt(_seed("take_back_from_foundation")["position"])
    p = sh(CUSTOM)
    p.move("foundation-D", "9D", "cell-2")
    assert p.status.startswith("That card is no longer there")
    assert p.board.attrs["data-moves"] == "0"


@pytest.mark.parametrize(
    ("verb", "fields", "message"),
    [
        ("tap", {"place": "pile-1", "card": "AS"}, "A Seahaven place is column-1"),
        ("tap", {"place": "column-11", "card": "AS"}, "A Seahaven place is column-1"),
        ("tap", {"place": "column-1", "card": "1X"}, "A card is written rank then suit"),
        ("tap", {"card": "AS"}, "The field “place” is missing."),
        ("move", {"from": "column-1", "card": "AS"}, "The field “to” is missing."),
        (
            "move",
            {"from": "column-1", "to": "column-2", "card": ""},
            "The field “card” is missing.",
        ),
        (
            "move",
            {"from": "column-1", "to": "column-2", "card": "AS", "x": "1"},
            "The field “x” is not accepted here.",
        ),
        ("auto", {"place": "foundation-X", "card": "AS"}, "A Seahaven place is column-1"),
    ],
)
def test_bad_input_gets_a_clear_422_and_changes_nothing(sh, client, store, verb, fields, message):
    p = sh()
    p.tap("column-1", p.column(1)[-1])
    before = store.load(sid_of(client), "SH1-C4-AAAAAJ2")[1]
    response = client.post(f"{p.url}/{verb}", data={**fields, "token": p.token})
    assert response.status_code == 422
    assert message in parse(response.text).find(class_="detail").text
    assert store.load(sid_of(client), "SH1-C4-AAAAAJ2")[1] == before


def test_seahaven_actions_answer_fragments_or_303(sh, client):
    p = sh()
    top = p.column(1)[-1]
    response = client.post(
        f"{p.url}/auto", data={"place": "column-1", "card": top, "token": p.token}, headers=HTMX
    )
    assert response.status_code == 200
    assert "HX-Request" in varies(response)
    assert [c.attrs["id"] for c in parse(response.text).children] == WHOLE_ANSWER
    response = client.post(f"{p.url}/undo", data={"token": p.token})
    assert response.status_code == 303
    assert response.headers["location"] == p.url


def test_a_refusal_without_javascript_shows_its_reason_after_the_redirect(sh, dealt):
    dealt(_seed("group_size_example")["position"])
    p = sh(CUSTOM, htmx=False, move_errors=True)
    response = p.move("column-3", "KH", "column-5")
    assert response.headers["location"] == f"/seahaven/{CUSTOM}?n=group-4"
    assert p.status == "That group needs more free cells: at most 4 cards can move now."


def test_selected_run_is_pressed_and_a_second_tap_deselects(sh, dealt):
    dealt(_seed("group_size_example")["position"])
    p = sh(CUSTOM)
    p.tap("column-4", "KD")
    assert [b.attrs["data-card"] for b in p.board.find_all(aria_pressed="true")] == [
        "KD",
        "QD",
        "JD",
        "10D",
    ]
    assert p.status == "King of diamonds and 3 cards above it selected."
    p.tap("column-4", "KD")
    assert p.board.find_all(aria_pressed="true") == []
    assert Card.parse("KD")


# --- a double tap whose first click was sent as a tap (double=1) ------------------------------------


def _shown(p: SeahavenPlayer) -> tuple:
    """Everything the board says: every place's count and cards with their pressed state."""
    places = [
        (
            place.attrs["data-place"],
            place.attrs["data-count"],
            [
                (c.attrs["data-card"], c.attrs["aria-pressed"])
                for c in place.find_all(data_card=True)
            ],
        )
        for place in p.board.find_all(data_place=True)
    ]
    return p.board.attrs["data-moves"], p.board.attrs["data-score"], places, p.status


@pytest.mark.parametrize(
    ("place", "card", "first", "moves"),
    [
        ("column-9", "6D", "Six of diamonds to foundation ♦.", "1"),  # went home
        ("column-1", "10S", "Ten of spades selected.", "1"),  # selected, then moved
        ("column-3", "KH", "King of hearts and 4 cards above it selected.", "0"),  # refused
    ],
    ids=["went-home", "selected-then-moved", "selected-then-refused"],
)
def test_tap_then_auto_with_double_ends_as_the_double_tap_alone(
    sh, dealt, place, card, first, moves
):
    dealt(EXAMPLE_DATA)
    p = sh(CUSTOM)
    p.tap(place, card)
    assert p.status.lower() == first.lower()
    p.post("auto", place=place, card=card, double="1")
    after_both = _shown(p)
    p.post("restart", confirm="yes")
    p.post("auto", place=place, card=card)
    assert _shown(p) == after_both
    assert after_both[0] == moves
    assert all(pressed == "false" for _, _, cards in after_both[2] for _, pressed in cards)


def test_double_is_only_a_field_of_auto(sh, client):
    p = sh()
    response = client.post(
        f"{p.url}/tap",
        data={"place": "column-1", "card": p.column(1)[-1], "double": "1", "token": p.token},
    )
    assert response.status_code == 422
