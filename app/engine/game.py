"""What both games share: move history with bounded undo, redo, restart, the clock and records.

Style (scalachess's "state that cannot be corrupted"): positions are immutable values and a
game's ``apply`` returns a new position or raises before anything changes; :class:`Game` keeps the
stack of positions the way python-chess keeps its ``move_stack``, so undo is a pop and never a
recomputation that could drift.

A game is saved as a :class:`GameRecord`-shaped dict — deal code, moves, redo stack, selection,
clock — and rebuilt by replaying the moves through the same rules, so a tampered record cannot
produce a board the rules would not reach.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, Final, Generic, Self, TypeVar, cast

from app.clock import now_ms
from app.engine.cards import Card
from app.engine.codes import DealCode, DealCodeError, GameId, Variant
from app.engine.solutions import Solution, SolveResult
from app.engine.texts import ENGLISH, Translator
from app.status import Status as Status  # re-exported: the engine's word for a game's state

UNDO_LIMIT: Final = 100
"""Undo reaches back over the last 100 actions (SPEC §4)."""

RECORD_VERSION: Final = 1
MAX_RECORD_MOVES: Final = 5000
"""No real game comes near this; it keeps a hostile record from costing unbounded replay time."""

P = TypeVar("P")
M = TypeVar("M")


class Outcome(Enum):
    """What one player action did: each game lists its own (``Outcome`` in its package), with
    these names where they apply — ``SELECTED``, ``DESELECTED``, ``REFUSED`` (the rules refused;
    the selection was cleared and a reason is given), ``IGNORED`` (nothing to act on: nothing
    changed), ``STALE`` (the card is not where the player saw it: nothing changed)."""


class Reason(Enum):
    """Why the rules refused a move: each game lists its own (``Reason`` in its package), every
    member a short key (kept in URLs) and the sentence a player reads with *Move errors* on.

    A reason that names a limit (Seahaven's group size: :class:`Refusal` carries the number)
    says so in :meth:`takes_limit` and gives its sentence, with its plural, in :meth:`explain`.
    """

    def __init__(self, key: str, sentence: str) -> None:
        self.key = key
        self.sentence = sentence

    def takes_limit(self) -> bool:
        return False

    def explain(self, t: Translator, limit: int | None) -> str:
        """The sentence in ``t``'s language."""
        return t.gettext(self.sentence)


_LIMITED_KEY: Final = re.compile(r"([a-z_]+)-([1-9][0-9]{0,3})")  # ASCII digits only


@dataclass(frozen=True, slots=True)
class Refusal:
    """A refused move: the reason, and the limit when the reason names one (Seahaven's group).

    >>> from app.engine.halfmoon import Reason as HalfMoonReason
    >>> refusal = Refusal(HalfMoonReason.SUM_NOT_ELEVEN)
    >>> str(refusal), refusal.key, Refusal.from_key("sum", HalfMoonReason) == refusal
    ('The sum must be 11.', 'sum', True)
    """

    reason: Reason
    limit: int | None = None

    def explain(self, t: Translator = ENGLISH) -> str:
        """The sentence in ``t``'s language."""
        return self.reason.explain(t, self.limit)

    def __str__(self) -> str:
        return self.explain()

    @property
    def key(self) -> str:
        """A short stable name (``sum``, ``king_only``, ``group-4``): :meth:`from_key` reads it."""
        if self.reason.takes_limit():
            return f"{self.reason.key}-{self.limit}"
        return self.reason.key

    @classmethod
    def from_key(cls, key: str, reasons: Iterable[Reason]) -> Refusal | None:
        """The refusal a :attr:`key` names among ``reasons``, or ``None`` when it names none."""
        by_key = {reason.key: reason for reason in reasons}
        limited = _LIMITED_KEY.fullmatch(key)
        if limited is not None:
            reason = by_key.get(limited.group(1))
            if reason is not None and reason.takes_limit():
                return cls(reason, int(limited.group(2)))
            return None
        reason = by_key.get(key)
        if reason is None or reason.takes_limit():
            return None
        return cls(reason)


class IllegalMoveError(ValueError):
    """A move the rules do not allow in the current position; nothing was changed."""

    def __init__(self, message: str, refusal: Refusal | None = None) -> None:
        super().__init__(message)
        self.refusal = refusal


class MoveParseError(ValueError):
    """Text that is not a move of the game at all (a syntax error, not an illegal move)."""


class UnknownPlaceError(ValueError):
    """A place name that does not exist on this game's board (``pile-13``, ``cell-5`` …)."""


class RecordError(ValueError):
    """A saved game that is malformed, from an unknown version, or replays an illegal move."""


@dataclass(frozen=True, slots=True)
class ActionResult(Generic[M]):
    """What one player action (a tap, a double tap, a drag) did, in both games."""

    outcome: Outcome
    move: M | None = None
    """The move made (``REMOVED``, ``MOVED``)."""
    refusal: Refusal | None = None
    """Why the rules refused (``REFUSED``)."""
    cards: tuple[Card, ...] = ()
    """Half Moon: the cards removed, or the cards of a refused combination."""

    @property
    def reason(self) -> Reason | None:
        return None if self.refusal is None else self.refusal.reason

    @property
    def limit(self) -> int | None:
        return None if self.refusal is None else self.refusal.limit

    @property
    def message(self) -> str:
        """The refusal sentence in English ("" unless refused)."""
        return "" if self.refusal is None else str(self.refusal)


class LegalMoves(Generic[P, M]):
    """The legal moves of a position: iterate them, count them, test a move with ``in``.

    Generated once, when first iterated or counted; ``in`` asks the rules directly.
    """

    __slots__ = ("_check", "_generate", "_moves", "position")

    def __init__(
        self,
        position: P,
        generate: Callable[[P], Iterable[M]],
        check: Callable[[P, M], Refusal | None],
    ) -> None:
        self.position = position
        self._generate = generate
        self._check = check
        self._moves: tuple[M, ...] | None = None

    def _all(self) -> tuple[M, ...]:
        if self._moves is None:
            self._moves = tuple(self._generate(self.position))
        return self._moves

    def __iter__(self) -> Iterator[M]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __bool__(self) -> bool:
        return bool(self._all())

    def __contains__(self, move: object) -> bool:
        if not isinstance(move, tuple) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in move
        ):
            return False
        try:
            return self._check(self.position, cast(M, move)) is None
        except (TypeError, ValueError):
            return False

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(map(str, self))})>"


AWAY_MS: Final = 5 * 60_000
"""A pause between two actions counts as at most five minutes: time away is not play time."""

SHORTEST_HIDDEN_GAP_MS: Final = 1_000
"""A gap the browser says the page was hidden in still counts this long (or the whole gap when
it is shorter): coming back to a page and acting takes at least that, so no client can make its
games' times shorter than a player could (issue 35)."""


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

    def leave_out(self, hidden_ms: int, now: int) -> bool:
        """Leave out of the gap since the last action the time the browser says its page was
        hidden (``visibilitychange``), an untrusted claim: it may only shorten the gap, never
        below :data:`SHORTEST_HIDDEN_GAP_MS` (nor the gap itself, when shorter); the away
        limit then applies to what is left. Whether the clock changed.

        >>> clock = Clock(0, 0)
        >>> clock.leave_out(50_000, 60_000), clock.elapsed(60_000)
        (True, 10000)
        >>> clock = Clock(0, 0)
        >>> clock.leave_out(10**12, 60_000), clock.elapsed(60_000)
        (True, 1000)
        >>> Clock(0, 0).leave_out(-5, 60_000), Clock().leave_out(5_000, 60_000)
        (False, False)
        """
        if self.running_since is None or hidden_ms <= 0:
            return False
        gap = max(0, now - self.running_since)
        shown = max(gap - hidden_ms, min(gap, SHORTEST_HIDDEN_GAP_MS))
        since = now - min(shown, AWAY_MS)
        if since <= self.running_since:
            return False
        self.running_since = since
        return True

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


@dataclass(frozen=True, slots=True)
class Step(Generic[P, M]):
    """One action in a game's history: its moves (one; several for an action that plays them
    as one, Seahaven's *Send all home*) and the position after each. Undo takes a step back
    whole, Redo puts it back as it was: moves and positions can never fall out of step."""

    moves: tuple[M, ...]
    positions: tuple[P, ...]
    """The position after each of :attr:`moves`."""
    total: int
    """Moves from the deal through this step."""

    @property
    def after(self) -> P:
        """The position the action reached."""
        return self.positions[-1]

    @property
    def first(self) -> int:
        """Moves from the deal before this step."""
        return self.total - len(self.moves)


def _actions_text(steps: Iterable[Step[Any, Any]]) -> str:
    """Actions as a record writes them: joined by ``.``, an action's moves by ``+``.

    >>> _actions_text([Step(("aS",), (1,), 1), Step(("bH", "cD"), (2, 3), 3)])
    'aS.bH+cD'
    """
    return ".".join("+".join(map(str, step.moves)) for step in steps)


def _played(since: int, now: int) -> int:
    return min(max(0, now - since), AWAY_MS)


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _same(kept: Any) -> Any:
    return kept


@dataclass(frozen=True, slots=True)
class Walk(Generic[P]):
    """Moves checked by the rules one after another from a position (:meth:`Game.walk`): the
    position after every ``every`` moves allowed, and the first move refused, if any."""

    kept: tuple[Any, ...]
    """The snapshots as the game keeps them, the first the start: ``kept[k]`` is the position
    after ``k × every`` moves (as far as the moves were allowed)."""
    unpack: Callable[[Any], P] = _same
    """How a kept snapshot becomes a position (positions are kept as they are by default)."""
    refused: int | None = None
    """The index (0-based) of the first move the rules refused; ``None`` when none was."""
    refusal: Refusal | None = None
    """Why the rules refused it."""

    def snapshot(self, k: int) -> P:
        """The position after ``k × every`` moves."""
        return self.unpack(self.kept[k])


class Game(ABC, Generic[P, M]):
    """A game in progress: the deal, the positions reached, undo/redo and the clock.

    Subclasses name their game (``game_id``, ``slug``), deal the start position, check, make,
    generate and parse moves (a move prints as ``str(move)``), and say where the game stands
    (:meth:`status`, :attr:`score`). Everything that changes the game goes
    through :meth:`_push`, :meth:`undo`, :meth:`redo` or :meth:`restart`, each of which
    either completes or raises before touching anything.
    """

    game_id: ClassVar[GameId]
    """The two letters its deal codes start with (``HM``)."""
    slug: ClassVar[str]
    """Its name in URLs (``half-moon``)."""
    title: ClassVar[str]
    """Its name for players, a catalog text."""
    variants: ClassVar[tuple[Variant, ...]]
    """How it is dealt, as deal codes name it; the first is a new deal's when none is chosen."""
    decks: ClassVar[int] = 1
    """How many 52-card decks a deal shuffles."""
    code_example: ClassVar[str]
    """A deal code of this game and what it means, for the sentence that says what a deal code
    looks like: a catalog text (``HM1-N-AAAAAAB (Half Moon)``)."""
    notation: ClassVar[str]
    """What a move looks like in the game's notation (``str(move)``), a catalog text: said when
    a pasted game's line is not a move."""
    reasons: ClassVar[frozenset[Reason]] = frozenset()
    """The reasons this game's actions give a player when they refuse."""
    position_type: ClassVar[type]
    """The class of its positions (a proof is asked for by position)."""
    lost_needs_proof: ClassVar[bool] = False
    """Whether telling that a position is lost takes a search (Seahaven's "no useful move
    left"): then a server proves it off the request path (:mod:`app.services.proofs`) with
    :meth:`verdict_key` and :meth:`prove_lost`."""

    def __init__(self, code: DealCode) -> None:
        if code.game != self.game_id:
            raise DealCodeError(f"{code} is not a {self.title} deal")
        self.code = code
        self.custom_start = False
        """Started from a given position (:meth:`starting_from`): it has no record."""
        self._start: P = self.deal(code)
        self.steps: list[Step[P, M]] = []
        """The actions played, in order, each with its moves and the positions they reached."""
        self.undone: list[Step[P, M]] = []
        """The actions Undo took back, the next to redo last (a new action drops them)."""
        self.undo_floor = 0
        """Moves before this one can no longer be undone (Undo reaches back
        :data:`UNDO_LIMIT`)."""
        self.clock = Clock()

    @classmethod
    def starting_from(cls, code: DealCode, start: P) -> Self:
        """A game that starts from a given position instead of the deal (seeds and tests).

        Such a game cannot be saved: its record would replay from the deal.
        """
        game = cls(code)
        game._start = start
        game.custom_start = True
        return game

    # --- what each game supplies -------------------------------------------------------------

    @classmethod
    @abstractmethod
    def deal(cls, code: DealCode) -> P:
        """The start position of a deal."""

    @classmethod
    @abstractmethod
    def check(cls, position: P, move: M) -> Refusal | None:
        """Why the rules refuse ``move`` in ``position``, or ``None`` when they allow it."""

    @classmethod
    @abstractmethod
    def result(cls, position: P, move: M) -> P:
        """The position after a move :meth:`check` allowed (nothing is checked again)."""

    @classmethod
    @abstractmethod
    def generate(cls, position: P) -> Iterator[M]:
        """Every legal move of ``position``, in a fixed order."""

    @classmethod
    @abstractmethod
    def parse_move(cls, text: str) -> M:
        """The move ``str(move)`` printed.

        :raises MoveParseError: when ``text`` is not a move of this game.
        """

    @abstractmethod
    def status(self) -> Status:
        """Playing, won, or ended without a win (Half Moon stuck, Seahaven lost)."""

    @property
    @abstractmethod
    def score(self) -> int:
        """The points of the current position (never below zero)."""

    @classmethod
    def points(cls, position: P) -> int:
        """The points of a position reached from its deal (a replay's step shows them): what
        :attr:`score` is once the game stands there."""
        raise NotImplementedError(f"{cls.title} has no points of a position")

    @classmethod
    def forget_searches(cls) -> None:
        """Let go of whatever the game's solver keeps from one call to the next in this thread
        (an analysis calls it when it ends: a proof-pool worker holds nothing between
        analyses). Nothing by default."""

    @classmethod
    def solve(cls, code: DealCode, budget: int | None = None) -> Solution:
        """The solver's verdict on a deal and its winning line as a player reads it (a tool:
        ``python -m app.engine.solve_cli``; the game screens never offer it)."""
        raise NotImplementedError(f"{cls.title} has no solver")

    @classmethod
    def solve_position(
        cls, position: P, budget: int | None = None, deadline: float | None = None
    ) -> SolveResult[M]:
        """The solver's verdict on ``position``: ``WON`` with a line that replays through
        :meth:`apply` to a win, ``NO_WIN`` only when the search ran to its end, ``UNDECIDED``
        when ``budget`` positions or the ``time.monotonic()`` ``deadline`` ran out first."""
        raise NotImplementedError(f"{cls.title} has no solver")

    @classmethod
    def verdict_key(cls, position: P) -> str:
        """A short canonical key of what the lost verdict on ``position`` depends on: positions
        with one key have one verdict, and no two games share a key (kept by the stores)."""
        raise NotImplementedError(f"{cls.title} proves no position lost")

    @classmethod
    def prove_lost(
        cls, position: P, budget: int | None = None, deadline: float | None = None
    ) -> bool | None:
        """Whether ``position`` is lost, searched within ``budget`` positions (the game's own
        when ``None``) and the ``time.monotonic()`` ``deadline``; ``None``: undecided."""
        raise NotImplementedError(f"{cls.title} proves no position lost")

    @classmethod
    def walk(cls, start: P, moves: Sequence[M], every: int) -> Walk[P]:
        """Check ``moves`` in order from ``start``, each by :meth:`check` in the position the
        moves before it reached, up to the first the rules refuse; keep the position after
        every ``every`` moves. :func:`walk_by_rules` is the definition: a game may walk faster
        (Seahaven changes one board in place) but never differently (``tests/engine/
        test_walk.py`` holds every game's walk to it)."""
        return walk_by_rules(cls, start, moves, every)

    @classmethod
    def canonical_move(cls, move: M) -> M:
        """The move as the game records it (Half Moon sorts a plain tuple of places)."""
        return move

    @classmethod
    def may_join(cls, moves: Sequence[M]) -> bool:
        """Whether these moves may be one action, undone as one (a record saying so is
        refused otherwise). None may by default; Seahaven's *Send all home* joins foundation
        moves."""
        return len(moves) == 1

    # --- the shared vocabulary ---------------------------------------------------------------

    @classmethod
    def apply(cls, position: P, move: M) -> P:
        """The position after ``move``: one check, then the move.

        :raises IllegalMoveError: when the rules refuse it (nothing changes).
        """
        refusal = cls.check(position, move)
        if refusal is not None:
            raise IllegalMoveError(f"{move}: {refusal}", refusal)
        return cls.result(position, move)

    @classmethod
    def legal_moves_of(cls, position: P) -> LegalMoves[P, M]:
        return LegalMoves(position, cls.generate, cls.check)

    def legal_moves(self) -> LegalMoves[P, M]:
        """The legal moves now: ``move in game.legal_moves()``, ``len(…)``, iteration."""
        return self.legal_moves_of(self.position)

    def is_won(self) -> bool:
        return self.status() is Status.WON

    @classmethod
    def refusal_of(cls, key: str) -> Refusal | None:
        """The refusal of this game's actions that :attr:`Refusal.key` ``key`` names."""
        return Refusal.from_key(key, cls.reasons)

    def may_refuse(self, refusal: Refusal) -> bool:
        """Whether an action of this game could give ``refusal`` now (a refusal named in a
        link is shown only when it could be true: a crafted link cannot mislead)."""
        return refusal.reason in self.reasons and refusal.limit is None

    def is_over(self) -> bool:
        """Won, stuck or lost: the clock stops."""
        return self.status() is not Status.PLAYING

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
        return self.steps[-1].after if self.steps else self._start

    @property
    def start_position(self) -> P:
        return self._start

    @property
    def move_count(self) -> int:
        return self.steps[-1].total if self.steps else 0

    @property
    def moves(self) -> list[M]:
        """Every move played from the deal, in order (a new list: the history is
        :attr:`steps`)."""
        return [move for step in self.steps for move in step.moves]

    @property
    def last_move(self) -> M | None:
        return self.steps[-1].moves[-1] if self.steps else None

    @property
    def redo_stack(self) -> list[M]:
        """The moves Redo would play, the next one last (a new list, read from :attr:`undone`)."""
        return [move for step in self.undone for move in reversed(step.moves)]

    @property
    def redo_count(self) -> int:
        """How many moves Redo could replay."""
        return self.undone[0].total - self.move_count if self.undone else 0

    def can_undo(self) -> bool:
        """There is an action to take back, all of its moves above the undo floor."""
        return bool(self.steps) and self.steps[-1].first >= self.undo_floor

    def can_redo(self) -> bool:
        return bool(self.undone)

    def _push(self, move: M, position: P, now: int) -> None:
        """Record an applied move: a new branch of history, so the redo stack is dropped."""
        self._push_joined([move], [position], now)

    def _push_joined(self, moves: Sequence[M], positions: Sequence[P], now: int) -> None:
        """Record applied moves as one action (each move counts as a move, one Undo takes them
        all back): a new branch of history, so what Undo took back is dropped."""
        self.undone.clear()
        self._step(Step(tuple(moves), tuple(positions), self.move_count + len(moves)), now)

    def _step(self, step: Step[P, M], now: int) -> None:
        self.steps.append(step)
        self.undo_floor = max(self.undo_floor, step.total - UNDO_LIMIT)
        self.clear_selection()
        self._tick(now)

    def play(self, move: M, now: int | None = None) -> P:
        """Check a move, make it and record it.

        :raises IllegalMoveError: when the rules refuse it; the game is unchanged.
        """
        move = self.canonical_move(move)
        position = self.apply(self.position, move)
        self._push(move, position, now_ms() if now is None else now)
        return position

    def _play_allowed(self, move: M, now: int | None) -> None:
        """Make and record a move the action has just checked (no second check)."""
        self._push(move, self.result(self.position, move), now_ms() if now is None else now)

    def undo(self, now: int | None = None) -> bool:
        """Take back the last action (its moves) within the undo limit; ``False`` when there
        is none."""
        if not self.can_undo():
            return False
        self.undone.append(self.steps.pop())
        self.clear_selection()
        self._tick(now_ms() if now is None else now)
        return True

    def redo(self, now: int | None = None) -> bool:
        """Replay the last undone action; ``False`` when there is none. Its step comes back
        as it was: it was taken back from this very position."""
        if not self.undone:
            return False
        self._step(self.undone.pop(), now_ms() if now is None else now)
        return True

    def restart(self) -> None:
        """The same deal from the beginning: moves, redo, selection and clock all reset."""
        self.steps.clear()
        self.undone.clear()
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

    def history_text(self) -> tuple[str, str, int] | None:
        """The history as a record writes it: the actions played, what Redo would play (the
        next first) and the undo floor; ``None`` for a game started from a custom board (its
        moves do not start from the deal). The page's copy of the rules replays it to draw
        Undo and Redo at once (static/js/instant.js)."""
        if self.custom_start:
            return None
        return _actions_text(self.steps), _actions_text(reversed(self.undone)), self.undo_floor

    def to_record(self) -> dict[str, Any]:
        """A compact JSON-compatible snapshot; :meth:`from_record` rebuilds the exact game."""
        if self.custom_start:
            raise RecordError("a game started from a custom board has no record")
        return {
            "v": RECORD_VERSION,
            "code": str(self.code),
            "moves": _actions_text(self.steps),
            "redo": _actions_text(reversed(self.undone)),
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
        actions = cls._decode_moves(record["moves"])
        redo_actions = cls._decode_moves(record["redo"])
        if sum(map(len, actions)) + sum(map(len, redo_actions)) > MAX_RECORD_MOVES:
            raise RecordError(f"a record holds at most {MAX_RECORD_MOVES} moves")
        game.steps = cls._replayed(game.start_position, 0, actions)
        # what Redo would play must itself replay from the current position
        redo = cls._replayed(game.position, game.move_count, redo_actions)
        game.undone = redo[::-1]
        floor, moves = record["floor"], game.move_count
        if not _is_count(floor) or floor > moves or floor < moves - UNDO_LIMIT:
            raise RecordError(f"undo floor {floor!r} is impossible after {moves} moves")
        game.undo_floor = floor
        game.restore_selection(sel)
        game.clock = Clock.from_list(record["clock"])
        return game

    @classmethod
    def record_moves(cls, text: Any) -> list[M]:
        """The moves a record's ``moves`` (or ``redo``) field holds, in order, unchecked (an
        action of several moves is as many moves).

        :raises RecordError: when ``text`` is not moves of this game in its notation.
        """
        return [move for action in cls._decode_moves(text) for move in action]

    @classmethod
    def _decode_moves(cls, text: Any) -> list[list[M]]:
        """The actions of a record's ``moves`` or ``redo``: actions joined by ``.``, the moves
        of one action (:meth:`may_join`) by ``+``."""
        if not isinstance(text, str):
            raise RecordError("moves must be text")
        if not text:
            return []
        if text.count(".") + text.count("+") >= MAX_RECORD_MOVES:
            raise RecordError(f"a record holds at most {MAX_RECORD_MOVES} moves")
        try:
            actions = [
                [cls.parse_move(part) for part in action.split("+")] for action in text.split(".")
            ]
        except MoveParseError as error:
            raise RecordError(str(error)) from None
        for action in actions:
            if len(action) > 1 and not cls.may_join(action):
                raise RecordError(f"{'+'.join(map(str, action))!r} cannot be one action")
        return actions

    @classmethod
    def _checked_apply(cls, position: P, move: M) -> P:
        try:
            return cls.apply(position, move)
        except IllegalMoveError as error:
            raise RecordError(f"the record replays an illegal move: {error}") from None

    @classmethod
    def _replayed(cls, position: P, total: int, actions: list[list[M]]) -> list[Step[P, M]]:
        """The steps of ``actions`` played from ``position`` after ``total`` moves, each move
        checked by the rules.

        :raises RecordError: when one is illegal.
        """
        steps = []
        for action in actions:
            positions = []
            for move in action:
                position = cls._checked_apply(position, move)
                positions.append(position)
            total += len(action)
            steps.append(Step(tuple(action), tuple(positions), total))
        return steps

    def replay(self, moves: Iterable[M], now: int | None = None) -> None:
        """Play several moves in order (tests, solver lines)."""
        for move in moves:
            self.play(move, now)

    def copy(self) -> Self:
        """An independent copy without a replay, every field named (python-chess's ``copy``):
        steps and positions are immutable values, so the copy shares them and only the lists
        are new (a few microseconds for 5,000 moves, where :meth:`from_record` replays them
        all). A game's own fields are copied by :meth:`_copy_state`."""
        clone = object.__new__(type(self))
        clone.code = self.code
        clone.custom_start = self.custom_start
        clone._start = self._start
        clone.steps = list(self.steps)
        clone.undone = list(self.undone)
        clone.undo_floor = self.undo_floor
        clone.clock = Clock(self.clock.elapsed_ms, self.clock.running_since)
        self._copy_state(clone)
        return clone

    @abstractmethod
    def _copy_state(self, clone: Self) -> None:
        """Set each of a game's own fields on ``clone`` (mutable ones copied, immutable values
        such as a selection shared)."""

    @property
    def positions(self) -> Sequence[P]:
        """Every position from the deal to now (read-only view for analysis)."""
        return (self._start, *(p for step in self.steps for p in step.positions))


def walk_by_rules(game: type[Game[P, M]], start: P, moves: Sequence[M], every: int) -> Walk[P]:
    """:meth:`Game.walk` by the rules' own :meth:`~Game.check` and :meth:`~Game.result`, one
    immutable position after another."""
    position = start
    kept = [start]
    for index, move in enumerate(moves):
        refusal = game.check(position, move)
        if refusal is not None:
            return Walk(tuple(kept), refused=index, refusal=refusal)
        position = game.result(position, move)
        if (index + 1) % every == 0:
            kept.append(position)
    return Walk(tuple(kept))
