"""Seahaven Towers in a real browser: a whole game won with every kind of gesture, the double
tap, a refused drop that snaps back."""

from __future__ import annotations

import time
from itertools import pairwise
from unittest.mock import ANY
from urllib.parse import parse_qs

from babel.support import NullTranslations
from playwright.sync_api import Page, Route, expect

from app.engine.cards import Card
from app.engine.seahaven import (
    CELLS,
    COLUMNS,
    FOUNDATIONS,
    Move,
    Seahaven,
    check_move,
    foundation_place,
)
from app.engine.seahaven import place_name as sh_place
from app.i18n import card_name, suit_symbol
from tests.browser.conftest import assert_accessible, screenshot
from tests.browser.geometry import assert_apart
from tests.browser.play import (
    SH,
    SH_LOST,
    SeahavenPlayer,
    auto_move,
    board,
    drag,
    moving_card,
    sh_card,
    sh_line,
    strip_position,
    target_of,
    three_hearts_spot,
    token,
)


def test_a_whole_game_is_won_with_clicks_double_clicks_drags_and_selections(page: Page):
    player = SeahavenPlayer(page, SH)
    player.open()
    expect(board(page)).to_have_attribute("data-state", "playing")
    # every kind of gesture: clicks, selections, double clicks and drags
    homes = groups = others = 0
    for move in sh_line(SH):
        source, count, target = move
        card = moving_card(player.mirror, move)
        if target in FOUNDATIONS and count == 1 and source not in FOUNDATIONS:
            # a single card going home: a click sends it; so do a double click and a drag
            gesture = player.click if homes % 10 == 0 else [player.double, player.drag][homes % 2]
            homes += 1
        elif count > 1:  # a run, taken by its bottom card
            gesture = [player.drag, player.select_then_place][groups % 2]
            groups += 1
        else:
            gesture = player.select_then_place if others % 7 == 0 else player.drag
            if others % 2 and auto_move(player.mirror, card, source) == move:
                gesture = player.double
            others += 1
        gesture(move)
    assert groups >= 2 and all(n >= 3 for n in player.used.values()), (groups, player.used)
    expect(board(page)).to_have_attribute("data-state", "won")
    expect(board(page)).to_have_attribute("data-score", "520")
    expect(page.locator("#score")).to_have_text("520")
    for suit in "SHDC":
        expect(page.locator(f"[data-place=foundation-{suit}]")).to_have_attribute(
            "data-count", "13"
        )
    expect(page.locator(".columns [data-card]")).to_have_count(0)
    expect(page.locator("#summary-title")).to_have_text("You won!")
    expect(page.locator("#summary-score")).to_have_text("520")
    expect(page.locator("#status")).to_contain_text("You won! 520 points in ")
    expect(page.locator("#clock")).to_have_attribute("data-running", "false")
    screenshot(page, "seahaven-desktop-won")
    assert_apart(page, "#board .ending", "#board .card, #board .label")
    assert_accessible(page, "Seahaven, won")


def _first(game: Seahaven, wanted) -> tuple[Card, Move]:
    """A top card of a column or cell, and its double-tap move, that ``wanted`` accepts."""
    position = game.position
    for place in [*COLUMNS, *CELLS]:
        card = position.top(place)
        if card is None:
            continue
        move = auto_move(game, card, place)
        if move is not None and wanted(card, place, move):
            return card, move
    raise AssertionError("no such card on this deal")


def _first_onto_a_column(game: Seahaven) -> tuple[Card, Move]:
    """A top card that cannot go home whose double tap moves it onto a column."""
    position = game.position
    return _first(
        game,
        lambda card, place, move: (
            not position.accepts(foundation_place(card.suit), card) and move.target in COLUMNS
        ),
    )


def test_a_double_tap_makes_exactly_one_automatic_move_and_no_single_tap(page: Page):
    player = SeahavenPlayer(page, SH)
    player.open()
    # a card a single tap would only select (it cannot go home), which the double tap moves
    card, move = _first_onto_a_column(player.mirror)
    posts: list[tuple[str, str]] = []
    page.on(
        "request",
        lambda r: (
            posts.append((r.url.rsplit("/", 1)[-1], r.post_data or "")) if r.method == "POST" else 0
        ),
    )
    button = sh_card(page, card)
    button.dblclick(position=strip_position(button))
    expect(board(page)).to_have_attribute("data-moves", "1")
    target = f"[data-place={sh_place(move.target)}]"
    expect(page.locator(f"{target} [data-card]").last).to_have_attribute("data-card", str(card))
    time.sleep(1)  # long past the double-tap window: no single tap follows
    expect(board(page)).to_have_attribute("data-moves", "1")
    expect(page.locator("[aria-pressed=true]")).to_have_count(0)
    # the first click left at once as a tap (it selected the card); the second finished the
    # double tap, which took the selection back and made the move
    place = sh_place(move.source)
    assert [verb for verb, _ in posts] == ["tap", "auto"]
    assert parse_qs(posts[0][1]) == {"place": [place], "card": [str(card)], "token": ANY}
    assert parse_qs(posts[1][1]) == {
        "place": [place],
        "card": [str(card)],
        "double": ["1"],
        "token": ANY,
    }
    player.mirror.play(move, now=0)
    assert page.locator(f"{target}").get_attribute("data-count") == str(
        len(player.mirror.position.columns[move.target])
    )


def test_a_single_click_sends_a_card_home_and_otherwise_selects_it(page: Page):
    player = SeahavenPlayer(page, SH)
    player.open()
    position = player.mirror.position
    home, home_move = _first(player.mirror, lambda c, p, m: m.target in FOUNDATIONS)
    player.click(home_move)
    expect(page.locator("#status")).to_have_text(
        f"{_name(home)} to foundation {suit_symbol(home)}."
    )
    position = player.mirror.position
    card, _ = _first(
        player.mirror,
        lambda c, p, m: not position.accepts(foundation_place(c.suit), c),
    )
    button = sh_card(page, card)
    button.click(position=strip_position(button))
    expect(button).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#status")).to_have_text(f"{_name(card)} selected.")
    expect(board(page)).to_have_attribute("data-moves", "1")
    page.wait_for_timeout(400)  # a second click within the double-tap window is a double tap
    button.click(position=strip_position(button))
    expect(button).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#status")).to_have_text("Selection cleared.")


def _name(card: Card) -> str:
    """A card's name opening a status sentence: with a capital (issue 13)."""
    name = card_name(card, NullTranslations())
    return name[:1].upper() + name[1:]


def test_a_refused_drop_snaps_back_and_says_why(page: Page):
    player = SeahavenPlayer(page, SH)
    player.open()
    response = page.request.post(  # a refusal explains itself with Move errors on
        "/settings",
        form={"move_errors": "on", "token": token(page), "next": f"/seahaven/{SH}"},
        max_redirects=0,
    )
    assert response.status == 303
    player.open()
    position = player.mirror.position
    # the top card of one column dropped on a column that does not take it
    for source in COLUMNS:
        card = position.columns[source][-1]
        refused = [
            (target, refusal)
            for target in COLUMNS
            if target != source
            and (refusal := check_move(position, Move(source, 1, target))) is not None
        ]
        if refused:
            target, refusal = refused[0]
            break
    before = page.evaluate(
        "() => [...document.querySelectorAll('[data-place]')].map(p => p.dataset.count)"
    )
    drag(page, sh_card(page, card), target_of(page, sh_place(target)))
    expect(page.locator("#status")).to_have_text(refusal.explain(NullTranslations()))
    expect(board(page)).to_have_attribute("data-moves", "0")
    expect(page.locator(f"[data-place={sh_place(source)}] [data-card]").last).to_have_attribute(
        "data-card", str(card)
    )
    after = page.evaluate(
        "() => [...document.querySelectorAll('[data-place]')].map(p => p.dataset.count)"
    )
    assert after == before
    expect(page.locator(".drag-ghost")).to_have_count(0)
    expect(page.locator(".dragging")).to_have_count(0)
    expect(page.locator(".drop-target")).to_have_count(0)
    expect(page.locator("[aria-pressed=true]")).to_have_count(0)


def test_the_lost_deal_says_so_and_offers_only_a_new_game(page: Page):
    page.goto(f"/seahaven/{SH_LOST}")
    expect(board(page)).to_have_attribute("data-state", "lost")
    expect(page.locator(".ending.lost #ending-text")).to_have_text(
        "No useful move left: no card of this deal can reach a foundation. Start a new game."
    )
    expect(page.locator("#ending-undo")).to_have_count(0)  # nothing to undo at the deal
    expect(page.locator("#ending-restart")).to_have_count(0)
    expect(page.locator("#control-undo")).to_be_disabled()
    expect(page.locator("#control-restart")).to_be_disabled()
    expect(page.locator("#ending-new")).to_have_attribute("href", "/seahaven?cells=1")
    expect(page.locator("[data-place^=cell-]")).to_have_count(1)


def test_the_keyboard_selects_a_card_and_moves_it_keeping_the_focus(page: Page):
    player = SeahavenPlayer(page, SH)
    player.open()
    card, move = _first_onto_a_column(player.mirror)
    button = sh_card(page, card)
    button.focus()
    page.keyboard.press("Enter")  # a keyboard tap at once: no double-tap wait
    expect(button).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("() => document.activeElement.id") == f"card-{card}"
    destination = page.locator(f"[data-place={sh_place(move.target)}] [data-card]").last
    aimed = destination.get_attribute("data-card")
    destination.focus()
    page.keyboard.press(" ")
    expect(board(page)).to_have_attribute("data-moves", "1")
    expect(
        page.locator(f"[data-place={sh_place(move.target)}] [data-card]").last
    ).to_have_attribute("data-card", str(card))
    assert page.evaluate("() => document.activeElement.id") == f"card-{aimed}"
    # the focus shows: an outline, or on a covered card of the fan (as this one is now, under
    # the card that came) a ring round its visible strip, drawn by ::after (issue 22)
    ring = page.evaluate(
        "() => { const e = document.activeElement, s = getComputedStyle(e),"
        " a = getComputedStyle(e, '::after');"
        " return s.outlineStyle !== 'none' ? [s.outlineStyle, parseFloat(s.outlineWidth)]"
        " : [a.borderTopStyle, parseFloat(a.borderTopWidth)]; }"
    )
    assert ring[0] != "none" and ring[1] >= 2, ring


"""At move 31 of its solver line column 5 ends 5♥ 4♥ 3♥, with 2♥ on its foundation."""


def test_three_cards_tapped_home_at_one_spot_in_quick_succession_all_go_home(page: Page):
    """Issue 32, item 4: a double tap is two taps on the same card. A player taps 3♥, 4♥, 5♥
    home 0.25 s apart at one spot of the column (where all three cards lie, one under the
    other): each tap lands on the card the previous one uncovered, a new tap each time."""
    line, game, x, y = three_hearts_spot(page)
    column = game.position.columns[4]
    assert game.position.foundations[1] == 2
    for _ in range(3):
        page.mouse.click(x, y)
        page.wait_for_timeout(250)
    expect(page.locator("[data-place=foundation-H]")).to_have_attribute("data-count", "5")
    expect(board(page)).to_have_attribute("data-moves", str(len(line) + 3))
    expect(page.locator("[data-place=column-5] [data-card]")).to_have_count(len(column) - 3)


def test_three_cards_tapped_home_with_the_finger_held_are_three_taps(page: Page):
    """The same three taps 0.25 s apart from press to press, each held 0.12 s as a finger
    does: the double-tap clock runs from the press (static/js/board/seahaven-gestures.js), so the
    next press, 0.13 s after the click, lands on the uncovered card as a new tap. (From the
    click it was still the first tap's double: the 4♥ that had gone, and nothing moved.)

    The page's clock is Playwright's, paused while the finger taps, so the presses are exactly
    0.25 s apart and held exactly 0.12 s on the clock the gestures read (``performance.now()``),
    however loaded the machine is: real waits drifted past the window under load, and a late
    press is a slow tap, not the one this test is about. The taps' answers are held until the
    third press (as on a slow network): with the clock paused, an answer arriving between two
    presses would stop in htmx's settle timer with the board half redrawn, which no real page
    shows for longer than a millisecond."""
    page.clock.install()
    line, game, x, y = three_hearts_spot(page)
    column = game.position.columns[4]
    page.evaluate(
        "() => { window.presses = [];"
        " document.addEventListener('pointerdown', () => window.presses.push(performance.now()), true); }"
    )
    held: list[Route] = []
    holding = True
    page.route("**/tap", lambda route: held.append(route) if holding else route.continue_())
    page.mouse.move(x, y)
    page.clock.pause_at(page.evaluate("() => Date.now()") + 1_000)
    for _ in range(3):
        page.mouse.down()
        page.clock.run_for(120)
        page.mouse.up()
        page.clock.run_for(130)
    presses = page.evaluate("() => window.presses")
    holding = False
    page.clock.resume()
    for route in held:
        route.continue_()
    assert [b - a for a, b in pairwise(presses)] == [250, 250], presses
    expect(page.locator("[data-place=foundation-H]")).to_have_attribute("data-count", "5")
    expect(board(page)).to_have_attribute("data-moves", str(len(line) + 3))
    expect(page.locator("[data-place=column-5] [data-card]")).to_have_count(len(column) - 3)
