"""Step two of a game action (:func:`app.web.play.actions.act`): **commit** — the store's one
transaction that reads the session and the game, lets :func:`app.web.play.decide.decide` decide and
writes the row it returns; then :func:`settle`, the work after the commit.

Until the transaction has committed, a failure means the action was not made: the store says
so (``StoreError``), or says it cannot tell (``UnconfirmedChangeError``), and the answer is
that page. Once it has, nothing may answer "not made" (issue 34): :func:`settle` (the new-game
limit's spend, the lost verdict's proof and write) never fails the action; what it could not
do is done again on the next read.

When this worker answered the game's last action, its :class:`~app.web.play.gamecache.GameCache`
still holds the game object: the action is decided on it on the event loop, before the
transaction, which then only checks that the row it reads is still that game's (else it
decides again on the game rebuilt from the row, as for a game the worker has not seen).
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Final

from fastapi import Request

from app.status import Status
from app.store import SessionData, Store, StoredGame, StoreError
from app.store.ratelimit import Verdict
from app.web.edge.dependencies import limit, may_rank, spend_rank
from app.web.edge.errors import PlayerError
from app.web.play.decide import Acted, Decided, Turn, decide
from app.web.play.gamecache import GameCache, Kept, game_cache, mark_of, same_row
from app.web.play.verdicts import rebuild, settle_verdict
from app.web.players.sessions import Player, check_token

log = logging.getLogger(__name__)


async def commit(request: Request, turn: Turn, token: str) -> Acted:
    """Check the form token, decide and write the row in one store transaction.

    :raises PlayerError: an expired form, a game too long, a new game past the limit.
    :raises StoreError: the store failed: the action was not made (or, for
        ``UnconfirmedChangeError``, may have been).
    """
    store: Store = request.app.state.store
    player = Player.from_request(request)
    kept = game_cache(request).take(player.sid, turn.key)
    early = None if kept is None else _decided_early(turn, kept)
    if kept is None or _ranks(early):  # a win, or a game this worker has not seen
        turn = dataclasses.replace(turn, ranking=await may_rank(request))
        if isinstance(early, tuple) and not turn.ranking.allowed:
            early = _unranked(early)
    else:  # decided again in the transaction (another tab moved): a win there is not ranked
        turn = dataclasses.replace(turn, ranking=NOT_HELD)

    wrote = Wrote()

    def change(session: SessionData | None, stored: StoredGame | None) -> Decided:
        session = check_token(player, session, token, turn.page_url)
        if (
            kept is not None
            and early is not None
            and stored is not None
            and session == kept.session
            and same_row(stored, kept.row)
        ):
            if isinstance(early, PlayerError):
                raise early
            wrote.saw(early)
            return early
        game, unreadable = rebuild(turn.screen, turn.code, stored)
        decided = decide(turn, session, stored, game, unreadable)
        wrote.saw(decided)
        return decided

    acted = await store.change_game(player.sid, turn.key, change)
    request.state.wrote = wrote  # committed: the action's metrics read it (app.web.play.actions)
    return acted


KEPT_NOTICES: Final = frozenset({"stale", "moved-on"})
"""What an action that changed nothing says when it was not refused but is answered with the
board as it is: its card had gone (another tab), or it was kept offline for another board."""


@dataclasses.dataclass(slots=True)
class Wrote:
    """What a committed action wrote, for its metrics: a row (else it changed nothing), a new
    game; and, when it wrote nothing, whether it was refused (it says why: a move the rules
    refuse, nothing to undo) rather than kept (answered with the board as it is: made already,
    its answer lost; a card no longer there; a question asked first; an action kept offline
    for a board that has moved on)."""

    row: bool = False
    game: bool = False
    refused: bool = False

    def saw(self, decided: Decided) -> None:
        row, acted = decided
        self.row, self.game = row is not None, acted.created
        said = acted.said
        kept = said.ask is not None or said.notice in KEPT_NOTICES
        self.refused = said.message is not None and not kept


NOT_HELD = Verdict(False)
"""The ranking of an action that held no ranked win: the cached game showed it would not win."""


def _ranks(early: Decided | PlayerError | None) -> bool:
    """Whether the action decided early makes a win that may enter its deal's standings: only
    such an action holds one of the client's ranked wins (issue 34), not every tap."""
    row = early[0] if isinstance(early, tuple) else None
    return row is not None and row.state == Status.WON and row.ranks


def _unranked(early: Decided) -> Decided:
    """``early`` with its win counted but not ranked (the client has no ranked win left)."""
    row, acted = early
    if row is None:
        return early
    row = dataclasses.replace(row, ranks=False)
    return row, dataclasses.replace(acted, row=row)


def _decided_early(turn: Turn, kept: Kept) -> Decided | PlayerError:
    """The action decided on the cached game; a refusal is raised in the transaction, after
    the token's check."""
    try:
        return decide(turn, kept.session, kept.row, kept.game, False)
    except PlayerError as error:
        return error


async def settle(request: Request, turn: Turn, acted: Acted) -> Acted:
    """The work after the commit, which never undoes or denies it: a new game spends one of
    the client's new games; the verdict on the new position is proved outside the store's
    writer (it may search) and, when lost, written into the saved game."""
    if acted.created:
        try:
            await limit(request, "new")
        except StoreError as error:  # the game is made: one spend fewer, never "not made"
            log.warning("a new game's limit was not spent: %s", error)
    row = acted.row
    first = row is not None and row.marks.counted in ("", "open")  # the deal's figures take it
    if acted.ended and row is not None and row.state == Status.WON and row.ranks and first:
        try:
            await spend_rank(request)
        except StoreError as error:
            log.warning("a ranked win's limit was not spent: %s", error)
    store: Store = request.app.state.store
    sid = Player.from_request(request).sid
    settled = await settle_verdict(request, store, sid, turn.screen, acted.game, key=turn.key)
    if settled.lost:
        was_over = acted.before is not None and acted.before.state.is_over
        state, ended = acted.game.status(), acted.ended or not was_over
        acted = dataclasses.replace(acted, state=state, ended=ended)
    if not settled.kept:  # the game knows a verdict its row lacks: rebuilt on the next read
        acted = dataclasses.replace(acted, mark=None)
    return acted


def keep(cache: GameCache, sid: str, code: str, acted: Acted) -> None:
    """Cache the game when it still is the row the store now holds (a verdict proved after
    the commit may have stopped its clock: then it is rebuilt next time)."""
    if acted.row is not None and acted.mark is not None and mark_of(acted.game) == acted.mark:
        cache.keep(sid, code, Kept(acted.row, acted.game, acted.session))
