"""A tap whose write was sent just before Redis stalled: the answer is true.
Landed while the store asked: the move is answered as made. Still stalled: "we could not
confirm", never "not made", and the page then shows what the server holds. Against a real
``redis-server`` paused with SIGSTOP between the tap's read and its write."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from app.config import Config
from app.engine.codes import DealCode
from app.engine.halfmoon import deal, place_name
from app.engine.halfmoon.solver import solve
from app.main import create_app
from app.store.redis import RedisStore
from app.store.sync import SyncStore
from tests.store.redis_server import pausable_redis_server
from tests.web.conftest import HTMX, Player, apply_oob, board_version, sid_of
from tests.web.html import parse

pytestmark = pytest.mark.slow  # each test starts a Redis server of its own

TIMEOUT = 0.5
CODE = "HM1-N-AAAAAAB"
TAP = {"place": "pile-1", "card": str(deal(DealCode.parse(CODE)).top(0))}


@pytest.fixture
def server(tmp_path) -> Iterator[tuple[int, str]]:
    """A Redis server of this test's own (its pid and URL), resumed and stopped after."""
    with pausable_redis_server(tmp_path) as found:
        yield found


def pause_before_writes(store: RedisStore, pid: int) -> list[int]:
    """Make the store's game changes pause the server once decided (between the read and
    the write), while the returned list holds a 1; appending 0 stops it."""
    armed: list[int] = []
    change_game = store.change_game

    async def pausing(sid: str, code: str, change: Any) -> Any:
        def decided(session: Any, stored: Any) -> Any:
            outcome = change(session, stored)
            if armed and armed[-1] == 1 and outcome[0] is not None:
                armed.append(0)
                os.kill(pid, signal.SIGSTOP)
            return outcome

        return await change_game(sid, code, decided)

    store.change_game = pausing  # type: ignore[method-assign]
    return armed


class _ResumeWhenAsked(logging.Handler):
    def __init__(self, pid: int) -> None:
        super().__init__()
        self.timer = threading.Timer(TIMEOUT / 2, os.kill, (pid, signal.SIGCONT))

    def emit(self, record: logging.LogRecord) -> None:
        if "asking whether it landed" in record.getMessage():
            self.timer.start()


def run(main: Any) -> Any:
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main).result()


async def _page(c: httpx.AsyncClient) -> tuple[str, str]:
    """The token and the board version of the game's page."""
    page = parse((await c.get(f"/half-moon/{CODE}")).text)
    token = page.find_all("input", name="token")[0].attrs["value"]
    headers = page.by_id("board").attrs["hx-headers:inherited"]
    return token, headers.split('"')[3]


def _ace_pressed(html: str) -> str:
    return parse(html).by_id("card-pile-1").attrs["aria-pressed"]


@pytest.mark.parametrize(("resumed", "htmx"), [(True, True), (False, True), (False, False)])
def test_a_tap_whose_answer_was_lost_in_a_stall_is_answered_truthfully(
    server: tuple[int, str], proof_pool: Any, resumed: bool, htmx: bool
) -> None:
    pid, url = server
    store = SyncStore(RedisStore(url, socket_timeout=TIMEOUT))
    app = create_app(Config(store=url, store_timeout=TIMEOUT), store.store, proof_pool)
    armed = pause_before_writes(store.store, pid)
    handler = _ResumeWhenAsked(pid)
    logger = logging.getLogger("app.store.redis")

    async def main() -> dict[str, Any]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
            for _ in range(2):  # select, deselect: the game is kept, this worker wrote last
                token, version = await _page(c)
                first = await c.post(
                    f"/half-moon/{CODE}/tap",
                    data={**TAP, "token": token},
                    headers={"HX-Request": "true", "X-Board-Version": version},
                )
            token, version = await _page(c)
            armed.append(1)
            if resumed:
                logger.addHandler(handler)
            try:
                tap = await c.post(
                    f"/half-moon/{CODE}/tap",
                    data={**TAP, "token": token},
                    headers={"HX-Request": "true", "X-Board-Version": version} if htmx else {},
                )
            finally:
                logger.removeHandler(handler)
                os.kill(pid, signal.SIGCONT)
            page = await c.get(f"/half-moon/{CODE}")
            _, shown = await store.store.load(sid_of(c), CODE)
            # the page, told nothing certain, sends the same tap again from the same board
            # (htmx's page: a plain form sends no board version, see docs/decisions.md)
            retry = page
            if htmx:
                retry = await c.post(
                    f"/half-moon/{CODE}/tap",
                    data={**TAP, "token": token},
                    headers={"HX-Request": "true", "X-Board-Version": version},
                )
            sid = sid_of(c)
            return {
                "first": first,
                "tap": tap,
                "page": page,
                "shown": shown,
                "retry": retry,
                "sid": sid,
            }

    try:
        seen = run(main())
        _, held = store.load(seen["sid"], CODE)
    finally:
        store.close()
    assert seen["first"].status_code == 200
    tap, page = seen["tap"], seen["page"]
    assert held is not None
    if resumed:  # landed while the store asked: made, and said so
        assert tap.status_code == 200
        assert 'id="card-pile-1"' in tap.text and 'aria-pressed="true"' in tap.text
        assert held.record["sel"] != ""
    else:
        assert tap.status_code == 503
        assert tap.headers["retry-after"] == "1"
        text = parse(tap.text).text
        assert "We could not confirm whether your move was made" in text
        assert "Your move was not made" not in text
        if not htmx:  # the error page's way on: the game's page (htmx: the notice only)
            assert parse(tap.text).find("a", href=f"/half-moon/{CODE}").text == "Reload"
    # the page shows what the server holds, whichever way it went
    made = seen["shown"].record["sel"] != ""
    assert _ace_pressed(page.text) == ("true" if made else "false")
    if not htmx:
        return
    # and the same tap sent again from the same board selects the ace once: made before,
    # it is answered with the board as it is (not applied again, which would deselect it)
    retry = seen["retry"]
    assert retry.status_code == 200, retry.text
    assert held.record["sel"] != ""
    assert _ace_pressed(retry.text) == "true"
    if made:  # the retry wrote nothing
        assert held == seen["shown"]
        assert parse(retry.text).by_id("board").attrs["hx-swap-oob"] == "true"
        assert parse(retry.text).by_id("status").text == ""


def _replay(client: Any, url: str, data: dict[str, str], headers: dict[str, str]) -> Any:
    response = client.post(url, data=data, headers=headers)
    assert response.status_code == 200, response.text
    return response


@pytest.mark.all_stores
def test_the_same_tap_sent_again_from_the_same_board_is_answered_not_applied_twice(
    player: Any, client: Any, store: Any
) -> None:
    """The answer to a tap that selected a card was lost; the page sends the tap again from
    the board it still shows. Applied again, it would deselect the card: it is answered with
    the board as it is (the whole board, the card selected), and the game is not written."""
    p = player(CODE)
    sent = {**TAP, "token": p.token}
    headers = {**HTMX, **board_version(p.board)}
    url = f"/half-moon/{CODE}/tap"
    first = _replay(client, url, sent, headers)
    _, made = store.load(sid_of(client), CODE)
    again = _replay(client, url, sent, headers)
    _, held = store.load(sid_of(client), CODE)
    assert held == made  # not written again
    assert held.record["sel"] != ""
    board = parse(again.text).by_id("board")
    assert board.attrs["hx-swap-oob"] == "true"  # the whole board: the page is behind
    assert board.find(id="card-pile-1").attrs["aria-pressed"] == "true"
    assert parse(again.text).by_id("status").text == ""  # no "no longer there"
    assert again.headers["x-board-version"] == first.headers["x-board-version"]
    # a tap from the board the answer shows is a new action: applied (deselects)
    apply_oob(p.doc, parse(again.text))
    p.tap("pile-1")
    assert p.board.find(id="card-pile-1").attrs["aria-pressed"] == "false"
    _, after = store.load(sid_of(client), CODE)
    assert after.record["sel"] == ""


@pytest.mark.all_stores
def test_a_removal_sent_again_is_answered_with_the_board_not_refused_as_stale(
    player: Any, client: Any, store: Any
) -> None:
    """The tap that removed a pair (or triple) is sent again from the board it was made on:
    its cards are gone, but it is the same action — answered with the board, no notice."""
    removal = solve(deal(DealCode.parse(CODE))).line[0]
    p = player(CODE)
    for place in removal[:-1]:
        p.tap(place_name(place))
    last = place_name(removal[-1])
    sent = {"place": last, "card": p.top(last), "token": p.token}
    headers = {**HTMX, **board_version(p.board)}
    url = f"/half-moon/{CODE}/tap"
    _replay(client, url, sent, headers)
    _, made = store.load(sid_of(client), CODE)
    assert made.moves == 1
    again = _replay(client, url, sent, headers)
    _, held = store.load(sid_of(client), CODE)
    assert held == made
    doc = parse(again.text)
    assert doc.by_id("board").attrs["data-moves"] == "1"
    assert doc.by_id("status").text == ""
    # another tab's tap on that card, sent from another board, is still told it is stale
    other = {**HTMX, "X-Board-Version": "another board"}
    stale = _replay(client, url, sent, other)
    assert parse(stale.text).by_id("status").text.startswith("That card is no longer there")


SH = "SH1-C4-AAAAAJ2"
"""Column 1's top card is 8D: it cannot go home, so a tap selects it; cell 3 is free."""


def _place_of(board: Any, card: str) -> str:
    """The place ``board`` shows ``card`` at, and whether it is selected."""
    for place in board.find_all(data_place=True):
        for button in place.find_all(data_card=card):
            return f"{place.attrs['data-place']} pressed={button.attrs['aria-pressed']}"
    raise AssertionError(f"{card} is not on the board")


@pytest.mark.all_stores
@pytest.mark.parametrize(
    ("verb", "form", "shown"),
    [
        # applied twice, a selecting tap would deselect the card
        ("tap", {"place": "column-1", "card": "8D"}, "column-1 pressed=true"),
        # applied twice, a move or a double tap would be refused as stale ("no longer there")
        ("move", {"from": "column-1", "card": "8D", "to": "cell-3"}, "cell-3 pressed=false"),
        ("auto", {"place": "column-1", "card": "8D"}, "cell-3 pressed=false"),
    ],
)
def test_a_seahaven_action_sent_again_from_the_same_board_is_answered_not_applied_twice(
    client: Any, store: Any, verb: str, form: dict[str, str], shown: str
) -> None:
    """As Half Moon's tap: the answer was lost, the page sends the same action again from the
    board it still shows; it is answered with the whole board as it is, and nothing is written."""
    p = Player(client, f"/seahaven/{SH}")
    p.open()
    sent = {**form, "token": p.token}
    headers = {**HTMX, **board_version(p.board)}
    url = f"/seahaven/{SH}/{verb}"
    first = _replay(client, url, sent, headers)
    _, made = store.load(sid_of(client), SH)
    assert made.moves == (0 if verb == "tap" else 1)
    apply_oob(p.doc, parse(first.text))  # the changed places
    assert _place_of(p.board, "8D") == shown
    again = _replay(client, url, sent, headers)
    _, held = store.load(sid_of(client), SH)
    assert held == made  # not written again
    doc = parse(again.text)
    assert doc.by_id("board").attrs["hx-swap-oob"] == "true"  # the whole board
    assert doc.by_id("status").text == ""  # no "no longer there"
    assert _place_of(doc.by_id("board"), "8D") == shown
    assert again.headers["x-board-version"] == first.headers["x-board-version"]
