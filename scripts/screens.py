"""Screenshots of every page a player meets, to look at (issue 22's "Done means").

Run: ``.venv/bin/python -m scripts.screens [--out DIR] [--sizes phone,landscape,desktop]
[--langs en,tr,bg] [--only NAME,...]``

A real uvicorn (its own SQLite file) and Debian's Chromium: at 390 × 844 (touch, device scale
2), 844 × 390 (touch, scale 2) and 1440 × 900, in English, Turkish and Bulgarian, one player
per size and language who plays a few games first (a Half Moon win and a dead end, a Seahaven
win and a deal lost at the start), so ``/stats`` has figures and charts and the wins have
replays (shot at step 20, and the form that opens a game's text). Issue 35: the newcomer's
first visit comes first (the home page's tiles, both how-to-plays, the help under "?", the
settings), and the home page again at the end (today's deals with their marks). Each shot is
what the screen shows (not the whole page); a long page gets one shot per screen, up to
``--screens``.
The files are ``DIR/<size>-<lang>-<page>-<n>.png``; open them and look as a player would.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect, sync_playwright

from tests.browser.conftest import chromium_executable
from tests.browser.play import (
    HM,
    SH,
    SH_LOST,
    board,
    hm_line,
    hm_reach,
    hm_stuck_line,
    sh_line,
    sh_reach,
)
from tests.system.servers import start_server

SIZES: dict[str, dict[str, Any]] = {
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "has_touch": True,
        "is_mobile": True,
        "device_scale_factor": 2,
    },
    "landscape": {
        "viewport": {"width": 844, "height": 390},
        "has_touch": True,
        "is_mobile": True,
        "device_scale_factor": 2,
    },
    "desktop": {"viewport": {"width": 1440, "height": 900}},
}
LOCALES = {"en": "en-US", "tr": "tr-TR", "bg": "bg-BG"}


def settled(page: Page) -> None:
    """Until fonts, images and animations are done: the picture a player looks at."""
    page.evaluate("() => document.fonts.ready")
    page.evaluate(
        "() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)))"
    )


def hm_won(page: Page) -> None:
    hm_reach(page, HM, hm_line(HM))


def hm_stuck(page: Page) -> None:
    code, line = hm_stuck_line()
    hm_reach(page, code, line)
    expect(board(page)).to_have_attribute("data-state", "stuck")


def sh_won(page: Page) -> None:
    sh_reach(page, SH, sh_line(SH))


def sh_lost(page: Page) -> None:
    page.goto(f"/seahaven/{SH_LOST}")


def goto(path: str) -> Callable[[Page], None]:
    def visit(page: Page) -> None:
        page.goto(path)

    return visit


def replay_of(code: str, step: int) -> Callable[[Page], None]:
    """The replay of the player's finished game of ``code`` (from the home page's list), at
    ``step``."""

    def visit(page: Page) -> None:
        page.goto("/")
        href = page.locator(f".finished li[data-code={code}] .replay-link").first.get_attribute(
            "href"
        )
        assert href is not None, f"no replay of {code} on the home page"
        page.goto(f"{href}?step={step}")

    return visit


def howto_last(slug: str, code: str) -> Callable[[Page], None]:
    """A game's how-to-play at its last screen (a phone shows one at a time: Next twice)."""

    def visit(page: Page) -> None:
        page.goto(f"/{slug}/{code}")
        for n in (1, 2):
            link = page.locator(f"#howto-next-{n}")
            if link.is_visible():
                link.click()
                page.wait_for_timeout(400)  # the row scrolls to the screen

    return visit


def help_open(page: Page) -> None:
    """Both how-to-plays dismissed ("Got it"), then the help under "?" on Seahaven's board."""
    for url in (f"/half-moon/{HM}", f"/seahaven/{SH}"):
        page.goto(url)
        page.locator("#howto-done").click()
        expect(page.locator("#howto")).to_be_hidden()
    page.locator(".shortcuts-help summary").click()


def settings_open(page: Page) -> None:
    page.goto(f"/half-moon/{HM}")
    menu = page.locator("#menu-button")
    if menu.is_visible():
        menu.click()
    page.locator("details.settings summary").click()


PAGES: dict[str, Callable[[Page], None]] = {
    # a newcomer first (issue 35): the home page's tiles, each game's how-to-play, the help
    "home-first": goto("/"),
    "howto-half-moon": goto(f"/half-moon/{HM}"),
    "howto-half-moon-last": howto_last("half-moon", HM),
    "howto-seahaven": goto(f"/seahaven/{SH}"),
    "howto-seahaven-last": howto_last("seahaven", SH),
    "help": help_open,
    "settings": settings_open,
    "half-moon": goto(f"/half-moon/{HM}"),
    "seahaven": goto(f"/seahaven/{SH}"),
    "hm-won": hm_won,
    "hm-stuck": hm_stuck,
    "sh-won": sh_won,
    "sh-lost": sh_lost,
    "stats": goto("/stats"),
    "replay-half-moon": replay_of(HM, 20),
    "replay-seahaven": replay_of(SH, 20),
    "replay-form": goto("/replay"),
    "examples-half-moon": goto("/examples/half-moon?step=3#replay"),
    "examples-seahaven": goto("/examples/seahaven?step=3#replay"),
    "rules-half-moon": goto("/rules/half-moon"),
    "rules-seahaven": goto("/rules/seahaven"),
    "rules-letters": goto("/rules/half-moon#letters"),
    "winnability": goto("/winnability"),
    "home": goto("/"),  # after the games: today's deals with their marks, games to continue
}
"""In this order: a newcomer's first visit before anything is dismissed or played; the games
are played before /stats and the last home page are shot."""


def shoot(page: Page, out: Path, name: str, screens: int) -> list[Path]:
    settled(page)
    shots = []
    height = page.evaluate("() => innerHeight")
    total = page.evaluate("() => document.documentElement.scrollHeight")
    start = page.evaluate("() => scrollY")
    for n in range(screens):
        y = start + n * height
        if n and y >= total:
            break
        if n:
            page.evaluate("(y) => scrollTo(0, y)", y)
            page.wait_for_timeout(50)
        path = out / f"{name}-{n + 1}.png"
        page.screenshot(path=str(path))
        shots.append(path)
    return shots


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path("test-artifacts/screens"))
    parser.add_argument("--sizes", default=",".join(SIZES))
    parser.add_argument("--langs", default=",".join(LOCALES))
    parser.add_argument("--only", default="", help="pages to shoot (all are visited)")
    parser.add_argument("--screens", type=int, default=3, help="shots per page at most")
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    args.out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="screens-"))
    server = start_server(str(work / "screens.db"), work, name="screens")
    try:
        with sync_playwright() as playwright:
            as_root = hasattr(os, "geteuid") and os.geteuid() == 0
            browser = playwright.chromium.launch(
                executable_path=chromium_executable(), args=["--no-sandbox"] if as_root else []
            )
            for size in args.sizes.split(","):
                for lang in args.langs.split(","):
                    context = browser.new_context(
                        base_url=server.url,
                        locale=LOCALES[lang],
                        service_workers="block",
                        **SIZES[size],
                    )
                    page = context.new_page()
                    for name, visit in PAGES.items():
                        visit(page)
                        if not only or name in only:
                            stem = f"{size}-{lang}-{name}"
                            for path in shoot(page, args.out, stem, args.screens):
                                print(path)
                    context.close()
            browser.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
