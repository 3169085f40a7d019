"""Exception handlers: every refusal becomes a page (or an htmx notice) in the player's language."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import RedirectResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.i18n import N_
from app.store import SessionData, Store, StoreError
from app.store.base import UnconfirmedChangeError
from app.web.edge.errors import PlayerError, Text, invalid_field, missing_field, unknown_field
from app.web.edge.htmx import html_answer, is_htmx
from app.web.play.urlcodes import Redirect
from app.web.players.sessions import Player, page_session
from app.web.rendering.context import PageBase
from app.web.rendering.templates import Renderer

log = logging.getLogger(__name__)


async def render_error(
    request: Request, error: PlayerError, *, read_store: bool = True
) -> Response:
    """The error page (or htmx notice); ``read_store=False`` when the store just failed, so
    the page does not wait for it a second time (it then speaks the browser's language)."""
    renderer: Renderer = request.app.state.renderer
    player = Player.from_request(request)
    session = await _session(request, player) if read_store else None
    page = PageBase.of(request, session, request.url.path if request.method == "GET" else "/")
    t = page.t
    context = page.context(
        status=error.status,
        title=error.title(t),
        detail=error.detail(t),
        links=[(url, label(t)) for url, label in error.links],
        oob=True,
    )
    if is_htmx(request):  # only the notice: the board on screen stays as it was
        html = renderer.blocks("pages/error.html", ["status"], context, t)
    else:
        context["oob"] = False
        html = renderer.page("pages/error.html", context, t)
    headers = {"Cache-Control": "no-store", **error.headers}
    return html_answer(html, error.status, headers)


async def render_crash(request: Request) -> Response:
    """The 500 page (:class:`app.web.edge.middleware.Perimeter` answers it)."""
    detail = N_("The server failed to answer; your game was not changed. Try again.")
    return await render_error(request, PlayerError.fixed(500, N_("Something went wrong"), detail))


async def _session(request: Request, player: Player) -> SessionData | None:
    """The player's session, so the page speaks their language and offers the switch.

    Nothing is written (a GET never writes): a player without a stored session gets the
    unsaved default one, whose form token their first action can use. A failing store never
    turns an error page into a crash.
    """
    try:
        store: Store = request.app.state.store
        session, _ = await store.load(player.sid)
        return page_session(player, session)
    except Exception:  # an error page never raises
        log.exception("could not read the session for an error page")
        return None


def _page_of(request: Request) -> str:
    """The page a request belongs to: a game action's (``POST /GAME/CODE/VERB``) is its
    game's page; any other POST's is the home page."""
    if request.method == "GET":
        return request.url.path
    parts = request.url.path.strip("/").split("/")
    return f"/{parts[0]}/{parts[1]}" if len(parts) == 3 else "/"


def _validation_problems(error: RequestValidationError) -> list[Text]:
    problems: list[Text] = []
    for item in error.errors():
        loc = [str(part) for part in item.get("loc", ()) if part not in ("body", "query", "path")]
        name = loc[-1] if loc else "?"
        kind = item.get("type", "")
        if kind == "missing":
            problems.append(missing_field(name))
        elif kind == "extra_forbidden":
            problems.append(unknown_field(name))
        else:  # a parsed field's error says what it accepts (app.web.play.actions.parsed)
            accepted = item.get("msg") if kind == "not_accepted" else None
            problems.append(invalid_field(name, accepted))
    return problems or [invalid_field("?", None)]


def install(app: FastAPI) -> None:
    """Register the handlers on the application."""

    @app.exception_handler(PlayerError)
    async def player_error(request: Request, error: PlayerError) -> Response:
        return await render_error(request, error)

    @app.exception_handler(StoreError)
    async def store_unavailable(request: Request, error: StoreError) -> Response:
        log.error("the store failed: %s", error)
        if isinstance(error, UnconfirmedChangeError):  # the change may have been made
            shown = PlayerError.store_unconfirmed(_page_of(request))
            return await render_error(request, shown, read_store=False)
        if request.method in ("GET", "HEAD"):  # a page read: no move to speak of
            return await render_error(request, PlayerError.store_unreadable(), read_store=False)
        return await render_error(request, PlayerError.store_unavailable(), read_store=False)

    @app.exception_handler(Redirect)
    async def redirect(request: Request, error: Redirect) -> Response:
        return RedirectResponse(error.url, error.status)

    @app.exception_handler(RequestValidationError)
    async def validation(request: Request, error: RequestValidationError) -> Response:
        return await render_error(request, PlayerError.bad_input(_validation_problems(error)))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        if error.status_code == 405:
            allowed = (error.headers or {}).get("Allow", "GET")
            return await render_error(request, PlayerError.method_not_allowed(allowed))
        if error.status_code == 404:
            return await render_error(request, PlayerError.not_found())
        refused = (N_("Request refused"), N_("The request could not be handled."))
        return await render_error(request, PlayerError.fixed(error.status_code, *refused))
