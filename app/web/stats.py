"""``/stats``: the player's statistics, their reset, and the device link (issue 16); the daily
deals' route (``/daily/{game}``: each game's screen says which of the day's deals it opens,
``/daily/seahaven?cells=4``).

GET never writes: the page reads the player's document; reset, making and revoking a device
link are POSTs with the form token. A device link holds a secret of 192 bits
(``secrets.token_urlsafe(24)``) shown once; the store keeps only its SHA-256.
"""

from __future__ import annotations

import dataclasses
import hashlib
import secrets
from typing import Final, Literal

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.i18n import N_
from app.services import daily
from app.store import Store
from app.store.counting import normal
from app.web.dependencies import (
    PlayerDep,
    RendererDep,
    StoreDep,
    get_page,
    guard_write,
    limit,
    public_origin,
)
from app.web.errors import PlayerError
from app.web.forms import ActionForm, FormT, read_form
from app.web.games import LOST_RULE, SCREENS
from app.web.htmx import NO_STORE, html_answer
from app.web.render import Renderer
from app.web.sessions import Player, check_token
from app.web.statistics import (
    daily_streak,
    game_rows,
    kind_rows,
    win_rate_chart,
    win_time_chart,
)

router = APIRouter()

NOTICES: Final = {
    "reset": N_("Your statistics were reset."),
    "revoked": N_("The device link was revoked: it opens nothing any more."),
    "linked": N_("This browser now has the games and statistics of the device link."),
}


RULES: Final = (
    N_("A game counts as played from its first move: a deal only opened is not counted."),
    N_("It is won when the last card is played."),
    LOST_RULE,
    N_(
        "A deal's first result is its result: undoing after the end, restarting it, or"
        " finishing an abandoned game later does not count again."
    ),
    N_(
        "Time is the game clock's time. Best time and fewest moves are of won games; the"
        " best score is of every counted game."
    ),
    N_("The daily streak counts UTC days in a row on which you won at least one daily deal."),
)
"""How results are counted, as ``/stats`` says it (``docs/statistics.md``)."""


class ResetForm(ActionForm):
    """Reset: the token, and the confirmation (``confirm=yes``)."""

    confirm: Literal["", "yes"] = ""


async def _checked(
    request: Request, store: Store, player: Player, model: type[FormT], back: str = "/stats"
) -> FormT:
    """A POST's form as the game actions read theirs (:func:`app.web.forms.read_form`),
    after :func:`app.web.dependencies.guard_write`, its token checked; ``back`` is the page an
    expired form offers to reload."""
    await guard_write(request)
    form = await read_form(request, model)
    session, _ = await store.load_async(player.sid)
    check_token(player, session, form.token, back)
    return form


def digest_of(secret: str) -> str:
    """What the store keeps of a device link's secret (SHA-256, hex)."""
    return hashlib.sha256(b"solitaire device link v1\x00" + secret.encode()).hexdigest()


async def _page(
    request: Request,
    renderer: Renderer,
    store: Store,
    player: Player,
    *,
    link: str | None = None,
    asking: str | None = None,
) -> Response:
    page = dataclasses.replace(await get_page(request, store, player), here="/stats")
    t = page.t
    doc = normal(await store.player_stats_async(player.sid))
    notice = request.query_params.get("n", "")
    current, best = daily_streak(doc, daily.today())
    has_link = link is not None or await store.has_link_async(player.sid)
    context = page.context(
        kinds=kind_rows(doc, t),
        games=game_rows(doc, t),
        charts=[c for c in (win_rate_chart(doc, t), win_time_chart(doc, t)) if c],
        rules=[t.gettext(r) for r in RULES],
        daily_streak=current,
        daily_best=best,
        notice=t.gettext(NOTICES[notice]) if notice in NOTICES else None,
        asking=asking or (request.query_params.get("ask") == "reset" and "reset") or None,
        link=link,
        has_link=has_link,
    )
    return html_answer(renderer.page("pages/stats.html", context, t))


@router.get("/stats", name="stats")
async def stats_page(
    request: Request, renderer: RendererDep, store: StoreDep, player: PlayerDep
) -> Response:
    return await _page(request, renderer, store, player)


@router.post("/stats/reset")
async def reset(request: Request, store: StoreDep, player: PlayerDep) -> Response:
    """Without ``confirm=yes`` it asks first (a question on the page, without JavaScript too)."""
    form = await _checked(request, store, player, ResetForm)
    if form.confirm != "yes":
        return RedirectResponse("/stats?ask=reset", 303, headers=NO_STORE)
    await store.reset_stats_async(player.sid)
    return RedirectResponse("/stats?n=reset", 303, headers=NO_STORE)


@router.post("/stats/link")
async def make_link(
    request: Request, renderer: RendererDep, store: StoreDep, player: PlayerDep
) -> Response:
    """A new device link (replacing the player's previous one), shown on this answer only."""
    await _checked(request, store, player, ActionForm)
    secret = secrets.token_urlsafe(24)
    await store.save_link_async(player.sid, digest_of(secret))
    link = f"{public_origin(request)}/link/{secret}"
    return await _page(request, renderer, store, player, link=link)


@router.post("/stats/link/revoke")
async def revoke_link(request: Request, store: StoreDep, player: PlayerDep) -> Response:
    await _checked(request, store, player, ActionForm)
    await store.drop_link_async(player.sid)
    return RedirectResponse("/stats?n=revoked", 303, headers=NO_STORE)


async def _owner(request: Request, store: Store, secret: str) -> str:
    """The player a link's secret names; a miss counts against the client's guesses, and
    past the limit every answer is 429 (found or not: no oracle)."""
    owner = None
    if 16 <= len(secret) <= 64:
        owner = await store.link_owner_async(digest_of(secret))
    if owner is None:
        verdict = await limit(request, "guess")
        if not verdict.allowed:
            raise PlayerError.too_many_guesses(verdict.retry_after)
        raise PlayerError.unknown_link()
    return str(owner)


@router.get("/link/{secret}", name="link")
async def open_link(
    secret: str, request: Request, renderer: RendererDep, store: StoreDep, player: PlayerDep
) -> Response:
    """The link's question page: opening it here replaces this browser's games (a POST)."""
    await _owner(request, store, secret)
    page = dataclasses.replace(await get_page(request, store, player), here="/link")
    t = page.t
    context = page.context(
        secret=secret,
        same=(await store.link_owner_async(digest_of(secret))) == player.sid,
    )
    response = HTMLResponse(renderer.page("pages/link.html", context, t), headers=NO_STORE)
    response.headers["Referrer-Policy"] = "same-origin"  # the secret never leaves the site
    return response


@router.post("/link/{secret}")
async def use_link(secret: str, request: Request, store: StoreDep, player: PlayerDep) -> Response:
    """This browser takes the link's player id: from now on both browsers play as one."""
    await _checked(request, store, player, ActionForm, f"/link/{secret}")
    owner = await _owner(request, store, secret)
    request.state.player = Player(owner, fresh=False)
    return RedirectResponse("/stats?n=linked", 303, headers=NO_STORE)


# --- the daily deals ---------------------------------------------------------------------------


@router.get("/daily/{slug}", name="daily")
async def daily_deal(slug: str, request: Request, player: PlayerDep) -> Response:
    screen = SCREENS.get(slug)
    if screen is None:
        raise PlayerError.not_found()
    variant = screen.daily_variant(request)
    codes = await daily.daily_codes(daily.today())
    code = next(c for c in codes.values() if c.game == screen.game.game_id and c.variant == variant)
    return RedirectResponse(screen.url(code), 303, headers=NO_STORE)
