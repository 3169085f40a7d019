"""Issue 35 item 7 in Chromium: the same end box for both games, Restart on an ended game that
asks nothing, and time the page was hidden left out of the game's time.

At 390 × 844 (touch), 844 × 390 (touch) and 1440 × 900; positions by
``getBoundingClientRect``.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import assert_accessible, screenshot
from tests.browser.play import SH_LOST, board, hm_card, hm_stuck_line, post_form
from tests.browser.test_phone import (
    LANDSCAPE_TOUCH,
    LOCALES,
    PHONE_TOUCH,
    end_stuck_half_moon,
    ready,
)

SIZES = {"phone": PHONE_TOUCH, "landscape": LANDSCAPE_TOUCH, "desktop": {}}
ACTIONS = ["ending-undo", "ending-restart", "ending-replay", "ending-new", "ending-other"]

END_ACTIONS = """() => [...document.querySelectorAll(
  '#board .ending-actions button, #board .ending-actions a')].map((e) => {
    const r = e.getBoundingClientRect();
    return {id: e.id, top: Math.round(r.top), left: r.left, right: r.right};
  })"""


def end_actions(page: Page) -> list[dict[str, Any]]:
    return page.evaluate(END_ACTIONS)


def assert_end_row(page) -> list[dict]:
    """The end box's actions in one row, the dialog's link under them or ending their row
    where it has room (issue 45), none past the screen's edge; the actions."""
    shown = end_actions(page)
    assert [a["id"] for a in shown] == ACTIONS
    *buttons, other = shown
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert len({a["top"] for a in buttons}) == 1, shown  # one row
    assert other["top"] >= buttons[0]["top"] and other["right"] <= width, shown
    assert max(a["right"] for a in shown) <= width
    return shown


@pytest.mark.parametrize("size", SIZES)
def test_half_moons_end_box_restarts_at_once_like_seahavens(new_context, size):
    page = new_context(**SIZES[size]).new_page()
    end_stuck_half_moon(page)
    assert_end_row(page)
    # the live region's last line ("Removed … 10 points.") is not drawn under the box's words
    # (at 1440 x 900 it showed through them)
    box, status = page.locator("#board .ending").bounding_box(), page.locator("#status")
    drawn = status.bounding_box()
    assert box is not None and drawn is not None
    assert (
        drawn["width"] <= 1
        or drawn["y"] >= box["y"] + box["height"]
        or drawn["y"] + drawn["height"] <= box["y"]
    ), (drawn, box, status.inner_text())
    screenshot(page, f"issue35-hm-stuck-end-box-{size}")
    page.locator("#ending-restart").click()
    expect(board(page)).to_have_attribute("data-moves", "0")
    expect(board(page)).to_have_attribute("data-state", "playing")
    expect(page.locator("#confirm-restart")).to_have_count(0)
    expect(page.locator("#board .ending")).to_have_count(0)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_bars_restart_on_an_ended_game_asks_nothing(new_context, size):
    page = new_context(**SIZES[size]).new_page()
    end_stuck_half_moon(page)
    page.locator("#control-restart").click()
    expect(board(page)).to_have_attribute("data-moves", "0")
    expect(page.locator("#confirm-restart")).to_have_count(0)
    expect(page.locator("#confirm-restart-no")).to_have_count(0)
    expect(page.locator("#status")).to_contain_text("The deal starts again from the beginning.")


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("lang", LOCALES)
def test_seahavens_lost_box_is_half_moons_box(new_context, lang, size):
    page = new_context(locale=LOCALES[lang], **SIZES[size]).new_page()
    page.goto(f"/seahaven/{SH_LOST}")
    post_form(
        page, f"/seahaven/{SH_LOST}/move", **{"from": "column-2", "card": "QS", "to": "column-9"}
    )
    page.reload()
    expect(board(page)).to_have_attribute("data-state", "lost")
    assert_end_row(page)
    screenshot(page, f"issue35-sh-lost-end-box-{size}-{lang}")
    assert_accessible(page, f"Seahaven's lost box in {lang}, {size}")


HIDE = """(hidden) => {
  Object.defineProperty(document, 'hidden', {configurable: true, get: () => hidden});
  Object.defineProperty(document, 'visibilityState', {configurable: true,
    get: () => hidden ? 'hidden' : 'visible'});
  document.dispatchEvent(new Event('visibilitychange'));
}"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_time_the_page_was_hidden_neither_ticks_nor_counts(new_context, size):
    page = new_context(**SIZES[size]).new_page()
    code, _ = hm_stuck_line()
    page.goto(f"/half-moon/{code}")
    ready(page)
    first = hm_card(page, 0)
    first.click()  # a selection: the clock starts
    expect(first).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#clock")).to_have_attribute("data-running", "true")
    page.evaluate(HIDE, True)
    page.wait_for_timeout(2_600)
    page.evaluate(HIDE, False)
    page.wait_for_timeout(300)  # the clock ticks on: never through the hidden time
    assert page.locator("#clock").inner_text() == "0:00"
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/tap")) as sent:
        first.click()  # let the card go: the gap is sent with the time hidden in it
    hidden = int(sent.value.headers["x-hidden-ms"])
    assert 2_500 <= hidden <= 3_500, hidden
    expect(first).to_have_attribute("aria-pressed", "false")
    elapsed = int(page.locator("#clock").get_attribute("data-elapsed") or "-1")
    assert 0 <= elapsed < 1_500, elapsed  # the server left it out too
