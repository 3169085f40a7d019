"""A store's plain data: sessions, saved games and their list lines, and what a change keeps
of the row it replaces (:func:`carry`). Everything here is JSON-compatible values: a store never
imports the engine or the web layer."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from app.status import ENDED, Status
from app.store.life import Life, Nature, in_statistics, replayed
from app.store.marks import NO_MARKS, RESULT_COUNTED, Marks, Win

T = TypeVar("T")

CHOICES: dict[str, tuple[str, ...]] = {
    "deck": ("classic", "four-colour"),
    "hand": ("right", "left"),
    "theme": ("auto", "light", "dark"),
    "winnable": ("auto", "on", "off"),
}
"""The preferences of several values (issue 27): their accepted values, the default first."""

SWITCHES: tuple[str, ...] = ("move_errors", "placement_help", "zen", "sound", "hints")
"""The on/off settings, all off by default."""

_PREFERENCES = ("zen", "deck", "hand", "theme", "sound", "learned", "winnable", "hints")
"""Stored only when they differ from the default: a session that never chose one is stored
exactly as before they existed, and one stored before them loads with the defaults."""

LEARNED_MAX: Final = 8
"""How many games' how-to-play a session remembers as dismissed (more than there are games:
a longer list read back is damage, and is the default)."""


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
    learned: tuple[str, ...] = ()
    """The games (slugs, sorted) whose how-to-play the player dismissed (issue 35): it is not
    shown again on their first visit (it stays one tap away, under "?")."""
    winnable: str = "auto"
    """*Winnable deals only* (issue 33): ``auto`` where most deals cannot be won (Seahaven with
    2 or 1 cells), ``on`` for every game and level, ``off`` never."""
    hints: bool = False
    """*Hints* (issue 45): the game page offers a Hint; a game in which one was shown is
    assisted. Off until the player turns it on."""

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
                data[name] = list(value) if isinstance(value, tuple) else value
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
            elif name == "learned":
                if isinstance(value, list) and _is_learned(value):
                    chosen[name] = tuple(sorted(set(value)))
            elif isinstance(value, bool):
                chosen[name] = value
        return cls(token, move_errors, help_, lang, **chosen)


_DEFAULTS: dict[str, Any] = {name: getattr(SessionData("-"), name) for name in _PREFERENCES}


def _is_learned(value: Any) -> bool:
    """A list of a few short names (the store knows no games: the web layer checks them)."""
    return (
        isinstance(value, list)
        and len(value) <= LEARNED_MAX
        and all(isinstance(v, str) and 0 < len(v) <= 32 for v in value)
    )


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game as stored: its record plus what lists and screens need without replaying it."""

    code: str
    record: dict[str, Any]
    """``Game.to_record()``; the engine rebuilds (and checks) the game from it."""
    state: Status = Status.PLAYING
    """Where the game stands (stored as the member's string: ``playing``, ``won`` …), kept
    so a verdict is not searched again."""
    score: int = 0
    moves: int = 0
    updated_ms: int = 0
    marks: Marks = NO_MARKS
    kind: str | None = field(default=None, compare=False)
    """What the statistics count this game as (the game registry's kind of its deal: its
    game, and its variant where the game has several), ``None``: not counted. Named by the
    web layer when it writes the game, so the store never needs to know the games; not
    stored (a game read back has ``None``: only the game being written is counted)."""
    ranks: bool = field(default=True, compare=False)
    """Whether a win this change makes may enter its deal's standings: the web layer's call
    (the client's ranked wins a day, issue 34); not stored."""

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
            self.ranks,
        )


def carry(
    old: StoredGame | None, new: StoredGame, new_id: Callable[[], str] | None = None
) -> StoredGame:
    """``new`` with the marks it keeps from ``old``, the game it replaces: the statistics'
    mark always (only the store sets it) — but a game that ended and starts again is a new game
    (``new``, issue 34); the daily day, the earlier win and the replay's id
    unless ``new`` sets them; a win (with its replay) when a won game is played again; no
    replay once the game restarts. ``new_id`` draws the replay id of a game that has just
    ended without one (the web layer's :func:`app.store.replays.new_replay_id`; the store's call
    draws none). The web layer calls it when it decides a change, and the store again when it
    writes it (:func:`app.store.settling.settle`): calling it twice changes nothing.

    >>> won = StoredGame("C", {"clock": [9000, None], "moves": "ae"}, Status.WON, 520, 48,
    ...                  marks=Marks("done", replay="R" * 22))
    >>> carry(won, StoredGame("C", {})).marks
    Marks(counted='new', daily='', won=Win(ms=9000, moves=48, score=520, \
replay='RRRRRRRRRRRRRRRRRRRRRR'), unproved=False, retry=None, replay=None, practice=False, \
assisted=False, start=0, result='')
    """
    fresh = new.marks
    kept, counted = (NO_MARKS, fresh.counted) if old is None else (old.marks, old.marks.counted)
    restarted = not new.record.get("moves") and not new.record.get("redo")
    # a practice is counted nowhere, never replayed (issue 33); its rows write the mark each
    # time (issue 43: its own key), so a practice kept in the deal's own row by the version
    # before is the player's game again once restarted
    practice = fresh.practice or (kept.practice and not restarted)
    life = Life(Nature.PRACTICE) if practice else None
    won = _kept_win(old, new, fresh, kept)
    replay = _kept_replay(new, fresh, kept, new_id, practice)
    ended = old is not None and old.state in ENDED and counted in RESULT_COUNTED
    if ended and restarted and new.moves == 0:
        counted = "new"  # an ended game restarted is a new game (issue 34)
    daily = fresh.daily or kept.daily
    start = fresh.start or kept.start
    result, assisted = fresh.result or kept.result, fresh.assisted or kept.assisted
    if counted == "new" and old is not None and counted != old.marks.counted:
        result, assisted = "", fresh.assisted  # a new game: its own ending, its own help
    if life is not None and not replayed(life):
        replay = None  # a practice game is never replayed, nor writes over the game's replay
    if life is not None and not in_statistics(life) and new.kind is not None:
        new = StoredGame(
            new.code, new.record, new.state, new.score, new.moves, new.updated_ms, new.marks,
            None, False,
        )  # fmt: skip
    if (counted, daily, won, replay, practice, assisted, start, result) == (
        fresh.counted,
        fresh.daily,
        fresh.won,
        fresh.replay,
        fresh.practice,
        fresh.assisted,
        fresh.start,
        fresh.result,
    ):
        return new
    marks = Marks(
        counted, daily, won, fresh.unproved, fresh.retry, replay, practice, assisted, start, result
    )
    return new.with_marks(marks)


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A line of the home page's "continue" or "recently finished" list."""

    code: str
    state: Status
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


_STATES = {status.value: status for status in Status}


def status_of(value: object) -> Status:
    """A state as stored; anything else (damage, a newer version's) reads as playing, so the
    engine's replay of the record decides.

    >>> status_of("won"), status_of("nonsense"), status_of(None)
    (<Status.WON: 'won'>, <Status.PLAYING: 'playing'>, <Status.PLAYING: 'playing'>)
    """
    return _STATES.get(value, Status.PLAYING) if isinstance(value, str) else Status.PLAYING


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


def _kept_win(old: StoredGame | None, new: StoredGame, fresh: Marks, kept: Marks) -> Win | None:
    """The earlier win ``new`` keeps: its own, the old row's, or the old game's own win when a
    won game is played again."""
    if fresh.won is None and old is not None and old.state == Status.WON != new.state:
        return Win(clock_elapsed(old.record), old.moves, old.score, kept.replay)
    return fresh.won or kept.won


def _kept_replay(
    new: StoredGame,
    fresh: Marks,
    kept: Marks,
    new_id: Callable[[], str] | None,
    practice: bool,
) -> str | None:
    """The replay's id ``new`` names: its own; the old one while the same game goes on; a new
    one (``new_id``) for a game that has just ended without one."""
    if fresh.replay is not None:
        return fresh.replay
    replay = None
    if new.record.get("moves") or new.record.get("redo"):  # not restarted: the game goes on
        replay = kept.replay
    just_ended = kept.replay is None and new.state in ENDED and new.moves > 0
    if new_id is not None and just_ended and not practice:
        replay = new_id()
    return replay
