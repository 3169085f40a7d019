"""One Pile, a toy game (never shipped: tests/toygame/ plugs it in to prove the recipe of
docs/architecture.md, *How to add a game*): five cards in one pile; a tap on the top card
takes it away; the game is won when the pile is empty."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar, Final

from app.engine import game
from app.engine.cards import Card
from app.engine.codes import DealCode, Variant
from app.engine.game import ActionResult, Game, MoveParseError, Refusal
from app.engine.rng import shuffled_cards
from app.engine.texts import N_
from app.status import Status

SIZE: Final = 5


class Outcome(game.Outcome):
    TAKEN = "taken"
    STALE = "stale"


class Reason(game.Reason):
    EMPTY = ("empty", N_("There is no card there."))


@dataclass(frozen=True, slots=True)
class Position:
    pile: tuple[Card, ...]

    def top(self) -> Card | None:
        return self.pile[-1] if self.pile else None


class Take:
    """The one move: the top card leaves (it prints as ``t``)."""

    def __str__(self) -> str:
        return "t"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Take)

    def __hash__(self) -> int:
        return 1


TAKE: Final = Take()


class OnePile(Game[Position, Take]):
    game_id: ClassVar = "OP"
    slug: ClassVar = "one-pile"
    title: ClassVar = N_("One Pile")
    variants: ClassVar = (Variant("N", N_("One Pile"), N_("One Pile")),)
    code_example: ClassVar = N_("OP1-N-AAAAAAB (One Pile)")
    notation: ClassVar = N_("A One Pile move is t.")
    reasons: ClassVar = frozenset({Reason.EMPTY})
    position_type: ClassVar = Position

    @classmethod
    def deal(cls, code: DealCode) -> Position:
        return Position(tuple(shuffled_cards(code)[:SIZE]))

    @classmethod
    def check(cls, position: Position, move: Take) -> Refusal | None:
        return None if position.pile else Refusal(Reason.EMPTY)

    @classmethod
    def result(cls, position: Position, move: Take) -> Position:
        return Position(position.pile[:-1])

    @classmethod
    def generate(cls, position: Position) -> Iterator[Take]:
        if position.pile:
            yield TAKE

    @classmethod
    def parse_move(cls, text: str) -> Take:
        if text != "t":
            raise MoveParseError(f"not a One Pile move: {text!r}")
        return TAKE

    def status(self) -> Status:
        return Status.PLAYING if self.position.pile else Status.WON

    @property
    def score(self) -> int:
        return self.points(self.position)

    @classmethod
    def points(cls, position: Position) -> int:
        return 10 * (SIZE - len(position.pile))

    def _copy_state(self, clone: OnePile) -> None:
        pass

    def take(self, card: Card, now: int) -> ActionResult[Take]:
        """A tap on the top card, which must still be ``card``."""
        if self.position.top() != card:
            return ActionResult(Outcome.STALE)
        self._push(TAKE, self.result(self.position, TAKE), now)
        return ActionResult(Outcome.TAKEN, TAKE, cards=(card,))


GAME = OnePile
