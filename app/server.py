"""The HTTP protocol ``scripts/run`` gives uvicorn: httptools with deadlines for slow clients.

uvicorn times out only idle keep-alive connections (``--timeout-keep-alive``), and only after a
response: a client that connects and never sends, or sends its headers or body a byte at a
time, keeps its connection (and a place under ``--limit-concurrency``) for as long as it likes
— each byte even restarts the keep-alive timer. This protocol gives every request
:data:`REQUEST_TIMEOUT` seconds, from the connection (or the request's first byte) to its last
body byte, and caps what may arrive before the headers are complete at
:data:`MAX_HEAD_BYTES`:

- time is up before the request was whole: ``408`` when the headers had arrived (the
  application is then told the client disconnected), else the connection is simply closed;
- the head grows past the cap: ``431`` and the connection is closed (a body that came in the
  same packets as the headers is not part of the head: a large one is the application's
  ``413``).

``--limit-concurrency`` (uvicorn's cap on a worker's connections and requests, answered
``503``) spares ``GET /health``: a load balancer's check still gets its answer while slow or
hostile clients hold every place, up to :data:`HEALTH_RESERVE` checks at once beyond the cap.

Behind a reverse proxy that buffers requests (nginx's default) the proxy already shields the
application from slow clients; these deadlines are the second line, and the first one for a
server reached directly. ``SOLITAIRE_REQUEST_TIMEOUT`` changes the deadline.
"""

from __future__ import annotations

import asyncio
from typing import Final

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.config import env_number

REQUEST_TIMEOUT: Final = env_number("SOLITAIRE_REQUEST_TIMEOUT", 10.0)
"""Seconds a request may take to arrive whole (headers and body: 16 KiB at most, 50 KiB for
``POST /replay``)."""

MAX_HEAD_BYTES: Final = 64 * 1024
"""Bytes received before a request's headers are complete: the request line and headers
(browsers send well under 8 KiB) and whatever part of the body (16 KiB at most, 50 KiB for
``POST /replay``) came in the same packets. httptools itself sets no limit."""


def _answer(status: str, text: str) -> bytes:
    body = text.encode()
    return (
        f"HTTP/1.1 {status}\r\ncontent-type: text/plain; charset=utf-8\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    ).encode() + body


HEALTH_PATH: Final = "/health"
HEALTH_RESERVE: Final = 8
"""Requests ``/health`` may have under way beyond ``--limit-concurrency``: the health check
never waits for a place, and a flood of checks still meets a bound."""

_HEAD_END: Final = b"\r\n\r\n"

_408: Final = _answer("408 Request Timeout", "The request did not arrive in time.")
_431: Final = _answer("431 Request Header Fields Too Large", "The request headers are too large.")


class TimedHttpToolsProtocol(HttpToolsProtocol):
    """:class:`HttpToolsProtocol` with a deadline per request and a cap on its head."""

    _deadline: asyncio.TimerHandle | None = None
    _head_bytes: int = 0
    _headers_done: bool = False
    """The current request's headers arrived (its application call has started)."""
    _head_tail: bytes = b""
    """The head's last three bytes so far: its end (a blank line) may span two packets."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if not self._headers_done and not self._head_fits(data):
            if not self.transport.is_closing():
                self.transport.write(_431)
                self.transport.close()
            return
        super().data_received(data)

    def _head_fits(self, data: bytes) -> bool:
        """Count ``data`` up to the end of the head (the rest is the body, which the body
        limit judges); ``False`` once the head passes :data:`MAX_HEAD_BYTES`."""
        seen = self._head_tail + data
        end = seen.find(_HEAD_END)
        if end >= 0:
            head = self._head_bytes + end + len(_HEAD_END) - len(self._head_tail)
            self._head_bytes, self._head_tail = 0, b""
            return head <= MAX_HEAD_BYTES
        self._head_bytes += len(data)
        self._head_tail = seen[-3:]
        return self._head_bytes <= MAX_HEAD_BYTES

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._deadline is None:
            self._arm()

    def on_headers_complete(self) -> None:
        self._headers_done = True
        limit = self.limit_concurrency
        if (
            limit is not None
            and self._is_health_check()
            and len(self.tasks) < limit + HEALTH_RESERVE
        ):
            self.limit_concurrency = None  # this request only: the check is always answered
            try:
                super().on_headers_complete()
            finally:
                self.limit_concurrency = limit
            return
        super().on_headers_complete()

    def _is_health_check(self) -> bool:
        method = self.parser.get_method()
        return method in (b"GET", b"HEAD") and self.url.split(b"?", 1)[0] == HEALTH_PATH.encode()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._headers_done = False  # the next bytes are the next request's head
        self._head_bytes, self._head_tail = 0, b""
        self._disarm()

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(REQUEST_TIMEOUT, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        cycle = self.cycle
        if self._headers_done and cycle is not None and not cycle.response_started:
            self.transport.write(_408)
        self.transport.close()
