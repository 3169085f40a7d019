"""Issue 32, "Done means": a move drawn at once whose answer is a refusal (429, 500) is taken
back and the screen ends equal to a reload; bursts and double clicks at 600 ms of latency; the
3♥ 4♥ 5♥ taps 0.2 and 0.3 s apart (static/js/instant.js).

A refused answer is made with Playwright's ``page.route``: the request is held (the test
checks what the page drew before any answer) and then answered with the status and the body
the server itself sends to htmx for it (only the status line, out of band: the board on screen
stays the server's), without ever reaching the server. That the server changed nothing is
checked through a reload and a second, answered tap.
"""

from __future__ import annotations

from collections.abc import Iterator
from html import escape
from itertools import pairwise

import pytest
from babel.support import NullTranslations
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from app.engine.cards import Card
from app.engine.codes import DealCode
from app.engine.seahaven import Seahaven
from app.web.edge.errors import PlayerError
from tests.browser.conftest import DESKTOP, knows_the_games
from tests.browser.play import HM, SH, board, three_hearts_spot
from tests.browser.test_instant import SLOW, click, pressed, waiting
from tests.browser.test_overlap import (
    DOUBLES,
    PAIR,
    SH_TWO_ACES,
    Posts,
    assert_same_after_reload,
    centre,
    latency,
    ready,
    sh_places,
    snapshot,
)
from tests.system.servers import Server


def refusal_body(error: PlayerError) -> str:
    """What the server answers htmx for ``error``: the status line alone, out of band
    (templates/pages/error.html, block ``status``; English, as the tests' browsers ask)."""
    t = NullTranslations()
    return (
        '<p id="status" class="status error" role="status" aria-live="polite" '
        f'hx-swap-oob="true">{escape(error.title(t))}: {escape(error.detail(t))}</p>'
    )


RATE_LIMITED = PlayerError.rate_limited(2)
CRASHED = PlayerError.fixed(
    500,
    "Something went wrong",
    "The server failed to answer; your game was not changed. Try again.",
)
REFUSALS = {429: RATE_LIMITED, 500: CRASHED}


@pytest.fixture
def refused_context(browser: Browser, server: Server) -> Iterator[BrowserContext]:
    """A context as ``new_context`` makes (a player who knows the games), without its check
    that no request answered 4xx/5xx: here the refusals are the point. Uncaught errors and
    console errors still fail the test, but for the failed load and htmx's log of a fetch that
    got no answer (the connection dropped on purpose)."""
    context = browser.new_context(
        base_url=server.url, viewport=DESKTOP, locale="en-US", service_workers="block"
    )
    context.set_default_timeout(10_000)
    found: list[str] = []

    def watch(page: Page) -> None:
        page.on("pageerror", lambda error: found.append(f"uncaught: {error}"))
        page.on(
            "console",
            lambda m: (
                found.append(f"console: {m.text}")
                if m.type == "error"
                and not m.text.startswith(("Failed to load", "htmx: htmx:error: Failed to fetch"))
                else None
            ),
        )

    context.on("page", watch)
    knows_the_games(context)
    yield context
    context.close()
    assert found == [], "\n".join(found)


class Held:
    """Hold the ``nth`` POST to ``path`` (0 the first) unanswered until :meth:`refuse`; every
    other request goes on to the server."""

    def __init__(self, page: Page, path: str, nth: int = 0) -> None:
        self.routes: list[Route] = []
        self.seen = 0
        self.nth = nth

        def handle(route: Route) -> None:
            if route.request.method == "POST" and self.seen == self.nth and not self.routes:
                self.seen += 1
                self.routes.append(route)  # answered later, by refuse()
                return
            if route.request.method == "POST":
                self.seen += 1
            route.continue_()

        page.route(f"**{path}", handle)

    def wait(self, page: Page) -> None:
        for _ in range(200):
            if self.routes:
                return
            page.wait_for_timeout(25)
        raise AssertionError("the request to hold never left")

    def refuse(self, status: int) -> None:
        error = REFUSALS[status]
        route = self.routes[0]
        route.fulfill(
            status=status,
            body=refusal_body(error),
            content_type="text/html; charset=utf-8",
            headers={"Cache-Control": "no-store", **error.headers},
        )


def status_line(page: Page) -> str:
    return page.locator("#status").inner_text().strip()


@pytest.mark.parametrize("status", [429, 500])
def test_a_half_moon_pair_refused_is_taken_back_and_the_screen_equals_a_reload(
    refused_context: BrowserContext, status: int
):
    """The second card of a pair: both cards leave at once; the server's answer to that tap is
    a 429 (or a 500): the pair comes back, the first card still selected (the server made that
    tap), the status line says why, and the screen equals a reload. Tapped again, the pair
    goes, counted once."""
    page = refused_context.new_page()
    first, second = PAIR
    page.goto(f"/half-moon/{HM}")
    ready(page)
    before = snapshot(page)
    posts = Posts(page)
    held = Held(page, f"/half-moon/{HM}/tap", nth=1)
    click(page, f"#card-{first}")
    posts.wait(page, 1)
    click(page, f"#card-{second}")
    held.wait(page)
    drawn = snapshot(page)
    assert drawn["info"][:2] == ["10", "1"] and waiting(page)
    assert drawn["places"] != before["places"]
    held.refuse(status)
    posts.wait(page, 2)
    assert not waiting(page)
    error = REFUSALS[status]
    t = NullTranslations()
    expect(page.locator("#status")).to_have_text(f"{error.title(t)}: {error.detail(t)}")
    shown = snapshot(page)
    assert shown["board"] == ["playing", "0", "0"]
    assert shown["info"][:2] == ["0", "0"]
    first_card = page.locator(f"#card-{first}").get_attribute("data-card")
    assert pressed(page) == [first_card]
    assert_same_after_reload(page)
    # the game goes on: the same pair, answered this time, is one move
    ready(page)
    posts = Posts(page)
    click(page, f"#card-{second}")
    posts.wait(page, 1)
    shown = assert_same_after_reload(page)
    assert shown["board"] == ["playing", "10", "1"]


@pytest.mark.parametrize("status", [429, 500])
def test_a_seahaven_ace_refused_is_taken_back_and_the_screen_equals_a_reload(
    refused_context: BrowserContext, status: int
):
    """One tap on an ace: drawn on its foundation at once; the answer is a 429 (or a 500):
    the ace is back in its column, nothing counted, the status line says why, the screen
    equals a reload. Tapped again, it goes home once."""
    page = refused_context.new_page()
    page.goto(f"/seahaven/{SH_TWO_ACES}")
    ready(page)
    before = snapshot(page)
    posts = Posts(page)
    held = Held(page, f"/seahaven/{SH_TWO_ACES}/tap")
    click(page, "#card-AC")
    held.wait(page)
    drawn = snapshot(page)
    assert drawn["info"][:2] == ["10", "1"] and waiting(page)
    assert ["foundation-C", "1", ["AC"]] in drawn["places"]
    held.refuse(status)
    posts.wait(page, 1)
    assert not waiting(page)
    assert status_line(page).startswith(REFUSALS[status].title(NullTranslations()))
    shown = snapshot(page)
    assert shown == before
    assert_same_after_reload(page)
    ready(page)
    posts = Posts(page)
    click(page, "#card-AC")
    posts.wait(page, 1)
    shown = assert_same_after_reload(page)
    assert shown["board"] == ["playing", "10", "1"]
    assert ["foundation-C", "1", ["AC"]] in shown["places"]


PROXY_PAGE = (
    "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway"
    "</h1></center><hr><center>nginx</center></body></html>"
)
"""What a reverse proxy answers when the application behind it is down: not the server's."""


@pytest.mark.parametrize("answer", ["proxy-502", "no-answer"])
def test_a_seahaven_ace_the_server_never_answered_is_kept_and_sent_again(
    refused_context: BrowserContext, answer: str
):
    """The ace drawn home, and the answer is not the server's: a proxy's 502 page, or no
    answer at all (the connection dropped). The server is unreachable: the ace stays drawn,
    kept (issue 32 item 5), the status line says so; sent again, it is made once, and the
    screen equals a reload."""
    page = refused_context.new_page()
    page.goto(f"/seahaven/{SH_TWO_ACES}")
    ready(page)
    posts = Posts(page)
    held = Held(page, f"/seahaven/{SH_TWO_ACES}/tap")
    click(page, "#card-AC")
    held.wait(page)
    assert ["foundation-C", "1", ["AC"]] in snapshot(page)["places"] and waiting(page)
    if answer == "proxy-502":
        held.routes[0].fulfill(status=502, body=PROXY_PAGE, content_type="text/html")
    else:
        held.routes[0].abort("connectionreset")
    posts.wait(page, 1)
    assert ["foundation-C", "1", ["AC"]] in snapshot(page)["places"] and waiting(page)
    expect(page.locator("#status")).to_have_text("Offline — your moves are kept and will be sent.")
    posts.wait(page, 2)  # sent again (within 4 s), through to the server this time
    expect(board(page)).not_to_have_attribute("data-pending", "", timeout=15_000)
    shown = assert_same_after_reload(page)
    assert shown["board"] == ["playing", "10", "1"]
    assert ["foundation-C", "1", ["AC"]] in shown["places"]


# --- double clicks and bursts at 600 ms ----------------------------------------------------------


def test_a_half_moon_double_click_at_600_ms_is_drawn_at_once_and_ends_equal_to_a_reload(
    context: BrowserContext, page: Page
):
    """Two clicks on one card: selected, then deselected, both drawn before either answer;
    both taps leave with what the player saw, and the screen ends equal to a reload."""
    page.goto(f"/half-moon/{HM}")
    ready(page)
    before = snapshot(page)
    posts = Posts(page)
    latency(context, page, SLOW)
    page.locator(f"#card-{PAIR[0]}").dblclick()
    assert pressed(page) == [] and posts.done == 0 and waiting(page)
    posts.wait(page, 2)
    assert posts.bodies[0] == posts.bodies[1]
    shown = assert_same_after_reload(page)
    assert shown == before


@pytest.mark.parametrize("outcome", list(DOUBLES))
def test_a_seahaven_double_click_at_600_ms_is_drawn_at_once_and_ends_as_the_double_tap_alone(
    context: BrowserContext, page: Page, outcome: str
):
    """A double click on a card that goes home, one that moves to a column, one that can go
    nowhere: before any answer the page draws what the double tap alone does; the answers
    (a tap, then the double tap's second half) end equal to a reload, each move once."""
    place, text = DOUBLES[outcome]
    alone = Seahaven(DealCode.parse(SH))
    alone.auto(place, Card.parse(text), now=0)
    page.goto(f"/seahaven/{SH}")
    ready(page)
    posts = Posts(page)
    latency(context, page, SLOW)
    x, y = centre(page, f"#card-{text}")
    page.mouse.dblclick(x, y)
    drawn = snapshot(page)
    assert posts.done == 0
    assert drawn["places"] == sh_places(alone)
    assert drawn["info"][1] == str(alone.move_count)
    posts.wait(page, 2)
    assert posts.sent == ["tap", "auto"]
    shown = assert_same_after_reload(page)
    assert shown["board"] == ["playing", str(alone.score), str(alone.move_count)]
    assert shown["places"] == sh_places(alone)


def test_a_half_moon_burst_with_a_double_click_at_600_ms_ends_equal_to_a_reload(
    context: BrowserContext, page: Page
):
    """A double click on one card of the second pair (selected, deselected), then both pairs,
    each click 40 ms after the last, all before the first answer: drawn at once, two moves;
    six answers later the screen is the same and equals a reload."""
    (a, b), (c, d) = PAIR, ("pile-4", "pile-10")
    page.goto(f"/half-moon/{HM}")
    ready(page)
    posts = Posts(page)
    latency(context, page, SLOW)
    points = {name: centre(page, f"#card-{name}") for name in (a, b, c, d)}
    page.mouse.dblclick(*points[c])
    for name in (a, b, c, d):
        page.wait_for_timeout(40)
        page.mouse.click(*points[name])
    drawn = snapshot(page)
    assert posts.done == 0 and waiting(page)
    assert drawn["info"][:2] == ["20", "2"]
    posts.wait(page, 6)
    assert [body["place"][0] for body in posts.bodies] == [c, c, a, b, c, d]
    confirmed = snapshot(page)
    assert confirmed["places"] == drawn["places"] and confirmed["info"] == drawn["info"]
    shown = assert_same_after_reload(page)
    assert shown["board"] == ["playing", "20", "2"]


def test_a_seahaven_burst_with_a_double_click_at_600_ms_ends_equal_to_a_reload(
    context: BrowserContext, page: Page
):
    """J♥ double-clicked onto Q♥, then A♥ tapped home 40 ms later, all before the first answer:
    drawn at once on the board each left; after the three answers the screen is the engine's
    board, equal to a reload, each move once."""
    game = Seahaven(DealCode.parse(SH))
    jh_place, jh = DOUBLES["selected-then-moved"]
    ah_place, ah = DOUBLES["went-home"]
    game.auto(jh_place, Card.parse(jh), now=0)
    game.tap(ah_place, Card.parse(ah), now=0)
    assert game.move_count == 2
    page.goto(f"/seahaven/{SH}")
    ready(page)
    posts = Posts(page)
    latency(context, page, SLOW)
    jh_point, ah_point = centre(page, f"#card-{jh}"), centre(page, f"#card-{ah}")
    page.mouse.dblclick(*jh_point)
    page.wait_for_timeout(40)
    page.mouse.click(*ah_point)
    drawn = snapshot(page)
    assert posts.done == 0 and waiting(page)
    assert drawn["places"] == sh_places(game)
    assert drawn["info"][:2] == [str(game.score), "2"]
    posts.wait(page, 3)
    assert posts.sent == ["tap", "auto", "tap"]
    shown = assert_same_after_reload(page)
    assert shown["board"] == ["playing", str(game.score), "2"]
    assert shown["places"] == sh_places(game)


# --- 3♥ 4♥ 5♥ -------------------------------------------------------------------------------------

# RUN_HOME (tests/browser/play.py): the same taps 0.25 s apart without latency are in
# tests/browser/test_seahaven.py

PRESSES = """() => {
  window.presses = [];
  document.addEventListener('pointerdown', () => window.presses.push(performance.now()), true);
}"""


@pytest.mark.parametrize("delay", [0, SLOW])
@pytest.mark.parametrize("gap", [200, 300])
def test_three_hearts_tapped_home_at_one_spot_are_three_taps(page: Page, gap: int, delay: int):
    """Issue 32, item 4: 3♥, 4♥, 5♥ tapped home 0.2 s (and 0.3 s) apart at one spot of the
    column where all three lie: each tap lands on the card the previous one uncovered (drawn
    at once: at 600 ms, before that tap's answer) and is a new tap, never a double tap on the card
    that went: all three go home, three moves, equal to a reload."""
    line, game, x, y = three_hearts_spot(page)
    column = game.position.columns[4]
    ready(page)
    posts = Posts(page)
    latency(page.context, page, delay)
    page.evaluate(PRESSES)
    for i in range(3):
        if i:
            page.wait_for_timeout(gap)
        page.mouse.click(x, y)
    presses = page.evaluate("() => window.presses")
    gaps = [later - earlier for earlier, later in pairwise(presses)]
    assert len(presses) == 3 and all(g >= gap for g in gaps), gaps
    # the third tap's move is drawn at once (at 600 ms, before its answer)
    assert snapshot(page)["info"][1] == str(len(line) + 3)
    posts.wait(page, 3)
    assert posts.sent == ["tap", "tap", "tap"]
    assert [body["card"][0] for body in posts.bodies] == ["3H", "4H", "5H"]
    expect(page.locator("[data-place=foundation-H]")).to_have_attribute("data-count", "5")
    expect(board(page)).to_have_attribute("data-moves", str(len(line) + 3))
    shown = assert_same_after_reload(page)
    assert ["column-5", str(len(column) - 3)] == next(
        p[:2] for p in shown["places"] if p[0] == "column-5"
    )
