"""Configuration from the environment, read once at start-up.

- ``SOLITAIRE_STORE`` (default ``var/solitaire.db``): ``memory:``, a SQLite file path or
  ``sqlite:///PATH``.
- ``SOLITAIRE_MAX_BODY`` (default ``16384``): the largest request body accepted, in bytes.
- ``SOLITAIRE_EXPIRE_DAYS`` (default ``90``): games untouched this long are deleted.
- ``SOLITAIRE_SWEEP_SECONDS`` (default ``3600``): how often the expiry sweep runs.
- ``SOLITAIRE_STORE_TIMEOUT`` (default ``1``): seconds one Redis command or connection may
  take before the store counts as unreachable (taps answer 503, ``/health`` says so).
- ``SOLITAIRE_PROOF_WORKERS`` (default ``1``): processes per app process that prove Seahaven
  positions lost ("no useful move left"), at a lower CPU priority than the web workers.
- ``SOLITAIRE_PROOF_SECONDS`` (default ``10``): the most time one proof may take (a second
  on a quiet machine; the bound is for a machine under load, where the proof process, at a
  lower priority, gets little CPU).
- ``SOLITAIRE_PROOF_WAIT`` (default ``5``): how long a request waits for a pending proof
  (without holding up anyone else) before it answers without the verdict.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Final

DEFAULT_STORE: Final = "var/solitaire.db"
DEFAULT_MAX_BODY: Final = 16 * 1024


@dataclass(frozen=True, slots=True)
class Config:
    store: str = DEFAULT_STORE
    max_body: int = DEFAULT_MAX_BODY
    expire_days: float = 90.0
    sweep_seconds: float = 3600.0
    store_timeout: float = 1.0
    proof_workers: int = 1
    proof_seconds: float = 10.0
    proof_wait: float = 5.0

    @classmethod
    def from_env(cls) -> Config:
        max_body = os.environ.get("SOLITAIRE_MAX_BODY", "")
        return cls(
            store=os.environ.get("SOLITAIRE_STORE", DEFAULT_STORE),
            max_body=int(max_body) if max_body.isdigit() else DEFAULT_MAX_BODY,
            expire_days=_number("SOLITAIRE_EXPIRE_DAYS", 90.0),
            sweep_seconds=_number("SOLITAIRE_SWEEP_SECONDS", 3600.0),
            store_timeout=_number("SOLITAIRE_STORE_TIMEOUT", 1.0),
            proof_workers=max(1, int(_number("SOLITAIRE_PROOF_WORKERS", 1))),
            proof_seconds=_number("SOLITAIRE_PROOF_SECONDS", 10.0),
            proof_wait=_number("SOLITAIRE_PROOF_WAIT", 5.0),
        )


def _number(name: str, default: float) -> float:
    """A positive number from the environment; anything else keeps the default."""
    try:
        value = float(os.environ.get(name, ""))
    except ValueError:
        return default
    return value if value > 0 else default
