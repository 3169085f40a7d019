"""A store in one SQLite file: survives restarts, shared by the worker processes of one host.

One concern a module:

- :mod:`~app.store.sqlite.store` — :class:`SQLiteStore`, the store interface over the tables;
- :mod:`~app.store.sqlite.sql` — the SQL text, and rows turned into the store's values;
- :mod:`~app.store.sqlite.schema` — the forward-only migrations (``PRAGMA user_version``);
- :mod:`~app.store.sqlite.files` — connections (one per thread, WAL, ``synchronous=FULL``)
  and the locks writers queue on (this process's, then ``flock`` across processes);
- :mod:`~app.store.sqlite.writer` — the group commit: one writer thread commits every change
  queued meanwhile in one transaction, and a checkpointer thread;
- :mod:`~app.store.sqlite.sweep` — what was abandoned, deleted a batch at a time;
- :mod:`~app.store.sqlite.buckets` — the rate limits' shared buckets.
"""

from __future__ import annotations

from app.store.sqlite.schema import MIGRATIONS, SCHEMA_VERSION
from app.store.sqlite.store import SQLiteStore

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "SQLiteStore"]
