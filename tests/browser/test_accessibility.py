"""axe-core (WCAG 2.0/2.1/2.2, A and AA) on every screen and state, and what axe cannot judge
alone: target sizes, colour as a signal, reduced motion, the dark scheme."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from app.engine.codes import DealCode
from app.engine.halfmoon import deal
from tests.browser.conftest import DESKTOP, PHONE, assert_accessible, screenshot
from tests.browser.geometry import assert_apart, contrast
from tests.browser.play import (
    HM,
    SH,
    SH_LONG,
    SH_LOST,
    board,
    hm_card,
    hm_line,
    hm_remove,
    hm_stuck_line,
    set_switch,
    sh_line,
    sh_reach,
    token,
)

SUITS = "♠♥♦♣"


def test_home_new_game_dialog_and_error_page(page: Page):
    page.goto("/")
    expect(page.locator("h1")).to_have_text("Half Moon and Seahaven Towers")
    assert_accessible(page, "home")
    page.goto("/seahaven")
    expect(page.locator("#deal")).to_be_visible()
    assert_accessible(page, "Seahaven's New game dialog")
    response = page.goto("/half-moon/nonsense")
    assert response is not None and response.status == 404
    expect(page.locator("section.error h1")).to_be_visible()
    assert_accessible(page, "the error page for /half-moon/nonsense")
    # the home page after playing lists the game to continue
    page.goto(f"/half-moon/{HM}")
    hm_remove(page, hm_line(HM)[0], 1)
    page.goto("/")
    expect(page.locator(".continue a")).to_have_count(1)
    assert_accessible(page, "home with a game to continue")


def test_half_moon_new_with_a_selection_and_with_placement_help(page: Page):
    page.goto(f"/half-moon/{HM}")
    assert_accessible(page, "Half Moon, new game")
    first = hm_line(HM)[0][0]
    hm_card(page, first).click()
    expect(hm_card(page, first)).to_have_attribute("aria-pressed", "true")
    assert_accessible(page, "Half Moon with a selection")
    # Placement help on (the selection survives the settings form), then the dimmed cards
    page.locator("details.settings summary").click()
    assert_accessible(page, "Half Moon with the settings open")
    page.get_by_label("Placement help").check()  # applied at once: with a selection, the page again
    expect(board(page)).to_have_class(re.compile(r"\bwith-help\b"))
    expect(hm_card(page, first)).to_have_attribute("aria-pressed", "true")
    position = deal(DealCode.parse(HM))
    chosen = position.top(first)
    assert chosen is not None
    lit = [
        p
        for p in range(20)
        if p != first and (c := position.top(p)) is not None and c.rank + chosen.rank == 11
    ]
    expect(page.locator("#board .place.dimmed")).to_have_count(20 - 1 - len(lit))
    screenshot(page, "half-moon-desktop-placement-help")
    assert_accessible(page, "Half Moon with Placement help and a selection (dimmed cards)")


def test_a_stuck_half_moon_game(page: Page):
    code, line = hm_stuck_line()
    page.goto(f"/half-moon/{code}")
    for number, removal in enumerate(line, start=1):
        hm_remove(page, removal, number)
    expect(board(page)).to_have_attribute("data-state", "stuck")
    expect(page.locator(".ending.stuck #ending-text")).to_have_text(
        "No moves left: no pair sums to 11 and there is no jack–queen–king triple to remove. "
        "Undo, or restart the deal."
    )
    expect(page.locator("#clock")).to_have_attribute("data-running", "false")
    screenshot(page, "half-moon-desktop-stuck")
    assert_apart(page, "#board .ending", "#board .card, #board .label")
    assert_accessible(page, f"Half Moon stuck ({code})")
    page.locator("#ending-undo").click()
    expect(board(page)).to_have_attribute("data-state", "playing")
    expect(board(page)).to_have_attribute("data-moves", str(len(line) - 1))


def test_seahaven_board_selection_and_lost(page: Page):
    page.goto(f"/seahaven/{SH}")
    assert_accessible(page, "Seahaven, new game")
    top = page.locator("[data-place=column-1] [data-card]").last
    top.focus()
    page.keyboard.press("Enter")  # a keyboard tap: selects (or sends home)
    expect(page.locator("#status")).not_to_have_text("")
    assert_accessible(page, "Seahaven after a tap")
    page.goto(f"/seahaven/{SH_LOST}")
    expect(board(page)).to_have_attribute("data-state", "lost")
    screenshot(page, "seahaven-desktop-lost")
    assert_apart(page, "#board .ending", "#board .card, #board .label")
    assert_accessible(page, "Seahaven lost")


def test_a_seahaven_board_with_a_13_card_column(page: Page):
    sh_reach(page, SH_LONG, sh_line(SH_LONG)[:16])
    assert_accessible(page, "Seahaven with a 13-card column, desktop")
    page.set_viewport_size(PHONE)
    assert_accessible(page, "Seahaven with a 13-card column, phone")


@pytest.mark.parametrize("locale", ["en-GB", "tr-TR", "bg-BG"])
def test_both_boards_in_every_language(new_context: Callable[..., BrowserContext], locale):
    page = new_context(locale=locale).new_page()
    lang = locale[:2]
    for url in (f"/half-moon/{HM}", f"/seahaven/{SH}"):
        page.goto(url)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        assert_accessible(page, f"{url} in {lang}")


# --- what axe does not measure ---------------------------------------------------------------------

_TARGETS = """() => {
  const controls = [...document.querySelectorAll(
    'header button, header summary, header label, #info button:not([hidden]), #info a.button,'
    + ' #board button, .ending a.button')].filter((e) => e.getClientRects().length > 0);
  // (not drawn at this size: the menu's button on a wide screen)
  return controls.map((e) => {
    const r = e.getBoundingClientRect();
    let height = r.height;
    // a card covered by the next card of its column: only its strip can be hit
    const next = e.nextElementSibling;
    if (e.matches('.fan .card') && next && next.matches('.card')) {
      height = next.getBoundingClientRect().top - r.top;
    }
    return {id: e.id || e.textContent.trim(), width: r.width, height};
  });
}"""


@pytest.mark.parametrize("game", ["half-moon", "seahaven"])
def test_every_card_and_control_is_a_24px_target_on_a_desktop(page: Page, game):
    page.goto(f"/{game}/{HM if game == 'half-moon' else SH}")
    page.locator("details.settings summary").click()  # its switches' and choices' labels too
    expect(page.locator("details.settings")).to_have_attribute("open", "")
    targets = page.evaluate(_TARGETS)
    cards = [t for t in targets if t["id"].startswith("card-")]
    assert len(cards) == (20 if game == "half-moon" else 52)
    names = [t["id"] for t in targets]
    for name in ("control-undo", "control-redo", "control-restart", "control-new"):
        assert name in names
    assert {"English", "Türkçe", "Български", "Settings", "Dark", "Four colours"} <= set(names)
    for switch in ("Move errors", "Placement help", "Zen", "Sound"):
        assert any(n.startswith(switch) for n in names), (switch, names)
    small = [t for t in targets if t["width"] < 24 or t["height"] < 24]
    assert small == []


def test_colour_is_never_the_only_signal(page: Page):
    """Every card shows its rank and its suit's symbol, not only a red or black ink."""
    for url in (f"/half-moon/{HM}", f"/seahaven/{SH}"):
        page.goto(url)
        faces = page.evaluate(
            "() => [...document.querySelectorAll('#board [data-card]')].map("
            "(b) => [b.dataset.card, b.querySelector('.rank').textContent,"
            " b.querySelector('.suit').textContent])"
        )
        assert faces
        for code, rank, suit in faces:
            assert rank == code[:-1] and suit == SUITS["SHDC".index(code[-1])], (code, rank, suit)
    # an empty foundation shows its suit too
    expect(page.locator("#slot-foundation-H .suit")).to_have_text("♥")


def test_reduced_motion_turns_the_card_transitions_off(page: Page):
    page.goto(f"/half-moon/{HM}")
    duration = "() => getComputedStyle(document.querySelector('#board .card')).transitionDuration"
    assert set(page.evaluate(duration).split(", ")) == {"0.12s"}
    page.emulate_media(reduced_motion="reduce")
    assert set(page.evaluate(duration).split(", ")) == {"0s"}


def test_the_dark_scheme_darkens_the_felt(page: Page):
    page.goto(f"/half-moon/{HM}")
    background = "() => getComputedStyle(document.body).backgroundImage"
    page.emulate_media(color_scheme="light")
    light = page.evaluate(background)
    page.emulate_media(color_scheme="dark")
    dark = page.evaluate(background)
    assert light.startswith("radial-gradient(") and dark.startswith("radial-gradient(")
    assert light != dark
    assert "rgb(15, 92, 58)" in light and "rgb(35, 39, 43)" in dark  # issue 35: charcoal


@pytest.mark.parametrize("deck", ["classic", "four-colour"])
def test_axe_finds_nothing_under_the_auto_theme_with_a_dark_system(
    new_context: Callable[..., BrowserContext], deck: str
):
    """Theme ``auto`` (the default) follows a dark system: the dark felt and face, the dark
    theme colour, and nothing axe finds (tests/browser/test_preferences.py covers the themes
    the player forces)."""
    page = new_context(color_scheme="dark").new_page()
    page.goto(f"/half-moon/{HM}")
    response = page.request.post(
        "/settings",
        form={"deck": deck, "placement_help": "on", "token": token(page), "next": "/"},
        max_redirects=0,
    )
    assert response.status == 303
    page.reload()
    root = page.locator("html")
    expect(root).to_have_attribute("data-theme", "auto")
    expect(root).to_have_attribute("data-deck", deck)
    assert "rgb(35, 39, 43)" in page.evaluate(
        "() => getComputedStyle(document.body).backgroundImage"
    )
    dark = page.locator('meta[name="theme-color"][media="(prefers-color-scheme: dark)"]')
    expect(dark).to_have_attribute("content", "#23272b")
    first = hm_line(HM)[0][0]
    hm_card(page, first).click()
    expect(page.locator("#board .place.dimmed").first).to_be_visible()
    assert_accessible(page, f"Half Moon, auto theme on a dark system, {deck}, dimmed cards")
    sh_reach(page, SH, sh_line(SH)[:4])
    assert_accessible(page, f"Seahaven, auto theme on a dark system, {deck}")
    page.goto("/")
    page.locator("details.settings summary").click()
    assert_accessible(page, f"home with the settings open, auto theme on a dark system, {deck}")


# --- contrast where axe cannot look ----------------------------------------------------------------

_FACES = """() => {
  const root = getComputedStyle(document.documentElement);
  const felts = [root.getPropertyValue('--felt'), root.getPropertyValue('--felt-dark')];
  return [...document.querySelectorAll('#board [data-card] .rank')].map((rank) => {
    const card = rank.closest('.card');
    let opacity = 1;
    for (let e = card; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
    const style = getComputedStyle(rank);
    return {card: card.dataset.card, ink: style.color, paper: getComputedStyle(card).backgroundColor,
            opacity, felts, size: parseFloat(style.fontSize), weight: Number(style.fontWeight)};
  });
}"""


def _rgb(text: str) -> tuple[float, float, float]:
    text = text.strip()
    if text.startswith("#"):
        return tuple(int(text[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]
    r, g, b = (float(v) for v in re.findall(r"[\d.]+", text)[:3])
    return r, g, b


def _over(colour, opacity: float, felt):
    return tuple(opacity * c + (1 - opacity) * f for c, f in zip(colour, felt, strict=True))


def card_contrasts(page: Page) -> list[tuple[str, float, float]]:
    """(card, contrast of its rank against its face, what WCAG 1.4.3 asks) — on either end of
    the felt's gradient, through any opacity. axe skips one- and two-letter texts."""
    found = []
    for face in page.evaluate(_FACES):
        large = face["size"] >= 24 or (face["size"] >= 18.66 and face["weight"] >= 700)
        for felt in face["felts"]:
            ink = _over(_rgb(face["ink"]), face["opacity"], _rgb(felt))
            paper = _over(_rgb(face["paper"]), face["opacity"], _rgb(felt))
            found.append((face["card"], contrast(ink, paper), 3.0 if large else 4.5))
    return found


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_card_faces_keep_their_contrast_also_when_dimmed(page: Page, scheme, size):
    page.emulate_media(color_scheme=scheme)
    page.set_viewport_size(size)
    page.goto(f"/half-moon/{HM}")
    set_switch(page, "Placement help")  # on a phone, in the header's menu
    first = hm_line(HM)[0][0]
    hm_card(page, first).click()
    expect(page.locator("#board .place.dimmed").first).to_be_visible()
    faces = card_contrasts(page)
    assert len(faces) == 40
    assert [f for f in faces if f[1] < f[2]] == []
    page.goto(f"/seahaven/{SH}")
    faces = card_contrasts(page)
    assert len(faces) == 104
    assert [f for f in faces if f[1] < f[2]] == []
