"""Every game's web package (``app/web/<name>/``, for each name of the engine's table of games,
:data:`app.engine.games.PACKAGES`): importing it registers its screen (``SCREEN``, in
:data:`~app.web.rendering.screen.SCREENS`) and gives its routes (``router``), which the application
includes (:mod:`app.main`); and the site's sentences that name every game (a new game
rewrites them: they are prose, not tables)."""

from __future__ import annotations

import importlib
from typing import Final

from fastapi import APIRouter

from app.engine.games import PACKAGES
from app.i18n import N_
from app.web.rendering.screen import SCREENS, AnyScreen, Screen


def _router_of(package: str) -> APIRouter:
    module = importlib.import_module(f"app.web.{package}")
    screen, router = getattr(module, "SCREEN", None), getattr(module, "router", None)
    if not isinstance(screen, Screen) or not isinstance(router, APIRouter):
        raise ImportError(f"app.web.{package} needs SCREEN (its Screen) and router (its routes)")
    return _plays_first(router)


def _plays_first(router: APIRouter) -> APIRouter:
    """The game's own actions (tap, …: added after :func:`~app.web.play.game_routes.game_router`'s
    pages, Undo, Redo and Restart) matched first: a tap, by far the most frequent request, then
    walks one route, not eight. No two of a game's paths overlap, so the order is free."""
    common = {"", "/{code}", "/{code}/undo", "/{code}/redo", "/{code}/restart"}
    prefix = router.prefix
    plays = [r for r in router.routes if getattr(r, "path", "")[len(prefix) :] not in common]
    router.routes[:] = plays + [r for r in router.routes if r not in plays]
    return router


ROUTERS: Final[tuple[APIRouter, ...]] = tuple(map(_router_of, PACKAGES))
"""Each game's routes, in the order of the table of games."""

__all__ = ["ROUTERS", "SCREENS", "AnyScreen"]

# --- the site's sentences that name every game ---------------------------------------------------

SITE_NAME: Final = N_("Patience: Half Moon and Seahaven Towers")
"""The site's name as an installed app (the web app manifest)."""
SITE_DESCRIPTION: Final = N_(
    "Play Half Moon and Seahaven Towers, two patience games, free in your browser, "
    "in English, Turkish and Bulgarian."
)
"""The site's description as an installed app (the web app manifest)."""
LOST_RULE: Final = N_(
    "It is lost when the game proves it cannot be won any more (Half Moon: no move left;"
    " Seahaven Towers: no useful move left), or when you make the first move of another"
    " deal of the same game and level while it is unfinished (abandoned)."
)
"""How the statistics count a loss (``/stats``)."""
EXAMPLES_DESCRIPTION: Final = N_(
    "A won Half Moon game replayed move by move, and the Seahaven group-size rule "
    "shown in a real game."
)
"""The Examples page's description for sharing."""
WINNABILITY_DESCRIPTION: Final = N_(
    "How many Half Moon and Seahaven Towers deals can be won, with confidence intervals, "
    "the length of wins and a cross-check against Freecell Solver."
)
"""The winnability page's description for sharing."""
