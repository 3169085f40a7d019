"""The honest floor for ``bench/bench_http.py``: a tap's work minus the game.

``POST /_bench/floor/{game}`` reads the same form fields (the origin check, one ``parse_qsl``,
the game's own tap form parsed into the engine's values, as a tap does) and the same cookie,
and answers a static fragment — the bytes of a real tap answer, read once from the file
``SOLITAIRE_BENCH_FLOOR`` names — through the same middleware. Mounted only when that
variable is set: never in a deployment.

``SOLITAIRE_BENCH_FLOOR`` names a directory holding ``{slug}.html`` for each game.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Final

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.engine.codes import DealCode
from app.web.edge.dependencies import guard_write
from app.web.edge.htmx import html_answer
from app.web.games import SCREENS
from app.web.play.forms import ActionForm, read_form
from app.web.players.sessions import Player

ENV: Final = "SOLITAIRE_BENCH_FLOOR"

router = APIRouter()


@functools.cache
def _answer(game: str) -> str:
    return (Path(os.environ[ENV]) / f"{game}.html").read_text("utf-8")


async def floor(request: Request) -> Response:
    """A Starlette route, as the game actions are (:func:`app.web.play.actions.action_route`)."""
    request.scope["route"] = router.routes[0]
    game = request.path_params["game"]
    await guard_write(request)
    screen = SCREENS.get(game)
    if screen is None:
        return Response(status_code=404)
    deal = DealCode(screen.game.game_id, 1, screen.game.variants[0].code, 0)
    form: ActionForm = await read_form(request, screen.tap_form, deal)
    if not form.token or not Player.from_request(request).sid:
        return Response(status_code=404)
    return html_answer(_answer(game))


router.add_route("/_bench/floor/{game}", floor, ["POST"])
