"""Issue 32: the page answers a tap in the next frame, whatever the network, and the server's
answer stays the truth (static/js/instant.js).

Latency is added through Chromium's DevTools (``Network.emulateNetworkConditions``): 600 ms, so
anything on the screen right after a click was drawn by the page, not by an answer."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from app.engine.cards import Card
from app.engine.codes import DealCode
from app.engine.halfmoon import deal, legal_moves
from app.engine.halfmoon import place_name as hm_place
from app.engine.seahaven import COLUMNS, FOUNDATIONS, Move, Seahaven, foundation_place
from app.engine.seahaven import place_name as sh_place
from tests.browser.play import (
    HM,
    SH,
    hm_line,
    hm_reach,
    moving_card,
    post_form,
    sh_line,
    three_hearts_spot,
)
from tests.browser.test_overlap import (
    PAIR,
    SH_TWO_ACES,
    Posts,
    assert_same_after_reload,
    centre,
    latency,
    ready,
    snapshot,
)
from tests.browser.test_overlap import sh_places as sh_snapshot_places

SLOW = 600

PRESSED = "(selector) => [...document.querySelectorAll(selector)].map((c) => c.dataset.card)"


def pressed(page: Page) -> list[str]:
    """The cards drawn selected, in board order."""
    cards: list[str] = page.evaluate(PRESSED, "#board button.card[aria-pressed=true]")
    return cards


def waiting(page: Page) -> bool:
    """The board says a move is drawn ahead of the server (static/js/instant.js)."""
    return page.locator("#board").get_attribute("data-pending") is not None


UNANSWERED = ["playing", "0", "0"]
"""A fresh deal's state, score and moves on the board itself: a move drawn ahead of its answer
shows in the info bar, the board's own figures are the server's (only its answer sets them)."""


def click(page: Page, selector: str) -> None:
    x, y = centre(page, selector)
    page.mouse.click(x, y)


@pytest.mark.parametrize("game", ["half-moon", "seahaven"])
def test_a_card_shows_no_tap_highlight(page: Page, game: str):
    page.goto(f"/{game}/{HM if game == 'half-moon' else SH}")
    colour = page.locator("#board button.card").first.evaluate(
        "(c) => getComputedStyle(c).webkitTapHighlightColor"
    )
    assert colour == "rgba(0, 0, 0, 0)"


def _pair_drawn_unanswered(page: Page, posts: Posts, first: str, second: str) -> dict[str, Any]:
    """Tap a Half Moon pair on a slow network: both taps drawn (score 10, one move in the
    info bar) before any answer, the board's own figures still the server's."""
    click(page, f"#card-{first}")
    click(page, f"#card-{second}")
    drawn = snapshot(page)
    assert posts.done == 0
    assert drawn["board"] == UNANSWERED and waiting(page)
    assert drawn["info"][:2] == ["10", "1"]
    return drawn


def _hm_single_and_pair() -> tuple[str, tuple[str, str]]:
    """On HM's deal: a number card no other top card pairs with, and a pair."""
    position = deal(DealCode.parse(HM))
    pairs = [r for r in legal_moves(position) if len(r) == 2]
    paired = {p for r in pairs for p in r}
    single = next(
        p
        for p in range(12)
        if p not in paired and (top := position.top(p)) is not None and not top.is_face
    )
    first, second = pairs[0]
    return hm_place(single), (hm_place(first), hm_place(second))


def test_half_moon_selection_is_drawn_before_the_answer_and_the_answer_agrees(
    context: BrowserContext, page: Page
):
    single, (first, _) = _hm_single_and_pair()
    page.goto(f"/half-moon/{HM}")
    ready(page)
    posts = Posts(page)
    latency(context, page, SLOW)
    click(page, f"#card-{first}")
    # the next frame already shows the selection; no answer has come
    assert page.evaluate("() => new Promise((r) => requestAnimationFrame(() => r()))") is None
    first_card = page.locator(f"#card-{first}").get_attribute("data-card")
    assert pressed(page) == [first_card]
    assert posts.done == 0
    posts.wait(page, 1)
    assert pressed(page) == [first_card]
    # a tap that cannot pair clears the selection at once; the answer says so too
    click(page, f"#card-{single}")
    assert pressed(page) == []
    assert len(posts.sent) == 2 and posts.done == 1
    posts.wait(page, 2)
    assert pressed(page) == []
    shown = assert_same_after_reload(page)
    assert shown["board"] == ["playing", "0", "0"]


def test_seahaven_selection_of_a_run_is_drawn_before_the_answer(
    context: BrowserContext, page: Page
):
    game = Seahaven(DealCode.parse(SH))
    position = game.position
    # a top card that does not go home: a tap selects it
    column = next(
        c
        for c in COLUMNS
        if (top := position.columns[c][-1]) is not None
        and not position.accepts(foundation_place(top.suit), top)
    )
    card = position.columns[column][-1]
    page.goto(f"/seahaven/{SH}")
    ready(page)
    posts = Posts(page)
    latency(context, page, SLOW)
    click(page, f"#card-{card}")
    assert pressed(page) == [str(card)]
    assert posts.done == 0
    posts.wait(page, 1)
    assert pressed(page) == [str(card)]
    page.wait_for_timeout(400)  # past the double-tap window
    click(page, f"#card-{card}")  # the selected card again: cleared at once
    assert pressed(page) == []
    posts.wait(page, 2)
    assert pressed(page) == []
    assert sh_place(column) == page.locator(f"#card-{card}").evaluate("(c) => c.form.dataset.place")
    assert_same_after_reload(page)


def test_a_stale_board_shows_the_servers_board_when_the_answer_comes(new_context: Any, page: Page):
    """Another tab removed the pair meanwhile: this tab's tap is drawn at once (a selection),
    then the server's answer (the board moved on) replaces it: the screen equals a reload."""
    _, (first, second) = _hm_single_and_pair()
    page.goto(f"/half-moon/{HM}")
    ready(page)
    other = page.context.new_page()
    other.goto(f"/half-moon/{HM}")
    for place in (first, second):
        card = other.locator(f"#card-{place}").get_attribute("data-card")
        assert card is not None
        post_form(other, f"/half-moon/{HM}/tap", place=place, card=card)
    posts = Posts(page)
    latency(page.context, page, SLOW)
    before = page.locator(f"#card-{first}").get_attribute("data-card")
    click(page, f"#card-{first}")
    assert pressed(page) == [before]
    posts.wait(page, 1)
    shown = snapshot(page)
    page.reload()
    expect(page.locator("#board")).to_be_visible()
    assert snapshot(page) == shown
    assert shown["board"][2] == "1"
    assert Card.parse(before or "") is not None


def test_a_half_moon_pair_leaves_before_the_answer_and_the_answer_agrees(
    context: BrowserContext, page: Page
):
    """The second card of a pair: both cards leave at once, the cards under them (from the
    deal) show, score and moves count; the answer then draws the same board."""
    _, (first, second) = _hm_single_and_pair()
    position = deal(DealCode.parse(HM))
    page.goto(f"/half-moon/{HM}")
    ready(page)
    posts = Posts(page)
    latency(context, page, SLOW)
    drawn = _pair_drawn_unanswered(page, posts, first, second)
    for name in (first, second):
        index = next(i for i in range(12) if hm_place(i) == name)
        place = next(p for p in drawn["places"] if p[0] == name)
        assert place[1:] == ["7", [str(position.piles[index][-2])]]
    posts.wait(page, 2)
    confirmed = snapshot(page)
    assert confirmed["places"] == drawn["places"]
    assert confirmed["info"] == drawn["info"]
    assert confirmed["board"] == ["playing", "10", "1"] and not waiting(page)
    assert_same_after_reload(page)


AIM = """(selector) => {
  const element = [...document.querySelectorAll(selector)].pop();
  const box = element.getBoundingClientRect();
  return [box.x + box.width / 2, box.y + Math.min(box.height / 2, 9)];
}"""
"""The strip of the last element ``selector`` matches, read at once (the board may be redrawn
between two calls)."""


def _sh_burst(page: Page, moves: list[Move], gap_ms: int) -> tuple[Seahaven, int]:
    """Play ``moves`` with clicks ``gap_ms`` apart, each aimed at the board as drawn then (a
    home move: one tap on the card; any other: the card, then its destination)."""
    game = Seahaven(DealCode.parse(SH))
    last, clicks = "", 0
    for move in moves:
        source, count, target = move
        card = moving_card(game, move)
        aims = [f"#card-{card}"]
        if not (target in FOUNDATIONS and count == 1 and source not in FOUNDATIONS):
            aims.append(f"[data-place={sh_place(target)}] button")
        for aim in aims:
            if aim == last:  # the same card again soon would be a double tap
                page.wait_for_timeout(400)
            x, y = page.evaluate(AIM, aim)
            page.mouse.click(x, y)
            last, clicks = aim, clicks + 1
            page.wait_for_timeout(gap_ms)
        game.play(move, now=0)
    return game, clicks


@pytest.mark.parametrize("delay", [150, 600])
def test_a_seahaven_burst_faster_than_the_answers_is_drawn_and_confirmed(
    new_context: Any, delay: int
):
    """Taps far faster than the answers: each is drawn at once on the board the previous one
    left; after the burst the screen is the server's board, which holds every move once.
    Reduced motion: a click 40 ms after a move would otherwise aim at a card still flying,
    which takes no presses (tests/browser/test_motion.py)."""
    moves = sh_line(SH)[:14]
    context = new_context(reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"/seahaven/{SH}")
    ready(page)
    posts = Posts(page)
    latency(context, page, delay)
    game, clicks = _sh_burst(page, moves, 40)
    drawn = snapshot(page)
    assert drawn["info"][1] == str(len(moves)) and waiting(page)
    assert drawn["places"] == sh_snapshot_places(game)
    for _ in range(400):  # one answer after another, each a round trip
        if posts.done >= clicks:
            break
        page.wait_for_timeout(100)
    posts.wait(page, clicks)
    shown = assert_same_after_reload(page)
    assert shown["board"] == ["playing", str(game.score), str(len(moves))]
    assert shown["places"] == sh_snapshot_places(game)


def test_a_seahaven_ace_goes_home_before_the_answer_and_the_answer_agrees(
    context: BrowserContext, page: Page
):
    """One tap on an ace: it is drawn on its foundation, score and moves counted, before the
    answer; the answer draws the same board, equal to a reload."""
    page.goto(f"/seahaven/{SH_TWO_ACES}")
    ready(page)
    before = snapshot(page)
    posts = Posts(page)
    latency(context, page, SLOW)
    click(page, "#card-AC")
    drawn = snapshot(page)
    assert posts.done == 0
    assert drawn["board"] == UNANSWERED and waiting(page)
    assert drawn["info"][:2] == ["10", "1"]
    changed = {p[0]: p[1:] for p in drawn["places"] if p not in before["places"]}
    assert changed == {
        "foundation-C": ["1", ["AC"]],
        "column-3": ["4", ["3D", "4H", "QD", "2C"]],
    }
    posts.wait(page, 1)
    assert snapshot(page)["places"] == drawn["places"]
    assert_same_after_reload(page)


def test_a_pair_another_tab_removed_is_drawn_then_the_servers_board_replaces_it(
    new_context: Any, page: Page
):
    """Another tab removed the pair meanwhile: this tab draws the pair leaving at once, the
    server refuses (a stale board) and its board replaces the drawn one: equal to a reload,
    one move counted, not two."""
    first, second = PAIR
    page.goto(f"/half-moon/{HM}")
    ready(page)
    other = page.context.new_page()
    other.goto(f"/half-moon/{HM}")
    cards = {}
    for place in PAIR:
        card = other.locator(f"#card-{place}").get_attribute("data-card")
        assert card is not None
        cards[place] = card
        post_form(other, f"/half-moon/{HM}/tap", place=place, card=card)
    posts = Posts(page)
    latency(page.context, page, SLOW)
    _pair_drawn_unanswered(page, posts, first, second)
    posts.wait(page, 2)
    assert page.locator("#status").inner_text().strip() == (
        "That card is no longer there (the game moved on in another tab). Here is the board now."
    )
    shown = assert_same_after_reload(page)
    assert shown["board"] == ["playing", "10", "1"]


def test_a_burst_of_four_half_moon_taps_is_drawn_at_once_and_ends_equal_to_a_reload(
    context: BrowserContext, page: Page
):
    """Two pairs tapped 40 ms apart at 600 ms latency: both removals are drawn before the
    first answer; after the answers the screen equals a reload, two moves counted."""
    line = hm_line(HM)
    assert len(line[0]) == len(line[1]) == 2
    places = [hm_place(p) for p in (*line[0], *line[1])]
    page.goto(f"/half-moon/{HM}")
    ready(page)
    posts = Posts(page)
    latency(context, page, SLOW)
    # the first answer held until the four are drawn (at 600 ms alone, four clicks on a loaded
    # machine could outlast it); the page sends one action at a time, so only the first waits
    held: list[Any] = []
    holding = [True]
    page.route(
        "**/half-moon/*/tap", lambda route: held.append(route) if holding[0] else route.continue_()
    )
    # the spots first (Half Moon's places stay where they are): four clicks in a row
    spots = [centre(page, f"#card-{place}") for place in places]
    for x, y in spots:
        page.mouse.click(x, y)
        page.wait_for_timeout(40)
    drawn = snapshot(page)
    assert posts.done == 0
    assert drawn["board"] == UNANSWERED and waiting(page)
    assert drawn["info"][:2] == ["20", "2"]
    holding[0] = False
    for route in held:
        route.continue_()
    posts.wait(page, 4)
    assert [b["place"][0] for b in posts.bodies] == places
    confirmed = snapshot(page)
    assert confirmed["places"] == drawn["places"] and confirmed["info"] == drawn["info"]
    assert confirmed["board"] == ["playing", "20", "2"] and not waiting(page)
    shown = assert_same_after_reload(page)
    assert shown["board"] == ["playing", "20", "2"]


# --- Undo and Redo drawn at once --------------------------------------------------------------
# The server writes the game's history on #board (data-line, data-redo, data-floor); the page's
# rules replay it to draw an Undo or a Redo in the frame after the click.


def _undo_redo_drawn(context: BrowserContext, page: Page, before: dict[str, Any]) -> None:
    """The board shows ``after`` (one action past ``before``, confirmed): at 600 ms Undo is drawn
    as ``before`` (Redo enabled), then Redo as the board was, each before any answer; the answers
    agree and the screen equals a reload."""
    after = snapshot(page)
    posts = Posts(page)
    latency(context, page, SLOW)
    click(page, "#control-undo")
    undone = snapshot(page)
    assert posts.done == 0 and waiting(page)
    assert undone["places"] == before["places"]
    assert undone["info"] == [*before["info"][:2], before["info"][2], False]  # Redo enabled
    click(page, "#control-redo")
    redone = snapshot(page)
    assert posts.done == 0
    assert redone["places"] == after["places"]
    assert redone["info"] == after["info"]
    posts.wait(page, 2)
    assert posts.sent == ["undo", "redo"]
    confirmed = snapshot(page)
    assert confirmed == after and not waiting(page)
    assert_same_after_reload(page)


def test_half_moon_undo_and_redo_are_drawn_before_their_answers(
    context: BrowserContext, page: Page
):
    """Undo of a removal that took a reserve's last card: the card comes back (its place gets
    its form again), score and moves go back, Redo takes it away again."""
    line = hm_line(HM)
    k = next(i for i, removal in enumerate(line) if any(p >= 12 for p in removal))
    hm_reach(page, HM, line[:k])
    ready(page)
    before = snapshot(page)
    for place in line[k]:
        click(page, f"#card-{hm_place(place)}")
    expect(page.locator("#board")).to_have_attribute("data-moves", str(k + 1))
    expect(page.locator("#board")).not_to_have_attribute("data-pending", "")
    reserve = hm_place(next(p for p in line[k] if p >= 12))
    assert place_of_snapshot(snapshot(page), reserve)[1] == "0"
    _undo_redo_drawn(context, page, before)


def test_seahaven_undo_of_a_card_home_brings_it_back_from_the_foundation_at_once(
    context: BrowserContext, page: Page
):
    """3♥ sent home on 2♥: Undo draws it back on its column (a card that had no button on the
    foundation), the foundation showing 2♥ again; Redo sends it home again."""
    line, _, x, y = three_hearts_spot(page)
    ready(page)
    before = snapshot(page)
    page.mouse.click(x, y)
    expect(page.locator("#board")).to_have_attribute("data-moves", str(len(line) + 1))
    expect(page.locator("#board")).not_to_have_attribute("data-pending", "")
    assert place_of_snapshot(snapshot(page), "foundation-H")[1:] == ["3", ["3H"]]
    assert place_of_snapshot(before, "foundation-H")[1:] == ["2", ["2H"]]
    _undo_redo_drawn(context, page, before)


def place_of_snapshot(shown: dict[str, Any], name: str) -> list[Any]:
    return next(p for p in shown["places"] if p[0] == name)
