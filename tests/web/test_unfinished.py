"""Nothing counted without the player's say (issue 43 item 3): a new deal of a game and level
while one is unfinished asks first — keep playing it, or start the new one and count the old as
lost — with JavaScript and without (plain links); the home page lists the unfinished games
first."""

from __future__ import annotations

from typing import Any

from app.store import StoredGame
from tests.web.conftest import sid_of
from tests.web.html import parse

CODE = "HM1-N-AAAAAAB"
OTHER = "HM1-N-AAAAAAC"


def lost(client: Any, kind: str = "HM") -> str:
    page = parse(client.get("/stats").text)
    return page.find("tr", data_kind=kind).find("td", data_field="lost").text


def one_move(player, store, code: str = CODE):
    """A Half Moon game one removal in (found on the deal's board: any pair summing to 11)."""
    p = player(code)
    tops = {place: p.top(place) for place in [f"pile-{i}" for i in range(1, 13)]}
    values = {"A": 1, "J": 11, "Q": 12, "K": 13}

    def value(card: str) -> int:
        rank = card[:-1]
        return values.get(rank) or int(rank)

    places = [(place, card) for place, card in tops.items() if card]
    for i, (a, ca) in enumerate(places):
        for b, cb in places[i + 1 :]:
            if value(ca) + value(cb) == 11:
                p.tap(a)
                p.tap(b)
                row = store.load(sid_of(p.client), code)[1]
                assert row is not None and row.moves == 1
                return p
    raise AssertionError("no pair on the deal's top cards")


def test_a_new_deal_asks_first_while_a_game_of_its_kind_is_unfinished(player, store):
    p = one_move(player, store)
    client = p.client
    asked = client.get("/half-moon")
    assert asked.status_code == 200
    page = parse(asked.text)
    assert page.by_id("unfinished-heading").text == "You have a game of Half Moon going on"
    assert page.by_id("unfinished-text").text == (
        f"Deal {CODE}, 1 move played. Starting a new deal counts it as lost."
    )
    assert page.by_id("unfinished-keep").attrs["href"] == f"/half-moon/{CODE}"
    assert page.by_id("unfinished-start").attrs["href"] == "/half-moon?start=new"
    assert asked.headers["cache-control"] == "no-store"
    assert lost(client) == "0"  # asking counts nothing
    # the home page's tile and New game's dialog say the same (its choice kept in the query)
    again = client.get("/half-moon?winnable=off")
    start = parse(again.text).by_id("unfinished-start").attrs["href"]
    assert start == "/half-moon?winnable=off&start=new"
    # the player's say: a new deal; its first move counts the unfinished one as lost
    dealt = client.get(start)
    assert dealt.status_code == 303
    new_url = dealt.headers["location"]
    assert new_url.startswith("/half-moon/HM1-N-") and new_url != f"/half-moon/{CODE}"
    assert lost(client) == "0"


def test_no_question_without_an_unfinished_game_of_that_kind(player, client, store):
    assert client.get("/half-moon").status_code == 303  # a new player
    p = player()
    assert p.client.get("/half-moon").status_code == 303  # a deal only opened
    # an unfinished Seahaven Easy game asks before Easy, not before Hard nor Half Moon
    sid = sid_of(p.client)
    code = "SH1-C4-AAAAAAB"
    row = StoredGame(code, {"code": code, "clock": [0, 1]}, "playing", 0, 1, 1, kind="SH-C4")
    store.change_game(sid, code, lambda _s, _g: (row, None))
    assert p.client.get("/seahaven?cells=4").status_code == 200
    assert p.client.get("/seahaven?cells=1").status_code == 303
    assert p.client.get("/half-moon").status_code == 303
    start = parse(p.client.get("/seahaven?cells=4").text).by_id("unfinished-start").attrs["href"]
    assert start == "/seahaven?cells=4&start=new"
    assert p.client.get(start).status_code == 303
    refused = p.client.get("/seahaven?cells=4&start=yes")
    assert refused.status_code == 422 and "Accepted: new." in refused.text


def test_another_deals_page_says_its_first_move_counts_the_unfinished_game_as_lost(player, store):
    p = one_move(player, store)
    other = parse(p.client.get(f"/half-moon/{OTHER}").text)
    note = other.by_id("unfinished-note")
    assert "Your first move here counts your unfinished game of Half Moon as lost." in note.text
    assert other.by_id("unfinished-back").attrs["href"] == f"/half-moon/{CODE}"
    own = parse(p.client.get(f"/half-moon/{CODE}").text)
    assert own.find_all(id="unfinished-note") == []  # the game itself says nothing
    q = one_move(player, store, OTHER)  # the first move there: the player's say
    assert lost(q.client) == "1"
    assert parse(q.client.get(f"/half-moon/{CODE}").text).find_all(id="unfinished-note") == []


def test_the_home_page_lists_the_unfinished_games_first(player, store):
    p = one_move(player, store)
    text = p.client.get("/").text
    home = parse(text)
    assert [a.attrs["href"] for a in home.by_id("continue").find_all("a")] == [f"/half-moon/{CODE}"]
    assert text.index('id="continue"') < text.index('id="new-deals"')
    assert home.by_id("new-deals-heading").text == "New game"
