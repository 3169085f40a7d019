"""Hints on request (issue 45 item 1) at 390 × 844 (touch): Hints turned on in Settings, one tap
on Hint, the move's cards raised and ringed and the move said in words; axe finds nothing."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.conftest import PHONE, assert_accessible, screenshot
from tests.browser.play import HM, open_settings

pytestmark = pytest.mark.browser

RAISED = "(id) => getComputedStyle(document.getElementById(id)).transform"


def test_a_hint_marks_its_cards_and_says_the_move(new_context: Callable[..., BrowserContext]):
    options = {"viewport": PHONE, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
    page = new_context(**options).new_page()
    page.goto(f"/half-moon/{HM}")
    expect(page.locator("#hint-form")).to_have_count(0)
    open_settings(page)
    page.locator("#settings-form label.switch", has_text="Hints").tap()
    hint = page.locator("#control-hint")
    expect(hint).to_be_visible()  # the page came again with its Hint control
    hint.tap()
    status = page.locator("#status")
    expect(status).to_have_text(re.compile(r"^\s*Hint: Remove .+\.\s*$"))
    marks = (status.get_attribute("data-hint") or "").split()
    assert len(marks) in (2, 3)
    for mark in marks:
        assert page.evaluate(RAISED, mark) != "none", mark  # raised and ringed
    screenshot(page, "hint-phone")
    assert_accessible(page, "a hint shown, phone")
