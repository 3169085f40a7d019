"""Seahaven's places in words — in a sentence ("column 3"), in a label ("column 3, 5 cards")
— and *Placement help*'s destinations, from the engine's legal moves."""

from __future__ import annotations

from typing import Final

from babel.support import NullTranslations

from app.engine.cards import SUIT_SYMBOLS, SUITS, Suit
from app.engine.seahaven import CELLS, COLUMNS, FOUNDATIONS, Seahaven, place_name
from app.i18n import N_


def place_text(place: int, t: NullTranslations) -> str:
    """A place in a sentence: "column 3", "cell 1", "foundation ♥"."""
    if place in COLUMNS:
        return t.gettext("column %(number)s") % {"number": place - COLUMNS.start + 1}
    if place in CELLS:
        return t.gettext("cell %(number)s") % {"number": place - CELLS.start + 1}
    suit = SUITS[place - FOUNDATIONS.start]
    return t.gettext("foundation %(suit)s") % {"suit": SUIT_SYMBOLS[suit]}


def column_label(number: int, count: int, t: NullTranslations) -> str:
    return t.ngettext(
        "column %(number)s, %(count)s card", "column %(number)s, %(count)s cards", count
    ) % {"number": number, "count": count}


def foundation_label(suit: Suit, count: int, t: NullTranslations) -> str:
    return t.ngettext(
        "foundation %(suit)s, %(count)s card", "foundation %(suit)s, %(count)s cards", count
    ) % {"suit": SUIT_SYMBOLS[suit], "count": count}


DESTINATION_HINT: Final = N_("the selection can go here")
"""*Placement help*: added to the spoken name of a place the selection may move to."""


def destinations(game: Seahaven) -> dict[tuple[int, int], tuple[int, ...]]:
    """*Placement help*: for every movable card (its place and how many cards move with it),
    the places it may legally go to — from the engine's legal moves, so the hint never
    promises a move the rules refuse."""
    found: dict[tuple[int, int], list[int]] = {}
    for source, count, target in game.legal_moves():
        found.setdefault((source, count), []).append(target)
    return {key: tuple(sorted(places)) for key, places in found.items()}


def place_names(places: tuple[int, ...]) -> str:
    return " ".join(place_name(place) for place in places)
