"""A newcomer's first visit over HTTP (issue 35, items 1 and 2): the home page's tiles (each game
and level drawn by the board code, one link each; today's deals the same with the player's
result), a fresh deal's how-to-play, shown until the player dismisses it and then never again
(kept in the session's ``learned``; a GET writes nothing), and settings answered with 204 to
the page's script."""

from __future__ import annotations

import pytest

from app.services import daily
from app.store import SessionData
from tests.web.conftest import HTMX, sid_of
from tests.web.html import parse

HM = "HM1-N-AAAAAAB"
SH = "SH1-C4-AAAAAJ2"


def test_each_game_and_level_is_a_tile_drawn_by_the_board_code(client):
    page = parse(client.get("/").text)
    tiles = page.by_id("new-deals").find_all("a", class_="tile")
    assert [a.attrs["href"] for a in tiles] == [
        "/half-moon",
        "/seahaven?cells=4",
        "/seahaven?cells=2",
        "/seahaven?cells=1",
    ]
    # the rules pages' diagrams: Half Moon's 20 places; Seahaven's 10 columns, 4 foundations
    # and its cells
    for tile, places in zip(tiles, (20, 18, 16, 15), strict=True):
        picture = tile.find(class_="tile-picture")
        assert picture.attrs["aria-hidden"] == "true"  # the words name the link
        assert len(picture.find_all(data_place=True)) == places
        assert len(picture.find_all(data_card=True)) >= 16
    assert [t.find(class_="tile-level").text for t in tiles[1:]] == [
        "Easy · 4 cells",
        "Medium · 2 cells",
        "Hard · 1 cell",
    ]


def test_todays_deals_are_tiles_with_the_day_in_words(client):
    codes = [str(c) for c in daily.codes_of(daily.today()).values()]
    page = parse(client.get("/", headers={"Accept-Language": "tr"}).text)
    rows = page.by_id("daily").find_all("li")
    assert [li.attrs["data-code"] for li in rows] == codes
    assert all(li.find(class_="tile-picture") for li in rows)
    assert page.by_id("daily").find_all("code") == []
    heading = page.by_id("daily-heading").text
    assert heading.startswith("Bugünün dağıtımları") and daily.today() not in heading


def test_a_fresh_deal_shows_the_how_to_play_until_it_is_dismissed(client, player, store):
    p = player(HM)
    howto = p.doc.by_id("howto")
    assert len(howto.find_all("li", class_="howto-step")) == 3
    dismiss = howto.find_all("form", data_closes="howto")
    assert [f.attrs["action"] for f in dismiss] == ["/settings", "/settings"]
    fields = {e.attrs["name"]: e.attrs["value"] for e in dismiss[0].find_all("input")}
    assert fields == {"token": p.token, "next": f"/half-moon/{HM}", "learned": "half-moon"}
    # the offers: one button each, off until pressed (the documents' default)
    offers = howto.find("form", class_="howto-offers")
    buttons = {
        b.attrs["name"]: (b.attrs["value"], b.attrs["aria-pressed"])
        for b in offers.find_all("button")
    }
    assert buttons == {"move_errors": ("on", "false"), "placement_help": ("on", "false")}
    response = client.post("/settings", data={**fields})
    assert response.status_code == 303 and response.headers["location"] == f"/half-moon/{HM}"
    session, _ = store.load(sid_of(client))
    assert session is not None and session.learned == ("half-moon",)
    for fresh in (HM, "HM1-N-AAAAAAC"):  # never again, on any deal of the game
        assert parse(client.get(f"/half-moon/{fresh}").text).find_all(id="howto") == []
    # the other game's is its own; "?" asks for it again (?howto=1)
    assert parse(client.get(f"/seahaven/{SH}").text).find_all(id="howto") != []
    again = parse(client.get(f"/half-moon/{HM}?howto=1").text)
    assert again.by_id("howto").find("h2").text == "How to play Half Moon"
    assert again.by_id("help-howto").attrs["href"] == "?howto=1#howto"


def test_an_offer_turns_its_help_on_and_the_page_shows_it_pressed(client, player, store):
    p = player(HM)
    response = client.post(
        "/settings", data={"placement_help": "on", "token": p.token, "next": f"/half-moon/{HM}"}
    )
    assert response.status_code == 303
    session, _ = store.load(sid_of(client))
    assert session == SessionData(session.token, placement_help=True)
    offer = parse(client.get(f"/half-moon/{HM}").text).by_id("howto-placement-help")
    assert (offer.attrs["value"], offer.attrs["aria-pressed"]) == ("off", "true")


def test_a_game_under_way_shows_no_how_to_play(player):
    p = player(HM)
    p.tap("pile-1")
    p.tap("pile-5")  # 3♥ + 8♣: a removal
    assert parse(p.client.get(p.url).text).find_all(id="howto") == []


def test_dismissing_keeps_earlier_games_and_refuses_what_is_not_a_game(client, player, store):
    p = player(HM)
    for slug in ("seahaven", "half-moon", "seahaven"):
        client.post("/settings", data={"learned": slug, "token": p.token})
    session, _ = store.load(sid_of(client))
    assert session is not None and session.learned == ("half-moon", "seahaven")
    bad = client.post("/settings", data={"learned": "poker", "token": p.token})
    assert bad.status_code == 422
    said = parse(bad.text).text
    assert "Accepted: a game's name as its address writes it (half-moon, seahaven)." in said


def test_the_page_script_gets_204_and_the_change_is_kept(client, player, store):
    p = player(HM)
    response = client.post("/settings", data={"theme": "dark", "token": p.token}, headers=HTMX)
    assert response.status_code == 204 and response.content == b""
    assert "HX-Request" in response.headers["vary"]
    assert response.headers["cache-control"] == "no-store"
    session, _ = store.load(sid_of(client))
    assert session is not None and session.theme == "dark"


@pytest.mark.parametrize("damage", [["half-moon"] * 9, "half-moon", [1], [""], ["x" * 33]])
def test_a_damaged_learned_list_loads_as_none_and_keeps_the_session(damage):
    loaded = SessionData.from_data({"token": "t", "move_errors": False, "placement_help": False,
                                    "lang": None, "theme": "dark", "learned": damage})  # fmt: skip
    assert loaded == SessionData("t", theme="dark")


def test_learned_is_stored_only_once_chosen():
    assert "learned" not in SessionData("t").to_data()
    assert SessionData("t", learned=("half-moon",)).to_data()["learned"] == ["half-moon"]
    assert SessionData.from_data(SessionData("t", learned=("seahaven",)).to_data()) == SessionData(
        "t", learned=("seahaven",)
    )
