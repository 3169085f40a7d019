"""Half Moon's moves told in words on a replay (issue 26): the cards a removal took."""

from __future__ import annotations

from app.engine.halfmoon import Position, Removal
from app.i18n import N_, cards_text, translations
from app.web.notices import sentence

REMOVED = N_("%(cards)s removed.")
REMOVE = N_("Remove %(cards)s.")


def describe(position: Position, removal: Removal, lang: str) -> str:
    """ "Five of spades and six of diamonds removed." — ``position`` is the one before."""
    t = translations(lang)
    cards = [card for place in removal if (card := position.top(place)) is not None]
    return sentence(t.gettext(REMOVED) % {"cards": cards_text(cards, t)}, lang)


def advise(position: Position, removal: Removal, lang: str) -> str:
    """A hint's words (issue 45): "Remove five of spades and six of diamonds." """
    t = translations(lang)
    cards = [card for place in removal if (card := position.top(place)) is not None]
    return sentence(t.gettext(REMOVE) % {"cards": cards_text(cards, t)}, lang)
