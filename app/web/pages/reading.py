"""The reading pages: each game's rules, the Examples, the FAQ and "How winnable are these games?".

Routes are plain ``def`` endpoints: FastAPI runs them in its thread pool, so the store calls and
the first replay of an example (engine work, then cached) never block the event loop. None of
them runs a solver: the examples are fixed move lists, the figures a committed data file.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Final

from babel.support import NullTranslations
from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from app.engine.codes import DealCode
from app.engine.games import game_for_code
from app.i18n import N_
from app.store import Store
from app.store.life import deal_of
from app.web.edge.dependencies import PageDep, PlayerDep, RendererDep, StoreDep
from app.web.edge.errors import PlayerError
from app.web.edge.htmx import NO_STORE
from app.web.games import EXAMPLES_DESCRIPTION, SCREENS, WINNABILITY_DESCRIPTION
from app.web.pages import winnability
from app.web.players.sessions import Player
from app.web.rendering.context import PageBase
from app.web.rendering.diagrams import Diagram
from app.web.rendering.screen import AnyScreen, screen_for
from app.web.rendering.templates import Renderer

router = APIRouter()


@dataclass(frozen=True, slots=True)
class PageMeta:
    path: str
    title: str
    description: str


PAGES: Final = {
    "examples": ("/examples", N_("Examples"), EXAMPLES_DESCRIPTION),
    "faq": (
        "/faq",
        N_("Questions and answers"),
        N_(
            "Deal codes, what “no useful move left” means, undo, where games are kept, "
            "keyboard and screen-reader play, languages."
        ),
    ),
    "winnability": ("/winnability", N_("How winnable are these games?"), WINNABILITY_DESCRIPTION),
}
"""Every reading page but the games' own (their screens give theirs): address, title and the
short description for sharing."""


def _meta(key: str, t: NullTranslations) -> PageMeta:
    """The page ``key`` of :data:`PAGES`, or ``rules-{slug}``: a game's rules page."""
    if key.startswith("rules-"):
        screen = SCREENS[key.removeprefix("rules-")]
        path, title, description = f"/rules/{screen.slug}", *_rules_texts(screen)
    else:
        path, title, description = PAGES[key]
    return PageMeta(path, t.gettext(title), t.gettext(description))


def _rules_texts(screen: AnyScreen) -> tuple[str, str]:
    return screen.rules_title, screen.rules_description


@dataclass(frozen=True, slots=True)
class Reading:
    """What a reading page renders with: the request, the header's session (token, settings,
    language) and the renderer."""

    request: Request
    base: PageBase
    renderer: Renderer

    async def render(self, key: str, template: str, extra: Extra) -> Response:
        """The page ``key`` of :data:`PAGES`; ``extra`` gives its own context values."""
        base, query = self.base, self.request.url.query
        if query:
            base = dataclasses.replace(base, here=f"{base.here}?{query}")
        data = await run_in_threadpool(extra, base.lang, base.t)  # replays off the event loop
        context = base.context(page=_meta(key, base.t), **data)
        html = await run_in_threadpool(self.renderer.page, template, context, base.t)
        return HTMLResponse(html, headers=NO_STORE)


Extra = Callable[[str, NullTranslations], dict[str, Any]]
"""A page's own context values, given its language (run in the thread pool)."""


async def _reading(request: Request, base: PageDep, renderer: RendererDep) -> Reading:
    return Reading(request, base, renderer)  # a GET never writes


ReadingDep = Annotated[Reading, Depends(_reading)]


# --- the rules ---------------------------------------------------------------------------------


@functools.lru_cache(maxsize=128)
def diagram(code: DealCode, lang: str) -> Diagram:
    """A deal's starting board, drawn by the game board's own place renderers (the rules
    pages' figures, the home page's tiles: a few deals a language, and each day's daily
    deals — hence a bound)."""
    return screen_for(code).diagram(game_for_code(code)(code), lang)


async def back_to_game(store: Store, player: Player, slug: str) -> tuple[str, bool]:
    """Where the rules lead back: the player's latest game of this kind, else a new deal."""
    screen = SCREENS[slug]
    for game in await store.recent_games(player.sid, 10):
        if DealCode.parse(deal_of(game.code)[0]).game == screen.game.game_id:  # a practice too
            return screen.url(game.code), True
    return screen.new_game_url, False


@router.get("/rules/{slug}", name="rules")
async def rules(slug: str, page: ReadingDep, store: StoreDep, player: PlayerDep) -> Response:
    screen = SCREENS.get(slug)
    if screen is None:
        raise PlayerError.not_found()
    game_url, resumes = await back_to_game(store, player, slug)

    def extra(lang: str, t: NullTranslations) -> dict[str, Any]:
        return {
            "game_url": game_url,
            "resumes": resumes,
            "diagrams": [(str(code), diagram(code, lang)) for code in screen.diagram_deals],
        }

    return await page.render(f"rules-{slug}", screen.rules_template, extra)


# --- examples ----------------------------------------------------------------------------------


@router.get("/examples", name="examples")
async def examples_index(page: ReadingDep) -> Response:
    def extra(lang: str, t: NullTranslations) -> dict[str, Any]:
        return {key: value for s in SCREENS.values() for key, value in s.examples_index().items()}

    return await page.render("examples", "pages/examples.html", extra)


StepQuery = Annotated[str, Query()]
"""``?step=``: any text; :func:`parse_step` says what is accepted (a length limit here would
answer the generic message instead)."""

STEP_DIGITS: Final = 16
"""The longest step text read as a number (a step is at most 5,000: a record's moves)."""


def parse_step(text: str, last: int) -> int:
    """``?step=N``: a whole number from 0 to ``last``, or a page that says what is accepted
    (whatever the text's length: past :data:`STEP_DIGITS` characters it is no step, and never
    reaches ``int``, which refuses more than 4,300 digits)."""
    if len(text) <= STEP_DIGITS and text.isascii() and text.isdigit() and int(text) <= last:
        return int(text)

    def problem(t: NullTranslations) -> str:
        message = N_("“%(step)s” is not a step: accepted are the whole numbers 0 to %(last)s.")
        return t.gettext(message) % {"step": text[:8], "last": last}

    raise PlayerError.bad_input([problem])


@dataclass(frozen=True, slots=True)
class Pager:
    step: int
    last: int
    path: str

    def url(self, step: int) -> str:
        return f"{self.path}?step={step}"

    @property
    def links(self) -> list[tuple[str, int | None]]:
        """First, previous, next, last: the step each leads to, ``None`` when it goes nowhere."""
        s, last = self.step, self.last
        return [
            ("first", 0 if s > 0 else None),
            ("prev", s - 1 if s > 0 else None),
            ("next", s + 1 if s < last else None),
            ("last", last if s < last else None),
        ]


@router.get("/examples/{slug}", name="example")
async def example(slug: str, page: ReadingDep, step: StepQuery = "0") -> Response:
    screen = SCREENS.get(slug)
    if screen is None:
        raise PlayerError.not_found()

    def extra(lang: str, t: NullTranslations) -> dict[str, Any]:
        last = screen.example_steps()  # a first replay: in the thread pool
        number = parse_step(step, last)
        pager = Pager(number, last, f"/examples/{slug}")
        return {
            "code": str(screen.example_deal),
            "pager": pager,
            **screen.example_view(number, lang),
        }

    return await page.render("examples", screen.example_template, extra)


# --- FAQ and winnability -----------------------------------------------------------------------


@router.get("/faq", name="faq")
async def faq(page: ReadingDep) -> Response:
    return await page.render("faq", "pages/faq.html", lambda lang, t: {})


@router.get("/winnability", name="winnability")
async def winnability_page(page: ReadingDep) -> Response:
    def extra(lang: str, t: NullTranslations) -> dict[str, Any]:
        return {"figures": winnability.figures(lang)}

    return await page.render("winnability", "pages/winnability.html", extra)
