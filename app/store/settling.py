"""Settling a game change inside the store's transaction (:func:`settle`): the one sequence
every store runs — carry the marks, count the change (:mod:`app.store.counting`), fold the
result into the deal's figures (:func:`fold_deal`) — plain data in, plain data out."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.store import histogram
from app.store.counting import DealResult, count, wants
from app.store.jsondata import int_or_zero, json_dict
from app.store.replays import StoredReplay, replay_of
from app.store.values import StoredGame, carry

Counts = tuple[Any, Any]
"""The player's statistics document and the deal's figures, as the store holds them (``None``
for either when there is none): what :func:`settle` reads only when a change counts."""


@dataclass(frozen=True, slots=True)
class Written:
    """Everything one game change writes, decided by :func:`settle` in the store's transaction."""

    game: StoredGame
    """The game row to write (its marks carried and counted)."""
    stats: dict[str, Any] | None
    """The player's new statistics document; ``None``: leave it as it is."""
    deal: dict[str, Any] | None
    """The deal's new figures for everyone; ``None``: leave them as they are."""
    created: bool
    """No game of this code yet: make room first (:func:`app.store.bounds.past_cap`)."""
    result: DealResult | None = None
    """The result :attr:`deal` folds in: a store whose deal figures live apart from the
    player's keys (a Redis Cluster slot of their own) folds it after the game's write."""
    replay: StoredReplay | None = None
    """The replay of the game that has just ended (:func:`app.store.replays.replay_of`), to
    write with the game; ``None``: no replay to write."""


def wants_counts(old: StoredGame | None, new: StoredGame) -> bool:
    """Whether :func:`settle` will read the counts (Redis fetches them before deciding)."""
    return wants(carry(old, new))


def settle(old: StoredGame | None, new: StoredGame, counts: Callable[[], Counts]) -> Written:
    """The one sequence every store runs inside the transaction that writes a game change:
    carry the marks of ``old`` onto ``new``, count the change (calling ``counts`` only when
    it changes statistics), fold the result into the deal's figures, and say whether room
    must be made for a new game. Plain data in, plain data out: each store reads and writes
    the rows its own way.

    >>> settle(None, StoredGame("C", {}), lambda: (None, None)).created
    True
    """
    new = carry(old, new)
    replay = replay_of(old, new)
    if not wants(new):
        return Written(new, None, None, old is None, replay=replay)
    doc, held = counts()
    game, stats, result = count(doc, old, new)
    deal = None if result is None else fold_deal(held, result)
    return Written(game, stats, deal, old is None, result, replay)


def fold_deal(figures: Any, result: DealResult) -> dict[str, Any]:
    """A deal's figures for everyone (players who finished it, wins, best time and fewest
    moves of the wins, and the wins' cells of moves and time: :mod:`app.store.histogram`)
    with one more player's result."""
    data = json_dict(figures)
    players, wins = int_or_zero(data.get("players")), int_or_zero(data.get("wins"))
    best_ms, fewest = int_or_zero(data.get("best_ms")), int_or_zero(data.get("fewest"))
    folded = histogram.valid(data.get("cells"))
    if result.won:
        wins += 1
        best_ms = min(best_ms or result.ms, result.ms)
        fewest = min(fewest or result.moves, result.moves)
        folded = histogram.add(folded, result.moves, result.ms)
    return {
        "players": players + 1,
        "wins": wins,
        "best_ms": best_ms,
        "fewest": fewest,
        "cells": folded,
    }
