"""*Send all home* over HTTP (issue 27): the offer appears exactly when only foundation moves
are left, the action plays them as one (each card a move and its points), one Undo takes it
back, and it works the same with and without JavaScript."""

from __future__ import annotations

import pytest

from app.engine.codes import DealCode
from app.engine.seahaven import COLUMNS, Move, Seahaven, home_line
from app.engine.seahaven import place_name as sh_place
from app.engine.seahaven.solver import solve_code
from tests.web.conftest import Player
from tests.web.html import parse
from tests.web.test_partial_answers import CheckedPlayer

CODE = DealCode.parse("SH1-C4-AAAAAAB")
URL = f"/seahaven/{CODE}"
LINE = list(solve_code(CODE).line or ())
FIRST = 68
"""The solver line leaves only foundation moves from its 68th move on (tests/engine)."""


def play(p: Player, moves: list[Move], start: Seahaven | None = None) -> Seahaven:
    mirror = start or Seahaven(CODE)
    for source, count, target in moves:
        position = mirror.position
        card = position.columns[source][-count] if source in COLUMNS else position.top(source)
        p.post("move", **{"from": sh_place(source), "card": str(card), "to": sh_place(target)})
        mirror.play(Move(source, count, target), now=0)
    return mirror


def offer(p: Player):
    found = p.board.find_all(id="send-home")
    return found[0] if found else None


def test_offered_exactly_from_the_move_after_which_only_foundation_moves_are_left(client):
    p = CheckedPlayer(client, URL)
    p.answers = []
    p.open()
    assert offer(p) is None
    mirror = play(p, LINE[: FIRST - 1])
    assert offer(p) is None and home_line(mirror.position) is None
    play(p, LINE[FIRST - 1 : FIRST], mirror)
    shown = offer(p)
    assert shown is not None
    form = shown.find("form")
    assert form.attrs["action"] == f"{URL}/home" and form.attrs["hx-post"] == f"{URL}/home"
    assert shown.by_id("control-home").text == "Send all home"
    assert "Only moves to the foundations are left." in shown.text
    # it stays offered while the player keeps sending cards home by hand
    play(p, LINE[FIRST : FIRST + 3], mirror)
    assert offer(p) is not None
    # a page load shows it too (CheckedPlayer compared every answer with one)
    assert parse(client.get(URL).text).by_id("send-home")


def test_send_all_home_is_one_action_one_undo_takes_it_back(client, store):
    p = CheckedPlayer(client, URL)
    p.answers = []
    p.open()
    mirror = play(p, LINE[:FIRST])
    expected = [f"card-{mirror.position.top(m.source)}" for m in home_line(mirror.position)[:1]]
    response = p.post("home")
    answer = parse(response.text)
    status = answer.by_id("status")
    assert status.text.startswith("14 cards sent home. You won! 520 points in ")
    flight = status.attrs["data-flight"].split()
    assert len(flight) == 14 and flight[:1] == expected
    board = p.board
    assert (board.attrs["data-state"], board.attrs["data-moves"], board.attrs["data-score"]) == (
        "won",
        "82",
        "520",
    )
    assert p.board.by_id("summary-moves").text == "82"
    assert p.board.find_all(id="send-home") == []
    p.post("undo")
    assert (p.board.attrs["data-state"], p.board.attrs["data-moves"]) == ("playing", "68")
    assert p.board.attrs["data-score"] == str(10 * mirror.position.cards_home)
    assert offer(p) is not None
    assert p.status == "Move taken back."
    p.post("redo")
    assert p.board.attrs["data-state"] == "won" and p.board.attrs["data-moves"] == "82"
    # the statistics count every card: 82 moves, 520 points
    row = parse(client.get("/stats").text).find("tr", data_kind="SH-C4")
    figures = {td.attrs["data-field"]: td.text.strip() for td in row.find_all("td")}
    assert (figures["won"], figures["fewest"], figures["best_score"]) == ("1", "82", "520")


def test_without_javascript_the_offer_is_a_form_that_answers_303(client):
    p = Player(client, URL, htmx=False)
    p.open()
    play(p, LINE[:FIRST])
    assert offer(p) is not None
    response = p.post("home")
    assert response.headers["location"] == URL
    assert p.board.attrs["data-state"] == "won"


def test_refused_while_other_moves_are_needed_and_nothing_changes(client, store):
    p = Player(client, URL)
    p.open()
    play(p, LINE[:5])
    before = p.board.attrs["data-moves"]
    p.post("home")
    assert p.status == (
        "Not every card can go home by moves to the foundations now: nothing moved."
    )
    assert p.board.attrs["data-moves"] == before
    plain = Player(client, URL, htmx=False)
    plain.open()
    response = plain.post("home")
    assert response.headers["location"] == f"{URL}?n=not-home"
    assert "Not every card can go home" in plain.doc.by_id("status").text


def test_a_crafted_not_home_link_says_nothing_where_sending_home_is_possible(client):
    p = Player(client, URL)
    p.open()
    play(p, LINE[:FIRST])
    page = parse(client.get(f"{URL}?n=not-home").text)
    assert page.by_id("status").text == ""
    assert page.by_id("send-home")


@pytest.mark.parametrize(
    ("lang", "label"), [("tr", "Hepsini temellere gönder"), ("bg", "Всички в основите")]
)
def test_the_offer_speaks_the_players_language(client, lang, label):
    p = Player(client, URL)
    p.open()
    client.post("/settings", data={"lang": lang, "token": p.token})
    p.open()
    play(p, LINE[:FIRST])
    assert p.board.by_id("control-home").text == label
