"""What both games share: move history with bounded undo, redo, restart, the clock and records.

Style (STYLE.md, "state that cannot be corrupted"): positions are immutable values and a game's
``apply`` returns a new position or raises before anything changes; :class:`Game` keeps the
stack of positions the way python-chess keeps its ``move_stack``, so undo is a pop and never a
recomputation that could drift.

A game is saved as a :class:`GameRecord`-shaped dict — deal code, moves, redo stack, selection,
clock — and rebuilt by replaying the moves through the same rules, so a tampered record cannot
produce a board the rules would not reach.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, Final, Generic, Self, TypeVar

from app.engine.codes import DealCode, DealCodeError, GameId

UNDO_LIMIT: Final = 100
"""Undo reaches back over the last 100 actions (SPEC §4)."""

RECORD_VERSION: Final = 1
MAX_RECORD_MOVES: Final = 5000
"""No real game comes near this; it keeps a hostile record from costing unbounded replay time."""

P = TypeVar("P")
M = TypeVar("M")


class Outcome(Enum):
    """What one player action did, in both games (each uses the members that apply to it)."""

    SELECTED = "selected"
    DESELECTED = "deselected"
    REPLACED = "replaced"
    """Half Moon: a face card took the place of the selected card of its rank."""
    REMOVED = "removed"
    """Half Moon: a pair or a triple left the game."""
    MOVED = "moved"
    """Seahaven: a card or a run moved."""
    REFUSED = "refused"
    """The rules refused; the selection was cleared and a reason is given."""
    IGNORED = "ignored"
    """Nothing to act on (an empty place): nothing changed."""
    STALE = "stale"
    """The card is not where the player saw it (another tab played): nothing changed."""


class IllegalMoveError(ValueError):
    """A move the rules do not allow in the current position; nothing was changed."""


class UnknownPlaceError(ValueError):
    """A place name that does not exist on this game's board (``pile-13``, ``cell-5`` …)."""


class RecordError(ValueError):
    """A saved game that is malformed, from an unknown version, or replays an illegal move."""


def now_ms() -> int:
    """Wall-clock milliseconds; the clock stores integers to keep records small and exact."""
    return int(time.time() * 1000)


AWAY_MS: Final = 5 * 60_000
"""A pause between two actions counts as at most five minutes: time away is not play time."""


@dataclass(slots=True)
class Clock:
    """Play time: starts with the first action, stops when the game ends, resumes on undo.

    While it runs, ``running_since`` is the time of the last action: each action adds the time
    since the one before, but never more than :data:`AWAY_MS` — a player who closes the tab for
    an hour comes back to at most five more minutes (issue 13).

    >>> clock = Clock()
    >>> clock.run(1_000); clock.elapsed(4_500)
    3500
    >>> clock.stop(5_000); clock.elapsed(9_000)
    4000
    >>> clock.run(10_000); clock.elapsed(10_000 + 3_600_000)
    304000
    """

    elapsed_ms: int = 0
    running_since: int | None = None

    @property
    def is_running(self) -> bool:
        return self.running_since is not None

    def run(self, now: int) -> None:
        """An action at ``now``: the time since the last one counts (up to the away limit)."""
        if self.running_since is not None:
            self.elapsed_ms += _played(self.running_since, now)
        self.running_since = now

    def stop(self, now: int) -> None:
        if self.running_since is not None:
            self.elapsed_ms += _played(self.running_since, now)
            self.running_since = None

    def elapsed(self, now: int) -> int:
        """Milliseconds played up to ``now``."""
        if self.running_since is None:
            return self.elapsed_ms
        return self.elapsed_ms + _played(self.running_since, now)

    def to_list(self) -> list[int | None]:
        return [self.elapsed_ms, self.running_since]

    @classmethod
    def from_list(cls, data: Any) -> Clock:
        if (
            not isinstance(data, list)
            or len(data) != 2
            or not _is_count(data[0])
            or not (data[1] is None or _is_count(data[1]))
        ):
            raise RecordError("the clock must be [elapsed milliseconds, running since or null]")
        return cls(data[0], data[1])


def _played(since: int, now: int) -> int:
    return min(max(0, now - since), AWAY_MS)


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


class Game(ABC, Generic[P, M]):
    """A game in progress: the deal, the positions reached, undo/redo and the clock.

    Subclasses name their game (``game_id``, ``slug``), deal the start position, apply and
    encode moves, and say when the game has ended. Everything that changes the game goes
    through :meth:`_push`, :meth:`undo`, :meth:`redo` or :meth:`restart`, each of which
    either completes or raises before touching anything.
    """

    game_id: ClassVar[GameId]
    slug: ClassVar[str]
    title: ClassVar[str]

    def __init__(self, code: DealCode) -> None:
        if code.game != self.game_id:
            raise DealCodeError(f"{code} is not a {self.title} deal")
        self.code = code
        self._positions: list[P] = [self.deal(code)]
        self.moves: list[M] = []
        self.redo_stack: list[M] = []  # the next move to redo is the last element
        self.undo_floor = 0  # moves before this index can no longer be undone
        self.clock = Clock()

    @classmethod
    def starting_from(cls, code: DealCode, start: P) -> Self:
        """A game that starts from a given position instead of the deal (seeds and tests).

        Such a game cannot be saved: its record would replay from the deal.
        """
        game = cls(code)
        game._positions[0] = start
        game.custom_start = True
        return game

    custom_start = False

    # --- what each game supplies -------------------------------------------------------------

    @classmethod
    @abstractmethod
    def deal(cls, code: DealCode) -> P:
        """The start position of a deal."""

    @classmethod
    @abstractmethod
    def apply(cls, position: P, move: M) -> P:
        """The position after ``move``.

        :raises IllegalMoveError: when the rules refuse it (nothing changes).
        """

    @classmethod
    @abstractmethod
    def encode_move(cls, move: M) -> str:
        """A short text for records; :meth:`decode_move` reads it back."""

    @classmethod
    @abstractmethod
    def decode_move(cls, text: str) -> M:
        """:raises RecordError: when ``text`` is not a move of this game."""

    @abstractmethod
    def is_over(self) -> bool:
        """Won, stuck or lost: the clock stops."""

    def clear_selection(self) -> None:
        """Forget any selection; called whenever the position changes."""

    def selection_text(self) -> str:
        """The selection as record text ("" when none)."""
        return ""

    def restore_selection(self, text: str) -> None:
        """:raises RecordError: when ``text`` is not a selection possible in this position."""
        if text:
            raise RecordError("this game keeps no selection")

    # --- the history -------------------------------------------------------------------------

    @property
    def position(self) -> P:
        return self._positions[-1]

    @property
    def start_position(self) -> P:
        return self._positions[0]

    @property
    def move_count(self) -> int:
        return len(self.moves)

    def can_undo(self) -> bool:
        return len(self.moves) > self.undo_floor

    def can_redo(self) -> bool:
        return bool(self.redo_stack)

    def _push(self, move: M, position: P, now: int) -> None:
        """Record an applied move: a new branch of history, so the redo stack is dropped."""
        self._positions.append(position)
        self.moves.append(move)
        self.redo_stack.clear()
        self.undo_floor = max(self.undo_floor, len(self.moves) - UNDO_LIMIT)
        self.clear_selection()
        self._tick(now)

    def play(self, move: M, now: int | None = None) -> P:
        """Apply a move (already validated or not) and record it.

        :raises IllegalMoveError: when the rules refuse it; the game is unchanged.
        """
        position = self.apply(self.position, move)
        self._push(move, position, now_ms() if now is None else now)
        return position

    def undo(self, now: int | None = None) -> bool:
        """Take back the last move within the undo limit; ``False`` when there is none."""
        if not self.can_undo():
            return False
        self._positions.pop()
        self.redo_stack.append(self.moves.pop())
        self.clear_selection()
        self._tick(now_ms() if now is None else now)
        return True

    def redo(self, now: int | None = None) -> bool:
        """Replay the last undone move; ``False`` when there is none."""
        if not self.redo_stack:
            return False
        move = self.redo_stack[-1]
        position = self.apply(self.position, move)  # always legal: it was undone from here
        redo_rest = self.redo_stack[:-1]
        self._push(move, position, now_ms() if now is None else now)
        self.redo_stack = redo_rest
        return True

    def restart(self) -> None:
        """The same deal from the beginning: moves, redo, selection and clock all reset."""
        del self._positions[1:]
        self.moves.clear()
        self.redo_stack.clear()
        self.undo_floor = 0
        self.clear_selection()
        self.clock = Clock()

    def _tick(self, now: int) -> None:
        """Called after every action: the clock runs while the game is open."""
        if self.is_over():
            self.clock.stop(now)
        else:
            self.clock.run(now)

    # --- records -----------------------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        """A compact JSON-compatible snapshot; :meth:`from_record` rebuilds the exact game."""
        if self.custom_start:
            raise RecordError("a game started from a custom board has no record")
        return {
            "v": RECORD_VERSION,
            "code": str(self.code),
            "moves": ".".join(self.encode_move(m) for m in self.moves),
            "redo": ".".join(self.encode_move(m) for m in reversed(self.redo_stack)),
            "floor": self.undo_floor,
            "sel": self.selection_text(),
            "clock": self.clock.to_list(),
        }

    @classmethod
    def from_record(cls, record: Any) -> Self:
        """Rebuild a game by replaying its record through the rules.

        :raises RecordError: on a malformed or tampered record (wrong types, unknown version,
            another game's code, an illegal move, an impossible selection or undo floor).
        """
        if not isinstance(record, dict):
            raise RecordError("a game record must be an object")
        if record.get("v") != RECORD_VERSION:
            raise RecordError(f"unknown record version {record.get('v')!r}")
        expected = {"v", "code", "moves", "redo", "floor", "sel", "clock"}
        if set(record) != expected:
            raise RecordError(f"a game record has exactly the fields {sorted(expected)}")
        code_text, sel = record["code"], record["sel"]
        if not isinstance(code_text, str) or not isinstance(sel, str):
            raise RecordError("the code and the selection must be text")
        try:
            code = DealCode.parse(code_text)
        except DealCodeError as error:
            raise RecordError(f"bad deal code in record: {error}") from None
        if str(code) != code_text or code.game != cls.game_id:
            raise RecordError(f"{code_text!r} is not a canonical {cls.title} code")
        game = cls(code)
        moves = cls._decode_moves(record["moves"])
        redo = cls._decode_moves(record["redo"])
        for move in moves:
            game._replay(move)
        position = game.position
        for move in redo:  # the redo stack must itself replay from the current position
            position = cls._checked_apply(position, move)
        game.redo_stack = list(reversed(redo))
        floor = record["floor"]
        if not _is_count(floor) or floor > len(moves) or floor < len(moves) - UNDO_LIMIT:
            raise RecordError(f"undo floor {floor!r} is impossible after {len(moves)} moves")
        game.undo_floor = floor
        game.restore_selection(sel)
        game.clock = Clock.from_list(record["clock"])
        return game

    @classmethod
    def _decode_moves(cls, text: Any) -> list[M]:
        if not isinstance(text, str):
            raise RecordError("moves must be text")
        if not text:
            return []
        parts = text.split(".")
        if len(parts) > MAX_RECORD_MOVES:
            raise RecordError(f"a record holds at most {MAX_RECORD_MOVES} moves")
        return [cls.decode_move(part) for part in parts]

    @classmethod
    def _checked_apply(cls, position: P, move: M) -> P:
        try:
            return cls.apply(position, move)
        except IllegalMoveError as error:
            raise RecordError(f"the record replays an illegal move: {error}") from None

    def _replay(self, move: M) -> None:
        self._positions.append(self._checked_apply(self.position, move))
        self.moves.append(move)

    def replay(self, moves: Iterable[M], now: int | None = None) -> None:
        """Play several moves in order (tests, solver lines)."""
        for move in moves:
            self.play(move, now)

    @property
    def positions(self) -> Sequence[P]:
        """Every position from the deal to now (read-only view for analysis)."""
        return tuple(self._positions)
