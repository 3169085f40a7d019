"""Moving the keys of the first layout to this one, at start-up (before any request).

The first layout named a player's keys ``sol:s:{sid}``, ``sol:g:{sid}:{code}``, ``sol:r:…``,
``sol:a:…``, ``sol:p:…``, ``sol:o:…`` and a deal's ``sol:d:{code}``, without hash tags: on a
Redis Cluster one change would span slots. :func:`migrate` finds them with ``SCAN`` (on
every primary of a cluster) and moves each to its new name (:meth:`Layout.moved`) with
``DUMP`` / ``RESTORE`` (its value, type and time to live as they were; this works across
the nodes of a cluster, where ``RENAME`` cannot), then deletes the old key.

It can stop anywhere and run again: a key already at its new name is not overwritten (a
new name written since is newer) and its old one is deleted. When nothing is left, the
layout key (``sol:layout``) says so, and later start-ups skip the scan. Start-ups running
together (several instances) each move what they find first; ``RESTORE`` refuses the second
writer of a key, so nothing is moved twice. Instances of the version before must be stopped
first: they read and write the old names only.
"""

from __future__ import annotations

import logging
from typing import Any, Final

from redis.exceptions import ResponseError

from app.store.redis.clients import Client, pipelined
from app.store.redis.keys import LAYOUT, Layout
from app.store.redis.records import text

log = logging.getLogger(__name__)

BATCH: Final = 500
"""Keys moved per round of pipelines (three round trips per batch)."""


async def migrate(client: Client, layout: Layout) -> int:
    """Move every key of the first layout; returns how many were moved."""
    if await client.execute_command("EXISTS", layout.marker):
        return 0
    moved = 0
    batch: list[tuple[str, str]] = []
    async for found in client.scan_iter(match=layout.old_pattern, count=1000):
        key = text(found)
        target = None if key is None else layout.moved(key)
        if key is not None and target is not None:
            batch.append((key, target))
        if len(batch) >= BATCH:
            moved += await _move(client, batch)
            batch = []
    if batch:
        moved += await _move(client, batch)
    await client.execute_command("SET", layout.marker, LAYOUT)
    if moved:
        log.info("moved %d Redis keys to the layout with hash tags", moved)
    return moved


async def _move(client: Client, batch: list[tuple[str, str]]) -> int:
    """Copy each old key to its new name, then delete the old ones copied (or already
    there); a key that vanished meanwhile (expired) is skipped."""
    commands = [c for old, _ in batch for c in (("DUMP", old), ("PTTL", old))]
    dumped = await pipelined(client, commands)
    restores: list[tuple[Any, ...]] = []
    olds: list[str] = []
    for (old, new), value, ttl in zip(batch, dumped[0::2], dumped[1::2], strict=True):
        if isinstance(value, bytes) and isinstance(ttl, int) and ttl != -2:
            restores.append(("RESTORE", new, max(ttl, 0), value))
            olds.append(old)
    answers = await pipelined(client, restores)
    done = []
    for old, answer in zip(olds, answers, strict=True):
        if isinstance(answer, ResponseError) and not str(answer).startswith("BUSYKEY"):
            raise answer  # not moved: the old key stays for the next start-up
        done.append(old)
    await pipelined(client, [("DEL", old) for old in done])
    return sum(1 for answer in answers if not isinstance(answer, Exception))
