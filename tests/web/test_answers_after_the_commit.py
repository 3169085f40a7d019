"""An action's answer says "not made" only when the store proves the action was not made
(issue 34 finding 1). Once the store has committed the change, a failure of anything after it
— the statistics read for the end box, the lost verdict's write, anything while answering —
answers with what was made: the board as committed (perhaps without the end box's statistics
lines). Work after the commit is repaired on the next read, never lost silently.

Each test fails one store call after the commit, through a wrapper around every store the web
tests offer (memory, SQLite, Redis), and checks the answer's status and words and the game
the store holds."""

from __future__ import annotations

from typing import Any

import pytest

from app.engine.codes import DealCode
from app.engine.halfmoon import deal, place_name
from app.engine.halfmoon.solver import solve
from app.main import create_app
from app.store import Store, StoreError
from tests.web.conftest import HTMX, Player, TestClient, sid_of
from tests.web.html import parse

HM = "HM1-N-AAAAAAB"
SH_LOST = "SH1-C1-AAAAAAC"
"""Lost at the deal; the move of the queen of spades to column 9 is the losing move
(tests/web/test_seahaven_play.py)."""
NOT_MADE = "was not made"


class FailingStore:
    """A store whose next calls of a named method fail, as a stalled store fails them: every
    other call, and every call until :meth:`fail` arms it, goes to the store it wraps."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._failing: dict[str, int] = {}
        self.failed: list[str] = []
        # app.store.observed times a store's calls by wrapping them on the object: this
        # stand-in's calls must stay its own, to fail when armed
        self._observed_by_metrics = True

    def fail(self, *names: str, skip: int = 0) -> None:
        """Fail the next call of each of ``names`` (``player_stats``), after ``skip`` calls
        that go through."""
        self._failing = dict.fromkeys(names, skip)

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._store, name)
        if name not in self._failing or not callable(found):
            return found

        async def call(*args: Any, **kwargs: Any) -> Any:
            if self._failing.get(name, -1) == 0:
                del self._failing[name]
                self.failed.append(name)
                raise StoreError(f"{name} failed (a test's stall)")
            if name in self._failing:
                self._failing[name] -= 1
            return await found(*args, **kwargs)

        return call


@pytest.fixture
def failing(store) -> FailingStore:
    return FailingStore(store.store)


@pytest.fixture
def client(failing, proof_pool):
    app = create_app(store=failing, proof_pool=proof_pool)  # type: ignore[arg-type]
    with TestClient(app, base_url="http://testserver", follow_redirects=False) as client:
        yield client


def win_but_the_last_tap(client) -> tuple[Player, str]:
    """Half Moon won up to its very last tap: the page, and the place of that tap."""
    line = solve(deal(DealCode.parse(HM))).line or ()
    p = Player(client, f"/half-moon/{HM}")
    p.open()
    taps = [place_name(place) for removal in line for place in removal]
    for place in taps[:-1]:
        p.tap(place)
    return p, taps[-1]


def moves_stored(store: Store, client, code: str) -> tuple[str, int]:
    row = store.load(sid_of(client), code)[1]
    assert row is not None
    return row.state, row.moves


@pytest.mark.all_stores
def test_the_winning_tap_whose_statistics_read_fails_answers_the_win(client, failing, store):
    p, last = win_but_the_last_tap(client)
    failing.fail("player_stats")
    response = p.tap(last)
    assert failing.failed == ["player_stats"]
    assert response.status_code == 200 and NOT_MADE not in response.text
    assert (p.board.attrs["data-state"], p.board.attrs["data-moves"]) == ("won", "48")
    assert p.board.by_id("summary-title").text == "You won!"
    assert p.board.find_all(id="bests") == p.board.find_all(id="deal-figures") == []
    assert p.status.startswith("Removed ")
    assert moves_stored(store, client, HM) == ("won", 48)
    # the statistics counted the win; the next read shows them in the end box
    page = parse(client.get(p.url).text)
    assert page.by_id("bests").text == "Your first win at Half Moon!"
    assert "1 player finished it, 1 won" in page.by_id("deal-figures").text


@pytest.mark.all_stores
def test_undo_of_a_won_game_whose_statistics_read_fails_answers_the_undo(client, failing, store):
    p, last = win_but_the_last_tap(client)
    p.tap(last)
    assert moves_stored(store, client, HM) == ("won", 48)
    failing.fail("player_stats")
    response = p.post("undo")
    assert failing.failed == ["player_stats"]
    assert response.status_code == 200 and NOT_MADE not in response.text
    assert (p.board.attrs["data-state"], p.board.attrs["data-moves"]) == ("playing", "47")
    assert p.status == "Move taken back."
    assert p.board.by_id("ending").children == []
    assert moves_stored(store, client, HM) == ("playing", 47)
    assert parse(client.get(p.url).text).by_id("board").attrs["data-moves"] == "47"


@pytest.mark.all_stores
def test_a_seahaven_move_whose_lost_verdict_write_fails_answers_the_move(client, failing, store):
    """The move is made and its position proved lost; the verdict's write (the second change
    of the request) fails: the answer is the move, and the next read writes the verdict."""
    url = f"/seahaven/{SH_LOST}"
    p = Player(client, url)
    p.open()
    failing.fail("change_game", skip=1)
    response = p.post("move", **{"from": "column-2", "card": "QS", "to": "column-9"})
    assert failing.failed == ["change_game"]
    assert response.status_code == 200 and NOT_MADE not in response.text
    assert p.status.startswith("Queen of spades to column 9.")
    assert (p.board.attrs["data-state"], p.board.attrs["data-moves"]) == ("lost", "1")
    assert p.board.find(class_="ending lost") is not None
    row = store.load(sid_of(client), SH_LOST)[1]
    assert (row.state, row.moves, row.marks.unproved) == ("playing", 1, True)
    # the next read proves the position again (this worker remembers it) and keeps the verdict
    page = parse(client.get(url).text)
    assert page.by_id("board").attrs["data-state"] == "lost"
    assert moves_stored(store, client, SH_LOST) == ("lost", 1)


@pytest.mark.all_stores
def test_a_failed_commit_still_answers_not_made_and_changes_nothing(client, failing, store):
    """The other side: when the change itself fails, the store proves it was not made."""
    p, last = win_but_the_last_tap(client)
    failing.fail("change_game")
    response = client.post(
        f"{p.url}/tap",
        data={"place": last, "card": p.top(last), "token": p.token},
        headers={**HTMX},
    )
    assert response.status_code == 503
    assert "Your move was not made" in parse(response.text).text
    assert moves_stored(store, client, HM) == ("playing", 47)


@pytest.mark.all_stores
def test_without_javascript_the_winning_tap_leads_to_the_won_page_when_statistics_fail(
    client, failing, store
):
    """The plain form's answer is a 303 to the page; the page that reads the statistics for
    the end box shows the win without them when the read fails."""
    p, last = win_but_the_last_tap(client)
    p.htmx = False
    failing.fail("player_stats")
    p.tap(last)  # follows the 303
    assert failing.failed == ["player_stats"]
    assert (p.board.attrs["data-state"], p.board.attrs["data-moves"]) == ("won", "48")
    assert p.board.find_all(id="bests") == []
    assert moves_stored(store, client, HM) == ("won", 48)


def test_a_page_the_store_cannot_read_says_so_and_not_that_a_move_was_not_made(client, failing):
    """A GET makes no move: its store failure never says one was not made."""
    failing.fail("load")
    response = client.get(f"/half-moon/{HM}")
    assert response.status_code == 503 and response.headers["Retry-After"] == "1"
    text = parse(response.text).find("main").text
    assert NOT_MADE not in text
    assert "The game could not be read just now. Try again." in text
