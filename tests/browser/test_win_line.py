"""A win line you can follow (issue 45, item 3), at 390 × 844 (touch), 844 × 390 (touch) and
1440 × 900: *See a win from move k* opens the winning line at move *k* (First still reaches the
deal); the board comes first with the step controls right below it, on the first screen; the
next move's cards are raised and ringed and told ("Next move: …"); every move in words names
its places. Without JavaScript the steps are plain links. Screenshots in en, tr and bg."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from app.engine.analysis import analyse
from app.engine.codes import DealCode
from app.engine.halfmoon import HalfMoon, Removal, apply_move, deal, place_name
from app.i18n import card_name, translations
from tests.browser.conftest import DESKTOP, assert_accessible, knows_the_games, screenshot
from tests.browser.play import hm_stuck_line
from tests.browser.test_phone import (
    LANDSCAPE_TOUCH,
    LOCALES,
    PHONE_TOUCH,
    end_stuck_half_moon,
    inside_viewport,
)
from tests.system.servers import Server

SIZES: dict[str, dict[str, Any]] = {
    "phone": PHONE_TOUCH,
    "landscape": LANDSCAPE_TOUCH,
    "desktop": {"viewport": DESKTOP},
}
CONTROLS = "#step-first, #step-prev, #step-next, #step-last, #replay-slider, #replay-autoplay"


def the_win() -> tuple[int, list[Removal]]:
    """The stuck game's move *k* and the whole winning line (its first *k* moves, then the
    win), from the engine's own analysis."""
    code, line = hm_stuck_line()
    found = analyse(
        HalfMoon, HalfMoon.deal(DealCode.parse(code)), line, None, time.monotonic() + 60
    )
    k = found.last_winnable
    assert k is not None
    return k, [*line[:k], *found.winning_line]


def removal_words(step: int) -> str:
    """Move ``step`` of the winning line in English, each card with its place, written out
    here from the engine's position (not by the code under test)."""
    code, _ = hm_stuck_line()
    _, win = the_win()
    position = deal(DealCode.parse(code))
    for removal in win[: step - 1]:
        position = apply_move(position, removal)
    t = translations("en")
    named = []
    for place in win[step - 1]:
        card = position.top(place)
        assert card is not None
        kind, _, number = place_name(place).partition("-")
        named.append(f"{card_name(card, t)} from {kind} {number}")
    said = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
    return said[0].upper() + said[1:] + " removed."


@pytest.fixture(scope="module")
def win_href(browser: Browser, server: Server) -> str:
    """The end box's *See a win* link of the stuck game (its analysis run once)."""
    context = browser.new_context(base_url=server.url, viewport=DESKTOP, locale="en-US")
    knows_the_games(context)
    try:
        page = context.new_page()
        end_stuck_half_moon(page)
        link = page.locator("#analysis-win")
        expect(link).to_be_visible(timeout=60_000)
        href = link.get_attribute("href")
        assert href is not None
        return href
    finally:
        context.close()


def at_k(href: str) -> str:
    """The winning line at move k, whatever the link carries (the tests of items 2-4 stand
    apart from item 1's)."""
    return f"{href.split('?')[0]}?step={the_win()[0]}"


@pytest.mark.parametrize("size", SIZES)
def test_see_a_win_opens_at_move_k_and_first_reaches_the_deal(new_context, win_href, size):
    k, _ = the_win()
    assert re.fullmatch(rf"/replay/[A-Za-z0-9_-]{{22}}/win\?step={k}", win_href), win_href
    page: Page = new_context(**SIZES[size]).new_page()
    page.goto(win_href.split("?")[0])  # the route alone opens at k too
    expect(page.locator("#replay")).to_have_attribute("data-step", str(k))
    page.goto(win_href)
    expect(page.locator("#replay")).to_have_attribute("data-step", str(k))
    expect(page.locator("#step-count")).to_have_text(re.compile(rf"^Step {k} of \d+$"))
    page.locator("#step-first").click()
    expect(page.locator("#replay")).to_have_attribute("data-step", "0")
    expect(page.locator("#step-prev")).to_have_attribute("aria-disabled", "true")


@pytest.mark.parametrize("size", SIZES)
def test_the_board_comes_first_and_the_controls_are_on_the_first_screen(
    new_context, win_href, size
):
    page: Page = new_context(**SIZES[size]).new_page()
    page.goto(at_k(win_href))
    expect(page.locator("#replay-autoplay")).to_be_visible()
    assert page.evaluate("() => window.scrollY") == 0
    assert inside_viewport(page, CONTROLS) == [], "a step control is off the first screen"
    board = page.locator("#board").bounding_box()
    assert board is not None
    for control in CONTROLS.split(", "):
        box = page.locator(control).bounding_box()
        assert box is not None
        if size == "landscape":  # beside the board, where a phone on its side has room
            assert box["x"] >= board["x"] + board["width"] - 1, control
        else:  # below the board
            assert box["y"] >= board["y"] + board["height"] - 1, control
    # the board is the first thing of the page's content under its title
    assert board["y"] < page.locator("#replay-result").bounding_box()["y"]  # type: ignore[index]
    assert board["y"] < page.locator("#move-list").bounding_box()["y"]  # type: ignore[index]
    # Next from the first screen needs no scroll, and the board stays put
    page.locator("#step-next").click()
    expect(page.locator("#replay")).to_have_attribute("data-step", str(the_win()[0] + 1))
    assert inside_viewport(page, "#board, #step-next") == []


@pytest.mark.parametrize("size", SIZES)
def test_the_next_moves_cards_are_marked_and_told(new_context, win_href, size):
    k, win = the_win()
    page: Page = new_context(**SIZES[size]).new_page()
    page.goto(at_k(win_href))
    for step in (k, k + 1):
        expect(page.locator("#replay")).to_have_attribute("data-step", str(step))
        marked = page.locator("#board .card[data-selected]")
        places = sorted(place_name(p) for p in win[step])
        expect(marked).to_have_count(len(places))
        found = marked.evaluate_all(
            "(cs) => cs.map((c) => c.closest('[data-place]').dataset.place)"
        )
        assert sorted(found) == places
        # not by colour alone: the cards are raised, and the words say which they are
        lifted = marked.first.evaluate("(c) => getComputedStyle(c).transform")
        assert lifted not in ("none", ""), lifted
        expect(page.locator("#next-move")).to_have_text("Next move: " + removal_words(step + 1))
        if step == k:
            page.locator("#step-next").click()
    page.locator("#step-last").click()
    expect(page.locator("#board .card[data-selected]")).to_have_count(0)
    expect(page.locator("#next-move")).to_have_count(0)


@pytest.mark.parametrize("size", SIZES)
def test_every_move_in_words_names_its_places(new_context, win_href, size):
    k, win = the_win()
    page: Page = new_context(**SIZES[size]).new_page()
    page.goto(at_k(win_href))
    expect(page.locator("#narration")).to_have_text(f"Move {k}: {removal_words(k)}")
    entries = page.locator("#move-list li")
    expect(entries).to_have_count(len(win) + 1)
    expect(entries.nth(k + 1)).to_have_text(removal_words(k + 1))
    for n in range(1, len(win) + 1, 7):
        expect(entries.nth(n)).to_have_text(removal_words(n))
    assert_accessible(page, f"the win line at move {k} ({size})")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LOCALES)
def test_the_win_line_in_every_language(new_context, win_href, lang, size):
    k, win = the_win()
    t = translations(lang)
    page: Page = new_context(locale=LOCALES[lang], **SIZES[size]).new_page()
    page.goto(at_k(win_href))
    expect(page.locator("#replay")).to_have_attribute("data-step", str(k))
    said = page.locator("#next-move").inner_text()
    for place in win[k]:
        kind, _, number = place_name(place).partition("-")
        assert t.gettext(f"{kind} %(number)s") % {"number": number} in said.lower(), said
    whole = screenshot(page, f"issue45-win-line-{size}-{lang}")
    page.screenshot(path=str(whole.with_suffix(".screen.png")))  # the first screen alone
    assert inside_viewport(page, CONTROLS) == []
    assert_accessible(page, f"the win line in {lang} ({size})")


def test_without_javascript_the_steps_are_links(new_context, win_href):
    k, win = the_win()
    page: Page = new_context(java_script_enabled=False, **SIZES["phone"]).new_page()
    page.goto(at_k(win_href))
    expect(page.locator("#replay")).to_have_attribute("data-step", str(k))
    expect(page.locator("#replay-autoplay")).to_be_hidden()
    assert inside_viewport(page, "#step-first, #step-prev, #step-next, #step-last") == []
    page.locator("#step-next").click()
    expect(page).to_have_url(re.compile(rf"/win\?step={k + 1}$"))
    expect(page.locator("#narration")).to_have_text(f"Move {k + 1}: {removal_words(k + 1)}")
    expect(page.locator("#board .card[data-selected]")).to_have_count(len(win[k + 1]))
    expect(page.locator("#next-move")).to_have_text("Next move: " + removal_words(k + 2))
    page.locator("#step-first").click()
    expect(page.locator("#replay")).to_have_attribute("data-step", "0")
    screenshot(page, "issue45-win-line-nojs")
