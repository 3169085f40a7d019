"""Replays in Chromium (issue 26): stepping with the keyboard while the cards move as on the
game screens, every step a plain link without JavaScript, a pasted game's text, the phone
layout in three languages, and axe on every replay screen."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from app.engine.codes import DealCode
from app.engine.halfmoon import Removal, apply_move, deal
from app.engine.halfmoon import place_name as hm_place
from app.web.seahaven.replay import moving
from tests.browser import test_motion
from tests.browser.conftest import PHONE, assert_accessible, screenshot
from tests.browser.play import (
    HM,
    SH,
    SH_LOST,
    board,
    hm_line,
    hm_random_line,
    hm_reach,
    moving_card,
    sh_line,
    sh_reach,
)
from tests.browser.test_motion import motion, reset, settled

LINE = hm_line(HM)
watched = test_motion.watched
"""A page whose animations are watched (the motion tests' fixture)."""


def won_replay(page: Page) -> str:
    """Win HM1-N-AAAAAAB through its forms; the end box's link to the game's replay."""
    hm_reach(page, HM, LINE)
    expect(board(page)).to_have_attribute("data-state", "won")
    link = page.locator("#ending-replay")
    expect(link).to_be_visible()
    href = link.get_attribute("href")
    assert href is not None and re.fullmatch(r"/replay/[A-Za-z0-9_-]{22}", href)
    return href


def step_of(page: Page) -> str | None:
    return page.locator("#replay").get_attribute("data-step")


def test_the_keyboard_steps_through_a_replay_and_the_cards_move_as_in_the_game(watched):
    page = watched()
    url = won_replay(page)
    expect(page.locator("#ending-replay")).to_have_text("Watch the replay")
    page.locator("#ending-replay").click()
    expect(page).to_have_url(re.compile(re.escape(url) + "$"))
    expect(page.locator("#replay-keys")).to_be_visible()  # the keys' hint: with the script
    expect(page.locator("#narration")).to_have_text("The deal, before the first move.")
    settled(page)
    reset(page)
    page.keyboard.press("ArrowRight")
    expect(page.locator("#step-count")).to_have_text("Step 1 of 48")
    expect(page).to_have_url(re.compile(re.escape(url) + r"\?step=1$"))
    first = LINE[0]
    position = deal(DealCode.parse(HM))
    expect(board(page)).to_have_attribute("data-moves", "1")
    settled(page)
    seen = motion(page)["seen"]
    for place in first:  # the removed cards leave as on the game screen (motion.js)
        assert f"leave hm-{hm_place(place)}-{position.count(place)}" in seen, seen
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#step-count")).to_have_text("Step 4 of 48")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#step-count")).to_have_text("Step 3 of 48")
    after = position
    for removal in LINE[:3]:
        after = apply_move(after, removal)
    shown = page.evaluate(
        """() => [...document.querySelectorAll('#board [data-place]')].map((p) =>
          [p.dataset.place, p.dataset.count, p.querySelector('[data-card]')?.dataset.card ?? null])"""
    )
    assert shown == [
        [hm_place(i), str(after.count(i)), str(c) if (c := after.top(i)) else None]
        for i in range(20)
    ]
    page.keyboard.press("End")
    expect(page.locator("#step-count")).to_have_text("Step 48 of 48")
    expect(board(page)).to_have_attribute("data-state", "won")
    expect(page.locator("#narration")).to_contain_text("The game is won.")
    page.keyboard.press("ArrowRight")  # nothing after the last step
    expect(page.locator("#step-count")).to_have_text("Step 48 of 48")
    page.keyboard.press("Home")
    expect(page.locator("#step-count")).to_have_text("Step 0 of 48")
    page.go_back()  # every step is in the history
    expect(page).to_have_url(re.compile(r"\?step=48$"))
    expect(page.locator("#step-count")).to_have_text("Step 48 of 48")
    assert page.locator("#board form, #board button").count() == 0  # read-only


def test_without_javascript_every_step_is_a_link(new_context: Callable[..., BrowserContext]):
    player = new_context().new_page()
    url = won_replay(player)
    page = new_context(java_script_enabled=False).new_page()  # another browser: no cookie
    page.goto(url)
    expect(page.locator("#replay-keys")).to_be_hidden()  # the keys work only with the script
    page.locator("#step-next").click()
    expect(page).to_have_url(re.compile(r"\?step=1$"))
    expect(page.locator("#step-count")).to_have_text("Step 1 of 48")
    page.locator("#step-last").click()
    expect(page.locator("#step-count")).to_have_text("Step 48 of 48")
    expect(page.locator("#step-next")).to_have_attribute("aria-disabled", "true")
    page.locator("#step-prev").click()
    expect(page.locator("#step-count")).to_have_text("Step 47 of 48")
    page.locator("#step-first").click()
    expect(page).to_have_url(re.compile(r"\?step=0$"))
    page.locator("#replay-text").click()
    assert page.locator("body").inner_text().splitlines()[0] == HM


def test_a_pasted_game_steps_with_the_keyboard_and_stores_nothing(page: Page):
    url = won_replay(page)
    text = page.request.get(url + ".txt").text()
    page.goto("/replay")
    page.locator("#replay-text-field").fill(text)
    page.locator("#replay-open").click()
    expect(page.locator("#step-count")).to_have_text("Step 0 of 48")
    assert_accessible(page, "a pasted game's replay")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#step-count")).to_have_text("Step 2 of 48")
    expect(board(page)).to_have_attribute("data-moves", "2")
    page.keyboard.press("End")
    expect(page.locator("#step-count")).to_have_text("Step 48 of 48")
    page.goto("/replay")
    page.locator("#replay-text-field").fill(text.replace("\n", "\nzz\n", 1))
    page.locator("#replay-open").click()
    expect(page.locator("#replay-problem")).to_contain_text("Line 2: “zz” is not a move.")
    assert_accessible(page, "the text form with a bad line")


@pytest.mark.parametrize("lang", ["en", "tr", "bg"])
def test_a_replay_on_a_phone_in_every_language(new_context, lang):
    phone = {"viewport": PHONE, "is_mobile": True, "has_touch": True, "locale": lang}
    player = new_context(**phone).new_page()
    url = won_replay(player)
    summary = player.locator("#summary").bounding_box()
    link = player.locator("#ending-replay").bounding_box()
    assert summary is not None and link is not None
    assert (
        summary["x"] <= link["x"] and link["x"] + link["width"] <= summary["x"] + summary["width"]
    )
    screenshot(player, f"replay-link-phone-{lang}")
    page = new_context(**phone).new_page()  # someone the link was sent to
    page.goto(f"{url}?step=20")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways: {width}px"
    box = board(page).bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5
    for control in ("#step-first", "#step-prev", "#step-next", "#step-last"):
        target = page.locator(control).bounding_box()
        assert target is not None and target["height"] >= 24 and target["width"] >= 24
    # the step count wrapped to a row of its own starts where the buttons do (it was 6 px in)
    lefts = page.evaluate(
        """() => { const e = document.getElementById('step-count');
          const c = e.getBoundingClientRect();
          const row = [...e.parentElement.children].filter((e) =>
            Math.abs(e.getBoundingClientRect().top - c.top) < c.height);
          return [c.left, Math.min(...row.map((e) => e.getBoundingClientRect().left)),
                  document.getElementById('step-first').getBoundingClientRect().left]; }"""
    )
    count, row, first = lefts
    if count == row:  # first on its row
        assert abs(count - first) < 0.5, f"the step count starts {count - first:.1f} px in"
    screenshot(page, f"replay-phone-{lang}")
    assert_accessible(page, f"a replay on a phone ({lang})")


def test_axe_on_every_replay_screen(page: Page):
    url = won_replay(page)
    assert_accessible(page, "the won game's end box with its replay link")
    for step in (0, 1, 48):
        page.goto(f"{url}?step={step}")
        assert_accessible(page, f"replay step {step}")
    page.goto("/stats")
    expect(page.locator("#replay-list tbody tr")).to_have_count(1)
    assert_accessible(page, "/stats with its replays")
    page.goto("/")
    expect(page.locator(".finished .replay-link")).to_have_count(1)
    assert_accessible(page, "home with a finished game's replay")
    sh_reach(page, SH_LOST, [])  # lost at the deal: no move, no replay
    page.goto("/replay")
    assert_accessible(page, "the text form")


def test_a_replay_is_deleted_from_stats(new_context: Callable[..., BrowserContext]):
    page = new_context().new_page()
    url = won_replay(page)
    page.goto("/stats")
    page.locator("#replay-list").get_by_role("button", name=re.compile("Delete the replay")).click()
    expect(page.locator("#stats-notice")).to_have_text(
        "The replay was deleted: its link opens nothing any more."
    )
    expect(page.locator("#no-replays")).to_be_visible()
    other = new_context().new_page()
    response = other.goto(url)
    assert response is not None and response.status == 404


# --- a Seahaven replay moves its cards; where you stand; both results listed --------------------


def test_a_seahaven_replay_step_slides_the_card_it_moves(watched):
    """The same FLIP motion as the game screen: the card a step moves slides from where it
    was (its run with it), backwards too."""
    page = watched()
    line = sh_line(SH)
    game = sh_reach(page, SH, line)
    expect(board(page)).to_have_attribute("data-state", "won")
    url = page.locator("#ending-replay").get_attribute("href")
    assert url is not None
    page.goto(f"{url}?step=19")
    expect(page.locator("#replay-keys")).to_be_visible()
    game = type(game)(DealCode.parse(SH))
    for move in line[:19]:
        game.play(move, now=0)
    run = line[19]
    assert run.count == 2  # the king of diamonds with the queen on it (tests/web/test_replays.py)
    cards = game.position.columns[run.source][-run.count :]
    assert moving_card(game, run) == cards[0]
    # the next move's cards are raised (issue 45): at step 20 the next one's lift too
    after = type(game)(DealCode.parse(SH))
    for move in line[:20]:
        after.play(move, now=0)
    coming = moving(after.position, line[20])
    assert not set(coming) & set(cards)
    settled(page)
    reset(page)
    page.keyboard.press("ArrowRight")
    expect(page.locator("#step-count")).to_have_text(f"Step 20 of {len(line)}")
    expect(page.locator("#narration")).to_have_text(
        f"Move 20: King of diamonds and 1 card on it from column {run.source + 1} to column 5."
    )
    settled(page)
    lifted = [*cards, *coming]
    assert sorted(motion(page)["seen"]) == sorted(f"slide card-{card}" for card in lifted)
    reset(page)
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#step-count")).to_have_text(f"Step 19 of {len(line)}")
    settled(page)
    assert sorted(motion(page)["seen"]) == sorted(f"slide card-{card}" for card in lifted)


STANDING_DEAL = "HM1-N-AAAABAA"
AGAIN_DEAL = "HM1-N-AAAABDA"
"""Deals no other browser test plays (their figures start empty): each has a 48-removal solver
line and random removals that leave it stuck."""


def stuck_line(code: str) -> list[Removal]:
    """Random legal removals (fixed seeds) that leave ``code`` stuck."""
    for seed in range(50):
        line, stuck = hm_random_line(code, seed)
        if stuck:
            return line
    raise AssertionError(f"no stuck line for {code}")


def test_the_end_box_says_where_a_win_and_a_loss_stand_on_the_deal(
    new_context: Callable[..., BrowserContext],
):
    winner = new_context().new_page()
    hm_reach(winner, STANDING_DEAL, hm_line(STANDING_DEAL))
    expect(board(winner)).to_have_attribute("data-state", "won")
    standing = winner.locator("#summary #standing")
    expect(standing).to_be_visible()
    expect(standing).to_have_text(
        re.compile(r"^Won in 0:\d\d: nobody else has won this deal yet\.$")
    )
    loser = new_context().new_page()
    line = stuck_line(STANDING_DEAL)
    hm_reach(loser, STANDING_DEAL, line)
    expect(board(loser)).to_have_attribute("data-state", "stuck")
    standing = loser.locator("#ending #standing")
    expect(standing).to_be_visible()
    expect(standing).to_have_text("1 player has won this deal.")
    assert_accessible(loser, "a stuck game's end box with where it stands")


def test_play_again_then_a_loss_lists_the_win_and_the_loss_on_the_home_page(page: Page):
    hm_reach(page, AGAIN_DEAL, hm_line(AGAIN_DEAL))
    expect(board(page)).to_have_attribute("data-state", "won")
    won = page.locator("#ending-replay").get_attribute("href")
    page.locator("#ending-again").click()  # Play this deal again
    expect(board(page)).to_have_attribute("data-moves", "0")
    line = stuck_line(AGAIN_DEAL)
    hm_reach(page, AGAIN_DEAL, line)
    expect(board(page)).to_have_attribute("data-state", "stuck")
    lost = page.locator("#ending-replay").get_attribute("href")
    assert won is not None and lost is not None and won != lost
    page.goto("/")
    listed = page.locator(f".finished li[data-code={AGAIN_DEAL}]")
    expect(listed).to_have_count(2)
    shown = [
        (item.get_attribute("data-result"), item.locator(".replay-link").get_attribute("href"))
        for item in listed.all()
    ]
    assert shown == [("stuck", lost), ("won", won)]
    expect(listed.nth(0).locator("span").first).to_have_text("Lost")
    expect(listed.nth(1).locator("span").first).to_have_text("Won")
    listed.nth(1).locator(".replay-link").click()
    expect(page).to_have_url(re.compile(re.escape(won) + "$"))
    expect(page.locator("#replay-outcome")).to_have_text("Won")


def test_the_keys_hint_is_hidden_on_a_touch_only_phone(new_context: Callable[..., BrowserContext]):
    """A phone has no arrow keys: at 390 x 844 with touch only, the hint is not shown (it is
    with a mouse: test_the_keyboard_steps_through_a_replay_and_the_cards_move_as_in_the_game)."""
    player = new_context().new_page()
    url = won_replay(player)
    phone = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    phone.goto(f"{url}?step=1")
    touch_only = "() => matchMedia('(hover: none) and (pointer: coarse)').matches"
    assert phone.evaluate(touch_only) is True
    assert phone.evaluate("() => document.getElementById('replay-keys').hidden") is False
    expect(phone.locator("#replay-keys")).to_be_hidden()
    expect(phone.locator("#step-count")).to_have_text("Step 1 of 48")


@pytest.mark.parametrize("game", ["half-moon", "seahaven"])
def test_a_replay_at_1440_keeps_its_board_clear_of_the_move_list(page: Page, game: str):
    """At 1440 x 900 the move list stands beside the board: every card and place of the board
    ends before the list begins (Seahaven's fourth foundation was under the list, cards sized
    by the screen's height, not by the board's column)."""
    if game == "half-moon":
        url = won_replay(page)
    else:
        sh_reach(page, SH, sh_line(SH))
        expect(board(page)).to_have_attribute("data-state", "won")
        url = page.locator("#ending-replay").get_attribute("href") or ""
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(f"{url}?step=20")
    rights = page.evaluate(
        """() => [...document.querySelectorAll('#board .card, #board [data-place]')]
          .map((e) => e.getBoundingClientRect().right)"""
    )
    listed = page.locator(".move-list-box").bounding_box()
    assert listed is not None and len(rights) > 20
    assert max(rights) <= listed["x"], (
        f"the board reaches {max(rights) - listed['x']:.0f} px under the list"
    )
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 1440
