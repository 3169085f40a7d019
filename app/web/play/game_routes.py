"""The routes every game has: ``GET /{game}`` (a fresh deal), the game page, and Undo /
Redo / Restart."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from markupsafe import Markup

from app.engine.codes import DealCode
from app.engine.games import AnyGame
from app.i18n import N_, translations
from app.store import SessionData, Store, StoredGame
from app.store.life import practice_key
from app.web.edge.dependencies import (
    PlayerDep,
    RendererDep,
    SameOrigin,
    StoreDep,
)
from app.web.edge.htmx import NO_STORE, html_answer
from app.web.play import deals
from app.web.play.actions import action_route
from app.web.play.forms import ActionForm
from app.web.play.gamecache import page_game
from app.web.play.hints import hint_route, hint_status, shown_hint
from app.web.play.unfinished import first_move_notice
from app.web.play.urlcodes import parse_code
from app.web.play.verdicts import settle_verdict
from app.web.players.sessions import Player, page_session, signer_of
from app.web.rendering.board_values import BoardFacts, fill
from app.web.rendering.context import asked, language, may_lose_moves, page_context
from app.web.rendering.ending import as_practice, result_or_none, with_result
from app.web.rendering.infobar import (
    info_html,
    status_html,
)
from app.web.rendering.notices import (
    NOTHING_TO_REDO,
    NOTHING_TO_UNDO,
    QUESTIONS,
    TAG,
    UNREADABLE,
    Said,
    is_told,
)
from app.web.rendering.screen import SCREENS, AnyScreen
from app.web.rendering.templates import Renderer


async def show_page(
    screen: AnyScreen,
    code_text: str,
    request: Request,
    renderer: Renderer,
    store: Store,
    player: Player,
    practice: bool = False,
) -> Response:
    """``GET /{game}/{code}``: the player's own game for this deal, or the deal from the start;
    ``practice`` (``GET /{game}/{code}/practice``): the player's practice game of the deal, its
    own row beside the game (issue 43), or a 303 to the deal's page when there is none."""
    code = parse_code(screen, code_text)
    row_key = practice_key(str(code)) if practice else str(code)
    if str(code) != code_text:
        return RedirectResponse(screen.url(row_key), 308)
    session, stored = await store.load(player.sid, row_key)
    if practice and (stored is None or not stored.marks.practice):
        return RedirectResponse(screen.url(code), 303, headers=NO_STORE)
    session = page_session(player, session)
    game, unreadable = await page_game(request, screen, code, player.sid, session, stored, row_key)
    saved = stored is not None
    await settle_verdict(request, store, player.sid, screen, game, saved=saved, key=row_key)
    lang = language(request, session)
    t = translations(lang)
    key, tag = request.query_params.get("n", "")[:32], request.query_params.get(TAG, "")
    page_url = screen.url(row_key)
    told = is_told(signer_of(request.app), player.sid, page_url, key, tag, game.move_count)
    said = UNREADABLE if unreadable else screen.notice(key, game) if told else None
    message = said(t) if said else None
    asking = asked(request.query_params.get("ask"), game)
    question = t.gettext(QUESTIONS[asking]) if asking else None
    context = page_context(
        request,
        screen,
        game,
        session,
        lang,
        message=message,
        spoken=question,
        asking=asking,
        key=row_key,
    )
    token, code_text = session.token, context["info"].code
    fresh = not unreadable and (stored is None or stored.moves == 0) and not game.is_over()
    await _practice_or_unfinished(context, screen, code, stored, practice, fresh, store, player)
    facts = await _page_facts(screen, game, session, asking, store, player, code_text)
    if practice and stored is not None:
        facts = as_practice(facts, stored.marks.start)
    board = screen.board_html(facts, lang, token)
    shortcuts = renderer.partial("partials/game_help.html", lang)  # the help under "?"
    info = info_html(lang, context["screen"], context["info"], shortcuts)
    context["board_html"] = Markup(fill(board, token, code_text))
    context["info_html"] = Markup(fill(info, token, code_text))
    context["status_html"] = Markup(status_html(context["message"], False, question))
    if session.hints and not practice and not facts.state.is_over:  # issue 45
        _hint(context, request, screen, game, player, page_url, lang, question)
    return html_answer(renderer.page(screen.template, context, t))


async def _practice_or_unfinished(
    context: dict[str, Any],
    screen: AnyScreen,
    code: DealCode,
    stored: StoredGame | None,
    practice: bool,
    fresh: bool,
    store: Store,
    player: Player,
) -> None:
    """A practice said on the page with its way back (issues 33, 43); or, before the first
    move of a ``fresh`` game, that it would count an unfinished game of the kind as lost."""
    if practice and stored is not None:
        context["practice"] = {"start": stored.marks.start, "back": screen.url(code)}
    elif stored is not None and stored.marks.practice:  # stored in the deal's row before 43
        floor = stored.record.get("floor")  # its move k: where its Undo stopped
        start = floor if isinstance(floor, int) and not isinstance(floor, bool) else 0
        context["practice"] = {"start": max(0, start), "back": None}
    elif fresh:  # issue 43
        context["unfinished"] = await first_move_notice(store, player, code, False)


async def _page_facts(
    screen: AnyScreen,
    game: AnyGame,
    session: SessionData,
    asking: str | None,
    store: Store,
    player: Player,
    code_text: str,
) -> BoardFacts:
    """The board's facts on the game page, with the result the statistics counted once the
    game is over."""
    facts = screen.facts(game, session, asking=asking)
    if facts.state.is_over:
        result = await result_or_none(store, player.sid, code_text, screen.ranks_wins_by_moves)
        facts = with_result(facts, result)
    return facts


def _hint(
    context: dict[str, Any],
    request: Request,
    screen: AnyScreen,
    game: AnyGame,
    player: Player,
    page_url: str,
    lang: str,
    question: str | None,
) -> None:
    """*Hints* on (issue 45): the hint button's URL, and the hint shown last on this page."""
    context["hint_url"] = f"{page_url}/hint"
    hint = shown_hint(request, screen, game, player.sid, page_url, lang)
    if hint is not None and context["message"] is None and question is None:
        context["status_html"] = Markup(hint_status(*hint))


class TokenForm(ActionForm):
    """Undo, Redo, Restart: the form token; Restart's confirmation (``confirm=yes``)."""

    confirm: Literal["", "yes"] = ""


TOOK_BACK = N_("Move taken back.")
REPLAYED = N_("Move replayed.")
RESTARTED = N_("The deal starts again from the beginning.")


def _undo(game: AnyGame, session: SessionData, now: int) -> Said:
    if game.undo(now):
        return Said(lambda t: t.gettext(TOOK_BACK))
    return Said(NOTHING_TO_UNDO, "no-undo")


def _redo(game: AnyGame, session: SessionData, now: int) -> Said:
    if game.redo(now):
        return Said(lambda t: t.gettext(REPLAYED))
    return Said(NOTHING_TO_REDO, "no-redo")


def _restart(game: AnyGame, session: SessionData, now: int) -> Said:
    game.restart()
    return Said(lambda t: t.gettext(RESTARTED))


def _ask_restart(game: AnyGame, session: SessionData, now: int) -> Said:
    """Restart without ``confirm=yes``: a game going on with moves asks first (nothing
    changes yet); one with nothing to lose — no move yet, or ended — restarts at once."""
    if not may_lose_moves(game):
        return _restart(game, session, now)
    return Said(ask="restart")


def game_router(screen: AnyScreen) -> APIRouter:
    """``GET /{game}`` (a fresh deal), the game page, and Undo / Redo / Restart."""
    SCREENS[screen.slug] = screen
    router = APIRouter(prefix=f"/{screen.slug}")

    @router.get("", name=f"{screen.slug}-new")
    async def new_deal(
        request: Request, renderer: RendererDep, store: StoreDep, player: PlayerDep
    ) -> Response:
        own = await screen.new_deal(request, renderer, store, player)
        return own or await deals.fresh_deal(request, renderer, store, player, screen)

    @router.post("", name=f"{screen.slug}-choose", dependencies=[SameOrigin])
    async def choose_deal(request: Request, store: StoreDep, player: PlayerDep) -> Response:
        return await deals.choose_deal(request, store, player, screen.slug, screen.deal_fields)

    @router.get("/{code}", name=f"{screen.slug}-page")
    async def page(
        code: str, request: Request, renderer: RendererDep, store: StoreDep, player: PlayerDep
    ) -> Response:
        return await show_page(screen, code, request, renderer, store, player)

    @router.get("/{code}/practice", name=f"{screen.slug}-practice")
    async def practice_page(
        code: str, request: Request, renderer: RendererDep, store: StoreDep, player: PlayerDep
    ) -> Response:
        return await show_page(screen, code, request, renderer, store, player, practice=True)

    hint_route(router, screen)
    action_route(router, screen, "undo", TokenForm)(lambda form: _undo)
    action_route(router, screen, "redo", TokenForm)(lambda form: _redo)
    action_route(router, screen, "restart", TokenForm)(
        lambda form: _restart if form.confirm == "yes" else _ask_restart
    )
    return router
