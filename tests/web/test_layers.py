"""Issue 48 item 3: a tap passes through as few layers as the site's safeguards need — one
middleware of our own around gzip, and a game action dispatched as a plain Starlette route
(FastAPI's dependency solving was pure cost for an endpoint that reads its own form). The
safeguards themselves are held by ``test_abuse.py``, ``test_http_contract.py`` and
``test_metrics.py`` (a tap's metrics under its route template:
``test_taps_are_counted_by_outcome_and_route_template``); the cost of each layer is in ``docs/performance.md``."""

from __future__ import annotations

from fastapi.routing import APIRoute
from starlette.middleware.gzip import GZipMiddleware
from starlette.routing import Route

from app.web.edge.middleware import Perimeter
from app.web.games import ROUTERS

VERBS = {"tap", "auto", "home", "move", "undo", "redo", "restart"}


def test_one_middleware_of_our_own_around_gzip(app):
    assert [middleware.cls for middleware in app.user_middleware] == [Perimeter, GZipMiddleware]


def test_every_game_action_is_a_starlette_route_and_every_page_a_fastapi_one():
    actions = pages = 0
    for router in ROUTERS:
        for route in router.routes:
            assert isinstance(route, Route)
            verb = route.path.rsplit("/", 1)[-1]
            if verb in VERBS:
                assert type(route) is Route, route.path
                assert route.methods == {"POST"}
                actions += 1
            elif route.path.endswith("{code}"):
                assert isinstance(route, APIRoute), route.path
                pages += 1
    # Half Moon: tap, undo, redo, restart; Seahaven: those and auto, home, move — each with
    # its practice route
    assert actions == 2 * (4 + 7)
    assert pages >= 2
