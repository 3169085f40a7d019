"""``GET /health``: for load balancers and uptime checks.

It answers ``ok`` when the store answers a ping within :data:`STORE_CHECK_SECONDS` and can
write, and ``503 store unreachable`` otherwise, so a load balancer takes an instance whose
store is stalled, gone or full out of service (issue 23: a Redis at its ``maxmemory`` refused
every new game while this said ``ok``; a SQLite file on a full disk likewise): ``503 store
cannot write`` then. The ping goes through the store's asyncio side, so a stalled store never
holds up the event loop.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Final

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse

from app.store import StoreError, StoreFullError
from app.web.edge.dependencies import StoreDep

log = logging.getLogger(__name__)
router = APIRouter()

STORE_CHECK_SECONDS: Final = 0.25
"""How long ``/health`` waits for the store: Redis answers a ping in well under a millisecond."""


@router.get("/health", name="health")
async def health(store: StoreDep) -> PlainTextResponse:
    headers = {"Cache-Control": "no-store"}
    try:
        await asyncio.wait_for(store.ping(), STORE_CHECK_SECONDS)
    except StoreFullError as error:
        log.warning("health: the store cannot write: %s", error)
        return PlainTextResponse("store cannot write", 503, headers=headers)
    except (StoreError, TimeoutError) as error:
        log.warning("health: the store is unreachable: %s", error or "timed out")
        return PlainTextResponse("store unreachable", 503, headers=headers)
    return PlainTextResponse("ok", headers=headers)
