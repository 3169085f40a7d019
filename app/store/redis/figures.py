"""A deal's figures for everyone, in Redis: work that follows a game's commit.

The deal's figures live in the deal's own slot, apart from the player's keys, so the script
that writes a game that ended files its result under the player's keys (``…:q``) in the same
step; then :func:`fold` adds it to the deal's figures (:data:`FOLD_DEAL` records the result's
id, so a second fold of it counts nothing) and unfiles it.

**Never lost, never the reason a change reads as not made.** A fold that fails (the deal's
node unreachable, or stalled) raises nothing: the game's own write is done. It is tried again
in the background (:data:`RETRY_SECONDS`, on the store portal's loop, which outlives any
request), and whatever is still filed is folded by the player's next change, whichever comes
first; each attempt is logged, and the last one as an error.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Final

from app.store import counting, settling
from app.store.base import StoreError
from app.store.jsondata import dumps, json_or_none
from app.store.redis import records
from app.store.redis.connection import MAX_ATTEMPTS
from app.store.redis.keys import Player
from app.store.redis.scripts import FOLD_DEAL, digest

if TYPE_CHECKING:
    from app.store.redis.player import PlayerKeys

log = logging.getLogger(__name__)

RETRY_SECONDS: Final = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0)
"""Pauses before each background attempt of a fold that failed (about a minute in all)."""


async def fold(store: PlayerKeys, player: Player, filed: list[tuple[str, str | None]]) -> None:
    """Add the player's filed results to their deals' figures, then unfile them; when that
    fails, try again in the background (never raised: the change they follow was made)."""
    try:
        await _fold(store, player, filed)
    except StoreError as error:
        log.warning("a deal's figures were not updated after a change (%s): trying again", error)
        store._portal_submit(_retry, store, player)


async def _fold(store: PlayerKeys, player: Player, filed: list[tuple[str, str | None]]) -> None:
    done = []
    for result_id, raw in filed:
        entry = records.result_from(raw)
        if entry is not None:
            await _fold_one(store, result_id, *entry)
        done.append(result_id)
    if done:
        with store._errors():
            await store._client().execute_command("HDEL", player.pending, *done)


async def _fold_one(
    store: PlayerKeys, result_id: str, code: str, result: counting.DealResult
) -> None:
    deal = store.layout.deal(code)
    async with store._on_loop().turn(f"d\0{code}"):
        for attempt in range(MAX_ATTEMPTS):
            (raw,) = await store._fetch(deal.figures)
            folded = dumps(settling.fold_deal(json_or_none(records.text(raw)), result))
            args = [digest(raw), result_id, folded, store.ttl_seconds]
            with store._errors():
                if await FOLD_DEAL.run(store._client(), [deal.figures, deal.seen], args):
                    return
            await store._conflicted(attempt)
    raise StoreError(f"Redis store {store._where!r}: deal {code!r} kept changing")


async def _retry(store: PlayerKeys, player: Player) -> None:
    """Fold what the player still has filed, after each pause of :data:`RETRY_SECONDS`, until
    nothing is left (the player's next change may have folded it meanwhile)."""
    for pause in RETRY_SECONDS:
        await asyncio.sleep(pause)
        if store._closed:
            return
        try:
            with store._errors():
                raw = await store._client().execute_command("HGETALL", player.pending)
            await _fold(store, player, records.pending_from(_flat(raw)))
            return
        except StoreError as error:
            log.warning("a deal's figures are still not updated (%s)", error)
    log.error(
        "a deal's figures were not updated for a minute: the results stay filed under %s for"
        " the player's next change",
        player.pending,
    )


def _flat(raw: object) -> list[object]:
    """An ``HGETALL`` answer (a dict, or field, value, … as a list) as a flat list."""
    if isinstance(raw, dict):
        return [part for pair in raw.items() for part in pair]
    return list(raw) if isinstance(raw, list) else []
