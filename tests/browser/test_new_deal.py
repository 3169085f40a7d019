"""One tap to a new deal (issue 45 item 2) in Chromium: from an ended game one tap on the end
box's New game (or the N key on a desktop) shows a fresh deal of the same game and level — its
board at the deal, its new code in the URL — not the New game dialog; the same without
JavaScript. From a game in progress N lands on issue 43's question. The dialog stays one small
link away.

At 390 × 844 (touch), 844 × 390 (touch) and 1440 × 900."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import assert_accessible, screenshot
from tests.browser.play import SH_LOST, board, hm_reach, hm_stuck_line
from tests.browser.test_phone import LANDSCAPE_TOUCH, PHONE_TOUCH, end_stuck_half_moon

SIZES = {"phone": PHONE_TOUCH, "landscape": LANDSCAPE_TOUCH, "desktop": {}}


def press(page: Page, selector: str, touch: bool) -> None:
    if touch:
        page.locator(selector).tap()
    else:
        page.locator(selector).click()


def at_a_fresh_deal(page: Page, pattern: str, old: str) -> None:
    expect(page).to_have_url(re.compile(pattern))
    assert not page.url.endswith(old)
    expect(board(page)).to_have_attribute("data-moves", "0")
    expect(board(page)).to_have_attribute("data-state", "playing")
    expect(page.locator("#new-game-heading")).to_have_count(0)


@pytest.mark.parametrize("size", SIZES)
def test_one_tap_on_an_ended_half_moon_games_new_game_deals(new_context, size):
    page = new_context(**SIZES[size]).new_page()
    end_stuck_half_moon(page)
    code, _ = hm_stuck_line()
    expect(page.locator("#ending-other")).to_be_visible()
    screenshot(page, f"issue45-hm-end-box-new-game-{size}")
    press(page, "#ending-new", size != "desktop")
    at_a_fresh_deal(page, r"/half-moon/HM1-N-\w+$", code)


@pytest.mark.parametrize("size", SIZES)
def test_one_tap_on_a_lost_one_cell_seahaven_games_new_game_deals_one_cell(new_context, size):
    page = new_context(**SIZES[size]).new_page()
    page.goto(f"/seahaven/{SH_LOST}")
    expect(board(page)).to_have_attribute("data-state", "lost")
    press(page, "#ending-new", size != "desktop")
    at_a_fresh_deal(page, r"/seahaven/SH1-C1-\w+$", SH_LOST)


def test_the_n_key_deals_from_an_ended_game_on_a_desktop(page: Page):
    page.goto(f"/seahaven/{SH_LOST}")
    expect(board(page)).to_have_attribute("data-state", "lost")
    page.keyboard.press("n")
    at_a_fresh_deal(page, r"/seahaven/SH1-C1-\w+$", SH_LOST)


def test_the_n_key_asks_first_from_a_game_in_progress(page: Page):
    code, stuck = hm_stuck_line()
    hm_reach(page, code, stuck[:1])  # one removal: a counted game going on
    expect(board(page)).to_have_attribute("data-state", "playing")
    page.keyboard.press("n")
    expect(page).to_have_url(re.compile(r"/half-moon$"))
    expect(page.locator("#unfinished-heading")).to_have_text(
        "You have a game of Half Moon going on"
    )
    page.locator("#unfinished-start").click()
    expect(page).to_have_url(re.compile(r"/half-moon/HM1-N-\w+$"))
    expect(board(page)).to_have_attribute("data-moves", "0")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_without_javascript_new_game_deals_and_the_dialog_stays_a_link_away(new_context, size):
    page = new_context(java_script_enabled=False, **SIZES[size]).new_page()
    page.goto(f"/seahaven/{SH_LOST}")
    press(page, "#ending-new", size != "desktop")
    at_a_fresh_deal(page, r"/seahaven/SH1-C1-\w+$", SH_LOST)
    page.goto(f"/seahaven/{SH_LOST}")
    press(page, "#ending-other", size != "desktop")
    expect(page).to_have_url(re.compile(r"/seahaven\?last=1$"))
    expect(page.locator("input[name=cells][value='1']")).to_be_checked()
    expect(page.locator("#dialog-code-heading")).to_be_visible()
    # axe runs in the page: the same dialog opened with JavaScript on (a script tag never runs,
    # nor loads, where JavaScript is off)
    checked = new_context(**SIZES[size]).new_page()
    checked.goto(page.url)
    assert_accessible(checked, f"the New game dialog with its code box ({size})")
