"""Static files served under content-hashed names, so browsers may cache them for a year.

``asset_url("css/app.css")`` gives ``/static/css/app.3f2a9c1b0d.css``; that URL is served with
``Cache-Control: immutable``. A changed file gets a new name, so no player ever runs an old
script against a new page. Files are read once at start-up (they are a few kilobytes).
"""

from __future__ import annotations

import hashlib
import mimetypes
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from starlette.requests import Request
from starlette.responses import Response

STATIC_DIR: Final = Path(__file__).resolve().parents[3] / "static"
PREFIX: Final = "/static/"
_SERVED: Final = {".css", ".js", ".svg", ".png", ".ico", ".woff2", ".txt", ".wav"}


_MEDIA: Final = {".wav": "audio/wav"}
"""Where the system's table disagrees with the registered type (``audio/x-wav``)."""


@dataclass(frozen=True, slots=True)
class Asset:
    body: bytes
    media_type: str


class Assets:
    """Every servable file of ``static/``, by its hashed and by its plain name."""

    def __init__(self, root: Path = STATIC_DIR) -> None:
        self._urls: dict[str, str] = {}
        self._hashed: dict[str, Asset] = {}
        self._plain: dict[str, Asset] = {}
        for path in sorted(root.rglob("*")):
            if not path.is_file() or path.suffix not in _SERVED:
                continue
            name = path.relative_to(root).as_posix()
            body = path.read_bytes()
            digest = hashlib.sha256(body).hexdigest()[:10]
            hashed = f"{name[: -len(path.suffix)]}.{digest}{path.suffix}"
            media = (
                _MEDIA.get(path.suffix)
                or mimetypes.guess_type(name)[0]
                or "application/octet-stream"
            )
            if media.startswith("text/") or media in ("application/javascript", "image/svg+xml"):
                media += "; charset=utf-8"
            asset = Asset(body, media)
            self._urls[name] = PREFIX + hashed
            self._hashed[hashed] = asset
            self._plain[name] = asset

    def hashed_urls(self) -> list[str]:
        """Every file's content-hashed URL (what the service worker caches)."""
        return sorted(self._urls.values())

    def module_urls(self) -> list[str]:
        """The plain URLs of the scripts a module imports by relative path (``static/js/``,
        but ``vendor/``): a module's imports cannot name hashed files, so the service worker
        keeps these too, under its version (which names every file's content)."""
        return sorted(PREFIX + name for name in self._plain if name.startswith("js/"))

    def url(self, name: str) -> str:
        """:raises KeyError: for a file that does not exist (a template typo fails loudly)."""
        return self._urls[name]

    def response(self, request: Request, name: str) -> Response | None:
        """The file for a hashed name (cached for a year) or a plain one (revalidated)."""
        if asset := self._hashed.get(name):
            cache = "public, max-age=31536000, immutable"
        elif asset := self._plain.get(name):
            cache = "no-cache"
        else:
            return None
        return Response(asset.body, media_type=asset.media_type, headers={"Cache-Control": cache})
