"""Configuration from the environment, read once at start-up.

- ``SOLITAIRE_STORE`` (default ``var/solitaire.db``): ``memory:``, a SQLite file path or
  ``sqlite:///PATH``.
- ``SOLITAIRE_MAX_BODY`` (default ``16384``): the largest request body accepted, in bytes.
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

    @classmethod
    def from_env(cls) -> Config:
        max_body = os.environ.get("SOLITAIRE_MAX_BODY", "")
        return cls(
            store=os.environ.get("SOLITAIRE_STORE", DEFAULT_STORE),
            max_body=int(max_body) if max_body.isdigit() else DEFAULT_MAX_BODY,
        )
