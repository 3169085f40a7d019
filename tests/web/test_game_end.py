"""Issue 35 item 7, through HTTP: the same end box for both games, a Restart that asks only where
moves can be lost, and time the page was hidden left out of the game's time."""

from __future__ import annotations

import pytest

import app.web.play.actions
from app.engine.game import AWAY_MS, SHORTEST_HIDDEN_GAP_MS
from app.engine.halfmoon import position_from_data
from tests.web.conftest import HTMX, board_version, sid_of
from tests.web.html import parse
from tests.web.test_halfmoon_play import dealt  # noqa: F401 (a fixture)
from tests.web.test_seahaven_play import sh  # noqa: F401 (a fixture)

STUCK = {"piles": [["2S", "5S"], ["6D"], ["3H"]] + [[]] * 9, "reserve": [None] * 8}
"""Half Moon's tiny table: 5♠ + 6♦ leaves 2♠ and 3♥, no pair, no triple: stuck."""
WON = {"piles": [["5S"], ["6D"]] + [[]] * 10, "reserve": [None] * 8}
"""Half Moon's tiny table won by one pair."""
ACTIONS = ["ending-undo", "ending-restart", "ending-replay", "ending-new", "ending-other"]
"""What both games' end box offers after a game that cannot be won any more (issue 45: New
game deals at once, the dialog is the small link after it)."""


def end_ids(p) -> list[str]:
    return [
        e.attrs["id"] for e in p.board.find(class_="ending-actions").iter() if e.attrs.get("id")
    ]


def stuck_half_moon(player, dealt, htmx: bool = True):  # noqa: F811
    dealt(position_from_data(STUCK))
    p = player(htmx=htmx)
    p.tap("pile-1", "5S")
    p.tap("pile-2", "6D")
    assert p.board.attrs["data-state"] == "stuck"
    return p


def test_both_games_end_boxes_offer_undo_restart_the_replay_and_new_game(player, dealt, sh):  # noqa: F811
    hm = stuck_half_moon(player, dealt)
    ending = hm.board.find(class_="ending stuck")
    assert ending.find("p").text == (
        "No moves left: no pair sums to 11 and there is no jack–queen–king triple to remove."
        " Undo, or restart the deal."
    )
    assert end_ids(hm) == ACTIONS
    assert [b.text for b in ending.find_all("button")] == ["Undo", "Restart"]
    form = next(f for f in ending.find_all("form") if f.find_all(id="ending-restart"))
    assert form.attrs["action"] == "/half-moon/HM1-N-AAAAAAB/restart"
    assert [(i.attrs["name"], i.attrs["value"]) for i in form.find_all("input")] == [
        ("token", hm.token),
        ("confirm", "yes"),
    ]
    seahaven = sh("SH1-C1-AAAAAAC")
    seahaven.move("column-2", "QS", "column-9")
    assert seahaven.board.attrs["data-state"] == "lost"
    assert end_ids(seahaven) == ACTIONS


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
def test_restart_on_a_stuck_game_restarts_without_asking(player, dealt, htmx):  # noqa: F811
    """The info bar's Restart (no ``confirm``) on an ended game: nothing can be lost (its
    replay is kept), so no question and no *Keep playing*, with or without JavaScript."""
    p = stuck_half_moon(player, dealt, htmx)
    response = p.post("restart")
    if not htmx:
        assert "ask=" not in response.headers["location"], response.headers["location"]
    assert p.board.find_all(id="confirm-restart") == []
    assert (p.board.attrs["data-state"], p.board.attrs["data-moves"]) == ("playing", "0")
    if htmx:
        assert p.status.startswith("The deal starts again from the beginning.")


def test_restart_on_a_won_game_restarts_without_asking(player, dealt):  # noqa: F811
    dealt(position_from_data(WON))
    p = player()
    p.tap("pile-1", "5S")
    p.tap("pile-2", "6D")
    assert p.board.attrs["data-state"] == "won"
    p.post("restart")
    assert p.board.find_all(id="confirm-restart") == []
    assert (p.board.attrs["data-state"], p.board.attrs["data-moves"]) == ("playing", "0")


def test_an_ended_games_page_asks_nothing_even_when_its_url_asks(player, dealt, client):  # noqa: F811
    p = stuck_half_moon(player, dealt)
    doc = parse(client.get(f"{p.url}?ask=restart").text)
    assert doc.find_all(id="confirm-restart") == []
    assert doc.find_all(id="confirm-restart-no") == []
    assert doc.by_id("board").find(class_="ending stuck") is not None


def test_a_game_with_moves_to_lose_still_asks(player, dealt):  # noqa: F811
    dealt(position_from_data({**STUCK, "piles": [["2S", "5S"], ["6D"], ["3H"], ["8C"]] + [[]] * 8}))
    p = player()
    p.tap("pile-1", "5S")
    p.tap("pile-2", "6D")
    assert (p.board.attrs["data-state"], p.board.attrs["data-moves"]) == ("playing", "1")
    p.post("restart")
    assert p.board.by_id("confirm-restart-text").text == (
        "Restart this deal from the beginning? Your moves so far are lost."
    )
    assert p.board.by_id("confirm-restart-no").text == "Keep playing"


# --- time the page was hidden does not count -----------------------------------------------

START = 1_700_000_000_000


@pytest.fixture
def at(monkeypatch):
    """The server's clock, set by hand (milliseconds after :data:`START`)."""
    now = [START]
    monkeypatch.setattr(app.web.play.actions, "now_ms", lambda: now[0])

    def set_to(ms: int) -> None:
        now[0] = START + ms

    return set_to


def tap_hidden(client, p, place: str, card: str, hidden: str | None):
    headers = {**HTMX, **board_version(p.board)}
    if hidden is not None:
        headers["X-Hidden-Ms"] = hidden
    data = {"place": place, "card": card, "token": p.token}
    response = client.post(f"{p.url}/tap", data=data, headers=headers)
    assert response.status_code == 200, response.text
    return response


def clock_after(client, store, player, dealt, at, gap: int, hidden: str | None) -> list:  # noqa: F811
    """The stored clock after a first tap at 0 and a second ``gap`` ms later, sent with
    ``hidden`` in its ``X-Hidden-Ms`` header."""
    dealt(position_from_data(STUCK))
    p = player()
    at(0)
    p.tap("pile-1", "5S")  # selects: the clock starts
    at(gap)
    tap_hidden(client, p, "pile-3", "3H", hidden)  # selects another card: the clock runs on
    return store.load(sid_of(client), "HM1-N-AAAAAAB")[1].record["clock"]


@pytest.mark.parametrize(
    ("gap", "hidden", "counted"),
    [
        (60_000, None, 60_000),  # no header (no JavaScript): the gap counts
        (60_000, "0", 60_000),
        (60_000, "50000", 10_000),  # hidden for 50 of the 60 s: 10 s count
        (20 * 60_000, "0", AWAY_MS),  # a long gap counts five minutes at most
        (20 * 60_000, str(18 * 60_000), 2 * 60_000),  # hidden first, then two minutes of play
        (60_000, "-5000", 60_000),  # never lengthens a gap
        (60_000, "120000", SHORTEST_HIDDEN_GAP_MS),  # never below the plausible minimum
        (60_000, str(10**30), SHORTEST_HIDDEN_GAP_MS),
        (400, "400", 400),  # a gap shorter than that minimum is not lengthened either
        (60_000, "soon", 60_000),  # not a number: ignored, never a 500
        (60_000, "1e9", 60_000),
    ],
)
def test_time_the_page_was_hidden_is_not_counted_within_bounds(
    client,
    store,
    player,
    dealt,  # noqa: F811
    at,
    gap,
    hidden,
    counted,
):
    elapsed, since = clock_after(client, store, player, dealt, at, gap, hidden)
    assert (elapsed, since) == (counted, START + gap)


def test_hidden_time_shows_in_the_clock_the_answer_draws(client, player, dealt, at, monkeypatch):  # noqa: F811
    monkeypatch.setattr(app.web.rendering.context, "now_ms", lambda: START + 60_000)
    dealt(position_from_data(STUCK))
    p = player()
    at(0)
    p.tap("pile-1", "5S")
    at(60_000)
    response = tap_hidden(client, p, "pile-3", "3H", "45000")
    clock = parse(response.text).by_id("clock")
    assert (clock.attrs["data-elapsed"], clock.text) == ("15000", "0:15")
