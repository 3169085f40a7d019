"""A newcomer's first visit (issue 35, items 1 and 2), at 390 × 844 (touch) and 1440 × 900:

- the home page shows each game and level as a tile, a picture of its board drawn by the board
  code, one tap to a deal; today's deals are the same tiles with the player's result on each;
- a fresh deal shows a short how-to-play (three screens) that offers Move errors and Placement
  help with one tap each, goes for good once dismissed, and comes back from "?";
- "?" on a touch screen shows touch help (no Ctrl+Z), the keyboard shortcuts elsewhere.

Measured as a player meets it: boxes on the screen, what is drawn, the URL a tap leads to.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from app.engine.codes import DealCode
from app.engine.halfmoon import deal, legal_moves
from app.services import daily
from tests.browser.conftest import DESKTOP, PHONE, assert_accessible, screenshot
from tests.browser.play import HM, SH, board, hm_card, hm_line, hm_reach, open_settings

SIZES: dict[str, dict[str, Any]] = {
    "phone": {"viewport": PHONE, "has_touch": True, "is_mobile": True, "device_scale_factor": 2},
    "desktop": {"viewport": DESKTOP},
}
GAMES = {"half-moon": f"/half-moon/{HM}", "seahaven": f"/seahaven/{SH}"}

TILES = """(selector) => [...document.querySelectorAll(selector)].map((tile) => {
  const box = tile.getBoundingClientRect();
  const picture = tile.querySelector('.tile-picture').getBoundingClientRect();
  const cards = [...tile.querySelectorAll('.tile-picture .card')].filter((c) => {
    const r = c.getBoundingClientRect();
    return r.width > 4 && r.height > 4
      && r.left >= picture.left - 1 && r.right <= picture.right + 1
      && r.top >= picture.top - 1 && r.bottom <= picture.bottom + 1;
  });
  return {href: tile.getAttribute('href'), words: tile.querySelector('.tile-words').innerText,
    left: box.left, right: box.right, top: box.top, width: box.width,
    pictureHeight: picture.height, cardsDrawn: cards.length,
    board: tile.querySelector('.tile-picture .board').className};
})"""


def tiles(page: Page, selector: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate(TILES, selector)
    return found


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_home_page_shows_each_game_as_a_picture_of_its_board_one_tap_from_a_deal(
    new_context: Callable[..., BrowserContext], size: str
):
    page = new_context(newcomer=True, **SIZES[size]).new_page()
    page.goto("/")
    shown = tiles(page, "#new-deals .tile")
    assert [t["href"] for t in shown] == [
        "/half-moon",
        "/seahaven?cells=4",
        "/seahaven?cells=2",
        "/seahaven?cells=1",
    ]
    assert [t["words"].split("\n") for t in shown] == [
        ["Half Moon"],
        ["Seahaven Towers", "Easy · 4 cells"],
        ["Seahaven Towers", "Medium · 2 cells"],
        ["Seahaven Towers", "Hard · 1 cell"],
    ]
    width = page.viewport_size["width"] if page.viewport_size else 0
    for tile in shown:
        # the board's own markup, every card drawn inside the picture, on the screen
        assert tile["board"] in ("board half-moon still", "board seahaven still"), tile
        expected = 20 if "half-moon" in tile["board"] else 52
        assert tile["cardsDrawn"] >= expected - 4, tile  # (Seahaven's empty cells: fewer)
        assert tile["pictureHeight"] > 90 and tile["left"] >= 0 and tile["right"] <= width, tile
    # the four tiles of the first row(s) are in view without scrolling on a phone too
    assert max(t["top"] for t in shown) < 844 - 150
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    screenshot(page, f"home-tiles-{size}")
    assert_accessible(page, f"home with tiles, {size}")
    # one tap: Hard Seahaven deals at once, no dialog on the way
    page.locator("#new-deals .tile").nth(3).click()
    expect(page).to_have_url(re.compile(r"/seahaven/SH1-C1-[A-Z2-7]+$"))
    expect(board(page)).to_have_attribute("data-state", "playing")
    expect(page.locator("#board [data-place^=cell-]")).to_have_count(1)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_todays_deals_are_tiles_with_the_players_result(
    new_context: Callable[..., BrowserContext], size: str
):
    page = new_context(**SIZES[size]).new_page()
    codes = [str(c) for c in daily.codes_of(daily.today()).values()]
    page.goto("/")
    listed = page.locator("#daily li")
    expect(listed).to_have_count(len(codes))
    heading = page.locator("#daily-heading").inner_text()
    assert "UTC" not in heading and not re.search(r"\d{4}-\d{2}-\d{2}", heading), heading
    assert page.locator("#daily code").count() == 0  # no raw codes: pictures and names
    shown = tiles(page, "#daily .tile")
    assert [t["href"].rsplit("/", 1)[1] for t in shown] == codes
    assert all(t["cardsDrawn"] >= 16 for t in shown), shown
    expect(listed.first.locator(".mark")).to_have_text("not played yet")
    # a move on today's Half Moon deal: its tile says it is in play
    first = next(iter(legal_moves(deal(DealCode.parse(codes[0])))))
    hm_reach(page, codes[0], [first])
    page.goto("/")
    expect(listed.first).to_have_attribute("data-result", "playing")
    expect(listed.first.locator(".mark")).to_have_text("● in play")
    screenshot(page, f"home-daily-{size}")


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_fresh_deal_teaches_the_game_in_three_screens_until_dismissed(
    new_context: Callable[..., BrowserContext], size: str
):
    page = new_context(newcomer=True, **SIZES[size]).new_page()
    page.goto(GAMES["half-moon"])
    howto = page.locator("#howto")
    expect(howto).to_be_visible()
    expect(howto.locator("h2")).to_have_text("How to play Half Moon")
    steps = howto.locator(".howto-step")
    expect(steps).to_have_count(3)
    box = howto.bounding_box()
    assert box is not None and box["y"] + box["height"] <= SIZES[size]["viewport"]["height"]
    screenshot(page, f"howto-half-moon-1-{size}")
    assert_accessible(page, f"Half Moon's how-to-play, {size}")
    if size == "phone":  # one screen at a time: Next shows the next, in the panel
        page.locator("#howto-next-1").click()
        page.locator("#howto-next-2").click()
    third = steps.nth(2).bounding_box()
    assert third is not None and box["x"] - 1 <= third["x"] <= box["x"] + box["width"]
    screenshot(page, f"howto-half-moon-3-{size}")
    # the offers: one tap each, kept by the server; their default stays off
    errors, helping = page.locator("#howto-move-errors"), page.locator("#howto-placement-help")
    expect(errors).to_have_attribute("aria-pressed", "false")
    expect(helping).to_have_attribute("aria-pressed", "false")
    page.evaluate("() => { window.stayed = true; }")
    errors.click()
    expect(errors).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#settings-form input[type=checkbox][name=move_errors]")).to_be_checked()
    assert page.evaluate("() => window.stayed") is True  # applied without loading the page
    # dismissed: it goes at once, and never comes back by itself
    page.locator("#howto-done").click()
    expect(howto).to_be_hidden()
    assert page.evaluate("() => window.stayed") is True
    page.reload()
    expect(page.locator("#howto")).to_have_count(0)
    open_settings(page)
    expect(page.locator("#settings-form input[name=move_errors][type=checkbox]")).to_be_checked()
    expect(
        page.locator("#settings-form input[name=placement_help][type=checkbox]")
    ).not_to_be_checked()
    # a refused pair now says why (Move errors on)
    page.goto(GAMES["half-moon"])
    hm_card(page, "pile-1").click()
    hm_card(page, "pile-2").click()  # 3♥ and 5♦: 8, not 11
    expect(page.locator("#status")).to_contain_text("11")
    # from "?" it comes back
    page.locator(".shortcuts-help summary").click()
    page.locator("#help-howto").click()
    expect(page.locator("#howto")).to_be_visible()
    expect(page).to_have_url(re.compile(r"\?howto=1#howto$"))
    # Seahaven's is its own, and shows on its first visit
    page.goto(GAMES["seahaven"])
    expect(page.locator("#howto h2")).to_have_text("How to play Seahaven Towers")
    page.locator("#howto-close").click()
    expect(page.locator("#howto")).to_be_hidden()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_how_to_play_works_without_javascript(
    new_context: Callable[..., BrowserContext], size: str
):
    page = new_context(newcomer=True, java_script_enabled=False, **SIZES[size]).new_page()
    page.goto(GAMES["seahaven"])
    expect(page.locator("#howto")).to_be_visible()
    if size == "phone":  # one screen at a time: Next is a link to the next screen
        page.locator("#howto-next-1").click()
        expect(page).to_have_url(re.compile(r"#howto-2$"))
    else:  # a wide screen shows the three side by side, with no Next
        expect(page.locator("#howto .howto-step").nth(2)).to_be_visible()
        expect(page.locator("#howto-next-1")).to_be_hidden()
    page.locator("#howto-placement-help").click()  # a form: POST, 303, the page again
    expect(page.locator("#howto-placement-help")).to_have_attribute("aria-pressed", "true")
    expect(board(page)).to_have_class(re.compile(r"\bwith-help\b"))
    page.locator("#howto-done").click()
    expect(page).to_have_url(re.compile(rf"/seahaven/{SH}$"))
    expect(page.locator("#howto")).to_have_count(0)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_game_already_under_way_shows_no_how_to_play(
    new_context: Callable[..., BrowserContext], size: str
):
    page = new_context(newcomer=True, **SIZES[size]).new_page()
    page.goto(GAMES["half-moon"])
    expect(page.locator("#howto")).to_be_visible()
    hm_reach(page, HM, hm_line(HM)[:1])  # a removal: the game has begun
    expect(page.locator("#howto")).to_have_count(0)
    page.goto("/half-moon/HM1-N-AAAAAAC")  # a fresh deal: not dismissed, so shown again
    expect(page.locator("#howto")).to_be_visible()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_help_shows_touch_on_a_touch_screen_and_keys_with_a_keyboard(
    new_context: Callable[..., BrowserContext], size: str
):
    page = new_context(**SIZES[size]).new_page()
    for game, url in GAMES.items():
        page.goto(url)
        help_ = page.locator(".shortcuts-help")
        help_.locator("summary").click()
        shown = help_.locator(".game-help").inner_text()
        assert "How to play" in shown
        if size == "phone":
            assert "Ctrl" not in shown and "Shift" not in shown, shown
            assert "Tap" in shown and "Undo and Redo: the arrows above the board" in shown
            assert ("Double tap" in shown) == (game == "seahaven"), shown
            assert ("Two cards that make 11" in shown) == (game == "half-moon"), shown
        else:
            assert "Ctrl" in shown and "Tap, tap" not in shown, shown
        box = help_.locator(".game-help").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= DESKTOP["width"]
        screenshot(page, f"help-{game}-{size}")
        assert_accessible(page, f"{game}'s help under ?, {size}")
