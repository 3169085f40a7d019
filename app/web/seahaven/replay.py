"""Seahaven's moves told in words on a replay (issue 26): the card moved (the bottom of the
run), where it was and where it went (issue 45: every move names its places, as Half Moon's)."""

from __future__ import annotations

from app.engine.cards import Card
from app.engine.seahaven import COLUMNS, Move, Position
from app.i18n import N_, card_name, translations
from app.web.rendering.notices import sentence
from app.web.seahaven.places import place_text

MOVED = N_("%(card)s from %(source)s to %(place)s.")


def moving(position: Position, move: Move) -> tuple[Card, ...]:
    """The cards ``move`` takes in ``position``, the run's bottom card first."""
    source, count, _ = move
    if source in COLUMNS:
        return tuple(position.columns[source][-count:])
    top = position.top(source)
    assert top is not None, "a move the rules allowed takes a card"
    return (top,)


def describe(position: Position, move: Move, lang: str) -> str:
    """ "Seven of hearts from column 2 to column 3.", "Seven of hearts and 2 cards on it from
    cell 1 to column 5." —
    ``position`` is the one before."""
    t = translations(lang)
    source, count, target = move
    card = moving(position, move)[0]
    values = {
        "card": card_name(card, t),
        "source": place_text(source, t),
        "place": place_text(target, t),
        "num": count - 1,
    }
    if count == 1:
        text = t.gettext(MOVED) % values
    else:
        text = (
            t.ngettext(
                "%(card)s and %(num)s card on it from %(source)s to %(place)s.",
                "%(card)s and %(num)s cards on it from %(source)s to %(place)s.",
                count - 1,
            )
            % values
        )
    return sentence(text, lang)
