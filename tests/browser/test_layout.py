"""The player's eye: both games on a phone (390 × 844) and a desktop (1440 × 900), new and in
the middle of a game. Screenshots go to test-artifacts/screenshots/ for a person to look at;
the assertions catch what a person would notice: things off screen, overlapping, or needing a
sideways scroll."""

from __future__ import annotations

from collections.abc import Iterator

from playwright.sync_api import Page, expect

from app.engine.seahaven import COLUMNS
from app.engine.seahaven import place_name as sh_place
from tests.browser.conftest import DESKTOP, PHONE, screenshot
from tests.browser.geometry import assert_apart, assert_labels_clear_of_cards, boxes
from tests.browser.play import (
    HM,
    SH,
    SH_LONG,
    SeahavenPlayer,
    auto_move,
    board,
    hm_line,
    hm_remove,
    moving_card,
    open_settings,
    sh_line,
    sh_reach,
)


def assert_no_sideways_scroll(page: Page) -> None:
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width


def assert_places_on_screen(page: Page) -> None:
    """Every place lies inside the viewport (nothing to scroll to, on a desktop)."""
    assert page.viewport_size is not None
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    page.evaluate("() => window.scrollTo(0, 0)")
    outside = [
        b
        for b in boxes(page, "[data-place]")
        if b["x"] < 0 or b["y"] < 0 or b["right"] > width or b["bottom"] > height
    ]
    assert outside == [], (page.viewport_size, outside)


def test_half_moon_new_and_in_play_on_a_phone_and_a_desktop(page: Page):
    page.goto(f"/half-moon/{HM}")
    for moves in (0, 10):
        if moves:
            page.set_viewport_size(DESKTOP)
            for number, removal in enumerate(hm_line(HM)[:moves], start=1):
                hm_remove(page, removal, number)
        for size in each_size_laid_out(page, "half-moon", moves):
            if size is DESKTOP:
                assert_places_on_screen(page)


def each_size_laid_out(page: Page, slug: str, moves: int) -> Iterator[dict[str, int]]:
    """The page at the desktop's size, then the phone's, each checked (its places apart, its
    labels clear, no sideways scroll) and photographed; yields the size for more checks."""
    for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        expect(board(page)).to_have_attribute("data-moves", str(moves))
        screenshot(page, f"{slug}-{name}-{'new' if moves == 0 else 'mid-game'}")
        assert_apart(page, "#board [data-place]")
        assert_labels_clear_of_cards(page)
        assert_no_sideways_scroll(page)
        yield size


def test_a_lifted_card_never_hides_a_label(page: Page):
    """A selected card rises; every card of Half Moon lifted at once still clears every label
    (the attribute is set in the page only for the geometry: the same CSS as a selection)."""
    page.goto(f"/half-moon/{HM}")
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        page.evaluate(
            "() => document.querySelectorAll('#board [aria-pressed]')"
            ".forEach((b) => b.setAttribute('aria-pressed', 'true'))"
        )
        page.emulate_media(reduced_motion="reduce")  # no transition: measure the end state
        assert_labels_clear_of_cards(page)
        assert_apart(page, "#board [data-place]")


def test_the_settings_panel_opens_on_the_screen(page: Page):
    page.goto(f"/half-moon/{HM}")
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        open_settings(page)  # on a phone, in the header's menu (issue 22)
        panel = page.locator("details.settings form").bounding_box()
        assert panel is not None
        assert panel["x"] >= 0 and panel["x"] + panel["width"] <= size["width"], (size, panel)
        page.get_by_label("Move errors").check()
        page.get_by_label("Move errors").uncheck()
        page.locator("details.settings summary").click()  # closed again


def test_the_half_moon_arc_reads_as_an_arc(page: Page):
    """The 12 piles: up the left side, across the top, down the right (SPEC §2, Layout) — the
    top row bows upwards to pile 7, and on a desktop each side leans in towards the top."""
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        page.goto(f"/half-moon/{HM}")
        piles = [centre_of(page, f"pile-{n}") for n in range(1, 13)]
        xs, ys = [p[0] for p in piles], [p[1] for p in piles]
        assert ys[0] > ys[1] > ys[2] > ys[3]  # up the left side to the corner
        assert ys[3] > ys[4] > ys[5] > ys[6] < ys[7] < ys[8] < ys[9]  # the top bows up to pile 7
        assert ys[9] < ys[10] < ys[11]  # down the right side
        assert xs[0] <= xs[1] <= xs[2] < xs[3] < xs[4] < xs[5] < xs[6]  # left to right
        assert xs[6] < xs[7] < xs[8] < xs[9] < xs[10] <= xs[11]
        if size is DESKTOP:  # where there is room, the sides lean in towards the top
            assert xs[0] < xs[1] < xs[2]  # pile 3 is further in than pile 1
            assert xs[11] > xs[10]  # pile 11 further in than pile 12


def centre_of(page: Page, place: str) -> tuple[float, float]:
    box = page.locator(f"[data-place={place}] .card").bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_seahaven_new_and_in_play_on_a_phone_and_a_desktop(page: Page):
    player = SeahavenPlayer(page, SH)
    player.open()
    for moves in (0, 10):
        if moves:
            page.set_viewport_size(DESKTOP)
            for move in sh_line(SH)[:moves]:
                card = moving_card(player.mirror, move)
                if auto_move(player.mirror, card, move.source) == move:
                    player.double(move)
                else:
                    player.drag(move)
        for size in each_size_laid_out(page, "seahaven", moves):
            # the top row (cells, then foundations) is one line of places on every screen
            top = boxes(page, ".top-row [data-place]")
            assert len({round(b["y"]) for b in top}) == 1, top
            if size is DESKTOP:
                assert_places_on_screen(page)


def visible_strips(page: Page, place: str) -> list[float]:
    """How much of each card of a column shows: down to the next card, or all of the last."""
    return page.evaluate(
        """(place) => {
          const cards = [...document.querySelectorAll(`[data-place=${place}] .card`)];
          return cards.map((card, i) => {
            const r = card.getBoundingClientRect();
            return i + 1 < cards.length ? cards[i + 1].getBoundingClientRect().top - r.top
                                        : r.height;
          });
        }""",
        place,
    )


def test_a_long_seahaven_column_stays_on_a_desktop_screen(page: Page):
    """Column 3 of SH1-C4-AAAAAED holds 13 cards after 16 moves of its solver line."""
    line = sh_line(SH_LONG)
    game = sh_reach(page, SH_LONG, line[:16])
    longest = max(COLUMNS, key=lambda c: len(game.position.columns[c]))
    assert len(game.position.columns[longest]) >= 13
    place = sh_place(longest)
    column = page.locator(f"[data-place={place}]")
    expect(column).to_have_attribute("data-count", str(len(game.position.columns[longest])))
    screenshot(page, "seahaven-desktop-long-column")
    strips = visible_strips(page, place)
    assert len(strips) == len(game.position.columns[longest])
    assert min(strips) >= 24, strips  # a 24 px target even where the cards overlap
    last = column.locator(".card").last.bounding_box()
    assert last is not None
    assert last["y"] >= 0 and last["y"] + last["height"] <= DESKTOP["height"], last
    assert_places_on_screen(page)
    assert_apart(page, "#board [data-place]")
    page.set_viewport_size(PHONE)
    screenshot(page, "seahaven-phone-long-column")
    assert min(visible_strips(page, place)) >= 24
    assert_no_sideways_scroll(page)
    assert_apart(page, "#board [data-place]")
