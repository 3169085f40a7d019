"""The reading pages in a real browser: axe-clean at phone and desktop size in all three
languages, screenshots to look at, and the examples' step links enhanced by htmx."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import DESKTOP, PHONE, assert_accessible, screenshot

PAGES = (
    "/rules/half-moon",
    "/rules/seahaven",
    "/examples",
    "/examples/half-moon?step=2",
    "/examples/seahaven?step=29",
    "/faq",
    "/winnability",
)


@pytest.mark.parametrize(("size", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
@pytest.mark.parametrize("locale", ["en-US", "tr-TR", "bg-BG"])
def test_every_reading_page_is_accessible(new_context, size, viewport, locale):
    context: BrowserContext = new_context(viewport=viewport, locale=locale)
    context.set_default_timeout(30_000)  # long pages, full-page screenshots, a shared machine
    page = context.new_page()
    lang = locale[:2]
    for url in PAGES:
        page.goto(url)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        assert_accessible(page, f"{url} ({lang}, {size})")
        # nothing scrolls sideways but the wide tables' own wrappers
        overflow = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
        assert overflow <= 0, f"{url} scrolls sideways by {overflow}px at {size}"
        name = url.strip("/").replace("/", "-").replace("?step=", "-step-")
        screenshot(page, f"pages-{name}-{lang}-{size}")


def test_step_links_swap_the_replay_in_place_and_keep_the_keyboard_focus(page: Page):
    page.goto("/examples/half-moon")
    page.evaluate("() => { window.samePage = true; }")
    page.locator("#step-next").focus()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/examples/half-moon\?step=1$"))
    expect(page.locator("#replay")).to_have_attribute("data-step", "1")
    expect(page.locator("#narration .said")).to_contain_text("9♠ from pile 2 with 2♣ from pile 11")
    assert page.evaluate("() => window.samePage === true"), "the link loaded a whole new page"
    assert page.evaluate("() => document.activeElement.id") == "step-next"
    page.keyboard.press("Enter")
    expect(page.locator("#replay")).to_have_attribute("data-step", "2")
    expect(page.locator("#narration .said")).to_contain_text("K♦ from pile 1")
    page.locator("#step-last").click()
    expect(page.locator("#narration .won")).to_be_visible()
    expect(page.locator("#step-next")).to_have_attribute("aria-disabled", "true")
    page.go_back()
    expect(page).to_have_url(re.compile(r"step=2$"))
    expect(page.locator("#replay")).to_have_attribute("data-step", "2")


def test_step_links_work_without_javascript(browser, server):
    context = browser.new_context(base_url=server.url, java_script_enabled=False)
    page = context.new_page()
    page.goto("/examples/seahaven?step=28")
    page.locator("#step-next").click()
    expect(page).to_have_url(re.compile(r"step=29#replay$"))
    expect(page.locator(".case .refused")).to_contain_text("at most 4 cards can move now.")
    context.close()
