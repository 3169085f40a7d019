"""Shared request state as ``Annotated`` aliases (tests swap them: ``app.dependency_overrides``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.store import Store
from app.web.errors import PlayerError
from app.web.render import Renderer
from app.web.sessions import Player


async def get_store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


async def get_renderer(request: Request) -> Renderer:
    renderer: Renderer = request.app.state.renderer
    return renderer


async def get_player(request: Request) -> Player:
    return Player.from_request(request)


async def require_same_origin(request: Request) -> None:
    """Refuse a POST another site's page made (belt and braces with the form token).

    Browsers send ``Sec-Fetch-Site`` and ``Origin`` with form posts and fetches; either one
    naming another site is enough to refuse. Clients that send neither (curl, tests) pass on
    to the form-token check.
    """
    if request.headers.get("sec-fetch-site") == "cross-site":
        raise PlayerError.forbidden_origin()
    origin = request.headers.get("origin")
    if origin is not None:
        own = f"{request.url.scheme}://{request.url.netloc}"
        if origin != own:
            raise PlayerError.forbidden_origin()


StoreDep = Annotated[Store, Depends(get_store)]
RendererDep = Annotated[Renderer, Depends(get_renderer)]
PlayerDep = Annotated[Player, Depends(get_player)]
SameOrigin = Depends(require_same_origin)
