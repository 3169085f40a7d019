"""Half Moon's moves told in words on a replay (issue 26): the cards a removal took and where
each was (issue 45: with two decks, "two of hearts" alone could be either copy)."""

from __future__ import annotations

from babel.support import NullTranslations

from app.engine.halfmoon import PILES, Position, Removal
from app.i18n import N_, card_name, place_title, translations
from app.web.rendering.notices import sentence

REMOVED = N_("%(cards)s removed.")
FROM = N_("%(card)s from %(place)s")


def place_words(place: int, t: NullTranslations) -> str:
    """A place in a sentence: "pile 4", "reserve 2" (the engine numbers them from 0)."""
    if place < PILES:
        return place_title("pile", place + 1, t)
    return place_title("reserve", place - PILES + 1, t)


def cards_from(position: Position, places: tuple[int, ...], t: NullTranslations) -> str:
    """ "two of hearts from pile 4 and nine of spades from reserve 2": each card of ``places``
    (their top cards in ``position``) with its place."""
    names = [
        t.gettext(FROM) % {"card": card_name(card, t), "place": place_words(place, t)}
        for place in places
        if (card := position.top(place)) is not None
    ]
    if len(names) <= 1:
        return "".join(names)
    return t.gettext("%(first)s and %(last)s") % {
        "first": ", ".join(names[:-1]),
        "last": names[-1],
    }


REMOVE = N_("Remove %(cards)s.")


def describe(position: Position, removal: Removal, lang: str) -> str:
    """ "Two of hearts from pile 4 and nine of spades from reserve 2 removed." — ``position``
    is the one before."""
    t = translations(lang)
    return sentence(t.gettext(REMOVED) % {"cards": cards_from(position, tuple(removal), t)}, lang)


def advise(position: Position, removal: Removal, lang: str) -> str:
    """A hint's words (issue 45): "Remove two of hearts from pile 4 and nine of spades from
    reserve 2." """
    t = translations(lang)
    return sentence(t.gettext(REMOVE) % {"cards": cards_from(position, tuple(removal), t)}, lang)
