"""Where sessions and games live: one interface, several stores (memory, SQLite, Redis).

:func:`open_store` picks one from configuration text: ``memory:``, a file path,
``sqlite:///path``, ``redis://host:port/db`` (``rediss://`` for TLS), or
``redis+cluster://host:port[,host:port…]`` for a Redis Cluster (``rediss+cluster://``).
"""

from __future__ import annotations

from app.store.base import GameSummary, SessionData, Store, StoredGame, StoreError, StoreFullError
from app.store.memory import MemoryStore

__all__ = [
    "GameSummary",
    "MemoryStore",
    "SessionData",
    "Store",
    "StoreError",
    "StoreFullError",
    "StoredGame",
    "open_store",
]


def open_store(url: str, max_age_days: float = 90, timeout: float | None = None) -> Store:
    """The store a configuration string names.

    >>> type(open_store("memory:")).__name__
    'MemoryStore'

    ``max_age_days`` is how long an untouched game lives: Redis sets it as every key's TTL;
    the other stores are swept by the application (:mod:`app.services.housekeeping`). ``timeout`` is
    how long one Redis command or connection may take (default: the Redis store's own).

    :raises StoreError: when the text names no store this build knows, or the store cannot
        be opened (a Redis server that does not answer, an unusable file).
    """
    text = url.strip()
    if text in ("memory:", "memory://"):
        return MemoryStore()
    if text.startswith(("redis://", "rediss://", "redis+cluster://", "rediss+cluster://")):
        from app.store.redis import RedisStore

        ttl = max(1, int(max_age_days * 86_400))
        if timeout is None:
            return RedisStore(text, ttl_seconds=ttl)
        return RedisStore(text, ttl_seconds=ttl, socket_timeout=timeout)
    if text.startswith("sqlite:///"):
        text = text[len("sqlite:///") :]
    elif "://" in text:
        scheme = text.split("://", 1)[0]
        raise StoreError(
            f"unknown store scheme {scheme!r}: use memory:, sqlite:///PATH, a file path,"
            " redis://HOST:PORT/DB, rediss://…, or redis+cluster://HOST:PORT,…"
        )
    from app.store.sqlite import SQLiteStore

    return SQLiteStore(text)
