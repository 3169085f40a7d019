"""A game's life in Chromium at 390 × 844, touch (issue 43): the question before a new deal of a
game whose last one is unfinished (with JavaScript and without), and a practice game's labels
(its page, its end box, the home page's lists), in English, Turkish and Bulgarian; axe finds
nothing on either screen."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from app.i18n import translations
from tests.browser.conftest import assert_accessible, screenshot
from tests.browser.play import hm_card, hm_stuck_line
from tests.browser.test_phone import LOCALES, PHONE_TOUCH, end_stuck_half_moon


def phone(new_context, lang: str, **more) -> Page:
    return new_context(locale=LOCALES[lang], **{**PHONE_TOUCH, **more}).new_page()


def inside(page: Page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("lang", LOCALES)
def test_a_new_deal_asks_first_while_a_game_is_unfinished_on_a_phone(new_context, lang, javascript):
    t = translations(lang)
    page = phone(new_context, lang, java_script_enabled=javascript)
    code, line = hm_stuck_line()
    page.goto(f"/half-moon/{code}")
    for place in line[0]:  # one removal, tapped: an unfinished Half Moon game
        hm_card(page, place).click()
    expect(page.locator("#board")).to_have_attribute("data-moves", "1")
    page.goto("/")
    first = page.locator("#continue a").first  # the unfinished game comes first
    expect(first).to_have_attribute("href", f"/half-moon/{code}")
    page.locator("#new-half-moon1").click()  # the home page's Half Moon tile
    expect(page).to_have_url(re.compile(r"/half-moon$"))
    heading = t.gettext("You have a game of %(game)s going on") % {"game": t.gettext("Half Moon")}
    expect(page.locator("#unfinished-heading")).to_have_text(heading)
    expect(page.locator("#unfinished-keep")).to_have_text(t.gettext("Keep playing it"))
    for button in ("#unfinished-keep", "#unfinished-start"):
        expect(page.locator(button)).to_be_visible()
        assert inside(page, button), button
    if javascript:  # (scripts run in the page: with JavaScript only; the markup is the same)
        # a long answer wraps inside its button instead of widening the page (Bulgarian did)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        expect(page.locator("#unfinished-keep")).to_be_focused()
        assert_accessible(page, f"the question before a new deal ({lang})")
    screenshot(page, f"issue43-question-{lang}{'' if javascript else '-nojs'}")
    page.locator("#unfinished-keep").click()
    expect(page).to_have_url(re.compile(f"/half-moon/{code}$"))
    expect(page.locator("#board")).to_have_attribute("data-moves", "1")
    page.goto("/half-moon")
    page.locator("#unfinished-start").click()
    expect(page).to_have_url(re.compile(r"/half-moon/HM1-N-[A-Z2-7]{7}$"))
    assert not page.url.endswith(code)
    expect(page.locator("#unfinished-note")).to_be_visible()  # its first move counts it lost
    expect(page.locator("#unfinished-back")).to_have_attribute("href", f"/half-moon/{code}")


@pytest.mark.parametrize("lang", LOCALES)
def test_a_practice_says_practice_on_a_phone(new_context, lang):
    t = translations(lang)
    page = phone(new_context, lang)
    end_stuck_half_moon(page)
    own = page.url
    page.locator("#analysis-try").click(timeout=60_000)
    expect(page).to_have_url(re.compile(r"/half-moon/HM1-N-[A-Z2-7]{7}/practice$"))
    note = page.locator("#practice-note")
    expect(note.locator(".tag")).to_have_text(t.gettext("Practice"))
    expect(note).to_be_visible()
    expect(page.locator("#practice-back")).to_have_attribute("href", re.compile(r"/half-moon/"))
    expect(page.locator("#board")).to_have_attribute("data-practice", "1")
    expect(page).to_have_title(re.compile(re.escape(f"({t.gettext('Practice')})")))
    assert_accessible(page, f"a practice game ({lang})")
    screenshot(page, f"issue43-practice-{lang}")
    # the home page lists it as a practice; the deal's own page keeps the lost game
    page.goto("/")
    line = page.locator("#continue li.practice")
    expect(line.locator(".tag")).to_have_text(t.gettext("Practice"))
    assert_accessible(page, f"the home page with a practice ({lang})")
    page.goto(own)
    expect(page.locator("#board")).to_have_attribute("data-state", "stuck")
    expect(page.locator("#practice-note")).to_have_count(0)
