"""The player's own look in Chromium (issue 27), at phone (390 × 844, touch) and desktop
(1440 × 900) size: four-colour suits, left hand, the dark theme and zen, each with a
screenshot under test-artifacts/screenshots/ and measured the way a player sees it (computed
colours and their contrast on the card face, boxes); axe finds nothing in any combination
that changes colours; the settings form works without JavaScript."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import DESKTOP, PHONE, assert_accessible, screenshot
from tests.browser.play import HM, SH, board, hm_line, hm_remove, sh_line, sh_reach, token

SIZES = {"phone": {"viewport": PHONE, "has_touch": True}, "desktop": {"viewport": DESKTOP}}

LOOK = """(selector) => {
  const lum = (rgb) => {
    const [r, g, b] = rgb.match(/\\d+/g).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const card = document.querySelector(selector);
  const style = getComputedStyle(card);
  const [a, b] = [lum(style.color), lum(style.backgroundColor)].sort((x, y) => y - x);
  return {
    color: style.color,
    face: style.backgroundColor,
    ratio: (a + 0.05) / (b + 0.05),
    size: parseFloat(getComputedStyle(card.querySelector('.rank')).fontSize),
  };
}"""


def choose(page: Page, **fields: str) -> None:
    """POST the settings form's fields from this page (its token), then load it again."""
    response = page.request.post(
        "/settings", form={**fields, "token": token(page), "next": "/"}, max_redirects=0
    )
    assert response.status == 303
    page.reload()


def look(page: Page, card: str) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(LOOK, f'[data-card="{card}"]')
    return found


def seahaven_with_every_suit_on_top(page: Page) -> None:
    """SH a few moves in: a spade, a heart, a diamond and a club on top of columns."""
    sh_reach(page, SH, sh_line(SH)[:4])


def tops(page: Page) -> dict[str, str]:
    """A card of each suit among the columns' top cards."""
    cards: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('.place.column')].map((p) =>"
        " [...p.querySelectorAll('[data-card]')].map((c) => c.dataset.card).pop()).filter(Boolean)"
    )
    return {
        suit: next(c for c in cards if c.endswith(suit))
        for suit in "SHDC"
        if any(c.endswith(suit) for c in cards)
    }


@pytest.mark.parametrize("size", sorted(SIZES))
def test_four_colour_suits_each_readable_on_the_face_in_both_themes(
    new_context: Callable[..., BrowserContext], size: str
):
    page = new_context(**SIZES[size]).new_page()
    seahaven_with_every_suit_on_top(page)
    cards = tops(page)
    assert sorted(cards) == ["C", "D", "H", "S"], cards
    classic = {suit: look(page, card) for suit, card in cards.items()}
    assert classic["D"]["color"] == classic["H"]["color"] == "rgb(193, 18, 31)"
    assert classic["C"]["color"] == classic["S"]["color"] == "rgb(27, 27, 27)"
    choose(page, deck="four-colour")
    expect(page.locator("html")).to_have_attribute("data-deck", "four-colour")
    for theme in ("light", "dark"):
        choose(page, theme=theme)
        seen = {suit: look(page, card) for suit, card in cards.items()}
        assert {suit: s["color"] for suit, s in seen.items()} == {
            "S": "rgb(27, 27, 27)",
            "H": "rgb(193, 18, 31)",
            "D": "rgb(10, 71, 160)",
            "C": "rgb(10, 100, 40)",
        }
        assert all(s["ratio"] >= 4.5 for s in seen.values()), seen
        screenshot(page, f"prefs-four-colour-{theme}-{size}")
    if size == "phone":  # a Seahaven face upright: the classic letters already take all a
        # ten's face allows (16 px, issue 35); the four colours as large, never smaller
        # (larger where the face has room: see the next test)
        assert seen["D"]["size"] >= classic["D"]["size"] >= 16, (seen["D"], classic["D"])


GLYPHS = """() => [...document.querySelectorAll('#board .card[data-card]')].map((card) => {
  const box = card.getBoundingClientRect();
  const face = {left: box.left + card.clientLeft, right: box.right - card.clientLeft,
                top: box.top + card.clientTop, bottom: box.bottom - card.clientTop};
  const next = card.nextElementSibling;  // a fanned Seahaven card's strip ends at the next card
  const strip = next && next.matches('.card') ? next.getBoundingClientRect().top : face.bottom;
  let out = -Infinity;
  for (const glyph of card.querySelectorAll('.rank, .suit')) {
    const g = glyph.getBoundingClientRect();
    out = Math.max(out, face.left - g.left, g.right - face.right, face.top - g.top,
                   g.bottom - Math.min(face.bottom, strip));
  }
  return {card: card.dataset.card, out,
          size: parseFloat(getComputedStyle(card.querySelector('.rank')).fontSize)};
})"""
"""Every card's rank and suit against its face (inside its border) and, for a covered card of
a Seahaven fan, against the strip the next card leaves: how far the worst glyph sticks out
(negative: inside, by that much)."""

GLYPH_SIZES = {
    "360x780": {"width": 360, "height": 780},
    "390x844": PHONE,
    "844x390": {"width": 844, "height": 390},
}
TENS = "HM1-N-AAAAAV4"
"""A Half Moon deal with a ten of every suit on top (Seahaven's SH shows all four too)."""


@pytest.mark.parametrize("size", sorted(GLYPH_SIZES))
def test_every_rank_and_suit_stays_on_its_card_in_both_decks_and_four_colours_are_larger(
    new_context: Callable[..., BrowserContext], size: str
):
    """The larger four-colour glyphs ran off the tens (10♣ into the next column, 10♠ under its
    neighbour: 4 px at 390 px, 7 px at 360); a classic ten at 360 px by 1 px, and by 2.7 px
    when issue 35 drew Seahaven's letters 16 px there too.

    The four colours are drawn larger where the face has room: Half Moon's on every phone, and
    Seahaven's on a phone on its side. Upright, Seahaven's classic letters already take all a
    ten's face allows (16 px at 390 px, issue 35), so the four colours are the same size there,
    never smaller (they were 14.3 px beside the classic 16)."""
    page = new_context(viewport=GLYPH_SIZES[size], has_touch=True).new_page()
    page.goto(f"/half-moon/{TENS}")
    sizes: dict[tuple[str, str], float] = {}
    for deck in ("classic", "four-colour"):
        choose(page, deck=deck)
        for game, code in (("half-moon", TENS), ("seahaven", SH)):
            page.goto(f"/{game}/{code}")
            page.evaluate("() => document.fonts.ready")
            faces = page.evaluate(GLYPHS)
            tens = {face["card"] for face in faces if face["card"].startswith("10")}
            assert tens == {"10S", "10H", "10D", "10C"}, (game, tens)
            assert [(f["card"], round(f["out"], 1)) for f in faces if f["out"] > 0] == [], (
                game,
                deck,
            )
            sizes[game, deck] = max(face["size"] for face in faces)
            if deck == "four-colour":
                screenshot(page, f"prefs-four-colour-glyphs-{game}-{size}")
    assert sizes["half-moon", "four-colour"] > sizes["half-moon", "classic"], sizes
    if GLYPH_SIZES[size]["width"] > GLYPH_SIZES[size]["height"]:  # on its side: room to grow
        assert sizes["seahaven", "four-colour"] > sizes["seahaven", "classic"], sizes
    else:  # upright: the classic letters fill a ten's face; the four colours no smaller
        assert sizes["seahaven", "four-colour"] >= sizes["seahaven", "classic"], sizes


HANDS = {
    **SIZES,
    "landscape": {"viewport": {"width": 844, "height": 390}, "has_touch": True},
}

HAND_BOXES = """() => {
  const box = (e) => e.getBoundingClientRect().toJSON();
  const controls = [...document.querySelectorAll('#info .controls > *')].map(box);
  return {
    controls,
    left: Math.min(...controls.map((c) => c.left)),
    right: Math.max(...controls.map((c) => c.right)),
    top: Math.min(...controls.map((c) => c.top)),
    board: box(document.querySelector('#board')),
    places: [...document.querySelectorAll('#board .place')].map(box),
    cells: document.querySelector('.cells') && box(document.querySelector('.cells')),
    foundations: document.querySelector('.foundations') && box(document.querySelector('.foundations')),
    width: document.documentElement.clientWidth,
    scrollWidth: document.documentElement.scrollWidth,
  };
}"""


@pytest.mark.parametrize("size", sorted(HANDS))
def test_left_hand_mirrors_the_controls_to_the_left_edge_and_swaps_cells_and_foundations(
    new_context: Callable[..., BrowserContext], size: str
):
    """Right hand: the controls at the right edge, under the right thumb; left hand: at the
    left edge, the same height, in both games, upright, on its side and on a desktop. The
    board keeps its size and stays on screen; Seahaven's cells and foundations change sides;
    Half Moon's arc stays the arc (the documents fix it), only moved along with its board."""
    page = new_context(**HANDS[size]).new_page()
    for game, code in (("seahaven", SH), ("half-moon", HM)):
        page.goto(f"/{game}/{code}")
        choose(page, hand="right")
        right: dict[str, Any] = page.evaluate(HAND_BOXES)
        choose(page, hand="left")
        expect(page.locator("html")).to_have_attribute("data-hand", "left")
        left: dict[str, Any] = page.evaluate(HAND_BOXES)
        width = right["width"]
        assert right["right"] >= width - 16, (game, right["left"], right["right"])  # right edge
        assert left["left"] <= 16, (game, left["left"], left["right"])  # left edge
        # a mirror: as far from the left edge as they were from the right, at the same height
        assert abs(left["left"] - (width - right["right"])) <= 1, (game, left, right)
        assert abs(left["top"] - right["top"]) <= 1, (game, left["top"], right["top"])
        # the board keeps its size, on screen, clear of the controls, nothing scrolls sideways
        for hand in (right, left):
            board = hand["board"]
            assert board["left"] >= 0 and board["right"] <= width, (game, board)
            assert hand["scrollWidth"] == width
            assert all(
                c["right"] <= board["left"]
                or c["left"] >= board["right"]
                or c["bottom"] <= board["top"]
                or c["top"] >= board["bottom"]
                for c in hand["controls"]
            ), (game, hand["controls"], board)
        assert (left["board"]["width"], left["board"]["height"]) == (
            right["board"]["width"],
            right["board"]["height"],
        )
        if game == "seahaven":
            assert right["cells"]["x"] < right["foundations"]["x"]
            assert left["foundations"]["x"] < left["cells"]["x"]  # they changed sides
        else:  # the arc: every place where it was on its board

            def on_board(hand: dict[str, Any]) -> list[tuple[int, int]]:
                b = hand["board"]
                return [(round(p["x"] - b["x"]), round(p["y"] - b["y"])) for p in hand["places"]]

            assert on_board(left) == on_board(right)
        screenshot(page, f"prefs-left-hand-{game}-{size}")


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_dark_theme_overrides_a_light_system_and_light_a_dark_one(
    new_context: Callable[..., BrowserContext], size: str
):
    page = new_context(color_scheme="light", **SIZES[size]).new_page()
    page.goto(f"/half-moon/{HM}")

    def felt() -> str:
        found: str = page.evaluate("() => getComputedStyle(document.body).backgroundImage")
        return found

    assert "rgb(15, 92, 58)" in felt()
    choose(page, theme="dark")
    assert "rgb(35, 39, 43)" in felt()  # a charcoal table (issue 35)
    assert page.evaluate("() => getComputedStyle(document.documentElement).colorScheme") == "dark"
    face = look(page, page.locator("[data-card]").first.get_attribute("data-card") or "")
    assert face["face"] == "rgb(233, 233, 225)"
    screenshot(page, f"prefs-dark-{size}")
    page.emulate_media(color_scheme="dark")
    choose(page, theme="light")
    assert "rgb(15, 92, 58)" in felt()  # light, though the system is dark
    choose(page, theme="auto")
    assert "rgb(35, 39, 43)" in felt()  # auto follows the (dark) system


@pytest.mark.parametrize("size", sorted(SIZES))
def test_zen_draws_no_clock_and_no_score_while_playing_and_at_the_win(
    new_context: Callable[..., BrowserContext], size: str
):
    page = new_context(**SIZES[size]).new_page()
    page.goto(f"/half-moon/{HM}")
    choose(page, zen="on")
    expect(page.locator("#stats dt")).to_have_text(["Moves", "Deal"])
    assert page.locator("#clock, #score, [data-score]").count() == 0
    line = hm_line()
    for i, removal in enumerate(line[:3]):
        hm_remove(page, removal, i + 1)
    assert page.locator("#clock, #score, [data-score]").count() == 0
    assert "point" not in (page.locator("#status").text_content() or "")
    screenshot(page, f"prefs-zen-half-moon-{size}")
    for i, removal in enumerate(line[3:], start=4):
        hm_remove(page, removal, i)
    expect(board(page)).to_have_attribute("data-state", "won")
    expect(page.locator("#summary dt")).to_have_text(["Moves"])
    assert page.locator("#summary-time, #summary-score, #clock").count() == 0
    expect(board(page)).not_to_have_class("celebrating", timeout=8_000)  # the summary shows
    expect(page.locator("#summary")).to_be_visible()
    screenshot(page, f"prefs-zen-won-{size}")


COLOURS = [(deck, theme) for deck in ("classic", "four-colour") for theme in ("light", "dark")]


@pytest.mark.parametrize(("deck", "theme"), COLOURS)
def test_axe_finds_nothing_in_any_colour_combination(
    new_context: Callable[..., BrowserContext], deck: str, theme: str
):
    page = new_context().new_page()
    page.goto(f"/half-moon/{HM}")
    choose(page, deck=deck, theme=theme, placement_help="on", zen="on", hand="left")
    hm_remove(page, hm_line()[0], 1)
    page.locator("#card-pile-1").click()  # a selection, with the others dimmed
    expect(page.locator("#card-pile-1")).to_have_attribute("aria-pressed", "true")
    assert_accessible(page, f"Half Moon, {deck}, {theme}, dimmed cards")
    seahaven_with_every_suit_on_top(page)
    assert_accessible(page, f"Seahaven, {deck}, {theme}")
    page.goto("/")
    page.locator("details.settings summary").click()
    assert_accessible(page, f"home with the settings open, {deck}, {theme}")


def test_the_settings_form_sets_the_look_without_javascript(
    new_context: Callable[..., BrowserContext],
):
    page = new_context(java_script_enabled=False).new_page()
    page.goto(f"/seahaven/{SH}")
    page.locator("details.settings summary").click()
    form = page.locator("details.settings form")
    form.get_by_text("Four colours").click()  # one segment each (issue 35)
    form.get_by_text("Dark", exact=True).click()
    form.get_by_text("Left hand").click()
    form.locator("input[type=checkbox][name=zen]").check()
    form.locator("#settings-save").click()
    root = page.locator("html")
    expect(root).to_have_attribute("data-deck", "four-colour")
    expect(root).to_have_attribute("data-theme", "dark")
    expect(root).to_have_attribute("data-hand", "left")
    expect(root).to_have_attribute("data-zen", "on")
    assert page.url.endswith(f"/seahaven/{SH}")
    assert page.locator("#clock").count() == 0
