"""*Winnable deals only* over HTTP (issue 33, item 5): on by default where most deals cannot be
won (Seahaven with 2 and 1 cells), off elsewhere; remembered per player (``POST /settings``,
or either game's New game dialog: ``POST /seahaven``, ``POST /half-moon``), with JavaScript
(htmx: 204) and without (303); a
deal drawn is an ordinary deal code any player opens to the same cards; bad input is a 422
that says what is accepted; a GET writes nothing."""

from __future__ import annotations

import datetime

import pytest

from app.engine.codes import DealCode
from app.services import daily, winnable
from tests.store.helpers import footprint
from tests.web.conftest import HTMX, sid_of, token_of
from tests.web.html import Element, parse
from tests.web.test_attacks import browser
from tests.web.test_winnable_table import is_proved_winnable

NEW = {"HM-N": "/half-moon", "SH-C4": "/seahaven?cells=4", "SH-C2": "/seahaven?cells=2"}
NEW["SH-C1"] = "/seahaven?cells=1"
DEFAULT_ON = {"HM-N": False, "SH-C4": False, "SH-C2": True, "SH-C1": True}


def dealt(client, url: str) -> DealCode:
    response = client.get(url)
    assert response.status_code == 303, response.text
    return DealCode.parse(response.headers["location"].rsplit("/", 1)[1])


def from_table(code: DealCode) -> bool:
    return code.number in winnable.table()[f"{code.game}-{code.variant}"]["deals"]


def token(client) -> str:
    response = client.get("/")
    assert response.status_code == 200
    return token_of(parse(response.text))


@pytest.mark.parametrize("kind", sorted(NEW))
def test_a_new_player_gets_winnable_deals_only_where_most_deals_cannot_be_won(client, kind):
    assert winnable.wanted("auto", *kind.split("-")) is DEFAULT_ON[kind]  # type: ignore[arg-type]
    assert {from_table(dealt(client, NEW[kind])) for _ in range(3)} == {DEFAULT_ON[kind]}


@pytest.mark.parametrize("htmx", [False, True])
def test_the_choice_is_kept_per_player_with_and_without_javascript(client, store, htmx):
    headers = HTMX if htmx else {}
    for choice, expected in (("on", dict.fromkeys(NEW, True)), ("off", dict.fromkeys(NEW, False))):
        response = client.post(
            "/settings",
            data={"winnable": choice, "token": token(client), "next": "/"},
            headers=headers,
        )
        assert response.status_code == (204 if htmx else 303), response.text
        assert store.load(sid_of(client))[0].winnable == choice
        assert {kind: from_table(dealt(client, url)) for kind, url in NEW.items()} == expected


def test_the_new_game_dialog_keeps_the_choice_then_deals(client, store):
    page = client.get("/seahaven")
    assert page.status_code == 200
    doc = parse(page.text)
    dialog = doc.find("form", action="/seahaven", method="post")
    radios = dialog.find_all("input", type="radio", name="winnable")
    assert [(r.attrs["value"], "checked" in r.attrs) for r in radios] == [
        ("auto", True),
        ("on", False),
        ("off", False),
    ]
    form = {"cells": "4", "winnable": "on", "token": token_of(doc)}
    response = client.post("/seahaven", data=form)
    assert response.status_code == 303
    assert response.headers["location"] == "/seahaven?cells=4"
    assert store.load(sid_of(client))[0].winnable == "on"
    assert from_table(dealt(client, response.headers["location"]))
    again = (
        parse(client.get("/seahaven").text)
        .find("form", action="/seahaven")
        .find_all("input", type="radio", name="winnable")
    )
    assert [r.attrs["value"] for r in again if "checked" in r.attrs] == ["on"]


# --- Half Moon's New game dialog: what Seahaven's offers, without levels ----------------------


def hm_dialog(client) -> Element:
    page = client.get("/half-moon?new=1")
    assert page.status_code == 200, page.text
    assert page.headers["cache-control"] == "no-store"
    return parse(page.text)


def choice_of(doc: Element, action: str = "/half-moon") -> list[str]:
    radios = doc.find("form", action=action).find_all("input", type="radio", name="winnable")
    return [r.attrs["value"] for r in radios if "checked" in r.attrs]


def test_half_moons_new_game_control_deals_and_its_dialog_stays(client):
    page = parse(client.get("/half-moon/HM1-N-AAAAAAB").text)
    assert page.by_id("control-new").attrs["href"] == "/half-moon"  # issue 45: one tap
    assert client.get("/half-moon").status_code == 303  # the home page's tile: a deal at once
    doc = hm_dialog(client)
    assert doc.find("h1").text == "Half Moon · New game"
    form = doc.find("form", action="/half-moon", method="post")
    assert form.find("input", type="hidden", name="token").attrs["value"] == token_of(doc)
    (choice,) = form.find_all("fieldset")
    assert choice.find("legend").text == "Winnable deals only"
    radios = choice.find_all("input", type="radio", name="winnable")
    assert [(r.attrs["value"], "checked" in r.attrs) for r in radios] == [
        ("auto", True),
        ("on", False),
        ("off", False),
    ]
    assert [label.text for label in choice.find_all("label")] == [
        "Seahaven Medium and Hard only",
        "Always",
        "Never",
    ]
    assert "94 in 100" in choice.find("p", class_="hint").text
    assert form.by_id("deal").text == "Deal the cards"
    assert [e.attrs["name"] for e in form.find_all("input") if "name" in e.attrs] == (
        ["token"] + ["winnable"] * 3
    )


@pytest.mark.parametrize("lang", ["tr", "bg"])
def test_half_moons_dialog_speaks_the_players_language(client, lang):
    client.post("/settings", data={"lang": lang, "token": token(client), "next": "/"})
    doc = hm_dialog(client)
    form = doc.find("form", action="/half-moon")
    texts = [label.text for label in form.find_all("label")] + [form.find("p").text]
    english = ["Seahaven Medium and Hard only", "Always", "Never", "Only deals a solver"]
    assert [t for t in texts if any(t.startswith(e) for e in english)] == []
    assert "New game" not in doc.find("h1").text


def test_half_moons_dialog_keeps_the_choice_then_deals_a_deal_proved_winnable(client, store):
    doc = hm_dialog(client)
    assert choice_of(doc) == ["auto"]  # a new player: off for Half Moon
    response = client.post("/half-moon", data={"winnable": "on", "token": token_of(doc)})
    assert response.status_code == 303, response.text
    assert response.headers["location"] == "/half-moon"
    assert store.load(sid_of(client))[0].winnable == "on"
    code = dealt(client, response.headers["location"])
    assert from_table(code)
    assert is_proved_winnable(code)
    assert choice_of(hm_dialog(client)) == ["on"]
    assert choice_of(parse(client.get("/seahaven").text), "/seahaven") == [
        "on"
    ]  # one choice, both games
    doc = hm_dialog(client)
    response = client.post("/half-moon", data={"winnable": "off", "token": token_of(doc)})
    assert store.load(sid_of(client))[0].winnable == "off"
    assert not from_table(dealt(client, response.headers["location"]))
    assert choice_of(hm_dialog(client)) == ["off"]


def test_half_moons_dialog_posted_with_the_default_deals_any_deal_and_writes_nothing(client, store):
    doc = hm_dialog(client)
    before = footprint(store)
    response = client.post("/half-moon", data={"winnable": "auto", "token": token_of(doc)})
    assert response.status_code == 303
    assert store.load(sid_of(client))[0] is None
    assert footprint(store) == before
    assert not from_table(dealt(client, response.headers["location"]))


def test_half_moons_dialog_with_javascript_and_a_get_write_nothing(client, store):
    client.get("/")
    before = footprint(store)
    for headers in ({}, HTMX):
        assert client.get("/half-moon?new=1", headers=headers).status_code == 200
    assert footprint(store) == before


def test_the_dialog_posted_with_the_default_writes_no_session(client, store):
    doc = parse(client.get("/seahaven").text)
    response = client.post(
        "/seahaven", data={"cells": "1", "winnable": "auto", "token": token_of(doc)}
    )
    assert response.status_code == 303
    assert store.load(sid_of(client))[0] is None
    assert from_table(dealt(client, response.headers["location"]))


def test_winnable_in_the_query_chooses_for_one_deal_and_keeps_nothing(client, store):
    assert from_table(dealt(client, "/half-moon?winnable=on"))
    assert not from_table(dealt(client, "/seahaven?cells=1&winnable=off"))
    assert store.load(sid_of(client))[0] is None


def test_a_winnable_deal_is_an_ordinary_code_another_player_opens_to_the_same_cards(app, client):
    code = dealt(client, "/seahaven?cells=1")
    assert from_table(code)
    mine = parse(client.get(f"/seahaven/{code}").text).by_id("board")
    with browser(app) as other:
        theirs = parse(other.get(f"/seahaven/{code}").text).by_id("board")
    cards = [e.attrs["data-card"] for e in mine.find_all(data_card=True)]
    assert len(cards) == 52
    assert [e.attrs["data-card"] for e in theirs.find_all(data_card=True)] == cards


REFUSED = [
    ("get", "/half-moon?winnable=maybe", None, "Accepted: on or off."),
    ("get", "/half-moon?winnable=on&winnable=off", None, "Accepted: on or off."),
    ("get", "/seahaven?cells=3&winnable=on", None, "Accepted: 4, 2 or 1 cells."),
    ("get", "/seahaven?winnable=auto", None, "Accepted: on or off."),
    ("post", "/settings", {"winnable": "always"}, "Accepted: auto, on or off."),
    ("post", "/seahaven", {"cells": "4", "winnable": "yes"}, "Accepted: auto, on or off."),
    ("post", "/seahaven", {"cells": "4", "variant": "C0"}, "variant"),
    ("post", "/seahaven", {"cells": "3", "winnable": "on"}, "Accepted: 4, 2 or 1 cells."),
    ("post", "/seahaven", {"cells": ["4", "2"], "winnable": "on"}, "Accepted: 4, 2 or 1 cells."),
    ("post", "/half-moon", {"cells": "4", "winnable": "on"}, "cells"),
    ("post", "/half-moon", {"winnable": "always"}, "Accepted: auto, on or off."),
    ("post", "/half-moon", {"winnable": ["on", "maybe"]}, "Accepted: auto, on or off."),
    ("get", "/half-moon?new=2", None, "The field “new” has a value that is not accepted."),
    ("get", "/half-moon?new=1&new=1", None, "The field “new” has a value that is not accepted."),
    ("get", "/half-moon?new=1&cells=4", None, "The field “cells” is not accepted here."),
    ("get", "/half-moon?new=1&winnable=auto", None, "Accepted: on or off."),
]


@pytest.mark.parametrize(("method", "url", "form", "said"), REFUSED)
def test_bad_input_is_a_422_that_says_what_is_accepted(client, store, method, url, form, said):
    if method == "get":
        response = client.get(url)
    else:
        response = client.post(url, data={**form, "token": token(client)})
    assert response.status_code == 422, response.text
    assert said in response.text
    assert store.load(sid_of(client))[0] is None


def test_the_dialog_without_its_token_is_refused(client):
    client.get("/")
    response = client.post("/seahaven", data={"cells": "4", "winnable": "on"})
    assert response.status_code == 422
    assert "token" in response.text


def test_new_deals_without_a_cookie_write_nothing(app, store):
    with browser(app) as anonymous:
        before = footprint(store)
        for url in [*NEW.values(), "/half-moon?winnable=on", "/seahaven", "/half-moon?new=1"]:
            anonymous.cookies.clear()
            assert anonymous.get(url).status_code in (200, 303), url
        assert footprint(store) == before


def test_the_home_page_says_the_daily_deals_can_be_won_from_the_tables_first_day(
    client, monkeypatch
):
    said = "Every one can be won: a solver has won each of them."
    monkeypatch.setattr(daily, "today", lambda now=None: "2026-12-05")
    assert said not in client.get("/").text
    monkeypatch.setattr(daily, "today", lambda now=None: "2026-12-06")
    note = parse(client.get("/").text).find("p", class_="daily-note")
    assert said in note.text
    assert datetime.date.fromisoformat(winnable.DAILY_FROM) == datetime.date(2026, 12, 6)


def test_stats_say_the_choice_and_count_every_game_alike(client):
    shown = {}
    for choice in ("auto", "on", "off"):
        response = client.post(
            "/settings", data={"winnable": choice, "token": token(client), "next": "/"}
        )
        assert response.status_code == 303
        shown[choice] = parse(client.get("/stats").text).by_id("winnable-choice").text
    same = "Every game counts here the same way, however it was dealt."
    assert shown == {
        "auto": f"Winnable deals only: Medium and Hard. {same}",
        "on": f"Winnable deals only: Always. {same}",
        "off": f"Winnable deals only: Never. {same}",
    }
