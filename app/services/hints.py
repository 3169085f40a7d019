"""Hints on request (issue 45): the solver asked for a move that keeps a deal winnable, off the
event loop and bounded.

:class:`Hinter` sends the position to a pool of processes (the proof pool handed in, as the
tests do, or a one-process pool of its own: ``spawn``, below the web workers' CPU priority,
:func:`app.services.proofs.make_pool`), bounded in time (:attr:`Hinter.seconds`) and in
positions (:attr:`Hinter.budget`, ``None``: the game's own). The request awaits the answer —
it holds no thread and no lock, so every other tap of every player goes on — and at most one
hint runs per player at once: the same player asking again while one runs waits for it (the
same position) or is told one is under way (another).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Final, Literal

from app.services.proofs import _stop, make_pool
from app.services.proofworker import find_hint

log = logging.getLogger(__name__)

SECONDS: Final = 3.0
"""How long the solver looks for a hint before it says it found none in time."""

Kind = Literal["move", "lost", "late"]


@dataclass(frozen=True, slots=True)
class Hint:
    kind: Kind
    move: str = ""
    """``move``: the move in the game's notation (``str(move)``)."""


class HintBusyError(Exception):
    """The player has another hint being looked for."""


class Hinter:
    def __init__(
        self,
        *,
        seconds: float = SECONDS,
        budget: int | None = None,
        pool: concurrent.futures.Executor | None = None,
    ) -> None:
        self.seconds = seconds
        self.budget = budget
        self._pool = pool
        self._owns_pool = pool is None
        self._running: dict[str, tuple[str, asyncio.Future[tuple[str, str]]]] = {}
        self.started = 0
        """Hints sent to the pool (tests and the bench read it)."""

    def _executor(self) -> concurrent.futures.Executor:
        if self._pool is None:
            self._pool = make_pool(1)
        return self._pool

    async def hint(self, player: str, key: str, position: object) -> Hint:
        """A hint on ``position`` for ``player`` (``key``: what identifies the position).

        :raises HintBusyError: the player has a hint running on another position.
        """
        running = self._running.get(player)
        if running is not None and running[0] != key:
            raise HintBusyError
        if running is None:
            loop = asyncio.get_running_loop()
            self.started += 1
            future = loop.run_in_executor(
                self._executor(), find_hint, position, self.budget, self.seconds
            )
            running = (key, future)
            self._running[player] = running
            future.add_done_callback(lambda _: self._done(player, future))
        try:
            kind, move = await asyncio.shield(running[1])
        except BrokenProcessPool:  # a process died: the next hint starts a new pool
            log.error("the hint pool broke (a process of it died)")
            if self._owns_pool:
                self._pool = None
            return Hint("late")
        return Hint("move", move) if kind == "move" else Hint("lost" if kind == "lost" else "late")

    def _done(self, player: str, future: asyncio.Future[tuple[str, str]]) -> None:
        running = self._running.get(player)
        if running is not None and running[1] is future:
            del self._running[player]

    async def close(self) -> None:
        if self._owns_pool and self._pool is not None:
            pool, self._pool = self._pool, None
            with contextlib.suppress(Exception):
                _stop(pool)
