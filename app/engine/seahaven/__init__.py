"""Seahaven Towers, the game a player plays: selection, taps, double taps, drags (SPEC §3).

The rules themselves (places, positions, moves, what is legal) are
:mod:`app.engine.seahaven.rules`, re-exported here; lost detection is
:mod:`app.engine.seahaven.solver`'s search, which this module calls and which never calls back.

    >>> game = Seahaven(DealCode.parse("SH1-C4-AAAAAJ2"))
    >>> game.status().value, game.score, len(game.legal_moves()) > 0
    ('playing', 0, True)
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar, Final

from app.clock import now_ms
from app.engine import game
from app.engine.cards import KING, Card, CardParseError
from app.engine.codes import DealCode, GameId, Variant
from app.engine.game import (
    ActionResult,
    Game,
    RecordError,
    Refusal,
    Status,
    UnknownPlaceError,
    Walk,
)
from app.engine.seahaven.rules import (
    CELLS,
    COLUMN_COUNT,
    COLUMNS,
    FOUNDATIONS,
    MAX_CELLS,
    VARIANT_CELLS,
    Move,
    Place,
    Position,
    Reason,
    _iter_legal,
    apply_move,
    cell_place,
    check_move,
    column_place,
    deal_position,
    format_move,
    foundation_place,
    group_limit,
    legal_moves,
    max_group,
    move_result,
    parse_place,
    place_name,
    position_from_cards,
    walk,
)
from app.engine.seahaven.solver import (
    LOST_BUDGET,
    SOLVE_BUDGET,
    VERDICT_VERSION,
    describe_line,
    is_lost,
    position_key,
    solve,
    solve_code,
)
from app.engine.solutions import Solution, SolveResult
from app.engine.texts import N_

__all__ = [
    "CELLS",
    "COLUMNS",
    "COLUMN_COUNT",
    "FOUNDATIONS",
    "LOST_BUDGET",
    "MAX_CELLS",
    "VARIANT_CELLS",
    "VERDICT_VERSION",
    "ActionResult",
    "Move",
    "Outcome",
    "Place",
    "Position",
    "Reason",
    "Refusal",
    "Seahaven",
    "Selection",
    "apply_move",
    "cell_place",
    "cells_of",
    "check_move",
    "column_place",
    "deal_position",
    "format_move",
    "foundation_place",
    "group_limit",
    "legal_moves",
    "max_group",
    "parse_place",
    "place_name",
    "position_from_cards",
    "position_key",
]

Selection = tuple[Place, Card]
"""The place of the selected card and the card itself (the bottom of the selected run)."""


class Outcome(game.Outcome):
    """What one Seahaven action (a tap, a double tap, a drag) did."""

    SELECTED = "selected"
    DESELECTED = "deselected"
    MOVED = "moved"
    """A card or a run moved."""
    REFUSED = "refused"
    IGNORED = "ignored"
    STALE = "stale"


def cells_of(code: DealCode) -> int:
    """The cells a Seahaven deal code deals (4, 2 or 1; 0 for another game's code).

    >>> cells_of(DealCode.parse("SH1-C2-AAAAAJ2")), cells_of(DealCode.parse("HM1-N-AAAAAAB"))
    (2, 0)
    """
    return VARIANT_CELLS.get(code.variant, 0) if code.game == Seahaven.game_id else 0


@functools.lru_cache(maxsize=4096)
def home_line(position: Position) -> tuple[Move, ...] | None:
    """The foundation moves that put every card left home, when foundation moves alone can
    (issue 27, *Send all home*), else ``None``; ``None`` too for a won board (nothing left).

    The order is the one a player would tap: the lowest rank that can go first, suits in
    foundation order (S H D C) among equals. A card that can go home never stops another
    from going later, so trying them greedily decides the question exactly.

    >>> home_line(deal_position(DealCode.parse("SH1-C4-AAAAAJ2"))) is None
    True
    """
    if position.is_won():
        return None
    sources = [*COLUMNS, *CELLS[: len(position.cells)]]
    line: list[Move] = []
    while not position.is_won():
        ready = [
            (card.rank, FOUNDATIONS.index(foundation_place(card.suit)), source, card)
            for source in sources
            if (card := position.top(source)) is not None
            and position.accepts(foundation_place(card.suit), card)
        ]
        if not ready:
            return None
        _, _, source, card = min(ready)
        move = Move(source, 1, foundation_place(card.suit))
        line.append(move)
        position = move_result(position, move)
    return tuple(line)


class Seahaven(Game[Position, Move]):
    """A game of Seahaven Towers with 4, 2 or 1 cells.

    Actions the web layer calls: :meth:`tap` (single tap / select-then-destination),
    :meth:`auto` (double tap) and :meth:`move` (drag). Each validates fully and changes nothing
    when it refuses. A tap on an empty column, cell or foundation is expressed as ``card=None``.
    """

    game_id: ClassVar[GameId] = "SH"
    slug: ClassVar[str] = "seahaven"
    title: ClassVar[str] = N_("Seahaven Towers")
    variants: ClassVar = (
        Variant("C4", N_("Seahaven Towers, Easy (4 cells)"), N_("Seahaven Towers, 4 cells")),
        Variant(
            "C2",
            N_("Seahaven Towers, Medium (2 cells)"),
            N_("Seahaven Towers, 2 cells"),
            mostly_lost=True,  # 14.5 % winnable
        ),
        Variant(
            "C1",
            N_("Seahaven Towers, Hard (1 cell)"),
            N_("Seahaven Towers, 1 cell"),
            mostly_lost=True,  # 2.1 % winnable
        ),
    )
    code_example: ClassVar = N_("SH1-C4-AAAAAJ2 (Seahaven Towers, C4, C2 or C1 cells)")
    notation: ClassVar = N_(
        "A Seahaven move is the letter of the place it takes from, the letter of the place it"
        " goes to, then the number of cards when more than one moves: a to j the columns 1 to"
        " 10, k to n the cells, S H D C the foundations (for example aS, km or ch3)."
    )
    reasons: ClassVar = frozenset(Reason)
    position_type: ClassVar = Position
    lost_needs_proof: ClassVar = True

    def __init__(self, code: DealCode) -> None:
        self._selection: Selection | None = None
        super().__init__(code)
        self._lost_cache: dict[Position, bool] = {}
        self._deferred = False

    @classmethod
    def from_position(cls, position: Position | Mapping[str, Any]) -> Seahaven:
        """A game that starts from a given board (tests, seeds), through
        :meth:`Game.starting_from`: its record is refused, records rebuild games from deal codes."""
        start = position if isinstance(position, Position) else Position.from_dict(position)
        start.check()
        return cls.starting_from(DealCode("SH", 1, f"C{len(start.cells)}", 0), start)

    # --- rules -------------------------------------------------------------------------------

    @classmethod
    def deal(cls, code: DealCode) -> Position:
        return deal_position(code)

    @classmethod
    def check(cls, position: Position, move: Move) -> Refusal | None:
        return check_move(position, move)

    @classmethod
    def result(cls, position: Position, move: Move) -> Position:
        return move_result(position, move)

    @classmethod
    def generate(cls, position: Position) -> Iterator[Move]:
        return _iter_legal(position)

    @classmethod
    def walk(cls, start: Position, moves: Sequence[Move], every: int) -> Walk[Position]:
        return walk(start, moves, every)

    @classmethod
    def parse_move(cls, text: str) -> Move:
        return Move.parse(text)

    @classmethod
    def solve(cls, code: DealCode, budget: int | None = None) -> Solution:
        result = solve_code(code, budget or SOLVE_BUDGET)
        steps = describe_line(deal_position(code), result.line)
        return Solution(result.verdict, result.nodes, tuple(steps))

    @classmethod
    def solve_position(
        cls, position: Position, budget: int | None = None, deadline: float | None = None
    ) -> SolveResult[Move]:
        return solve(position, budget or SOLVE_BUDGET, deadline)

    @classmethod
    def verdict_key(cls, position: Position) -> str:
        return position_key(position)

    @classmethod
    def prove_lost(
        cls, position: Position, budget: int | None = None, deadline: float | None = None
    ) -> bool | None:
        return is_lost(position, LOST_BUDGET if budget is None else budget, deadline)

    @property
    def cell_count(self) -> int:
        return len(self.position.cells)

    @property
    def score(self) -> int:
        return self.position.score

    @classmethod
    def points(cls, position: Position) -> int:
        return position.score

    def status(self) -> Status:
        if self.position.is_won():
            return Status.WON
        return Status.LOST if self.is_lost() else Status.PLAYING

    def is_lost(self, budget: int = LOST_BUDGET) -> bool:
        """Proved that no sequence of moves can put another card on a foundation.

        Searches (up to ``budget`` positions) when the verdict on this position is not known
        yet, unless :meth:`defer_proofs` was called: then an unknown verdict counts as not
        lost, and whoever deferred proves :attr:`position` elsewhere and tells the game
        with :meth:`note_verdict`.
        """
        position = self.position
        cached = self._lost_cache.get(position)
        if cached is None:
            if self._deferred:
                return False
            cached = is_lost(position, budget) is True
            self.note_verdict(cached)
        return cached

    def _copy_state(self, clone: Seahaven) -> None:
        clone._selection = self._selection
        clone._lost_cache = dict(self._lost_cache)
        clone._deferred = self._deferred

    def defer_proofs(self) -> None:
        """Never search in :meth:`is_lost` (a server proves positions off its request path)."""
        self._deferred = True

    def verdict(self) -> bool | None:
        """Whether the current position is lost, as far as already known: ``None`` when
        nobody has proved it yet (a won position is never lost)."""
        if self.position.is_won():
            return False
        return self._lost_cache.get(self.position)

    def note_verdict(self, lost: bool, position: Position | None = None) -> None:
        """Take a verdict found elsewhere (kept with the saved game, remembered by a server,
        proved in another process) on ``position`` (default: the current one)."""
        if len(self._lost_cache) > 256:
            self._lost_cache.clear()
        self._lost_cache[self.position if position is None else position] = lost

    @classmethod
    def may_join(cls, moves: Sequence[Move]) -> bool:
        """Only *Send all home* plays several moves as one action: single cards to foundations."""
        return all(count == 1 and target in FOUNDATIONS for _, count, target in moves)

    def can_send_home(self) -> bool:
        """Only foundation moves remain: every card left can go home by them alone (the offer
        of *Send all home*; a player can see it on the board, nothing hidden is told)."""
        return home_line(self.position) is not None

    def send_home(self, now: int | None = None) -> ActionResult[Move]:
        """*Send all home*: the foundation moves of :func:`home_line`, played as one action
        (each card a move and its points as usual; one Undo takes them all back). Refused
        (``NO_DESTINATION``) when anything but foundation moves would be needed; it is a move
        the player sends, never one the game makes by itself."""
        line = home_line(self.position)
        if line is None:
            result: ActionResult[Move] = ActionResult(
                Outcome.REFUSED, refusal=Refusal(Reason.NO_DESTINATION)
            )
            return self._ticked(result, now)
        positions, position = [], self.position
        cards = []
        for move in line:
            card = position.top(move.source)
            assert card is not None
            cards.append(card)
            position = move_result(position, move)
            positions.append(position)
        self._push_joined(line, positions, now_ms() if now is None else now)
        return ActionResult(Outcome.MOVED, line[-1], cards=tuple(cards))

    def max_group(self, target_is_empty_column: bool = False) -> int:
        return max_group(self.position, target_is_empty_column)

    def may_refuse(self, refusal: Refusal) -> bool:
        """A group limit is one the board allows now (to a column, or to an empty one)."""
        if refusal.reason is Reason.GROUP_TOO_LARGE:
            return refusal.limit in (self.max_group(False), self.max_group(True))
        return super().may_refuse(refusal)

    # --- selection ---------------------------------------------------------------------------

    @property
    def selection(self) -> Selection | None:
        return self._selection

    def selected_cards(self) -> tuple[Card, ...]:
        """The selected card and the run above it (for highlighting)."""
        if self._selection is None:
            return ()
        place, card = self._selection
        if place in COLUMNS:
            column = self.position.columns[place]
            return column[column.index(card) :]
        return (card,)

    def clear_selection(self) -> None:
        self._selection = None

    def selection_text(self) -> str:
        """``column-3:7H`` or "" when nothing is selected."""
        if self._selection is None:
            return ""
        place, card = self._selection
        return f"{place_name(place)}:{card}"

    def restore_selection(self, text: str) -> None:
        if not text:
            self._selection = None
            return
        try:
            name, card_text = text.split(":")
            place = parse_place(name, self.cell_count)
            card = Card.parse(card_text)
        except (ValueError, UnknownPlaceError, CardParseError):
            raise RecordError(f"{text!r} is not a selection") from None
        if self._movable_count(place, card) is None:
            raise RecordError(f"{card} at {name} cannot be selected now")
        self._selection = (place, card)

    # --- actions -----------------------------------------------------------------------------

    def _is_there(self, place: Place, card: Card | None) -> bool:
        """Whether the player's view of ``place`` is current: ``card`` lies there (anywhere in a
        column, the top of a foundation), or ``None`` and the place is empty."""
        position = self.position
        if place in COLUMNS:
            column = position.columns[place]
            return not column if card is None else card in column
        return position.top(place) == card

    def _movable_count(self, place: Place, card: Card) -> int | None:
        """How many cards move when ``card`` is taken from ``place`` (it and the run above it),
        or ``None`` when it is not movable from there."""
        position = self.position
        if place in COLUMNS:
            column = position.columns[place]
            if card not in column:
                return None
            count = len(column) - column.index(card)
            return count if count <= position.run_length(place) else None
        return 1 if position.top(place) == card else None

    def _place(self, place: str | Place) -> Place:
        """A place on this board, by name or by the index a caller already parsed."""
        return parse_place(place if isinstance(place, str) else place_name(place), self.cell_count)

    def _play(self, move: Move, now: int | None) -> ActionResult[Move]:
        """Make a move this action has just checked (the rules are asked once per action)."""
        self._play_allowed(move, now)
        return ActionResult(Outcome.MOVED, move)

    def move(
        self, source: str | Place, card: Card | None, target: str | Place, now: int | None = None
    ) -> ActionResult[Move]:
        """Move ``card`` (the bottom of the run to move; a foundation's top card) from ``source``
        to ``target`` — a drag, or a selection followed by a destination.

        :raises UnknownPlaceError: for a place name that is not on this board.
        """
        source_place, target_place = self._place(source), self._place(target)
        return self._ticked(self._move(source_place, card, target_place, now), now)

    def _move(
        self, source: Place, card: Card | None, target: Place, now: int | None
    ) -> ActionResult[Move]:
        if card is None or not self._is_there(source, card):
            return ActionResult(Outcome.STALE if card is not None else Outcome.IGNORED)
        if source == target:
            return ActionResult(Outcome.IGNORED)
        count = self._movable_count(source, card)
        if count is None:
            return ActionResult(Outcome.REFUSED, refusal=Refusal(Reason.NOT_MOVABLE))
        move = Move(source, count, target)
        refusal = check_move(self.position, move)
        if refusal is not None:
            return ActionResult(Outcome.REFUSED, refusal=refusal)
        return self._play(move, now)

    def tap(
        self, place: str | Place, card: Card | None, now: int | None = None
    ) -> ActionResult[Move]:
        """A single tap on ``card`` at ``place`` (``card=None`` for an empty place).

        With no selection: the card goes to its foundation when it is the top card of its
        column or cell and may go there; otherwise it (with the run above it) becomes the
        selection. With a selection: tapping it again deselects; tapping a place that can take
        it moves it there; tapping a card that cannot take it (or another card of the selected
        column) is a fresh tap on that card, so no tap is lost (issue 13); tapping an empty
        place that cannot take it is refused and clears the selection.

        :raises UnknownPlaceError: for a place name that is not on this board.
        """
        tapped = self._place(place)
        if not self._is_there(tapped, card):
            return ActionResult(Outcome.STALE)
        selection = self._selection
        if selection is not None:
            if selection == (tapped, card):
                self._selection = None
                return self._ticked(ActionResult(Outcome.DESELECTED), now)
            if selection[0] != tapped:
                result = self._move(selection[0], selection[1], tapped, now)
                if result.outcome is Outcome.MOVED or card is None:
                    self._selection = None
                    return self._ticked(result, now)
            self._selection = None  # not a destination: a fresh tap on the card
        if card is None:
            return ActionResult(Outcome.IGNORED)
        count = self._movable_count(tapped, card)
        if count is None:
            return self._ticked(
                ActionResult(Outcome.REFUSED, refusal=Refusal(Reason.NOT_MOVABLE)), now
            )
        if count == 1 and tapped not in FOUNDATIONS:
            home = foundation_place(card.suit)
            if self.position.accepts(home, card):
                return self._play(Move(tapped, 1, home), now)
        self._selection = (tapped, card)
        return self._ticked(ActionResult(Outcome.SELECTED), now)

    def _ticked(self, result: ActionResult[Move], now: int | None) -> ActionResult[Move]:
        """A selection or a refusal is an action too: the clock starts with the first one."""
        if result.outcome in (Outcome.SELECTED, Outcome.DESELECTED, Outcome.REFUSED):
            self._tick(now_ms() if now is None else now)
        return result

    def auto(
        self, place: str | Place, card: Card | None, now: int | None = None
    ) -> ActionResult[Move]:
        """A double tap: the card (with its run) goes to its foundation, else onto the longest
        column that accepts it, else (a king) to an empty column, else to an empty cell.

        :raises UnknownPlaceError: for a place name that is not on this board.
        """
        return self._ticked(self._auto(place, card, now), now)

    def _auto(self, place: str | Place, card: Card | None, now: int | None) -> ActionResult[Move]:
        source = self._place(place)
        if card is None:
            return ActionResult(Outcome.IGNORED)
        if not self._is_there(source, card):
            return ActionResult(Outcome.STALE)
        count = self._movable_count(source, card)
        if count is None:
            return ActionResult(Outcome.REFUSED, refusal=Refusal(Reason.NOT_MOVABLE))
        position = self.position
        too_large: Refusal | None = None
        for target in self._auto_targets(source, card, count):
            refusal = check_move(position, Move(source, count, target))
            if refusal is None:
                return self._play(Move(source, count, target), now)
            if refusal.reason is Reason.GROUP_TOO_LARGE and too_large is None:
                too_large = refusal
        if too_large is not None:
            return ActionResult(Outcome.REFUSED, refusal=too_large)
        return ActionResult(Outcome.REFUSED, refusal=Refusal(Reason.NO_DESTINATION))

    def finish_double_tap(
        self, place: str | Place, card: Card | None, now: int | None = None
    ) -> ActionResult[Move]:
        """The second click of a double tap whose first click was already played as a
        :meth:`tap` (the page sends every click at once and never waits to see whether a second
        one follows). The game ends as :meth:`auto` alone would have left it:

        - the first click selected the card: the selection goes, then the double tap's move is
          made; a refused double tap leaves nothing selected;
        - the first click sent the card to its foundation: that is where the double tap sends it
          too (the foundation comes first), so nothing more happens;
        - the first click put the selection onto this card (a destination): the move is made and
          this click adds nothing — a double click on a destination never flings the pile on;
        - otherwise (the first click deselected the card, or was refused) the double tap's move
          is made now.

        :raises UnknownPlaceError: for a place name that is not on this board.
        """
        tapped = self._place(place)
        if card is None:
            return ActionResult(Outcome.IGNORED)
        if self._selection == (tapped, card):
            self._selection = None
            return self.auto(place, card, now)
        done = self._done_by_first_click(tapped, card)
        if done is not None:
            return ActionResult(Outcome.MOVED, done)
        return self.auto(place, card, now)

    def _done_by_first_click(self, tapped: Place, card: Card) -> Move | None:
        """The last move, when it is what the first click of this double tap did: ``card`` went
        from ``tapped`` to its foundation, or a run landed on ``card`` at ``tapped``."""
        last = self.last_move
        if last is None or self._selection is not None:
            return None
        source, count, target = last
        position = self.position
        if source == tapped and count == 1 and target == foundation_place(card.suit):
            return last if position.top(target) == card else None
        if target != tapped or source == tapped:
            return None
        if tapped in COLUMNS:
            column = position.columns[tapped]
            return last if len(column) > count and column[-count - 1] == card else None
        if tapped in FOUNDATIONS:
            top = position.top(tapped)
            below = top is not None and top.rank - 1 == card.rank and top.suit == card.suit
            return last if below else None
        return None

    def _auto_targets(self, source: Place, card: Card, count: int) -> list[Place]:
        position = self.position
        targets: list[Place] = []
        if count == 1 and source not in FOUNDATIONS:
            targets.append(foundation_place(card.suit))
        filled = [
            i for i in COLUMNS if i != source and position.columns[i] and position.accepts(i, card)
        ]
        filled.sort(key=lambda i: -len(position.columns[i]))  # stable: leftmost among equals
        targets.extend(filled)
        whole_column = source in COLUMNS and count == len(position.columns[source])
        if card.rank == KING and not whole_column:  # moving a column's own base is no move
            targets.extend(i for i in COLUMNS if not position.columns[i])
        if count == 1 and source not in CELLS:
            targets.extend(CELLS[: self.cell_count])
        return targets


GAME: Final = Seahaven
"""This package's game (the table of games, :mod:`app.engine.games`, finds it here)."""
