"""Installable, and honest offline (issue 27): the web app manifest in each language, the
service worker at ``/sw.js`` (scope ``/``) and the offline page it shows.

The worker caches the static files (their content-hashed URLs, under a cache named after a
version that changes with any of them) and the offline pages; a navigation goes to the
network, and only when the network gives no answer at all does the worker answer with the
offline page in the player's language — or, for a game's page it has seen, that page as the
network last gave it, which draws the board the browser kept (issue 32). It never answers a
game action (a POST) from a cache: the server's answer is the only truth (``docs/decisions.md``).
"""

from __future__ import annotations

import functools
import hashlib
import json
from typing import Any, Final

from babel.support import NullTranslations
from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.i18n import LANGUAGES, N_, translations
from app.web.edge.errors import PlayerError
from app.web.edge.middleware import SECURITY_HEADERS
from app.web.games import SITE_DESCRIPTION, SITE_NAME
from app.web.rendering.assets import Assets
from app.web.rendering.context import PageBase
from app.web.rendering.screen import SCREENS
from app.web.rendering.templates import TEMPLATES_DIR, THEME_COLOURS, Renderer

router = APIRouter()

THEME_COLOUR: Final = THEME_COLOURS["light"]
"""The felt: the browser's bar and the splash screen of the installed app."""
BACKGROUND: Final = "#0a4129"

ICONS: Final = (
    ("icons/icon-192.png", "192x192", "any"),
    ("icons/icon-512.png", "512x512", "any"),
    ("icons/maskable-512.png", "512x512", "maskable"),
)
"""The manifest's icons (made by ``scripts/make_icons.sh``): file, size, purpose."""

APP_NAME: Final = SITE_NAME
DESCRIPTION: Final = SITE_DESCRIPTION

NO_CACHE: Final = {"Cache-Control": "no-cache"}
"""Revalidated on every use: a new deployment's manifest and worker are seen at once."""


def offline_url(lang: str) -> str:
    return f"/offline/{lang}"


def manifest(lang: str, assets: Assets) -> dict[str, Any]:
    """The web app manifest in ``lang``: names, where it starts, how it looks, its icons."""
    t = translations(lang)
    return {
        "id": "/",
        "name": t.gettext(APP_NAME),
        "short_name": t.gettext(N_("Patience")),
        "description": t.gettext(DESCRIPTION),
        "lang": lang,
        "dir": "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND,
        "categories": ["games"],
        "icons": [
            {"src": assets.url(name), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for name, sizes, purpose in ICONS
        ],
    }


@router.get("/manifest.{lang}.webmanifest", name="manifest")
async def manifest_file(lang: str, request: Request) -> Response:
    """The manifest a page links to in its own language (a manifest is fetched without the
    player's cookie, so the language is in the URL)."""
    if lang not in LANGUAGES:
        raise PlayerError.not_found()
    body = json.dumps(manifest(lang, request.app.state.assets), ensure_ascii=False, indent=1)
    return Response(body, media_type="application/manifest+json", headers=NO_CACHE)


def offline_html(renderer: Renderer, lang: str) -> str:
    """The offline page in ``lang``: nobody's page (no token, no form, the default look —
    the worker puts the player's look on ``<html>`` when it shows it)."""
    t: NullTranslations = translations(lang)
    context = PageBase(None, lang, "/").context()
    return renderer.page("pages/offline.html", context, t)


@router.get("/offline/{lang}", name="offline")
async def offline_page(lang: str, request: Request) -> Response:
    """What the worker shows for a navigation while the network is gone (cached by it at
    installation; here for it to fetch, and for anyone to look at)."""
    if lang not in LANGUAGES:
        raise PlayerError.not_found()
    html = offline_html(request.app.state.renderer, lang)
    return Response(html, media_type="text/html; charset=utf-8", headers=NO_CACHE)


def page_headers() -> dict[str, str]:
    """The security headers every page gets (the CSP first): the worker gives them to the
    offline page it makes, whose answer never passes through the server's middleware."""
    return {name.decode(): value.decode() for name, value in SECURITY_HEADERS}


@functools.cache
def _worker(assets: Assets, renderer: Renderer) -> str:
    """The worker's script: its cache list, the offline page's headers and a version naming
    everything it caches or answers with."""
    files = assets.hashed_urls() + assets.module_urls()
    offline = {lang: offline_url(lang) for lang in LANGUAGES}
    headers = page_headers()
    digest = hashlib.sha256()
    for part in (
        *files,
        *(offline_html(renderer, lang) for lang in LANGUAGES),
        json.dumps(headers, sort_keys=True),
    ):
        digest.update(part.encode())
        digest.update(b"\0")
    template = renderer.env.get_template("sw.js")
    digest.update((TEMPLATES_DIR / "sw.js").read_bytes())
    return template.render(
        version=digest.hexdigest()[:12],
        assets=files,
        offline=offline,
        languages=list(LANGUAGES),
        headers=headers,
        games=sorted(SCREENS),
    )


@router.get("/sw.js", name="service-worker")
async def service_worker(request: Request) -> Response:
    """The service worker, at the root so its scope is the whole site."""
    body = _worker(request.app.state.assets, request.app.state.renderer)
    return Response(body, media_type="text/javascript; charset=utf-8", headers=NO_CACHE)
