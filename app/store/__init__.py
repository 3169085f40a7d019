"""Where sessions and games live: one interface, several stores (memory, SQLite, later Redis).

:func:`open_store` picks one from configuration text: ``memory:``, a file path or
``sqlite:///path``.
"""

from __future__ import annotations

from app.store.base import GameSummary, SessionData, Store, StoredGame, StoreError
from app.store.memory import MemoryStore

__all__ = [
    "GameSummary",
    "MemoryStore",
    "SessionData",
    "Store",
    "StoreError",
    "StoredGame",
    "open_store",
]


def open_store(url: str) -> Store:
    """The store a configuration string names.

    >>> type(open_store("memory:")).__name__
    'MemoryStore'

    :raises StoreError: when the text names no store this build knows.
    """
    text = url.strip()
    if text in ("memory:", "memory://"):
        return MemoryStore()
    if text.startswith("sqlite:///"):
        text = text[len("sqlite:///") :]
    elif "://" in text:
        raise StoreError(f"unknown store {url!r}: use memory:, sqlite:///PATH or a file path")
    from app.store.sqlite import SQLiteStore

    return SQLiteStore(text)
