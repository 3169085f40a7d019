"""The keyboard's way to the cards (issue 35, item 9), at 390 × 844 (touch) and 1440 × 900: a
skip link first in the page leads past the header and the info bar to the board (one Tab then
reaches a card, not 18), and the focus ring is at least 3:1 against the felt and against the
cards in every theme — measured from the computed colours of a focused card (both games, a
covered Seahaven card's ring too) and of a focused control."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import DESKTOP, PHONE, assert_accessible
from tests.browser.geometry import contrast, css_colour
from tests.browser.play import HM, SH

SIZES: dict[str, dict[str, Any]] = {
    "phone": {"viewport": PHONE, "has_touch": True, "is_mobile": True, "device_scale_factor": 2},
    "desktop": {"viewport": DESKTOP},
}
GAMES = {"half-moon": f"/half-moon/{HM}", "seahaven": f"/seahaven/{SH}"}

FOCUSED = """() => {
  const e = document.activeElement;
  return {tag: e.tagName, id: e.id, cls: e.className, text: e.textContent.trim(),
    inBoard: !!e.closest('#board'), visible: e.getBoundingClientRect().width > 0};
}"""

RING = """(selector) => {
  const e = document.querySelector(selector);
  const style = getComputedStyle(e);
  const after = getComputedStyle(e, '::after');
  const colours = (text) => text.match(/rgba?\\([^)]*\\)/g) || [];
  const felt = colours(getComputedStyle(document.body).backgroundImage);
  const covered = after.content !== 'none' && after.borderTopStyle !== 'none';
  return {
    felt,
    face: style.backgroundColor,
    outer: covered ? after.borderTopColor : style.outlineColor,
    outerWidth: covered ? parseFloat(after.borderTopWidth) : parseFloat(style.outlineWidth),
    outerStyle: covered ? after.borderTopStyle : style.outlineStyle,
    inner: colours(covered ? after.boxShadow : style.boxShadow)[0] || null,
  };
}"""


def ring(page: Page, selector: str) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(RING, selector)
    return found


def assert_ring_contrasts(page: Page, selector: str, on_card: bool) -> None:
    shown = ring(page, selector)
    felt = [css_colour(c) for c in shown["felt"]]
    outer = css_colour(shown["outer"])
    assert shown["outerStyle"] == "solid" and shown["outerWidth"] >= 2, shown
    for stop in felt:
        assert contrast(outer, stop) >= 3, (selector, shown)
    if on_card:  # the ring's dark edge touches the face; the light ring stands apart from it
        inner = css_colour(shown["inner"])
        face = css_colour(shown["face"])
        assert contrast(inner, face) >= 3, (selector, shown)
        assert contrast(outer, inner) >= 3, (selector, shown)


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_skip_link_leads_to_the_board_in_two_keys(
    new_context: Callable[..., BrowserContext], size: str, game: str
):
    page = new_context(**SIZES[size]).new_page()
    page.goto(GAMES[game])
    page.keyboard.press("Tab")
    first = page.evaluate(FOCUSED)
    assert (first["cls"], first["text"]) == ("skip", "Skip to the board"), first
    expect(page.locator("a.skip")).to_be_in_viewport()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    card = page.evaluate(FOCUSED)
    assert card["inBoard"] and card["tag"] == "BUTTON" and "card" in card["cls"].split(), card
    assert_accessible(page, f"{game} after the skip link, {size}")


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_other_pages_skip_to_their_content(
    new_context: Callable[..., BrowserContext], size: str
):
    page = new_context(**SIZES[size]).new_page()
    page.goto("/stats")
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED)["text"] == "Skip to the content"
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/stats#main$"))


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("theme", ["light", "dark", "auto-dark"])
def test_the_focus_ring_stands_out_on_the_felt_and_on_the_cards_in_every_theme(
    new_context: Callable[..., BrowserContext], size: str, theme: str
):
    scheme = "dark" if theme == "auto-dark" else "light"
    page = new_context(color_scheme=scheme, **SIZES[size]).new_page()
    page.goto(GAMES["half-moon"])
    if theme != "auto-dark":
        token = page.locator("input[name=token]").first.input_value()
        page.request.post("/settings", form={"theme": theme, "token": token}, max_redirects=0)
    for game, url in GAMES.items():
        page.goto(url)
        expect(page.locator("html")).to_have_attribute(
            "data-theme", "auto" if theme == "auto-dark" else theme
        )
        # a control of the info bar, reached by keyboard
        page.locator("#deal-link").focus()
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        assert focused["tag"] in ("A", "BUTTON"), focused
        assert_ring_contrasts(page, ":focus-visible", on_card=False)
        # the top card of a pile or column, and (Seahaven) a covered card's strip
        cards = page.locator("#board button.card[data-card]")
        cards.first.focus()
        page.keyboard.press("ArrowRight")
        expect(page.locator("#board button.card:focus-visible")).to_have_count(1)
        assert_ring_contrasts(page, "#board button.card:focus-visible", on_card=True)
        if game == "seahaven":
            covered = page.locator(".fan .card:not(:last-child)").first
            covered.focus()
            page.keyboard.press("ArrowDown")
            page.keyboard.press("ArrowUp")
            expect(page.locator(".fan .card:not(:last-child):focus-visible")).to_have_count(1)
            assert_ring_contrasts(page, ".fan .card:not(:last-child):focus-visible", on_card=True)
