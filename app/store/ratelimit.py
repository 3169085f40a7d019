"""Rate limits per client address, counted where every worker and instance sees them.

Two limits (``app.config``): **writes** — every POST (taps, settings) — and **new** — writes
that create something that will be kept (a game for a deal the session has not played, a
session row with settings). Both take the ``limits`` notation (``240/minute``, ``60/hour``).

The store gives its limiter (:meth:`app.store.base.Store.rate_limiter`), so the counts are
shared exactly as the games are:

Every store's is a :class:`BucketLimiter` — a token bucket per (kind, address), decided in
this process's memory on the event loop (no I/O, no thread, no lock wait on a tap's path) and
shared through the store (:class:`BucketShare`): the spends of the last moments are merged
into the shared buckets by the store (SQLite: inside the group commit that writes the taps;
Redis: one checked write per bucket, on the store's own loop), at most every
:data:`SHARE_EVERY_SECONDS`, and the merged buckets come back with its commit. A bucket near
its end, or not seen for a while, is read from the store before it is spent (Redis:
awaited, :meth:`BucketShare.read_bucket_async`). The memory store shares with nobody (it is
one process's store).

A limiter that fails (Redis gone, a store that cannot be read) lets the request through
and logs: the store's own error handling answers the write itself. It then lets everything
through for :data:`PAUSE_AFTER_FAILURE_SECONDS` without asking, so a stalled Redis costs a
request one timeout (the store's), not one per limit checked.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import logging
import math
import threading
import time
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal, NamedTuple

import limits

from app.clock import now_ms

log = logging.getLogger(__name__)

Kind = Literal["write", "new", "guess"]
KINDS: Final[tuple[Kind, ...]] = ("write", "new", "guess")

DEFAULT_GUESSES: Final = "20/hour"
"""Device links that name no player (issue 16), per client address: a secret of 128 bits
cannot be guessed, but nobody gets to try more than this."""


@dataclass(frozen=True, slots=True)
class Verdict:
    allowed: bool
    retry_after: int = 0
    """Whole seconds until one more would pass (``Retry-After``); 0 when allowed."""


ALLOWED: Final = Verdict(True)


GUESSES: Final = limits.parse(DEFAULT_GUESSES)


@dataclass(frozen=True, slots=True)
class Limits:
    """The configured limits; ``None`` for a kind that is not limited (``off``)."""

    write: limits.RateLimitItem | None
    new: limits.RateLimitItem | None
    guess: limits.RateLimitItem | None = GUESSES

    @classmethod
    def parse(cls, write: str, new: str, guess: str = DEFAULT_GUESSES) -> Limits:
        """:raises ValueError: for text that is neither ``off`` nor a ``limits`` rate."""
        return cls(_item(write), _item(new), _item(guess))

    def item(self, kind: Kind) -> limits.RateLimitItem | None:
        return self.write if kind == "write" else self.new if kind == "new" else self.guess


def _item(text: str) -> limits.RateLimitItem | None:
    text = text.strip().lower()
    if text in ("off", "none", "0"):
        return None
    try:
        return limits.parse(text)
    except ValueError:
        raise ValueError(
            f"{text!r} is not a rate: write N/second, N/minute, N/hour, N/day "
            "(or N per 10 minutes), or off"
        ) from None


@functools.lru_cache(maxsize=4096)
def client_key(host: str | None) -> str:
    """The address a limit counts: IPv4 as it is, IPv6 by its /64 (one subscriber's network:
    an IPv6 client can pick any address within it). Anything that is not an address — text a
    client put in ``X-Forwarded-For`` while reaching the server from a trusted proxy's
    address — counts as one client, ``unknown``, so new text never makes a new limit
    (issue 23).

    >>> client_key("203.0.113.9"), client_key("2001:db8:1:2:3:4:5:6"), client_key(None)
    ('203.0.113.9', '2001:db8:1:2::/64', 'unknown')
    >>> client_key("evil-1"), client_key("203.0.113.9 ; DROP"), client_key("::ffff:10.0.0.1")
    ('unknown', 'unknown', '10.0.0.1')
    """
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return "unknown"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


PAUSE_AFTER_FAILURE_SECONDS: Final = 5.0


class RateLimiter(ABC):
    def __init__(self, configured: Limits) -> None:
        self.limits = configured
        self._failed_at = -math.inf

    async def hit(self, kind: Kind, client: str) -> Verdict:
        """Count one ``kind`` for ``client``; refused when the limit is reached (then
        nothing is counted)."""
        item = self.limits.item(kind)
        if item is None or self._paused():
            return ALLOWED
        try:
            return await self._hit(item, kind, client)
        except Exception:
            return self._failed()

    async def test(self, kind: Kind, client: str) -> Verdict:
        """Would one more ``kind`` pass now? Counts nothing."""
        item = self.limits.item(kind)
        if item is None or self._paused():
            return ALLOWED
        try:
            return await self._test(item, kind, client)
        except Exception:
            return self._failed()

    def _paused(self) -> bool:
        return time.monotonic() - self._failed_at < PAUSE_AFTER_FAILURE_SECONDS

    def _failed(self) -> Verdict:
        log.exception("the rate limiter failed; letting requests through for a few seconds")
        self._failed_at = time.monotonic()
        return ALLOWED

    @abstractmethod
    async def _hit(self, item: limits.RateLimitItem, kind: Kind, client: str) -> Verdict: ...

    @abstractmethod
    async def _test(self, item: limits.RateLimitItem, kind: Kind, client: str) -> Verdict: ...

    def close(self) -> None:  # noqa: B027  (optional)
        """Release files and connections."""


# --- token buckets counted in memory, shared through the store --------------------------------


class Bucket(NamedTuple):
    """A token bucket as the store shares it: ``tokens`` left at ``at_ms``. Below zero is a
    debt (two workers spent the last token at once): it refills before anyone spends again,
    so the shared total stays exact over time."""

    tokens: float
    at_ms: int


class Spend(NamedTuple):
    """Tokens one limiter took from a bucket since it last shared it, and the bucket's rule."""

    taken: int
    capacity: float
    per_ms: float
    """Tokens the bucket gets back per millisecond (capacity / period)."""


def refilled(bucket: Bucket | None, capacity: float, per_ms: float, now: int) -> float:
    """The tokens a bucket holds at ``now`` (a bucket never seen is full).

    >>> refilled(Bucket(0.0, 1000), 10.0, 0.01, 1500), refilled(None, 10.0, 0.01, 0)
    (5.0, 10.0)
    """
    if bucket is None:
        return capacity
    return min(capacity, bucket.tokens + max(0, now - bucket.at_ms) * per_ms)


def merged(stored: Bucket | None, spend: Spend, now: int) -> Bucket:
    """The shared bucket once one limiter's spends are taken from it (what a store writes).

    >>> merged(Bucket(2.0, 0), Spend(3, 10.0, 0.001), 1000)
    Bucket(tokens=0.0, at_ms=1000)
    """
    return Bucket(refilled(stored, spend.capacity, spend.per_ms, now) - spend.taken, now)


def full_at(bucket: Bucket, spend: Spend) -> int:
    """When ``bucket`` is full again (a store may forget it then: a missing bucket is full).

    >>> full_at(Bucket(4.0, 1000), Spend(1, 10.0, 0.01))
    1600
    """
    return bucket.at_ms + math.ceil((spend.capacity - bucket.tokens) / spend.per_ms)


Shared = Callable[[dict[str, Bucket] | None], None]
"""Called once a share is committed, with the merged buckets (``None``: it failed)."""


class BucketShare(ABC):
    """Where a store keeps the token buckets that its limiters, in every worker and instance
    on the store, spend together."""

    @abstractmethod
    def read_bucket(self, key: str) -> Bucket | None:
        """The bucket as shared now (``None``: full). Called on the event loop, when a bucket
        is near its end or not seen for a while: it must be a quick read."""

    async def read_bucket_async(self, key: str) -> Bucket | None:
        """:meth:`read_bucket` for a hit on the event loop. A store whose read is a network
        round trip (Redis) awaits it here; by default the quick read itself."""
        return self.read_bucket(key)

    @abstractmethod
    def share_buckets(self, spent: dict[str, Spend], done: Shared) -> None:
        """Take ``spent`` from the shared buckets (:func:`merged`) in the store's next write
        transaction, then call ``done`` with the merged buckets (from any thread).

        :raises Exception: when the store cannot take it (closed): nothing was shared.
        """


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

    def tokens(self, now: int) -> float:
        return refilled(self.base, self.capacity, self.per_ms, now) - self.pending - self.sharing


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
        return await self.take_async(item, f"{kind}:{client}", True)

    async def _test(self, item: limits.RateLimitItem, kind: Kind, client: str) -> Verdict:
        return await self.take_async(item, f"{kind}:{client}", False)

    def take(self, item: limits.RateLimitItem, key: str, spend: bool) -> Verdict:
        """Take a token from ``key``'s bucket when one is there (and ``spend``).

        :raises Exception: when the store cannot be read (:meth:`RateLimiter.hit` lets the
            request through).
        """
        capacity, per_ms, now = _rule(item)
        held, shares = self._known(key, capacity, per_ms, now)
        if held is None:
            base = None if self._share is None else self._share.read_bucket(key)
            held = self._learned(key, base, shares, capacity, per_ms)
        return self._spend(held, key, spend, now, per_ms)

    async def take_async(self, item: limits.RateLimitItem, key: str, spend: bool) -> Verdict:
        """:meth:`take` on the event loop: a read of the shared bucket is awaited, and near
        its end so is the share of this spend (in a thread: :meth:`sync` waits), so that the
        next hit, on any worker, reads it — else a store that shares after the answer (Redis)
        let a client's last spends on two instances pass both."""
        capacity, per_ms, now = _rule(item)
        held, shares = self._known(key, capacity, per_ms, now)
        if held is None:
            base = None if self._share is None else await self._share.read_bucket_async(key)
            held = self._learned(key, base, shares, capacity, per_ms)
        near = held.tokens(now) < NEAR_TOKENS
        verdict = self._spend(held, key, spend, now, per_ms)
        if spend and near and verdict.allowed and self._share is not None:
            await asyncio.to_thread(self.sync, STALE_SECONDS)
        return verdict

    def _spend(self, held: _Held, key: str, spend: bool, now: int, per_ms: float) -> Verdict:
        with self._lock:
            tokens = held.tokens(now)
            if tokens < 1:
                return _wait(tokens, per_ms)
            if not spend:
                return ALLOWED
            if self._share is None:
                held.base, held.synced = Bucket(tokens - 1, now), time.monotonic()
                return ALLOWED
            held.pending += 1
            self._dirty.add(key)
            spent = self._start_share() if self._is_due() else {}
            if not spent:
                self._wait_for_share()
        if spent:
            self._hand_over(spent)
        return ALLOWED

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
            if not held.pending and not held.sharing:
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
