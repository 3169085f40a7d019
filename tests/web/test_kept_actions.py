"""An action the page kept while offline (``X-Kept: 1``, issue 32 item 5) is made only on the
board it was kept on: sent from any other board (another tab or device moved the game
meanwhile) it is not made, and the answer says so (``X-Kept: refused``, the notice, the whole
board as it is)."""

from __future__ import annotations

from tests.web.conftest import HTMX, board_version, parse

KEPT = {"X-Kept": "1"}
MOVED_ON = (
    "This game moved on elsewhere while you were offline, so the moves kept on this page were"
    " not made. Here is the game now."
)


def test_a_kept_tap_from_the_games_board_is_made(player):
    p = player()
    card = p.top("pile-1")
    headers = {**HTMX, **board_version(p.board), **KEPT}
    response = p.client.post(
        f"{p.url}/tap", data={"place": "pile-1", "card": card, "token": p.token}, headers=headers
    )
    assert response.status_code == 200
    assert "x-kept" not in response.headers
    fresh = player()
    pressed = fresh.board.find(data_place="pile-1").find_all(data_card=True)[0]
    assert pressed.attrs["aria-pressed"] == "true"


def test_a_kept_tap_from_a_board_the_game_has_left_is_not_made(player):
    offline = player()
    other = player()  # another tab of the same player moves the game on
    other.tap("pile-2")
    headers = {**HTMX, **board_version(offline.board), **KEPT}
    data = {"place": "pile-1", "card": offline.top("pile-1"), "token": offline.token}
    response = offline.client.post(f"{offline.url}/tap", data=data, headers=headers)
    assert response.status_code == 200
    assert response.headers["x-kept"] == "refused"
    answer = parse(response.text)
    assert answer.by_id("status").text.strip() == MOVED_ON
    board = answer.by_id("board")
    assert board.attrs["hx-swap-oob"] == "true"  # the whole board, as it is
    fresh = player()
    assert (
        fresh.board.find(data_place="pile-1").find_all(data_card=True)[0].attrs["aria-pressed"]
        == "false"
    )
    assert (
        fresh.board.find(data_place="pile-2").find_all(data_card=True)[0].attrs["aria-pressed"]
        == "true"
    )
    assert board_version(fresh.board) == {"X-Board-Version": response.headers["x-board-version"]}


def test_a_kept_tap_without_a_board_version_is_not_made(player):
    p = player()
    data = {"place": "pile-1", "card": p.top("pile-1"), "token": p.token}
    response = p.client.post(f"{p.url}/tap", data=data, headers={**HTMX, **KEPT})
    assert response.headers["x-kept"] == "refused"
    fresh = player()
    assert (
        fresh.board.find(data_place="pile-1").find_all(data_card=True)[0].attrs["aria-pressed"]
        == "false"
    )


def test_a_kept_tap_sent_again_after_its_answer_was_lost_is_answered_not_refused(player):
    p = player()
    headers = {**HTMX, **board_version(p.board), **KEPT}
    data = {"place": "pile-1", "card": p.top("pile-1"), "token": p.token}
    first = p.client.post(f"{p.url}/tap", data=data, headers=headers)
    again = p.client.post(f"{p.url}/tap", data=data, headers=headers)  # the answer was lost
    assert "x-kept" not in again.headers
    assert again.headers["x-board-version"] == first.headers["x-board-version"]
    fresh = player()
    assert (
        fresh.board.find(data_place="pile-1").find_all(data_card=True)[0].attrs["aria-pressed"]
        == "true"
    )  # selected once, not selected and deselected


def test_an_undo_kept_offline_on_an_ended_board_is_made_and_the_next_kept_tap_too(
    monkeypatch, app, player
):
    """Issue 43 item 5: the page's board version of an ended board (its end box holds the
    statistics' lines) is the one the kept-action check computes: one definition. The page's
    kept queue sends HX-Request, X-Kept and the version the board had (static/js/instant.js)."""
    from app.engine.halfmoon import HalfMoon, position_from_data
    from tests.web.conftest import deal_as

    dead = {"piles": [["6D", "5S"], ["AH"], ["10C"]] + [[]] * 9, "reserve": [None] * 8}
    deal_as(monkeypatch, HalfMoon, "HM1-N-AAAAAAB", position_from_data(dead), app)
    p = player()
    p.tap("pile-2")
    p.tap("pile-3")
    p.open()  # the ended board as a page shows it, the end box's statistics lines in it
    assert p.board.attrs["data-state"] == "stuck"
    assert p.board.find_all(id="deal-figures") != []
    headers = {**HTMX, **board_version(p.board), **KEPT}
    undone = p.client.post(f"{p.url}/undo", data={"token": p.token}, headers=headers)
    assert undone.status_code == 200
    assert "x-kept" not in undone.headers
    headers = {**HTMX, "X-Board-Version": undone.headers["x-board-version"], **KEPT}
    data = {"place": "pile-1", "card": "5S", "token": p.token}
    tapped = p.client.post(f"{p.url}/tap", data=data, headers=headers)
    assert "x-kept" not in tapped.headers
    fresh = player()
    assert (fresh.board.attrs["data-state"], fresh.board.attrs["data-moves"]) == ("playing", "0")
    pressed = fresh.board.find(data_place="pile-1").find_all(data_card=True)[0]
    assert pressed.attrs["aria-pressed"] == "true"
