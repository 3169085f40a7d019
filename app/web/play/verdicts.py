"""A saved game rebuilt for an answer, and the verdict on its position settled: proved off the
request path when its game's "lost" takes a search (:mod:`app.services.proofs`), and kept with
the saved game when it is lost."""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass

from fastapi import Request

from app.engine.codes import DealCode
from app.engine.game import RecordError
from app.engine.games import AnyGame
from app.services.proofs import Prover
from app.status import Status
from app.store import SessionData, Store, StoredGame, StoreError
from app.store.base import carry
from app.store.replays import new_replay_id
from app.web.play.retries import with_key
from app.web.rendering.screen import AnyScreen

log = logging.getLogger(__name__)


def rebuild(screen: AnyScreen, code: DealCode, stored: StoredGame | None) -> tuple[AnyGame, bool]:
    """The saved game, or a fresh one; ``True`` when a saved game existed but was unreadable."""
    game, unreadable = _rebuild(screen, code, stored)
    screen.prepare(game)
    if stored is not None and not unreadable:
        screen.restored(game, stored)
    return game, unreadable


def _rebuild(screen: AnyScreen, code: DealCode, stored: StoredGame | None) -> tuple[AnyGame, bool]:
    if stored is None:
        return screen.game(code), False
    try:
        game = screen.game.from_record(stored.record)
    except RecordError:
        return screen.game(code), True
    if str(game.code) != str(code):
        return screen.game(code), True
    return game, False


@dataclass(frozen=True, slots=True)
class Settled:
    """The verdict :func:`settle_verdict` found on a game's position."""

    lost: bool = False
    """Proved lost just now."""
    kept: bool = True
    """The saved game holds what the game object knows (``False``: the verdict's write failed;
    the next read of the game proves its position again and writes it)."""


async def settle_verdict(
    request: Request,
    store: Store,
    sid: str,
    screen: AnyScreen,
    game: AnyGame,
    *,
    saved: bool = True,
    key: str | None = None,
) -> Settled:
    """Prove the game's position in the proof pool when nobody has (:mod:`app.services.proofs`);
    lost — then the saved game (when it is still this one) keeps the verdict, its clock stopped
    at its last action (the row under ``key``, the game's deal code unless given: a practice's
    is its own, issue 43); ``saved=False`` says there is no saved game (a page of a deal not played
    yet: the verdict stays in this worker's memory, issue 23). Waits at most ``proof_wait``
    seconds without holding up anyone else; without a verdict by then, the game goes on as
    playable and the next answer asks again.

    The verdict's write comes after the action's own commit: when the store fails it, the
    action still stands and is answered as made (issue 34); the write is idempotent, and the
    saved game still marked unproved has its position proved and written on its next read."""
    position = screen.unproved(game)
    if position is None:
        return Settled()
    prover: Prover = request.app.state.prover
    wait: float = request.app.state.config.proof_wait
    lost = await prover.verdict(position, wait=wait, wanted_by=(sid, str(game.code)))
    if lost is None:
        return Settled()
    screen.note_verdict(game, lost)
    if not (lost and saved):
        return Settled(lost)
    try:
        await _keep_lost(store, sid, screen, game, key or str(game.code))
    except StoreError as error:
        log.warning(
            "the lost verdict on %s was not written (next read writes it): %s", game.code, error
        )
        return Settled(lost, kept=False)
    return Settled(lost)


async def _keep_lost(store: Store, sid: str, screen: AnyScreen, game: AnyGame, key: str) -> None:
    """Write the verdict into the saved game, if it is still the game that was proved."""
    code = game.code
    record = game.to_record()

    def change(
        session: SessionData | None, stored: StoredGame | None
    ) -> tuple[StoredGame | None, int | None]:
        if stored is None or stored.record != record or stored.state == Status.LOST:
            return None, None
        kept, _ = rebuild(screen, code, stored)
        screen.note_verdict(kept, True)
        kept.clock.stop(stored.updated_ms)  # the game ended with its last action
        written = screen.stored(kept, kept.to_record(), stored.updated_ms)
        if stored.marks.practice:  # a practice's own row: counted nowhere (issue 43)
            written = dataclasses.replace(written, code=stored.code, kind=None, ranks=False)
        # the action that made this row is still its last (app.web.play.retries)
        written = with_key(written, stored.marks.retry)
        return carry(stored, written, new_replay_id), stored.updated_ms

    ended = await store.change_game(sid, key, change)
    if ended is not None:
        game.clock.stop(ended)
