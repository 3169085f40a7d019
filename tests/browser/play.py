"""Playing like a person in a real browser: lines from the engine, cards clicked and dragged.

The engine gives the moves (solver lines, random playouts); these helpers turn them into what a
player does on the page and wait for the board the server sends back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from playwright.sync_api import Locator, Page, expect

from app.engine.cards import Card
from app.engine.codes import DealCode
from app.engine.halfmoon import Removal, apply_move, deal
from app.engine.halfmoon import place_name as hm_place
from app.engine.halfmoon.solver import solve
from app.engine.seahaven import COLUMNS, FOUNDATIONS, Move, Seahaven
from app.engine.seahaven import place_name as sh_place
from app.engine.seahaven.solver import solve_code
from tests.lines import hm_random_line as hm_random_line

HM = "HM1-N-AAAAAAB"
SH = "SH1-C4-AAAAAAB"
SH_LOST = "SH1-C1-AAAAAAC"
"""Lost at the deal: no card can ever reach a foundation."""
SH_LONG = "SH1-C4-AAAAAED"
"""Its solver line builds a 13-card column by move 16."""


def board(page: Page) -> Locator:
    return page.locator("#board")


def places(page: Page) -> list[list[str | None]]:
    """Every place as the page shows it: name, card count, the card on top (or ``None``)."""
    shown: list[list[str | None]] = page.evaluate(
        """() => [...document.querySelectorAll('[data-place]')].map((place) => [
          place.dataset.place, place.dataset.count,
          [...place.querySelectorAll('[data-card]')].map((c) => c.dataset.card).pop() ?? null])"""
    )
    return shown


def open_settings(page: Page) -> None:
    """Open the Settings panel; on a narrow screen it is inside the header's menu (issue 22)."""
    menu = page.locator("#menu-button")
    if menu.is_visible() and page.locator("details.menu").get_attribute("open") is None:
        menu.click()
    page.locator("details.settings summary").click()


def set_switch(page: Page, label: str, on: bool = True) -> None:
    """Turn a Settings switch on (or off) as a player does, with one tap: it is saved at once
    (issue 35); then the panels close, as a press outside them does."""
    open_settings(page)
    switch = page.locator("#settings-form label.switch", has_text=label)
    if switch.locator("input").is_checked() != on:
        switch.click()
        expect(page.locator("#settings-saved")).to_have_text(re.compile(r"\S"))
    page.evaluate(
        "() => document.querySelectorAll('details.menu, details.settings')"
        ".forEach((d) => { d.open = false; })"
    )


def token(page: Page) -> str:
    return page.locator("#board input[name=token], #info input[name=token]").first.input_value()


# --- Half Moon -----------------------------------------------------------------------------------


def hm_line(code: str = HM) -> list[Removal]:
    line = solve(deal(DealCode.parse(code))).line
    assert line is not None and len(line) == 48, code
    return list(line)


def hm_stuck_line() -> tuple[str, list[Removal]]:
    """A deal and random legal removals (fixed seeds) that leave it stuck after two or more."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
    for number in range(1, 32):
        code = f"HM1-N-AAAAAA{alphabet[number]}"
        for seed in range(20):
            line, stuck = hm_random_line(code, seed)
            if stuck and 2 <= len(line) <= 6:
                return code, line
    raise AssertionError("no short stuck line found")


def hm_card(page: Page, place: int | str) -> Locator:
    name = place if isinstance(place, str) else hm_place(place)
    return page.locator(f"#card-{name}")


def hm_remove(page: Page, removal: Removal, moves_after: int) -> None:
    """Click the cards of one removal in order, waiting for each selection to come back."""
    for i, place in enumerate(removal):
        card = hm_card(page, place)
        card.click()
        if i < len(removal) - 1:
            expect(card).to_have_attribute("aria-pressed", "true")
    expect(board(page)).to_have_attribute("data-moves", str(moves_after))


# --- Seahaven ------------------------------------------------------------------------------------


def sh_line(code: str = SH) -> list[Move]:
    result = solve_code(DealCode.parse(code))
    assert result.line, code
    return list(result.line)


def moving_card(game: Seahaven, move: Move) -> Card:
    """The card a player takes to make ``move``: the bottom of the run, or the top card."""
    source, count, _ = move
    position = game.position
    card = position.columns[source][-count] if source in COLUMNS else position.top(source)
    assert card is not None
    return card


def auto_move(game: Seahaven, card: Card, place: int) -> Move | None:
    """What a double tap on ``card`` would do now (on a copy of the game)."""
    probe = Seahaven.from_record(game.to_record())
    return probe.auto(sh_place(place), card, now=0).move


def sh_card(page: Page, card: Card | str) -> Locator:
    return page.locator(f"#card-{card}")


def strip_point(locator: Locator) -> tuple[float, float]:
    """A point on the visible strip of a card (the top edge shows even when overlapped)."""
    box = locator.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 9)


def target_of(page: Page, place: str) -> Locator:
    """Where a player aims at a place: its last card, or its empty slot."""
    return page.locator(f"[data-place={place}] button").last


STILL = "(el) => Promise.all(el.getAnimations().map((a) => a.finished.catch(() => null)))"
"""Until the element has stopped moving (a card still sliding to where an answer put it,
issue 16): a player aims at a card where it is, as Playwright's own click waits for it."""


def drag(page: Page, source: Locator, target: Locator) -> None:
    """Press on the source card's strip, move in steps, release over the target (each aimed
    at once it stands still)."""
    source.evaluate(STILL)
    target.evaluate(STILL)
    x, y = strip_point(source)
    box = target.bounding_box()
    assert box is not None
    to_x, to_y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 10, y + 10)
    page.mouse.move(to_x, to_y, steps=4)
    page.mouse.up()


def strip_position(locator: Locator) -> dict[str, float]:
    box = locator.bounding_box()
    assert box is not None
    return {"x": box["width"] / 2, "y": min(box["height"] / 2, 9)}


@dataclass
class SeahavenPlayer:
    """One page on one Seahaven deal, with the engine's mirror of what the board should be."""

    page: Page
    code: str
    mirror: Seahaven = field(init=False)
    used: dict[str, int] = field(
        default_factory=lambda: {"click": 0, "double": 0, "drag": 0, "select": 0}
    )

    def __post_init__(self) -> None:
        self.mirror = Seahaven(DealCode.parse(self.code))

    def open(self) -> None:
        self.page.goto(f"/seahaven/{self.code}")
        expect(board(self.page)).to_have_attribute("data-code", self.code)
        self.page.evaluate(
            "() => { window.swaps = 0;"
            " document.addEventListener('htmx:after:swap', () => { window.swaps += 1; }); }"
        )

    def card(self, card: Card | str) -> Locator:
        return sh_card(self.page, card)

    def _done(self, move: Move, card: Card) -> None:
        """Wait for the server's board after ``move``: the count, and the card where it went."""
        self.mirror.play(move, now=0)
        page = self.page
        expect(board(page)).to_have_attribute("data-moves", str(self.mirror.move_count))
        source, _, target = move
        for place in (source, target):
            expect(page.locator(f"[data-place={sh_place(place)}]")).to_have_attribute(
                "data-count", str(self._count(place))
            )
        expect(page.locator(f"[data-place={sh_place(target)}] #card-{card}")).to_have_count(1)
        # the page draws a move before its answer (issue 32): the next gesture aims at the
        # server's board, not at cards the answer is about to replace
        page.wait_for_function("() => !document.querySelector('.htmx-request')")

    def _count(self, place: int) -> int:
        position = self.mirror.position
        if place in COLUMNS:
            return len(position.columns[place])
        if place in FOUNDATIONS:
            return position.foundations[place - FOUNDATIONS.start]
        return 0 if position.top(place) is None else 1

    def click(self, move: Move) -> None:
        """One click on a single card: it goes to its foundation."""
        moving = moving_card(self.mirror, move)
        card = self.card(moving)
        card.click(position=strip_position(card))
        self.used["click"] += 1
        self._done(move, moving)

    def double(self, move: Move) -> None:
        """A double click: only for a move the engine's automatic destination makes."""
        moving = moving_card(self.mirror, move)
        assert auto_move(self.mirror, moving, move.source) == move, move
        card = self.card(moving)
        # the first click leaves at once as a tap: wait until both answers are drawn (the
        # second may change nothing the checks below look at)
        swaps = self.page.evaluate("() => window.swaps")
        card.dblclick(position=strip_position(card))
        self.page.wait_for_function("(n) => window.swaps >= n", arg=swaps + 2)
        self.used["double"] += 1
        self._done(move, moving)

    def drag(self, move: Move) -> None:
        _, _, target = move
        moving = moving_card(self.mirror, move)
        drag(self.page, self.card(moving), target_of(self.page, sh_place(target)))
        self.used["drag"] += 1
        self._done(move, moving)

    def select_then_place(self, move: Move) -> None:
        """Click the card (it becomes the selection), then click the destination."""
        _, _, target = move
        moving = moving_card(self.mirror, move)
        card = self.card(moving)
        card.click(position=strip_position(card))
        expect(card).to_have_attribute("aria-pressed", "true")
        destination = target_of(self.page, sh_place(target))
        destination.click(position=strip_position(destination))
        self.used["select"] += 1
        self._done(move, moving)


# --- getting to a position quickly ---------------------------------------------------------------


def post_form(page: Page, path: str, **fields: str) -> None:
    """POST a game form with the page's cookies and token, as the page itself would without
    JavaScript (a 303 back to the game), to reach a position before the part under test."""
    response = page.request.post(path, form={**fields, "token": token(page)}, max_redirects=0)
    assert response.status == 303, (path, fields, response.status, response.text()[:300])
    location = response.headers["location"]
    assert "?n=" not in location, location  # no refusal, no stale notice


def sh_reach(page: Page, code: str, moves: list[Move]) -> Seahaven:
    """Open a Seahaven deal and play ``moves`` through the move form; the page shows the end."""
    page.goto(f"/seahaven/{code}")
    game = Seahaven(DealCode.parse(code))
    for move in moves:
        source, _, target = move
        card = moving_card(game, move)
        post_form(
            page,
            f"/seahaven/{code}/move",
            **{"from": sh_place(source), "card": str(card), "to": sh_place(target)},
        )
        game.play(move, now=0)
    page.reload()
    expect(board(page)).to_have_attribute("data-moves", str(len(moves)))
    return game


def hm_reach(page: Page, code: str, removals: list[Removal]) -> None:
    """Open a Half Moon deal and make ``removals`` through the tap form."""
    page.goto(f"/half-moon/{code}")
    position = deal(DealCode.parse(code))
    for removal in removals:
        for place in removal:
            top = position.top(place)
            assert top is not None
            post_form(page, f"/half-moon/{code}/tap", place=hm_place(place), card=str(top))
        position = apply_move(position, removal)
    page.reload()
    expect(board(page)).to_have_attribute("data-moves", str(len(removals)))


RUN_HOME = "SH1-C4-AAAAAAE"
"""After 31 moves of its solver's line, 3♥ 4♥ 5♥ lie one under the other at a column's foot."""


def three_hearts_spot(page: Page) -> tuple[list[Move], Seahaven, float, float]:
    """Reach :data:`RUN_HOME`'s 3♥ 4♥ 5♥ and find one spot inside all three cards: the line
    played, the game, and the spot's x and y."""
    line = sh_line(RUN_HOME)[:31]
    game = sh_reach(page, RUN_HOME, line)
    column = game.position.columns[4]
    assert [str(card) for card in column[-3:]] == ["5H", "4H", "3H"]
    boxes = [sh_card(page, name).bounding_box() for name in ("5H", "4H", "3H")]
    assert all(boxes)
    top = max(box["y"] for box in boxes if box)
    bottom = min(box["y"] + box["height"] for box in boxes if box)
    assert top < bottom - 4, boxes  # a spot inside all three cards
    x = boxes[2]["x"] + boxes[2]["width"] / 2 if boxes[2] else 0.0
    return line, game, x, (top + bottom) / 2
