"""Rate limits per client address, counted where every worker and instance sees them.

Three limits (``app.config``): **writes** — every POST (taps, settings) —, **new** — writes
that create something that will be kept (a game for a deal the session has not played, a
session row with settings) — and **guesses** — device links that name nobody. They take the
``limits`` notation (``240/minute``, ``60/hour``).

The store gives its limiter (:meth:`app.store.base.Store.rate_limiter`), so the counts are
shared exactly as the games are: every store's is a token bucket per (kind, address),
decided in this process's memory and shared through the store (:mod:`app.store.buckets`).

**Spent before the write, atomically.** :meth:`RateLimiter.hit` takes a token or refuses,
in one step under the limiter's lock: requests sent at once cannot all pass a limit they
checked together. A write that may or may not spend a limit — an action counts as a new game
only when the store says the deal had no game — first takes a token with
:meth:`RateLimiter.hold` (refused when none is left), then :meth:`Hold.spend` it once the
write is made, or :meth:`Hold.release` it when nothing was created: 64 new games sent at
once with 60 left make exactly 60 games. Across workers each decides in its own memory; near
a bucket's end every spend is shared before it is answered and every hit reads the bucket
first, so workers overshoot only by spends made in the same instant (a debt the bucket
repays before it gives again: :mod:`app.store.buckets`).

A limiter that fails (Redis gone, a store that cannot be read) lets the request through
and logs: the store's own error handling answers the write itself. It then lets everything
through for :data:`PAUSE_AFTER_FAILURE_SECONDS` without asking, so a stalled Redis costs a
request one timeout (the store's), not one per limit checked.
"""

from __future__ import annotations

import functools
import ipaddress
import logging
import math
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final, Literal, NamedTuple

import limits

log = logging.getLogger(__name__)

Kind = Literal["write", "new", "guess", "rank", "analysis"]
KINDS: Final[tuple[Kind, ...]] = ("write", "new", "guess", "rank", "analysis")

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

DEFAULT_RANKED: Final = "30/day"
"""Wins one client address may enter into the deals' standings (issue 34): past them a win
counts for its player but is not ranked, so one address's script cannot fill a daily deal's
standing (``docs/decisions.md``, *Standings that are earned*)."""


DEFAULT_ANALYSIS: Final = "300/hour"
"""Seconds of analysis (issue 44) one client address may use an hour: one token a second the
analysis ran (:class:`app.services.analyses.Analyst`). Fifteen analyses at their full 20 s, or
hundreds of the usual ones (well under a second): a player's losses are all analysed; one
address's script keeps no core busy."""


@dataclass(frozen=True, slots=True)
class Limits:
    """The configured limits; ``None`` for a kind that is not limited (``off``)."""

    write: limits.RateLimitItem | None
    new: limits.RateLimitItem | None
    guess: limits.RateLimitItem | None = GUESSES
    rank: limits.RateLimitItem | None = None
    analysis: limits.RateLimitItem | None = None

    @classmethod
    def parse(
        cls,
        write: str,
        new: str,
        guess: str = DEFAULT_GUESSES,
        rank: str = DEFAULT_RANKED,
        analysis: str = DEFAULT_ANALYSIS,
    ) -> Limits:
        """:raises ValueError: for text that is neither ``off`` nor a ``limits`` rate."""
        return cls(_item(write), _item(new), _item(guess), _item(rank), _item(analysis))

    def item(self, kind: Kind) -> limits.RateLimitItem | None:
        return {
            "write": self.write,
            "new": self.new,
            "guess": self.guess,
            "rank": self.rank,
            "analysis": self.analysis,
        }[kind]


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

    def _paused(self) -> bool:
        return time.monotonic() - self._failed_at < PAUSE_AFTER_FAILURE_SECONDS

    def _failed(self) -> Verdict:
        log.exception("the rate limiter failed; letting requests through for a few seconds")
        self._failed_at = time.monotonic()
        return ALLOWED

    @abstractmethod
    async def _hit(self, item: limits.RateLimitItem, kind: Kind, client: str) -> Verdict: ...

    async def hold(self, kind: Kind, client: str) -> Hold:
        """Take one ``kind`` for ``client`` for a write not made yet, refused when the limit
        is reached (then nothing is taken). The caller spends it (:meth:`Hold.spend`) once the
        write is made or gives it back (:meth:`Hold.release`); meanwhile it counts against the
        client, so that requests sent at once cannot share the last token."""
        item = self.limits.item(kind)
        if item is None or self._paused():
            return Hold(ALLOWED)
        try:
            return await self._hold(item, kind, client)
        except Exception:
            return Hold(self._failed())

    @abstractmethod
    async def _hold(self, item: limits.RateLimitItem, kind: Kind, client: str) -> Hold: ...

    def close(self) -> None:  # noqa: B027  (optional)
        """Release files and connections."""


# --- what a store shares: token buckets -----------------------------------------------------


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
    async def read_bucket(self, key: str) -> Bucket | None:
        """The bucket as shared now (``None``: full). Awaited on the event loop when a bucket
        is near its end or not seen for a while: a quick read (SQLite's, in WAL mode, never
        waits for the writer), or one round trip (Redis)."""

    @abstractmethod
    def share_buckets(self, spent: dict[str, Spend], done: Shared) -> None:
        """Take ``spent`` from the shared buckets (:func:`merged`) in the store's next write
        transaction, then call ``done`` with the merged buckets (from any thread).

        :raises Exception: when the store cannot take it (closed): nothing was shared.
        """


@dataclass(slots=True)
class Hold:
    """A token a limiter took for one write not made yet (:meth:`RateLimiter.hold`).

    ``verdict`` says whether the write may go ahead. Exactly one of :meth:`spend` and
    :meth:`release` has an effect, the first called: a hold is given back once at most."""

    verdict: Verdict
    _spend: Callable[[], Awaitable[None]] | None = None
    _release: Callable[[], None] | None = None

    async def spend(self) -> None:
        """The write was made: the token is spent, as a hit would have spent it."""
        spend, self._spend, self._release = self._spend, None, None
        if spend is not None:
            await spend()

    def release(self) -> None:
        """Nothing was written: the token goes back to the client."""
        release, self._spend, self._release = self._release, None, None
        if release is not None:
            release()
