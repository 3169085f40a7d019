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
from app.engine.halfmoon import HalfMoon, parse_place
from app.engine.seahaven import Seahaven
from app.engine.seahaven import parse_place as sh_place
from app.i18n import N_, card_letters, translations
from app.store import Store
from app.web import diagrams, examples, winnability
from app.web.context import PageBase
from app.web.dependencies import PageDep, PlayerDep, RendererDep, StoreDep
from app.web.errors import PlayerError
from app.web.halfmoon import SCREEN as HALF_MOON
from app.web.htmx import NO_STORE
from app.web.render import Renderer
from app.web.screen import AnyScreen
from app.web.seahaven import SCREEN as SEAHAVEN
from app.web.seahaven import place_text
from app.web.sessions import Player

router = APIRouter()


@dataclass(frozen=True, slots=True)
class PageMeta:
    path: str
    title: str
    description: str


PAGES: Final = {
    "rules-half-moon": (
        "/rules/half-moon",
        N_("Half Moon rules"),
        N_(
            "How to play Half Moon: the arc of twelve piles and the reserve, pairs that sum to "
            "11, jack–queen–king triples, taps, score and the end of the game."
        ),
    ),
    "rules-seahaven": (
        "/rules/seahaven",
        N_("Seahaven Towers rules"),
        N_(
            "How to play Seahaven Towers: ten columns, cells and foundations, building down by "
            "suit, kings in empty columns, how many cards move as a group."
        ),
    ),
    "examples": (
        "/examples",
        N_("Examples"),
        N_(
            "A won Half Moon game replayed move by move, and the Seahaven group-size rule "
            "shown in a real game."
        ),
    ),
    "faq": (
        "/faq",
        N_("Questions and answers"),
        N_(
            "Deal codes, what “no useful move left” means, undo, where games are kept, "
            "keyboard and screen-reader play, languages."
        ),
    ),
    "winnability": (
        "/winnability",
        N_("How winnable are these games?"),
        N_(
            "How many Half Moon and Seahaven Towers deals can be won, with confidence intervals, "
            "the length of wins and a cross-check against Freecell Solver."
        ),
    ),
}
"""Every reading page: address, title and the short description for sharing."""


def _meta(key: str, t: NullTranslations) -> PageMeta:
    path, title, description = PAGES[key]
    return PageMeta(path, t.gettext(title), t.gettext(description))


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


_RULES_GAMES: Final[dict[str, AnyScreen]] = {"half-moon": HALF_MOON, "seahaven": SEAHAVEN}
DIAGRAM_DEALS: Final = {
    "half-moon": (examples.HALF_MOON_DEAL,),
    "seahaven": tuple(DealCode("SH", 1, f"C{n}", 0) for n in (4, 2, 1)),
}
"""The deals the rules pages draw: Half Moon's example deal, Seahaven deal 0 with 4, 2, 1 cells."""


@functools.cache
def diagram(code: DealCode, lang: str) -> diagrams.Diagram:
    """A deal's starting board, drawn by the game board's own place renderers."""
    if code.game == "HM":
        return diagrams.half_moon(HalfMoon(code), lang)
    return diagrams.seahaven_board(Seahaven(code), lang)


async def back_to_game(store: Store, player: Player, slug: str) -> tuple[str, bool]:
    """Where the rules lead back: the player's latest game of this kind, else a new deal."""
    screen = _RULES_GAMES[slug]
    for game in await store.recent_games_async(player.sid, 10):
        if DealCode.parse(game.code).game == screen.game.game_id:
            return screen.url(game.code), True
    return screen.new_game_url, False


@router.get("/rules/{slug}", name="rules")
async def rules(slug: str, page: ReadingDep, store: StoreDep, player: PlayerDep) -> Response:
    if slug not in _RULES_GAMES:
        raise PlayerError.not_found()
    game_url, resumes = await back_to_game(store, player, slug)

    def extra(lang: str, t: NullTranslations) -> dict[str, Any]:
        return {
            "game_url": game_url,
            "resumes": resumes,
            "diagrams": [(str(code), diagram(code, lang)) for code in DIAGRAM_DEALS[slug]],
        }

    return await page.render(f"rules-{slug}", f"pages/rules_{slug.replace('-', '_')}.html", extra)


# --- examples ----------------------------------------------------------------------------------


@router.get("/examples", name="examples")
async def examples_index(page: ReadingDep) -> Response:
    def extra(lang: str, t: NullTranslations) -> dict[str, Any]:
        return {
            "hm_code": str(examples.HALF_MOON_DEAL),
            "sh_code": str(examples.SEAHAVEN_DEAL),
            "case_step": examples.seahaven_steps()[1].step,
        }

    return await page.render("examples", "pages/examples.html", extra)


StepQuery = Annotated[str, Query()]


def _step(text: str, last: int) -> int:
    """``?step=N``: a whole number from 0 to ``last``, or a page that says what is accepted."""
    if text.isdigit() and int(text) <= last:
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


@functools.cache
def half_moon_step_view(number: int, lang: str) -> dict[str, Any]:
    t = translations(lang)
    step = examples.half_moon_steps()[number]
    return {
        "board": diagrams.half_moon(step.game, lang, step.next_places),
        "removed": [_removed_view(r, t) for r in step.removed],
        "next": [_place_card(step.game, name, t) for name in step.next_places],
        "points": 0 if not step.removed else (10 if len(step.removed) == 2 else 15),
        "score": step.game.score,
        "cards_left": step.game.position.cards_left,
        "won": step.game.is_won(),
        "sum": " + ".join(str(r.card.rank) for r in step.removed if not r.card.is_face),
    }


@functools.cache
def opening(lang: str) -> dict[str, str]:
    """The first two moves told the way the documents tell theirs: a pair that uncovers a face
    card, and the triple that takes it (the example deal was chosen for that)."""
    t = translations(lang)
    steps = examples.half_moon_steps()
    first, second = steps[1].removed, steps[2].removed
    (uncovering,) = [r for r in first if r.uncovered is not None and r.uncovered.is_face]
    others = [r for r in second if r.place != uncovering.place]
    assert uncovering.uncovered is not None
    assert len(others) == 2
    return {
        "first": card_letters(first[0].card, t),
        "first_place": _place_text(first[0].place, t),
        "second": card_letters(first[1].card, t),
        "second_place": _place_text(first[1].place, t),
        "sum": f"{first[0].card.rank} + {first[1].card.rank}",
        "uncovered": card_letters(uncovering.uncovered, t),
        "uncovered_place": _place_text(uncovering.place, t),
        "third": card_letters(others[0].card, t),
        "third_place": _place_text(others[0].place, t),
        "fourth": card_letters(others[1].card, t),
        "fourth_place": _place_text(others[1].place, t),
    }


def _place_text(name: str, t: NullTranslations) -> str:
    kind, _, number = name.partition("-")
    if kind == "pile":
        return t.gettext("pile %(number)s") % {"number": number}
    return f"R{number}"


def _removed_view(r: examples.Removed, t: NullTranslations) -> dict[str, str]:
    return {
        "card": card_letters(r.card, t),
        "place": _place_text(r.place, t),
        "uncovered": card_letters(r.uncovered, t) if r.uncovered else "",
    }


def _place_card(game: HalfMoon, name: str, t: NullTranslations) -> dict[str, str]:
    card = game.position.top(parse_place(name))
    assert card is not None
    return {"card": card_letters(card, t), "place": _place_text(name, t)}


@functools.cache
def seahaven_step_view(number: int, lang: str) -> dict[str, Any]:
    t = translations(lang)
    steps, case = examples.seahaven_steps()
    step = steps[number]
    if number == case.step:  # ring the two runs of the case
        position = step.game.position
        runs = [case.refused, case.allowed]
        ringed = {
            str(c)
            for source, card, _, size in runs
            for c in position.columns[int(source.split("-")[1]) - 1][-size:]
        }
    else:  # ring what the move moved, where it went
        ringed = {str(c) for c in examples.moved_cards(step)}
    board = diagrams.seahaven_board(step.game, lang, ringed)
    move = None
    if step.move is not None:
        cards = examples.moved_cards(step)
        move = {
            "cards": " ".join(card_letters(c, t) for c in cards),
            "count": len(cards),
            "source": place_text(step.move.source, t),
            "target": place_text(step.move.target, t),
        }
    refused_source, refused_card, refused_target, refused_size = case.refused
    allowed_source, allowed_card, allowed_target, allowed_size = case.allowed
    return {
        "board": board,
        "move": move,
        "score": step.game.score,
        "case": {
            "step": case.step,
            "free_cells": case.free_cells,
            "empty_columns": case.empty_columns,
            "limit": case.limit,
            "limit_into_empty": case.limit_into_empty,
            "refused_card": card_letters(refused_card, t),
            "refused_size": refused_size,
            "refused_source": place_text(sh_place(refused_source), t),
            "refused_target": place_text(sh_place(refused_target), t),
            "reason": case.refusal.refusal.explain(t) if case.refusal.refusal else "",
            "allowed_card": card_letters(allowed_card, t),
            "allowed_size": allowed_size,
            "allowed_source": place_text(sh_place(allowed_source), t),
            "allowed_target": place_text(sh_place(allowed_target), t),
        },
    }


ExampleView = Callable[[int, str], dict[str, Any]]
"""One step of an example, in a language: the page's own context values."""

EXAMPLES: Final[dict[str, tuple[DealCode, Callable[[], int], ExampleView]]] = {
    "half-moon": (
        examples.HALF_MOON_DEAL,
        lambda: len(examples.half_moon_steps()) - 1,
        lambda number, lang: {"view": half_moon_step_view(number, lang), "opening": opening(lang)},
    ),
    "seahaven": (
        examples.SEAHAVEN_DEAL,
        lambda: len(examples.seahaven_steps()[0]) - 1,
        lambda number, lang: {"view": seahaven_step_view(number, lang)},
    ),
}
"""Each game's example: its deal, its last step, and one step's view (Half Moon's with its
opening moves told in words)."""


@router.get("/examples/{slug}", name="example")
async def example(slug: str, page: ReadingDep, step: StepQuery = "0") -> Response:
    if slug not in EXAMPLES:
        raise PlayerError.not_found()
    deal, last_step, step_view = EXAMPLES[slug]

    def extra(lang: str, t: NullTranslations) -> dict[str, Any]:
        last = last_step()  # a first replay: in the thread pool
        number = _step(step, last)
        pager = Pager(number, last, f"/examples/{slug}")
        return {"code": str(deal), "pager": pager, **step_view(number, lang)}

    return await page.render("examples", f"pages/example_{slug.replace('-', '_')}.html", extra)


# --- FAQ and winnability -----------------------------------------------------------------------


@router.get("/faq", name="faq")
async def faq(page: ReadingDep) -> Response:
    return await page.render("faq", "pages/faq.html", lambda lang, t: {})


@router.get("/winnability", name="winnability")
async def winnability_page(page: ReadingDep) -> Response:
    def extra(lang: str, t: NullTranslations) -> dict[str, Any]:
        return {"figures": winnability.figures(lang)}

    return await page.render("winnability", "pages/winnability.html", extra)
