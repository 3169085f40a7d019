"""The Redis store (one server, or a Redis Cluster): see :mod:`app.store.redis.store`."""

from app.store.redis.connection import MAX_ATTEMPTS
from app.store.redis.store import DEFAULT_TTL_SECONDS, SOCKET_TIMEOUT_SECONDS, RedisStore

__all__ = ["DEFAULT_TTL_SECONDS", "MAX_ATTEMPTS", "SOCKET_TIMEOUT_SECONDS", "RedisStore"]
