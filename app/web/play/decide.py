"""Step one of a game action (:func:`app.web.play.actions.act`): **decide** — what the action
does to the game, the row the store is to write and what to say. The engine's call on a game object,
and nothing else: no I/O, so it can run on the event loop before the store's transaction (on
the game this worker cached) or inside it (on the game rebuilt from the row the transaction
read), and be tested alone.

What the request brings that deciding needs — the new-game limit's verdict, the daily deal's
day, the action's retry key, the time — is read before, into a :class:`Turn`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.engine.codes import DealCode
from app.engine.game import MAX_RECORD_MOVES, Clock
from app.engine.games import AnyGame
from app.status import Status
from app.store import SessionData, StoredGame
from app.store.base import carry, clock_elapsed
from app.store.counting import is_plausible
from app.store.life import practice_key
from app.store.marks import Marks
from app.store.ratelimit import ALLOWED, Verdict
from app.store.replays import new_replay_id, replay_id
from app.web.edge.errors import PlayerError
from app.web.play.gamecache import mark_of
from app.web.play.retries import replayed, with_key
from app.web.rendering.board_values import BoardFacts
from app.web.rendering.notices import MOVED_ON, UNREADABLE, Said
from app.web.rendering.screen import AnyScreen

Action = Callable[[Any, SessionData, int], Said]
"""One engine action, its form's values already bound: given the game of the route's screen
(its own class: a Half Moon route's action takes a ``HalfMoon``), the session and the time."""


@dataclass(frozen=True, slots=True)
class Turn:
    """One action as its request brings it: all that deciding needs besides the game."""

    screen: AnyScreen
    code: DealCode
    action: Action
    now: int
    """When it was sent: the game's clock and the row's time."""
    creating: Verdict
    """Whether the client may start one more game now (a new game counts against the limit)."""
    daily_day: str | None = None
    """The day the deal is that day's daily deal, when that day is today (issue 23)."""
    retry: str | None = None
    """The action's retry key (:func:`app.web.play.retries.replay_key`); ``None``: a plain form."""
    ranking: Verdict = ALLOWED
    """Whether a win this action makes may enter its deal's standings: the client has ranked
    wins left today (issue 34; the win must also be within human reach, :func:`_row`)."""
    hidden_ms: int = 0
    """How long the page says it was hidden since its last action (bounded, untrusted): left
    out of the game's time (:meth:`app.engine.game.Clock.leave_out`)."""
    kept: Callable[[BoardFacts, SessionData], bool] | None = None
    """For an action the page kept while offline (``X-Kept``): whether a board is the one it
    was made on (its version is the one sent). ``None``: any other action."""
    practice: bool = False
    """The action is on the player's practice game of the deal (issue 43): its own row
    (:func:`app.store.life.practice_key`), counted nowhere."""
    start: int | None = None
    """*Try from move k* (``k``, possibly 0): the action begins the practice at move *k* (its
    Restart returns there), a new game (it counts against the new-games limit); ``None``: any
    other action."""

    @property
    def key(self) -> str:
        """The store's key of the game the action is on."""
        code = str(self.code)
        return practice_key(code) if self.practice else code

    @property
    def page_url(self) -> str:
        return self.screen.url(self.key)


@dataclass(frozen=True, slots=True)
class Acted:
    """What an action did, decided: what the store commits and the answer shows."""

    session: SessionData
    game: AnyGame
    said: Said
    before: BoardFacts | None
    """The board before the action (``None`` when the saved game could not be read, or the
    action was already made: then the answer is the whole board)."""
    state: Status
    ended: bool
    """The action ended the game (announced; the board shows the ending)."""
    created: bool = False
    """The action wrote a game the session had not played yet, or started a deal again after
    its game ended (Restart, *Play this deal again*: the next replay's game): a new game."""
    row: StoredGame | None = None
    """The game's row after the action: the one written, or the one read when nothing was."""
    mark: tuple[Any, ...] | None = None
    """:func:`~app.web.play.gamecache.mark_of` of ``game`` when ``row`` was decided (the game still
    is that row while its mark is this one); ``None``: the game must not be cached."""


Decided = tuple[StoredGame | None, Acted]
"""The row to write (``None``: nothing changed) and what the action did."""


def decide(
    turn: Turn, session: SessionData, stored: StoredGame | None, game: AnyGame, unreadable: bool
) -> Decided:
    """Apply ``turn``'s action to ``game`` (the game ``stored`` holds, or a fresh one when it
    was ``unreadable``) for ``session``: the row to write and what the action did.

    :raises PlayerError: a game past :data:`MAX_RECORD_MOVES`, or a new game past the limit
        (nothing is written).
    """
    if not unreadable and stored is not None and replayed(stored, turn.retry):
        return None, _made_already(session, stored, game)
    before = None if unreadable else turn.screen.facts(game, session)
    mark = None if unreadable else mark_of(game)
    if turn.kept is not None and (before is None or not turn.kept(before, session)):
        return None, _moved_on(session, stored, game)
    game.clock.leave_out(turn.hidden_ms, turn.now)  # before the action counts the gap
    start = stored.marks.start if turn.practice and stored is not None else 0
    head = game.moves[:start] if turn.practice and turn.start is None else []
    said = turn.action(game, session, turn.now)
    if head and game.move_count < len(head):  # a practice's Restart: back to its move k
        begin_at(game, head, turn.now)
    after = mark_of(game)
    changed = unreadable or after != mark
    state = game.status() if changed or before is None else before.state
    if unreadable and said.message is None:
        said = Said(UNREADABLE, "unreadable")
    if not changed:
        return None, Acted(
            session, game, said, before=before, state=state, ended=False, row=stored, mark=after
        )
    saved, created = _row(turn, stored, game, state)
    ended = state.is_over and not (before is not None and before.state.is_over)
    return saved, Acted(session, game, said, before, state, ended, created, saved, after)


def begin_at(game: AnyGame, moves: list[Any], now: int) -> None:
    """``game`` from the deal's start to the board after ``moves``, where Undo stops and the
    clock starts at 0:00 with the next move: a practice's first board (issue 43)."""
    game.restart()
    for move in moves:
        game.play(move, now)
    game.undo_floor = len(moves)
    game.clock = Clock()


def _made_already(session: SessionData, stored: StoredGame, game: AnyGame) -> Acted:
    """An action made already, its answer lost (:mod:`app.web.play.retries`): answered with the
    board as it is now, whole (the page shows the board the action started from); nothing
    is written or applied again."""
    state = Status(stored.state)
    return Acted(session, game, Said(), None, state, ended=False, row=stored, mark=mark_of(game))


def _moved_on(session: SessionData, stored: StoredGame | None, game: AnyGame) -> Acted:
    """A kept action whose board is not the game's any more (another tab or device moved it
    meanwhile): not made, answered with the whole board as it is, and a notice."""
    state = Status(stored.state) if stored is not None else game.status()
    return Acted(session, game, Said(MOVED_ON, "moved-on"), None, state, ended=False, row=stored)


def _row(
    turn: Turn, stored: StoredGame | None, game: AnyGame, state: Status
) -> tuple[StoredGame, bool]:
    """The row an action that changed the game writes, and whether it is a new game: one the
    session had not played, or the game that ended (it has a replay) begun again — its ending
    makes a new replay, so it counts against the new-games limit (docs/security.md)."""
    if game.move_count > MAX_RECORD_MOVES:  # every record written can be read back
        raise PlayerError.game_too_long(MAX_RECORD_MOVES, turn.page_url)
    row = turn.screen.stored(game, game.to_record(), turn.now, state)
    if turn.practice:  # its own row, counted nowhere (issue 43)
        marks = Marks(practice=True, start=turn.start or 0)
        row = dataclasses.replace(row, code=turn.key, marks=marks, kind=None, ranks=False)
    if state == Status.WON and not (
        turn.ranking.allowed and is_plausible(clock_elapsed(row.record), row.moves)
    ):
        row = dataclasses.replace(row, ranks=False)  # counted, not ranked (issue 34)
    saved = carry(stored, row, new_replay_id)
    created = stored is None or (replay_id(stored) is not None and saved.marks.replay is None)
    if turn.practice:  # only a Try makes a new practice: its moves and Restart make none
        created = turn.start is not None
    if created and not turn.creating.allowed:
        raise PlayerError.rate_limited(turn.creating.retry_after, turn.page_url)
    if stored is None and turn.daily_day is not None:  # the day its daily streak counts
        saved = saved.with_marks(saved.marks._replace(daily=turn.daily_day))
    return with_key(saved, turn.retry), created
