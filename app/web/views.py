"""Plain data the templates render, shared by both games' screens.

Frozen dataclasses rather than dicts: Jinja reads ``place.card`` by trying the attribute
first, so every dict key lookup went through a caught ``AttributeError`` — a board render
took 0.51 ms with dicts and 0.32 ms with these.
"""

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
class PlaceView:
    """A place that shows one card or none: a Half Moon pile or reserve slot, a Seahaven cell
    or foundation."""

    id: str
    """``pile-8``, ``reserve-3``, ``cell-1``, ``foundation-H``: ``data-place``."""
    count: int
    label: str
    """``pile 8, 7 cards``: under the place."""
    spoken: str
    """The card's name and the label: the button's accessible name."""
    card: CardView | None = None
    selected: bool = False
    dimmed: bool = False
    """*Placement help*: this card cannot combine with the selection."""
    destination: bool = False
    """*Placement help* (Seahaven): the selection may move here."""
    targets: str = ""
    """*Placement help* (Seahaven): where this place's card may go (for the drag)."""
    suit: str = ""
    """A foundation's suit symbol, drawn when it is empty."""
    colour: str = ""


@dataclass(frozen=True, slots=True)
class ColumnCard:
    """One card of a Seahaven column, bottom to top."""

    card: CardView
    spoken: str
    selected: bool
    movable: bool
    """It and the cards above it form a run that may move (draggable)."""
    targets: str = ""
    """*Placement help*: where it (with its run) may go, place names separated by spaces — the
    drag highlights them."""


@dataclass(frozen=True, slots=True)
class ColumnView:
    id: str
    count: int
    label: str
    cards: tuple[ColumnCard, ...]
    fan: str
    """How tightly the column's cards overlap (a CSS class)."""
    destination: bool = False
    """*Placement help*: the selection may move here."""


@dataclass(frozen=True, slots=True)
class SummaryView:
    """A won game's summary in the end box: the figures, and what the game set.

    Rendered by ``partials/ending.html`` for the page and for an action's answer alike."""

    elapsed_ms: int
    """The time the game took (the clock stopped at the winning move)."""
    moves: int
    score: int
    bests: tuple[str, ...] = ()
    """The personal bests and streaks this game set, one sentence each (statistics fill
    them in: :func:`app.web.play.summary_bests`); none, no list."""
    cascade: tuple[CardView, ...] = ()
    """Cards drawn (hidden from screen readers) for the celebration's cascade."""


@dataclass(frozen=True, slots=True)
class BoardView:
    """``#board``: what both games share, and each game's places."""

    game: str
    code: str
    state: str
    score: int
    moves: int
    ending: str | None
    summary: SummaryView | None = None
    """A won game's summary (time, moves, score, bests); ``None`` unless won."""
    places: tuple[PlaceView, ...] = ()
    """Half Moon's twenty places."""
    placement_help: bool = False
    cells: tuple[PlaceView, ...] = ()
    foundations: tuple[PlaceView, ...] = ()
    columns: tuple[ColumnView, ...] = ()


@dataclass(frozen=True, slots=True)
class ScreenView:
    slug: str
    name: str
    new_game_url: str
    end_actions: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class InfoView:
    """The info bar: time (server's clock, ticking in the browser), score, moves, code."""

    elapsed_ms: int
    running: bool
    away_left_ms: int
    """How much longer the browser's clock may tick without an action (time away stops it)."""
    score: int
    moves: int
    code: str
    url: str
    can_undo: bool
    can_redo: bool
    can_restart: bool = True
    """Whether Restart would change anything (moves made, or moves to redo)."""


def clock_text(ms: int) -> str:
    """``m:ss``, or ``h:mm:ss`` past an hour.

    >>> clock_text(0), clock_text(65_999), clock_text(3_725_000)
    ('0:00', '1:05', '1:02:05')
    """
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"
