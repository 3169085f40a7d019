"""The game's history on ``#board`` (issue 32, item 1): the actions played, what Redo would play
and the undo floor, in the record's notation (``data-line``, ``data-redo``, ``data-floor``), on
the page and in every answer that draws the board, so the page's copy of the rules can draw an
Undo or a Redo before its answer (static/js/instant.js). Not part of the board version."""

from __future__ import annotations

from app.engine.codes import DealCode
from app.engine.halfmoon import HalfMoon, legal_moves, place_name

CODE = "HM1-N-AAAAAAB"


def history(board) -> tuple[str, str, str]:
    return board.attrs["data-line"], board.attrs["data-redo"], board.attrs["data-floor"]


def test_the_board_carries_the_history_through_moves_undo_and_redo(player):
    game = HalfMoon(DealCode.parse(CODE))
    first = next(r for r in legal_moves(game.position) if len(r) == 2)
    game.play(first, now=0)
    second = next(r for r in legal_moves(game.position) if len(r) == 2)
    p = player(CODE)
    assert history(p.board) == ("", "", "0")
    for removal in (first, second):
        for place in removal:
            p.tap(place_name(place))
    assert history(p.board) == (f"{first}.{second}", "", "0")
    version = p.board.attrs["hx-headers:inherited"]
    p.post("undo")
    assert history(p.board) == (str(first), str(second), "0")
    p.post("undo")
    assert history(p.board) == ("", f"{first}.{second}", "0")  # the next to redo first
    p.post("redo")
    p.post("redo")
    assert history(p.board) == (f"{first}.{second}", "", "0")
    # the board version digests the board shown, not its history
    assert p.board.attrs["hx-headers:inherited"] == version
    p.open()
    assert history(p.board) == (f"{first}.{second}", "", "0")


def test_a_board_no_action_is_sent_from_carries_no_history(client):
    """A replay's board: no version, no history."""
    page = client.get("/rules/half-moon")
    assert page.status_code == 200
    assert "data-line=" not in page.text
