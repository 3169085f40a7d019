"""The home page: pick a game, continue a game in progress, or type a deal code."""

from __future__ import annotations

from typing import Annotated, Any

from babel.support import NullTranslations
from fastapi import APIRouter, Query
from fastapi.responses import RedirectResponse, Response

from app import daily
from app.dependencies import PageDep, PlayerDep, RendererDep, StoreDep
from app.engine.codes import DealCode, DealCodeError
from app.engine.games import GAMES, game_for_code
from app.i18n import N_
from app.stats import KIND_NAMES, daily_streak
from app.store import Store
from app.store.counting import clock_ms, kind_of, normal
from app.web.errors import PlayerError
from app.web.htmx import html_answer
from app.web.screen import SCREENS, AnyScreen
from app.web.views import clock_text

router = APIRouter()


@router.get("/", name="home")
async def home(
    page: PageDep, renderer: RendererDep, store: StoreDep, player: PlayerDep
) -> Response:
    t = page.t
    games = [
        {
            "code": game.code,
            "url": f"/{screen.slug}/{game.code}",
            "name": t.gettext(screen.name),
            "score": game.score,
            "moves": game.moves,
        }
        for game in await store.recent_games_async(player.sid, 10)
        if (screen := _screen_for(game.code)) is not None
    ]
    context = page.context(
        games=games,
        screens=[
            {"slug": s.slug, "name": t.gettext(s.name)}
            for slug in GAMES
            if (s := SCREENS.get(slug)) is not None
        ],
        code="",
        problem=None,
        **await daily_block(store, player.sid, t),
    )
    return html_answer(renderer.page("pages/home.html", context, t))


@router.get("/play", name="play-code")
async def play_code(code: Annotated[str, Query(max_length=64)] = "") -> Response:
    """The home page's code box: the deal's canonical URL, or a page that says what is wrong."""
    screen = _screen_for(code)
    if screen is None:
        raise PlayerError.invalid_code(code, "/")
    return RedirectResponse(screen.url(DealCode.parse(code)), 303)


def _screen_for(code: str) -> AnyScreen | None:
    try:
        slug = game_for_code(DealCode.parse(code)).slug
    except DealCodeError:
        return None
    return SCREENS.get(slug)


DAILY_RESULTS = {
    "none": N_("not played yet"),
    "playing": N_("in play"),
    "won": N_("won in %(time)s"),
    "stuck": N_("lost"),
    "lost": N_("lost"),
}


async def daily_block(store: Store, sid: str, t: NullTranslations) -> dict[str, Any]:
    """Today's deals with the player's own result on each, and the daily streak."""
    day = daily.today()
    codes = await daily.daily_codes(day)
    deals = []
    for code in codes.values():
        text = str(code)
        _, game = await store.load_async(sid, text)
        state = "none" if game is None or game.moves == 0 else game.state
        result = t.gettext(DAILY_RESULTS[state])
        if state == "won":
            result = result % {"time": clock_text(clock_ms(game))} if game else result
        deals.append(
            {
                "code": text,
                "url": f"/{'half-moon' if text.startswith('HM') else 'seahaven'}/{text}",
                "name": t.gettext(KIND_NAMES[kind_of(text) or "HM"]),
                "state": state,
                "result": result,
            }
        )
    current, best = daily_streak(normal(await store.player_stats_async(sid)), day)
    return {"daily": {"day": day, "deals": deals, "streak": current, "best": best}}
