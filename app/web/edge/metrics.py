"""``GET /metrics``: the application's figures in Prometheus's text format (:mod:`app.metrics`),
all workers' together, for the scraper alone.

Only the addresses ``SOLITAIRE_METRICS_FROM`` names (default: this machine, ``127.0.0.0/8``
and ``::1``) are answered; anyone else gets the site's 404, as for a page that does not
exist. The address is the one uvicorn gives the request: the client's own, or — behind a
proxy uvicorn trusts (``--forwarded-allow-ips``) — the one the proxy names, so a visitor
reaching the site through the proxy is refused even when the proxy runs on this machine. A
request that carries a proxy's headers (``Forwarded``, ``X-Forwarded-For``, ``X-Real-IP``) is
refused too, whatever its address: a scraper asks directly, and a proxy uvicorn does not trust
would otherwise lend its own address to everyone behind it.

Each scrape first pings the store (``solitaire_store_up``, bounded like ``/health``), then reads
the figures off the event loop (several workers: their files).
"""

from __future__ import annotations

import asyncio
import ipaddress
from typing import Final

from fastapi import APIRouter, Request, Response

from app import metrics
from app.config import Config
from app.store import StoreError
from app.store.observed import store_label
from app.web.edge.errors import PlayerError
from app.web.edge.health import STORE_CHECK_SECONDS

router = APIRouter()

PROXY_HEADERS: Final = ("forwarded", "x-forwarded-for", "x-real-ip")


def may_scrape(request: Request) -> bool:
    """Whether the request comes straight from one of the configured scrapers' addresses."""
    if any(name in request.headers for name in PROXY_HEADERS):
        return False
    config: Config = request.app.state.config
    host = request.client.host if request.client else ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(address in network for network in config.metrics_from)


@router.get("/metrics", name="metrics", include_in_schema=False)
async def figures(request: Request) -> Response:
    if not metrics.ON or not may_scrape(request):
        raise PlayerError.not_found()
    store = request.app.state.store
    try:
        await asyncio.wait_for(store.ping(), STORE_CHECK_SECONDS)
        up = 1
    except (StoreError, TimeoutError):
        up = 0
    metrics.STORE_UP.labels(store_label(store)).set(up)
    body = await asyncio.to_thread(metrics.figures)
    return Response(body, media_type=metrics.CONTENT_TYPE, headers={"Cache-Control": "no-store"})
