"""The minimal FastAPI app of issue 24's table: a form POST with a cookie, answered by static
bytes of a tap answer's size — what any FastAPI app pays for a tap, with none of ours.

Run by ``bench/bench_http.py`` as ``uvicorn bench.minimal_app:app``. ``POST
/_bench/floor/{game}`` (the project's floor route's path, so one wrk script drives both)
takes ``place``, ``card`` and ``token`` as ``Form()`` and ``sid`` as ``Cookie()``, and
answers the bytes of ``{game}.html`` in the folder ``SOLITAIRE_BENCH_FLOOR`` names (a real
tap answer, saved by the benchmark). No middleware, no store, no session, no rate limit.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Annotated

from fastapi import Cookie, FastAPI, Form
from fastapi.responses import Response

app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)


@functools.cache
def _answer(game: str) -> bytes:
    return (Path(os.environ["SOLITAIRE_BENCH_FLOOR"]) / f"{game}.html").read_bytes()


@app.get("/")
async def home() -> Response:
    """Answers 200, so the benchmark's server start sees it up."""
    return Response("minimal", media_type="text/plain")


@app.post("/_bench/floor/{game}")
async def floor(
    game: str,
    place: Annotated[str, Form()],
    card: Annotated[str, Form()],
    token: Annotated[str, Form()],
    sid: Annotated[str | None, Cookie()] = None,
) -> Response:
    if not (place and card and token and sid):
        return Response(status_code=404)
    return Response(_answer(game), media_type="text/html; charset=utf-8")
