"""A game is one place in the templates and the styles (issue 25, items 1 and 5): one game-screen
template for every game, each game's own templates in ``templates/games/<slug>/`` and its
stylesheet in ``static/css/games/<slug>.css``, loaded on the pages that draw its board and on
no other page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.engine.games import GAMES
from app.web.rendering.screen import SCREENS
from tests.web.html import parse

ROOT = Path(__file__).parents[2]
SHEET = re.compile(r"/static/css/(.+)\.[0-9a-f]{10}\.css")
SCRIPT = re.compile(r"/static/js/(.+)\.[0-9a-f]{10}\.js")
BASE = ["app", "motion", "install"]
"""The scripts every page loads first."""


def assets(client, url: str) -> tuple[list[str], list[str]]:
    """The stylesheets and the page's own scripts (by plain name) a page loads, in order."""
    response = client.get(url)
    assert response.status_code == 200, url
    doc = parse(response.text)
    sheets = [SHEET.fullmatch(e.attrs["href"]) for e in doc.find_all("link", rel="stylesheet")]
    scripts = [SCRIPT.fullmatch(e.attrs["src"]) for e in doc.find_all("script", src=True)]
    return (
        [m.group(1) for m in sheets if m],
        [m.group(1) for m in scripts if m],
    )


def test_every_game_screen_is_the_one_game_template():
    assert set(SCREENS) == set(GAMES) == {"half-moon", "seahaven"}
    assert {screen.template for screen in SCREENS.values()} == {"pages/game.html"}
    shared = [p.name for d in ("pages", "partials") for p in (ROOT / "templates" / d).iterdir()]
    for slug in GAMES:
        names = {slug, slug.replace("-", "_")}
        assert [n for n in shared if any(name in n for name in names)] == [], slug
        assert (ROOT / "templates/games" / slug / "styles.html").is_file()
        assert (ROOT / "templates/games" / slug / "rules.html").is_file()
        assert (ROOT / "static/css/games" / f"{slug}.css").is_file()


def test_the_shared_stylesheet_names_no_game():
    css = (ROOT / "static/css/app.css").read_text("utf-8")
    for slug in GAMES:
        assert slug not in css and "at-pile" not in css


@pytest.mark.parametrize(
    ("url", "sheets", "scripts"),
    [
        (
            "/half-moon/HM1-N-AAAAAAB",
            ["app", "games/half-moon", "prefs"],
            [*BASE, "settings", "instant"],
        ),
        (
            "/seahaven/SH1-C4-AAAAAAB",
            ["app", "games/seahaven", "prefs"],
            [*BASE, "settings", "instant"],  # its gestures: static/js/board/, by instant
        ),
        ("/seahaven", ["app", "games/seahaven", "prefs"], [*BASE, "settings"]),
        ("/half-moon?new=1", ["app", "games/half-moon", "prefs"], [*BASE, "settings"]),
        ("/rules/half-moon", ["app", "games/half-moon", "prefs"], [*BASE, "settings"]),
        ("/rules/seahaven", ["app", "games/seahaven", "prefs"], [*BASE, "settings"]),
        ("/examples/half-moon", ["app", "games/half-moon", "prefs"], [*BASE, "settings"]),
        ("/examples/seahaven", ["app", "games/seahaven", "prefs"], [*BASE, "settings"]),
        ("/examples", ["app", "prefs"], [*BASE, "settings"]),
        # the home page's tiles draw both boards (issue 35)
        ("/", ["app", "games/half-moon", "games/seahaven", "home", "prefs"], [*BASE, "settings"]),
        ("/stats", ["app", "prefs"], [*BASE, "settings", "localtime"]),
        ("/faq", ["app", "prefs"], [*BASE, "settings"]),
    ],
)
def test_a_games_styles_and_scripts_load_where_its_board_is_drawn(client, url, sheets, scripts):
    """Every page also loads the player's look last (``prefs``), the service worker's
    registration (``install``, issue 27) and the settings that apply at once (``settings``,
    issue 35)."""
    assert assets(client, url) == (sheets, scripts)
