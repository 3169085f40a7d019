"""*Winnable deals only* in the New game dialog (issue 33, item 5), as a player meets it: on a
phone by touch, and with the keyboard alone and JavaScript off."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from app.engine.codes import DealCode
from app.services import winnable
from tests.browser.conftest import assert_accessible
from tests.browser.test_phone import phone

pytestmark = pytest.mark.browser


def dealt(url: str) -> DealCode:
    return DealCode.parse(url.rsplit("/", 1)[1])


def in_table(code: DealCode) -> bool:
    return code.number in winnable.table()[f"{code.game}-{code.variant}"]["deals"]


def test_a_phone_picks_a_winnable_easy_deal_in_the_new_game_dialog(new_context):
    page = phone(new_context)
    page.goto("/seahaven")
    dialog = page.locator("form.levels")
    expect(dialog.get_by_role("radio", name="Medium and Hard")).to_be_checked()
    assert_accessible(page, "the New game dialog at 390 × 844")
    dialog.get_by_role("radio", name="Easy · 4 cells").tap()
    dialog.get_by_role("radio", name="Always").tap()
    dialog.get_by_role("button", name="Deal the cards").tap()
    expect(page).to_have_url(re.compile(r"/seahaven/SH1-C4-\w+$"))
    assert in_table(dealt(page.url))
    page.goto("/seahaven")
    expect(page.locator("form.levels").get_by_role("radio", name="Always")).to_be_checked()


def test_the_keyboard_alone_without_javascript_turns_it_off_for_a_hard_deal(new_context):
    page = new_context(java_script_enabled=False).new_page()
    page.goto("/seahaven")
    dialog = page.locator("form.levels")
    dialog.get_by_role("radio", name="Easy · 4 cells").focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    expect(dialog.get_by_role("radio", name="Hard · 1 cell")).to_be_checked()
    page.keyboard.press("Tab")  # into the next group, at its checked radio
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    expect(dialog.get_by_role("radio", name="Never")).to_be_checked()
    page.keyboard.press("Tab")
    expect(page.locator("#deal")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/seahaven/SH1-C1-\w+$"))
    assert not in_table(dealt(page.url))
    page.goto("/stats")
    expect(page.locator("#winnable-choice")).to_contain_text("Winnable deals only: Never.")


def test_a_choice_made_in_the_settings_shows_in_the_open_new_game_dialog(new_context):
    """Before: the dialog's radios kept the old choice, and Deal wrote it back over the new."""
    page = new_context().new_page()
    page.goto("/seahaven")
    page.locator("details.settings summary").click()
    page.locator("details.settings form").get_by_text("Never", exact=True).click()
    page.locator("details.settings summary").click()  # closed again
    dialog = page.locator("form.levels")
    expect(dialog.get_by_role("radio", name="Never")).to_be_checked()
    dialog.get_by_role("button", name="Deal the cards").click()
    expect(page).to_have_url(re.compile(r"/seahaven/SH1-C4-\w+$"))
    page.goto("/stats")
    expect(page.locator("#winnable-choice")).to_contain_text("Winnable deals only: Never.")


# --- Half Moon's New game dialog: the same choice, without levels ---------------------------

HM = "HM1-N-AAAAAAB"


def test_a_phone_opens_half_moons_dialog_and_new_game_then_deals_winnable(new_context):
    page = phone(new_context)
    page.goto("/half-moon?new=1")  # issue 45: New game deals; the dialog is a link away
    dialog = page.locator("form.levels")
    expect(dialog.get_by_role("radio", name="Seahaven Medium and Hard only")).to_be_checked()
    assert_accessible(page, "Half Moon's New game dialog at 390 × 844")
    deal = dialog.get_by_role("button", name="Deal the cards")
    box, width = deal.bounding_box(), page.viewport_size["width"]
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    dialog.get_by_role("radio", name="Always").tap()
    deal.tap()
    expect(page).to_have_url(re.compile(r"/half-moon/HM1-N-\w+$"))
    assert in_table(dealt(page.url))
    first = page.url
    page.locator("#control-new").tap()  # one tap, the kept choice: another winnable deal
    expect(page).to_have_url(re.compile(r"/half-moon/HM1-N-\w+$"))
    assert page.url != first and in_table(dealt(page.url))
    page.goto("/half-moon?new=1")
    expect(page.locator("form.levels").get_by_role("radio", name="Always")).to_be_checked()


def test_the_keyboard_alone_without_javascript_deals_half_moon_from_the_dialog(new_context):
    page = new_context(java_script_enabled=False).new_page()
    page.goto("/half-moon?new=1")  # issue 45: the info bar's New game deals at once
    dialog = page.locator("form.levels")
    dialog.get_by_role("radio", name="Seahaven Medium and Hard only").focus()
    page.keyboard.press("ArrowDown")
    expect(dialog.get_by_role("radio", name="Always")).to_be_checked()
    page.keyboard.press("Tab")
    expect(page.locator("#deal")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/half-moon/HM1-N-\w+$"))
    assert in_table(dealt(page.url))
    page.goto("/stats")
    expect(page.locator("#winnable-choice")).to_contain_text("Winnable deals only: Always.")
