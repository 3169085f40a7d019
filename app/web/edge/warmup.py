"""A worker warms up before it accepts players (issue 48 item 2): the first game page after a
start cost 214–760 ms, most of it compiling templates and catalogs on the event loop (every
request in flight waited) and waiting for the proof processes to import the engine.

The lifespan calls :func:`warm_up` before the server accepts connections: every template is
compiled (the page templates into the application's environment, the board's macros into
theirs), every language's catalog compiled and its dates' locale data read, the tables read,
the modules imported late imported, the home page's pictures drawn, and the proof processes
started and waited for. Compiled templates are kept per process
(:data:`app.web.rendering.templates.COMPILED`), so a second application in the same process (a
test client per test) loads them instead of compiling.
"""

from __future__ import annotations

import asyncio
import datetime
import importlib
from typing import Any, Final

import jinja2
from babel.dates import format_skeleton

from app.engine.codes import DealCode
from app.i18n import LANGUAGES, translations
from app.services import daily, winnable
from app.web.pages.home import new_deal_tiles
from app.web.pages.reading import diagram
from app.web.rendering.board_markup import ENV as MARKUP_ENV


def _is_board_template(name: str) -> bool:
    """The templates drawn through :func:`app.web.rendering.board_markup.macro` (the board's
    environment)."""
    return name.startswith("board/") or name.endswith("/board.html") or name in BOARD_PARTIALS


BOARD_PARTIALS: Final = ("partials/analysis.html", "partials/chart_svg.html")

IMPORTED_LATE: Final = ("app.web.play.deals", "app.web.edge.error_pages", "app.web.edge.errors")
"""Modules imported inside a function (an import circle broken at run time): imported now, not
by the first request that needs them."""


def compile_everything(env: jinja2.Environment) -> int:
    """Compile every page template into ``env``, every board template into the board's
    environment, every catalog and table; how many templates (blocking: run it off the loop)."""
    names = env.list_templates(extensions=["html"])
    for name in names:
        env.get_template(name)
    for name in filter(_is_board_template, names):
        MARKUP_ENV.get_template(name)
    for lang in LANGUAGES:
        translations(lang)
        format_skeleton("MMMMEEEEd", datetime.date(2026, 12, 7), locale=lang)  # the home page's
    winnable.table()
    for module in IMPORTED_LATE:
        importlib.import_module(module)
    return len(names)


def draw_pictures(codes: list[DealCode]) -> None:
    """The home page's pictures in every language (cached by value): a tile per game and level,
    and today's deals."""
    for lang in LANGUAGES:
        new_deal_tiles(lang)
        for code in codes:
            diagram(code, lang)


async def warm_up(app: Any) -> None:
    """Everything a first request would otherwise pay for, before the first request."""
    await asyncio.to_thread(compile_everything, app.state.renderer.env)
    today = await daily.daily_codes(daily.today())
    await asyncio.to_thread(draw_pictures, list(today.values()))
    await app.state.prover.started()
