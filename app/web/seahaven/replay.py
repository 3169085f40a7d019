"""Seahaven's moves told in words on a replay (issue 26): the card moved (the bottom of the
run) and where it went."""

from __future__ import annotations

from app.engine.seahaven import COLUMNS, Move, Position
from app.i18n import N_, card_name, translations
from app.web.notices import sentence
from app.web.seahaven.places import place_text

MOVED = N_("%(card)s to %(place)s.")


def describe(position: Position, move: Move, lang: str) -> str:
    """ "Seven of hearts to column 3.", "Seven of hearts and 2 cards on it to column 5." —
    ``position`` is the one before."""
    t = translations(lang)
    source, count, target = move
    if source in COLUMNS:
        card = position.columns[source][-count]
    else:
        top = position.top(source)
        assert top is not None, "a move the rules allowed takes a card"
        card = top
    values = {"card": card_name(card, t), "place": place_text(target, t), "num": count - 1}
    if count == 1:
        text = t.gettext(MOVED) % values
    else:
        text = (
            t.ngettext(
                "%(card)s and %(num)s card on it to %(place)s.",
                "%(card)s and %(num)s cards on it to %(place)s.",
                count - 1,
            )
            % values
        )
    return sentence(text, lang)
