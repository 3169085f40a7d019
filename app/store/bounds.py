"""How much a store keeps, stated once: every store passes these numbers to its own query
(Python in :mod:`app.store.memory`, SQL in :mod:`app.store.sqlite.sql`, Lua in
:mod:`app.store.redis.scripts`), and :func:`past_cap` is the rule each of them follows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

MAX_GAMES_PER_SESSION: Final = 100
"""Games one session keeps (any state). A player in the middle of more than a hundred deals
loses the ones untouched longest; a script cannot grow one session further."""

MAX_REPLAYS_PER_SESSION: Final = 100
"""Replays one session keeps; the one that ended longest ago goes first."""

FINISHED_WINDOW: Final = 30
""":meth:`~app.store.base.Store.finished_games` looks among the session's this many most
recently changed games (a Redis store reads them in one ``MGET``; the list is about *recent*
results)."""


@dataclass(frozen=True, slots=True)
class Bounds:
    """A store's caps (:attr:`app.store.base.Store.bounds`; tests lower them)."""

    games: int = MAX_GAMES_PER_SESSION
    """A change that creates a session's game past this many first deletes its games with
    the oldest ``updated_ms`` (ties: the smallest code), within the same transaction."""
    replays: int = MAX_REPLAYS_PER_SESSION
    """A new replay past this many first deletes the session's replays that ended first
    (ties: the smallest id)."""
    finished_window: int = FINISHED_WINDOW


BOUNDS: Final = Bounds()


def past_cap(held: list[tuple[int, str]], cap: int) -> list[str]:
    """The names to delete before one more is added so that a session stays under ``cap``:
    ``held`` are its (time, name) — games' ``updated_ms`` and code, replays' ``ended_ms`` and
    id; the oldest go first, ties by name.

    >>> past_cap([(5, "b"), (1, "c"), (5, "a")], 3), past_cap([(1, "a")], 3)
    (['c'], [])
    """
    return [name for _, name in sorted(held)[: max(0, len(held) - cap + 1)]]


MOVED_HOPS: Final = 8
"""How many later revocations :meth:`~app.store.base.Store.revoke_link` follows from an id
that moved to find where its data is now (each needs its owner's browser: a few at most)."""
