"""Issue 32: the page answers a tap in the next frame, whatever the network, and the server's
answer stays the truth (static/js/instant.js).

Latency is added through Chromium's DevTools (``Network.emulateNetworkConditions``): 600 ms, so
anything on the screen right after a click was drawn by the page, not by an answer."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from app.engine.cards import Card
from app.engine.codes import DealCode
from app.engine.halfmoon import deal, legal_moves
from app.engine.halfmoon import place_name as hm_place
from app.engine.seahaven import COLUMNS, Seahaven, foundation_place
from app.engine.seahaven import place_name as sh_place
from tests.browser.play import HM, SH, post_form
from tests.browser.test_overlap import (
    Posts,
    assert_same_after_reload,
    centre,
    latency,
    ready,
    snapshot,
)

SLOW = 600

PRESSED = "(selector) => [...document.querySelectorAll(selector)].map((c) => c.dataset.card)"


def pressed(page: Page) -> list[str]:
    """The cards drawn selected, in board order."""
    cards: list[str] = page.evaluate(PRESSED, "#board button.card[aria-pressed=true]")
    return cards


def click(page: Page, selector: str) -> None:
    x, y = centre(page, selector)
    page.mouse.click(x, y)


@pytest.mark.parametrize("game", ["half-moon", "seahaven"])
def test_a_card_shows_no_tap_highlight(page: Page, game: str):
    page.goto(f"/{game}/{HM if game == 'half-moon' else SH}")
    colour = page.locator("#board button.card").first.evaluate(
        "(c) => getComputedStyle(c).webkitTapHighlightColor"
    )
    assert colour == "rgba(0, 0, 0, 0)"


def _hm_single_and_pair() -> tuple[str, tuple[str, str]]:
    """On HM's deal: a number card no other top card pairs with, and a pair."""
    position = deal(DealCode.parse(HM))
    pairs = [r for r in legal_moves(position) if len(r) == 2]
    paired = {p for r in pairs for p in r}
    single = next(
        p
        for p in range(12)
        if p not in paired and (top := position.top(p)) is not None and not top.is_face
    )
    first, second = pairs[0]
    return hm_place(single), (hm_place(first), hm_place(second))


def test_half_moon_selection_is_drawn_before_the_answer_and_the_answer_agrees(
    context: BrowserContext, page: Page
):
    single, (first, _) = _hm_single_and_pair()
    page.goto(f"/half-moon/{HM}")
    ready(page)
    posts = Posts(page)
    latency(context, page, SLOW)
    click(page, f"#card-{first}")
    # the next frame already shows the selection; no answer has come
    assert page.evaluate("() => new Promise((r) => requestAnimationFrame(() => r()))") is None
    first_card = page.locator(f"#card-{first}").get_attribute("data-card")
    assert pressed(page) == [first_card]
    assert posts.done == 0
    posts.wait(page, 1)
    assert pressed(page) == [first_card]
    # a tap that cannot pair clears the selection at once; the answer says so too
    click(page, f"#card-{single}")
    assert pressed(page) == []
    assert len(posts.sent) == 2 and posts.done == 1
    posts.wait(page, 2)
    assert pressed(page) == []
    shown = assert_same_after_reload(page)
    assert shown["board"] == ["playing", "0", "0"]


def test_seahaven_selection_of_a_run_is_drawn_before_the_answer(
    context: BrowserContext, page: Page
):
    game = Seahaven(DealCode.parse(SH))
    position = game.position
    # a top card that does not go home: a tap selects it
    column = next(
        c
        for c in COLUMNS
        if (top := position.columns[c][-1]) is not None
        and not position.accepts(foundation_place(top.suit), top)
    )
    card = position.columns[column][-1]
    page.goto(f"/seahaven/{SH}")
    ready(page)
    posts = Posts(page)
    latency(context, page, SLOW)
    click(page, f"#card-{card}")
    assert pressed(page) == [str(card)]
    assert posts.done == 0
    posts.wait(page, 1)
    assert pressed(page) == [str(card)]
    page.wait_for_timeout(400)  # past the double-tap window
    click(page, f"#card-{card}")  # the selected card again: cleared at once
    assert pressed(page) == []
    posts.wait(page, 2)
    assert pressed(page) == []
    assert sh_place(column) == page.locator(f"#card-{card}").evaluate("(c) => c.form.dataset.place")
    assert_same_after_reload(page)


def test_a_stale_board_shows_the_servers_board_when_the_answer_comes(new_context: Any, page: Page):
    """Another tab removed the pair meanwhile: this tab's tap is drawn at once (a selection),
    then the server's answer (the board moved on) replaces it: the screen equals a reload."""
    _, (first, second) = _hm_single_and_pair()
    page.goto(f"/half-moon/{HM}")
    ready(page)
    other = page.context.new_page()
    other.goto(f"/half-moon/{HM}")
    for place in (first, second):
        card = other.locator(f"#card-{place}").get_attribute("data-card")
        assert card is not None
        post_form(other, f"/half-moon/{HM}/tap", place=place, card=card)
    posts = Posts(page)
    latency(page.context, page, SLOW)
    before = page.locator(f"#card-{first}").get_attribute("data-card")
    click(page, f"#card-{first}")
    assert pressed(page) == [before]
    posts.wait(page, 1)
    shown = snapshot(page)
    page.reload()
    expect(page.locator("#board")).to_be_visible()
    assert snapshot(page) == shown
    assert shown["board"][2] == "1"
    assert Card.parse(before or "") is not None
