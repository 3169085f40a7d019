"""The header's language buttons: the page, its labels and the cards' spoken names change."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.play import HM, SH, board


def test_switching_to_turkish_then_bulgarian_in_the_header(page: Page):
    page.goto(f"/half-moon/{HM}")
    html = page.locator("html")
    expect(html).to_have_attribute("lang", "en")
    expect(page.locator("#card-reserve-7")).to_have_attribute(
        "aria-label", "jack of clubs, reserve 7, 1 card"
    )
    expect(page.locator("[data-place=pile-8] .label")).to_have_text("pile 8, 8 cards")

    page.get_by_role("button", name="Türkçe").click()
    expect(html).to_have_attribute("lang", "tr")
    expect(page).to_have_url(f"{page.url.split('/half-moon')[0]}/half-moon/{HM}")
    expect(page.locator("[data-place=pile-8] .label")).to_have_text("yığın 8, 8 kart")
    expect(page.locator("#card-reserve-7")).to_have_attribute(
        "aria-label", "sinek vale, rezerv 7, 1 kart"
    )
    expect(page.locator("#card-pile-3")).to_have_attribute(
        "aria-label", "sinek papaz, yığın 3, 8 kart"
    )
    expect(page.locator("#card-reserve-7 .rank")).to_have_text("V")  # vale
    expect(page.locator("#control-undo")).to_have_text("Geri al")
    expect(page.get_by_role("button", name="Türkçe")).to_have_attribute("aria-current", "true")

    page.get_by_role("button", name="Български").click()
    expect(html).to_have_attribute("lang", "bg")
    expect(page.locator("[data-place=pile-8] .label")).to_have_text("купчина 8, 8 карти")
    expect(page.locator("#card-reserve-7")).to_have_attribute(
        "aria-label", "вале спатия, резерв 7, 1 карта"
    )
    expect(page.locator("#card-pile-3")).to_have_attribute(
        "aria-label", "поп спатия, купчина 3, 8 карти"
    )
    expect(page.locator("#card-pile-3 .rank")).to_have_text("R")  # поп
    expect(page.get_by_role("button", name="Türkçe")).not_to_have_attribute("aria-current", "true")

    # the choice belongs to the player: the other game speaks Bulgarian too
    page.goto(f"/seahaven/{SH}")
    expect(html).to_have_attribute("lang", "bg")
    expect(page.locator("[data-place=column-1] .label")).to_have_text("колона 1, 5 карти")
    expect(page.locator("[data-place=cell-1] .label")).to_have_text("клетка 1")
    expect(board(page)).to_have_attribute("data-game", "seahaven")
