"""The home page: a tile for each game and level (a picture of its board, one tap to a fresh
deal), today's deals as the same tiles with the player's result, the games to continue, and
the deal code box."""

from __future__ import annotations

import datetime
import functools
from typing import Annotated, Any, Final

from babel.dates import format_skeleton
from babel.support import NullTranslations
from fastapi import APIRouter, Query
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from app.engine.codes import DealCode, DealCodeError
from app.engine.games import GAMES, game_for_code, variant_of
from app.i18n import N_, translations
from app.services import daily
from app.status import Status
from app.store import GameSummary, Store
from app.store.counting import clock_ms, normal
from app.store.life import deal_of, label, life_of, replayed
from app.web.edge.dependencies import PageDep, PlayerDep, RendererDep, StoreDep
from app.web.edge.errors import PlayerError
from app.web.edge.htmx import html_answer
from app.web.games import SCREENS
from app.web.pages.reading import diagram
from app.web.players.figures import RESULT_NAMES, daily_streak
from app.web.rendering.diagrams import Diagram
from app.web.rendering.infobar import clock_text
from app.web.rendering.screen import AnyScreen, screen_for

router = APIRouter()


@router.get("/", name="home")
async def home(
    page: PageDep, renderer: RendererDep, store: StoreDep, player: PlayerDep
) -> Response:
    t = page.t
    replays = {r.id for r in await store.player_replays(player.sid)}
    games = _lines(await store.recent_games(player.sid, 10), t, replays)
    finished = _lines(await store.finished_games(player.sid, FINISHED_SHOWN), t, replays)
    context = page.context(
        games=games,
        finished=finished,
        tiles=_TILES.get(page.lang) or await run_in_threadpool(new_deal_tiles, page.lang),
        code="",
        problem=None,
        **await daily_block(
            store, player.sid, page.lang, zen=page.session is not None and page.session.zen
        ),
    )
    return html_answer(renderer.page("pages/home.html", context, t))


_TILES: Final[dict[str, list[dict[str, Any]]]] = {}
""":func:`new_deal_tiles` by language, kept once drawn (the lifespan's warm-up draws them):
the same on every request, read only by the template."""


def new_deal_tiles(lang: str) -> list[dict[str, Any]]:
    """The home page's tiles (issue 35): each game and level, a picture of its board (a deal's
    start, drawn as the rules pages draw it) and one tap to a fresh deal."""
    kept = _TILES.get(lang)
    if kept is not None:
        return kept
    t = translations(lang)
    tiles = []
    for slug in GAMES:
        screen = SCREENS.get(slug)
        if screen is None:
            continue
        for variant, url, level in screen.new_deals(t):
            tiles.append(
                {
                    "slug": slug,
                    "game": t.gettext(screen.name),
                    "level": level,
                    "url": url,
                    "picture": diagram(_sample(screen, variant), lang),
                }
            )
    _TILES[lang] = tiles
    return tiles


def _sample(screen: AnyScreen, variant: str) -> DealCode:
    """The deal a tile pictures: the rules page's of that variant, else its deal 0."""
    for code in screen.diagram_deals:
        if code.variant == variant:
            return code
    return DealCode(screen.game.game_id, 1, variant, 0)


def _levels(t: NullTranslations) -> dict[str, str]:
    """Each game's variants' levels in words, by the deal code's game and variant."""
    return {
        f"{screen.game.game_id}-{variant}": level
        for screen in SCREENS.values()
        for variant, _, level in screen.new_deals(t)
    }


@router.get("/play", name="play-code")
async def play_code(code: Annotated[str, Query(max_length=64)] = "") -> Response:
    """The home page's code box: the deal's canonical URL, or a page that says what is wrong."""
    screen = _screen_for(code)
    if screen is None:
        raise PlayerError.invalid_code(code, "/")
    return RedirectResponse(screen.url(DealCode.parse(code)), 303)


FINISHED_SHOWN: Final = 5
"""How many finished games the home page lists under "Recently finished"."""


def _lines(
    games: list[GameSummary], t: NullTranslations, replays: set[str]
) -> list[dict[str, Any]]:
    """The home page's lines for games of either list: name, code, link and figures; a
    replayed deal's earlier win (its time and its replay); a finished game's result, time
    and replay (issue 26: a finished deal played again lists both its results). ``replays``:
    the player's replays still kept (a deleted one is not linked)."""
    lines = []
    for game in games:
        code, _ = deal_of(game.code)
        screen = _screen_for(code)
        if screen is None:
            continue
        life = life_of(game)
        earlier = game.marks.won if replayed(life) else None
        before_replay = None if earlier is None else _replay_url(earlier.replay, replays)
        own = game.marks.replay
        line = {
            "code": code,
            "kind": label(life),
            "label": t.gettext(LABELS[label(life)]) if label(life) else "",
            "url": screen.url(game.code),
            "name": t.gettext(screen.name),
            "state": game.state,
            "score": game.score,
            "moves": game.moves,
            "time": clock_text(game.elapsed_ms),
            "won_before": None if earlier is None else clock_text(earlier.ms),
            "won_before_replay": before_replay,
            "replay": _replay_url(own, replays) if game.state != Status.PLAYING else None,
        }
        lines.append(line)
        if game.state != Status.PLAYING and earlier is not None and earlier.replay != own:
            lines.append(
                line
                | {
                    "state": Status.WON,
                    "score": earlier.score,
                    "moves": earlier.moves,
                    "time": clock_text(earlier.ms),
                    "won_before": None,
                    "won_before_replay": None,
                    "replay": before_replay,
                }
            )
    return lines


LABELS: Final = {"practice": N_("Practice"), "assisted": N_("Assisted")}
"""What a list says of a game that is not the player's counted game (issue 43)."""


def _replay_url(ident: str | None, replays: set[str]) -> str | None:
    return f"/replay/{ident}" if ident is not None and ident in replays else None


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


async def daily_block(store: Store, sid: str, lang: str, zen: bool = False) -> dict[str, Any]:
    """Today's deals with the player's own result on each, a picture of each deal's start (a
    tile, as the new deals'), and the daily streak; in *Zen* a win without its time."""
    t = translations(lang)
    day = daily.today()
    codes = await daily.daily_codes(day)
    levels = _levels(t)
    pictures = _PICTURES.get((day, lang))
    if pictures is None:  # drawn in a thread: the warm-up draws today's, not tomorrow's
        pictures = await run_in_threadpool(lambda: [diagram(c, lang) for c in codes.values()])
        if len(_PICTURES) > 16:
            _PICTURES.clear()
        _PICTURES[(day, lang)] = pictures
    deals = []
    for code, picture in zip(codes.values(), pictures, strict=True):
        text = str(code)
        _, game = await store.load(sid, text)
        state = "none" if game is None or game.moves == 0 else game.state
        result = t.gettext(RESULT_NAMES["won"] if zen and state == "won" else DAILY_RESULTS[state])
        if state == "won" and not zen:
            result = result % {"time": clock_text(clock_ms(game))} if game else result
        screen = screen_for(code)
        deals.append(
            {
                "code": text,
                "url": screen.url(text),
                "name": t.gettext(variant_of(code).name),
                "game": t.gettext(screen.name),
                "level": levels.get(f"{code.game}-{code.variant}", ""),
                "slug": screen.slug,
                "picture": picture,
                "state": state,
                "result": result,
            }
        )
    current, best = daily_streak(normal(await store.player_stats(sid)), day)
    return {
        "daily": {
            "day": day,
            "day_text": _day_text(day, lang),
            "deals": deals,
            "streak": current,
            "best": best,
            "winnable": all(daily.proved_winnable(day, c.game, c.variant) for c in codes.values()),
        }
    }


_PICTURES: Final[dict[tuple[str, str], list[Diagram]]] = {}
"""Today's deals' pictures by day and language (:func:`daily_block`)."""


@functools.lru_cache(maxsize=16)
def _day_text(day: str, lang: str) -> str:
    """The daily block's day in words (``Monday, December 7``), once per day and language."""
    return str(format_skeleton("MMMMEEEEd", datetime.date.fromisoformat(day), locale=lang))
