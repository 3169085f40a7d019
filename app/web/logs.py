"""What the logs may say about a request: never a device link's secret.

A device link (``/link/SECRET``) carries the secret that makes a browser play as its owner.
The link has to travel in its URL (that is how it is shared), so the path is masked wherever
this application writes it: uvicorn's access log (:class:`MaskSecrets`, installed on the
``uvicorn.access`` logger by :func:`install`) and the application's own lines
(:func:`loggable_path`). A proxy in front keeps its own log: ``docs/deployment.md`` says how
to mask it there.
"""

from __future__ import annotations

import logging
import re
from typing import Final

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


def install() -> None:
    """Put :class:`MaskSecrets` on the access logger once (an app made again adds none)."""
    logger = logging.getLogger(ACCESS_LOGGER)
    if not any(isinstance(f, MaskSecrets) for f in logger.filters):
        logger.addFilter(MaskSecrets())
