"""The honest floor for ``bench/bench_http.py``: a tap's work minus the game.

``POST /_bench/floor`` reads the same form fields (one ``parse_qsl``, the same pydantic model
and origin check as a Half Moon tap) and the same cookie, and answers a static fragment — the
bytes of a real tap answer, read once from the file ``SOLITAIRE_BENCH_FLOOR`` names — through
the same middleware. Mounted only when that variable is set: never in a deployment.

``SOLITAIRE_BENCH_FLOOR`` names a directory holding ``half-moon.html`` and ``seahaven.html``.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Final

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from app.web.actions import read_form
from app.web.htmx import NO_STORE, vary_on_htmx
from app.web.seahaven import PlaceForm as FloorForm
from app.web.sessions import Player

ENV: Final = "SOLITAIRE_BENCH_FLOOR"

router = APIRouter()


GAMES: Final = ("half-moon", "seahaven")


@functools.cache
def _answer(game: str) -> str:
    return (Path(os.environ[ENV]) / f"{game}.html").read_text("utf-8")


@router.post("/_bench/floor/{game}")
async def floor(game: str, request: Request) -> Response:
    form = await read_form(request, FloorForm)
    player = Player.from_request(request)
    if game not in GAMES or not form.token or not player.sid:
        return Response(status_code=404)
    return vary_on_htmx(HTMLResponse(_answer(game), headers=NO_STORE))
