"""Diagrams for the reading pages, drawn by the game boards' own place renderers.

A diagram is a board in :data:`~app.web.rendering.board_values.STATIC` mode: the same
per-place functions that draw the game pages, laid out by the game screen's own ``layout``,
with no forms, buttons or tab stops (each game's
:meth:`Screen.diagram <app.web.rendering.screen.Screen.diagram>`). Every card is an image
named as the game speaks it ("king of diamonds, pile 1, 8 cards"); the page puts the board in
a figure with a caption. Some cards may be *ringed* (the example's next move, or the
runs of the group-size case): the renderers' ``selected`` look.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from markupsafe import Markup

from app.store import SessionData


@dataclass(frozen=True, slots=True)
class Diagram:
    game: str
    """The game's slug: the board's class, as on the game pages."""
    code: str
    cells: int
    """Seahaven's cell count (0 for Half Moon)."""
    html: Markup
    """The places, laid out as on the game page."""


NOBODY: Final = SessionData("")
"""Diagrams belong to no player: no selection, no Placement help."""
