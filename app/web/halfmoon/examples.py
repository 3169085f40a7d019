"""Half Moon's example on the Examples page: a won deal of ours replayed tap by tap, and each
step's view (its board drawn as a diagram, the removal told in words).

Deal and line are fixed here (:mod:`app.web.pages.examples`: every step a real engine position).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any, Final

from babel.support import NullTranslations

from app.engine.cards import Card
from app.engine.codes import DealCode
from app.engine.halfmoon import HalfMoon, Outcome, Position, Removal, parse_place, place_name
from app.i18n import card_letters, translations
from app.web.pages.examples import ExampleError, copy_game
from app.web.rendering.diagrams import Diagram

HALF_MOON_DEAL: Final = DealCode.parse("HM1-N-AAAAAAI")
"""The deal of the example (and the rules page's diagram)."""

Drawing = Callable[[HalfMoon, str, Collection[str]], Diagram]
"""How a step's board is drawn: the screen's diagram (the game, the language, the ringed
places)."""

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


@functools.cache
def half_moon_steps() -> tuple[HalfMoonStep, ...]:
    """The won game, step by step (49 steps: the deal and 48 removals)."""
    game = HalfMoon(HALF_MOON_DEAL)
    steps = []
    removed: tuple[Removed, ...] = ()
    for number in range(len(HALF_MOON_LINE) + 1):
        upcoming = tuple(HALF_MOON_LINE[number].split()) if number < len(HALF_MOON_LINE) else ()
        steps.append(HalfMoonStep(number, copy_game(game), removed, upcoming))
        if not upcoming:
            break
        before = game.position
        removal = _replay_half_moon(game, HALF_MOON_LINE[number])
        removed = tuple(
            Removed(_top(before, p), place_name(p), game.position.top(p)) for p in removal
        )
    return tuple(steps)


def _top(position: Position, place: int) -> Card:
    card = position.top(place)
    assert card is not None
    return card


@functools.cache
def half_moon_step_view(number: int, lang: str, diagram: Drawing) -> dict[str, Any]:
    """Step ``number`` of the example in ``lang``, its board drawn by ``diagram`` (the
    screen's: :func:`app.web.halfmoon.diagram`)."""
    t = translations(lang)
    step = half_moon_steps()[number]
    return {
        "board": diagram(step.game, lang, step.next_places),
        "removed": [_removed_view(r, t) for r in step.removed],
        "next": [_place_card(step.game, name, t) for name in step.next_places],
        "points": 0 if not step.removed else (10 if len(step.removed) == 2 else 15),
        "score": step.game.score,
        "cards_left": step.game.position.cards_left,
        "won": step.game.is_won(),
        "sum": " + ".join(str(r.card.rank) for r in step.removed if not r.card.is_face),
    }


@functools.cache
def opening(lang: str) -> dict[str, str]:
    """The first two moves told the way the documents tell theirs: a pair that uncovers a face
    card, and the triple that takes it (the example deal was chosen for that)."""
    t = translations(lang)
    steps = half_moon_steps()
    first, second = steps[1].removed, steps[2].removed
    (uncovering,) = [r for r in first if r.uncovered is not None and r.uncovered.is_face]
    others = [r for r in second if r.place != uncovering.place]
    assert uncovering.uncovered is not None
    assert len(others) == 2
    return {
        "first": card_letters(first[0].card, t),
        "first_place": _place_text(first[0].place, t),
        "second": card_letters(first[1].card, t),
        "second_place": _place_text(first[1].place, t),
        "sum": f"{first[0].card.rank} + {first[1].card.rank}",
        "uncovered": card_letters(uncovering.uncovered, t),
        "uncovered_place": _place_text(uncovering.place, t),
        "third": card_letters(others[0].card, t),
        "third_place": _place_text(others[0].place, t),
        "fourth": card_letters(others[1].card, t),
        "fourth_place": _place_text(others[1].place, t),
    }


def _place_text(name: str, t: NullTranslations) -> str:
    kind, _, number = name.partition("-")
    if kind == "pile":
        return t.gettext("pile %(number)s") % {"number": number}
    return f"R{number}"


def _removed_view(r: Removed, t: NullTranslations) -> dict[str, str]:
    return {
        "card": card_letters(r.card, t),
        "place": _place_text(r.place, t),
        "uncovered": card_letters(r.uncovered, t) if r.uncovered else "",
    }


def _place_card(game: HalfMoon, name: str, t: NullTranslations) -> dict[str, str]:
    card = game.position.top(parse_place(name))
    assert card is not None
    return {"card": card_letters(card, t), "place": _place_text(name, t)}
