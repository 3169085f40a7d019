"""Where the win slipped away in Chromium (issue 33 items 1 and 3): the end box of a game that
ended without a win loads the analysis's finding (htmx, asking again while it runs), keeps the
focus where it was and its actions on screen; See a win opens the winning line's replay."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from app.engine.analysis import Finding, analyse
from app.engine.codes import DealCode
from app.engine.halfmoon import HalfMoon
from tests.browser.conftest import assert_accessible, screenshot
from tests.browser.play import hm_card, hm_stuck_line
from tests.browser.test_phone import (
    LANDSCAPE_TOUCH,
    LOCALES,
    PHONE_TOUCH,
    end_stuck_half_moon,
    inside_viewport,
)

SIZES = {"phone": PHONE_TOUCH, "landscape": LANDSCAPE_TOUCH, "desktop": {}}


def expected() -> tuple[Finding, int | None]:
    code, line = hm_stuck_line()
    found = analyse(
        HalfMoon, HalfMoon.deal(DealCode.parse(code)), line, None, time.monotonic() + 60
    )
    return found.kind, found.last_winnable


@pytest.mark.parametrize("size", SIZES)
def test_the_end_box_says_where_the_win_slipped_away_and_shows_the_win(new_context, size):
    kind, k = expected()
    assert kind is Finding.SLIPPED and k is not None  # the stuck line of the browser tests
    page: Page = new_context(**SIZES[size]).new_page()
    end_stuck_half_moon(page)
    text = page.locator("#analysis-text")
    said = (
        "You could have won from the deal."
        if k == 0
        else f"You could still have won until move {k}."
    )
    expect(text).to_contain_text(said, timeout=60_000)
    expect(page.locator("#ending-text")).to_be_focused()  # the finding took no focus
    assert inside_viewport(page, "#board .ending button, #board .ending a") == []
    assert_accessible(page, f"the end box with the analysis ({size})")
    screenshot(page, f"issue33-analysis-{size}")
    page.locator("#analysis-win").click()
    expect(page).to_have_url(re.compile(r"/replay/[A-Za-z0-9_-]{22}/win$"))
    expect(page.locator("#replay-outcome")).to_have_text("Won")
    page.locator("#step-last").click()
    expect(page.locator("#board")).to_have_attribute("data-state", "won")


@pytest.mark.parametrize("lang", LOCALES)
def test_without_javascript_the_end_box_links_the_replay_page_that_tells_it(new_context, lang):
    page: Page = new_context(locale=LOCALES[lang], java_script_enabled=False).new_page()
    code, line = hm_stuck_line()
    page.goto(f"/half-moon/{code}")
    for removal in line:
        for place in removal:
            hm_card(page, place).click()
    expect(page.locator("#board")).to_have_attribute("data-state", "stuck")
    page.locator("#analysis-link").click()
    for _ in range(60):  # the page says the analysis runs, with a link to look again
        if (
            page.locator("#analysis-text").count()
            and "…" not in page.locator("#analysis-text").inner_text()
        ):
            break
        time.sleep(0.5)
        page.reload()
    expect(page.locator("#analysis-win")).to_have_count(1)
    screenshot(page, f"issue33-analysis-nojs-{lang}")


def test_try_from_move_k_opens_the_practice_game_on_a_phone(new_context):
    _, k = expected()
    page: Page = new_context(**PHONE_TOUCH).new_page()
    end_stuck_half_moon(page)
    page.locator("#analysis-try").click(timeout=60_000)
    expect(page.locator("#practice-note")).to_be_visible()
    expect(page.locator("#board")).to_have_attribute("data-moves", str(k))
    expect(page.locator("#board")).to_have_attribute("data-state", "playing")
    expect(page.locator("#control-undo")).to_be_disabled()
    assert_accessible(page, "a practice game")
    screenshot(page, "issue33-practice-phone")


def test_the_finding_is_reached_with_the_keyboard_alone(new_context):
    """From the end box's message (where the focus is), Tab reaches See a win and Try from move
    k before the box's own actions; Enter on See a win opens the winning line."""
    page: Page = new_context().new_page()
    end_stuck_half_moon(page)
    expect(page.locator("#analysis-win")).to_be_visible(timeout=60_000)
    expect(page.locator("#ending-text")).to_be_focused()
    reached = []
    for _ in range(4):
        page.keyboard.press("Tab")
        reached.append(page.evaluate("() => document.activeElement.id"))
    assert reached[:2] == ["analysis-win", "analysis-try"], reached
    for _ in range(3):
        page.keyboard.press("Shift+Tab")
    expect(page.locator("#analysis-win")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/replay/[A-Za-z0-9_-]{22}/win$"))
