"""Hints on request (issue 45 item 1) at 390 × 844 and 844 × 390 (touch) and 1440 × 900: Hints
turned on in Settings, one tap on Hint, the move's cards raised and ringed and the move said in
words; axe finds nothing. Without JavaScript the Hint form brings the page back with the hint."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.conftest import DESKTOP, PHONE, assert_accessible, screenshot
from tests.browser.play import HM, open_settings, token

pytestmark = pytest.mark.browser

RAISED = "(id) => getComputedStyle(document.getElementById(id)).transform"


TOUCH = {"has_touch": True, "is_mobile": True, "device_scale_factor": 2}
SIZES = {
    "phone": {"viewport": PHONE, **TOUCH},
    "landscape": {"viewport": {"width": 844, "height": 390}, **TOUCH},
    "desktop": {"viewport": DESKTOP},
}


@pytest.mark.parametrize("size", SIZES)
def test_a_hint_marks_its_cards_and_says_the_move(
    new_context: Callable[..., BrowserContext], size: str
):
    page = new_context(**SIZES[size]).new_page()
    touch = size != "desktop"
    page.goto(f"/half-moon/{HM}")
    expect(page.locator("#hint-form")).to_have_count(0)
    open_settings(page)
    switch = page.locator("#settings-form label.switch", has_text="Hints")
    switch.tap() if touch else switch.click()
    hint = page.locator("#control-hint")
    expect(hint).to_be_visible()  # the page came again with its Hint control
    box = hint.bounding_box()
    viewport = page.viewport_size
    assert box is not None and viewport is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]  # on screen
    hint.tap() if touch else hint.click()
    status = page.locator("#status")
    expect(status).to_have_text(re.compile(r"^\s*Hint: Remove .+\.\s*$"))
    marks = (status.get_attribute("data-hint") or "").split()
    assert len(marks) in (2, 3)
    for mark in marks:
        assert page.evaluate(RAISED, mark) != "none", mark  # raised and ringed
    screenshot(page, f"hint-{size}")
    assert_accessible(page, f"a hint shown, {size}")


def test_without_javascript_the_hint_form_brings_the_page_back_with_the_hint(
    new_context: Callable[..., BrowserContext],
):
    page = new_context(java_script_enabled=False, viewport=PHONE).new_page()
    page.goto(f"/half-moon/{HM}")
    answer = page.request.post(
        "/settings",
        form={"hints": "on", "token": token(page), "next": f"/half-moon/{HM}"},
        max_redirects=0,
    )
    assert answer.status == 303
    page.reload()
    page.locator("#control-hint").click()
    expect(page.locator("#status")).to_have_text(re.compile(r"^\s*Hint: Remove .+\.\s*$"))
    assert len((page.locator("#status").get_attribute("data-hint") or "").split()) in (2, 3)
