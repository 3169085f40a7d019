"""The application: wiring only — state, middleware, error handlers, routers.

Run it with ``bash scripts/run`` (or ``uvicorn app.main:app``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import gc
import os
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from fastapi import FastAPI
from starlette.middleware.gzip import GZipMiddleware

from app import metrics as figures
from app.config import Config
from app.engine.games import GAMES
from app.services.analyses import Analyst
from app.services.hints import Hinter
from app.services.housekeeping import sweep_forever
from app.services.proofs import Prover
from app.services.signing import Signer, server_secret
from app.store import Store, open_store
from app.store.observed import observe
from app.store.ratelimit import Limits
from app.web import games
from app.web.edge import error_pages, health, logs, metrics
from app.web.edge.middleware import Perimeter
from app.web.edge.warmup import warm_up
from app.web.pages import home, install, reading, static, stats
from app.web.play import floor
from app.web.players import settings
from app.web.rendering.assets import Assets
from app.web.rendering.templates import Renderer
from app.web.review import findings, replay_pages

_SETTLED = False


def settle_heap() -> None:
    """Once per process, when the first run has started: collect, then move every object
    alive now (modules, classes, templates, catalogs: hundreds of thousands, never garbage)
    out of the collector's reach (:func:`gc.freeze`).

    Without it every full collection walks them all: under load a worker ran one every
    1.5–4 s, each 20–130 ms with every request waiting (``docs/performance.md``, *GC*).
    """
    global _SETTLED
    if not _SETTLED:
        _SETTLED = True
        gc.collect()
        gc.freeze()


def create_app(
    config: Config | None = None,
    store: Store | None = None,
    proof_pool: concurrent.futures.Executor | None = None,
    analysis_pool: concurrent.futures.Executor | None = None,
) -> FastAPI:
    """The application; ``store`` replaces the configured one (tests pass a memory store),
    ``proof_pool`` the proof processes it would start (tests share one pool)."""
    config = config or Config.from_env()
    app = FastAPI(
        title=" & ".join(game.title for game in GAMES.values()),
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
        lifespan=_lifespan(config, store, proof_pool, analysis_pool),
        # FastAPI's native OpenTelemetry off: the site counts and logs with its own
        # (app/metrics.py, app/web/edge/logs.py), and asking OpenTelemetry's three global
        # providers whether any is configured cost every request 10–30 µs
        # (docs/performance.md, *A tap in process*)
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    app.state.config = config
    if store is not None:  # the caller's, open already: served even before a lifespan runs
        app.state.store = store
    app.state.assets = Assets()
    app.state.renderer = Renderer(app.state.assets)
    _add_middleware(app, config)
    error_pages.install(app)
    logs.install(config.log_format)  # no device link's secret in any line; JSON lines
    _include_routers(app)
    return app


def _lifespan(
    config: Config,
    store: Store | None,
    proof_pool: concurrent.futures.Executor | None,
    analysis_pool: concurrent.futures.Executor | None,
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        """Open what this run needs and close exactly that: the configured store (a store
        handed in belongs to the caller), the rate limiter and the proof pool. Every run opens
        its own, so an app can be started again (a test client per test)."""
        opened = store is None
        app.state.store = observe(  # every call timed (solitaire_store_call_duration_seconds)
            store or open_store(config.store, config.expire_days, config.store_timeout)
        )
        # the secret session ids are signed with: configured, or kept beside the store
        app.state.signer = Signer(await server_secret(config.secret, app.state.store))
        app.state.limiter = app.state.store.rate_limiter(
            Limits.parse(
                config.rate_writes,
                config.rate_new,
                rank=config.rate_ranked,
                analysis=config.rate_analysis,
            )
        )
        app.state.prover = Prover(
            workers=config.proof_workers,
            seconds=config.proof_seconds,
            pool=proof_pool,
        )
        app.state.analyst = Analyst(
            seconds=config.analysis_seconds, pool=analysis_pool, limiter=app.state.limiter
        )
        app.state.hinter = Hinter(pool=proof_pool)  # issue 45: hints on request
        sweeper = asyncio.create_task(
            sweep_forever(app.state.store, config.expire_days, config.sweep_seconds)
        )
        await warm_up(app)  # templates, catalogs, tables, proof processes (issue 48)
        settle_heap()
        try:
            yield
        finally:
            sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeper  # a sweep under way finishes before its connections close
            await app.state.prover.close()
            await app.state.analyst.close()
            await app.state.hinter.close()
            app.state.limiter.close()
            if opened:
                await app.state.store.close()
            figures.process_ended()

    return lifespan


def _add_middleware(app: FastAPI, config: Config) -> None:
    """One layer of our own around gzip (app/web/edge/middleware.py: every layer is a cost on
    every request): the request's id, metrics and log line, security headers, the 500 page
    inside them, HEAD as GET, the session cookie, the body limit, the limit's holds given back."""
    app.add_middleware(GZipMiddleware, minimum_size=500, compresslevel=6)
    pasted = max(config.max_body, replay_pages.PASTED_MAX_BODY)  # a 5,000-move game's text
    app.add_middleware(
        Perimeter,
        limit=config.max_body,
        wider={("POST", "/replay"): pasted},
        log_json=config.log_format == "json",
    )


def _include_routers(app: FastAPI) -> None:
    # the games' routers first: a tap, by far the most frequent request, is matched without
    # walking the other routers first (no two routers' paths overlap, so order is free)
    for router in games.ROUTERS:  # every game's, from the table of games
        app.include_router(router)
    app.include_router(home.router)
    app.include_router(settings.router)
    for module in (reading, static, health, stats, install, replay_pages, findings, metrics):
        app.include_router(module.router)
    if os.environ.get(floor.ENV):  # bench/bench_http.py's floor route, never deployed
        app.include_router(floor.router)


_app: FastAPI | None = None


def __getattr__(name: str) -> FastAPI:
    """``app.main:app`` for uvicorn, built on first use so importing this module opens no store."""
    global _app
    if name != "app":
        raise AttributeError(name)
    if _app is None:
        _app = create_app()
    return _app
