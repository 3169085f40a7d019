"""What of a finding is withheld, and from whom (issues 43 and 44): nothing of it while the
replay's player plays the game on after an Undo (for anyone: the owner's row decides), and a
daily deal's winning line while a win of the deal may still be ranked."""

from __future__ import annotations

from typing import Final

from app.i18n import N_
from app.services import daily
from app.store import Store
from app.store.replays import StoredReplay, replay_id
from app.web.edge.errors import PlayerError
from app.web.players.sessions import Player


async def _goes_on(store: Store, sid: str, replay: StoredReplay) -> bool | None:
    """Whether ``sid``'s game of the replay's deal goes on; ``None``: that row is not this
    replay's game."""
    _, row = await store.load(sid, replay.code)
    if row is None or replay_id(row) != replay.id:
        return None
    return not row.state.is_over


async def playing_on(store: Store, player: Player, replay: StoredReplay) -> bool:
    """The replay's player plays this game on (an Undo after its end): the finding waits,
    for them and for anyone who has the replay's link (issue 43). The asker's own row is read
    first (the owner asking, the usual case: one read); anyone else reads the owner's."""
    if not player.fresh:
        mine = await _goes_on(store, player.sid, replay)
        if mine is not None:
            return mine
    owner = await store.replay_owner(replay.id)
    if owner is None or (not player.fresh and owner == player.sid):
        return False
    return await _goes_on(store, owner, replay) is True


DAILY_PRIVATE: Final = N_(
    "A daily deal's winning line is shown once its standings close, at the end of the next UTC day."
)


async def daily_private(replay: StoredReplay) -> bool:
    """A daily deal's winning line stays private while a win of it may still be ranked
    (issue 44): its own UTC day, and the next (a daily deal begun before midnight and won
    after counts for its day). A script that follows a public line at a human pace would
    otherwise enter the day's standings."""
    return await daily.day_of(replay.code) is not None


def daily_line_private() -> PlayerError:
    return PlayerError.fixed(
        404,
        N_("Not yet: this is a daily deal"),
        DAILY_PRIVATE,
    )
