"""Statistics, daily deals and the device link in a real browser (issue 16)."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import DESKTOP, PHONE, assert_accessible, screenshot
from tests.browser.play import HM, board, hm_line, hm_reach


def test_the_daily_deals_are_the_same_in_two_fresh_browsers(
    new_context: Callable[..., BrowserContext],
):
    shown = []
    for _ in range(2):
        page = new_context().new_page()
        page.goto("/")
        shown.append(page.locator("#daily li").evaluate_all("(l) => l.map((e) => e.dataset.code)"))
        page.goto("/daily/half-moon")
        expect(board(page)).to_have_attribute("data-code", shown[-1][0])
    assert len(shown[0]) == 4 and shown[0] == shown[1]


def test_a_device_link_moves_the_games_and_revoking_it_gives_a_clear_404(
    new_context: Callable[..., BrowserContext],
):
    first = new_context().new_page()
    hm_reach(first, HM, hm_line(HM)[:3])
    first.goto("/stats")
    expect(first.locator('#totals tr[data-kind="HM"] [data-field="played"]')).to_have_text("1")
    first.locator("#make-link").click()
    link = first.locator("#device-link").input_value()
    assert "/link/" in link
    second = new_context().new_page()
    second.goto("/")
    expect(second.locator(".continue a")).to_have_count(0)
    second.goto(link)
    second.locator("#use-link").click()
    expect(second.locator("#stats-notice")).to_contain_text("This browser now has the games")
    expect(second.locator('#totals tr[data-kind="HM"] [data-field="played"]')).to_have_text("1")
    second.goto("/")
    expect(second.locator(".continue a")).to_have_count(1)
    second.locator(".continue a").click()
    expect(board(second)).to_have_attribute("data-moves", "3")
    # revoked on the first browser: using the link now gives a clear "does not work" page
    # (its GET is only the question and looks nothing up, issue 23: the POST answers)
    first.goto("/stats")
    first.locator("#revoke-link").click()
    expect(first.locator("#stats-notice")).to_contain_text("revoked")
    third = new_context().new_page()
    third.goto(link)
    with third.expect_response(lambda r: r.request.method == "POST") as answered:
        third.locator("#use-link").click()
    assert answered.value.status == 404
    expect(third.locator("h1")).to_have_text("This device link does not work")
    assert_accessible(third, "the page of a revoked device link")


def test_stats_page_and_daily_block_are_accessible_and_look_right(
    new_context: Callable[..., BrowserContext],
):
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page: Page = new_context(viewport=viewport).new_page()
        page.goto("/")
        assert_accessible(page, f"home with the daily deals ({name})")
        hm_reach(page, HM, hm_line(HM)[:48])
        expect(board(page)).to_have_attribute("data-state", "won")
        expect(page.locator("#bests li")).to_have_text(["Your first win at Half Moon!"])
        # the server is shared by the session's tests: others may have finished this deal
        expect(page.locator("#deal-figures")).to_contain_text(re.compile(r"\d+ players? finished"))
        page.goto("/stats")
        expect(page.locator('#totals tr[data-kind="HM"] [data-field="won"]')).to_have_text("1")
        expect(page.locator("#chart-rate-half-moon svg")).to_be_visible()
        assert_accessible(page, f"/stats ({name})")
        screenshot(page, f"stats-{name}")
        page.locator("#reset").click()
        expect(page.locator("#confirm-reset")).to_be_visible()
        assert_accessible(page, f"/stats asking to reset ({name})")
        page.locator("#confirm-reset-yes").click()
        expect(page.locator('#totals tr[data-kind="HM"] [data-field="won"]')).to_have_text("0")
