"""Where the win slipped away (issue 33): the analysis of an ended game, off the request path,
bounded, and kept with its replay.

:class:`Analyst` sends an ended game's line to its own small pool of processes (made like the
proof pool, :func:`app.services.proofs.make_pool`: ``spawn``, below the web workers' CPU
priority; a pool of its own so an analysis never delays a Seahaven "no useful move" proof a
game in play waits for). Each analysis is bounded in time (``seconds``, the solver's deadline
inside the process).

**A fair queue** (issue 44). The analyst keeps its own short queue and hands the pool one
analysis per free process: per player and per client address at most one runs at once, and
the next to run is taken round robin over the addresses waiting (the first waiting game of
each address before the second of any), so eight sessions of one address queue behind each
other, not before another player's game. A player is told the true position ("3 games before
yours"): the queue's own order. An address waits with at most :data:`PER_ADDRESS` games; the
queue holds at most :data:`QUEUE_SIZE`; past either, the answer is "busy" (nothing queued; the
fragment asks again). A second line of the same game (an Undo, the game ended again another
way) takes the waiting one's place rather than adding one. Each address has a budget of
analysis time an hour (the store's rate limiter, kind ``analysis``: one token a second the
analysis ran, shared by every worker and instance on the store): an analysis takes its first
second on entering the queue, the rest when it ends; past the budget a new one is refused with
the wait (:attr:`Progress.SPENT`). The budget is shared, so instances on one store share one
address's hour.

**One running per player and per address on the whole site.** Each instance keeps its own
queue, but before an analysis starts its instance takes two leases in the store
(:meth:`app.store.base.Store.take_lease`, shared by every worker and instance on it, like the
budget): its player's and its address's (:func:`lease_names`). When another instance holds
one, the game stays waiting (its position counts the game running there) and its instance
asks again every :data:`LEASE_RETRY_SECONDS` while its other games go on; a lease is renewed
every third of :data:`LEASE_SECONDS` while its analysis runs and released when it ends or
fails, and one whose instance was killed runs out within :data:`LEASE_SECONDS`, so no game
waits for ever. A store that fails to answer starts nothing: the game waits and is tried
again.

**Undecided is asked again.** A finding that ran out of time is kept, and asked for again at
most once an hour it is analysed again with twice the budget (up to :data:`RETRY_FACTOR` times
the configured one).

The finding is stored with the replay (:meth:`app.store.base.Store.save_analysis`), tagged with
a digest of the line it analysed (and the time it had, and when), so a second viewer, another
instance or a restart reads it at once, and a replay written again with another line (the
game ended again after an Undo) is analysed again.

A pool whose process died (an OOM kill, a crash in the SAT solver's C code) is replaced by the
first analysis that meets it broken, with one line in the log; the analyses it held are asked
again by their next viewer. An operator's figures, on the analyst: ``running``, ``queued``,
``refused_total``, ``restarts_total``, ``seconds_total`` (and ``started``).

Never during play: the analyst only takes a stored replay, which exists only once its game has
ended, and only one that was not won.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import logging
import math
import secrets
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, Final

from app import metrics
from app.clock import now_ms
from app.services.proofs import PoolKeeper, _stop, make_pool
from app.services.proofworker import analyse_line
from app.store.base import Store, StoreError
from app.store.ratelimit import RateLimiter
from app.store.replays import StoredReplay

log = logging.getLogger(__name__)

QUEUE_SIZE: Final = 32
"""Analyses waiting (not running) at once in one instance; beyond, a new one is not queued."""

PER_ADDRESS: Final = 2
"""Analyses one client address may have waiting at once."""

RETRY_FACTOR: Final = 4
"""An undecided finding is analysed again with at most this many times the configured time."""

RETRY_AFTER_MS: Final = 3600 * 1000
"""An undecided finding is analysed again at most this often."""

ANALYSED_STATES: Final = frozenset({"stuck", "lost"})
"""The ends an analysis is for: a game that ended without a win."""

LEASE_SECONDS: Final = 10.0
"""The time of a running analysis's leases (its player's and its address's, in the store),
renewed every third of it: a killed instance's leases run out within it."""

LEASE_RETRY_SECONDS: Final = 1.0
"""How often a waiting game whose player or address has an analysis running on another
instance (its lease held there) asks for the lease again."""

START_WAIT_SECONDS: Final = 2.0
"""How long an answer waits for its game's leases to be taken or refused, so that it says
whether the game runs or waits (the store answers in milliseconds)."""


def lease_names(player: str, client: str) -> tuple[str, str]:
    """The leases an analysis holds while it runs: its player's (the id hashed: no session
    id is written where leases are kept) and its address's.

    >>> lease_names("p", "198.51.100.7")[1]
    'analysis:address:198.51.100.7'
    """
    hashed = hashlib.blake2b(player.encode(), digest_size=12).hexdigest()
    return f"analysis:player:{hashed}", f"analysis:address:{client}"


class Progress(Enum):
    DONE = "done"
    RUNNING = "running"
    QUEUED = "queued"
    """Waiting for its turn: ``ahead`` games before it."""
    BUSY = "busy"
    """The queue is full (or the address has its share waiting): none was queued."""
    SPENT = "spent"
    """The address used its analysis time for the hour: ``retry_after`` seconds to wait."""
    NONE = "none"
    """Nothing to analyse: the game was won."""


@dataclass(frozen=True, slots=True)
class Answer:
    progress: Progress
    finding: dict[str, Any] | None = None
    """:meth:`app.engine.analysis.Analysis.to_data` plus ``for``, when ``DONE``."""
    ahead: int = 0
    """``QUEUED``: the games that will be looked at before this one."""
    retry_after: int = 0
    """``SPENT``: seconds until the address may start another analysis."""


def line_digest(replay: StoredReplay) -> str:
    """What a stored finding was made for: the deal and the line, hashed."""
    return hashlib.blake2b(f"{replay.code}|{replay.line}".encode(), digest_size=8).hexdigest()


@dataclass(eq=False, slots=True)
class _Job:
    store: Store
    replay: StoredReplay
    digest: str
    seconds: float
    player: str
    client: str
    seq: int
    done: asyncio.Event = field(default_factory=asyncio.Event)
    leases: tuple[str, str] = ("", "")
    elsewhere: bool = False
    """Its player or address held a lease on another instance when it last asked."""
    starting: asyncio.Event | None = None
    """While its leases are asked for: set once they are taken or refused."""


class Analyst(PoolKeeper):
    """Analyses of ended games: stored ones, or made now in a pool of processes, in turn."""

    kind: ClassVar = "analysis"

    def __init__(
        self,
        *,
        workers: int = 1,
        seconds: float = 20.0,
        pool: concurrent.futures.Executor | None = None,
        limiter: RateLimiter | None = None,
    ) -> None:
        self._workers = max(1, workers)
        self._seconds = seconds
        self._pool = pool
        self._owns_pool = pool is None
        self.limiter = limiter
        """The store's rate limiter (the addresses' analysis time); ``None``: no budget."""
        self._waiting: list[_Job] = []
        self._running: dict[str, _Job] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._last_start: dict[str, int] = {}
        """Each address's last start (a count), for the round robin."""
        self._seq = 0
        self._blocked: dict[str, float] = {}
        """Leases held on another instance → when (the loop's time) to ask again."""
        self._retry: asyncio.TimerHandle | None = None
        self._closed = False
        self._store_failing = False
        self.started = 0
        """Analyses sent to the pool (tests read it)."""
        self.refused_total = 0
        """Analyses not queued: the queue full, or the address's share or time spent."""
        self.restarts_total = 0
        """Pools replaced because a process of theirs died (an operator's figure)."""
        self.seconds_total = 0.0
        """Seconds of analysis the pool ran (as the analyses measured them)."""

    @property
    def running(self) -> int:
        """Analyses in the pool now (an operator's figure)."""
        return len(self._running)

    @property
    def queued(self) -> int:
        """Analyses waiting for their turn now (an operator's figure)."""
        return len(self._waiting)

    def _executor(self) -> concurrent.futures.Executor:
        if self._pool is None:
            self._pool = make_pool(self._workers)
            self._owns_pool = True
        return self._pool

    async def close(self) -> None:
        """Stop: the analyses under way cancelled (their leases released, or left to run
        out), the waiting ones dropped."""
        self._closed = True
        if self._retry is not None:
            self._retry.cancel()
            self._retry = None
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=START_WAIT_SECONDS)
        self._tasks.clear()
        self._running.clear()
        self._waiting.clear()
        pool, self._pool = self._pool, None
        if pool is not None and self._owns_pool:
            _stop(pool)

    async def answer(
        self, store: Store, replay: StoredReplay, *, player: str = "", client: str = ""
    ) -> Answer:
        """The stored finding on this replay, or its analysis queued (or already under way)
        for ``player`` at the address ``client``."""
        if replay.state not in ANALYSED_STATES:
            return Answer(Progress.NONE)
        digest = line_digest(replay)
        stored = await store.analysis(replay.id)
        seconds = self._seconds
        if stored is not None and stored.get("for") == digest:
            again = self._retry_budget(stored)
            if again is None:
                return Answer(Progress.DONE, stored)
            seconds = again
        running = self._running.get(replay.id)
        if running is not None and running.digest == digest:
            await self._decided(running)
            return self._where(running)
        for job in self._waiting:  # the same game: its newest line takes the waiting place
            if job.replay.id == replay.id:
                job.replay, job.digest, job.seconds = replay, digest, seconds
                return self._where(job)
        if (
            len(self._waiting) >= QUEUE_SIZE
            or sum(job.client == client for job in self._waiting) >= PER_ADDRESS
        ):
            self.refused_total += 1
            metrics.POOL_REFUSED.labels("analysis").inc()
            return Answer(Progress.BUSY)
        if self.limiter is not None:  # the first second of the address's time, on entry
            verdict = await self.limiter.hit("analysis", client)
            if not verdict.allowed:
                self.refused_total += 1
                metrics.POOL_REFUSED.labels("analysis").inc()
                return Answer(Progress.SPENT, retry_after=verdict.retry_after)
        self._seq += 1
        job = _Job(store, replay, digest, seconds, player, client, self._seq)
        job.leases = lease_names(player, client)
        self._waiting.append(job)
        self._pump()
        await self._decided(job)
        return self._where(job)

    @staticmethod
    async def _decided(job: _Job) -> None:
        """Until ``job``'s leases are taken or refused, if they are being asked for."""
        if job.starting is not None:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(START_WAIT_SECONDS):
                    await job.starting.wait()

    def _retry_budget(self, stored: dict[str, Any]) -> float | None:
        """The time for analysing an undecided finding again, ``None`` when it is not due."""
        if stored.get("kind") != "undecided":
            return None
        budget, at = stored.get("budget"), stored.get("at_ms")
        budget = float(budget) if isinstance(budget, (int, float)) else self._seconds
        if isinstance(at, int) and now_ms() - at < RETRY_AFTER_MS:
            return None
        again = min(budget * 2, self._seconds * RETRY_FACTOR)
        return again if again > budget else None

    def _order(self) -> list[_Job]:
        """The waiting analyses in the order they will run: round robin over the addresses
        (the i-th waiting game of an address after every address's (i-1)-th), the address
        served longest ago first, then the order they came."""
        nth: dict[str, int] = {}
        keyed = []
        for job in sorted(self._waiting, key=lambda j: j.seq):
            i = nth[job.client] = nth.get(job.client, -1) + 1
            keyed.append(((i, self._last_start.get(job.client, 0), job.seq), job))
        return [job for _, job in sorted(keyed, key=lambda pair: pair[0])]

    def _where(self, job: _Job) -> Answer:
        if job.replay.id in self._running and self._running[job.replay.id] is job:
            return Answer(Progress.RUNNING)
        order = self._order()
        ahead = order.index(job) if job in order else 0
        ahead += len(self._running) + (1 if job.elsewhere else 0)  # + the one running there
        return Answer(Progress.QUEUED, ahead=ahead)

    def _pump(self) -> None:
        """Start waiting analyses while a process is free: the first in :meth:`_order`
        whose player and address have none running here, nor a lease held on another
        instance when last asked (asked again after :data:`LEASE_RETRY_SECONDS`)."""
        if self._closed:
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        self._blocked = {name: at for name, at in self._blocked.items() if at > now}
        while len(self._running) < self._workers:
            busy_players = {job.player for job in self._running.values()}
            busy_clients = {job.client for job in self._running.values()}
            job = next(
                (
                    j
                    for j in self._order()
                    if j.player not in busy_players
                    and j.client not in busy_clients
                    and j.replay.id not in self._running
                    and not any(name in self._blocked for name in j.leases)
                ),
                None,
            )
            if job is None:
                break
            self._waiting.remove(job)
            self._running[job.replay.id] = job
            job.starting = asyncio.Event()
            task = asyncio.create_task(self._analyse(job))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        if self._blocked and self._waiting and self._retry is None:
            self._retry = loop.call_at(min(self._blocked.values()), self._retried)
        metrics.set_queued("analysis", len(self._waiting))

    def _retried(self) -> None:
        self._retry = None
        self._pump()

    async def _take(self, job: _Job, holder: str) -> bool:
        """Take ``job``'s leases as ``holder``: both, or none (the first given back when the
        second is held elsewhere); the ones held elsewhere are not asked for again before
        :data:`LEASE_RETRY_SECONDS`. A store that fails takes none."""
        taken: list[str] = []
        refused = list(job.leases)
        ttl_ms = int(LEASE_SECONDS * 1000)
        try:
            for name in job.leases:
                if not await job.store.take_lease(name, holder, ttl_ms):
                    refused, job.elsewhere = [name], True
                    break
                taken.append(name)
        except StoreError as error:
            if not self._store_failing:  # once until the store answers again
                log.warning("analyses wait: their leases could not be taken (%s)", error)
            self._store_failing = True
        else:
            self._store_failing = False
            if len(taken) == len(job.leases):
                return True
        await self._drop(job.store, taken, holder)
        at = asyncio.get_running_loop().time() + LEASE_RETRY_SECONDS
        for name in refused:
            self._blocked[name] = at
        return False

    @staticmethod
    async def _drop(store: Store, names: list[str], holder: str) -> None:
        """Release leases (one the store fails to release runs out)."""
        for name in names:
            with contextlib.suppress(StoreError):
                await store.drop_lease(name, holder)

    async def _renew(self, job: _Job, holder: str, ended: asyncio.Event) -> None:
        """Renew ``job``'s leases every third of their time until it has ``ended`` (a
        renewal is never cancelled half-way: a SQLite write in its thread would land after
        the release and hold the lease again)."""
        while not ended.is_set():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(LEASE_SECONDS / 3):
                    await ended.wait()
            if ended.is_set():
                return
            for name in job.leases:
                try:
                    kept = await job.store.take_lease(name, holder, int(LEASE_SECONDS * 1000))
                except StoreError as error:
                    log.warning("a running analysis's lease was not renewed (%s)", error)
                    continue
                if not kept:
                    log.warning("a running analysis's lease ran out and was taken elsewhere")

    def _back_in_line(self, job: _Job) -> None:
        """``job`` could not take its leases: it waits again, in its place (a newer line
        of its game queued meanwhile has taken that place: then it is dropped)."""
        if self._running.get(job.replay.id) is job:
            del self._running[job.replay.id]
        if any(j.replay.id == job.replay.id for j in self._waiting):
            job.done.set()
        else:
            self._waiting.append(job)

    async def wait(self, replay_id: str) -> None:
        """Until the analysis of this replay queued or under way (if any) is over (tests,
        tools)."""
        job = self._running.get(replay_id) or next(
            (j for j in self._waiting if j.replay.id == replay_id), None
        )
        if job is not None:
            await job.done.wait()

    async def _analyse(self, job: _Job) -> None:
        holder = secrets.token_hex(8)
        try:
            taken = await self._take(job, holder)
        finally:
            if job.starting is not None:
                job.starting.set()
                job.starting = None
        if not taken:
            self._back_in_line(job)
            self._pump()
            return
        job.elsewhere = False
        self._last_start[job.client] = self._seq = self._seq + 1
        ended = asyncio.Event()
        renewing = asyncio.create_task(self._renew(job, holder, ended))
        replay = job.replay
        pool: concurrent.futures.Executor | None = None
        try:
            pool = self._executor()
            self.started += 1
            future = pool.submit(analyse_line, replay.code, replay.line, job.seconds)
            metrics.track_pool("analysis", self._workers, future, queued=False)
            data = await asyncio.wrap_future(future)
            record = {**data, "for": job.digest, "budget": job.seconds, "at_ms": now_ms()}
            await job.store.save_analysis(replay.id, record)
            await self._charge(job.client, data.get("seconds"))
        except asyncio.CancelledError:
            raise
        except (BrokenProcessPool, RuntimeError):  # a process died (an OOM kill, a crash)
            if pool is not None:
                self._replace(pool)
        except Exception:  # a failed analysis says nothing: the next viewer asks again
            log.exception("the analysis of replay %s failed", replay.id)
        finally:
            ended.set()
            await renewing  # a renewal under way lands before the release, not after it
            await self._drop(job.store, list(job.leases), holder)  # before the next starts
            if self._running.get(replay.id) is job:
                del self._running[replay.id]
            job.done.set()
            self._pump()

    async def _charge(self, client: str, seconds: object) -> None:
        """The address's time for the rest of the seconds the analysis ran (its first was
        taken when it was queued)."""
        used = float(seconds) if isinstance(seconds, (int, float)) else 0.0
        self.seconds_total += used
        if self.limiter is None:
            return
        for _ in range(math.ceil(used) - 1):
            if not (await self.limiter.hit("analysis", client)).allowed:
                break  # spent to the last second: the next analysis waits for the hour
