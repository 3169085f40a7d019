"""Typed helpers for the htmx request and response headers, instead of literals in routes."""

from __future__ import annotations

from typing import Final

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

HX_REQUEST: Final = "HX-Request"

NO_STORE: Final = {"Cache-Control": "no-store"}
"""Every page and answer that shows a player's game or session: never cached."""


def is_htmx(request: Request) -> bool:
    """Did htmx send this request (so it wants a fragment, not a redirect or a page)?"""
    return request.headers.get(HX_REQUEST) == "true"


def vary_on_htmx(response: Response) -> Response:
    """The same URL answers a page or a fragment: caches must key on ``HX-Request``."""
    existing = response.headers.get("Vary")
    response.headers["Vary"] = f"{existing}, {HX_REQUEST}" if existing else HX_REQUEST
    return response


def html_answer(html: str, status: int = 200, headers: dict[str, str] = NO_STORE) -> Response:
    """A page or fragment of a player's own: never cached, keyed on ``HX-Request``."""
    return vary_on_htmx(HTMLResponse(html, status, headers=headers))
