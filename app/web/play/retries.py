"""An action sent again from the board it was made on (issue 23 item 2): answered, not applied
twice.

The row an action writes keeps :func:`replay_key` of that action (``Marks.retry``). When its
answer is lost — a store that stalled after the write, a dropped connection, a retry, a
double tap — the page sends the same action again from the same board; it finds its own key
on the row and is answered with the board as it is now (:func:`app.web.play.actions.act`), instead
of being applied a second time (a Half Moon selection would be undone) or refused as stale.
Only the row's last action is remembered: any later action, or the same action from another
board (another tab), is a new action.
"""

from __future__ import annotations

import hashlib

from fastapi import Request

from app.store import StoredGame
from app.web.rendering.board_values import BOARD_VERSION_HEADER


async def replay_key(request: Request) -> str | None:
    """What identifies one action sent from one board: the board version the page sends
    (``X-Board-Version``), the action's path (game, deal code, verb) and its form as sent;
    ``None`` without a board version (a plain form POST: see ``docs/decisions.md``)."""
    seen = request.headers.get(BOARD_VERSION_HEADER)
    if seen is None:
        return None
    body = await request.body()  # read once already by the route: Starlette keeps it
    digest = hashlib.blake2b(digest_size=9)
    for part in (seen.encode(), request.url.path.encode(), body):
        digest.update(len(part).to_bytes(4, "big"))
        digest.update(part)
    return digest.hexdigest()


def replayed(stored: StoredGame, key: str | None) -> bool:
    """The action ``key`` names is the one that wrote ``stored``."""
    return key is not None and stored.marks.retry == key


def with_key(row: StoredGame, key: str | None) -> StoredGame:
    """``row`` as written by the action ``key`` names (``None``: by no action a page can
    send again, so no earlier action's key survives on it)."""
    if row.marks.retry == key:
        return row
    return row.with_marks(row.marks._replace(retry=key))
