"""Plain data the templates render, shared by both games' screens."""

from __future__ import annotations

from dataclasses import dataclass

from babel.support import NullTranslations

from app.engine.cards import Card
from app.i18n import card_name, rank_letter, suit_symbol


@dataclass(frozen=True, slots=True)
class CardView:
    code: str
    """``AS``, ``10D``, ``JC``: the ``data-card`` value and the ``card`` form field."""
    rank: str
    """As printed: ``A`` … ``10``, ``J Q K`` or ``V D R``."""
    suit: str
    """The suit symbol: colour is never the only signal."""
    colour: str
    """``red`` or ``black``."""
    name: str
    """Spoken: "jack of clubs"."""

    @classmethod
    def of(cls, card: Card, t: NullTranslations) -> CardView:
        return cls(
            str(card),
            rank_letter(card, t),
            suit_symbol(card),
            "red" if card.is_red else "black",
            card_name(card, t),
        )


@dataclass(frozen=True, slots=True)
class InfoView:
    """The info bar: time (server's clock, ticking in the browser), score, moves, code."""

    elapsed_ms: int
    running: bool
    score: int
    moves: int
    code: str
    url: str


def clock_text(ms: int) -> str:
    """``m:ss``, or ``h:mm:ss`` past an hour.

    >>> clock_text(0), clock_text(65_999), clock_text(3_725_000)
    ('0:00', '1:05', '1:02:05')
    """
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"
