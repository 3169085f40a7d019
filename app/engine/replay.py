"""A game's line replayed from its deal: any step's position without replaying the whole line.

A :class:`Line` is a deal code and the moves played from its deal, every one checked by the
rules when the line is made. It keeps the position after every :data:`SNAPSHOT_EVERY` moves,
so the position after step ``n`` costs at most ``SNAPSHOT_EVERY - 1`` moves replayed (already
checked: :meth:`Game.result <app.engine.game.Game.result>`), whatever the line's length.

A line's text form is the deal code on the first line, then one move per line in the game's
own notation (``str(move)``, which ``parse_move`` reads back)::

    >>> line = Line.from_text("HM1-N-AAAAAAB\\nae\\n")
    >>> len(line), str(line.move(1)), line.text()
    (1, 'ae', 'HM1-N-AAAAAAB\\nae\\n')
    >>> line.position(1) == line.game.result(line.position(0), line.move(1))
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

from app.engine.codes import DealCode, DealCodeError
from app.engine.game import MAX_RECORD_MOVES, Game, MoveParseError, RecordError, Refusal
from app.engine.games import UnknownGameError, game_by_id

P = TypeVar("P")
M = TypeVar("M")

SNAPSHOT_EVERY: Final = 32
"""A position is kept every this many moves: a step replays fewer moves than this."""

MOVE_TEXT_MAX: Final = 4
"""The longest move in either game's notation: Seahaven's thirteen cards, ``ab13`` (Half
Moon's triple, ``bcl``, is 3)."""

CODE_TEXT_MAX: Final = 64
"""The longest deal code :meth:`DealCode.parse <app.engine.codes.DealCode.parse>` reads (the
site writes 13 or 14 characters)."""

TEXT_MAX: Final = CODE_TEXT_MAX + 1 + MAX_RECORD_MOVES * (MOVE_TEXT_MAX + 1)
"""The longest text :meth:`Line.text` writes: the code's line and :data:`MAX_RECORD_MOVES`
moves of :data:`MOVE_TEXT_MAX` characters, each line ending in a newline (25,065)."""


@dataclass(frozen=True, slots=True)
class LineError(ValueError):
    """A line of a game's text that is not what the text form accepts there: ``kind`` says
    what was expected — ``code`` (line 1: a deal code), ``move`` (a move of the game's
    notation), ``illegal`` (a move the rules refuse in the position reached: ``refusal``),
    ``empty`` (no text at all) or ``too_long`` (more than :data:`MAX_RECORD_MOVES` moves)."""

    kind: str
    number: int
    """The line of the text (1 is the deal code's), as an editor numbers them."""
    text: str = ""
    """What the line holds (cut to 40 characters)."""
    refusal: Refusal | None = None
    game: type[Game[Any, Any]] | None = None
    """The game whose moves were expected (``None`` before the deal code is read)."""

    def __str__(self) -> str:
        why = f": {self.refusal}" if self.refusal is not None else ""
        return f"line {self.number}: {self.kind} {self.text!r}{why}"


class Line(Generic[P, M]):
    """The moves of one game from its deal, each checked by the rules, with snapshots."""

    __slots__ = ("_moves", "_text", "_walk", "code", "game")

    def __init__(self, game: type[Game[P, M]], code: DealCode, moves: Sequence[M]) -> None:
        """Replay ``moves`` from ``code``'s deal through the rules.

        :raises LineError: (``illegal``, its ``number`` the move's 1-based index plus one —
            the move's line in the text form) at the first move the rules refuse.
        :raises LineError: (``too_long``) past :data:`MAX_RECORD_MOVES` moves.
        """
        if len(moves) > MAX_RECORD_MOVES:
            raise LineError("too_long", MAX_RECORD_MOVES + 2, game=game)
        self.game = game
        self.code = code
        if game.canonical_move.__func__ is Game.canonical_move.__func__:  # type: ignore[attr-defined]
            self._moves: tuple[M, ...] = tuple(moves)  # every move is its own canonical form
        else:
            self._moves = tuple(game.canonical_move(m) for m in moves)
        walked = game.walk(game.deal(code), self._moves, SNAPSHOT_EVERY)
        if walked.refused is not None:
            move = self._moves[walked.refused]
            raise LineError("illegal", walked.refused + 2, str(move), walked.refusal, game)
        self._walk = walked
        self._text: str | None = None

    def __len__(self) -> int:
        return len(self._moves)

    @property
    def moves(self) -> tuple[M, ...]:
        return self._moves

    def move(self, step: int) -> M:
        """The move that leads from step ``step - 1`` to step ``step`` (1 … ``len(self)``)."""
        if not 1 <= step <= len(self._moves):
            raise IndexError(f"step {step} has no move: a line of {len(self)} moves")
        return self._moves[step - 1]

    def position(self, step: int) -> P:
        """The position after ``step`` moves (0: the deal), from the nearest snapshot."""
        if not 0 <= step <= len(self._moves):
            raise IndexError(f"no step {step}: a line of {len(self)} moves")
        at = step // SNAPSHOT_EVERY
        position = self._walk.snapshot(at)
        for move in self._moves[at * SNAPSHOT_EVERY : step]:
            position = self.game.result(position, move)  # checked when the line was made
        return position

    def text(self) -> str:
        """The text form: the deal code, then one move a line (each line ends in a newline).
        Made once (a pasted game's every step carries it: 5,000 moves take milliseconds)."""
        if self._text is None:
            told: dict[M, str] = {}  # a long game repeats few moves: each told once
            rows = [f"{self.code}\n"]
            for move in self._moves:
                row = told.get(move)
                if row is None:
                    row = told[move] = f"{move}\n"
                rows.append(row)
            self._text = "".join(rows)
        return self._text

    @classmethod
    def from_moves_text(cls, game: type[Game[P, M]], code: DealCode, text: str) -> Line[P, M]:
        """The line a game record's ``moves`` field holds (moves joined by ``.``).

        :raises RecordError: when the text is not moves of the game, or the rules refuse one.
        """
        moves = game.record_moves(text)
        try:
            return cls(game, code, moves)
        except LineError as error:
            raise RecordError(f"the record replays an illegal move: {error}") from None

    @staticmethod
    def from_text(text: str) -> Line[Any, Any]:
        """Read the text form (blank lines and spaces around a line are ignored; line numbers
        in errors are the text's own).

        :raises LineError: at the first line that is not what is accepted there.
        """
        lines = text.splitlines()
        first = next((i for i, row in enumerate(lines) if not row.isspace() and row), None)
        if first is None:
            raise LineError("empty", 1)
        head = lines[first].strip()
        try:
            code = DealCode.parse(head)
            game = game_by_id(code.game)
        except (DealCodeError, UnknownGameError):
            raise LineError("code", first + 1, head[:40]) from None
        body = lines[first + 1 :]

        def numbers() -> list[int]:
            """The text's line number of each move."""
            return [n for n, row in enumerate(body, first + 2) if row and not row.isspace()]

        if len(body) > MAX_RECORD_MOVES and len(filled := numbers()) > MAX_RECORD_MOVES:
            raise LineError("too_long", filled[MAX_RECORD_MOVES], game=game)
        moves = []
        parsed: dict[str, Any] = {}  # a long game repeats few moves: each line read once
        for number, row in enumerate(body, first + 2):
            move = parsed.get(row)
            if move is None:
                move = row.strip()
                if not move:
                    continue
                try:
                    move = parsed[row] = game.parse_move(move)
                except MoveParseError:
                    raise LineError("move", number, move[:40], game=game) from None
            moves.append(move)
        try:
            return Line(game, code, moves)
        except LineError as error:  # name the text's own line of the refused move
            if error.kind != "illegal":
                raise
            raise LineError(
                "illegal", numbers()[error.number - 2], error.text, error.refusal, game
            ) from None
