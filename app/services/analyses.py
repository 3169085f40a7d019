"""Where the win slipped away (issue 33): the analysis of an ended game, off the request path,
bounded, and kept with its replay.

:class:`Analyst` sends an ended game's line to its own small pool of processes (made like the
proof pool, :func:`app.services.proofs.make_pool`: ``spawn``, below the web workers' CPU
priority; a pool of its own so an analysis never delays a Seahaven "no useful move" proof a
game in play waits for). Each analysis is bounded in time (``seconds``, the solver's deadline
inside the process); at most :data:`MAX_PENDING` run or wait at once, and past that a request
is answered "busy" at once. The finding is stored with the replay
(:meth:`app.store.base.Store.save_analysis`), tagged with a digest of the line it analysed, so a
second viewer, another instance or a restart reads it at once, and a replay written again with
another line (the game ended again after an Undo) is analysed again.

A pool whose process died (an OOM kill, a crash in the SAT solver's C code) is replaced by the
first analysis that meets it broken, with one line in the log; the analyses it held are asked
again by their next viewer (:attr:`Analyst.restarts_total` counts the replacements).

Never during play: the analyst only takes a stored replay, which exists only once its game has
ended, and only one that was not won.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import logging
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from app.services.proofs import _stop, make_pool
from app.services.proofworker import analyse_line
from app.store.base import Store
from app.store.replays import StoredReplay

log = logging.getLogger(__name__)

MAX_PENDING: Final = 8
"""Analyses running or waiting for the pool at once; beyond, a new one is not started."""

ANALYSED_STATES: Final = frozenset({"stuck", "lost"})
"""The ends an analysis is for: a game that ended without a win."""


class Progress(Enum):
    DONE = "done"
    RUNNING = "running"
    BUSY = "busy"
    """Too many analyses under way: none was started (ask again later)."""
    NONE = "none"
    """Nothing to analyse: the game was won."""


@dataclass(frozen=True, slots=True)
class Answer:
    progress: Progress
    finding: dict[str, Any] | None = None
    """:meth:`app.engine.analysis.Analysis.to_data` plus ``for``, when ``DONE``."""


def line_digest(replay: StoredReplay) -> str:
    """What a stored finding was made for: the deal and the line, hashed."""
    return hashlib.blake2b(f"{replay.code}|{replay.line}".encode(), digest_size=8).hexdigest()


class Analyst:
    """Analyses of ended games: stored ones, or made now in a pool of processes."""

    def __init__(
        self,
        *,
        workers: int = 1,
        seconds: float = 20.0,
        pool: concurrent.futures.Executor | None = None,
    ) -> None:
        self._workers = max(1, workers)
        self._seconds = seconds
        self._pool = pool
        self._owns_pool = pool is None
        self._running: dict[str, asyncio.Task[None]] = {}
        self.started = 0
        """Analyses sent to the pool (tests read it)."""
        self.restarts_total = 0
        """Pools replaced because a process of theirs died (an operator's figure)."""

    def _executor(self) -> concurrent.futures.Executor:
        if self._pool is None:
            self._pool = make_pool(self._workers)
            self._owns_pool = True
        return self._pool

    async def close(self) -> None:
        for task in list(self._running.values()):
            task.cancel()
        self._running.clear()
        pool, self._pool = self._pool, None
        if pool is not None and self._owns_pool:
            _stop(pool)

    async def answer(self, store: Store, replay: StoredReplay) -> Answer:
        """The stored finding on this replay, or an analysis started (or already under way)."""
        if replay.state not in ANALYSED_STATES:
            return Answer(Progress.NONE)
        digest = line_digest(replay)
        stored = await store.analysis(replay.id)
        if stored is not None and stored.get("for") == digest:
            return Answer(Progress.DONE, stored)
        if replay.id in self._running:
            return Answer(Progress.RUNNING)
        if len(self._running) >= MAX_PENDING:
            return Answer(Progress.BUSY)
        self._running[replay.id] = asyncio.create_task(self._analyse(store, replay, digest))
        return Answer(Progress.RUNNING)

    async def wait(self, replay_id: str) -> None:
        """Until the analysis of this replay under way (if any) is over (tests, tools)."""
        task = self._running.get(replay_id)
        if task is not None:
            await asyncio.shield(task)

    async def _analyse(self, store: Store, replay: StoredReplay, digest: str) -> None:
        pool = self._executor()
        try:
            self.started += 1
            future = pool.submit(analyse_line, replay.code, replay.line, self._seconds)
            data = await asyncio.wrap_future(future)
            await store.save_analysis(replay.id, {**data, "for": digest})
        except asyncio.CancelledError:
            raise
        except (BrokenProcessPool, RuntimeError):  # a process died (an OOM kill, a crash)
            self._replace(pool)
        except Exception:  # a failed analysis says nothing: the next viewer asks again
            log.exception("the analysis of replay %s failed", replay.id)
        finally:
            self._running.pop(replay.id, None)

    def _replace(self, broken: concurrent.futures.Executor) -> None:
        """A pool whose process died answers nothing again: the next analysis starts a new
        one. Said once per broken pool (every analysis it held fails with it)."""
        if self._pool is not broken:
            return  # replaced already, by the first analysis that met it broken
        self.restarts_total += 1
        log.error("the analysis pool broke (a process of it died); starting a new one")
        self._pool = None  # the next analysis starts our own (one handed in is left to its owner)
        if self._owns_pool:
            with contextlib.suppress(Exception):
                _stop(broken)
