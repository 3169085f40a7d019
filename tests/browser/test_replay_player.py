"""Watching a replay (issue 35, item 6), at 390 × 844 (touch) and 1440 × 900: Play steps by
itself at the chosen speed and stops at the last move, Pause stops it, a slider goes to any
step, and every move is listed in words — tapping one goes to its step (lichess's move
list). No key hints on a phone. Without JavaScript: the list's links and the slider's Go."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from app.engine.replay import Line
from tests.browser.conftest import DESKTOP, PHONE, assert_accessible, screenshot
from tests.browser.play import HM, hm_line
from tests.browser.test_replays import won_replay

SIZES: dict[str, dict[str, Any]] = {
    "phone": {"viewport": PHONE, "has_touch": True, "is_mobile": True, "device_scale_factor": 2},
    "desktop": {"viewport": DESKTOP},
}
LAST = len(hm_line(HM))


def step_of(page: Page) -> int:
    return int(page.locator("#replay").get_attribute("data-step") or -1)


@pytest.fixture(scope="module")
def replay_url(browser, server) -> str:
    """One won game's replay for the module's tests (winning takes a while)."""
    from tests.browser.conftest import knows_the_games

    context = browser.new_context(base_url=server.url, viewport=DESKTOP, locale="en-US")
    knows_the_games(context)
    try:
        return won_replay(context.new_page())
    finally:
        context.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_play_pause_the_slider_and_the_move_list(
    new_context: Callable[..., BrowserContext], replay_url: str, size: str
):
    page = new_context(**SIZES[size]).new_page()
    page.goto(f"{replay_url}?step=0")
    play = page.locator("#replay-autoplay")
    expect(play).to_be_visible()
    expect(play).to_have_accessible_name("Play")
    # every move in words, the step shown marked
    entries = page.locator("#move-list li")
    expect(entries).to_have_count(LAST + 1)
    expect(entries.first).to_have_text("The deal")
    expect(page.locator("#move-list li[aria-current=step]")).to_have_attribute("data-step", "0")
    screenshot(page, f"replay-player-{size}")
    assert_accessible(page, f"a replay with its player and move list, {size}")
    # Play at the fastest speed runs to the end by itself, then stops
    page.locator("#replay-speed").select_option("200")
    play.click()
    expect(play).to_have_attribute("aria-pressed", "true")
    expect(play).to_have_accessible_name("Pause")
    expect(page.locator("#replay")).to_have_attribute("data-step", str(LAST), timeout=40_000)
    expect(play).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#move-list li[aria-current=step]")).to_have_attribute(
        "data-step", str(LAST)
    )
    expect(page).to_have_url(re.compile(rf"step={LAST}$"))
    # from the end, Play starts again from the deal; Pause holds the step
    play.click()
    expect(page.locator("#replay")).not_to_have_attribute("data-step", str(LAST))
    expect(page.locator("#replay")).not_to_have_attribute("data-step", "0", timeout=5_000)
    play.click()
    expect(play).to_have_attribute("aria-pressed", "false")
    page.wait_for_timeout(300)  # a step on its way when paused still lands
    held = step_of(page)
    time.sleep(1)
    assert step_of(page) == held
    # the slider goes where it is let go
    page.locator("#replay-slider").fill("30")
    expect(page.locator("#replay")).to_have_attribute("data-step", "30")
    expect(page).to_have_url(re.compile(r"step=30$"))
    # a move in the list goes to its step; its words are the narration's
    entry = page.locator("#move-list li[data-step='12']")
    words = entry.inner_text()
    entry.locator("a").click()
    expect(page.locator("#replay")).to_have_attribute("data-step", "12")
    expect(page.locator("#narration")).to_have_text(f"Move 12: {words}")
    expect(page.locator("#move-list li[aria-current=step]")).to_have_attribute("data-step", "12")
    # the keys' hint only where there are keys
    if size == "phone":
        expect(page.locator("#replay-keys")).to_be_hidden()
    else:
        expect(page.locator("#replay-keys")).to_be_visible()
    list_box = page.locator("#move-list").bounding_box()
    assert list_box is not None and list_box["x"] >= 0
    assert list_box["x"] + list_box["width"] <= SIZES[size]["viewport"]["width"]


@pytest.mark.parametrize("size", sorted(SIZES))
def test_without_javascript_the_list_and_the_slider_are_links_and_a_form(
    new_context: Callable[..., BrowserContext], replay_url: str, size: str
):
    page = new_context(java_script_enabled=False, **SIZES[size]).new_page()
    page.goto(f"{replay_url}?step=3")
    expect(page.locator("#replay-player")).to_be_hidden()  # Play needs the script
    page.locator("#move-list li[data-step='7'] a").click()
    expect(page).to_have_url(re.compile(r"step=7#replay$"))
    expect(page.locator("#move-list li[aria-current=step]")).to_have_attribute("data-step", "7")
    page.locator("#replay-slider").fill("20")
    page.locator("#scrub-go").click()
    expect(page).to_have_url(re.compile(r"step=20$"))
    expect(page.locator("#step-count")).to_have_text(f"Step 20 of {LAST}")


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_pasted_game_has_the_move_list_and_the_slider_too(
    new_context: Callable[..., BrowserContext], size: str
):
    page = new_context(**SIZES[size]).new_page()
    line = Line.from_text(f"{HM}\n" + "\n".join(str(r) for r in hm_line(HM)))
    page.goto("/replay")
    page.locator("textarea[name=text]").fill(line.text())
    page.locator("form button").last.click()
    expect(page.locator("#move-list li")).to_have_count(LAST + 1)
    page.locator("#move-list li[data-step='5'] button").click()
    expect(page.locator("#replay")).to_have_attribute("data-step", "5")
    expect(page.locator("#move-list li[aria-current=step]")).to_have_attribute("data-step", "5")
    page.locator("#replay-slider").fill("40")
    expect(page.locator("#replay")).to_have_attribute("data-step", "40")
    page.locator("#step-next").click()  # a step button still wins over the slider's value
    expect(page.locator("#replay")).to_have_attribute("data-step", "41")
