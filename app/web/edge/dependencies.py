"""Shared request state as ``Annotated`` aliases (tests swap them: ``app.dependency_overrides``)."""

from __future__ import annotations

import re
from typing import Annotated, Final

from fastapi import Depends, Request
from starlette.types import Scope

from app import metrics
from app.config import Config
from app.engine.games import GAMES
from app.store import Store
from app.store.ratelimit import Hold, Kind, RateLimiter, Verdict, client_key
from app.web.edge.errors import PlayerError
from app.web.play.forms import FormT, read_form
from app.web.players.sessions import Player, check_token, page_session
from app.web.rendering.context import PageBase
from app.web.rendering.templates import Renderer

_HELD: Final = "held_new_game"
_RANK: Final = "held_ranked_win"
"""Key of the request's state: the new game :func:`may_create` held for its action."""


async def get_store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


async def get_renderer(request: Request) -> Renderer:
    renderer: Renderer = request.app.state.renderer
    return renderer


async def get_player(request: Request) -> Player:
    return Player.from_request(request)


StoreDep = Annotated[Store, Depends(get_store)]
RendererDep = Annotated[Renderer, Depends(get_renderer)]
PlayerDep = Annotated[Player, Depends(get_player)]


async def get_page(request: Request, store: StoreDep, player: PlayerDep) -> PageBase:
    """A page's base context: the stored session (or, since a GET never writes, the default
    one whose token the first action accepts), the language, the path."""
    session, _ = await store.load(player.sid)
    return PageBase.of(request, page_session(player, session))


def public_origin(request: Request) -> str:
    """Where players reach this site: the configured ``SOLITAIRE_ORIGIN``, else the request's
    own scheme and ``Host`` (right only when nothing in front rewrites them)."""
    config: Config | None = getattr(request.app.state, "config", None)
    if config is not None and config.origin:
        return config.origin
    return f"{request.url.scheme}://{request.url.netloc}"


def client_of(request: Request) -> str:
    """The client address a rate limit counts: uvicorn's ``client``, which is the proxy's
    ``X-Forwarded-For`` only when the proxy is trusted (``--forwarded-allow-ips``)."""
    return client_key(request.client.host if request.client else None)


async def limit(request: Request, kind: Kind) -> Verdict:
    """Count one ``kind`` for the request's client, before the write it allows (atomically:
    requests sent at once cannot all pass). A new game this request held already
    (:func:`may_create`) is spent instead of counted again."""
    held: Hold | None = getattr(request.state, _HELD, None)
    if kind == "new" and held is not None:
        await held.spend()
        return held.verdict
    limiter: RateLimiter | None = getattr(request.app.state, "limiter", None)
    if limiter is None:
        return Verdict(True)
    verdict = await limiter.hit(kind, client_of(request))
    if not verdict.allowed:  # every caller refuses the request (429)
        metrics.RATE_LIMITED.labels(kind).inc()
    return verdict


async def hold(request: Request, kind: Kind) -> Hold:
    """Take one ``kind`` of the client's limit for a write not made yet
    (:meth:`app.store.ratelimit.RateLimiter.hold`): spend it once the write is made, release it
    when nothing was written."""
    limiter: RateLimiter | None = getattr(request.app.state, "limiter", None)
    if limiter is None:
        return Hold(Verdict(True))
    return await limiter.hold(kind, client_of(request))


async def may_create(request: Request) -> Verdict:
    """Hold one new game of the client's limit for this request's action, before its write:
    allowed only while one is left, so that actions sent at once cannot all create a game on
    the last one. The action spends it when it made a new game (:func:`limit` with
    ``"new"``); an action that made none gives it back when its request ends
    (:func:`release_held`)."""
    held = await hold(request, "new")
    setattr(request.state, _HELD, held)
    return held.verdict


async def may_rank(request: Request) -> Verdict:
    """Hold one ranked win of the client's day (issue 34) for this request's action, before
    its write: a win it makes enters its deal's standings only while one is left. The action
    spends it when it made a ranked win (:func:`spend_rank`); else it is given back when the
    request ends (:func:`release_held`)."""
    held = await hold(request, "rank")
    setattr(request.state, _RANK, held)
    return held.verdict


async def spend_rank(request: Request) -> None:
    """Spend the ranked win this request held (:func:`may_rank`)."""
    held: Hold | None = getattr(request.state, _RANK, None)
    if held is not None:
        await held.spend()


def release_held(scope: Scope) -> None:
    """Give back the new game and the ranked win a request held and did not spend (the
    middleware :class:`app.web.edge.middleware.Perimeter`, when the request ends)."""
    for name in (_HELD, _RANK):
        held = scope.get("state", {}).get(name)
        if isinstance(held, Hold):
            held.release()


async def checked_form(
    request: Request, store: Store, player: Player, model: type[FormT], back: str
) -> FormT:
    """A POST's form as the game actions read theirs (:func:`app.web.play.forms.read_form`),
    after :func:`guard_write`, its token checked; ``back`` is the page an expired form offers
    to reload. For the POSTs of pages that are not a game's (``/stats``, ``/replay``)."""
    form, _ = await checked_form_page(request, store, player, model, back)
    return form


async def checked_form_page(
    request: Request, store: Store, player: Player, model: type[FormT], back: str
) -> tuple[FormT, PageBase]:
    """:func:`checked_form` and the page's base context (:func:`get_page`) from the one read
    of the session, for a POST that answers a page (``/replay``)."""
    await guard_write(request)
    form = await read_form(request, model)
    session, _ = await store.load(player.sid)
    check_token(player, session, form.token, back)
    return form, PageBase.of(request, page_session(player, session))


async def guard_write(request: Request) -> None:
    """Every POST: refuse one another site's page made, then count it against the client's
    write limit (``429`` with ``Retry-After`` beyond it; nothing is changed).

    Browsers send ``Sec-Fetch-Site`` and ``Origin`` with form posts and fetches; either one
    naming another site is enough to refuse. ``Origin`` is compared with the public origin
    (``SOLITAIRE_ORIGIN``; the request's own only when that is unset). Clients that send
    neither (curl, tests) pass on to the form-token check.
    """
    if request.headers.get("sec-fetch-site") == "cross-site":
        raise PlayerError.forbidden_origin()
    origin = request.headers.get("origin")
    if origin is not None and origin.rstrip("/").lower() != public_origin(request).lower():
        raise PlayerError.forbidden_origin()
    verdict = await limit(request, "write")
    if not verdict.allowed:
        raise PlayerError.rate_limited(verdict.retry_after, _page_of(request.url.path))


_ACTION: Final = re.compile(
    rf"(/(?:{'|'.join(map(re.escape, GAMES))})/[A-Za-z0-9-]{{1,64}}(?:/practice)?)/[a-z]{{1,16}}"
)
"""A game action's path: ``/{game}/{code}/{verb}`` (a practice's ``/{game}/{code}/practice/
{verb}``), for every game's slug."""


def _page_of(path: str) -> str | None:
    """The game page an action's path belongs to (``/half-moon/CODE/tap`` → its page)."""
    match = _ACTION.fullmatch(path)
    return match.group(1) if match else None


PageDep = Annotated[PageBase, Depends(get_page)]
"""Every page's base context (header, language switch, settings form)."""
SameOrigin = Depends(guard_write)
"""On every POST route: same origin, and the write rate limit (:func:`guard_write`)."""
