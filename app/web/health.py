"""``GET /health``: for load balancers and uptime checks — answers without touching the store.

It is also the benchmarks' floor: the cheapest request this server can answer.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse

router = APIRouter()


@router.get("/health", name="health")
async def health() -> PlainTextResponse:
    return PlainTextResponse("ok", headers={"Cache-Control": "no-store"})
