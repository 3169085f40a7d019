"""Hints on request (issue 45 item 1): the setting, the three answers, the assisted mark, and
the game without JavaScript."""

from __future__ import annotations

import pytest

from app.engine.cards import Card
from app.engine.codes import DealCode
from app.engine.halfmoon import HalfMoon, Position, Removal, parse_place, place_name
from app.engine.solutions import Verdict
from app.store.life import Nature, life_of
from tests.web.conftest import HTMX, deal_as, sid_of
from tests.web.html import parse

CODE = "HM1-N-AAAAAAB"
URL = f"/half-moon/{CODE}"


def hints_on(client, p) -> None:
    response = client.post("/settings", data={"hints": "on", "token": p.token, "next": URL})
    assert response.status_code == 303
    p.open()


def lost_table() -> Position:
    """One removal left (ace of spades with ten of hearts), after which the five is alone."""
    piles = [(Card.parse("5S"), Card.parse("AS")), (Card.parse("10H"),)] + [()] * 10
    return Position(tuple(piles), (None,) * 8)


def test_with_hints_off_there_is_no_control_and_a_hint_is_refused(client, player):
    p = player()
    assert p.doc.find_all(id="hint-form") == []
    response = client.post(f"{URL}/hint", data={"token": p.token})
    assert response.status_code == 409
    assert "Turn Hints on in Settings to ask for a hint." in response.text
    answer = client.post(f"{URL}/hint", data={"token": p.token}, headers=HTMX)
    status = parse(answer.text).by_id("status")  # the live region, out of band as refusals are
    assert (answer.status_code, status.attrs["hx-swap-oob"]) == (409, "true")
    assert "Turn Hints on in Settings to ask for a hint." in status.text


def test_a_hint_on_a_fresh_deal_is_a_legal_move_that_keeps_it_winnable(client, player, store):
    p = player()
    hints_on(client, p)
    form = p.doc.by_id("hint-form")
    assert form.attrs["action"] == f"{URL}/hint"
    response = client.post(f"{URL}/hint", data={"token": p.token}, headers=HTMX)
    assert response.status_code == 200
    status = parse(response.text).by_id("status")
    assert status.attrs["hx-swap-oob"] == "true"
    assert status.text.strip().startswith("Hint: ")
    marks = status.attrs["data-hint"].split()
    places = [mark.removeprefix("card-") for mark in marks]
    move = Removal(parse_place(place) for place in places)
    start = HalfMoon.deal(DealCode.parse(CODE))
    assert HalfMoon.check(start, move) is None
    after = HalfMoon.result(start, move)
    assert HalfMoon.solve_position(after).verdict is Verdict.WON
    assert [f"card-{place_name(place)}" for place in move] == marks
    row = store.load(sid_of(client), CODE)[1]
    assert life_of(row).nature is Nature.ASSISTED


def test_a_lost_position_is_told_so(client, player, monkeypatch, app):
    deal_as(monkeypatch, HalfMoon, CODE, lost_table(), app)
    p = player()
    hints_on(client, p)
    response = client.post(f"{URL}/hint", data={"token": p.token}, headers=HTMX)
    status = parse(response.text).by_id("status")
    assert status.text.strip() == "No move keeps this deal winnable."
    assert "data-hint" not in status.attrs


def test_a_budget_too_small_finds_nothing_in_time_and_marks_nothing(client, player, app, store):
    p = player()
    hints_on(client, p)
    app.state.hinter.budget, app.state.hinter.seconds = 1, 0.0
    response = client.post(f"{URL}/hint", data={"token": p.token}, headers=HTMX)
    assert parse(response.text).by_id("status").text.strip() == "No winning move found in time."
    assert store.load(sid_of(client), CODE)[1] is None


def test_without_javascript_the_page_comes_back_with_the_hint(client, player):
    p = player(htmx=False)
    hints_on(client, p)
    response = client.post(f"{URL}/hint", data={"token": p.token})
    assert response.status_code == 303
    location = response.headers["location"]
    assert location.startswith(f"{URL}?hint=")
    p.open(location)
    status = p.doc.by_id("status")
    assert status.text.strip().startswith("Hint: ")
    assert len(status.attrs["data-hint"].split()) in (2, 3)
    # a forged tag shows nothing
    p.open(location.replace("&ht=", "&ht=x"))
    assert "data-hint" not in p.doc.by_id("status").attrs


@pytest.mark.parametrize("lang", ["tr", "bg"])
def test_the_answers_are_translated(client, player, monkeypatch, app, lang):
    deal_as(monkeypatch, HalfMoon, CODE, lost_table(), app)
    p = player()
    hints_on(client, p)
    client.post("/settings", data={"lang": lang, "token": p.token, "next": URL})
    response = client.post(f"{URL}/hint", data={"token": p.token}, headers=HTMX)
    text = parse(response.text).by_id("status").text.strip()
    assert text == {"tr": "Bu dağıtımı kazanılabilir tutan hamle yok.",
                    "bg": "Никой ход не запазва това раздаване печелившо."}[lang]  # fmt: skip


def test_an_assisted_win_sets_no_best_time_and_no_standing(client, player, store, monkeypatch, app):
    """A tiny table won after a hint: counted as won, with no best time and no deal figure."""
    piles = [(Card.parse("AS"),), (Card.parse("10H"),)] + [()] * 10
    deal_as(monkeypatch, HalfMoon, CODE, Position(tuple(piles), (None,) * 8), app)
    p = player()
    hints_on(client, p)
    response = client.post(f"{URL}/hint", data={"token": p.token}, headers=HTMX)
    status = parse(response.text).by_id("status")
    assert status.attrs["data-hint"] == "card-pile-1 card-pile-2"
    assert status.text.strip() == (
        "Hint: Remove ace of spades from pile 1 and ten of hearts from pile 2."
    )
    p.open()
    p.tap("pile-1")
    p.tap("pile-2")
    assert p.board.attrs["data-state"] == "won"
    row = store.load(sid_of(client), CODE)[1]
    assert life_of(row).nature is Nature.ASSISTED
    stats = client.get("/stats").text
    kinds = store.player_stats(sid_of(client))["k"]["HM"]
    assert kinds["won"] == 1
    assert kinds["best_ms"] == 0 and kinds["fewest"] == 0
    row = parse(stats).find_all("tr", data_code=CODE)[0]  # the games' list (then the replays')
    assert "Assisted" in row.find(class_="result").text
    assert store.deal_stats(CODE) is None or not store.deal_stats(CODE).get("wins")
    assert "Assisted" in client.get("/").text  # the home page's finished games


def test_one_hint_at_a_time_per_player(monkeypatch):
    """A second hint of the same position shares the first; another position is refused while
    it runs; another player's runs beside it."""
    import asyncio
    import concurrent.futures
    import threading

    from app.services import hints

    release = threading.Event()
    calls: list[object] = []

    def slow(position, budget, seconds):
        calls.append(position)
        release.wait(5)
        return "lost", ""

    monkeypatch.setattr(hints, "find_hint", slow)

    async def scenario():
        hinter = hints.Hinter(pool=concurrent.futures.ThreadPoolExecutor(4))
        first = asyncio.ensure_future(hinter.hint("p1", "a", "A"))
        same = asyncio.ensure_future(hinter.hint("p1", "a", "A"))
        other = asyncio.ensure_future(hinter.hint("p2", "b", "B"))
        for _ in range(500):  # until both players' hints run in the pool (a loaded machine)
            if len(calls) >= 2:
                break
            await asyncio.sleep(0.01)
        with pytest.raises(hints.HintBusyError):
            await hinter.hint("p1", "c", "C")
        release.set()
        answers = await asyncio.gather(first, same, other)
        again = await hinter.hint("p1", "c", "C")  # done: the player may ask again
        return answers, again

    # in a thread of its own: the browser tests' Playwright keeps an event loop running in this
    # one when the whole suite runs in one process
    with concurrent.futures.ThreadPoolExecutor(1) as runner:
        answers, again = runner.submit(asyncio.run, scenario()).result(timeout=30)
    assert [a.kind for a in answers] == ["lost", "lost", "lost"]
    assert again.kind == "lost"
    assert calls == ["A", "B", "C"]
