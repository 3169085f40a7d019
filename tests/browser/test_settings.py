"""Settings that apply at once, and a dark theme that is dark (issue 35, item 5), at 390 × 844
(touch) and 1440 × 900: a switch or a choice takes effect on the page without Save and
without loading it again, and is kept by the server; without JavaScript the same form posts
(Save, 303). The dark theme is measured from the computed colours: a near-black, neutral
table (not a darker green), text ≥ 4.5:1 and the controls' edges ≥ 3:1 on it."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import DESKTOP, PHONE, assert_accessible, screenshot
from tests.browser.geometry import contrast, css_colour, luminance
from tests.browser.play import HM, SH, board, hm_card, hm_line, open_settings

SIZES: dict[str, dict[str, Any]] = {
    "phone": {"viewport": PHONE, "has_touch": True, "is_mobile": True, "device_scale_factor": 2},
    "desktop": {"viewport": DESKTOP},
}

COLOURS = """() => {
  const body = getComputedStyle(document.body);
  const root = getComputedStyle(document.documentElement);
  const button = getComputedStyle(document.querySelector('#control-new, .tile'));
  return {
    felt: body.backgroundImage.match(/rgba?\\([^)]*\\)/g),
    text: body.color,
    muted: root.getPropertyValue('--muted').trim(),
    accent: root.getPropertyValue('--accent').trim(),
    edge: button.borderTopColor,
    scheme: root.colorScheme,
  };
}"""


def hex_colour(text: str) -> tuple[int, int, int]:
    text = text.lstrip("#")
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)


def over(colour: str, felt: tuple[int, int, int]) -> tuple[int, int, int]:
    """A computed colour, composited over ``felt`` when it is translucent."""
    values = [float(v) for v in colour[colour.index("(") + 1 : -1].replace("/", ",").split(",")]
    alpha = values[3] if len(values) > 3 else 1.0
    r, g, b = (round(c * alpha + f * (1 - alpha)) for c, f in zip(values[:3], felt, strict=True))
    return r, g, b


def assert_dark(page: Page) -> None:
    """The table is near black and neutral; text, muted text, links and control edges read."""
    shown = page.evaluate(COLOURS)
    felt = [css_colour(c) for c in shown["felt"]]
    assert len(felt) == 2, shown
    for stop in felt:
        assert luminance(stop) < 0.03, (stop, "not dark")
        assert max(stop) - min(stop) <= 12, (stop, "a tinted table, not a neutral one")
        assert contrast(css_colour(shown["text"]), stop) >= 4.5
        assert contrast(hex_colour(shown["muted"]), stop) >= 4.5
        assert contrast(hex_colour(shown["accent"]), stop) >= 4.5
        assert contrast(over(shown["edge"], stop), stop) >= 3, shown["edge"]
    assert "dark" in shown["scheme"].split()  # (auto: "light dark", the system picks)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_choice_applies_at_once_and_is_kept(new_context: Callable[..., BrowserContext], size):
    page = new_context(color_scheme="light", **SIZES[size]).new_page()
    page.goto(f"/half-moon/{HM}")
    page.evaluate("() => { window.stayed = true; }")
    open_settings(page)
    form = page.locator("#settings-form")
    expect(form.locator("#settings-save")).to_be_hidden()  # nothing to save: it is applied
    screenshot(page, f"settings-open-{size}")
    form.get_by_text("Dark", exact=True).click()
    root = page.locator("html")
    expect(root).to_have_attribute("data-theme", "dark")
    expect(page.locator('meta[name="theme-color"]')).to_have_attribute("content", "#23272b")
    assert_dark(page)
    form.get_by_text("Four colours").click()
    expect(root).to_have_attribute("data-deck", "four-colour")
    form.get_by_text("Left hand").click()
    expect(root).to_have_attribute("data-hand", "left")
    form.locator("label.switch", has_text="Move errors").click()
    expect(form.locator("input[name=move_errors][type=checkbox]")).to_be_checked()
    expect(form.locator("#settings-saved")).to_have_text("Saved.")
    assert page.evaluate("() => window.stayed") is True  # no page was loaded
    screenshot(page, f"settings-applied-{size}")
    assert_accessible(page, f"settings applied at once, dark, {size}")
    # kept by the server: a page loaded afresh has them
    page.goto(f"/seahaven/{SH}")
    expect(root).to_have_attribute("data-theme", "dark")
    expect(root).to_have_attribute("data-deck", "four-colour")
    expect(root).to_have_attribute("data-hand", "left")
    open_settings(page)
    expect(page.locator("#settings-form input[name=move_errors][type=checkbox]")).to_be_checked()
    expect(page.locator("#settings-form input[name=theme][value=dark]")).to_be_checked()
    assert_dark(page)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_placement_help_with_a_selection_draws_its_marks_at_once(
    new_context: Callable[..., BrowserContext], size: str
):
    page = new_context(**SIZES[size]).new_page()
    page.goto(f"/half-moon/{HM}")
    first = hm_line(HM)[0][0]
    hm_card(page, first).click()
    expect(hm_card(page, first)).to_have_attribute("aria-pressed", "true")
    open_settings(page)
    page.locator("label.switch", has_text="Placement help").click()
    expect(board(page)).to_have_class("board half-moon with-help")
    expect(page.locator("#board .place.dimmed").first).to_be_visible()
    expect(hm_card(page, first)).to_have_attribute("aria-pressed", "true")


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_dark_theme_under_auto_on_a_dark_system_is_dark_too(
    new_context: Callable[..., BrowserContext], size
):
    page = new_context(color_scheme="dark", **SIZES[size]).new_page()
    page.goto(f"/seahaven/{SH}")
    expect(page.locator("html")).to_have_attribute("data-theme", "auto")
    assert_dark(page)
    screenshot(page, f"dark-auto-seahaven-{size}")
    page.goto("/")
    assert_dark(page)
    screenshot(page, f"dark-auto-home-{size}")
    assert_accessible(page, f"home, dark system, {size}")


@pytest.mark.parametrize("size", sorted(SIZES))
def test_without_javascript_the_form_saves_and_comes_back(
    new_context: Callable[..., BrowserContext], size: str
):
    page = new_context(java_script_enabled=False, **SIZES[size]).new_page()
    page.goto(f"/half-moon/{HM}")
    open_settings(page)
    form = page.locator("#settings-form")
    save = form.locator("#settings-save")
    expect(save).to_be_visible()
    form.get_by_text("Dark", exact=True).click()
    form.locator("label.switch", has_text="Zen").click()
    save.click()
    expect(page).to_have_url(re.compile(rf"/half-moon/{HM}$"))
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    expect(page.locator("html")).to_have_attribute("data-zen", "on")
    assert_dark(page)
