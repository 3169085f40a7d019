"""Background work that keeps the store small: abandoned games expire (default after 90 days).

The sweep runs in a worker thread in small batches, each its own short transaction, so taps
never wait behind it; several app processes sweeping the same store is harmless.
"""

from __future__ import annotations

import asyncio
import logging
import time

import anyio.to_thread

from app.store import Store

log = logging.getLogger(__name__)
DAY_MS = 24 * 3600 * 1000


async def sweep_forever(store: Store, max_age_days: float, interval_s: float) -> None:
    """Sweep now, then every ``interval_s`` seconds, until cancelled."""
    while True:
        cutoff = int(time.time() * 1000 - max_age_days * DAY_MS)
        try:
            removed = await anyio.to_thread.run_sync(store.sweep, cutoff)
            if removed:
                log.info("expired %d abandoned sessions and games", removed)
        except Exception:  # a failed sweep must not stop the next one
            log.exception("the store sweep failed")
        await asyncio.sleep(interval_s)
