"""A new random deal for ``GET /{game}`` (issue 33, item 5): drawn from the deals the solver
proved winnable (:mod:`app.services.winnable`) when the player's *Winnable deals only* choice
says so for that game and level, else any deal. ``?winnable=on|off`` chooses for this one deal
(the home page's tiles and the New game dialog send it); the player's choice is remembered by
``POST /settings`` (the dialog's checkbox posts there first), never by a GET."""

from __future__ import annotations

import dataclasses
from typing import Final
from urllib.parse import urlencode

from fastapi import Request
from fastapi.responses import RedirectResponse, Response

from app.engine.codes import DealCode, GameId
from app.i18n import N_
from app.services import winnable
from app.store import Store
from app.web.edge.dependencies import limit
from app.web.edge.errors import (
    PlayerError,
    Text,
    invalid_field,
    token_or_refuse,
    unknown_field,
)
from app.web.edge.htmx import NO_STORE
from app.web.play.unfinished import ask_first
from app.web.players.sessions import Player, check_token
from app.web.rendering.screen import AnyScreen
from app.web.rendering.templates import Renderer

WINNABLE_HELP: Final = N_("Accepted: on or off.")


def asked(request: Request) -> bool | None:
    """``?winnable=on|off`` (once), or ``None`` when the query does not say."""
    values = request.query_params.getlist("winnable")
    if not values:
        return None
    if len(values) > 1 or values[0] not in ("on", "off"):
        raise PlayerError.bad_input([invalid_field("winnable", WINNABLE_HELP)])
    return values[0] == "on"


async def preference(store: Store, player: Player) -> str:
    """The player's remembered choice (``auto`` for a player the store holds nothing for)."""
    session, _ = await store.load(player.sid)
    return session.winnable if session is not None else "auto"


async def winnable_wanted(
    request: Request, store: Store, player: Player, game: GameId, variant: str
) -> bool:
    said = asked(request)
    if said is not None:
        return said
    return winnable.wanted(await preference(store, player), game, variant)


async def new_code(
    request: Request, store: Store, player: Player, game: GameId, variant: str
) -> DealCode | None:
    """A deal proved winnable when the player wants one (and the table has one), else ``None``:
    the caller draws any deal."""
    if not await winnable_wanted(request, store, player, game, variant):
        return None
    return winnable.winnable_code(game, variant)


PREFERENCE_HELP: Final = N_("Accepted: auto, on or off.")

DealFields = dict[str, tuple[tuple[str, ...], str]]
"""The New game dialog's fields besides ``winnable``: each name's accepted values and the
help text that says them."""


async def choose_deal(
    request: Request, store: Store, player: Player, slug: str, fields: DealFields
) -> RedirectResponse:
    """``POST /{game}``, the New game dialog: remember the *Winnable deals only* choice when it
    changed, then 303 to ``GET /{game}`` with the dialog's other ``fields``, which deals.
    Every field is checked before anything is kept: a refused form changes nothing."""
    form = await request.form()
    problems: list[Text] = [
        unknown_field(name) for name in form if name not in {"token", "winnable", *fields}
    ]
    choice = str(form.getlist("winnable")[-1]) if "winnable" in form else None
    if choice is not None and choice not in winnable.PREFERENCES:
        problems.append(invalid_field("winnable", PREFERENCE_HELP))
    query: dict[str, str] = {}
    for name, (accepted, help_text) in fields.items():
        values = form.getlist(name)
        if len(values) > 1 or (values and values[0] not in accepted):
            problems.append(invalid_field(name, help_text))
        elif values:
            query[name] = str(values[0])
    token = token_or_refuse(form, problems)
    here = f"/{slug}"
    stored, _ = await store.load(player.sid)
    session = check_token(player, stored, token, here)
    if choice is not None and choice != session.winnable:
        if stored is None:  # the first thing this player keeps: a new session row
            verdict = await limit(request, "new")
            if not verdict.allowed:
                raise PlayerError.rate_limited(verdict.retry_after)
        await store.save_session(player.sid, dataclasses.replace(session, winnable=choice))
    target = f"{here}?{urlencode(query)}" if query else here
    return RedirectResponse(target, 303, headers=dict(NO_STORE))


async def fresh_deal(
    request: Request, renderer: Renderer, store: Store, player: Player, screen: AnyScreen
) -> Response:
    """``GET /{game}``: 303 to a fresh random deal (one proved winnable when the player's
    *Winnable deals only* choice or ``?winnable=on`` says so), once an unfinished game of the
    kind was asked about (issue 43)."""
    game_id, variant = screen.game.game_id, screen.game.variants[0].code
    question = await ask_first(request, renderer, store, player, game_id, variant)
    if question is not None:  # an unfinished game of the kind: asked first (issue 43)
        return question
    code = await new_code(request, store, player, game_id, variant)
    code = code or DealCode.random(game_id)
    return RedirectResponse(screen.url(code), 303, headers=NO_STORE)
