"""The store interface: sessions and their games, read and changed atomically.

One interface, asynchronous: every operation is a coroutine, written once per store, and
awaited by the web layer on its event loop. Code without a loop (tests, tools, benchmarks)
calls a store through :class:`app.store.sync.SyncStore`, which runs the same coroutines on a
loop of its own — the one adapter, for every store.

A tap costs one read and one write: :meth:`Store.change_game` reads the session and the game
together and writes the game back in one transaction (SQLite ``BEGIN IMMEDIATE``; Redis a
script that checks what was read). Everything stored is plain data (:mod:`app.store.values`)
so a store never imports the engine or the web layer.

Nothing lives for ever, and nothing grows without bound: :meth:`Store.sweep` deletes games not
changed since a cutoff and sessions without games idle for a day (Redis expires its keys
itself), and a session keeps at most :attr:`Store.bounds` games and replays.

**Did a change happen?** Every failure of a change says so (:class:`Outcome`): a
:class:`StoreError` that was raised by :meth:`Store.change_game` means *not made, and never
will be* — except an :class:`UnconfirmedChangeError`, *unknown*, and a
:class:`FollowUpError`, *made* (what had to follow it failed). Work a store does after its
commit (a Redis deal's figures, which live apart from the player's keys) is idempotent and
retried, never the reason a change that was made is reported as not made.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, Final, TypeVar

from app.status import ENDED as ENDED
from app.status import Status
from app.store.bounds import BOUNDS, FINISHED_WINDOW, MAX_GAMES_PER_SESSION, Bounds
from app.store.values import CHOICES as CHOICES
from app.store.values import SWITCHES as SWITCHES
from app.store.values import Change, GameSummary, SessionData, StoredGame, T
from app.store.values import carry as carry
from app.store.values import clock_elapsed as clock_elapsed

if TYPE_CHECKING:
    from app.store.ratelimit import Limits, RateLimiter
    from app.store.replays import ReplaySummary, StoredReplay

__all__ = [
    "BOUNDS",
    "CHOICES",
    "ENDED",
    "FINISHED_WINDOW",
    "GAME_STATES",
    "MAX_GAMES_PER_SESSION",
    "SESSION_IDLE_SECONDS",
    "SWITCHES",
    "Bounds",
    "Change",
    "FollowUpError",
    "GameSummary",
    "Outcome",
    "SessionData",
    "Store",
    "StoreError",
    "StoreFullError",
    "StoredGame",
    "T",
    "UnconfirmedChangeError",
    "carry",
    "clock_elapsed",
    "followed",
    "outcome_of",
]

R = TypeVar("R")

GAME_STATES: Final = frozenset(Status)

SESSION_IDLE_SECONDS: Final = 24 * 3600
"""A session without a game (only settings) is kept this long after it was last saved."""


class Outcome(StrEnum):
    """Whether a change a store was asked for was made, as far as the store can tell: what
    the web layer's answer says ("made", "not made", "could not confirm"), read from the
    failure with :func:`outcome_of`."""

    MADE = "made"
    """Committed. Something after the commit failed (:class:`FollowUpError`)."""
    NOT_MADE = "not made"
    """Proved not made, and it never will be: asking again is safe."""
    UNKNOWN = "unknown"
    """Sent, but the store stopped answering before it said: it may have been made, or may
    still be (a Redis server that resumes runs what it was sent)."""


class StoreError(RuntimeError):
    """The store cannot be opened or used (bad configuration, unreadable file). Raised by a
    change, it means the change was not made (and will not be made later)."""

    outcome: ClassVar[Outcome] = Outcome.NOT_MADE


class UnconfirmedChangeError(StoreError):
    """A change was sent, but the store stopped answering before it said whether the change
    was applied, and could not be asked in time: it may have been made, or may still be.
    Never "not made"."""

    outcome: ClassVar[Outcome] = Outcome.UNKNOWN


class FollowUpError(StoreError):
    """The change was made (committed); work that follows it failed. ``result`` is what the
    change answered, so the caller can answer what was made."""

    outcome: ClassVar[Outcome] = Outcome.MADE

    def __init__(self, message: str, result: Any = None) -> None:
        super().__init__(message)
        self.result = result


class StoreFullError(StoreError):
    """The store answers but cannot write: no room (a full disk, Redis at its ``maxmemory``
    without eviction) or no permission."""


def outcome_of(error: BaseException) -> Outcome:
    """What a failure of :meth:`Store.change_game` says of the change: a store's error says
    it itself; anything else escaped from inside the store, so the store cannot say.

    >>> outcome_of(StoreError("x")), outcome_of(UnconfirmedChangeError("x")), outcome_of(OSError())
    (<Outcome.NOT_MADE: 'not made'>, <Outcome.UNKNOWN: 'unknown'>, <Outcome.UNKNOWN: 'unknown'>)
    """
    return error.outcome if isinstance(error, StoreError) else Outcome.UNKNOWN


async def followed(result: object, work: Awaitable[R]) -> R:
    """``work`` — store calls made after a change that was made (``result``: what the change
    answered), such as the reads an answer needs or a verdict written after it — with every
    store failure in it a :class:`FollowUpError` (:attr:`Outcome.MADE`) that carries
    ``result``: no failure after a commit reads as "not made".

    :raises FollowUpError: when a store call in ``work`` failed.
    """
    try:
        return await work
    except FollowUpError:
        raise
    except StoreError as error:
        raise FollowUpError(f"after a change that was made: {error}", result) from error


class Store(ABC):
    """Sessions keyed by an opaque id; games keyed by (session id, canonical deal code).

    Every abstract method must be written for a store to be made at all; the others have a
    default every store may keep."""

    bounds: Bounds = BOUNDS
    """The caps every query of the store is given (:mod:`app.store.bounds`)."""

    @abstractmethod
    def rate_limiter(self, configured: Limits) -> RateLimiter:
        """The rate limiter whose counts this store shares the way it shares games: across
        every worker and instance that opens it (:mod:`app.store.ratelimit`). Every store must
        say: a limiter counting in one process would allow each worker the whole limit."""

    # --- sessions and games ----------------------------------------------------------------------

    @abstractmethod
    async def load(
        self, sid: str, code: str | None = None
    ) -> tuple[SessionData | None, StoredGame | None]:
        """The session and (when ``code`` is given) its game for that code, in one read."""

    @abstractmethod
    async def save_session(self, sid: str, session: SessionData) -> None:
        """Create or replace a session."""

    @abstractmethod
    async def change_game(self, sid: str, code: str, change: Change[T]) -> T:
        """Read session and game, let ``change`` decide, write its game: atomically.

        Concurrent changes of one game are applied one at a time, each seeing the previous
        one's result; when ``change`` raises or returns no game, nothing is written and the
        exception propagates as it is. The game is written with what
        :func:`app.store.settling.settle` decides (its marks carried, the statistics counted,
        room made under :attr:`bounds`).

        :raises StoreError: the store failed; :func:`outcome_of` says whether the change was
            made.
        """

    @abstractmethod
    async def recent_games(self, sid: str, limit: int = 10) -> list[GameSummary]:
        """The session's games still being played, most recently changed first."""

    @abstractmethod
    async def finished_games(self, sid: str, limit: int = 5) -> list[GameSummary]:
        """The session's games that have ended (won, stuck, lost), most recently changed
        first, found among its ``bounds.finished_window`` most recently changed games."""

    @abstractmethod
    async def sweep(
        self, cutoff_ms: int, batch: int = 500, *, idle_cutoff_ms: int | None = None
    ) -> int:
        """Delete what was abandoned before ``cutoff_ms`` (milliseconds since the epoch).

        Deleted are the games whose ``updated_ms`` is below the cutoff, then the sessions
        saved last (:meth:`save_session`) before ``idle_cutoff_ms`` (default: ``cutoff_ms``)
        that have no game left: a session stays alive as long as one of its games does, one
        without games only until the idle cutoff. Statistics, deal figures, device links,
        replays and moves of revoked players as old as the cutoff go too. One call deletes
        everything that qualifies, ``batch`` rows at a time, each batch its own short
        transaction, so taps wait at most one batch. Returns how many sessions and games it
        deleted.

        :raises ValueError: when ``batch`` is below 1.
        """

    # --- statistics: written by change_game, see app/store/counting.py -------------------------

    @abstractmethod
    async def player_stats(self, sid: str) -> dict[str, Any] | None:
        """The player's statistics document as stored (``None``: nothing counted yet)."""

    @abstractmethod
    async def deal_stats(self, code: str) -> dict[str, Any] | None:
        """How a deal went for everyone who finished it (``players``, ``wins``,
        ``best_ms``, ``fewest``), ``None`` when nobody has."""

    @abstractmethod
    async def reset_stats(self, sid: str) -> None:
        """Forget the player's statistics (games and the deals' figures stay)."""

    # --- replays: written by change_game, see app/store/replays.py ----------------------------

    @abstractmethod
    async def replay(self, replay_id: str) -> StoredReplay | None:
        """The replay with this id, whoever's it is (``None``: none, deleted or expired)."""

    @abstractmethod
    async def replay_owner(self, replay_id: str) -> str | None:
        """The player whose replay this is (where they went, when a revoke moved them);
        ``None`` when there is no such replay, or a store written before replays named their
        player (Redis, before issue 44) does not say."""

    @abstractmethod
    async def player_replays(self, sid: str) -> list[ReplaySummary]:
        """The player's replays, the one that ended last first."""

    @abstractmethod
    async def delete_replay(self, sid: str, replay_id: str) -> bool:
        """Delete the player's replay with this id; ``True`` when there was one (another
        player's replay is never deleted)."""

    # --- a replay's analysis: where the win slipped away, kept with the replay ---------------

    @abstractmethod
    async def analysis(self, replay_id: str) -> dict[str, Any] | None:
        """The analysis kept with this replay (plain JSON), ``None`` when there is none yet or
        the replay is gone."""

    @abstractmethod
    async def save_analysis(self, replay_id: str, data: dict[str, Any]) -> None:
        """Keep ``data`` with the replay (replacing an earlier one); nothing when the replay
        is gone. It goes when the replay goes (deleted, swept, expired)."""

    # --- leases: one holder at a time for a name, across every worker and instance ----------

    @abstractmethod
    async def take_lease(self, name: str, holder: str, ttl_ms: int) -> bool:
        """Hold the lease ``name`` as ``holder`` for ``ttl_ms`` milliseconds from now, in one
        atomic step shared by every worker and instance on the store: taken when nobody holds
        it (or its holder's time ran out: a killed holder never blocks it for longer),
        renewed when ``holder`` holds it already. ``False``, and nothing changed, while
        another holder's time runs (issue 44: one analysis running per player and per address
        on the whole site)."""

    @abstractmethod
    async def drop_lease(self, name: str, holder: str) -> bool:
        """Release ``name`` if ``holder`` holds it; ``True`` when it did. Another holder's
        lease (one taken after ``holder``'s time ran out) is left alone."""

    # --- the device link: a secret's hash names the player it carries ------------------------

    @abstractmethod
    async def save_link(self, sid: str, digest: str) -> None:
        """Make ``digest`` (the hash of a new secret) the player's only device link."""

    @abstractmethod
    async def link_owner(self, digest: str) -> str | None:
        """The player whose device link has this hash, ``None`` when none (or revoked)."""

    @abstractmethod
    async def has_link(self, sid: str) -> bool:
        """Whether the player has a device link (the page offers to revoke it)."""

    @abstractmethod
    async def revoke_link(self, old: str, new: str) -> str | None:
        """Revoke ``old``'s device link: move everything stored under ``old`` — the session,
        its games, the statistics, the replays — to ``new``, which holds nothing yet, drop
        the link, and remember where ``old`` went; atomically. The browser that revokes takes
        the id answered; every browser still holding ``old`` finds nothing.

        Safe to ask again and to race: once ``old`` has moved, a revocation of ``old`` (the
        same one sent twice, or ten at once) moves nothing and answers where ``old`` went,
        following later revocations of that id. Returns the id that holds ``old``'s data
        now; ``None`` when ``old`` has no device link and never moved (nothing revoked)."""

    @abstractmethod
    async def moved_to(self, sid: str) -> str | None:
        """Where ``sid``'s data went when its device link was revoked (following later
        revocations), ``None`` when it never moved. Reads only."""

    # --- who the store knows, and the server's secret ---------------------------------------

    async def knows(self, sid: str) -> bool:
        """Whether anything is stored under ``sid``: a session, a game, statistics or a device
        link (a session id from before ids were signed is honoured only then)."""
        session, _ = await self.load(sid)
        return (
            session is not None
            or bool(await self.recent_games(sid, 1))
            or bool(await self.finished_games(sid, 1))  # the newest game, when it has ended
            or await self.player_stats(sid) is not None
            or await self.has_link(sid)
        )

    @abstractmethod
    async def kept_secret(self) -> bytes:
        """The secret kept beside the store's data, made on first use: every worker and
        instance that opens this store gets the same (:mod:`app.services.signing` signs
        session ids with it when ``SOLITAIRE_SECRET`` is not set).

        :raises StoreError: when it can neither be read nor made.
        """

    async def ping(self) -> None:  # noqa: B027  (nothing to check for a memory store)
        """Check that the store answers and can write (``/health``): Redis below its
        ``maxmemory`` unless it may evict, SQLite since its last write failed for want of room.

        :raises StoreFullError: when it answers but cannot write.
        :raises StoreError: when it does not answer.
        """

    async def close(self) -> None:  # noqa: B027  (optional for stores holding nothing)
        """Finish what is under way, release connections and files; later use raises
        :class:`StoreError`."""
