"""``GET /static/…``: hashed assets (see :mod:`app.web.rendering.assets`)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.web.edge.errors import PlayerError

router = APIRouter()


@router.get("/static/{name:path}", name="static")
async def static(name: str, request: Request) -> Response:
    response = request.app.state.assets.response(request, name)
    if response is None:
        raise PlayerError.not_found()
    assert isinstance(response, Response)
    return response
