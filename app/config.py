"""Configuration from the environment, read once at start-up.

- ``SOLITAIRE_STORE`` (default ``var/solitaire.db``): ``memory:``, a SQLite file path or
  ``sqlite:///PATH``.
- ``SOLITAIRE_MAX_BODY`` (default ``16384``): the largest request body accepted, in bytes.
- ``SOLITAIRE_EXPIRE_DAYS`` (default ``90``): games untouched this long are deleted.
- ``SOLITAIRE_SWEEP_SECONDS`` (default ``3600``): how often the expiry sweep runs.
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

    @classmethod
    def from_env(cls) -> Config:
        max_body = os.environ.get("SOLITAIRE_MAX_BODY", "")
        return cls(
            store=os.environ.get("SOLITAIRE_STORE", DEFAULT_STORE),
            max_body=int(max_body) if max_body.isdigit() else DEFAULT_MAX_BODY,
            expire_days=_number("SOLITAIRE_EXPIRE_DAYS", 90.0),
            sweep_seconds=_number("SOLITAIRE_SWEEP_SECONDS", 3600.0),
        )


def _number(name: str, default: float) -> float:
    """A positive number from the environment; anything else keeps the default."""
    try:
        value = float(os.environ.get(name, ""))
    except ValueError:
        return default
    return value if value > 0 else default
