"""Words as a player reads them (issue 35, item 8), at 390 × 844 (touch) and 1440 × 900: the
rules explain the cards' letters in Turkish and Bulgarian; the reserve's labels are words no
card uses, clear of the cards; the Bulgarian end box speaks in the formal register; /stats
shows its moments in the player's own time zone and names every figure of "Your replays"."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.conftest import DESKTOP, PHONE, SCREENSHOTS, assert_accessible, screenshot
from tests.browser.geometry import assert_labels_clear_of_cards
from tests.browser.play import HM, board, hm_line, hm_reach
from tests.web.test_words import INFORMAL_BG

SIZES: dict[str, dict[str, Any]] = {
    "phone": {"viewport": PHONE, "has_touch": True, "is_mobile": True, "device_scale_factor": 2},
    "desktop": {"viewport": DESKTOP},
}
LOCALES = {"en": "en-GB", "tr": "tr-TR", "bg": "bg-BG"}


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize(("lang", "reserve"), [("tr", "rezerv"), ("bg", "резерв")])
def test_the_letters_are_explained_and_no_place_reads_like_a_card(
    new_context: Callable[..., BrowserContext], size: str, lang: str, reserve: str
):
    page = new_context(locale=LOCALES[lang], **SIZES[size]).new_page()
    page.goto("/rules/half-moon")
    letters = page.locator("#letters")
    expect(letters).to_be_visible()
    expect(letters.locator("strong")).to_have_text(["A", "V", "D", "R"])
    letters.screenshot(path=str(SCREENSHOTS / f"rules-letters-{lang}-{size}.png"))
    page.goto(f"/half-moon/{HM}")
    # the name (on a wide board the caption goes on: "rezerv 1, 1 kart")
    labels = page.locator("#board [data-place^=reserve-] .label-place > span:first-child")
    expect(labels).to_have_count(8)
    for n in range(8):
        expect(labels.nth(n)).to_have_text(f"{reserve} {n + 1}", use_inner_text=True)
    assert_labels_clear_of_cards(page)
    screenshot(page, f"reserve-labels-{lang}-{size}")


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_bulgarian_end_box_is_formal(new_context: Callable[..., BrowserContext], size: str):
    page = new_context(locale="bg-BG", **SIZES[size]).new_page()
    hm_reach(page, HM, hm_line(HM))
    expect(board(page)).to_have_attribute("data-state", "won")
    box = page.locator("#board .ending")
    expect(box.locator("#ending-replay")).to_have_text("Вижте записа")
    text = box.inner_text()
    assert not INFORMAL_BG.search(text), text
    screenshot(page, f"bg-won-{size}")
    assert_accessible(page, f"the Bulgarian end box, {size}")


@pytest.mark.parametrize("size", sorted(SIZES))
def test_stats_shows_moments_in_the_players_time_and_names_the_replays_figures(
    new_context: Callable[..., BrowserContext], size: str
):
    page = new_context(locale="en-GB", timezone_id="Asia/Tokyo", **SIZES[size]).new_page()
    hm_reach(page, HM, hm_line(HM))
    page.goto("/stats")
    moment = page.locator("#recent time[data-local]").first
    expect(moment).to_have_attribute("data-shown", "local")
    when = moment.get_attribute("datetime")
    assert when is not None
    utc = datetime.datetime.strptime(when, "%Y-%m-%dT%H:%MZ").replace(tzinfo=datetime.UTC)
    tokyo = utc.astimezone(ZoneInfo("Asia/Tokyo"))
    shown = moment.inner_text()
    clock = (f"{tokyo:%H:%M}", f"{tokyo.hour % 12 or 12}:{tokyo:%M}")  # 24 h, or 12 h
    assert any(c in shown for c in clock) and "UTC" not in shown, shown
    expect(moment).to_have_attribute("title", f"{utc:%Y-%m-%d %H:%M} UTC")
    row = page.locator("#replay-list tbody tr").first
    if size == "phone":  # the table's rows are cards: each figure shows its name
        for cell, name in (("td.number >> nth=0", "Time"), ("td.number >> nth=1", "Moves")):
            label = row.locator(cell).evaluate("(e) => getComputedStyle(e, '::before').content")
            assert label == f'"{name}"', label
    screenshot(page, f"stats-local-time-{size}")
    assert_accessible(page, f"/stats in Tokyo time, {size}")
