"""Offline, the game goes on (issue 32 item 5): with the network gone, taps are drawn, kept in
order in the browser (a reload keeps them: the service worker gives the game's page, the page
its board), and sent in order when the network is back, each checked by the server; a kept
action the server refuses (the game moved on elsewhere) leaves the server's game on screen.

Each test has its own context: htmx logs a failed fetch as a console error, which the suite's
``new_context`` counts as a problem (here it is the point)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from app.engine.halfmoon import Removal
from tests.browser.conftest import DESKTOP, PHONE, knows_the_games
from tests.browser.play import HM, SH, board, hm_card, hm_line, hm_remove, post_form, sh_line
from tests.browser.test_instant import _sh_burst
from tests.browser.test_offline import controlled
from tests.browser.test_overlap import assert_same_after_reload, snapshot
from tests.browser.test_overlap import sh_places as sh_snapshot_places
from tests.system.servers import Server

OFFLINE = "Offline — your moves are kept and will be sent."
MOVED_ON = (
    "This game moved on elsewhere while you were offline, so the moves kept on this page were"
    " not made. Here is the game now."
)


@pytest.fixture
def context(browser: Browser, server: Server) -> Iterator[BrowserContext]:
    context = browser.new_context(
        base_url=server.url, viewport=PHONE, has_touch=True, is_mobile=True, locale="en-US"
    )
    knows_the_games(context)
    yield context
    context.close()


def opened(context: BrowserContext, path: str) -> Page:
    page = context.new_page()
    page.goto(path)
    controlled(page)
    page.reload()  # the worker's own navigation: it keeps the game's page
    expect(board(page)).to_be_visible()
    return page


def first_pair_offline(context: BrowserContext) -> tuple[Page, list[Removal]]:
    """A Half Moon game opened, the network gone, its line's first pair removed (kept)."""
    page = opened(context, f"/half-moon/{HM}")
    line = hm_line()
    context.set_offline(True)
    for place in line[0]:
        hm_card(page, place).click()
    expect(page.locator("#moves")).to_have_text("1")
    return page, line


def places_of(shown: dict[str, Any]) -> dict[str, Any]:
    """What a snapshot shows but the board's own figures (the server's until it answers)."""
    return {name: value for name, value in shown.items() if name != "board"}


def places(page: Page) -> dict[str, Any]:
    return places_of(snapshot(page))


def kept_count(page: Page) -> int:
    count: int = page.evaluate(
        """() => {
          const board = document.getElementById('board');
          const path = `/${board.dataset.game}/${board.dataset.code}`;
          const record = JSON.parse(localStorage.getItem('patience-kept:' + path) || 'null');
          return record ? record.actions.length : 0;
        }"""
    )
    return count


def test_twenty_moves_offline_a_reload_offline_then_the_network_back(context: BrowserContext):
    page = opened(context, f"/half-moon/{HM}")
    line = hm_line()
    hm_remove(page, line[0], 1)
    hm_remove(page, line[1], 2)  # answered after the page loaded: the worker's copy is older
    context.set_offline(True)
    for removal in line[2:22]:
        for place in removal:
            hm_card(page, place).click()
    expect(page.locator("#moves")).to_have_text("22")
    expect(page.locator("#status")).to_have_text(OFFLINE)
    assert kept_count(page) == sum(len(r) for r in line[2:22])
    drawn = snapshot(page)

    page.reload()  # no network: the worker's copy of the page, the board it kept
    expect(page.locator("html")).to_have_attribute("data-offline-copy", "")
    expect(page.locator("#moves")).to_have_text("22")
    expect(board(page)).to_have_attribute("data-moves", "2")  # the server's, as it last said
    assert places(page) == places_of(drawn)
    expect(page.locator("#status")).to_have_text(OFFLINE)

    context.set_offline(False)
    expect(board(page)).to_have_attribute("data-moves", "22", timeout=30_000)
    expect(board(page)).not_to_have_attribute("data-pending", "")
    assert kept_count(page) == 0
    assert places(page) == places_of(drawn)
    assert_same_after_reload(page)  # the server holds all twenty
    expect(board(page)).to_have_attribute("data-moves", "22")


def test_a_kept_move_the_server_refuses_leaves_the_servers_game(context: BrowserContext):
    page, line = first_pair_offline(context)
    expect(page.locator("#status")).to_have_text(OFFLINE)
    # meanwhile another device selects a card of this game (its own network, this player's)
    other = context.browser.new_context(base_url=server_url(page))  # type: ignore[union-attr]
    try:
        other.add_cookies(context.cookies())
        helper = other.new_page()
        helper.goto(f"/half-moon/{HM}")
        elsewhere = next(p for p in range(12) if p not in line[0])
        name = hm_place_name(elsewhere)
        post_form(helper, f"/half-moon/{HM}/tap", place=name, card=top(helper, elsewhere))
    finally:
        other.close()
    context.set_offline(False)
    expect(page.locator("#status")).to_have_text(MOVED_ON, timeout=30_000)
    expect(board(page)).to_have_attribute("data-moves", "0")
    expect(page.locator(f"#card-{name}")).to_have_attribute("aria-pressed", "true")
    expect(board(page)).not_to_have_attribute("data-pending", "")
    assert kept_count(page) == 0
    # the game as this page played it, offered as a pasted replay (every move checked there)
    offer = page.locator("#kept-replay")
    expect(offer).to_have_text("Replay the game as you played it here")
    text = page.locator("#kept-offer input[name=text]").input_value()
    assert text == "\n".join([HM, str(line[0])]) + "\n"
    base = server_url(page)
    offer.click()
    expect(page).to_have_url(base + "/replay")
    expect(page.locator("#replay-moves")).to_have_text("1")
    page.go_back()
    expect(board(page)).to_have_attribute("data-moves", "0")
    expect(page.locator("#kept-offer")).to_have_count(0)
    assert_same_after_reload(page)


def server_url(page: Page) -> str:
    return page.url.split("/half-moon")[0]


def hm_place_name(place: int) -> str:
    from app.engine.halfmoon import place_name

    return place_name(place)


def top(page: Page, place: int) -> str:
    card: str = page.locator(f"#card-{hm_place_name(place)}").get_attribute("data-card") or ""
    return card


def test_seahaven_moves_offline_are_kept_through_a_reload_and_sent(
    browser: Browser, server: Server
):
    """Seahaven's moves of every kind (home, to a column, to a cell) played offline, the tab
    reloaded without the network, then the network back: the server makes each once."""
    context = browser.new_context(
        base_url=server.url, viewport=DESKTOP, locale="en-US", reduced_motion="reduce"
    )
    knows_the_games(context)
    try:
        page = opened(context, f"/seahaven/{SH}")
        moves = sh_line(SH)[:14]
        context.set_offline(True)
        game, _ = _sh_burst(page, moves, 120)
        expect(page.locator("#moves")).to_have_text(str(len(moves)))
        drawn = snapshot(page)
        assert drawn["places"] == sh_snapshot_places(game)
        page.reload()
        expect(page.locator("#moves")).to_have_text(str(len(moves)))
        assert places(page) == places_of(drawn)
        context.set_offline(False)
        expect(board(page)).to_have_attribute("data-moves", str(len(moves)), timeout=30_000)
        expect(board(page)).not_to_have_attribute("data-pending", "")
        shown = assert_same_after_reload(page)
        assert shown["board"] == ["playing", str(game.score), str(len(moves))]
        assert shown["places"] == sh_snapshot_places(game)
    finally:
        context.close()


def test_offline_undo_and_redo_are_drawn_and_kept_restart_waits(context: BrowserContext):
    """Undo and Redo offline are drawn at once (the page's rules replay the history on the
    board) and kept in order with the taps, through a reload without the network; Restart is
    drawn by its answer only, so offline it waits and the status line says so."""
    page, line = first_pair_offline(context)
    for place in line[1]:
        hm_card(page, place).click()
    expect(page.locator("#moves")).to_have_text("2")
    page.locator("#control-undo").click()
    expect(page.locator("#moves")).to_have_text("1")
    expect(page.locator("#control-redo")).to_be_enabled()
    page.locator("#control-redo").click()
    expect(page.locator("#moves")).to_have_text("2")
    page.locator("#control-undo").click()
    expect(page.locator("#moves")).to_have_text("1")
    drawn = places(page)
    page.locator("#control-restart").click()
    expect(page.locator("#status")).to_have_text(
        "Offline — Restart waits for the connection. Your moves are kept and will be sent."
    )
    assert kept_count(page) == 2 * len(line[0]) + 3
    page.reload()
    expect(page.locator("#moves")).to_have_text("1")
    assert places(page) == drawn
    context.set_offline(False)
    expect(board(page)).to_have_attribute("data-moves", "1", timeout=30_000)
    expect(board(page)).not_to_have_attribute("data-pending", "")
    assert kept_count(page) == 0
    shown = assert_same_after_reload(page)
    assert places_of(shown) == drawn
    assert shown["info"][2:] == [False, False]  # Undo and Redo both enabled
