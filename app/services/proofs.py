"""Proofs that a position is lost, off the request path and remembered by position: for the
games whose "lost" takes a search (:attr:`~app.engine.game.Game.lost_needs_proof`: Seahaven's
"no useful move left").

Proving "no useful move left" can visit 20,000 positions (a second of CPU). It never runs on
the event loop or in the store's writer thread: :class:`Prover` sends it to a small pool of
processes (``spawn``, below the web workers' CPU priority), bounded in positions (the game's
own budget) and in time (``seconds``), and remembers the verdict under the engine's canonical
position key (:meth:`~app.engine.game.Game.verdict_key`) in this process: a bounded LRU of
:data:`MEMO_SIZE` verdicts, so no request of this worker proves the same position twice.

The store keeps no verdict of its own (issue 23): anyone may open any deal without a cookie,
and a GET must write nothing, so a table of verdicts would grow with every deal code a script
opens. A saved game keeps the verdict on its own position (its state ``lost``, or no
``unproved`` mark), which every worker and instance reads with the game; another worker that
meets a position no saved game holds proves it again, once.

A request asks :meth:`Prover.verdict` and waits for it at most ``wait`` seconds, without
holding up anyone else; the same position asked for twice shares one proof. A proof nobody
wants any more — the game that asked for it has moved on to another position before the pool
started it — is cancelled. A proof that runs out of time is not remembered (it says nothing
about the position) and the request answers without a verdict; the next answer asks again.
At most :data:`MAX_PENDING` proofs wait for the pool at once: past that, a request for a new
one answers at once without a verdict, so a script opening thousands of deals queues no more
than that (and a player's game simply asks again with its next answer).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
from collections import OrderedDict
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import ClassVar, Final

from app import metrics
from app.engine.games import game_for_position
from app.services.proofworker import prove_lost, ready, start_worker

log = logging.getLogger(__name__)

Position = object
"""A position of any game whose lost verdict takes a proof."""

NICENESS: Final = 10
"""How much lower the proof processes' CPU priority is: a tap or ``/health`` on the same
cores comes first."""

MEMO_SIZE: Final = 4096
"""Verdicts this process remembers: about 100 bytes each (a 40-character key and the entry),
well under a megabyte."""

MAX_PENDING: Final = 64
"""Proofs waiting for (or running in) the pool at once; beyond, a new one is not asked for."""


def make_pool(workers: int) -> concurrent.futures.ProcessPoolExecutor:
    """The proof processes: ``spawn`` (a fork would copy the server's threads and sockets)."""
    return concurrent.futures.ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=start_worker,
        initargs=(NICENESS,),
    )


@dataclass
class _Job:
    """One position being proved, and who still wants the answer."""

    task: asyncio.Task[bool | None] | None = None
    wanted_by: set[object] = field(default_factory=set)
    submitted: concurrent.futures.Future[tuple[bool | None, bool]] | None = None


class PoolKeeper:
    """What a service with a process pool (:class:`Prover`, the analysis's
    :class:`~app.services.analyses.Analyst`) does when a process of its pool died: the pool
    answers nothing again, so it is dropped, once, and the next call starts a new one."""

    kind: ClassVar[str]
    """The pool's name in the logs and ``solitaire_pool_restarts``."""
    _pool: concurrent.futures.Executor | None
    _owns_pool: bool
    restarts_total: int

    def _replace(self, broken: concurrent.futures.Executor) -> None:
        """Said once per broken pool (every call it held fails with it)."""
        if self._pool is not broken:
            return  # replaced already, by the first call that met it broken
        self.restarts_total += 1
        metrics.POOL_RESTARTS.labels(self.kind).inc()
        log.error("the %s pool broke (a process of it died); starting a new one", self.kind)
        self._pool = None  # the next call starts our own (one handed in is left to its owner)
        if self._owns_pool:
            with contextlib.suppress(Exception):
                _stop(broken)


class Prover(PoolKeeper):
    """Lost verdicts on positions: remembered, or proved in the process pool.

    ``pool`` shares an existing pool (tests share one between apps); otherwise the prover
    starts its own on first use (or :meth:`start`) and shuts it down in :meth:`close`.
    """

    kind: ClassVar = "proof"

    def __init__(
        self,
        *,
        workers: int = 1,
        seconds: float = 10.0,
        budget: int | None = None,
        pool: concurrent.futures.Executor | None = None,
    ) -> None:
        self._workers = max(1, workers)
        self._seconds = seconds
        self._budget = budget
        self._pool = pool
        self._owns_pool = pool is None
        self._jobs: dict[str, _Job] = {}
        self._waiting_on: dict[object, str] = {}
        """Which position each game (``wanted_by`` tag) is waiting on."""
        self._memo: OrderedDict[str, bool] = OrderedDict()
        self.proofs = 0
        """Proofs sent to the pool (tests and benchmarks read it)."""
        self.cancelled = 0
        """Proofs cancelled before they started because nobody wanted them any more."""
        self.refused = 0
        """Proofs not asked for because :data:`MAX_PENDING` were waiting already."""
        self.restarts_total = 0
        """Pools replaced because a process of theirs died (an operator's figure)."""

    def _executor(self) -> concurrent.futures.Executor:
        if self._pool is None:
            self._pool = make_pool(self._workers)
            self._owns_pool = True
        return self._pool

    def start(self) -> list[concurrent.futures.Future[bool]]:
        """Start the processes now (each takes a fraction of a second to import the engine),
        so the first proof does not pay for it; the futures say when each is ready."""
        pool = self._executor()
        return [pool.submit(ready) for _ in range(self._workers)]

    async def started(self, seconds: float = 30.0) -> None:
        """Start the processes and wait until they are ready (a worker's warm-up, before it
        accepts players: issue 48), at most ``seconds``; a pool that does not start in time
        is not waited for longer (its first proof waits instead)."""
        waiting = [asyncio.wrap_future(future) for future in self.start()]
        with contextlib.suppress(TimeoutError, Exception):
            await asyncio.wait_for(asyncio.gather(*waiting), seconds)

    async def close(self) -> None:
        """Cancel the proofs under way and stop an own pool, ending its processes (a proof
        still running has nobody left to answer)."""
        for job in list(self._jobs.values()):
            if job.task is not None:
                job.task.cancel()
        self._jobs.clear()
        pool, self._pool = self._pool, None
        if pool is not None and self._owns_pool:
            _stop(pool)

    def known(self, position: Position) -> bool | None:
        """The verdict this process remembers, without asking anyone."""
        return self._memo.get(_key(position))

    async def verdict(
        self, position: Position, *, wait: float, wanted_by: object | None = None
    ) -> bool | None:
        """Whether ``position`` is lost: remembered, or proved now; ``None`` when no verdict
        came within ``wait`` seconds (the proof goes on and is remembered for the next ask).

        ``wanted_by`` names who asks (a player's game): when it asks about another position
        later, a proof of this one that has not started yet and nobody else wants is dropped.
        """
        key = _key(position)
        known = self._memo.get(key)
        if known is not None:
            self._memo.move_to_end(key)
            return known
        asker = wanted_by if wanted_by is not None else object()
        self._no_longer_wanted(asker, key)
        job = self._jobs.get(key)
        if job is None:
            if len(self._jobs) >= MAX_PENDING:
                self.refused += 1
                metrics.POOL_REFUSED.labels("proof").inc()
                return None
            job = self._jobs[key] = _Job()
            job.task = asyncio.create_task(self._prove(key, position, job))
        job.wanted_by.add(asker)
        self._waiting_on[asker] = key
        task = job.task
        assert task is not None
        try:
            return await asyncio.wait_for(asyncio.shield(task), wait)
        except TimeoutError:
            return None
        except asyncio.CancelledError:
            if task.cancelled():  # dropped for another asker's sake, or shutting down
                return None
            raise
        finally:
            if wanted_by is None:
                self._waiting_on.pop(asker, None)

    def _no_longer_wanted(self, asker: object, key: str) -> None:
        """``asker`` moved on from the position it waited on: cancel that proof when nobody
        else wants it and the pool has not started it."""
        before = self._waiting_on.pop(asker, None)
        if before is None or before == key:
            return
        job = self._jobs.get(before)
        if job is None:
            return
        job.wanted_by.discard(asker)
        if job.wanted_by:
            return
        if job.submitted is None or job.submitted.cancel():
            if job.task is not None:
                job.task.cancel()
            self._jobs.pop(before, None)
            self.cancelled += 1

    async def _prove(self, key: str, position: Position, job: _Job) -> bool | None:
        try:
            known = await self._in_pool(position, job)
            if known is None:
                return None
            self._memo[key] = known
            if len(self._memo) > MEMO_SIZE:
                self._memo.popitem(last=False)
            return known
        finally:
            if self._jobs.get(key) is job:
                del self._jobs[key]
            for asker in job.wanted_by:  # answered: nobody waits on it any more
                if self._waiting_on.get(asker) == key:
                    del self._waiting_on[asker]

    async def _in_pool(self, position: Position, job: _Job) -> bool | None:
        """The proof in a pool process; ``None`` when it ran out of time or the pool broke
        (a process killed: the next proof starts a new pool)."""
        pool = self._executor()
        try:
            job.submitted = pool.submit(prove_lost, position, self._budget, self._seconds)
            metrics.track_pool("proof", self._workers, job.submitted)
        except (BrokenProcessPool, RuntimeError):
            self._replace(pool)
            return None
        self.proofs += 1
        try:
            verdict, timed_out = await asyncio.wrap_future(job.submitted)
        except BrokenProcessPool:
            self._replace(pool)
            return None
        except Exception:  # a proof that fails says nothing: the game goes on as playable
            log.exception("a lost proof failed")
            return None
        if timed_out:
            log.warning("a lost proof ran out of its %s s", self._seconds)
            return None
        return verdict is True


def _key(position: Position) -> str:
    return game_for_position(position).verdict_key(position)


def _stop(pool: concurrent.futures.Executor) -> None:
    """Shut a pool down without waiting, ending its processes: a proof still running has
    nobody left to answer (``ProcessPoolExecutor`` has no public way to end them before
    Python 3.14's ``terminate_workers``)."""
    workers = dict(getattr(pool, "_processes", None) or {})
    pool.shutdown(wait=False, cancel_futures=True)
    for process in workers.values():
        with contextlib.suppress(Exception):
            process.terminate()
