"""What the Examples page's replays share: fixed deals of ours, every step a real engine
position (each game's own replay is its web package's ``examples``).

The deals and their move lists are fixed (found offline with the solvers, once); each step is
the engine's position after replaying the moves before it — positions are never written by
hand. No page offers a replay or a solution for any other deal (the documents: no solver, no
hint, the app does not say whether a deal can be won).
"""

from __future__ import annotations

from typing import TypeVar

from app.engine.games import AnyGame

G = TypeVar("G", bound=AnyGame)


class ExampleError(AssertionError):
    """A fixed example no longer replays as written (an engine change broke it)."""


def copy_game(game: G) -> G:
    """An independent copy of a game (a step keeps its own)."""
    return type(game).from_record(game.to_record())
