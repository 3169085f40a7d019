"""One tap to a new deal (issue 45 item 2): the end box's and the info bar's *New game* lead, in
one request answered 303, to a fresh deal of the same game and level — not the New game dialog;
from a game in progress the same link lands on issue 43's question first. The dialog stays one
small link away ("Other level or code…"), and takes a code too."""

from __future__ import annotations

import pytest

from app.engine.halfmoon import HalfMoon, position_from_data
from tests.web.conftest import deal_as
from tests.web.html import parse
from tests.web.test_unfinished import one_move
from tests.web.test_win import _win_half_moon

HM = "HM1-N-AAAAAAB"
SH_LOST = "SH1-C1-AAAAAAC"  # lost at the deal: its end box at once


def dealt_page(client, href: str, prefix: str, old: str):
    """GET ``href``: one 303 to a fresh deal's URL (``prefix``…, not ``old``) whose page shows
    the deal at its start; the answer to the GET itself writes nothing (no-store)."""
    answer = client.get(href)
    assert answer.status_code == 303, answer.text[:300]
    assert answer.headers["cache-control"] == "no-store"
    location = answer.headers["location"]
    assert location.startswith(prefix) and location != old
    page = client.get(location)
    assert page.status_code == 200
    doc = parse(page.text)
    assert doc.find_all(id="new-game-heading") == []  # not the dialog
    assert doc.by_id("board").attrs["data-moves"] == "0"
    return location, doc


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_a_won_half_moon_games_new_game_deals_at_once(player, htmx, monkeypatch):
    import app.web.play.actions

    monkeypatch.setattr(app.web.play.actions, "now_ms", lambda: 1_700_000_000_000)
    p = player(HM, htmx=htmx)
    _win_half_moon(p, lambda: None)
    assert p.board.attrs["data-state"] == "won"
    href = p.board.by_id("ending-new").attrs["href"]
    assert href == "/half-moon"
    dealt_page(p.client, href, "/half-moon/HM1-N-", f"/half-moon/{HM}")
    other = p.board.by_id("ending-other")
    words = other.find(class_="other-word").text  # a phone shows "⋯", its name the words
    assert (other.attrs["href"], words, other.attrs["title"]) == (
        "/half-moon?new=1",
        "Deal options or code…",
        "Deal options or code…",
    )


def test_a_stuck_half_moon_games_new_game_deals_at_once(player, monkeypatch, app):
    deal_as(
        monkeypatch,
        HalfMoon,
        HM,
        position_from_data({"piles": [["2S", "5S"], ["6D"]] + [[]] * 10, "reserve": [None] * 8}),
        app,
    )
    p = player(HM)
    p.tap("pile-1", "5S")
    p.tap("pile-2", "6D")
    assert p.board.attrs["data-state"] == "stuck"
    href = p.board.find(class_="ending stuck").find("a", id="ending-new").attrs["href"]
    dealt_page(p.client, href, "/half-moon/HM1-N-", f"/half-moon/{HM}")


def test_a_lost_one_cell_seahaven_games_new_game_deals_one_cell_at_once(client):
    page = parse(client.get(f"/seahaven/{SH_LOST}").text)
    assert page.by_id("board").attrs["data-state"] == "lost"
    ending = page.find(class_="ending lost")
    href = ending.find("a", id="ending-new").attrs["href"]
    assert href == "/seahaven?cells=1"
    dealt_page(client, href, "/seahaven/SH1-C1-", f"/seahaven/{SH_LOST}")
    # the info bar's New game the same, on the same level
    assert page.by_id("control-new").attrs["href"] == "/seahaven?cells=1"
    # the dialog one small link away, the game's level chosen, a code box under it
    other = ending.find("a", id="ending-other")
    words = other.find(class_="other-word").text
    assert (other.attrs["href"], words) == ("/seahaven?last=1", "Other level or code…")
    dialog = parse(client.get(other.attrs["href"]).text)
    assert dialog.by_id("new-game-heading").text == "Seahaven Towers · New game"
    checked = [
        i.attrs["value"] for i in dialog.find_all("input", name="cells") if "checked" in i.attrs
    ]
    assert checked == ["1"]
    form = dialog.find("form", class_="code")
    assert (form.attrs["method"], form.attrs["action"]) == ("get", "/play")
    assert form.find("input", id="code").attrs["name"] == "code"


def test_the_info_bars_new_game_deals_at_once_from_a_fresh_deal(player):
    p = player(HM)
    href = p.doc.by_id("control-new").attrs["href"]
    assert href == "/half-moon"
    dealt_page(p.client, href, "/half-moon/HM1-N-", f"/half-moon/{HM}")


def test_the_info_bars_new_game_asks_first_while_the_game_is_unfinished(player, store):
    p = one_move(player, store, HM)
    href = p.doc.by_id("control-new").attrs["href"]
    asked = p.client.get(href)
    assert asked.status_code == 200  # issue 43's question, not a deal
    page = parse(asked.text)
    assert page.by_id("unfinished-heading").text == "You have a game of Half Moon going on"
    assert page.by_id("unfinished-keep").attrs["href"] == f"/half-moon/{HM}"
    start = page.by_id("unfinished-start").attrs["href"]
    assert start == "/half-moon?start=new"
    dealt_page(p.client, start, "/half-moon/HM1-N-", f"/half-moon/{HM}")


def test_the_half_moon_dialog_takes_a_code(client):
    dialog = parse(client.get("/half-moon?new=1").text)
    assert dialog.by_id("dialog-code-heading").text == "Play a deal by its code"
    answer = client.get("/play", params={"code": "hm1-n-aaaaaac"})
    assert (answer.status_code, answer.headers["location"]) == (303, "/half-moon/HM1-N-AAAAAAC")
