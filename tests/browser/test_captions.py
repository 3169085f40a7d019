"""Issue 35 item 4 in Chromium: the places' captions read as part of a polished table, and a
won board looks won — not 20 dashed boxes saying "0 cards".

At 390 × 844 (touch), 844 × 390 (touch) and 1440 × 900; what is drawn read from computed
styles and ``getBoundingClientRect``.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import assert_accessible, screenshot
from tests.browser.play import (
    HM,
    SH,
    board,
    hm_line,
    hm_reach,
    moving_card,
    sh_line,
    sh_reach,
    strip_position,
)
from tests.browser.test_phone import (
    LANDSCAPE_TOUCH,
    PHONE_TOUCH,
    play_last_half_moon_removal,
    ready,
)

SIZES = {"phone": PHONE_TOUCH, "landscape": LANDSCAPE_TOUCH, "desktop": {}}

DRAWN = """() => {
  const seen = (e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden'
    && parseFloat(getComputedStyle(e).opacity) > 0;
  const alpha = (c) => { const m = c.match(/rgba?\\(([^)]*)\\)/); if (!m) return 1;
    const parts = m[1].split(/[ ,\\/]+/).filter(Boolean); return parts.length > 3 ? +parts[3] : 1; };
  const board = document.getElementById('board');
  return {
    outlines: [...board.querySelectorAll('.card.empty')].filter(seen).filter((e) => {
      const s = getComputedStyle(e);
      return s.borderTopStyle === 'dashed' && alpha(s.borderTopColor) > 0; }).length,
    captions: [...board.querySelectorAll('.place > .label')].filter(seen)
      .map((l) => l.innerText.replace(/\\s+/g, ' ').trim()),
    cards: [...board.querySelectorAll('.card[data-card]')].filter(seen).map((c) => c.dataset.card),
    named: [...board.querySelectorAll('.card.empty[aria-label]')].length,
  };
}"""


def drawn(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(DRAWN)
    return found


@pytest.mark.parametrize("size", SIZES)
def test_a_won_half_moon_board_looks_won(new_context, size):
    page = new_context(**SIZES[size]).new_page()
    line = hm_line(HM)
    hm_reach(page, HM, line[:-1])
    before = drawn(page)
    assert before["outlines"] == 18 and len(before["captions"]) == 20  # while it is played
    play_last_half_moon_removal(page, line)
    expect(board(page)).to_have_attribute("data-state", "won")
    page.locator("#board .ending").evaluate(
        "(e) => Promise.all(e.getAnimations().map((a) => a.finished))"
    )
    screenshot(page, f"issue35-hm-won-board-{size}")
    after = drawn(page)
    assert (after["outlines"], after["captions"], after["cards"]) == (0, [], [])
    assert after["named"] == 20  # each place still named for screen readers ("pile 1, 0 cards")
    assert_accessible(page, f"a won Half Moon board ({size})")


@pytest.mark.parametrize("size", SIZES)
def test_a_won_seahaven_board_shows_its_four_kings_and_nothing_else(new_context, size):
    page = new_context(**SIZES[size]).new_page()
    line = sh_line(SH)
    game = sh_reach(page, SH, line[:-1])
    ready(page)
    card = page.locator(f"#card-{moving_card(game, line[-1])}")
    card.click(position=strip_position(card))  # the last card home
    expect(board(page)).to_have_attribute("data-state", "won")
    screenshot(page, f"issue35-sh-won-board-{size}")
    after = drawn(page)
    assert after["outlines"] == 0
    assert after["captions"] == []
    assert sorted(after["cards"]) == ["KC", "KD", "KH", "KS"]


CAPTIONS = """() => [...document.querySelectorAll('#board .place')].map((p) => {
  const label = p.querySelector(':scope > .label'), r = label.getBoundingClientRect();
  const cards = [...p.querySelectorAll('.card')], last = cards[cards.length - 1];
  const below = cards.length ? last.getBoundingClientRect().bottom : null;
  const s = getComputedStyle(label);
  return {place: p.dataset.place, top: Math.round(r.top * 2) / 2, height: r.height,
          line: parseFloat(s.lineHeight), weight: +s.fontWeight, size: parseFloat(s.fontSize),
          lastBottom: Math.round(below),
          text: (getComputedStyle(label, '::before').content.replace(/^"|"$/g, '')
                 .replace(/^none$|^normal$/, '') + ' ' + label.innerText).replace(/\\s+/g, ' ')
                 .trim()};
})"""


@pytest.mark.parametrize("lang", ["en", "tr", "bg"])
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", ["half-moon", "seahaven"])
def test_every_caption_is_one_quiet_line_level_with_its_rows(new_context, game, size, lang):
    """Captions stacked on up to three lines ("♠" / "0" / "cards" under a foundation, one line
    under a cell beside it): each is now one line of one height, regular weight, and places
    whose cards end level have their captions level (the cells and foundations; a reserve
    row; columns of the same length)."""
    locale = {"en": "en-US", "tr": "tr-TR", "bg": "bg-BG"}[lang]
    page = new_context(locale=locale, **SIZES[size]).new_page()
    page.goto(f"/{game}/{HM if game == 'half-moon' else SH}")
    captions = page.evaluate(CAPTIONS)
    assert len(captions) == (20 if game == "half-moon" else 18)
    assert [c for c in captions if abs(c["height"] - c["line"]) > 0.5 or not c["text"]] == []
    assert {c["weight"] for c in captions} == {400}
    assert len({c["size"] for c in captions}) == 1
    rows: dict[int, set[float]] = {}
    for c in captions:
        rows.setdefault(c["lastBottom"], set()).add(c["top"])
    assert [tops for tops in rows.values() if len(tops) > 1] == [], captions
    if game == "seahaven" and size != "landscape":  # the cells and foundations: one row (in
        # landscape a block of two beside the columns, its rows held above)
        top = [c["top"] for c in captions if not c["place"].startswith("column")]
        assert len(set(top)) == 1, captions


CROSSINGS = """() => {
  const seen = (e) => e.getClientRects().length && getComputedStyle(e).display !== 'none';
  const ink = (label) => { const r = document.createRange(); r.selectNodeContents(label);
    return r.getBoundingClientRect(); };
  const places = [...document.querySelectorAll('#board .place')].map((p) => ({
    place: p.dataset.place,
    text: p.querySelector(':scope > .label').innerText.replace(/\\s+/g, ' ').trim(),
    label: ink(p.querySelector(':scope > .label')),
    cards: [...p.querySelectorAll('.card')].filter(seen).map((c) => c.getBoundingClientRect()),
  }));
  const cross = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  const found = [];
  for (const p of places) for (const q of places) {
    if (p === q) continue;
    if (p.place < q.place && cross(p.label, q.label)) found.push([p.text, q.text]);
    if (q.cards.some((c) => cross(p.label, c))) found.push([p.text, 'a card of ' + q.place]);
  }
  return found;
}"""


@pytest.mark.parametrize("lang", ["en", "tr", "bg"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("where", ["game", "replay"])
def test_no_half_moon_caption_runs_into_its_neighbours(new_context, where, size, lang):
    """Each caption's words clear the other captions and the other places' cards, in the game
    and on a replay's page, where the arc stands beside the move list (issue 35, items 4 and
    6): at 1440 × 900 "reserve 1, 1 card" ran into "reserve 2, 1 card" there."""
    locale = {"en": "en-US", "tr": "tr-TR", "bg": "bg-BG"}[lang]
    page = new_context(locale=locale, **SIZES[size]).new_page()
    if where == "game":
        page.goto(f"/half-moon/{HM}")
    else:
        page.goto("/replay")  # a pasted game: its first five removals
        text = "\n".join([HM, *(str(removal) for removal in hm_line(HM)[:5])])
        page.locator("textarea[name=text]").fill(text)
        page.locator("form button").last.click()
        expect(page.locator("#move-list li")).to_have_count(6)
    expect(page.locator("#board .place")).to_have_count(20)
    screenshot(page, f"issue35-hm-captions-{where}-{size}-{lang}")
    assert page.evaluate(CROSSINGS) == []
