"""The store interface: sessions and their games, read and changed atomically.

A tap costs one read and one write: :meth:`Store.change_game` reads the session and the game
together and writes the game back in one transaction (SQLite ``BEGIN IMMEDIATE``; Redis
``WATCH``/``MULTI``, retried when another writer got there first). Everything stored is plain
data — JSON-compatible records — so a store never imports the engine or the web layer.

Nothing lives for ever, and nothing grows without bound: :meth:`Store.sweep` deletes games not
changed since a cutoff and sessions without games idle for a day (Redis expires its keys
itself), and a session keeps at most :attr:`Store.max_games` games — a new one past that
pushes out the session's games changed longest ago.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, TypeVar

from app.store.marks import NO_MARKS, Marks, Win

if TYPE_CHECKING:
    from app.store.ratelimit import Limits, RateLimiter
    from app.store.replays import ReplaySummary, StoredReplay

T = TypeVar("T")

GAME_STATES = frozenset({"playing", "won", "stuck", "lost"})

ENDED: Final = frozenset({"won", "stuck", "lost"})
"""The states of a game that has ended."""

MAX_GAMES_PER_SESSION = 100
"""Games one session keeps (any state). A player in the middle of more than a hundred deals
loses the ones untouched longest; a script cannot grow one session further."""

SESSION_IDLE_SECONDS = 24 * 3600
"""A session without a game (only settings) is kept this long after it was last saved."""


class StoreError(RuntimeError):
    """The store cannot be opened or used (bad configuration, unreadable file). Raised by a
    change, it means the change was not made (and will not be made later)."""


class UnconfirmedChangeError(StoreError):
    """A change was sent, but the store stopped answering before it said whether the change
    was applied, and could not be asked in time: it may have been made, or may still be
    (a Redis server that resumes runs what it was sent). Never "not made"."""


class StoreFullError(StoreError):
    """The store answers but cannot write: no room (a full disk, Redis at its ``maxmemory``
    without eviction) or no permission."""


CHOICES: dict[str, tuple[str, ...]] = {
    "deck": ("classic", "four-colour"),
    "hand": ("right", "left"),
    "theme": ("auto", "light", "dark"),
}
"""The preferences of several values (issue 27): their accepted values, the default first."""

SWITCHES: tuple[str, ...] = ("move_errors", "placement_help", "zen", "sound")
"""The on/off settings, all off by default."""

_PREFERENCES = ("zen", "deck", "hand", "theme", "sound")
"""Stored only when they differ from the default: a session that never chose one is stored
exactly as before they existed, and one stored before them loads with the defaults."""


@dataclass(frozen=True, slots=True)
class SessionData:
    """One player's session: the form token and the remembered settings."""

    token: str
    """Per-session form token every POST must echo (alongside the Origin checks)."""
    move_errors: bool = False
    placement_help: bool = False
    lang: str | None = None
    """The chosen interface language; ``None`` follows the browser's Accept-Language."""
    zen: bool = False
    """Zen: no clock and no score on the game pages (statistics still count them)."""
    deck: str = "classic"
    """``classic`` (red and black) or ``four-colour`` suits."""
    hand: str = "right"
    """``right`` or ``left``: which side the controls (and Seahaven's cells) are on."""
    theme: str = "auto"
    """``auto`` (the system's), ``light`` or ``dark``."""
    sound: bool = False
    """Sounds for a removal, a card home, a refusal and a win; off until the player turns it on."""

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "token": self.token,
            "move_errors": self.move_errors,
            "placement_help": self.placement_help,
            "lang": self.lang,
        }
        for name in _PREFERENCES:
            value = getattr(self, name)
            if value != _DEFAULTS[name]:
                data[name] = value
        return data

    @classmethod
    def from_data(cls, data: Any) -> SessionData | None:
        """The session in ``data``, or ``None`` when it is not a session's shape (start anew).

        A preference missing (a session stored before it existed) or not one of its values
        (a store written by a newer version) is its default: the token and the other
        settings are kept.
        """
        if not isinstance(data, dict):
            return None
        token, lang = data.get("token"), data.get("lang")
        move_errors, help_ = data.get("move_errors"), data.get("placement_help")
        if (
            not isinstance(token, str)
            or not token
            or not isinstance(move_errors, bool)
            or not isinstance(help_, bool)
            or not (lang is None or isinstance(lang, str))
        ):
            return None
        chosen: dict[str, Any] = {}
        for name in _PREFERENCES:
            value = data.get(name)
            if name in CHOICES:
                if isinstance(value, str) and value in CHOICES[name]:
                    chosen[name] = value
            elif isinstance(value, bool):
                chosen[name] = value
        return cls(token, move_errors, help_, lang, **chosen)


_DEFAULTS: dict[str, Any] = {name: getattr(SessionData("-"), name) for name in _PREFERENCES}


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game as stored: its record plus what lists and screens need without replaying it."""

    code: str
    record: dict[str, Any]
    """``Game.to_record()``; the engine rebuilds (and checks) the game from it."""
    state: str = "playing"
    """``playing``, ``won``, ``stuck`` or ``lost`` — kept so a verdict is not searched again."""
    score: int = 0
    moves: int = 0
    updated_ms: int = 0
    marks: Marks = NO_MARKS
    kind: str | None = field(default=None, compare=False)
    """What the statistics count this game as (the game registry's kind of its deal: its
    game, and its variant where the game has several), ``None``: not counted. Named by the
    web layer when it writes the game, so the store never needs to know the games; not
    stored (a game read back has ``None``: only the game being written is counted)."""

    def with_marks(self, marks: Marks) -> StoredGame:
        """This game with ``marks`` (built directly: ``dataclasses.replace`` costs several
        times as much, and a tap sets marks twice or three times)."""
        return StoredGame(
            self.code,
            self.record,
            self.state,
            self.score,
            self.moves,
            self.updated_ms,
            marks,
            self.kind,
        )


def carry(
    old: StoredGame | None, new: StoredGame, new_id: Callable[[], str] | None = None
) -> StoredGame:
    """``new`` with the marks it keeps from ``old``, the game it replaces: the statistics'
    mark always (only the store sets it); the daily day, the earlier win and the replay's id
    unless ``new`` sets them; a win (with its replay) when a won game is played again; no
    replay once the game restarts. ``new_id`` draws the replay id of a game that has just
    ended without one (the web layer's :func:`app.store.replays.new_replay_id`; the store's call
    draws none). The web layer calls it when it decides a change, and the store again when it
    writes it (:func:`app.store.counting.settle`): calling it twice changes nothing.

    >>> won = StoredGame("C", {"clock": [9000, None], "moves": "ae"}, "won", 520, 48,
    ...                  marks=Marks("done", replay="R" * 22))
    >>> carry(won, StoredGame("C", {}, "playing")).marks
    Marks(counted='done', daily='', won=Win(ms=9000, moves=48, score=520, \
replay='RRRRRRRRRRRRRRRRRRRRRR'), unproved=False, retry=None, replay=None)
    """
    fresh = new.marks
    kept, counted = (NO_MARKS, fresh.counted) if old is None else (old.marks, old.marks.counted)
    won = fresh.won or kept.won
    if fresh.won is None and old is not None and old.state == "won" and new.state != "won":
        won = Win(clock_elapsed(old.record), old.moves, old.score, kept.replay)
    replay = fresh.replay
    if replay is None:
        record = new.record
        if record.get("moves") or record.get("redo"):  # not restarted: the same game goes on
            replay = kept.replay
        if new_id is not None and kept.replay is None and new.state in ENDED and new.moves > 0:
            replay = new_id()
    daily = fresh.daily or kept.daily
    if (counted, daily, won, replay) == (fresh.counted, fresh.daily, fresh.won, fresh.replay):
        return new
    return new.with_marks(Marks(counted, daily, won, fresh.unproved, fresh.retry, replay))


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A line of the home page's "continue" or "recently finished" list."""

    code: str
    state: str
    score: int
    moves: int
    updated_ms: int
    elapsed_ms: int = 0
    """The game's clock as saved (its record's ``clock[0]``): a finished game's time."""
    marks: Marks = NO_MARKS
    """:attr:`StoredGame.marks` (a replayed deal keeps its earlier win there)."""

    @classmethod
    def of(cls, game: StoredGame) -> GameSummary:
        return cls(
            game.code,
            game.state,
            game.score,
            game.moves,
            game.updated_ms,
            clock_elapsed(game.record),
            game.marks,
        )


FINISHED_WINDOW = 30
""":meth:`Store.finished_games` looks among the session's this many most recently changed
games (a Redis store reads them in one ``MGET``; the list is about *recent* results)."""


def clock_elapsed(record: dict[str, Any]) -> int:
    """The elapsed milliseconds a game record's clock holds, 0 when it holds none.

    >>> clock_elapsed({"clock": [65000, None]}), clock_elapsed({}), clock_elapsed({"clock": "x"})
    (65000, 0, 0)
    """
    clock = record.get("clock")
    if isinstance(clock, list) and clock:
        value = clock[0]
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return value
    return 0


Change = Callable[[SessionData | None, StoredGame | None], tuple[StoredGame | None, T]]
"""Given the session and the game as stored now, the game to write (``None``: write nothing)
and a result for the caller. Raising aborts the change and writes nothing.

A store may call it more than once for one change (Redis does when another writer changed the
game between the read and the write): it must be a function of its arguments, without effects
outside its result, and only the last call's result is written and returned."""


class Store(ABC):
    """Sessions keyed by an opaque id; games keyed by (session id, canonical deal code)."""

    max_games: int = MAX_GAMES_PER_SESSION
    """A change that creates a session's game past this many first deletes its games with
    the oldest ``updated_ms`` (ties: the smallest code), within the same transaction."""

    @abstractmethod
    def rate_limiter(self, configured: Limits) -> RateLimiter:
        """The rate limiter whose counts this store shares the way it shares games: across
        every worker and instance that opens it (:mod:`app.store.ratelimit`). Every store must
        say: a limiter counting in one process would allow each worker the whole limit."""

    @abstractmethod
    def load(
        self, sid: str, code: str | None = None
    ) -> tuple[SessionData | None, StoredGame | None]:
        """The session and (when ``code`` is given) its game for that code, in one read."""

    @abstractmethod
    def save_session(self, sid: str, session: SessionData) -> None:
        """Create or replace a session."""

    @abstractmethod
    def change_game(self, sid: str, code: str, change: Change[T]) -> T:
        """Read session and game, let ``change`` decide, write its game: atomically.

        Concurrent changes of one game are applied one at a time, each seeing the previous
        one's result; when ``change`` raises or returns no game, nothing is written.
        """

    @abstractmethod
    def recent_games(self, sid: str, limit: int = 10) -> list[GameSummary]:
        """The session's games still being played, most recently changed first."""

    @abstractmethod
    def finished_games(self, sid: str, limit: int = 5) -> list[GameSummary]:
        """The session's games that have ended (won, stuck, lost), most recently changed
        first, found among its :data:`FINISHED_WINDOW` most recently changed games."""

    @abstractmethod
    def sweep(self, cutoff_ms: int, batch: int = 500, *, idle_cutoff_ms: int | None = None) -> int:
        """Delete what was abandoned before ``cutoff_ms`` (milliseconds since the epoch).

        Deleted are the games whose ``updated_ms`` is below the cutoff, then the sessions
        saved last (:meth:`save_session`) before ``idle_cutoff_ms`` (default: ``cutoff_ms``)
        that have no game left: a session stays alive as long as one of its games does, one
        without games only until the idle cutoff. One call deletes everything that
        qualifies, ``batch`` rows at a time, each batch its own short transaction, so taps
        wait at most one batch. Returns how many sessions and games it deleted.

        :raises ValueError: when ``batch`` is below 1.
        """

    # --- verdicts ------------------------------------------------------------------------------

    @abstractmethod
    def verdict(self, key: str) -> bool | None:
        """A remembered verdict on a position (``True``: lost), ``None`` when none is known.

        Keys are canonical position keys (the engine's ``position_key``): a verdict proved
        once serves every player, worker and instance sharing the store.
        """

    @abstractmethod
    def remember_verdict(self, key: str, lost: bool) -> None:
        """Keep a verdict for ``key`` (it is a fact about the position: writing it twice is
        harmless). Verdicts expire like games do."""

    # --- statistics (issue 16): written by change_game, see app/store/counting.py ----------

    @abstractmethod
    def player_stats(self, sid: str) -> dict[str, Any] | None:
        """The player's statistics document as stored (``None``: nothing counted yet)."""

    @abstractmethod
    def deal_stats(self, code: str) -> dict[str, Any] | None:
        """How a deal went for everyone who finished it (``players``, ``wins``,
        ``best_ms``, ``fewest``), ``None`` when nobody has."""

    @abstractmethod
    def reset_stats(self, sid: str) -> None:
        """Forget the player's statistics (games and the deals' figures stay)."""

    async def player_stats_async(self, sid: str) -> dict[str, Any] | None:
        return self.player_stats(sid)

    async def deal_stats_async(self, code: str) -> dict[str, Any] | None:
        return self.deal_stats(code)

    async def reset_stats_async(self, sid: str) -> None:
        self.reset_stats(sid)

    # --- replays (issue 26): written by change_game, see app/store/replays.py ----------------

    @abstractmethod
    def replay(self, replay_id: str) -> StoredReplay | None:
        """The replay with this id, whoever's it is (``None``: none, deleted or expired)."""

    @abstractmethod
    def player_replays(self, sid: str) -> list[ReplaySummary]:
        """The player's replays, the one that ended last first."""

    @abstractmethod
    def delete_replay(self, sid: str, replay_id: str) -> bool:
        """Delete the player's replay with this id; ``True`` when there was one (another
        player's replay is never deleted)."""

    async def replay_async(self, replay_id: str) -> StoredReplay | None:
        return self.replay(replay_id)

    async def player_replays_async(self, sid: str) -> list[ReplaySummary]:
        return self.player_replays(sid)

    async def delete_replay_async(self, sid: str, replay_id: str) -> bool:
        return self.delete_replay(sid, replay_id)

    # --- a replay's analysis (issue 33): where the win slipped away, kept with the replay ----

    @abstractmethod
    def analysis(self, replay_id: str) -> dict[str, Any] | None:
        """The analysis kept with this replay (plain JSON), ``None`` when there is none yet or
        the replay is gone."""

    @abstractmethod
    def save_analysis(self, replay_id: str, data: dict[str, Any]) -> None:
        """Keep ``data`` with the replay (replacing an earlier one); nothing when the replay
        is gone. It goes when the replay goes (deleted, swept, expired)."""

    async def analysis_async(self, replay_id: str) -> dict[str, Any] | None:
        return self.analysis(replay_id)

    async def save_analysis_async(self, replay_id: str, data: dict[str, Any]) -> None:
        self.save_analysis(replay_id, data)

    # --- the device link: a secret's hash names the player it carries ------------------------

    @abstractmethod
    def save_link(self, sid: str, digest: str) -> None:
        """Make ``digest`` (the hash of a new secret) the player's only device link."""

    @abstractmethod
    def link_owner(self, digest: str) -> str | None:
        """The player whose device link has this hash, ``None`` when none (or revoked)."""

    @abstractmethod
    def drop_link(self, sid: str) -> bool:
        """Revoke the player's device link; ``True`` when there was one."""

    @abstractmethod
    def has_link(self, sid: str) -> bool:
        """Whether the player has a device link (the page offers to revoke it)."""

    async def has_link_async(self, sid: str) -> bool:
        return self.has_link(sid)

    async def save_link_async(self, sid: str, digest: str) -> None:
        self.save_link(sid, digest)

    async def link_owner_async(self, digest: str) -> str | None:
        return self.link_owner(digest)

    async def drop_link_async(self, sid: str) -> bool:
        return self.drop_link(sid)

    # --- who the store knows, and the server's secret (issue 23) ------------------------------

    def knows(self, sid: str) -> bool:
        """Whether anything is stored under ``sid``: a session, a game, statistics or a device
        link (a session id from before ids were signed is honoured only then)."""
        session, _ = self.load(sid)
        return (
            session is not None
            or bool(self.recent_games(sid, 1))
            or bool(self.finished_games(sid, 1))  # the newest game, when it has ended
            or self.player_stats(sid) is not None
            or self.has_link(sid)
        )

    async def knows_async(self, sid: str) -> bool:
        session, _ = await self.load_async(sid)
        return (
            session is not None
            or bool(await self.recent_games_async(sid, 1))
            or bool(await self.finished_games_async(sid, 1))
            or await self.player_stats_async(sid) is not None
            or await self.has_link_async(sid)
        )

    @abstractmethod
    def kept_secret(self) -> bytes:
        """The secret kept beside the store's data, made on first use: every worker and
        instance that opens this store gets the same (:mod:`app.services.signing` signs
        session ids with it when ``SOLITAIRE_SECRET`` is not set).

        :raises StoreError: when it can neither be read nor made.
        """

    def move_player(self, old: str, new: str) -> bool:
        """Move everything stored under ``old`` — the session, its games, the statistics —
        to ``new``, which has nothing yet, atomically; the device link is dropped. Revoking a
        device link does this (the revoking browser takes the new id; every browser still
        holding ``old`` finds nothing). ``False`` when ``old`` held nothing."""
        raise NotImplementedError

    async def move_player_async(self, old: str, new: str) -> bool:
        return self.move_player(old, new)

    # --- the same calls for code on the event loop -------------------------------------------
    # By default they call the methods above directly, for stores that answer from memory.
    # A store that may wait (a network, a disk's lock) overrides them: Redis with its asyncio
    # client, SQLite with threads where a call can wait on the write lock.

    async def load_async(
        self, sid: str, code: str | None = None
    ) -> tuple[SessionData | None, StoredGame | None]:
        return self.load(sid, code)

    async def save_session_async(self, sid: str, session: SessionData) -> None:
        self.save_session(sid, session)

    async def recent_games_async(self, sid: str, limit: int = 10) -> list[GameSummary]:
        return self.recent_games(sid, limit)

    async def finished_games_async(self, sid: str, limit: int = 5) -> list[GameSummary]:
        return self.finished_games(sid, limit)

    async def verdict_async(self, key: str) -> bool | None:
        return self.verdict(key)

    async def remember_verdict_async(self, key: str, lost: bool) -> None:
        self.remember_verdict(key, lost)

    async def ping(self) -> None:  # noqa: B027  (nothing to check for a memory store)
        """Check that the store answers and can write (``/health``): Redis below its
        ``maxmemory`` unless it may evict, SQLite since its last write failed for want of room.

        :raises StoreFullError: when it answers but cannot write.
        :raises StoreError: when it does not answer.
        """

    async def aclose(self) -> None:
        """Release what the asyncio calls hold (the loop is still running), then :meth:`close`."""
        self.close()

    async def change_game_async(self, sid: str, code: str, change: Change[T]) -> T:
        """:meth:`change_game` for code running on the event loop.

        By default the same call: memory and Redis answer in well under a millisecond. A
        store whose commits wait on a disk overrides it so the loop never waits (SQLite: one
        writer thread that commits queued changes together — group commit).
        """
        return self.change_game(sid, code, change)

    def close(self) -> None:  # noqa: B027  (optional for stores holding nothing)
        """Release connections and files."""
