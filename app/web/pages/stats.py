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
from typing import Any, Final, Literal

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app import metrics
from app.i18n import N_
from app.services import daily
from app.store import Store
from app.store.bounds import MAX_GAMES_PER_SESSION
from app.store.counting import normal
from app.web.edge.dependencies import (
    PlayerDep,
    RendererDep,
    StoreDep,
    checked_form,
    get_page,
    hold,
    public_origin,
)
from app.web.edge.errors import PlayerError
from app.web.edge.htmx import NO_STORE, html_answer
from app.web.games import LOST_RULE, SCREENS
from app.web.pages.charts import charts
from app.web.play.forms import ActionForm
from app.web.players.figures import (
    daily_streak,
    game_rows,
    kind_rows,
    replay_rows,
)
from app.web.players.sessions import Player, new_sid, signer_of
from app.web.rendering.notices import TAG, is_told, notice_query
from app.web.rendering.templates import Renderer

router = APIRouter()

NOTICES: Final = {
    "reset": N_("Your statistics were reset."),
    "revoked": N_(
        "The device link was revoked: it opens nothing any more, and the browsers that used"
        " it no longer see your games and statistics. This browser keeps them."
    ),
    "linked": N_("This browser now has the games and statistics of the device link."),
    "left": N_(
        "This browser no longer plays through the device link: it starts afresh. The link's"
        " games stay with the browser that made it."
    ),
    "replay-deleted": N_("The replay was deleted: its link opens nothing any more."),
    "returned": N_("This browser has its games and statistics back."),
}
"""The page's notices after its POSTs: events (:data:`app.web.rendering.notices.EVENTS`), shown only
with the tag the redirect carried and only while still true (:func:`_notice`)."""


RULES: Final = (
    N_("A game counts as played from its first move: a deal only opened is not counted."),
    N_("It is won when the last card is played."),
    LOST_RULE,
    N_(
        "A game's first result is its result: undoing after the end, or finishing an"
        " abandoned game later, does not count again. Starting a deal again after its game"
        " ended is a new game. A deal's figures for everyone take each player's first game"
        " of it, and only wins played at a human pace."
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
    doc = normal(await store.player_stats(player.sid))
    current, best = daily_streak(doc, daily.today())
    has_link = link is not None or await store.has_link(player.sid)
    replays = await store.player_replays(player.sid)
    going = {g.code: g.moves for g in await store.recent_games(player.sid, MAX_GAMES_PER_SESSION)}
    notice = _notice(request, player, doc, has_link)
    emptied = None  # an id with no games, figures or replays may be one a revocation emptied
    nothing = not going and not replays and not any(doc["k"].values())
    if not player.fresh and nothing and await store.moved_to(player.sid) is not None:
        emptied = "joined" if player.joined else "own"
    context = page.context(
        emptied=emptied,
        kinds=kind_rows(doc, t),
        games=game_rows(doc, t, frozenset(r.id for r in replays), going),
        replays=replay_rows(replays, t),
        charts=charts(doc, t),
        rules=[t.gettext(r) for r in RULES],
        daily_streak=current,
        daily_best=best,
        notice=t.gettext(NOTICES[notice]) if notice else None,
        asking=asking or (request.query_params.get("ask") == "reset" and "reset") or None,
        link=link,
        has_link=has_link,
        joined=player.joined,
    )
    return html_answer(renderer.page("pages/stats.html", context, t))


def _notice(request: Request, player: Player, doc: dict[str, Any], has_link: bool) -> str | None:
    """The ``?n=`` notice to show: one this server told this browser (its tag), and still
    true — no link after "revoked", this browser's own id after "left", nothing counted since
    "reset"."""
    key = request.query_params.get("n", "")
    if key not in NOTICES:
        return None
    signer = signer_of(request.app)
    if not is_told(signer, player.sid, "/stats", key, request.query_params.get(TAG, "")):
        return None
    if (key == "revoked" and has_link) or (key == "left" and player.joined):
        return None
    if key == "reset" and any(any(figures.values()) for figures in doc["k"].values()):
        return None
    return key


def _told(request: Request, sid: str, key: str) -> RedirectResponse:
    """303 to ``/stats`` with the notice ``key`` and its tag."""
    query = notice_query(signer_of(request.app), sid, "/stats", key)
    return RedirectResponse(f"/stats?{query}", 303, headers=NO_STORE)


@router.get("/stats", name="stats")
async def stats_page(
    request: Request, renderer: RendererDep, store: StoreDep, player: PlayerDep
) -> Response:
    return await _page(request, renderer, store, player)


@router.post("/stats/reset")
async def reset(request: Request, store: StoreDep, player: PlayerDep) -> Response:
    """Without ``confirm=yes`` it asks first (a question on the page, without JavaScript too)."""
    form = await checked_form(request, store, player, ResetForm, "/stats")
    if form.confirm != "yes":
        return RedirectResponse("/stats?ask=reset", 303, headers=NO_STORE)
    await store.reset_stats(player.sid)
    return _told(request, player.sid, "reset")


@router.post("/stats/link")
async def make_link(
    request: Request, renderer: RendererDep, store: StoreDep, player: PlayerDep
) -> Response:
    """A new device link (replacing the player's previous one), shown on this answer only.
    Only a browser that holds its id as its own makes one: one that plays through a link
    would otherwise make itself the owner of a new one (then revoke it, and keep the owner's
    games for good)."""
    await checked_form(request, store, player, ActionForm, "/stats")
    if player.joined:
        raise PlayerError.not_the_links_owner()
    secret = secrets.token_urlsafe(24)
    await store.save_link(player.sid, digest_of(secret))
    link = f"{public_origin(request)}/link/{secret}"
    return await _page(request, renderer, store, player, link=link)


@router.post("/stats/link/revoke")
async def revoke_link(request: Request, store: StoreDep, player: PlayerDep) -> Response:
    """Revoke the link and end the access of every browser that used it: the player's games,
    statistics and settings move to a new id, which only this browser gets; the others keep
    the old id, which now holds nothing (issue 23).

    Only the browser that holds the id as its own may (a browser that joined through the
    link may leave, :func:`leave_link`), and asking again is safe: a Revoke sent twice, or
    ten at once, or again after its answer was lost, all answer the id that holds the data
    (the store remembers where the player went). Nothing to revoke: no notice."""
    await _owners_form(request, store, player)
    return _now_on(request, await store.revoke_link(player.sid, new_sid()), "revoked")


@router.post("/stats/link/return")
async def return_to_moved(request: Request, store: StoreDep, player: PlayerDep) -> Response:
    """The way back for a browser that still holds, as its own, an id its device link's
    revocation emptied (issue 44: an answer that crossed the revocation put it back; since
    the cookie is sent only when it changes, none does): it takes the id the data moved to.
    A browser that held the id through the link is never given it (it may leave)."""
    await _owners_form(request, store, player)
    return _now_on(request, await store.moved_to(player.sid), "returned")


async def _owners_form(request: Request, store: Store, player: Player) -> None:
    """The form of a link's owner (a browser that joined through the link is refused)."""
    await checked_form(request, store, player, ActionForm, "/stats")
    if player.joined:
        raise PlayerError.not_the_links_owner()


def _now_on(request: Request, sid: str | None, told: str) -> Response:
    """``/stats`` on the id the player's data is on now, said (``None``: nothing moved, and
    nothing to say)."""
    if sid is None:
        return RedirectResponse("/stats", 303, headers=NO_STORE)
    request.state.player = Player(sid, fresh=False)
    return _told(request, sid, told)


@router.post("/stats/link/leave")
async def leave_link(request: Request, store: StoreDep, player: PlayerDep) -> Response:
    """A browser that plays through a device link stops: it takes a new id of its own and
    starts afresh; the link's games, and the link, stay with their owner. A browser that
    holds its id as its own has nothing to leave."""
    await checked_form(request, store, player, ActionForm, "/stats")
    if not player.joined:
        return RedirectResponse("/stats", 303, headers=NO_STORE)
    request.state.player = player = Player(new_sid(), fresh=False)
    return _told(request, player.sid, "left")


async def _owner(request: Request, store: Store, secret: str) -> str:
    """The player a link's secret names. A miss counts against the client's guesses — held
    before the secret is looked up, so guesses sent at once cannot all pass the last one; a
    hit gives it back. While they are spent, every answer is 429, right secret or wrong (no
    oracle)."""
    guess = await hold(request, "guess")
    if not guess.verdict.allowed:
        metrics.RATE_LIMITED.labels("guess").inc()
        raise PlayerError.too_many_guesses(guess.verdict.retry_after)
    try:
        owner = None
        if 16 <= len(secret) <= 64:
            owner = await store.link_owner(digest_of(secret))
        if owner is None:
            await guess.spend()
            raise PlayerError.unknown_link()
        return str(owner)
    finally:
        guess.release()  # (a guess spent is not given back)


@router.get("/link/{secret}", name="link")
async def open_link(
    secret: str, request: Request, renderer: RendererDep, store: StoreDep, player: PlayerDep
) -> Response:
    """The link's question page: opening it here replaces this browser's games (the POST).

    The secret is not looked up here: whether it names anyone is the POST's answer, which
    counts a miss against the client's guesses (a GET counts and writes nothing). Only this
    browser's own link is recognised, to say that it plays as the link already."""
    if not 16 <= len(secret) <= 64:
        raise PlayerError.unknown_link()
    page = dataclasses.replace(await get_page(request, store, player), here="/link")
    t = page.t
    mine = not player.fresh and await store.has_link(player.sid)
    same = mine and await store.link_owner(digest_of(secret)) == player.sid
    context = page.context(secret=secret, same=same)
    response = HTMLResponse(renderer.page("pages/link.html", context, t), headers=NO_STORE)
    response.headers["Referrer-Policy"] = "same-origin"  # the secret never leaves the site
    return response


@router.post("/link/{secret}")
async def use_link(secret: str, request: Request, store: StoreDep, player: PlayerDep) -> Response:
    """This browser takes the link's player id: from now on both browsers play as one. The
    browser's own id (one it may have been planted) is dropped for the link's, in a cookie
    signed now (issue 23)."""
    await checked_form(request, store, player, ActionForm, f"/link/{secret}")
    owner = await _owner(request, store, secret)
    own = owner == player.sid and not player.joined  # the owner's browser opened its own link
    request.state.player = Player(owner, fresh=False, joined=not own)
    return _told(request, owner, "linked")


# --- the daily deals ---------------------------------------------------------------------------


@router.get("/daily/{slug}", name="daily")
async def daily_deal(slug: str, request: Request, player: PlayerDep) -> Response:
    screen = SCREENS.get(slug)
    if screen is None:
        raise PlayerError.not_found()
    variant = screen.daily_variant(request)
    codes = await daily.daily_codes(daily.today())
    game_id = screen.game.game_id
    code = next((c for c in codes.values() if c.game == game_id and c.variant == variant), None)
    if code is None:
        raise PlayerError.no_daily_deal(screen.game.title)
    return RedirectResponse(screen.url(code), 303, headers=NO_STORE)
