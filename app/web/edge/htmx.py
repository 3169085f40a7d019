"""Typed helpers for the htmx request and response headers, instead of literals in routes."""

from __future__ import annotations

from typing import Final

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

HX_REQUEST: Final = "HX-Request"
HIDDEN_MS: Final = "X-Hidden-Ms"
"""How long the page was hidden since the page's last action, in milliseconds: the game page's
script sends it with each action (``static/js/app.js``); untrusted (:func:`hidden_ms`)."""
LONGEST_HIDDEN_MS: Final = 366 * 24 * 3_600_000
"""More than any gap a game's clock counts: a larger claim is read as this."""

NO_STORE: Final = {"Cache-Control": "no-store"}
"""Every page and answer that shows a player's game or session: never cached."""


def is_htmx(request: Request) -> bool:
    """Did htmx send this request (so it wants a fragment, not a redirect or a page)?"""
    return request.headers.get(HX_REQUEST) == "true"


def hidden_ms(request: Request) -> int:
    """The time the page says it was hidden (:data:`HIDDEN_MS`), as a bounded count: ``0`` when
    the header is missing, negative or not a whole number; the clock bounds it further
    (:meth:`app.engine.game.Clock.leave_out`)."""
    text = request.headers.get(HIDDEN_MS, "")
    if not (text.isascii() and text.isdigit()):
        return 0
    return LONGEST_HIDDEN_MS if len(text) > 12 else min(int(text), LONGEST_HIDDEN_MS)


def vary_on_htmx(response: Response) -> Response:
    """The same URL answers a page or a fragment: caches must key on ``HX-Request``."""
    existing = response.headers.get("Vary")
    response.headers["Vary"] = f"{existing}, {HX_REQUEST}" if existing else HX_REQUEST
    return response


def html_answer(html: str, status: int = 200, headers: dict[str, str] = NO_STORE) -> Response:
    """A page or fragment of a player's own: never cached, keyed on ``HX-Request``."""
    return vary_on_htmx(HTMLResponse(html, status, headers=headers))
