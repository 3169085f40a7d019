"""Everyday play's small things (issue 45 item 6), the way a player meets them: the menu closed
with one tap while Settings is open inside it, the how-to-play closed with Escape, and a note
that stays on screen while moves are kept offline — at 390 × 844 (touch), 844 × 390 and
1440 × 900."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import (
    DESKTOP,
    SCREENSHOTS,
    assert_accessible,
    knows_the_games,
    screenshot,
)
from tests.browser.play import HM, board, hm_card, hm_line, hm_reach, hm_stuck_line
from tests.browser.test_offline import controlled
from tests.browser.test_overlap import latency, ready
from tests.browser.test_phone import PHONE_TOUCH
from tests.system.servers import Server

SIZES: dict[str, dict[str, Any]] = {
    "phone": PHONE_TOUCH,
    "landscape": {**PHONE_TOUCH, "viewport": {"width": 844, "height": 390}},
    "desktop": {"viewport": DESKTOP},
}
OFFLINE = "Offline — your moves are kept and will be sent."


@pytest.mark.parametrize("size", ["phone", "landscape"])
def test_one_tap_on_the_menu_button_closes_the_menu_with_settings_open(
    new_context: Callable[..., BrowserContext], size: str
) -> None:
    """Before: the first tap only closed Settings (the press outside it was swallowed), so the
    menu took two taps to close."""
    page = new_context(**SIZES[size]).new_page()
    page.goto(f"/half-moon/{HM}")
    menu, settings = page.locator("details.menu"), page.locator("details.settings")
    page.locator("#menu-button").tap()
    expect(menu).to_have_attribute("open", "")
    page.locator("details.settings summary").tap()
    expect(settings).to_have_attribute("open", "")
    page.locator("#menu-button").tap()
    expect(menu).not_to_have_attribute("open", "")
    expect(settings).not_to_have_attribute("open", "")
    # and it opens again with one tap, Settings closed
    page.locator("#menu-button").tap()
    expect(menu).to_have_attribute("open", "")
    expect(settings).not_to_have_attribute("open", "")


@pytest.mark.parametrize("size", SIZES)
def test_escape_closes_the_how_to_play_as_its_close_button_does(
    new_context: Callable[..., BrowserContext], size: str
) -> None:
    page = new_context(newcomer=True, **SIZES[size]).new_page()
    page.goto(f"/half-moon/{HM}")
    howto = page.locator("#howto")
    expect(howto).to_be_visible()
    page.keyboard.press("Escape")
    expect(howto).to_be_hidden()
    page.reload()  # dismissed for good, as × does
    expect(page.locator("#howto")).to_have_count(0)
    # Escape with the how-to-play shown again from "?" closes it too
    page.goto(f"/half-moon/{HM}?howto=1#howto")
    expect(page.locator("#howto")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#howto")).to_be_hidden()


@pytest.mark.parametrize("size", SIZES)
def test_a_note_stays_on_screen_while_moves_are_kept_offline(
    browser: Browser, server: Server, size: str
) -> None:
    """The status line says it once, and the next tap's words replace it: the note stays at the
    top of the screen, over the board, until every kept move is sent. (Its own context: htmx
    logs a failed fetch as a console error, which the suite's ``new_context`` counts.)"""
    context = browser.new_context(base_url=server.url, locale="en-US", **SIZES[size])
    knows_the_games(context)
    try:
        kept_offline(context)
    finally:
        context.close()


def kept_offline(context: BrowserContext) -> None:
    page = context.new_page()
    page.goto(f"/half-moon/{HM}")
    controlled(page)
    page.reload()
    expect(board(page)).to_be_visible()
    note = page.locator("#kept-note")
    expect(note).to_have_count(0)
    context.set_offline(True)
    line = hm_line()
    for removal in line[:3]:
        for place in removal:
            hm_card(page, place).click()
    expect(page.locator("#moves")).to_have_text("3")
    expect(note).to_be_visible()
    expect(note).to_have_text(OFFLINE)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"issue45-kept-note-{context_size(page)}.png"))
    box = note.bounding_box()
    viewport = page.viewport_size
    assert box is not None and viewport is not None
    assert (box["x"], box["y"], box["width"]) == (0, 0, viewport["width"])
    assert box["height"] <= 24  # one line, over the header only
    context.set_offline(False)
    expect(board(page)).to_have_attribute("data-moves", "3", timeout=30_000)
    expect(note).to_be_hidden()


def context_size(page: Page) -> str:
    viewport = page.viewport_size
    return f"{viewport['width']}x{viewport['height']}" if viewport else "unknown"


WATCH_STATUS = """() => {
  window.statusSeen = [];
  const status = document.getElementById("status");
  new MutationObserver(() => {
    const now = document.getElementById("status");
    window.statusSeen.push({
      text: now.textContent,
      pending: document.getElementById("board").hasAttribute("data-pending"),
      opacity: getComputedStyle(now).opacity,
    });
  }).observe(status.parentElement, { childList: true, subtree: true, characterData: true });
}"""


def test_after_taps_faster_than_the_answers_the_status_line_never_shows_an_older_move(
    new_context: Callable[..., BrowserContext],
) -> None:
    """Three pairs tapped at 150 ms of added latency: each answer's words (an older move than
    the board shows while later taps are drawn) are read out but not drawn; once the last
    answer is in, the line shows the last move's words."""
    context = new_context(**PHONE_TOUCH)
    page = context.new_page()
    page.goto(f"/half-moon/{HM}")
    ready(page)
    latency(context, page, 150)
    page.evaluate(WATCH_STATUS)
    for removal in hm_line()[:3]:
        for place in removal:
            hm_card(page, place).tap()
    expect(board(page)).to_have_attribute("data-moves", "3", timeout=15_000)
    expect(board(page)).not_to_have_attribute("data-pending", "")
    seen = page.evaluate("() => window.statusSeen")
    words = [s["text"] for s in seen if s["text"]]
    assert len(set(words)) >= 2, seen  # the answers' words changed as they came
    drawn_stale = [s for s in seen if s["pending"] and s["text"] and s["opacity"] != "0"]
    assert drawn_stale == []
    status = page.locator("#status")
    expect(status).to_have_css("opacity", "1")
    assert status.text_content() == words[-1] and "removed" in words[-1].lower()


# --- the end box set aside (issue 45 item 4) ----------------------------------------------------


@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("size", SIZES)
def test_the_end_box_folds_away_to_show_the_board_and_comes_back(
    new_context: Callable[..., BrowserContext], size: str, js: bool
) -> None:
    """A stuck game's end box covers the foot of the board (in landscape half of every pile):
    "Look at the board" folds it to one small button, which brings it back — with and without
    JavaScript, by touch or click and by the keyboard."""
    touch = size != "desktop"
    page = new_context(java_script_enabled=js, **SIZES[size]).new_page()
    code, line = hm_stuck_line()
    hm_reach(page, code, line)
    box = page.locator("#board .ending")
    expect(box).to_be_visible()
    opened = box.bounding_box()
    assert opened is not None
    aside = page.locator("#ending-aside")
    expect(aside).to_have_accessible_name("Look at the board")
    screenshot(page, f"issue45-end-box-open-{size}-{'js' if js else 'nojs'}")
    fold = aside.bounding_box()
    assert fold is not None and fold["width"] >= 40 and fold["height"] >= 40  # a finger's size
    aside.tap() if touch else aside.click()
    expect(page.locator("#ending-fold")).not_to_have_attribute("open", "")
    expect(aside).to_have_accessible_name("Show what to do next")
    expect(page.locator("#ending-new")).to_be_hidden()
    folded = box.bounding_box()
    assert folded is not None and folded["height"] <= 64 and folded["width"] < opened["width"]
    # the piles the box covered are in the clear: nothing of the box over the arc's cards
    covered = page.evaluate(
        """(box) => [...document.querySelectorAll('#board .card[data-card]')].filter((c) => {
          const r = c.getBoundingClientRect();
          return r.right > box.x && r.left < box.x + box.width && r.bottom > box.y
            && r.top < box.y + box.height;
        }).length""",
        folded,
    )
    assert covered <= 1, covered
    screenshot(page, f"issue45-end-box-folded-{size}-{'js' if js else 'nojs'}")
    aside.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#ending-fold")).to_have_attribute("open", "")
    expect(page.locator("#ending-new")).to_be_visible()
    if js:  # axe runs in the page
        assert_accessible(page, f"the end box at {size}")
