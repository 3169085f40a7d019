"""One pure ASGI middleware, :class:`Perimeter`, around the application (and Starlette's gzip
inside it): every request observed (its id, its metrics, its JSON log line), security headers
on every response (HSTS under HTTPS), a crash guard that answers the 500 page inside them,
HEAD answered as GET, the session cookie's sliding renewal, a cap on request bodies, and the
limit's holds given back when a request ends.

They were seven middleware classes, one ASGI layer each (a coroutine and a wrapped ``send``
per layer on every request); one layer does the same work in the same order for less
(``docs/performance.md``, *A tap in process*)."""

from __future__ import annotations

import contextlib
import logging
import re
import secrets
import time
from collections.abc import Mapping
from typing import Any, Final

from starlette.requests import ClientDisconnect, HTTPConnection, Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import metrics
from app.store.observed import store_label
from app.web.edge.dependencies import release_held
from app.web.edge.error_pages import render_crash, render_error
from app.web.edge.errors import PlayerError
from app.web.edge.logs import REQUEST_ID, REQUESTS_LOGGER, loggable_path
from app.web.players.sessions import (
    Player,
    cookie_headers,
    is_https,
    signer_of,
    to_send,
    vouch_for_legacy,
)

log = logging.getLogger(__name__)

CSP: Final = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "object-src 'none'",
    ]
)
"""No inline scripts or styles and no eval: htmx is configured not to need them."""

SECURITY_HEADERS: Final = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
    (b"cross-origin-opener-policy", b"same-origin"),
]

HSTS: Final = (b"strict-transport-security", b"max-age=31536000")
"""A year, this host only: ``includeSubDomains`` and preloading would bind every other
subdomain of the operator's domain too, which this application cannot know about."""


REQUEST_ID_HEADER: Final = b"x-request-id"
_GOOD_ID: Final = re.compile(rb"[A-Za-z0-9._:+/=-]{1,128}")
"""A proxy's request id we take as it is (nginx's ``$request_id`` is 32 hex digits, a
UUID has dashes); anything else — too long, spaces, quotes — is replaced by ours."""

UNMATCHED: Final = "unmatched"
"""The ``route`` label of a request no route matched (a 404 for an unknown path)."""
METHODS: Final = frozenset({"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"})
"""The ``method`` label's values; any other method a client invents counts as ``other``."""

access_log = logging.getLogger(REQUESTS_LOGGER)


def request_id_of(scope: Scope) -> str:
    """The proxy's ``X-Request-ID`` when it is a plain token, else a new one (32 hex digits)."""
    for name, value in scope["headers"]:
        if name == REQUEST_ID_HEADER:
            given: bytes = value
            if _GOOD_ID.fullmatch(given):
                return given.decode("ascii")
            break
    return secrets.token_hex(16)


class BodyTooLarge(Exception):  # noqa: N818
    """Raised from ``receive`` once a body passes the limit."""


class Perimeter:
    """Everything the site does around a request, outermost first — what seven layers did:

    1. **Observed**: the request gets an id (the proxy's ``X-Request-ID``, or a new one), sent
       back as ``X-Request-ID`` and set on every log line written while it is under way; once
       it is answered, it is counted by route template, method and status with its duration
       (:mod:`app.metrics`, when on) and, with JSON logs, written as one line. The route
       template is the matched route's own ``path`` (``/half-moon/{code}/tap``); each (route,
       method, status) has its metric children looked up once and kept.
    2. **Security headers**: those of :data:`SECURITY_HEADERS` on every response, and
       :data:`HSTS` on those served over HTTPS (:func:`app.web.players.sessions.is_https`); a header
       the response set itself is kept.
    3. **Crash guard**: the 500 page for an unexpected exception, answered here, inside the
       security headers, and not raised further: Starlette's outermost error middleware would
       answer without those headers and re-raise, and uvicorn then drops the connection, so a
       client's next keep-alive request on it fails. A client that went away before its body
       arrived (``ClientDisconnect``) is no crash: one line in the log (issue 23), no answer.
    4. **HEAD as GET**: ``HEAD`` answered by the ``GET`` route, headers only (RFC 9110
       §9.3.2). GET handlers never write, so running one is safe.
    5. **Session cookie**: sent on a response to a request that used the player (pages,
       actions, error pages; not static files or ``/health``) only when it changes, or once a
       day for the sliding expiry (:func:`app.web.players.sessions.to_send`; issue 44); first, an
       unsigned id of an earlier version the store knows is vouched for
       (:func:`app.web.players.sessions.vouch_for_legacy`).
    6. **Body limit**: bodies over ``limit`` bytes refused with 413, by header or while
       streaming (a chunked body is counted as it arrives); ``wider`` names the few routes
       (method, exact path) that take more: ``POST /replay``, a pasted game's text.
    7. **Limit holds**: once a request ends, however it ended, the new game or ranked win it
       held of its client's limit and did not spend is given back
       (:func:`app.web.edge.dependencies.release_held`).
    """

    def __init__(
        self,
        app: ASGIApp,
        limit: int,
        wider: Mapping[tuple[str, str], int] | None = None,
        log_json: bool = False,
    ) -> None:
        self.app = app
        self.limit = limit
        self.wider = dict(wider or {})
        self.log_json = log_json
        self._children: dict[tuple[str, str, int], tuple[Any, Any]] = {}
        self._store: str | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # the lifespan
            await self.app(scope, receive, send)
            return
        began = time.perf_counter()
        request_id = request_id_of(scope)
        id_header = (REQUEST_ID_HEADER, request_id.encode("ascii"))
        status = 499  # no answer: the client went away first (nginx's "client closed request")
        started = False  # the crash guard's: some answer is out
        head = scope["method"] == "HEAD"
        inner = scope
        if head:  # the GET route answers; the state is shared with the copy (the cookie's)
            scope.setdefault("state", {})
            inner = {**scope, "method": "GET"}

        async def send_out(message: Message) -> None:  # security headers, the request id
            nonlocal status, started
            if message["type"] == "http.response.start":
                started = True
                status = message["status"]
                headers = [*message.get("headers", [])]
                ours = SECURITY_HEADERS + ([HSTS] if is_https(HTTPConnection(scope)) else [])
                names = {name.lower() for name, _ in headers}
                headers += [(n, v) for n, v in ours if n not in names]
                headers.append(id_header)
                message["headers"] = headers
            await send(message)

        async def send_answer(message: Message) -> None:  # the session's cookie; HEAD's body
            if message["type"] == "http.response.start":
                cookies = await _session_cookies(inner)
                if cookies:
                    message["headers"] = [*message.get("headers", []), *cookies]
            elif head and message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send_out(message)

        reset = REQUEST_ID.set(request_id)
        try:
            await self._guarded(inner, receive, send_answer)
        except ClientDisconnect:
            path = loggable_path(scope["path"])
            log.warning(
                "%s %s: the client went away before its body arrived", scope["method"], path
            )
        except Exception as error:
            log.exception("unhandled error", exc_info=error)
            if started:  # half an answer is out: only closing the connection can end it
                raise
            response = await render_crash(Request(scope, receive))
            await response(scope, receive, send_out)
        finally:
            if head and "route" in inner:  # the route that answered, for the metrics
                scope["route"] = inner["route"]
            REQUEST_ID.reset(reset)
            self._ended(scope, request_id, status, time.perf_counter() - began)

    def _ended(self, scope: Scope, request_id: str, status: int, seconds: float) -> None:
        """The request's metrics and its log line, by the route that answered."""
        route = getattr(scope.get("route"), "path", None) or UNMATCHED
        method = scope["method"] if scope["method"] in METHODS else "other"
        if metrics.ON:
            self._count(route, method, status, seconds)
        if self.log_json:
            self._log(scope, request_id, route, method, status, seconds)

    async def _guarded(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The session's vouching, the body limit, the application, the holds given back."""
        try:
            await vouch_for_legacy(scope)
            limit = self.wider.get((scope["method"], scope["path"]), self.limit)
            length = _content_length(scope)
            if not (length.isascii() and length.isdigit()) or int(length) > limit:
                await self._refuse(scope, receive, send, limit)
                return
            seen = 0
            over = False

            async def counted() -> Message:
                nonlocal seen, over
                message = await receive()
                seen += len(message.get("body", b""))
                if seen > limit:
                    over = True
                    raise BodyTooLarge
                return message

            started = False

            async def watch(message: Message) -> None:
                # Once the body overflowed, whatever the application makes of the exception
                # (FastAPI answers 400 "error parsing the body") is dropped for the 413.
                nonlocal started
                if over:
                    return
                started = started or message["type"] == "http.response.start"
                await send(message)

            with contextlib.suppress(BodyTooLarge):
                await self.app(scope, counted, watch)
            if over and not started:
                await self._refuse(scope, receive, send, limit)
        finally:
            release_held(scope)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        request = Request(scope, receive)
        response = await render_error(request, PlayerError.too_large(limit))
        response.headers["Connection"] = "close"
        await response(scope, receive, send)

    def _count(self, route: str, method: str, status: int, seconds: float) -> None:
        key = (route, method, status)
        children = self._children.get(key)
        if children is None:
            children = self._children[key] = (
                metrics.HTTP_REQUESTS.labels(route, method, str(status)),
                metrics.HTTP_DURATION.labels(route, method),
            )
        children[0].inc()
        children[1].observe(seconds)

    def _log(
        self, scope: Scope, request_id: str, route: str, method: str, status: int, seconds: float
    ) -> None:
        if self._store is None:
            store = getattr(scope["app"].state, "store", None)
            if store is None:
                return
            self._store = store_label(store)
        client = scope.get("client")
        fields = {
            "request_id": request_id,
            "method": method,
            "route": route,
            "path": loggable_path(scope["path"]),
            "status": status,
            "duration_ms": round(seconds * 1000, 2),
            "store": self._store,
            "client": client[0] if client else None,
        }
        access_log.info("%s %s %s", method, route, status, extra={"fields": fields})


def _content_length(scope: Scope) -> str:
    """The request's ``Content-Length`` as sent (``0`` when none)."""
    for name, value in scope["headers"]:
        if name == b"content-length":
            text: str = value.decode("latin-1")
            return text
    return "0"


async def _session_cookies(scope: Scope) -> list[tuple[bytes, bytes]]:
    player = scope.get("state", {}).get("player")
    if not isinstance(player, Player):
        return []
    if player.fresh:  # a browser without a session gets one
        metrics.SESSIONS_CREATED.inc()
    why = to_send(player)
    connection = HTTPConnection(scope)
    if why == "refresh":  # an id a revocation emptied is never sent again
        store = getattr(connection.app.state, "store", None)
        try:
            if store is None or await store.moved_to(player.sid) is not None:
                return []
        except Exception:  # the store cannot say: the refresh waits for another answer
            return []
    elif not why:
        return []
    cookies = cookie_headers(player, is_https(connection), signer_of(connection.app))
    return [(b"set-cookie", value) for value in cookies]
