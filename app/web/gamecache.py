"""This worker's game objects of recent actions (:class:`GameCache`): an action on a game the
worker answered last applies one engine action to it instead of replaying its record."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi import Request

from app.engine.games import AnyGame
from app.store import SessionData, StoredGame


def mark_of(game: AnyGame) -> tuple[Any, ...]:
    """What a game's record is made of, cheaply: equal marks, equal records (no JSON)."""
    return (
        game.position,
        game.selection_text(),
        len(game.moves),
        len(game.redo_stack),
        game.undo_floor,
        game.clock.to_list(),
    )


@dataclass(frozen=True, slots=True)
class Kept:
    """A game object that is exactly its stored row: what :class:`GameCache` keeps."""

    row: StoredGame
    game: AnyGame
    session: SessionData
    """The session the game's last action was decided for."""


def same_row(stored: StoredGame, kept: StoredGame) -> bool:
    """The stored row rebuilds the same game as the row a cached game was decided as: the
    same record, state and marks (Seahaven's verdict), except the statistics mark the store
    itself adds and carries from row to row (``counted``: the game never reads it, and the
    store carries it onto the decided row either way)."""
    if stored.record != kept.record or stored.state != kept.state:
        return False
    marks = stored.marks
    if marks.counted and not kept.marks.counted:
        marks = marks._replace(counted="")
    return marks == kept.marks


class GameCache:
    """This worker's game objects of recent actions, keyed by (session id, deal code), so an
    action applies one engine action to the game instead of replaying its record — on the
    event loop, before the store's transaction, which then only checks that the stored row is
    still the one the game was built from (another tab, worker or instance may have moved on:
    then the action is decided again from the stored row, inside the transaction, as without
    the cache).

    An entry is taken out (:meth:`take`) before its game is changed and put back
    (:meth:`keep`) only after the store committed the row it now is: a failed transaction
    can never leave a half-applied game here. Only the event loop's thread touches it.
    """

    def __init__(self, size: int = 2048) -> None:
        self.size = size
        self._games: dict[tuple[str, str], Kept] = {}

    def take(self, sid: str, code: str) -> Kept | None:
        return self._games.pop((sid, code), None)

    def keep(self, sid: str, code: str, kept: Kept) -> None:
        """Keep ``kept``; past :attr:`size` entries, the one kept longest ago goes."""
        self._games[(sid, code)] = kept
        if len(self._games) > self.size:
            del self._games[next(iter(self._games))]

    def clear(self) -> None:
        self._games.clear()

    def __len__(self) -> int:
        return len(self._games)


def game_cache(request: Request) -> GameCache:
    """The application's :class:`GameCache` (made on first use)."""
    state = request.app.state
    cache: GameCache | None = getattr(state, "game_cache", None)
    if cache is None:
        cache = state.game_cache = GameCache()
    return cache
