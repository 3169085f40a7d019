"""The action pipeline every game route shares: read the form once, then act in three named
steps — decide (:mod:`app.web.play.decide`), commit (:mod:`app.web.play.commit`), answer
(:mod:`app.web.play.answers`).

A game's action is a function from its validated form (an :class:`~app.web.play.forms.ActionForm`
whose fields are already the engine's values) to the :data:`~app.web.play.decide.Action` that calls
the engine; registered with :func:`action_route`, the route checks the request, parses the
deal code and the form once, and lets :func:`act` apply it. The form is read by
:mod:`app.web.play.forms`, the saved game rebuilt and its verdict settled by
:mod:`app.web.play.verdicts`, the game kept between actions by :mod:`app.web.play.gamecache`,
the end box's additions by :mod:`app.web.rendering.ending`.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app import metrics
from app.clock import now_ms
from app.engine.codes import DealCode
from app.services import daily
from app.store import SessionData, StoreError
from app.store.observed import store_label
from app.web.edge.dependencies import guard_write, may_create
from app.web.edge.errors import PlayerError
from app.web.edge.htmx import hidden_ms
from app.web.play.answers import answer
from app.web.play.commit import Wrote, commit, keep, settle
from app.web.play.decide import Action, Turn
from app.web.play.forms import FormT, read_form
from app.web.play.gamecache import game_cache
from app.web.play.retries import replay_key
from app.web.play.urlcodes import parse_code
from app.web.players.sessions import Player
from app.web.rendering.board_values import BOARD_VERSION_HEADER, KEPT_HEADER, BoardFacts
from app.web.rendering.context import language
from app.web.rendering.screen import AnyScreen

log = logging.getLogger(__name__)

__all__ = ["Action", "act", "action_route"]


async def act(
    request: Request,
    screen: AnyScreen,
    code: DealCode,
    token: str,
    action: Action,
    *,
    practice: bool = False,
    start: int | None = None,
) -> Response:
    """Apply one action to the player's game in three steps — :func:`~app.web.play.decide.decide`
    (the engine, no I/O), :func:`~app.web.play.commit.commit` (the store's transaction, which
    decides inside it), :func:`~app.web.play.answers.answer` (htmx fragment or 303) — with the
    work after the commit in between (:func:`~app.web.play.commit.settle`).

    "Not made" is said only when the commit fails. After it, a store failure answers what was
    made: the answer step reads the end box's statistics without failing, and should anything
    else of the store fail there, the player is told it could not be confirmed and to reload.

    A game the session has not played yet counts against the client's limit of new games,
    and so does a deal started again after its game ended (Restart, *Play this deal again*:
    its ending makes a new replay): when the limit is spent the action is refused (429) and
    nothing is written. A move past :data:`~app.engine.game.MAX_RECORD_MOVES` is refused too,
    so every record written can be read back.

    ``practice``: the action is on the player's practice game of the deal, its own row
    (issue 43); ``start`` (*Try from move k*): the action begins that practice at move *k*, a
    new game.
    """
    turn = await _turn(request, screen, code, action)
    turn = dataclasses.replace(turn, practice=practice, start=start)
    if practice:
        turn = dataclasses.replace(turn, daily_day=None)  # a practice is no daily deal's game
    acted = await commit(request, turn, token)
    try:
        acted = await settle(request, turn, acted)
        response = await answer(request, turn, acted)
    except StoreError as error:  # made: never "not made"
        log.error("the store failed after an action was made: %s", error)
        raise PlayerError.store_unconfirmed(turn.page_url) from None
    keep(game_cache(request), Player.from_request(request).sid, turn.key, acted)
    return response


async def _turn(request: Request, screen: AnyScreen, code: DealCode, action: Action) -> Turn:
    """What the request brings that deciding needs, read before the store is asked."""
    creating = await may_create(request)
    # a daily deal counts for the day it was first played on, and only when that is its own
    # day (issue 23): yesterday's deal begun today counts for no day's streak
    today = daily.today()
    daily_day = today if await daily.day_of(str(code)) == today else None
    retry = await replay_key(request)
    hidden = hidden_ms(request)
    kept = _kept(request, screen)
    return Turn(
        screen, code, action, now_ms(), creating, daily_day, retry, hidden_ms=hidden, kept=kept
    )


def _kept(request: Request, screen: AnyScreen) -> Callable[[BoardFacts, SessionData], bool] | None:
    """For an action the page kept while offline (``X-Kept: 1``): whether a board is the
    one its ``X-Board-Version`` names (no version names none) — else it is not made."""
    if request.headers.get(KEPT_HEADER) != "1":
        return None
    seen = request.headers.get(BOARD_VERSION_HEADER)

    def made_on(facts: BoardFacts, session: SessionData) -> bool:
        lang = language(request, session)
        parts = screen.board_parts(facts, lang)
        return seen is not None and screen.board_version(facts, parts, lang, session.token) == seen

    return made_on


def action_route(
    router: APIRouter, screen: AnyScreen, verb: str, model: type[FormT]
) -> Callable[[Callable[[FormT], Action]], Callable[[FormT], Action]]:
    """Register ``POST /{game}/{code}/{verb}`` for the decorated function, which turns the
    validated form into the :data:`~app.web.play.decide.Action` to apply. The route checks the
    request (:func:`app.web.edge.dependencies.guard_write`), parses the deal code, validates the
    form once against that deal, and hands the action to :func:`act`."""

    def register(make: Callable[[FormT], Action]) -> Callable[[FormT], Action]:
        async def endpoint(request: Request) -> Response:
            request.scope["route"] = routes[0]  # for the metrics' route label
            error: BaseException | None = None
            guarded = False
            try:
                await guard_write(request)  # same origin, and the write rate limit
                guarded = True
                deal = parse_code(screen, request.path_params["code"], action=True)
                form = await read_form(request, model, deal)
                response = await act(request, screen, deal, form.token, make(form))
            except BaseException as raised:
                error = raised
                raise
            finally:
                _count(request, screen, verb, error, guarded)
            return response

        async def practice(request: Request) -> Response:
            request.scope["route"] = routes[1]
            await guard_write(request)
            deal = parse_code(screen, request.path_params["code"], action=True)
            form = await read_form(request, model, deal)
            return await act(request, screen, deal, form.token, make(form), practice=True)

        # Starlette routes, not FastAPI's: the endpoint takes the request alone and reads its
        # form itself, so FastAPI's dependency solving and its exit stacks were pure cost on
        # the most frequent request (docs/performance.md, *A tap in process*); the exception
        # handlers answer as before (Starlette's request_response runs them). FastAPI's router
        # names the matched route in ``scope["route"]`` for its own routes only: the endpoints
        # name theirs, which the request's metrics read (app.web.edge.middleware.Perimeter).
        name = f"{screen.slug}-{verb}"
        router.add_route(f"{router.prefix}/{{code}}/{verb}", endpoint, ["POST"], name)
        practice_path = f"{router.prefix}/{{code}}/practice/{verb}"
        router.add_route(practice_path, practice, ["POST"], f"{name}-practice")
        routes = router.routes[-2:]
        return make

    return register


def _count(
    request: Request, screen: AnyScreen, verb: str, error: BaseException | None, guarded: bool
) -> None:
    """One action in ``solitaire_actions_total`` (and a new game in its own): its
    outcome — ``made`` (the game changed), ``refused`` (the rules, the form or a limit said
    no), ``kept`` (nothing to change: :class:`~app.web.play.commit.Wrote`), ``not_made`` (the store
    failed or could not confirm, or the server failed, before the commit was known)."""
    if not metrics.ON:
        return
    wrote: Wrote | None = getattr(request.state, "wrote", None)
    if wrote is not None:  # committed: whatever failed after it, this is what it did
        outcome = "made" if wrote.row else "refused" if wrote.refused else "kept"
        if wrote.row and wrote.game:
            metrics.GAMES_CREATED.labels(screen.slug).inc()
    elif isinstance(error, PlayerError):
        outcome = "refused"
        if error.status == 429 and guarded:  # a new game past the limit (writes: limit())
            metrics.RATE_LIMITED.labels("new").inc()
    else:
        outcome = "not_made"
    store = request.app.state.store
    key = (screen.slug, verb, outcome, type(store))
    counter = _ACTION_COUNTERS.get(key)
    if counter is None:
        counter = metrics.ACTIONS.labels(screen.slug, verb, outcome, store_label(store))
        _ACTION_COUNTERS[key] = counter
    counter.inc()


_ACTION_COUNTERS: dict[tuple[str, str, str, type], Any] = {}
"""Each (game, action, outcome, store)'s counter, looked up once (a tap looks up none)."""
