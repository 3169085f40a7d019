"""Seahaven's example on the Examples page: the documents' group-size case in a real game of
ours — a deal replayed to the position that holds it, the refused and the allowed group — and
each step's view (its board drawn as a diagram, the move told in words).

Deal and line are fixed here (:mod:`app.web.pages.examples`: every step a real engine position).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, Final

from app.engine.cards import Card
from app.engine.codes import DealCode
from app.engine.seahaven import (
    ActionResult,
    Move,
    Outcome,
    Position,
    Seahaven,
    max_group,
    parse_place,
)
from app.i18n import card_letters, translations
from app.web.pages.examples import ExampleError, copy_game
from app.web.rendering.diagrams import Diagram
from app.web.seahaven.places import place_text

SEAHAVEN_DEAL: Final = DealCode.parse("SH1-C4-AAAAAAA")
"""The deal of the example."""

Drawing = Callable[[Seahaven, str, Collection[str]], Diagram]
"""How a step's board is drawn: the screen's diagram (the game, the language, the ringed
cards)."""
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
    steps = [SeahavenStep(0, copy_game(game), None, None)]
    for number, text in enumerate(SEAHAVEN_LINE, 1):
        before = game.position
        move = Move.parse(text)
        game.play(move, now=0)
        steps.append(SeahavenStep(number, copy_game(game), move, before))
    case_step = len(steps) - 1
    position = game.position
    source, card_text, target = SEAHAVEN_REFUSED
    refused_card = Card.parse(card_text)
    trial = copy_game(game)
    refusal = trial.move(source, refused_card, target, now=0)
    if refusal.outcome is not Outcome.REFUSED or trial.position != position:
        raise ExampleError(f"the refused move was not refused: {refusal}")
    a_source, a_card_text, a_target = SEAHAVEN_ALLOWED
    allowed_card = Card.parse(a_card_text)
    before = game.position
    allowed = game.move(a_source, allowed_card, a_target, now=0)
    if allowed.outcome is not Outcome.MOVED or allowed.move is None:
        raise ExampleError(f"the allowed move was refused: {allowed}")
    steps.append(SeahavenStep(len(steps), copy_game(game), allowed.move, before))
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


@functools.cache
def seahaven_step_view(number: int, lang: str, diagram: Drawing) -> dict[str, Any]:
    """Step ``number`` of the example in ``lang``, its board drawn by ``diagram`` (the
    screen's: :func:`app.web.seahaven.diagram`)."""
    t = translations(lang)
    steps, case = seahaven_steps()
    step = steps[number]
    if number == case.step:  # ring the two runs of the case
        position = step.game.position
        runs = [case.refused, case.allowed]
        ringed = {
            str(c)
            for source, card, _, size in runs
            for c in position.columns[int(source.split("-")[1]) - 1][-size:]
        }
    else:  # ring what the move moved, where it went
        ringed = {str(c) for c in moved_cards(step)}
    board = diagram(step.game, lang, ringed)
    move = None
    if step.move is not None:
        cards = moved_cards(step)
        move = {
            "cards": " ".join(card_letters(c, t) for c in cards),
            "count": len(cards),
            "source": place_text(step.move.source, t),
            "target": place_text(step.move.target, t),
        }
    refused_source, refused_card, refused_target, refused_size = case.refused
    allowed_source, allowed_card, allowed_target, allowed_size = case.allowed
    return {
        "board": board,
        "move": move,
        "score": step.game.score,
        "case": {
            "step": case.step,
            "free_cells": case.free_cells,
            "empty_columns": case.empty_columns,
            "limit": case.limit,
            "limit_into_empty": case.limit_into_empty,
            "refused_card": card_letters(refused_card, t),
            "refused_size": refused_size,
            "refused_source": place_text(parse_place(refused_source), t),
            "refused_target": place_text(parse_place(refused_target), t),
            "reason": case.refusal.refusal.explain(t) if case.refusal.refusal else "",
            "allowed_card": card_letters(allowed_card, t),
            "allowed_size": allowed_size,
            "allowed_source": place_text(parse_place(allowed_source), t),
            "allowed_target": place_text(parse_place(allowed_target), t),
        },
    }
