"""Diagrams for the reading pages, drawn by the game boards' own place renderers.

A diagram is a board in :data:`~app.web.board.STATIC` mode: the same per-place functions that
draw the game pages (``halfmoon.place_html``, ``seahaven.slot_html`` and ``column_html``), laid
out by the game screen's own ``layout``, with no forms, buttons or tab stops. Every card is an
image named as the game speaks it ("king of diamonds, pile 1, 8 cards"); the page puts the
board in a figure with a caption. Some cards may be *ringed* (the example's next move, or the
runs of the group-size case): the renderers' ``selected`` look.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from markupsafe import Markup

from app.engine.halfmoon import HalfMoon, place_name
from app.engine.seahaven import COLUMNS, Seahaven
from app.store import SessionData
from app.web import halfmoon, seahaven
from app.web.board import STATIC

_NOBODY = SessionData("")
"""Diagrams belong to no player: no selection, no Placement help."""


@dataclass(frozen=True, slots=True)
class Diagram:
    game: str
    """``half-moon`` or ``seahaven``: the board's class, as on the game pages."""
    code: str
    cells: int
    """Seahaven's cell count (0 for Half Moon)."""
    html: Markup
    """The places, laid out as on the game page."""


def half_moon(game: HalfMoon, lang: str, ringed: Collection[str] = ()) -> Diagram:
    """Half Moon's arc and reserve; ``ringed`` names places (``pile-2``) whose card is ringed."""
    facts = halfmoon.SCREEN.facts(game, _NOBODY)
    parts = [
        halfmoon.place_html(lang, index, count, card, place_name(index) in ringed, False, STATIC)
        for index, count, card, *_ in facts.places
    ]
    return Diagram(
        "half-moon", str(game.code), 0, Markup(halfmoon.SCREEN.layout(parts, interactive=False))
    )


def seahaven_board(game: Seahaven, lang: str, ringed: Collection[str] = ()) -> Diagram:
    """Seahaven's cells, foundations and columns; ``ringed`` names cards (``KH``) whose place
    shows them ringed — in a column, the card and everything above it."""
    screen = seahaven.SCREEN
    facts = screen.facts(game, _NOBODY, state="playing")
    parts = []
    for place in facts.places:
        if place[0] in COLUMNS:
            index, count, cards, movable_from = place[:4]
            marked = [depth for depth, card in enumerate(cards) if str(card) in ringed]
            start = min(marked, default=-1)
            parts.append(
                seahaven.column_html(
                    lang, index, count, cards, movable_from, start, interactive=STATIC
                )
            )
        else:
            index, count, card = place[:3]
            mark = card is not None and str(card) in ringed
            parts.append(seahaven.slot_html(lang, index, count, card, mark, interactive=STATIC))
    cells = len(game.position.cells)
    return Diagram(
        "seahaven", str(game.code), cells, Markup(screen.layout(parts, interactive=False))
    )
