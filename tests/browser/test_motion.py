"""Cards that move and a win that feels like one (issue 16), in Chromium.

A watcher in the page (an init script, outside the app) notes every Web Animation the page
starts (by its id: ``slide card-AC``, ``leave hm-pile-1-3``, ``arrive hm-pile-1-2``) and samples
``document.getAnimations()`` every frame for the CSS ones (the cascade's ``fall``), so the tests
can say which animations ran — and that nothing at all moves under reduced motion. It can also
stretch the animations (``slow``), for the tests that tap while cards still move.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from app.engine.codes import DealCode
from app.engine.halfmoon import apply_move, deal
from app.engine.halfmoon import place_name as hm_place
from app.engine.seahaven import Seahaven
from tests.browser.conftest import (
    DESKTOP,
    PHONE,
    SCREENSHOTS,
    assert_accessible,
    screenshot,
)
from tests.browser.play import (
    HM,
    board,
    drag,
    hm_card,
    hm_line,
    hm_reach,
    sh_card,
    target_of,
)
from tests.browser.test_overlap import (
    SH_TWO_ACES,
    Posts,
    assert_same_after_reload,
    burst,
    latency,
    ready,
    snapshot,
)

WATCH = """
window.__motion = {seen: [], most: 0, slow: 1};
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  const m = window.__motion;
  if (options && typeof options === 'object') {
    options = Object.assign({}, options, {duration: (options.duration || 0) * m.slow});
    if (options.id && !m.seen.includes(options.id)) m.seen.push(options.id);
  }
  return animate.call(this, frames, options);
};
(function look() {
  const m = window.__motion;
  const running = document.getAnimations();
  m.most = Math.max(m.most, running.length);
  for (const a of running) {
    const what = a.animationName || a.id;
    if (what && !m.seen.includes(what)) m.seen.push(what);
  }
  requestAnimationFrame(look);
})();
"""

SLOW = 20
"""How much longer the tests that tap during an animation make them (a 200 ms slide: 4 s)."""

SLIDE_AC = "slide card-AC"
"""The ace of clubs travelling from one box to another."""

PAIR = ("pile-1", "pile-5")
"""A pair summing to 11 at HM1-N-AAAAAAB's deal (tests/browser/test_overlap.py)."""


def motion(page: Page) -> dict[str, Any]:
    seen: dict[str, Any] = page.evaluate("() => window.__motion")
    return seen


def reset(page: Page) -> None:
    page.evaluate("() => { window.__motion.seen = []; window.__motion.most = 0; }")


def settled(page: Page) -> None:
    """Until no card moves and two frames are drawn."""
    page.wait_for_function("() => !document.getAnimations().some((a) => a.id)")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def summary_coming_in(page: Page) -> None:
    """Until the win's summary has begun to come in (its CSS animation past its delay, or over),
    the cards falling around it: the moment the celebration's screenshots catch."""
    page.wait_for_function(
        """() => window.__motion.seen.includes('summary-in') && !document.getAnimations().some(
          (a) => a.animationName === 'summary-in' && a.currentTime < a.effect.getTiming().delay)"""
    )


def answered(page: Page) -> None:
    """Until every game form sent has its answer drawn (static/js/instant.js: the board carries
    data-pending while a move drawn at once waits for the server)."""
    page.wait_for_function("() => !document.querySelector('#board[data-pending]')")


@pytest.fixture
def watched(new_context: Callable[..., BrowserContext]) -> Callable[..., Page]:
    def make(**options: Any) -> Page:
        context = new_context(**options)
        context.add_init_script(WATCH)
        return context.new_page()

    return make


# --- cards move --------------------------------------------------------------------------------


def two_aces(watched):
    """A page on the Seahaven deal with two aces on top of their columns, ready to play."""
    page = watched()
    page.goto(f"/seahaven/{SH_TWO_ACES}")
    ready(page)
    return page


def expect_home(page, card: str) -> None:
    """``card`` is drawn on its foundation."""
    expect(page.locator(f"[data-place=foundation-{card[-1]}] [data-card={card}]")).to_have_count(1)


def test_a_removed_half_moon_pair_leaves_visibly_and_the_cards_under_it_arrive(watched):
    page = watched()
    page.goto(f"/half-moon/{HM}")
    ready(page)
    first, second = PAIR
    under = {p: deal(DealCode.parse(HM)).count(int(p.split("-")[1]) - 1) for p in PAIR}
    hm_card(page, first).click()
    expect(hm_card(page, first)).to_have_attribute("aria-pressed", "true")
    answered(page)  # the selection is drawn at once (issue 32): its answer too has come
    settled(page)
    assert motion(page)["seen"] == [f"slide hm-{first}-{under[first]}"]  # lifted, not jumped
    reset(page)
    hm_card(page, second).click()
    expect(board(page)).to_have_attribute("data-moves", "1")
    settled(page)
    seen = motion(page)
    assert sorted(seen["seen"]) == sorted(
        [f"leave hm-{place}-{under[place]}" for place in PAIR]
        + [f"arrive hm-{place}-{under[place] - 1}" for place in PAIR]
    )
    assert page.locator(f"#card-{first}").get_attribute("data-motion") == (
        f"hm-{first}-{under[first] - 1}"
    )
    # the leaving copies are gone, and never were a control
    expect(page.locator(".motion-copy")).to_have_count(0)
    expect(page.locator(".card.moving")).to_have_count(0)


def test_a_seahaven_card_slides_from_its_source_to_its_destination(watched):
    page = two_aces(watched)
    reset(page)
    sh_card(page, "AC").click()  # an ace on top of its column goes home
    expect_home(page, "AC")
    settled(page)
    seen = motion(page)
    assert seen["seen"] == [SLIDE_AC]


def test_a_refused_drop_travels_back_to_where_it_came_from(watched):
    page = two_aces(watched)
    before = snapshot(page)
    game = Seahaven(DealCode.parse(SH_TWO_ACES))
    assert str(game.position.columns[2][-1]) == "AC"
    reset(page)
    posts = Posts(page)
    drag(page, sh_card(page, "AC"), target_of(page, "column-1"))  # an ace on a column: refused
    posts.wait(page, 1)
    assert posts.sent == ["move"]
    settled(page)
    seen = motion(page)
    assert SLIDE_AC in seen["seen"], seen["seen"]
    assert snapshot(page) == before
    expect(page.locator(".drag-ghost")).to_have_count(0)
    expect(page.locator(".dragging")).to_have_count(0)
    assert_same_after_reload(page)


def test_an_accepted_drop_lands_where_it_was_dropped_and_no_ghost_stays(watched):
    page = two_aces(watched)
    reset(page)
    drag(page, sh_card(page, "AC"), target_of(page, "foundation-C"))
    expect_home(page, "AC")
    settled(page)
    seen = motion(page)
    assert SLIDE_AC in seen["seen"], seen["seen"]
    expect(page.locator(".drag-ghost")).to_have_count(0)
    expect(page.locator(".dragging")).to_have_count(0)
    assert_same_after_reload(page)


def test_nothing_moves_under_reduced_motion(watched):
    page = watched(reduced_motion="reduce")
    page.goto(f"/half-moon/{HM}")
    ready(page)
    for place in PAIR:
        hm_card(page, place).click()
        page.wait_for_timeout(150)
    expect(board(page)).to_have_attribute("data-moves", "1")
    page.goto(f"/seahaven/{SH_TWO_ACES}")
    ready(page)
    sh_card(page, "AC").click()
    expect_home(page, "AC")
    drag(page, sh_card(page, "AD"), target_of(page, "foundation-D"))
    expect_home(page, "AD")
    page.wait_for_timeout(300)
    seen = motion(page)
    assert (seen["most"], seen["seen"]) == (0, [])
    assert page.evaluate("() => document.getAnimations().length") == 0


# --- animation never delays the next tap ---------------------------------------------------------


def _slow(page: Page) -> None:
    page.evaluate(f"() => {{ window.__motion.slow = {SLOW}; }}")


def running(page: Page) -> bool:
    """A card still moves (a slide, a leaving or arriving card)."""
    script = "() => document.getAnimations().some((a) => a.id && a.playState === 'running')"
    return bool(page.evaluate(script))


def press(page: Page, selector: str, *, double: bool = False) -> None:
    """A player's click where the element is drawn now, even while it moves; Playwright's own
    click would wait for it to stand still."""
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    x, y = box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 9)
    if double:
        page.mouse.dblclick(x, y)
    else:
        page.mouse.click(x, y)


def test_a_tap_during_a_removal_animation_is_posted_and_drawn_at_once(watched):
    page = watched()
    page.goto(f"/half-moon/{HM}")
    ready(page)
    _slow(page)
    posts = Posts(page)
    line = hm_line(HM)
    (first, second), (third, fourth) = line[0][:2], line[1][:2]
    assert len(line[0]) == len(line[1]) == 2
    press(page, f"#card-{hm_place(first)}")
    expect(hm_card(page, first)).to_have_attribute("aria-pressed", "true")
    # the page draws the selection itself (issue 32: static/js/instant.js), raised by the
    # stylesheet's own transition; the answer finds it drawn: no slide of motion.js follows
    press(page, f"#card-{hm_place(second)}")
    expect(board(page)).to_have_attribute("data-moves", "1")
    assert running(page)  # the removal's: the cards are still leaving
    press(page, f"#card-{hm_place(third)}")
    expect(hm_card(page, third)).to_have_attribute("aria-pressed", "true")  # drawn by the page
    press(page, f"#card-{hm_place(fourth)}")
    expect(board(page)).to_have_attribute("data-moves", "2")
    assert running(page)  # drawn while its own animation still runs: nothing waited 4 s
    posts.wait(page, 4)
    assert posts.sent == ["tap"] * 4
    assert [b["place"][0] for b in posts.bodies] == [
        hm_place(p) for p in (first, second, third, fourth)
    ]
    position = apply_move(apply_move(deal(DealCode.parse(HM)), line[0]), line[1])
    shown = assert_same_after_reload(page)
    for place in range(20):
        top = position.top(place)
        entry = next(p for p in shown["places"] if p[0] == hm_place(place))
        assert entry[1] == str(position.count(place))
        assert entry[2] == ([] if top is None else [str(top)])


def test_a_card_on_its_way_takes_no_press_the_card_under_it_does(watched):
    page = two_aces(watched)
    _slow(page)
    # the answer held until the flying card is measured: on a loaded machine it could land
    # between finding the card and measuring it, and redraw the foundation under the test
    held: list[Any] = []
    page.route("**/seahaven/*/*", lambda route: held.append(route))
    press(page, "#card-AD")  # home with one tap: a 4 s slide over the board
    expect_home(page, "AD")
    assert running(page)
    flying = page.locator("#card-AD")
    expect(flying).to_have_class(re.compile(r"\bflying\b"))
    box = flying.bounding_box()
    assert box is not None
    under = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('#card-AD') === null",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert under  # where it is drawn, a press reaches what is laid out there
    for route in held:
        route.continue_()
    page.unroute("**/seahaven/*/*")
    settled(page)
    expect(page.locator(".card.moving, .card.flying")).to_have_count(0)


def test_a_seahaven_double_tap_during_an_animation_stays_a_double_tap(watched):
    """A card one tap only selects (the page draws that at once, issue 32): both clicks land on
    it while another card still slides, so they are a double tap (a card a tap sends home is
    drawn gone at once, and a second click there is a new tap on the card it uncovered)."""
    page = two_aces(watched)
    _slow(page)
    posts = Posts(page)
    press(page, "#card-AD")  # home with one tap: a 4 s slide
    expect_home(page, "AD")
    assert running(page)
    press(page, "#card-10D", double=True)  # both clicks while AD still slides
    expect(page.locator("[data-place=cell-3] [data-card='10D']")).to_have_count(1)
    posts.wait(page, 3)
    assert posts.sent == ["tap", "tap", "auto"], posts.sent
    assert posts.bodies[2]["double"] == ["1"]
    assert posts.bodies[2]["card"] == ["10D"]
    assert_same_after_reload(page)


@pytest.mark.parametrize("ms", [0, 300])
def test_taps_during_animations_with_latency_leave_the_screen_equal_to_the_server(watched, ms):
    page = watched()
    latency(page.context, page, ms)
    page.goto(f"/half-moon/{HM}")
    ready(page)
    _slow(page)
    posts = Posts(page)
    line = hm_line(HM)
    taps = [p for removal in line[:3] for p in removal]
    # each place where it is at the deal (a removed card's place shows the card under it)
    burst(page, [f"#card-{hm_place(place)}" for place in taps], 120)
    posts.wait(page, len(taps))  # every tap posted (a tap racing an answer may be stale)
    assert_same_after_reload(page)


# --- the win -------------------------------------------------------------------------------------


def _win_half_moon(page: Page) -> None:
    """Reach the last removal through plain posts, then make it with the mouse."""
    line = hm_line(HM)
    hm_reach(page, HM, line[:-1])
    ready(page)
    for place in line[-1]:
        hm_card(page, place).click()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_win_cascades_then_shows_the_summary_with_the_focus_on_its_heading(watched, size):
    viewport = DESKTOP if size == "desktop" else PHONE
    page = watched(viewport=viewport)
    _win_half_moon(page)
    expect(board(page)).to_have_attribute("data-state", "won")
    expect(board(page)).to_have_class("board half-moon celebrating")
    summary_coming_in(page)
    assert "fall" in motion(page)["seen"], motion(page)["seen"]
    screenshot(page, f"half-moon-{size}-win-celebrating")
    expect(page.locator("#summary-title")).to_be_focused()
    expect(page.locator("#status")).to_contain_text("You won! 520 points in ")
    expect(page.locator("#summary-moves")).to_have_text("48")
    expect(page.locator("#summary-score")).to_have_text("520")
    assert page.locator("#summary-time").text_content() == page.locator("#clock").text_content()
    expect(board(page)).to_have_class("board half-moon", timeout=6000)
    screenshot(page, f"half-moon-{size}-win-summary")
    assert_accessible(page, f"Half Moon, won ({size})")


SUMMARY_TITLES = {"en": "You won!", "tr": "Kazandınız!", "bg": "Победа!"}


@pytest.mark.parametrize("lang", ["en", "tr", "bg"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_win_and_the_stats_page_in_each_language_fit_and_are_accessible(watched, size, lang):
    """The win mid-celebration, its summary and /stats in English, Turkish and Bulgarian (the
    browser's language chooses): no sideways scroll, the summary's text inside the board's
    width and the viewport, nothing untranslated, axe clean."""
    viewport = DESKTOP if size == "desktop" else PHONE
    page = watched(viewport=viewport, locale={"en": "en-US", "tr": "tr-TR", "bg": "bg-BG"}[lang])
    _win_half_moon(page)
    expect(board(page)).to_have_attribute("data-state", "won")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    summary_coming_in(page)
    still(page, f"win-{lang}-{size}-celebrating")
    expect(board(page)).to_have_class("board half-moon", timeout=6000)
    expect(page.locator("#summary-title")).to_have_text(SUMMARY_TITLES[lang])
    expect(page.locator("#bests li")).to_have_count(1)
    screenshot(page, f"win-{lang}-{size}-summary")
    width = viewport["width"]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    box = page.locator("#summary").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    for part in ("#summary-title", "#summary .figures", "#bests", "#ending-again", "#ending-new"):
        inner = page.locator(part).bounding_box()
        assert inner is not None, part
        assert box["x"] <= inner["x"] and inner["x"] + inner["width"] <= box["x"] + box["width"]
    assert_accessible(page, f"Half Moon, won ({lang}, {size})")
    page.goto("/stats")
    expect(page.locator('#totals tr[data-kind="HM"] [data-field="won"]')).to_have_text("1")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    screenshot(page, f"stats-{lang}-{size}")
    assert_accessible(page, f"/stats ({lang}, {size})")


def test_a_won_game_opened_again_does_not_celebrate_again(watched):
    page = watched()
    _win_half_moon(page)
    expect(board(page)).to_have_attribute("data-state", "won")
    page.reload()
    page.wait_for_timeout(300)
    expect(board(page)).to_have_class("board half-moon")
    assert "fall" not in motion(page)["seen"]


def test_a_win_under_reduced_motion_shows_the_summary_and_nothing_moves(watched):
    page = watched(reduced_motion="reduce")
    _win_half_moon(page)
    expect(board(page)).to_have_attribute("data-state", "won")
    expect(page.locator("#summary-title")).to_be_focused()
    page.wait_for_timeout(300)
    expect(board(page)).to_have_class("board half-moon")
    seen = motion(page)
    assert (seen["seen"], seen["most"]) == ([], 0)
    assert page.evaluate("() => document.getAnimations().length") == 0
    expect(page.locator(".cascade")).to_be_hidden()


def test_play_this_deal_again_starts_the_deal_from_the_beginning(watched):
    page = watched()
    _win_half_moon(page)
    expect(board(page)).to_have_attribute("data-state", "won")
    page.locator("#ending-again").click()
    expect(board(page)).to_have_attribute("data-moves", "0")
    expect(board(page)).to_have_attribute("data-state", "playing")
    expect(page.locator("#board [data-card]")).to_have_count(20)
    page.goto("/")
    expect(page.locator(".continue li").first).to_contain_text("won before in")


def still(page: Page, name: str) -> None:
    """The viewport only, as the player sees it."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_screenshots_of_cards_in_motion(watched, size):
    """A Half Moon pair leaving and a Seahaven card sliding home, caught on the way (the
    animations slowed to 4 s)."""
    page = watched(viewport=DESKTOP if size == "desktop" else PHONE)
    page.goto(f"/half-moon/{HM}")
    ready(page)
    _slow(page)
    first, second = PAIR
    press(page, f"#card-{first}")
    expect(hm_card(page, first)).to_have_attribute("aria-pressed", "true")
    press(page, f"#card-{second}")
    expect(board(page)).to_have_attribute("data-moves", "1")
    page.wait_for_timeout(1200)
    assert running(page)
    still(page, f"half-moon-{size}-removal-in-motion")
    page.goto(f"/seahaven/{SH_TWO_ACES}")
    ready(page)
    _slow(page)
    press(page, "#card-AC")
    expect_home(page, "AC")
    page.wait_for_timeout(1600)
    assert running(page)
    still(page, f"seahaven-{size}-move-in-motion")
