"""The wall clock, in milliseconds since the epoch: one definition for the engine's game clock,
the stores' timestamps and the web layer (records keep integers: small and exact)."""

from __future__ import annotations

import time


def now_ms() -> int:
    return time.time_ns() // 1_000_000
