"""What the logs may say about a request: never a device link's secret, a cookie, a form
token or a form's body; and, with ``SOLITAIRE_LOG_FORMAT=json``, how they say it.

A device link (``/link/SECRET``) carries the secret that makes a browser play as its owner.
The link has to travel in its URL (that is how it is shared), so the path is masked wherever
this application writes it: uvicorn's access log (:class:`MaskSecrets`, installed on the
``uvicorn.access`` logger by :func:`install`) and the application's own lines
(:func:`loggable_path`). A proxy in front keeps its own log: ``docs/deployment.md`` says how
to mask it there.

**JSON lines** (:func:`install` with ``json``): every line of the process — the application's,
uvicorn's — is one JSON object (:class:`JsonLines`): ``time``, ``level``, ``logger``,
``message``, the request's id when a request is under way, and for an error its
``traceback``. uvicorn's access log gives way to one line per request written by
:class:`app.web.edge.middleware.Perimeter`: its id, method, route template, path (masked,
without the query), status, duration in milliseconds, store and client address. Headers and
bodies are never logged, so no cookie, form token or form body can reach a line. The default,
``text``, keeps uvicorn's readable lines.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any, Final

SECRET_PATH: Final = re.compile(r"(/link/)[^/?#\s]+")
"""A device link's path: the secret is the segment after ``/link/``."""

MASK: Final = "…"


def loggable_path(path: str) -> str:
    """``path`` with a device link's secret masked (and at most 200 characters).

    >>> loggable_path("/link/8Hq2vWm-secret?x=1"), loggable_path("/half-moon/HM1-N-AAAAAAB")
    ('/link/…?x=1', '/half-moon/HM1-N-AAAAAAB')
    """
    return SECRET_PATH.sub(rf"\g<1>{MASK}", path[:200])


class MaskSecrets(logging.Filter):
    """Masks the secret in uvicorn's access log records, whose arguments are
    ``(client, method, path with query, HTTP version, status)``."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        path = args[2] if isinstance(args, tuple) and len(args) >= 3 else None
        if isinstance(args, tuple) and isinstance(path, str) and "/link/" in path:
            record.args = (*args[:2], loggable_path(path), *args[3:])
        return True


ACCESS_LOGGER: Final = "uvicorn.access"
REQUESTS_LOGGER: Final = "solitaire.access"
"""The JSON request lines' logger (:class:`app.web.edge.middleware.Perimeter`)."""

REQUEST_ID: ContextVar[str | None] = ContextVar("request_id", default=None)
"""The id of the request under way (``X-Request-ID``), for every line logged while it is."""


class JsonLines(logging.Formatter):
    """One JSON object per record: ``time`` (UTC, ISO 8601, milliseconds), ``level``,
    ``logger``, ``message`` (a device link's secret masked), ``request_id`` while a request is
    under way, a request line's own fields (``extra={"fields": {...}}``), and ``traceback``
    for a record that carries an exception.

    >>> record = logging.LogRecord("app", logging.INFO, "", 0, "GET %s", ("/link/s3cret",), None)
    >>> record.created = 0.0
    >>> json.loads(JsonLines().format(record))["message"], JsonLines().format(record)[:36]
    ('GET /link/…', '{"time": "1970-01-01T00:00:00.000Z",')
    """

    def format(self, record: logging.LogRecord) -> str:
        when = datetime.fromtimestamp(record.created, UTC)
        line: dict[str, Any] = {
            "time": when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": SECRET_PATH.sub(rf"\g<1>{MASK}", record.getMessage()),
        }
        request_id = REQUEST_ID.get()
        if request_id is not None:
            line["request_id"] = request_id
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            line.update(fields)
        if record.exc_info:
            line["traceback"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def install(log_format: str = "text") -> None:
    """Put :class:`MaskSecrets` on the access logger once (an app made again adds none); with
    ``json``, write every line as :class:`JsonLines` to standard error, uvicorn's included,
    and leave the requests' lines to :class:`app.web.edge.middleware.Perimeter`."""
    logger = logging.getLogger(ACCESS_LOGGER)
    if not any(isinstance(f, MaskSecrets) for f in logger.filters):
        logger.addFilter(MaskSecrets())
    if log_format != "json":
        return
    root = logging.getLogger()
    if not any(isinstance(h.formatter, JsonLines) for h in root.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonLines())
        root.addHandler(handler)
    root.setLevel(logging.INFO)
    for name in ("uvicorn", "uvicorn.error"):  # uvicorn's own lines, through the root's
        uvicorn = logging.getLogger(name)
        uvicorn.handlers = []
        uvicorn.propagate = True
    logger.disabled = True  # one line per request: Perimeter's
