"""Interface languages: English, Turkish, Bulgarian, through gettext catalogs (Babel).

The catalogs are the ``.po`` files under ``app/locales/<lang>/LC_MESSAGES/``. They are compiled
in memory the first time a language is used (``read_po`` → ``write_mo``), so a compiled file can
never be older than its source. ``make messages`` extracts the texts from the code and the
templates and merges them into the catalogs.

Card names for assistive technology and the short rank letters are catalog entries too: English
``J Q K``, Turkish and Bulgarian ``V D R`` (SPEC §1).

>>> tr = translations("tr")
>>> card_name(Card.parse("JC"), tr), card_letters(Card.parse("QH"), tr)
('sinek vale', 'D♥')
>>> place_label("pile", 8, 7, translations("bg"))
'купчина 8, 7 карти'
"""

from __future__ import annotations

import functools
import io
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

from app.engine.cards import SUIT_SYMBOLS, Card
from app.engine.texts import N_ as N_  # re-exported: the one marker

LANGUAGES: Final = {"en": "English", "tr": "Türkçe", "bg": "Български"}
"""Language code → its own name (the switcher shows each language in itself)."""
DEFAULT_LANGUAGE: Final = "en"
LOCALES_DIR: Final = Path(__file__).parent / "locales"
DOMAIN: Final = "messages"


@functools.cache
def translations(lang: str) -> NullTranslations:
    """The compiled catalog of a language (English is the source text: no catalog)."""
    if lang not in LANGUAGES or lang == DEFAULT_LANGUAGE:
        return NullTranslations()
    path = LOCALES_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as po_file:
        catalog = read_po(po_file, locale=lang)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)


def negotiate(accept_language: str | None) -> str:
    """The best of our languages for an ``Accept-Language`` header (English when none fits).

    >>> negotiate("bg-BG,bg;q=0.9,en;q=0.8"), negotiate("de, tr;q=0.5")
    ('bg', 'tr')
    >>> negotiate("fr"), negotiate(None), negotiate("tr;q=0.4, bg;q=0.7")
    ('en', 'en', 'bg')
    """
    if not accept_language:
        return DEFAULT_LANGUAGE
    ranked: list[tuple[float, int, str]] = []
    for position, part in enumerate(accept_language.split(",")[:20]):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                quality = float(params[2:])
            except ValueError:
                quality = 0.0
        primary = tag.strip().lower().split("-")[0]
        if primary in LANGUAGES and quality > 0:
            ranked.append((-quality, position, primary))
    return min(ranked)[2] if ranked else DEFAULT_LANGUAGE


def choose_language(chosen: str | None, accept_language: str | None) -> str:
    """The player's remembered choice when valid, else the browser's preference."""
    return chosen if chosen in LANGUAGES else negotiate(accept_language)


# --- cards ---------------------------------------------------------------------------------

_RANK_NAMES: Final = (
    N_("ace"),
    N_("two"),
    N_("three"),
    N_("four"),
    N_("five"),
    N_("six"),
    N_("seven"),
    N_("eight"),
    N_("nine"),
    N_("ten"),
    N_("jack"),
    N_("queen"),
    N_("king"),
)
_SUIT_NAMES: Final = {
    "S": N_("spades"),
    "H": N_("hearts"),
    "D": N_("diamonds"),
    "C": N_("clubs"),
}


def card_name(card: Card, t: NullTranslations) -> str:
    """The spoken name: "jack of clubs", "sinek vale", "вале спатия"."""
    return t.gettext("%(rank)s of %(suit)s") % {
        "rank": t.gettext(_RANK_NAMES[card.rank - 1]),
        "suit": t.gettext(_SUIT_NAMES[card.suit]),
    }


def rank_letter(card: Card, t: NullTranslations) -> str:
    """The rank as printed on the card: ``A 2 … 10`` then ``J Q K`` or ``V D R``."""
    if card.rank == 11:
        return str(t.pgettext("card letter", "J"))
    if card.rank == 12:
        return str(t.pgettext("card letter", "Q"))
    if card.rank == 13:
        return str(t.pgettext("card letter", "K"))
    return "A" if card.rank == 1 else str(card.rank)


def suit_symbol(card: Card) -> str:
    return SUIT_SYMBOLS[card.suit]


def card_letters(card: Card, t: NullTranslations) -> str:
    """The short text of a card: ``J♣`` in English, ``V♣`` in Turkish and Bulgarian."""
    return rank_letter(card, t) + suit_symbol(card)


def cards_text(cards: Iterable[Card], t: NullTranslations) -> str:
    """Several card names for an announcement: "five of spades and six of diamonds"."""
    names = [card_name(card, t) for card in cards]
    if len(names) <= 1:
        return "".join(names)
    return t.gettext("%(first)s and %(last)s") % {
        "first": ", ".join(names[:-1]),
        "last": names[-1],
    }


# --- places --------------------------------------------------------------------------------


def place_title(kind: str, number: int, t: NullTranslations) -> str:
    """A Half Moon place's name alone: ``pile 8``, ``reserve 3`` (the label's first line). A
    reserve place is named in a word no card face uses (issue 35: ``R3`` read as a king in
    Turkish and Bulgarian, whose kings are ``R``)."""
    if kind == "pile":
        return t.gettext("pile %(number)s") % {"number": number}
    if kind == "reserve":
        return t.gettext("reserve %(number)s") % {"number": number}
    raise ValueError(f"unknown place kind {kind!r}")


def card_count(count: int, t: NullTranslations) -> str:
    """How many cards a place holds: ``7 cards``, ``1 card`` (the label's second line).

    >>> card_count(1, translations("bg")), card_count(7, translations("tr"))
    ('1 карта', '7 kart')
    """
    return t.ngettext("%(count)s card", "%(count)s cards", count) % {"count": count}


def place_label(kind: str, number: int, count: int, t: NullTranslations) -> str:
    """The label under a place: ``pile 8, 7 cards``, ``reserve 3, 1 card`` (correct plurals)."""
    values = {"number": number, "count": count}
    if kind == "pile":
        return (
            t.ngettext("pile %(number)s, %(count)s card", "pile %(number)s, %(count)s cards", count)
            % values
        )
    if kind == "reserve":
        return (
            t.ngettext(
                "reserve %(number)s, %(count)s card", "reserve %(number)s, %(count)s cards", count
            )
            % values
        )
    raise ValueError(f"unknown place kind {kind!r}")
