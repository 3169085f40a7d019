"""Where the win slipped away in Chromium (issue 33 items 1 and 3): the end box of a game that
ended without a win loads the analysis's finding (htmx, asking again while it runs), keeps the
focus where it was and its actions on screen; See a win opens the winning line's replay."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from app.engine.analysis import Finding, analyse
from app.engine.codes import DealCode
from app.engine.halfmoon import HalfMoon
from app.i18n import translations
from tests.browser.conftest import assert_accessible, screenshot
from tests.browser.play import hm_card, hm_stuck_line
from tests.browser.test_overlap import assert_same_after_reload, latency, ready
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
    expect(page).to_have_url(re.compile(rf"/replay/[A-Za-z0-9_-]{{22}}/win\?step={k}$"))
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
    k before the box's own actions; Enter on See a win opens the winning line (at move k)."""
    _, k = expected()
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
    expect(page).to_have_url(re.compile(rf"/replay/[A-Za-z0-9_-]{{22}}/win\?step={k}$"))


@pytest.mark.parametrize("ms", [150, 600])
def test_taps_faster_than_the_answers_end_the_game_and_the_finding_matches_a_reload(
    context: BrowserContext, ms: int
):
    """The stuck line tapped without waiting for any answer (the last card double-clicked)
    through added latency: the server's end box with its finding, and a reload shows the
    same board and the same finding."""
    _, k = expected()
    code, line = hm_stuck_line()
    page = context.new_page()
    page.goto(f"/half-moon/{code}")
    ready(page)
    latency(context, page, ms)
    cards = [place for removal in line for place in removal]
    for place in cards[:-1]:
        hm_card(page, place).click()
    hm_card(page, cards[-1]).dblclick()
    expect(page.locator("#board")).to_have_attribute("data-state", "stuck", timeout=30_000)
    text = page.locator("#analysis-text")
    expect(text).to_contain_text(f"until move {k}." if k else "from the deal.", timeout=60_000)
    said = text.inner_text()
    assert_same_after_reload(page)
    expect(page.locator("#analysis-text")).to_have_text(said, timeout=60_000)
    expect(page.locator("#board")).to_have_attribute("data-moves", str(len(line)))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LOCALES)
def test_the_finding_in_every_language_fits_the_screen(new_context, lang, size):
    _, k = expected()
    t = translations(lang)
    page: Page = new_context(locale=LOCALES[lang], **SIZES[size]).new_page()
    end_stuck_half_moon(page)
    win = page.locator("#analysis-win")
    expect(win).to_have_text(t.gettext("See a win from move %(k)s") % {"k": k}, timeout=60_000)
    expect(page.locator("#analysis-try")).to_have_text(t.gettext("Try from move %(k)s") % {"k": k})
    expect(page.locator("#analysis-heading")).to_have_text(t.gettext("Where the win slipped away"))
    assert inside_viewport(page, "#board .ending, #board .ending button, #board .ending a") == []
    tops = page.locator("#board .ending-actions > :not(#ending-other)").evaluate_all(
        "(es) => es.map((e) => Math.round(e.getBoundingClientRect().top))"
    )
    assert len(set(tops)) == 1, tops  # the box's own actions keep one row
    screenshot(page, f"issue33-analysis-{size}-{lang}")
