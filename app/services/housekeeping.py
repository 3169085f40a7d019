"""Background work that keeps the store small: abandoned games expire (default after 90 days),
sessions without a game within a day (:data:`SESSION_IDLE_SECONDS`, less one sweep interval,
so none outlives a day by waiting for the next sweep).

The sweep runs in small batches (SQLite's in a worker thread), each its own short
transaction, so taps never wait behind it; several app processes sweeping the same store is
harmless.
"""

from __future__ import annotations

import asyncio
import logging

from app.clock import now_ms
from app.store import Store
from app.store.base import SESSION_IDLE_SECONDS

log = logging.getLogger(__name__)
DAY_MS = 24 * 3600 * 1000


async def sweep_forever(store: Store, max_age_days: float, interval_s: float) -> None:
    """Sweep now, then every ``interval_s`` seconds, until cancelled."""
    while True:
        now = now_ms()
        cutoff = int(now - max_age_days * DAY_MS)
        idle_cutoff = int(now - max(0.0, SESSION_IDLE_SECONDS - interval_s) * 1000)
        try:
            removed = await store.sweep(cutoff, idle_cutoff_ms=idle_cutoff)
            if removed:
                log.info("expired %d abandoned sessions and games", removed)
        except Exception:  # a failed sweep must not stop the next one
            log.exception("the store sweep failed")
        await asyncio.sleep(interval_s)
