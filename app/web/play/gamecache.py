"""This worker's game objects of recent actions and pages (:class:`GameCache`): an action on a
game the worker answered last applies one engine action to it instead of replaying its record,
and a page shows it from a copy (issue 23: a game at the move cap cost 16 ms of the loop's
time on every view)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Final

from fastapi import Request

from app.engine.codes import DealCode
from app.engine.games import AnyGame
from app.lru import LRU, kept_on
from app.store import SessionData, StoredGame
from app.web.play.verdicts import rebuild
from app.web.rendering.screen import AnyScreen


def mark_of(game: AnyGame) -> tuple[Any, ...]:
    """What a game's record is made of, cheaply: equal marks, equal records (no JSON)."""
    return (
        game.position,
        game.selection_text(),
        game.move_count,
        game.redo_count,
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
    marks, decided = stored.marks, kept.marks
    return marks == decided or marks._replace(counted="") == decided._replace(counted="")


MAX_CACHED_MOVES: Final = 100_000
"""Moves the games of one worker's :class:`GameCache` may hold together: a game holds every
position it went through (a Seahaven game at the 5,000-move cap about a megabyte), so the
bound is on moves, not only on games — some 20 MB at most."""

LONG_RECORD: Final = 300
"""Moves past which a page's rebuild of a saved game (a replay of the record through the
rules, about 3 µs a move on a quiet machine) runs in a thread, off the event loop."""


class GameCache:
    """This worker's game objects of recent actions and pages, keyed by (session id, deal
    code), so an action applies one engine action to the game instead of replaying its
    record — on the event loop, before the store's transaction, which then only checks that
    the stored row is still the one the game was built from (another tab, worker or instance
    may have moved on: then the action is decided again from the stored row, inside the
    transaction, as without the cache) — and a page shows a long game without replaying it.

    An entry is taken out (:meth:`take`) before its game is changed and put back
    (:meth:`keep`) only after the store committed the row it now is: a failed transaction
    can never leave a half-applied game here. A page reads an entry without taking it
    (:meth:`peek`) and works on a copy. Only the event loop's thread touches it. At most
    :attr:`size` games and :attr:`max_moves` moves: past either, the games kept longest ago
    go.
    """

    def __init__(self, size: int = 2048, max_moves: int = MAX_CACHED_MOVES) -> None:
        self._games: LRU[tuple[str, str], Kept] = LRU(size, _weight, max_moves)

    def take(self, sid: str, code: str) -> Kept | None:
        return self._games.pop((sid, code))

    def peek(self, sid: str, code: str) -> Kept | None:
        """The entry, left in place: its game must not be changed (copy it)."""
        return self._games.peek((sid, code))

    def keep(self, sid: str, code: str, kept: Kept) -> None:
        """Keep ``kept``; past :attr:`size` entries or :attr:`max_moves` moves, the ones kept
        longest ago go."""
        self._games.put((sid, code), kept)

    @property
    def moves(self) -> int:
        """The moves the kept games hold together."""
        return self._games.weight

    def clear(self) -> None:
        self._games.clear()

    def __len__(self) -> int:
        return len(self._games)


def _weight(kept: Kept) -> int:
    return 1 + kept.game.move_count + kept.game.redo_count


def game_cache(request: Request) -> GameCache:
    """The application's :class:`GameCache` (made on first use)."""
    return kept_on(request.app.state, "game_cache", GameCache)


async def page_game(
    request: Request,
    screen: AnyScreen,
    code: DealCode,
    sid: str,
    session: SessionData,
    stored: StoredGame | None,
    key: str | None = None,
) -> tuple[AnyGame, bool]:
    """The game a page shows, and whether a saved game was unreadable
    (:func:`app.web.play.verdicts.rebuild`): a copy of this worker's cached game when it is still
    the stored row, else rebuilt — in a thread for a record past :data:`LONG_RECORD` moves —
    and cached for the next view."""
    if stored is None:
        return rebuild(screen, code, None)
    cache = game_cache(request)
    key = key or str(code)  # the row's key: a practice's is its own (issue 43)
    kept = cache.peek(sid, key)
    if kept is not None and same_row(stored, kept.row):
        return kept.game.copy(), False
    if _record_moves(stored.record) > LONG_RECORD:
        game, unreadable = await asyncio.to_thread(rebuild, screen, code, stored)
    else:
        game, unreadable = rebuild(screen, code, stored)
    if not unreadable:
        cache.keep(sid, key, Kept(stored, game.copy(), session))
    return game, unreadable


def _record_moves(record: dict[str, Any]) -> int:
    """How many moves a record replays (moves and redo), read from its text."""
    return sum(
        text.count(".") + 1
        for text in (record.get("moves"), record.get("redo"))
        if isinstance(text, str) and text
    )
