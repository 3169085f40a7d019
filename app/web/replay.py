"""What a saved game keeps across its endings and restarts: its replay's id (issue 26) and,
once a won deal is played again, that win (issue 16).

A game that has just ended names a replay (:data:`~app.store.replays.REPLAY` in its row's
``extra``): a new id of 128 random bits the first time this game of the deal ends. A game that
ends again after an Undo keeps its id — the store writes the replay again, as the game ended
this time (:func:`app.store.replays.replay_of`) — so a replay costs no more than the moves
that made it; the next game of the deal (*Play this deal again*, Restart) gets a new one when
it ends.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Callable
from typing import Any, Final

from app.store import StoredGame
from app.store.base import clock_elapsed
from app.store.replays import ENDED, REPLAY, replay_id

EARLIER_WIN: Final = "won"
"""Key of :attr:`StoredGame.extra`: the last win on this deal, ``{"ms", "moves", "score",
"replay"}``, kept when the player plays the deal again (the saved game restarts; its result
must not be lost) and shown with the game on the home page, with its replay."""


def new_replay_id() -> str:
    """128 random bits from the operating system, URL-safe (22 characters)."""
    return secrets.token_urlsafe(16)


def carried(
    before: StoredGame | None, written: StoredGame, new_id: Callable[[], str] = new_replay_id
) -> StoredGame:
    """``written`` with what the saved game keeps: its last win, and its replay's id — a new
    one when it has just ended without one."""
    extra = dict(written.extra)
    old = {} if before is None else before.extra
    win: Any = old.get(EARLIER_WIN)
    if before is not None and before.state == "won" and written.state != "won":
        win = {
            "ms": clock_elapsed(before.record),
            "moves": before.moves,
            "score": before.score,
            "replay": replay_id(before),
        }
    if isinstance(win, dict) and EARLIER_WIN not in extra:
        extra[EARLIER_WIN] = win
    moves, redo = written.record.get("moves"), written.record.get("redo")
    anew = not moves and not redo  # restarted (or never moved): the next game of the deal
    mark: Any = None if anew else old.get(REPLAY)
    if written.state in ENDED and written.moves > 0 and replay_id(before) is None:
        mark = {"id": new_id()}
    if isinstance(mark, dict) and REPLAY not in extra:
        extra[REPLAY] = mark
    return written if extra == written.extra else dataclasses.replace(written, extra=extra)
