"""The rate limits' token buckets: decided in this process's memory, shared through the store.

Every store's limiter is a :class:`BucketLimiter` — a token bucket per (kind, address),
decided on the event loop (no I/O, no thread, no lock wait on a tap's path) and shared
through the store (:class:`BucketShare`): the spends of the last moments are merged into the
shared buckets by the store (SQLite: inside the group commit that writes the taps; Redis: one
checked write per bucket, on the store portal's loop), at most every
:data:`SHARE_EVERY_SECONDS`, and the merged buckets come back with its commit. A bucket near
its end, or not seen for a while, is read from the store before it is spent. The memory store
shares with nobody (it is one process's store).

Why not the ``limits`` library's own ``hit`` (atomic in its storage): its storages are one
process's memory or a server of their own (no SQLite), and a round trip to the store for every
POST cost the tap path a third of its throughput (``docs/decisions.md``, *Rate limits*). Here
a hit is atomic in the worker (one lock), and exact across workers up to spends made in the
same instant, which become a debt the bucket repays first.
"""

from __future__ import annotations

import asyncio
import logging
import math
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Final, Literal

import limits

from app.clock import now_ms
from app.store.ratelimit import (
    ALLOWED,
    Bucket,
    BucketShare,
    Hold,
    Kind,
    Limits,
    RateLimiter,
    Spend,
    Verdict,
    refilled,
)

log = logging.getLogger(__name__)

Take = Literal["spend", "hold"]
"""What :meth:`BucketLimiter.take_async` does with a token that is there: spend it, or hold it
for a write not made yet."""


STALE_SECONDS: Final = 1.0
"""A bucket not read from (or shared with) the store for this long is read again before it
is spent: other workers may have spent it meanwhile."""

NEAR_TOKENS: Final = 8.0
"""A bucket with fewer tokens than this is read from the store before every spend, so near
its end the limit is exact up to the spends other workers have not shared yet (their last
milliseconds), not up to what this worker saw last."""

SHARE_EVERY_SECONDS: Final = 0.05
"""Shares start at most this often (20 a second per limiter): spends made since the last one
go together with the next. Without it every commit started the next share at once, so a busy
worker kept its store busy with back-to-back shares — on SQLite a commit (and an fsync) of
its own whenever no tap's batch carried it, on Redis one more script a tap (``docs/
performance.md``, *The limiter's shares*). A bucket near its end still shares each spend at
once (:meth:`BucketLimiter.take_async` waits for :meth:`BucketLimiter.sync`), so the limit
stays exact there; elsewhere another worker sees this one's spends at most this much later."""

MAX_BUCKETS: Final = 50_000
"""Buckets one limiter keeps in memory (about 150 bytes each); the one used longest ago goes
first, once its spends are shared."""


@dataclass(slots=True)
class _Held:
    """One bucket as this limiter knows it."""

    base: Bucket | None
    """As the store last said (``None``: full)."""
    synced: float
    """``time.monotonic()`` when the store said so."""
    capacity: float
    per_ms: float
    pending: int = 0
    """Spent here, not yet handed to the store."""
    sharing: int = 0
    """Spent here, handed to the store, its commit not yet seen."""
    held: int = 0
    """Held here for writes not made yet (:class:`~app.store.ratelimit.Hold`)."""

    def tokens(self, now: int) -> float:
        spent = self.pending + self.sharing + self.held
        return refilled(self.base, self.capacity, self.per_ms, now) - spent


class BucketLimiter(RateLimiter):
    """Token buckets (``60/hour``: a burst of 60, then one a minute) decided in memory and
    shared through ``share`` (module notes); ``share=None`` keeps them in this process only.

    Thread-safe: tests run several event loops on one limiter, and the store calls back from
    its writer thread. One share is under way at a time, and shares start at most every
    ``share_every`` seconds (:data:`SHARE_EVERY_SECONDS`): a spend after a quiet spell shares
    at once; spends made while a share is under way, or too soon after the last one started,
    go with the next, which a thread of the limiter's own (``rate-shares``) starts when it is
    due.
    """

    def __init__(
        self,
        configured: Limits,
        share: BucketShare | None = None,
        share_every: float = SHARE_EVERY_SECONDS,
    ) -> None:
        super().__init__(configured)
        self._share = share
        self._every = share_every
        self._held: OrderedDict[str, _Held] = OrderedDict()
        self._dirty: set[str] = set()
        self._sharing = False
        self._shares = 0
        """Shares committed: a read that a commit overtook is not kept."""
        self._failures = 0
        """Shares that failed (:meth:`sync` gives up on the first)."""
        self._started = -math.inf
        """``time.monotonic()`` when the last share started."""
        self._lock = threading.Lock()
        self._quiet = threading.Condition(self._lock)
        """Notified when a share is committed (or failed)."""
        self._due = threading.Condition(self._lock)
        """Notified when spends wait for a share (the ``rate-shares`` thread starts it)."""
        self._ticker: threading.Thread | None = None
        self._counting = False
        """The ``rate-shares`` thread waits for the next share to be due (no need to wake it)."""
        self._closed = False

    @property
    def shared(self) -> bool:
        """Whether the counts are shared through a store (else: this process only)."""
        return self._share is not None

    async def _hit(self, item: limits.RateLimitItem, kind: Kind, client: str) -> Verdict:
        return await self.take_async(item, f"{kind}:{client}", "spend")

    async def _hold(self, item: limits.RateLimitItem, kind: Kind, client: str) -> Hold:
        key = f"{kind}:{client}"
        verdict = await self.take_async(item, key, "hold")
        if not verdict.allowed:
            return Hold(verdict)

        async def spend() -> None:
            await self._spend_held(key)

        return Hold(verdict, spend, lambda: self._release_held(key))

    async def take_async(self, item: limits.RateLimitItem, key: str, take: Take) -> Verdict:
        """Take a token from ``key``'s bucket when one is there (``take``: spend or hold
        it). The shared bucket is read first (awaited) when this worker's view may be old;
        near its end a spend is shared before it is answered (in a thread:
        :meth:`sync` waits), so that the next hit, on any worker, reads it — else a store
        that shares after the answer (Redis) let a client's last spends on two instances
        pass both.

        :raises Exception: when the store cannot be read (:meth:`RateLimiter.hit` lets the
            request through).
        """
        capacity, per_ms, now = _rule(item)
        held, shares = self._known(key, capacity, per_ms, now)
        if held is None:
            base = None if self._share is None else await self._share.read_bucket(key)
            held = self._learned(key, base, shares, capacity, per_ms)
        spent: dict[str, Spend] = {}
        with self._lock:
            tokens = held.tokens(now)
            if tokens < 1:
                return _wait(tokens, per_ms)
            if take == "hold":
                held.held += 1
            else:
                spent = self._pend(held, key, now)
        if take == "spend":
            await self._after_spend(spent, tokens)
        return ALLOWED

    async def _spend_held(self, key: str) -> None:
        """A held token spent (:meth:`Hold.spend`), as :meth:`take_async` spends one."""
        with self._lock:
            held = self._held[key]
            now = now_ms()
            tokens = held.tokens(now) + 1  # the held token is there to spend
            held.held -= 1
            spent = self._pend(held, key, now)
        await self._after_spend(spent, tokens)

    def _release_held(self, key: str) -> None:
        """A held token given back (:meth:`Hold.release`)."""
        with self._lock:
            self._held[key].held -= 1

    def _pend(self, held: _Held, key: str, now: int) -> dict[str, Spend]:
        """Spend one token of ``held`` (the lock is held): kept here (no share), or handed to
        the store with a share — this one's when one is due (the spends it takes, to hand
        over once the lock is released), else the next."""
        if self._share is None:
            base = refilled(held.base, held.capacity, held.per_ms, now)
            held.base, held.synced = Bucket(base - 1, now), time.monotonic()
            return {}
        held.pending += 1
        self._dirty.add(key)
        spent = self._start_share() if self._is_due() else {}
        if not spent:
            self._wait_for_share()
        return spent

    async def _after_spend(self, spent: dict[str, Spend], tokens: float) -> None:
        """Hand over the share :meth:`_pend` started; near a bucket's end (``tokens`` before
        the spend) wait until the store has it."""
        if spent:
            self._hand_over(spent)
        if self._share is not None and tokens < NEAR_TOKENS:
            await asyncio.to_thread(self.sync, STALE_SECONDS)

    def _is_due(self) -> bool:
        """Whether the next share may start now (the lock is held)."""
        return time.monotonic() - self._started >= self._every

    def _wait_for_share(self) -> None:
        """Pending spends go with the share the ``rate-shares`` thread starts when it is due
        (the lock is held). It is woken only when it waits for work: not while a share is
        under way (its commit calls this again) nor while it counts down to the next share."""
        if self._closed or self._sharing or self._counting:
            return
        if self._ticker is None:
            self._ticker = threading.Thread(target=self._tick, name="rate-shares", daemon=True)
            self._ticker.start()
        self._due.notify()

    def _tick(self) -> None:
        """The ``rate-shares`` thread: start each share once it is due and the last one is
        committed, for as long as the limiter is open."""
        while True:
            with self._lock:
                while not self._closed and (self._sharing or not self._dirty):
                    self._due.wait()
                if self._closed:
                    return
                left = self._started + self._every - time.monotonic()
                if left > 0:
                    self._counting = True
                    self._due.wait(left)  # (a close wakes it early)
                    self._counting = False
                    continue
                spent = self._start_share()
            if spent:
                try:
                    self._hand_over(spent)
                except Exception:
                    log.exception("the store did not take the rate limiter's counts")

    def _known(
        self, key: str, capacity: float, per_ms: float, now: int
    ) -> tuple[_Held | None, int]:
        """The bucket as known here, or ``None`` when it must be read from the store first:
        it is new to this limiter, not synced for :data:`STALE_SECONDS` or near its end (and
        no share of it is under way, whose commit will tell). With the shares committed so
        far (a read that a commit overtakes is not kept)."""
        with self._lock:
            held = self._held.get(key)
            if held is not None:
                self._held.move_to_end(key)
                held.capacity, held.per_ms = capacity, per_ms
                fresh = time.monotonic() - held.synced < STALE_SECONDS
                if (
                    self._share is None
                    or held.sharing
                    or (fresh and held.tokens(now) >= NEAR_TOKENS)
                ):
                    return held, self._shares
            return None, self._shares

    def _learned(
        self, key: str, base: Bucket | None, shares: int, capacity: float, per_ms: float
    ) -> _Held:
        """The bucket once the store said ``base`` (read outside the lock)."""
        with self._lock:
            held = self._held.get(key)
            if held is None:
                held = _Held(base, time.monotonic(), capacity, per_ms)
                self._held[key] = held
                self._forget_old()
            elif not held.sharing and self._shares == shares:  # else newer than the read
                held.base, held.synced = base, time.monotonic()
            return held

    def _forget_old(self) -> None:
        """Drop the buckets used longest ago past :data:`MAX_BUCKETS` (only those whose
        spends the store has; the lock is held)."""
        excess = len(self._held) - MAX_BUCKETS
        for key in list(self._held)[: max(0, excess)]:
            held = self._held[key]
            if not held.pending and not held.sharing and not held.held:
                del self._held[key]

    def _start_share(self) -> dict[str, Spend]:
        """The pending spends, moved to ``sharing``, when no share is under way (the lock is
        held); empty otherwise."""
        if self._sharing or not self._dirty:
            return {}
        spent: dict[str, Spend] = {}
        for key in self._dirty:
            held = self._held[key]
            spent[key] = Spend(held.pending, held.capacity, held.per_ms)
            held.sharing, held.pending = held.pending, 0
        self._dirty.clear()
        self._sharing = True
        self._started = time.monotonic()
        return spent

    def _hand_over(self, spent: dict[str, Spend]) -> None:
        assert self._share is not None
        try:
            self._share.share_buckets(spent, self._shared)
        except Exception:
            self._shared(None)
            raise

    def _shared(self, buckets: dict[str, Bucket] | None) -> None:
        """The store committed a share (or failed to: its spends wait for the next one)."""
        with self._lock:
            synced = time.monotonic()
            if buckets is None:  # the spends under way go with the next share
                self._failures += 1
                for key, held in self._held.items():
                    if held.sharing:
                        held.pending, held.sharing = held.pending + held.sharing, 0
                        self._dirty.add(key)
            else:
                for key, bucket in buckets.items():
                    shared = self._held.get(key)
                    if shared is not None:
                        shared.base, shared.synced, shared.sharing = bucket, synced, 0
            self._sharing = False
            self._shares += 1
            if buckets is not None and self._dirty:
                self._wait_for_share()
            self._quiet.notify_all()
        if buckets is None:
            log.warning("the store did not take the rate limiter's counts; trying again later")

    def sync(self, timeout: float = 1.0) -> bool:
        """Hand every spend made here to the store and wait (at most ``timeout`` seconds)
        until it is committed; ``True`` when nothing is left unshared. A server's shutdown
        calls it (:meth:`close`), so a restart loses no count; tests call it to share now."""
        deadline = time.monotonic() + timeout
        with self._lock:
            failures = self._failures
        while True:
            with self._lock:
                if self._failures != failures:  # a share failed: not again here
                    return False
                if not self._sharing and not self._dirty:
                    return True
                spent = {} if self._sharing else self._start_share()  # now, due or not
                if not spent:
                    left = deadline - time.monotonic()
                    if left <= 0 or not self._quiet.wait(left):
                        return False
                    continue
            try:
                self._hand_over(spent)
            except Exception:
                return False

    def close(self) -> None:
        if self._share is not None:
            self.sync()
        with self._lock:
            self._closed = True
            self._due.notify_all()


def _rule(item: limits.RateLimitItem) -> tuple[float, float, int]:
    """A limit as a bucket's capacity and refill per millisecond, and the time now."""
    capacity = float(item.amount)
    return capacity, capacity / (item.get_expiry() * 1000), now_ms()


def _wait(tokens: float, per_ms: float) -> Verdict:
    return Verdict(False, max(1, math.ceil((1 - tokens) / per_ms / 1000)))
