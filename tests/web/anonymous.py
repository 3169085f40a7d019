"""Every page a client without a cookie can open, built from the app's route table (issue 23:
none of them may write anything to the store).

:func:`get_routes` lists the path of every route that answers ``GET`` (FastAPI's own table,
so a route added tomorrow is listed tomorrow); :data:`SAMPLES` gives each of them the paths
to open — real values (deal codes, a replay a player made, a device link a player made, step
numbers, languages, assets by their hashed names), query-string variants and crafted notices,
and the mistakes a script makes (unknown codes, slugs, ids, languages). :func:`anonymous_gets`
raises for a route :data:`SAMPLES` does not cover, so neither ``bench/bench_growth.py`` nor
``tests/web/test_attacks.py`` can silently skip one; a test holds that every route is covered.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi import routing

from app.engine.codes import DealCode
from app.i18n import LANGUAGES
from app.web.rendering.assets import Assets


def get_routes(app: Any) -> list[str]:
    """The path (as declared: ``/half-moon/{code}``) of every route of ``app`` that answers
    ``GET`` (and so ``HEAD``)."""
    return sorted(
        {
            context.path
            for context in routing.iter_route_contexts(app.routes)
            if context.path is not None and "GET" in (context.methods or ())
        }
    )


@dataclass(frozen=True)
class Made:
    """What players made beforehand (with cookies), for the anonymous client to open."""

    replay: str
    """A replay id (``/replay/ID``)."""
    link: str
    """A live device link's secret (``/link/SECRET``)."""


SLUGS = ("half-moon", "seahaven")
FORGED_TAG = "A" * 22
"""A notice's tag nobody made (``&t=``)."""


def _half_moon(i: int) -> str:
    return str(DealCode("HM", 1, "N", 1 + i))


def _seahaven(i: int) -> str:
    return str(DealCode("SH", 1, ("C4", "C2", "C1")[i % 3], 10_000 + i))


@functools.cache
def _assets() -> list[str]:
    """Every static file by its hashed name, and one by its plain name."""
    return [*Assets().hashed_urls(), "/static/css/app.css"]


SAMPLES: dict[str, Callable[[int, Made], list[str]]] = {
    "/": lambda i, made: ["/", f"/?n=linked&t={FORGED_TAG}"],
    "/play": lambda i, made: [f"/play?code={_half_moon(i)}", "/play?code=nonsense", "/play"],
    "/half-moon": lambda i, made: ["/half-moon"],
    "/half-moon/{code}": lambda i, made: [
        f"/half-moon/{_half_moon(i)}",
        f"/half-moon/{_half_moon(i)}?n=unreadable",
        f"/half-moon/{_half_moon(i)}?n=stale&t={FORGED_TAG}",
        f"/half-moon/{_half_moon(i)}?ask=restart",
        f"/half-moon/{_half_moon(i)}?howto=1",  # the how-to-play, asked for (issue 35)
        f"/half-moon/{_half_moon(i).lower()}",  # to the canonical spelling (308)
        "/half-moon/HM9-nonsense",  # not a code
        f"/half-moon/{_seahaven(i)}",  # the other game's code
    ],
    "/seahaven": lambda i, made: [
        "/seahaven",
        f"/seahaven?last={1 + i % 3}",
        f"/seahaven?cells={(4, 2, 1)[i % 3]}",  # a random deal, proved playable first
        "/seahaven?cells=9",
    ],
    "/seahaven/{code}": lambda i, made: [
        f"/seahaven/{_seahaven(i)}",  # a position to prove (it stored a verdict before)
        f"/seahaven/{_seahaven(i)}?n=unreadable",
        f"/seahaven/{_seahaven(i)}?n=not-home",
        f"/seahaven/{_seahaven(i)}?ask=restart",
        f"/seahaven/{_seahaven(i)}?howto=1",
    ],
    # a practice game (issue 43): none for a stranger (303 to the deal), a code's mistakes
    "/half-moon/{code}/practice": lambda i, made: [
        f"/half-moon/{_half_moon(i)}/practice",
        f"/half-moon/{_half_moon(i).lower()}/practice",
        "/half-moon/HM9-nonsense/practice",
    ],
    "/seahaven/{code}/practice": lambda i, made: [f"/seahaven/{_seahaven(i)}/practice"],
    "/rules/{slug}": lambda i, made: [*(f"/rules/{slug}" for slug in SLUGS), "/rules/poker"],
    "/examples": lambda i, made: ["/examples"],
    "/examples/{slug}": lambda i, made: [
        *(f"/examples/{slug}?step={step}" for slug in SLUGS for step in (0, 3, 999, "x")),
        "/examples/poker",
    ],
    "/faq": lambda i, made: ["/faq"],
    "/winnability": lambda i, made: ["/winnability"],
    "/static/{name:path}": lambda i, made: [*_assets(), "/static/css/nothing.css"],
    "/health": lambda i, made: ["/health"],
    "/metrics": lambda i, made: ["/metrics"],
    "/stats": lambda i, made: [
        "/stats",
        "/stats?ask=reset",
        "/stats?n=revoked",
        f"/stats?n=linked&t={FORGED_TAG}",
        "/stats?n=reset",
    ],
    "/link/{secret}": lambda i, made: [
        f"/link/{made.link}",  # the question only: a GET looks nothing up
        f"/link/{'A' * 29}{i % 1000:03d}",  # a guess
    ],
    "/daily/{slug}": lambda i, made: [
        "/daily/half-moon",
        *(f"/daily/seahaven?cells={cells}" for cells in (4, 2, 1)),
        "/daily/poker",
    ],
    "/manifest.{lang}.webmanifest": lambda i, made: [
        *(f"/manifest.{lang}.webmanifest" for lang in LANGUAGES),
        "/manifest.xx.webmanifest",
    ],
    "/offline/{lang}": lambda i, made: [*(f"/offline/{lang}" for lang in LANGUAGES), "/offline/xx"],
    "/sw.js": lambda i, made: ["/sw.js"],
    "/replay": lambda i, made: ["/replay"],
    "/replay/{ident}.txt": lambda i, made: [f"/replay/{made.replay}.txt", "/replay/nobody.txt"],
    "/replay/{ident}": lambda i, made: [
        f"/replay/{made.replay}",
        f"/replay/{made.replay}?step=3",
        f"/replay/{made.replay}?step=99999",
        "/replay/nobody",
    ],
    "/replay/{ident}/analysis": lambda i, made: [
        f"/replay/{made.replay}/analysis",
        "/replay/nobody/analysis",
    ],
    "/replay/{ident}/win": lambda i, made: [
        f"/replay/{made.replay}/win",
        f"/replay/{made.replay}/win?step=2",
        "/replay/nobody/win",
    ],
    "/replay/{ident}/win.txt": lambda i, made: [
        f"/replay/{made.replay}/win.txt",
        "/replay/nobody/win.txt",
    ],
}
"""For each GET route, the paths to open; ``i`` chooses new deals and guesses each round."""

EXTRA = ["/nowhere", f"/half-moon/{_half_moon(0)}/tap"]
"""No route: a 404; a POST-only route: 405."""


class UncoveredRouteError(LookupError):
    """A GET route has no sample paths in :data:`SAMPLES`."""


def anonymous_gets(app: Any, i: int, made: Made) -> list[str]:
    """The paths of round ``i``: every GET route's samples, then :data:`EXTRA`.

    :raises UncoveredRouteError: for a GET route :data:`SAMPLES` does not cover.
    """
    missing = [path for path in get_routes(app) if path not in SAMPLES]
    if missing:
        raise UncoveredRouteError(f"GET routes without sample paths: {missing}")
    return [sample for path in get_routes(app) for sample in SAMPLES[path](i, made)] + EXTRA
