"""Where a game stands, in every layer: the engine decides it, the store keeps it, the web
shows it. A leaf module (like :mod:`app.clock`) so the store can name a state without
importing the engine.

A :class:`~enum.StrEnum`: its members are the very strings saved games have always held
(``"playing"``, ``"won"`` …), so a stored row, a JSON record and a Redis hash read back as
members with ``Status(text)``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class Status(StrEnum):
    """Where a game stands, in both games (python-chess's ``outcome()``): the board's state."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"
    """Seahaven: proved that no card can reach a foundation any more."""
    STUCK = "stuck"
    """Half Moon: cards remain but no pair and no triple can be removed."""

    @property
    def is_over(self) -> bool:
        """The game has ended: won, lost or stuck."""
        return self is not Status.PLAYING


ENDED: Final = frozenset({Status.WON, Status.LOST, Status.STUCK})
"""The states of a game that has ended."""
