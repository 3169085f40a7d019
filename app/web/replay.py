"""Playing a won deal again (issue 16): the saved game restarts, its last win is kept."""

from __future__ import annotations

import dataclasses
from typing import Any, Final

from app.store import StoredGame
from app.store.base import clock_elapsed

EARLIER_WIN: Final = "won"
"""Key of :attr:`StoredGame.extra`: the last win on this deal, ``{"ms", "moves", "score"}``,
kept when the player plays the deal again (the saved game restarts; its result must not be
lost) and shown with the game on the home page."""


def carried(before: StoredGame | None, written: StoredGame) -> StoredGame:
    """``written`` with what the saved game keeps across a replay: its last win."""
    if before is None:
        return written
    win: Any = before.extra.get(EARLIER_WIN)
    if before.state == "won" and written.state != "won":
        win = {"ms": clock_elapsed(before.record), "moves": before.moves, "score": before.score}
    if not isinstance(win, dict) or EARLIER_WIN in written.extra:
        return written
    return dataclasses.replace(written, extra={**written.extra, EARLIER_WIN: win})
