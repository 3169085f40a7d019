"""The Examples page's replays: fixed deals of ours, every step a real engine position.

The deals and their move lists are fixed here (found offline with the solvers, once); each step
is the engine's position after replaying the moves before it — positions are never written by
hand. No page offers a replay or a solution for any other deal (the documents: no solver, no
hint, the app does not say whether a deal can be won).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, TypeVar

from app.engine.cards import Card
from app.engine.codes import DealCode
from app.engine.game import Outcome
from app.engine.halfmoon import HalfMoon, Removal, parse_place, place_name
from app.engine.seahaven import (
    ActionResult,
    Move,
    Position,
    Seahaven,
    max_group,
)

G = TypeVar("G", HalfMoon, Seahaven)

HALF_MOON_DEAL: Final = DealCode.parse("HM1-N-AAAAAAI")
"""Half Moon deal 8: its first move is a pair between two piles that uncovers a jack, which the
second move takes with a queen and a king — like the documents' own worked example."""

HALF_MOON_LINE: Final = (
    "pile-2 pile-11",
    "pile-1 pile-2 pile-9",
    "pile-4 pile-11",
    "pile-4 pile-12",
    "pile-3 pile-12",
    "pile-4 pile-6",
    "pile-2 reserve-6",
    "pile-2 pile-6",
    "pile-4 pile-6",
    "pile-1 pile-3 pile-6",
    "pile-1 pile-6",
    "pile-6 pile-7",
    "pile-6 reserve-4",
    "pile-1 reserve-1",
    "pile-1 reserve-2",
    "pile-1 pile-7",
    "pile-7 reserve-3",
    "pile-1 pile-5 pile-7",
    "pile-7 pile-8",
    "pile-8 pile-9",
    "pile-1 pile-6",
    "pile-7 pile-9",
    "pile-4 pile-7 pile-10",
    "pile-2 pile-8",
    "pile-2 pile-3",
    "pile-2 pile-7",
    "pile-5 pile-11",
    "pile-12 reserve-8",
    "pile-8 pile-10 pile-12",
    "pile-9 pile-10 pile-12",
    "pile-2 pile-9",
    "pile-5 pile-10",
    "pile-4 pile-10",
    "pile-4 pile-11",
    "pile-5 pile-11",
    "pile-10 pile-12",
    "pile-5 pile-10",
    "pile-3 pile-10 pile-11",
    "pile-8 pile-9 pile-11",
    "pile-5 pile-8",
    "pile-3 pile-4",
    "pile-5 pile-11",
    "pile-5 reserve-5",
    "pile-9 pile-12",
    "pile-3 pile-12",
    "pile-3 reserve-7",
    "pile-3 pile-8",
    "pile-8 pile-9",
)
"""The won game, one removal a line: the places the player taps (the Half Moon solver's line)."""

SEAHAVEN_DEAL: Final = DealCode.parse("SH1-C4-AAAAAAA")
SEAHAVEN_LINE: Final = [
    "jH",
    "gh",
    "gm",
    "gH",
    "ea",
    "fn",
    "kf",
    "gk",
    "gD",
    "dD",
    "jf",
    "mj",
    "fb4",
    "fa",
    "fD",
    "cj",
    "kc",
    "dk",
    "dc",
    "dm",
    "dS",
    "hd2",
    "ch3",
    "ec2",
    "hc4",
    "kf",
    "ek",
    "ed",
    "nd",
]
"""The first 29 moves of the Seahaven solver's winning line for deal 0 (record notation,
``docs/seahaven.md``): they leave one free cell, two empty columns and the king-led run
K♥ … 7♥ (seven cards) on column 3."""

SEAHAVEN_REFUSED: Final = ("column-3", "KH", "column-5")
"""The seven-card run K♥ … 7♥ into an empty column: at most 4 may go there."""
SEAHAVEN_ALLOWED: Final = ("column-2", "8S", "column-8")
"""The five-card run 8♠ … 4♠ onto 9♠: up to 8 may move onto a column."""


class ExampleError(AssertionError):
    """A fixed example no longer replays as written (an engine change broke it)."""


@dataclass(frozen=True, slots=True)
class Removed:
    """One card of a removal: where it was and what it uncovered there."""

    card: Card
    place: str
    uncovered: Card | None
    """The card now on top of that pile (``None``: the pile or reserve slot is empty)."""


@dataclass(frozen=True, slots=True)
class HalfMoonStep:
    number: int
    """0 is the deal; step n shows the table after the n-th removal."""
    game: HalfMoon
    removed: tuple[Removed, ...]
    """The removal that led here (empty for the deal)."""
    next_places: tuple[str, ...]
    """The places the next removal takes (empty after the last)."""


def _replay_half_moon(game: HalfMoon, line: str) -> Removal:
    """Tap the places of one removal, as a player would; return what the engine removed."""
    places = line.split()
    result = None
    for name in places:
        card = game.position.top(parse_place(name))
        if card is None:
            raise ExampleError(f"{name} is empty at move {game.move_count + 1}")
        result = game.tap(name, card, now=0)
    if result is None or result.outcome is not Outcome.REMOVED or result.move is None:
        raise ExampleError(f"{line!r} removed nothing at move {game.move_count + 1}")
    return result.move


def _copy(game: G) -> G:
    """An independent copy of a game (a step keeps its own)."""
    return type(game).from_record(game.to_record())


@functools.cache
def half_moon_steps() -> tuple[HalfMoonStep, ...]:
    """The won game, step by step (49 steps: the deal and 48 removals)."""
    game = HalfMoon(HALF_MOON_DEAL)
    steps = []
    removed: tuple[Removed, ...] = ()
    for number in range(len(HALF_MOON_LINE) + 1):
        upcoming = tuple(HALF_MOON_LINE[number].split()) if number < len(HALF_MOON_LINE) else ()
        steps.append(HalfMoonStep(number, _copy(game), removed, upcoming))
        if not upcoming:
            break
        before = game.position
        removal = _replay_half_moon(game, HALF_MOON_LINE[number])
        removed = tuple(
            Removed(_top(before, p), place_name(p), game.position.top(p)) for p in removal
        )
    return tuple(steps)


def _top(position: object, place: int) -> Card:
    card = position.top(place)  # type: ignore[attr-defined]
    assert isinstance(card, Card)
    return card


@dataclass(frozen=True, slots=True)
class SeahavenStep:
    number: int
    game: Seahaven
    move: Move | None
    """The move that led here (``None`` for the deal)."""
    before: Position | None
    """The position the move was made in (to name its cards)."""


@dataclass(frozen=True, slots=True)
class GroupCase:
    """The documents' group-size case, on the position after :data:`SEAHAVEN_LINE`."""

    step: int
    """The step whose position holds the case."""
    free_cells: int
    empty_columns: int
    limit: int
    """The largest group onto a column: ``(free cells + 1) × 2^(empty columns)``."""
    limit_into_empty: int
    """The largest group into one of the empty columns (that column does not count)."""
    refused: tuple[str, Card, str, int]
    """Source, bottom card, target and size of the refused move."""
    refusal: ActionResult[Move]
    allowed: tuple[str, Card, str, int]


def _run_size(position: Position, source: str, card: Card) -> int:
    column = position.columns[int(source.split("-")[1]) - 1]
    return len(column) - column.index(card)


@functools.cache
def seahaven_steps() -> tuple[tuple[SeahavenStep, ...], GroupCase]:
    """From the deal to the case (29 moves), then the allowed move (step 30)."""
    game = Seahaven(SEAHAVEN_DEAL)
    steps = [SeahavenStep(0, _copy(game), None, None)]
    for number, text in enumerate(SEAHAVEN_LINE, 1):
        before = game.position
        move = Move.parse(text)
        game.play(move, now=0)
        steps.append(SeahavenStep(number, _copy(game), move, before))
    case_step = len(steps) - 1
    position = game.position
    source, card_text, target = SEAHAVEN_REFUSED
    refused_card = Card.parse(card_text)
    trial = _copy(game)
    refusal = trial.move(source, refused_card, target, now=0)
    if refusal.outcome is not Outcome.REFUSED or trial.position != position:
        raise ExampleError(f"the refused move was not refused: {refusal}")
    a_source, a_card_text, a_target = SEAHAVEN_ALLOWED
    allowed_card = Card.parse(a_card_text)
    before = game.position
    allowed = game.move(a_source, allowed_card, a_target, now=0)
    if allowed.outcome is not Outcome.MOVED or allowed.move is None:
        raise ExampleError(f"the allowed move was refused: {allowed}")
    steps.append(SeahavenStep(len(steps), _copy(game), allowed.move, before))
    case = GroupCase(
        step=case_step,
        free_cells=position.free_cells,
        empty_columns=position.empty_columns,
        limit=max_group(position, False),
        limit_into_empty=max_group(position, True),
        refused=(source, refused_card, target, _run_size(position, source, refused_card)),
        refusal=refusal,
        allowed=(a_source, allowed_card, a_target, _run_size(position, a_source, allowed_card)),
    )
    return tuple(steps), case


def moved_cards(step: SeahavenStep) -> Sequence[Card]:
    """The cards a Seahaven step moved, bottom first."""
    if step.move is None or step.before is None:
        return ()
    source, count, _ = step.move
    position = step.before
    if source < len(position.columns):
        return position.columns[source][-count:]
    top = position.top(source)
    return (top,) if top is not None else ()
