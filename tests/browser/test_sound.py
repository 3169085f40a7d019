"""Sound in Chromium (issue 27): nothing is loaded or played until the player turns Sound on;
then a removal, a refusal and the win each play their sound, under prefers-reduced-motion
too (the player asked for it)."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import BrowserContext, expect

from tests.browser.play import HM, hm_card, hm_line, hm_remove, token

PLAYED = "() => document.documentElement.dataset.soundPlayed || null"


def test_no_sound_is_loaded_or_played_by_default(new_context: Callable[..., BrowserContext]):
    page = new_context().new_page()
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    page.goto(f"/half-moon/{HM}")
    hm_remove(page, hm_line()[0], 1)
    assert page.evaluate(PLAYED) is None
    assert not [url for url in requested if "sound" in url]


def test_with_sound_on_a_removal_a_refusal_and_the_win_are_heard(
    new_context: Callable[..., BrowserContext],
):
    page = new_context(reduced_motion="reduce").new_page()
    page.goto(f"/half-moon/{HM}")
    response = page.request.post(
        "/settings", form={"sound": "on", "token": token(page), "next": "/"}, max_redirects=0
    )
    assert response.status == 303
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-sound", "on")
    hm_card(page, "pile-1").click()  # 3♥ …
    expect(hm_card(page, "pile-1")).to_have_attribute("aria-pressed", "true")
    hm_card(page, "pile-2").click()  # … and 5♦: 8, refused
    page.wait_for_function("() => document.documentElement.dataset.soundPlayed === 'refusal'")
    expect(hm_card(page, "pile-1")).to_have_attribute("aria-pressed", "false")
    line = hm_line()
    hm_remove(page, line[0], 1)
    page.wait_for_function("() => document.documentElement.dataset.soundPlayed === 'card'")
    for i, removal in enumerate(line[1:], start=2):
        hm_remove(page, removal, i)
    page.wait_for_function("() => document.documentElement.dataset.soundPlayed === 'win'")
