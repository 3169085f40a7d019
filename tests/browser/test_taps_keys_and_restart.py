"""In a real browser: taps that are never lost, focus that never falls to the body,
arrow keys by position, keyboard shortcuts, Restart that asks, Placement help while dragging,
and the small visible defects (Copy link, the end box, targets, landscape)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import PHONE, assert_accessible, screenshot
from tests.browser.geometry import assert_apart, assert_labels_clear_of_cards
from tests.browser.play import HM, SH, board, hm_reach, hm_stuck_line, strip_position, token

LANDSCAPE = {"width": 844, "height": 390}


def focused(page: Page) -> str:
    return page.evaluate("() => document.activeElement ? document.activeElement.id : ''")


def on_body(page: Page) -> bool:
    return page.evaluate("() => document.activeElement === document.body")


# --- 1. a pending selection never swallows a tap ---------------------------------------------
# On SH1-C4-AAAAAAB, Q♥ (top of column 2) cannot go home and A♥ (top of column 1) can; Q♥
# cannot go onto A♥.


@pytest.mark.parametrize("how", ["mouse", "touch", "keyboard"])
def test_a_tap_after_a_selection_that_cannot_take_it_is_a_fresh_tap(new_context, how):
    context = new_context(has_touch=True) if how == "touch" else new_context()
    page = context.new_page()
    page.goto(f"/seahaven/{SH}")
    queen, ace = page.locator("#card-QH"), page.locator("#card-AH")

    def tap(card):
        if how == "mouse":
            card.click(position=strip_position(card))
        elif how == "touch":
            card.tap(position=strip_position(card))
        else:
            card.focus()
            page.keyboard.press("Enter")

    tap(queen)
    expect(queen).to_have_attribute("aria-pressed", "true")
    tap(ace)
    expect(page.locator("[data-place=foundation-H] #card-AH")).to_have_count(1)
    expect(board(page)).to_have_attribute("data-moves", "1")
    expect(page.locator("#card-QH")).to_have_attribute("aria-pressed", "false")


# --- 7. focus and arrow keys -----------------------------------------------------------------


def test_arrow_keys_move_by_position_on_the_half_moon_board(page: Page):
    page.goto(f"/half-moon/{HM}")
    page.locator("#card-pile-1").focus()
    walk = []
    for key in ["ArrowUp", "ArrowUp", "ArrowDown", "ArrowDown", "ArrowRight"]:
        page.keyboard.press(key)
        walk.append(focused(page))
    assert walk[:4] == ["card-pile-2", "card-pile-3", "card-pile-2", "card-pile-1"]
    assert walk[4] != "card-pile-2"  # Right never goes up the left side
    page.locator("#card-pile-12").focus()
    page.keyboard.press("ArrowUp")
    assert focused(page) == "card-pile-11"
    page.keyboard.press("Home")
    assert focused(page) == "card-pile-1"
    page.keyboard.press("End")
    assert focused(page) == "card-reserve-8"


def test_arrow_keys_walk_a_seahaven_fan_and_cross_to_the_next_column(page: Page):
    page.goto(f"/seahaven/{SH}")
    column = page.locator("[data-place=column-1] button.card")
    ids = column.evaluate_all("(cards) => cards.map((c) => c.id)")
    column.last.focus()
    page.keyboard.press("ArrowUp")
    assert focused(page) == ids[-2]
    page.keyboard.press("ArrowDown")
    assert focused(page) == ids[-1]
    page.keyboard.press("ArrowRight")
    assert (
        page.evaluate("() => document.activeElement.closest('[data-place]').dataset.place")
        == "column-2"
    )


def test_focus_never_falls_to_the_body_after_a_move_into_an_empty_cell_or_an_undo(page: Page):
    page.goto(f"/seahaven/{SH}")
    page.locator("#card-QH").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#card-QH")).to_have_attribute("aria-pressed", "true")
    page.locator("#slot-cell-3").focus()
    page.keyboard.press("Enter")  # the empty slot is gone: Q♥ lies there now
    expect(page.locator("[data-place=cell-3] #card-QH")).to_have_count(1)
    page.wait_for_function("() => document.activeElement !== document.body")
    assert focused(page) == "card-QH"
    page.locator("#control-undo").focus()
    page.keyboard.press("Enter")  # Undo disables itself
    expect(page.locator("#control-undo")).to_be_disabled()
    page.wait_for_function("() => document.activeElement !== document.body")
    assert focused(page) == "control-redo"


# --- 8. keyboard shortcuts -------------------------------------------------------------------


def test_shortcuts_press_the_real_undo_redo_and_new_game_controls(page: Page):
    page.goto(f"/seahaven/{SH}")
    page.locator("#card-AH").focus()
    page.keyboard.press("Enter")
    expect(board(page)).to_have_attribute("data-moves", "1")
    with page.expect_request("**/undo") as sent:
        page.keyboard.press("u")
    assert f"token={token(page)}" in (sent.value.post_data or "")
    expect(board(page)).to_have_attribute("data-moves", "0")
    page.keyboard.press("Shift+U")
    expect(board(page)).to_have_attribute("data-moves", "1")
    page.keyboard.press("Control+z")
    expect(board(page)).to_have_attribute("data-moves", "0")
    page.keyboard.press("Control+y")
    expect(board(page)).to_have_attribute("data-moves", "1")
    # never while typing in a field
    page.evaluate(
        "() => { const i = document.createElement('input'); i.id = 'typing';"
        " document.querySelector('main').append(i); }"
    )
    page.locator("#typing").press_sequentially("unu")
    page.wait_for_timeout(300)
    expect(board(page)).to_have_attribute("data-moves", "1")
    assert page.url.endswith(f"/seahaven/{SH}")
    page.locator("#card-QH").focus()
    page.keyboard.press("n")
    page.wait_for_url("**/seahaven?cells=4")  # issue 45: a new deal of the level, asked first
    expect(page.locator("#unfinished-heading")).to_be_visible()  # a game going on (issue 43)


def test_the_shortcuts_are_listed_in_a_help_panel(page: Page):
    page.goto(f"/half-moon/{HM}")
    help_ = page.locator(".shortcuts-help")
    expect(help_.locator(".game-help")).to_be_hidden()
    help_.locator("summary").click()
    expect(help_.locator(".key-help .shortcuts")).to_be_visible()  # a mouse and keys: no touch
    expect(help_.locator(".touch-help")).to_be_hidden()
    expect(help_.locator(".key-help .shortcuts dd")).to_have_text(
        ["Undo", "Redo", "New game", "To the nearest card in that direction", "Tap the card"]
    )
    assert_accessible(page, "the shortcuts panel open")


# --- 5. Restart asks first -------------------------------------------------------------------


def test_restart_asks_and_keep_playing_keeps_the_game(page: Page):
    page.goto(f"/seahaven/{SH}")
    page.locator("#card-AH").click(position=strip_position(page.locator("#card-AH")))
    expect(board(page)).to_have_attribute("data-moves", "1")
    page.locator("#control-restart").click()
    expect(page.locator("#confirm-restart")).to_be_visible()
    expect(board(page)).to_have_attribute("data-moves", "1")
    page.wait_for_function("() => document.activeElement.id === 'confirm-restart-no'")
    assert_accessible(page, "Restart asking")
    page.locator("#confirm-restart-no").click()
    expect(page.locator("#confirm-restart")).to_have_count(0)
    expect(board(page)).to_have_attribute("data-moves", "1")
    page.locator("#control-restart").click()
    page.locator("#confirm-restart-yes").click()
    expect(board(page)).to_have_attribute("data-moves", "0")
    expect(page.locator("#confirm-restart")).to_have_count(0)


def test_restart_asks_without_javascript(new_context: Callable[..., BrowserContext]):
    page = new_context(java_script_enabled=False).new_page()
    page.goto(f"/seahaven/{SH}")
    page.locator("#card-AH").click()
    expect(board(page)).to_have_attribute("data-moves", "1")
    page.locator("#control-restart").click()
    expect(page.locator("#confirm-restart")).to_be_visible()
    page.locator("#confirm-restart-yes").click()
    expect(board(page)).to_have_attribute("data-moves", "0")


# --- 4. Placement help while dragging --------------------------------------------------------


def test_placement_help_marks_where_a_dragged_card_may_go(page: Page):
    page.goto(f"/seahaven/{SH}")
    response = page.request.post(
        "/settings",
        form={"placement_help": "on", "token": token(page), "next": f"/seahaven/{SH}"},
        max_redirects=0,
    )
    assert response.status == 303
    page.reload()
    queen = page.locator("#card-QH")
    targets = queen.get_attribute("data-targets") or ""
    assert targets.split()  # somewhere to go: a free cell at least
    box = queen.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + 10
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 30, y + 30, steps=4)
    marked = page.locator("#board .destination").evaluate_all(
        "(places) => places.map((p) => p.dataset.place)"
    )
    assert sorted(marked) == sorted(targets.split())
    page.mouse.move(x, y, steps=4)
    page.mouse.up()  # dropped back where it was: no move, nothing stays marked
    expect(page.locator("#board .destination")).to_have_count(0)
    expect(board(page)).to_have_attribute("data-moves", "0")


# --- 9. small visible defects ----------------------------------------------------------------


def test_copy_link_stays_hidden_without_javascript_or_the_clipboard(new_context):
    page = new_context(java_script_enabled=False).new_page()
    page.goto(f"/half-moon/{HM}")
    expect(page.locator("#info button.copy")).to_be_hidden()
    context = new_context()
    context.add_init_script("delete Navigator.prototype.clipboard")
    page = context.new_page()
    page.goto(f"/half-moon/{HM}")
    expect(page.locator("#deal-link")).to_be_visible()
    expect(page.locator("#info button.copy")).to_be_hidden()


def test_the_half_moon_end_box_leaves_the_reserve_labels_readable_on_a_phone(page: Page):
    page.set_viewport_size(PHONE)
    code, line = hm_stuck_line()
    hm_reach(page, code, line)
    expect(board(page)).to_have_attribute("data-state", "stuck")
    screenshot(page, "details-half-moon-phone-stuck")
    # the end box is fixed over the board (issue 22 item 2); the page has room below the
    # board, so scrolled to its end every card and label is clear of the box
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    assert_apart(page, "#board .ending", "#board .label, #board .card")


@pytest.mark.parametrize("locale", ["tr-TR", "bg-BG"])
@pytest.mark.parametrize("game", [f"half-moon/{HM}", f"seahaven/{SH}"])
def test_every_target_is_24px_on_a_phone_in_turkish_and_bulgarian(new_context, locale, game):
    page = new_context(locale=locale, viewport=PHONE).new_page()
    page.goto(f"/{game}")
    assert_accessible(page, f"{game} at 390 × 844 in {locale}")


@pytest.mark.parametrize("locale", ["en-US", "tr-TR", "bg-BG"])
def test_half_moon_fits_a_phone_in_landscape_without_scrolling(new_context, locale):
    page = new_context(viewport=LANDSCAPE, locale=locale).new_page()
    page.goto(f"/half-moon/{HM}")
    height = page.evaluate("() => document.documentElement.scrollHeight")
    assert height <= LANDSCAPE["height"], height
    assert page.evaluate("() => document.documentElement.scrollWidth") <= LANDSCAPE["width"]
    assert_apart(page, "#board [data-place]")
    assert_apart(page, "#board .label", "#board .card")
    assert_apart(page, "#board .label")


@pytest.mark.parametrize("locale", ["en-US", "tr-TR", "bg-BG"])
def test_seahaven_labels_stay_apart_on_a_phone_in_landscape(new_context, locale):
    page = new_context(viewport=LANDSCAPE, locale=locale).new_page()
    page.goto(f"/seahaven/{SH}")
    assert_apart(page, "#board .label")
    assert_apart(page, "#board .label", "#board .card")


# --- screenshots: both games, three sizes, three languages -----------------------------------


@pytest.mark.parametrize("locale", ["en-US", "tr-TR", "bg-BG"])
def test_both_games_in_every_language_and_size_fit_the_width_with_every_label_clear(
    new_context, locale
):
    """The screenshots a person looked at for issue 13 (both games, three sizes, three
    languages), and what that person checked in them: the page is in the player's language, no
    wider than the screen, and no label of the board runs into another label or a card
    (Seahaven's labels ran together in landscape)."""
    sizes = {"phone": PHONE, "desktop": {"width": 1440, "height": 900}, "landscape": LANDSCAPE}
    page = new_context(locale=locale).new_page()
    for game in (f"half-moon/{HM}", f"seahaven/{SH}"):
        page.goto(f"/{game}")
        expect(page.locator("html")).to_have_attribute("lang", locale[:2])
        for name, size in sizes.items():
            page.set_viewport_size(size)
            slug = game.split("/")[0]
            screenshot(page, f"details-{slug}-{name}-{locale[:2]}")
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= size["width"], (slug, name, width)
            assert_labels_clear_of_cards(page)
