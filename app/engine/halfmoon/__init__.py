"""Half Moon: two decks, twelve piles in an arc, an eight-card reserve; remove elevens and J-Q-K.

Rules as the documents give them (SPEC §2). Places are numbered 0 … 19 inside the engine and
named ``pile-1`` … ``pile-12`` and ``reserve-1`` … ``reserve-8`` outside it:

>>> game = HalfMoon(DealCode.parse("HM1-N-AAAAAAB"))
>>> [place_name(i) for i in (0, 11, 12, 19)]
['pile-1', 'pile-12', 'reserve-1', 'reserve-8']
>>> sum(len(pile) for pile in game.position.piles), len(game.position.reserve)
(96, 8)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar, Final

from app.clock import now_ms
from app.engine.cards import Card
from app.engine.codes import DealCode, Variant
from app.engine.game import ActionResult, Game, MoveParseError, RecordError, Refusal, Status
from app.engine.halfmoon import rules, solver
from app.engine.halfmoon.rules import (
    _FACES,
    _LETTERS,
    CARDS,
    DECKS,
    FACE_CARDS,
    PAIR_POINTS,
    PILE_SIZE,
    PILES,
    PLACES,
    RESERVE,
    TRIPLE_POINTS,
    WON_MOVES,
    WON_SCORE,
    Outcome,
    PlaceIndex,
    Position,
    Reason,
    Removal,
    _all_cards,
    _check_index,
    _decode_places,
    _top,
    apply_move,
    deal,
    is_pair,
    is_triple,
    legal_moves,
    parse_place,
    place_name,
    position_from_data,
    position_to_data,
)
from app.engine.solutions import Solution, SolveResult
from app.engine.texts import N_

__all__ = [
    "CARDS",
    "DECKS",
    "FACE_CARDS",
    "GAME",
    "PAIR_POINTS",
    "PILES",
    "PILE_SIZE",
    "PLACES",
    "RESERVE",
    "TRIPLE_POINTS",
    "WON_MOVES",
    "WON_SCORE",
    "HalfMoon",
    "Outcome",
    "PlaceIndex",
    "Position",
    "Reason",
    "Removal",
    "apply_move",
    "deal",
    "is_pair",
    "is_triple",
    "legal_moves",
    "parse_place",
    "place_name",
    "position_from_data",
    "position_to_data",
]


class HalfMoon(Game[Position, Removal]):
    """A Half Moon game: the position stack plus the player's selection.

    The selection is the ordered places the player has tapped: one number card, or one or two
    face cards of different ranks. It is part of the game (it survives a reload) and is
    cleared whenever the position changes.
    """

    game_id: ClassVar = "HM"
    slug: ClassVar = "half-moon"
    title: ClassVar = N_("Half Moon")
    variants: ClassVar = (Variant("N", N_("Half Moon"), N_("Half Moon")),)
    decks: ClassVar = DECKS
    code_example: ClassVar = N_("HM1-N-AAAAAAB (Half Moon)")
    notation: ClassVar = N_(
        "A Half Moon move is the letters of the two or three places it removes from: a to l"
        " the piles 1 to 12, m to t the reserve places 1 to 8 (for example ae or bcl)."
    )
    reasons: ClassVar = frozenset({Reason.SUM_NOT_ELEVEN, Reason.NEED_JACK_QUEEN_KING})
    position_type: ClassVar = Position

    def __init__(self, code: DealCode) -> None:
        super().__init__(code)
        self.selection: tuple[PlaceIndex, ...] = ()

    def _copy_state(self, clone: HalfMoon) -> None:
        clone.selection = self.selection

    @classmethod
    def deal(cls, code: DealCode) -> Position:
        return deal(code)

    @classmethod
    def check(cls, position: Position, removal: Removal) -> Refusal | None:
        return rules.check(position, removal)

    @classmethod
    def result(cls, position: Position, removal: Removal) -> Position:
        return rules.result(position, removal)

    @classmethod
    def generate(cls, position: Position) -> Iterator[Removal]:
        return rules.generate(position)

    @classmethod
    def parse_move(cls, text: str) -> Removal:
        return Removal.parse(text)

    @classmethod
    def solve(cls, code: DealCode, budget: int | None = None) -> Solution:
        position = deal(code)
        result = solver.solve(position, budget or solver.SEARCH_FIRST, exact=True)
        steps = []
        for removal in result.line:
            steps.append(" + ".join(f"{place_name(p)} {position.top(p)}" for p in removal))
            position = apply_move(position, removal)
        return Solution(result.verdict, result.nodes, tuple(steps))

    @classmethod
    def solve_position(
        cls, position: Position, budget: int | None = None, deadline: float | None = None
    ) -> SolveResult[Removal]:
        return solver.solve(
            position, budget or solver.SEARCH_FIRST, deadline, deep_first=True, exact=True
        )

    @classmethod
    def forget_searches(cls) -> None:
        solver.forget()

    @classmethod
    def canonical_move(cls, move: Removal) -> Removal:
        return Removal(move)

    # --- state the screens show --------------------------------------------------------------

    def status(self) -> Status:
        position = self.position
        if position.is_won():
            return Status.WON
        return Status.STUCK if position.is_stuck() else Status.PLAYING

    def is_stuck(self) -> bool:
        return self.status() is Status.STUCK

    @property
    def score(self) -> int:
        """+10 a pair, +15 a triple; it can only grow, so it never drops below zero."""
        return sum(move.points for step in self.steps for move in step.moves)

    @classmethod
    def points(cls, position: Position) -> int:
        """The number cards gone came in pairs, the face cards in triples.

        >>> HalfMoon.points(deal(DealCode.parse("HM1-N-AAAAAAB")))
        0
        """
        left = [card for _, card in _all_cards(position)]
        faces = sum(card.is_face for card in left)
        numbers_gone, faces_gone = CARDS - FACE_CARDS - (len(left) - faces), FACE_CARDS - faces
        return numbers_gone // 2 * PAIR_POINTS + faces_gone // 3 * TRIPLE_POINTS

    def selected_cards(self) -> tuple[Card, ...]:
        return tuple(_top(self.position, p) for p in self.selection)

    def dimmed(self) -> frozenset[PlaceIndex]:
        """*Placement help*: playable places whose card cannot combine with the selection.

        With a number card selected, only its complement to 11 stays lit; with face cards
        selected, only the face ranks still missing from the triple stay lit. The selection
        itself is never dimmed; with no selection nothing is.
        """
        if not self.selection:
            return frozenset()
        chosen = self.selected_cards()
        if not chosen[0].is_face:
            wanted = {11 - chosen[0].rank}
        else:
            wanted = set(_FACES) - {c.rank for c in chosen}
        return frozenset(
            place
            for place, card in self.position.playable()
            if place not in self.selection and card.rank not in wanted
        )

    # --- taps --------------------------------------------------------------------------------

    def tap(
        self, place: str | PlaceIndex, card: Card, now: int | None = None
    ) -> ActionResult[Removal]:
        """One tap on ``card``, which the player saw at ``place`` (SPEC §2, Taps).

        :raises UnknownPlaceError: when ``place`` is not a place of the board.
        """
        index = parse_place(place) if isinstance(place, str) else _check_index(place)
        top = self.position.top(index)
        if top is None:
            return ActionResult(Outcome.IGNORED)
        if top != card:
            return ActionResult(Outcome.STALE)
        result = self._decide(index, card)
        if result.move is not None:  # _decide made sure the cards combine
            self._play_allowed(result.move, now)
        else:
            self._tick(now_ms() if now is None else now)
        return result

    def _decide(self, index: PlaceIndex, card: Card) -> ActionResult[Removal]:
        """Work out a tap's effect on the selection; only a removal is left to the caller."""
        selection = self.selection
        if index in selection:
            self.selection = tuple(p for p in selection if p != index)
            return ActionResult(Outcome.DESELECTED)
        if not selection:
            self.selection = (index,)
            return ActionResult(Outcome.SELECTED)
        chosen = self.selected_cards()
        if not chosen[0].is_face:  # a number card waits for its complement
            if is_pair(chosen[0], card):
                return ActionResult(
                    Outcome.REMOVED, Removal((selection[0], index)), cards=(chosen[0], card)
                )
            self.selection = ()
            return ActionResult(
                Outcome.REFUSED, cards=(chosen[0], card), refusal=Refusal(Reason.SUM_NOT_ELEVEN)
            )
        if not card.is_face:
            self.selection = ()
            return ActionResult(
                Outcome.REFUSED,
                cards=(*chosen, card),
                refusal=Refusal(Reason.NEED_JACK_QUEEN_KING),
            )
        same_rank = [p for p, c in zip(selection, chosen, strict=True) if c.rank == card.rank]
        if same_rank:
            self.selection = tuple(index if p == same_rank[0] else p for p in selection)
            return ActionResult(Outcome.REPLACED)
        if len(selection) == 2:
            return ActionResult(
                Outcome.REMOVED, Removal((*selection, index)), cards=(*chosen, card)
            )
        self.selection = (*selection, index)
        return ActionResult(Outcome.SELECTED)

    # --- selection in records ----------------------------------------------------------------

    def clear_selection(self) -> None:
        self.selection = ()

    def selection_text(self) -> str:
        return "".join(_LETTERS[p] for p in self.selection)

    def restore_selection(self, text: str) -> None:
        try:
            places = _decode_places(text) if text else ()
        except MoveParseError as error:
            raise RecordError(str(error)) from None
        cards = []
        for p in places:
            card = self.position.top(p)
            if card is None:
                raise RecordError(f"the selection names the empty place {place_name(p)}")
            cards.append(card)
        ranks = [c.rank for c in cards]
        valid = (
            not cards
            or (len(cards) == 1)
            or (all(c.is_face for c in cards) and len(set(ranks)) == len(ranks) == 2)
        )
        if not valid or len(set(places)) != len(places):
            raise RecordError(f"{text!r} is not a selection a player can make")
        self.selection = tuple(places)


GAME: Final = HalfMoon
"""This package's game (the table of games, :mod:`app.engine.games`, finds it here)."""
