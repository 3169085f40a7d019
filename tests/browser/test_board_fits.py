"""Issue 35 item 3 in Chromium: the board uses the phone. The cards are sized to the screen, a
Seahaven card's letters read at 16 px on a 390 px phone, the fans open over the height there is
and close up as a column grows, and nothing of the game is below the fold: the board, its
captions, the controls and the live region all on the first screen, at 390 × 844 and 844 × 390
(touch), and at 1440 × 900, a fresh deal and a Seahaven column of 13 and of 17 cards.

What is drawn is read from ``getBoundingClientRect`` and computed styles.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import screenshot
from tests.browser.geometry import assert_apart, assert_labels_clear_of_cards
from tests.browser.play import HM, SH, SH_LONG, board, sh_line, sh_reach
from tests.browser.test_phone import LANDSCAPE_TOUCH, PHONE_TOUCH

SIZES: dict[str, dict[str, Any]] = {
    "phone": PHONE_TOUCH,
    "small phone": {**PHONE_TOUCH, "viewport": {"width": 360, "height": 780}},
    "landscape": LANDSCAPE_TOUCH,
    "desktop": {},
}

OFF_SCREEN = """() => {
  const w = innerWidth, h = innerHeight;
  return [...document.querySelectorAll(
      '#board .card, #board .label, #info, #info .controls > *, #status')]
    .filter((e) => e.getClientRects().length && !e.closest('.ending'))
    .map((e) => { const r = e.getBoundingClientRect();
      return {name: e.id || e.dataset.card || e.className, top: r.top, bottom: r.bottom,
              left: r.left, right: r.right}; })
    .filter((b) => b.top < 0 || b.left < 0 || b.bottom > h + 0.5 || b.right > w + 0.5);
}"""


def assert_nothing_below_the_fold(page: Page) -> None:
    page.evaluate("() => window.scrollTo(0, 0)")
    assert page.evaluate(OFF_SCREEN) == []
    height = page.evaluate("() => document.documentElement.scrollHeight")
    assert height <= page.evaluate("() => innerHeight"), height  # nothing to scroll to


LONGEST = 17
"""A Seahaven column holds at most 17 cards: five dealt over a king, then queen to ace of its
suit. No solver line in the tests reaches it: :func:`lengthen` draws it in the page."""

LENGTHEN = """(n) => {
  const place = document.querySelector('[data-place=column-3]');
  const fan = place.querySelector('.fan');
  const cards = [...fan.querySelectorAll('.card')];
  for (let i = 0; fan.children.length < n; i++) {
    const copy = cards[i % cards.length].cloneNode(true);
    copy.removeAttribute('id');
    fan.appendChild(copy);
  }
  place.dataset.count = String(n);
  place.className = place.className.replace(/fan-\\S+/, 'fan-tighter');
}"""


def lengthen(page: Page, n: int) -> None:
    """Column 3 drawn with ``n`` cards (copies of its own), its count and its fan's class as
    the server writes them for ``n`` cards: what the stylesheet draws for the longest column."""
    page.evaluate(LENGTHEN, n)


def strips(page: Page, place: str) -> list[float]:
    """The visible height of each covered card of a column (down to the next card)."""
    tops: list[float] = page.locator(f"[data-place={place}] .card").evaluate_all(
        "(cs) => cs.map((c) => c.getBoundingClientRect().top)"
    )
    return [b - a for a, b in pairwise(tops)]


FACE = """() => [...document.querySelectorAll('#board .card[data-card]')].map((c) => {
  const r = c.getBoundingClientRect(), rank = c.querySelector('.rank'),
        suit = c.querySelector('.suit');
  return {card: c.dataset.card, width: r.width, height: r.height, right: r.right,
          rank: parseFloat(getComputedStyle(rank).fontSize),
          suit: parseFloat(getComputedStyle(suit).fontSize),
          ink: Math.max(rank.getBoundingClientRect().right, suit.getBoundingClientRect().right)};
})"""


@pytest.mark.parametrize("size", ["phone", "landscape", "desktop"])
def test_seahaven_cards_fill_the_width_with_letters_that_read(new_context, size):
    """At 390 px a card was 36 × 51 with 12.8 px letters: now its rank and suit are 16 px (and
    "10♠" still inside its card); the ten columns take at least 90 % of the board's width, and
    in landscape the width beside the info bar and the cells and foundations."""
    page = new_context(**SIZES[size]).new_page()
    page.goto(f"/seahaven/{SH}")
    faces = page.evaluate(FACE)
    assert len(faces) == 52
    least = {"phone": 16, "landscape": 14, "desktop": 18}[size]
    assert min(f["rank"] for f in faces) >= least, faces[0]
    assert min(f["suit"] for f in faces) >= least, faces[0]
    assert [f["card"] for f in faces if f["ink"] > f["right"] - 1] == []  # the letters inside
    row = page.locator("#board .columns").bounding_box()
    first = page.locator("[data-place=column-1] .card").first.bounding_box()
    last = page.locator("[data-place=column-10] .card").first.bounding_box()
    assert row is not None and first is not None and last is not None
    span = last["x"] + last["width"] - first["x"]
    assert span >= 0.9 * row["width"], (span, row)
    if size != "desktop":
        room = page.viewport_size["width"] if page.viewport_size else 0
        beside = page.locator("#info").bounding_box()
        assert beside is not None
        if size == "landscape":  # the info bar beside the board, the cells and foundations
            top = page.locator("#board .top-row").bounding_box()  # beside the columns
            assert top is not None
            room -= beside["width"] + top["width"]
        assert span >= 0.9 * (room - 40), (span, room)


@pytest.mark.parametrize("size", ["phone", "landscape", "desktop"])
@pytest.mark.parametrize("game", ["half-moon", "seahaven"])
def test_a_fresh_deal_has_nothing_below_the_fold(new_context, game, size):
    page = new_context(**SIZES[size]).new_page()
    page.goto(f"/{game}/{HM if game == 'half-moon' else SH}")
    expect(board(page)).to_have_attribute("data-moves", "0")
    screenshot(page, f"issue35-fits-{game}-{size}")
    assert_nothing_below_the_fold(page)


@pytest.mark.parametrize("size", ["phone", "landscape", "desktop"])
def test_a_long_seahaven_column_closes_up_and_stays_on_screen(new_context, size):
    """A 13-card column (after 16 moves of SH1-C4-AAAAAED's solver line), then the longest a
    column can be, 17: the fan closes up, the board and everything round it stay on the first
    screen; upright on a phone each covered card still shows a 24 px strip to tap."""
    page = new_context(**SIZES[size]).new_page()
    sh_reach(page, SH_LONG, sh_line(SH_LONG)[:16])
    expect(page.locator("[data-place=column-3]")).to_have_attribute("data-count", "13")
    loose = strips(page, "column-1")  # six cards: a short column keeps its open fan
    thirteen = strips(page, "column-3")
    screenshot(page, f"issue35-fits-sh-13-{size}")
    assert_nothing_below_the_fold(page)
    lengthen(page, LONGEST)
    seventeen = strips(page, "column-3")
    screenshot(page, f"issue35-fits-sh-17-{size}")
    assert_nothing_below_the_fold(page)
    assert len(seventeen) == LONGEST - 1
    assert max(seventeen) < max(thirteen) <= max(loose), (loose, thirteen, seventeen)
    if size != "landscape":
        assert min(seventeen) >= 24, seventeen
    else:  # 390 px of height: a strip still shows its card's rank
        rank = page.locator("[data-place=column-3] .card .rank").first.evaluate(
            "(e) => parseFloat(getComputedStyle(e).fontSize)"
        )
        assert min(seventeen) >= rank, (seventeen, rank)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_short_seahaven_column_fans_open_where_the_screen_is_tall(new_context, size):
    """Upright, the screen has height to spare: a fresh deal's five cards fan out so that each
    covered card shows at least 30 % of its height (it showed 32 px of 51 at 390 × 844, 33 of
    113 at 1440 × 900)."""
    page = new_context(**SIZES[size]).new_page()
    page.goto(f"/seahaven/{SH}")
    height = page.locator("[data-place=column-1] .card").first.bounding_box()
    assert height is not None
    assert min(strips(page, "column-1")) >= 0.3 * height["height"], strips(page, "column-1")


HM_BOARD = """() => {
  const places = [...document.querySelectorAll('#board [data-place]')];
  const card = document.querySelector('#board .card').getBoundingClientRect();
  return {bottom: Math.max(...places.map((p) => p.getBoundingClientRect().bottom)),
          places: places.length, card: card.width,
          scroll: document.scrollingElement.scrollHeight, height: innerHeight};
}"""


@pytest.mark.parametrize("size", ["phone", "small phone"])
def test_half_moon_upright_on_a_phone_uses_the_height(new_context, size):
    """Upright on a phone the arc's board ended at 579 of 844 px (551 of 780) and left the
    bottom quarter of the screen empty: now its rows spread down the height, its last place
    ends below 85 % of the screen's height, and still nothing is below the fold, nothing to
    scroll to, no two cards or captions overlap."""
    page = new_context(**SIZES[size]).new_page()
    page.goto(f"/half-moon/{HM}")
    expect(board(page)).to_have_attribute("data-moves", "0")
    screenshot(page, f"issue35-hm-height-{size.replace(' ', '-')}")
    drawn = page.evaluate(HM_BOARD)
    assert drawn["places"] == 20, drawn
    assert drawn["bottom"] >= 0.85 * drawn["height"], drawn
    assert drawn["scroll"] <= drawn["height"], drawn  # the page does not scroll
    assert_nothing_below_the_fold(page)
    assert_apart(page, "#board .card")
    assert_labels_clear_of_cards(page)


def test_half_moon_upright_under_the_how_to_play_then_without_it(new_context):
    """While a newcomer's how-to stands over the foot of the screen the board keeps its compact
    rows, above the panel, and the page scrolls the rest clear of it (main's padding under the
    panel); dismissed, the rows spread down the height and nothing scrolls."""
    page = new_context(newcomer=True, **SIZES["phone"]).new_page()
    page.goto(f"/half-moon/{HM}")
    howto = page.locator("#howto")
    expect(howto).to_be_visible()
    panel = howto.bounding_box()
    assert panel is not None
    under = page.evaluate(HM_BOARD)
    assert under["scroll"] - under["height"] >= under["bottom"] - panel["y"], (under, panel)
    page.locator("#howto-close").click()
    expect(howto).to_be_hidden()
    drawn = page.evaluate(HM_BOARD)
    assert drawn["bottom"] >= 0.85 * drawn["height"] > under["bottom"], (under, drawn)
    assert_nothing_below_the_fold(page)
