"""JavaScript off: both games are played through their plain forms (each click a POST and a 303
back to the game), Undo works, and the Settings form turns on Move errors."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import BrowserContext, Page, expect

from app.engine.codes import DealCode
from app.engine.halfmoon import apply_move, deal
from app.engine.seahaven import COLUMNS, Seahaven, foundation_place
from app.engine.seahaven import place_name as sh_place
from tests.browser.play import (
    HM,
    SH,
    auto_move,
    board,
    hm_card,
    hm_line,
    sh_card,
    strip_position,
    target_of,
)


def _page(new_context: Callable[..., BrowserContext]) -> Page:
    page = new_context(java_script_enabled=False).new_page()
    return page


def test_half_moon_pairs_undo_and_move_errors_through_the_forms(new_context):
    page = _page(new_context)
    page.goto(f"/half-moon/{HM}")
    assert page.locator("html").get_attribute("lang") == "en"
    line = hm_line(HM)
    pairs = [r for r in line[:6] if len(r) == 2]
    first = pairs[0]
    position = deal(DealCode.parse(HM))
    # a pair: the first tap selects (the page comes back with it pressed), the second removes
    played = line[: line.index(first)]
    for removal in [*played, first]:
        for i, place in enumerate(removal):
            hm_card(page, place).click()
            if i < len(removal) - 1:
                expect(hm_card(page, place)).to_have_attribute("aria-pressed", "true")
        position = apply_move(position, removal)
    moves = len(played) + 1
    expect(board(page)).to_have_attribute("data-moves", str(moves))
    expect(page.locator("#moves")).to_have_text(str(moves))
    for place in first:
        expect(hm_card(page, place)).to_have_attribute("data-card", str(position.top(place)))
    # Undo: the pair is back
    page.locator("#control-undo").click()
    expect(board(page)).to_have_attribute("data-moves", str(moves - 1))
    before = deal(DealCode.parse(HM))
    for removal in played:
        before = apply_move(before, removal)
    for place in first:
        expect(hm_card(page, place)).to_have_attribute("data-card", str(before.top(place)))
    expect(page.locator("#control-redo")).to_be_enabled()
    # Settings → Move errors on, through the plain form
    page.locator("details.settings summary").click()
    switch = page.locator("#settings-form input[name=move_errors][type=checkbox]")
    switch.check()
    page.locator("details.settings").get_by_role("button", name="Save").click()
    expect(switch).to_be_checked()
    assert page.url.endswith(f"/half-moon/{HM}")
    # a refused pair: two number cards that do not sum to 11
    tops = [(p, before.top(p)) for p in range(20) if before.top(p) is not None]
    numbers = [(p, c) for p, c in tops if not c.is_face]
    a, b = next(
        (x, y) for x in numbers for y in numbers if x[0] < y[0] and x[1].rank + y[1].rank != 11
    )
    hm_card(page, a[0]).click()
    expect(hm_card(page, a[0])).to_have_attribute("aria-pressed", "true")
    hm_card(page, b[0]).click()
    expect(page.locator("#status")).to_have_text("The sum must be 11.")
    expect(page.locator("[aria-pressed=true]")).to_have_count(0)
    expect(board(page)).to_have_attribute("data-moves", str(moves - 1))
    assert page.url.endswith("?n=sum")


def test_seahaven_tap_select_then_destination_home_and_undo_through_the_forms(new_context):
    page = _page(new_context)
    page.goto(f"/seahaven/{SH}")
    game = Seahaven(DealCode.parse(SH))
    position = game.position
    # a top card that cannot go home but has a column to go to: select it, then the column
    card, move = next(
        (card, move)
        for place in COLUMNS
        if (card := position.columns[place][-1])
        and not position.accepts(foundation_place(card.suit), card)
        and (move := auto_move(game, card, place)) is not None
        and move.target in COLUMNS
    )
    button = sh_card(page, card)
    button.click(position=strip_position(button))
    expect(sh_card(page, card)).to_have_attribute("aria-pressed", "true")
    expect(page.locator("[aria-pressed=true]")).to_have_count(1)
    destination = target_of(page, sh_place(move.target))
    destination.click(position=strip_position(destination))
    expect(board(page)).to_have_attribute("data-moves", "1")
    target = page.locator(f"[data-place={sh_place(move.target)}]")
    expect(target.locator("[data-card]").last).to_have_attribute("data-card", str(card))
    game.play(move, now=0)
    # a single tap on a card that may go home sends it there
    home = next(
        (c, p)
        for p in COLUMNS
        if (c := game.position.columns[p][-1] if game.position.columns[p] else None)
        and game.position.accepts(foundation_place(c.suit), c)
    )
    sh_card(page, home[0]).click(position=strip_position(sh_card(page, home[0])))
    expect(board(page)).to_have_attribute("data-moves", "2")
    foundation = f"foundation-{home[0].suit}"
    expect(page.locator(f"[data-place={foundation}] [data-card]")).to_have_attribute(
        "data-card", str(home[0])
    )
    expect(page.locator("#score")).to_have_text("10")
    # Undo twice: the deal as it was
    page.locator("#control-undo").click()
    expect(board(page)).to_have_attribute("data-moves", "1")
    page.locator("#control-undo").click()
    expect(board(page)).to_have_attribute("data-moves", "0")
    source = page.locator(f"[data-place={sh_place(move.source)}] [data-card]").last
    expect(source).to_have_attribute("data-card", str(card))
    expect(page.locator("#score")).to_have_text("0")
