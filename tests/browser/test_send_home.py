"""*Send all home* in Chromium (issue 27): the button appears with the move that leaves only
foundation moves (never before), one click sends every card home in order with the FLIP
motion, one Undo takes it all back, and the screen always equals the server's board."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import PHONE, assert_accessible, screenshot
from tests.browser.play import SH, SeahavenPlayer, board, sh_line, sh_reach, token

FIRST = 68
"""SH's solver line leaves only foundation moves after its 68th move (tests/engine)."""

WATCH = """
window.__flights = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  if (options && options.id) window.__flights.push([options.id, options.delay || 0]);
  return animate.call(this, frames, options);
};
"""


def at_the_last_ordinary_move(page: Page) -> SeahavenPlayer:
    """The deal one move before the offer: that move is then made by the player's drag."""
    line = sh_line(SH)
    game = sh_reach(page, SH, line[: FIRST - 1])
    player = SeahavenPlayer(page, SH)
    player.mirror = game
    expect(page.locator("#send-home")).to_have_count(0)
    player.drag(line[FIRST - 1])
    return player


def test_the_offer_appears_with_the_move_and_sends_every_card_home_in_order(
    new_context: Callable[..., BrowserContext],
):
    context = new_context()
    context.add_init_script(WATCH)
    page = context.new_page()
    at_the_last_ordinary_move(page)
    offer = page.locator("#send-home")
    expect(offer).to_be_visible()
    expect(page.locator("#control-home")).to_have_text("Send all home")
    assert_accessible(page, "Seahaven with Send all home offered")
    screenshot(page, "send-home-offered-desktop")
    page.evaluate("() => { window.__flights = []; }")
    page.locator("#control-home").click()
    expect(board(page)).to_have_attribute("data-state", "won")
    expect(board(page)).to_have_attribute("data-moves", "82")
    expect(board(page)).to_have_attribute("data-score", "520")
    expect(page.locator("#status")).to_contain_text("14 cards sent home.")
    order = page.locator("#status").get_attribute("data-flight")
    assert order is not None
    sent = order.split()
    assert len(sent) == 14
    flights = page.evaluate("() => window.__flights")
    delays = {}
    for ident, delay in flights:
        kind, _, key = ident.partition(" ")
        if kind in ("home", "slide") and key in sent:
            delays[key] = delay
    assert sorted(delays) == sorted(sent)  # every card sent travels, from its place
    assert [delays[key] for key in sent] == sorted(delays.values())  # one after another
    assert len(set(delays.values())) == len(sent)
    page.wait_for_function("() => !document.getAnimations().some((a) => a.id)")
    for suit in "SHDC":
        expect(page.locator(f"[data-place=foundation-{suit}]")).to_have_attribute(
            "data-count", "13"
        )
    # one Undo takes all of it back, and the offer is there again
    page.locator("#ending-new").wait_for()
    page.keyboard.press("u")
    expect(board(page)).to_have_attribute("data-moves", str(FIRST))
    expect(board(page)).to_have_attribute("data-state", "playing")
    expect(offer).to_be_visible()
    page.reload()
    expect(board(page)).to_have_attribute("data-moves", str(FIRST))
    expect(page.locator("#send-home")).to_be_visible()


def test_send_all_home_on_a_phone_by_touch(new_context: Callable[..., BrowserContext]):
    context = new_context(viewport=PHONE, has_touch=True)
    page = context.new_page()
    at_the_last_ordinary_move(page)
    button = page.locator("#control-home")
    expect(button).to_be_visible()
    box = button.bounding_box()
    assert box is not None and box["height"] >= 24 and box["width"] >= 24
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    screenshot(page, "send-home-offered-phone")
    button.tap()
    expect(board(page)).to_have_attribute("data-state", "won")


OFFER_BOXES = """() => {
  const box = (e) => e.getBoundingClientRect().toJSON();
  return {
    offer: box(document.querySelector('#send-home')),
    button: box(document.querySelector('#control-home')),
    cards: [...document.querySelectorAll('#board .card')].map(box),
    info: [...document.querySelectorAll('#info, #status')].map(box),
    width: document.documentElement.clientWidth,
    height: innerHeight,
  };
}"""


def apart(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["right"] <= b["left"]
        or b["right"] <= a["left"]
        or a["bottom"] <= b["top"]
        or b["bottom"] <= a["top"]
    )


@pytest.mark.parametrize("hand", ["right", "left"])
@pytest.mark.parametrize(
    "size",
    [{"width": 390, "height": 844}, {"width": 844, "height": 390}],
    ids=["upright", "landscape"],
)
def test_on_a_phone_the_offer_is_on_screen_at_the_hands_edge(
    new_context: Callable[..., BrowserContext], size: dict[str, int], hand: str
):
    """On a landscape phone the offer sat under the board, below the fold (its button at
    y = 420 of 390). On a phone it stands at the foot of the screen, as the end box does, at
    the edge of the player's hand; on its side it sits in the info bar's column, on no card."""
    page = new_context(viewport=size, has_touch=True).new_page()
    page.goto(f"/seahaven/{SH}")
    response = page.request.post(
        "/settings", form={"hand": hand, "token": token(page), "next": "/"}, max_redirects=0
    )
    assert response.status == 303
    sh_reach(page, SH, sh_line(SH)[:FIRST])
    page.evaluate("() => scrollTo(0, 0)")
    seen = page.evaluate(OFFER_BOXES)
    button, offer = seen["button"], seen["offer"]
    assert button["top"] >= 0 and button["bottom"] <= seen["height"], button  # no scrolling
    assert offer["left"] >= 0 and offer["right"] <= seen["width"], offer
    if hand == "right":
        assert offer["right"] >= seen["width"] - 16, offer
    else:
        assert offer["left"] <= 16, offer
    if size["width"] > size["height"]:  # beside the board: on no card, over no info
        assert all(apart(offer, card) for card in seen["cards"]), offer
        assert all(apart(offer, part) for part in seen["info"]), (offer, seen["info"])
    screenshot(page, f"send-home-offered-{'landscape' if size['width'] > 390 else 'phone'}-{hand}")
    # the page scrolls every card out from under it
    page.evaluate("() => scrollTo(0, document.documentElement.scrollHeight)")
    seen = page.evaluate(OFFER_BOXES)
    assert all(apart(seen["offer"], card) for card in seen["cards"])
    page.locator("#control-home").tap()
    expect(board(page)).to_have_attribute("data-state", "won")


def test_send_all_home_without_javascript(new_context: Callable[..., BrowserContext]):
    page = new_context(java_script_enabled=False).new_page()
    line = sh_line(SH)
    sh_reach(page, SH, line[:FIRST])
    page.locator("#control-home").click()
    expect(board(page)).to_have_attribute("data-state", "won")
    expect(board(page)).to_have_attribute("data-moves", "82")
    page.locator("#ending-again").wait_for()
