"""The action pipeline every game route shares: read the form once, rebuild the saved game,
apply one engine action atomically in the store, prove verdicts off the request path, answer.

A game's action is a function from its validated form (an :class:`~app.web.forms.ActionForm`
whose fields are already the engine's values) to the :data:`Action` that calls the engine;
registered with :func:`action_route`, the route checks the request, parses the deal code and
the form once, and lets :func:`act` answer — the changed parts of the board plus the info bar
and live region out of band for htmx, a 303 back to the page without it. The form is read by
:mod:`app.web.forms`, the saved game rebuilt and its verdict settled by :mod:`app.web.verdicts`,
the game kept between actions by :mod:`app.web.gamecache`, the end box's additions by
:mod:`app.web.ending`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from app.clock import now_ms
from app.engine.codes import DealCode
from app.engine.game import MAX_RECORD_MOVES
from app.engine.games import AnyGame
from app.i18n import translations
from app.services import daily
from app.status import Status
from app.store import SessionData, Store, StoredGame
from app.store.base import carry
from app.store.replays import new_replay_id, replay_id
from app.web.board import BOARD_VERSION_HEADER, CODE, BoardFacts, fill
from app.web.codes import parse_code
from app.web.context import asked, info_view, language
from app.web.dependencies import (
    guard_write,
    limit,
    may_create,
)
from app.web.ending import game_result, with_result
from app.web.errors import PlayerError
from app.web.forms import FormT, read_form
from app.web.gamecache import GameCache, Kept, game_cache, mark_of, same_row
from app.web.htmx import NO_STORE, html_answer, is_htmx, vary_on_htmx
from app.web.markup import board_html
from app.web.notices import QUESTIONS, UNREADABLE, Said, notice_query, sentence
from app.web.retries import replay_key, replayed, with_key
from app.web.screen import AnyScreen
from app.web.sessions import Player, check_token, signer_of
from app.web.verdicts import rebuild, settle_verdict
from app.web.views import info_changes, oob, status_html

Action = Callable[[Any, SessionData, int], Said]
"""One engine action, its form's values already bound: given the game of the route's screen
(its own class: a Half Moon route's action takes a ``HalfMoon``), the session and the time."""


@dataclass(frozen=True, slots=True)
class Acted:
    """What :func:`act`'s store callback hands back to the answer."""

    session: SessionData
    game: AnyGame
    said: Said
    before: BoardFacts | None
    """The board before the action (``None`` when the saved game could not be read)."""
    state: Status
    ended: bool
    """The action ended the game (announced; the board shows the ending)."""
    created: bool = False
    """The action wrote a game the session had not played yet, or started a deal again after
    its game ended (Restart, *Play this deal again*: the next replay's game): a new game."""
    row: StoredGame | None = None
    """The game's row after the action: the one written, or the one read when nothing was."""
    mark: tuple[Any, ...] | None = None
    """:func:`~app.web.gamecache.mark_of` of ``game`` when ``row`` was decided (the game still
    is that row while its mark is this one)."""


async def act(
    request: Request, screen: AnyScreen, code: DealCode, token: str, action: Action
) -> Response:
    """Apply one action to the player's game atomically, then answer htmx or the plain form.

    An htmx answer is out-of-band swaps only: ``#board``'s own attributes (morphed, children
    kept), the places whose markup changed, the ending box when it changed, the info bar and
    the live region. The whole board (swapped by id) answers a page that does not show the
    board the action started from: the form's card was gone, or the page's board version
    (``X-Board-Version``, sent by ``#board``'s inherited ``hx-headers``) is not the server's.

    A game the session has not played yet counts against the client's limit of new games,
    and so does a deal started again after its game ended (Restart, *Play this deal again*:
    its ending makes a new replay): when the limit is spent the action is refused (429) and
    nothing is written. A move past
    :data:`MAX_RECORD_MOVES` is refused too, so every record written can be read back.
    """
    store: Store = request.app.state.store
    player = Player.from_request(request)
    code_str = str(code)
    page_url = screen.url(code_str)
    creating = await may_create(request)
    # a daily deal counts for the day it was first played on, and only when that is its own
    # day (issue 23): yesterday's deal begun today counts for no day's streak
    today = daily.today()
    daily_day = today if await daily.day_of(code_str) == today else None
    replay = await replay_key(request)

    def decide(
        session: SessionData, stored: StoredGame | None, game: AnyGame, unreadable: bool
    ) -> tuple[StoredGame | None, Acted]:
        if not unreadable and stored is not None and replayed(stored, replay):
            # made already, its answer lost (app.web.retries): answer the board as it is
            # now, whole (the page shows the board the action started from); write nothing
            return None, Acted(
                session,
                game,
                Said(),
                None,
                Status(stored.state),
                False,
                row=stored,
                mark=mark_of(game),
            )
        before = None if unreadable else screen.facts(game, session)
        mark = None if unreadable else mark_of(game)
        now = now_ms()
        said = action(game, session, now)
        after_mark = mark_of(game)
        changed = unreadable or after_mark != mark
        state = game.status() if changed or before is None else before.state
        if unreadable and said.message is None:
            said = Said(UNREADABLE, "unreadable")
        if changed and game.move_count > MAX_RECORD_MOVES:
            raise PlayerError.game_too_long(MAX_RECORD_MOVES, page_url)
        was_over = before is not None and before.state.is_over
        ended = changed and state.is_over and not was_over
        saved = None
        if changed:
            saved = carry(stored, screen.stored(game, game.to_record(), now, state), new_replay_id)
        # a new game, or the game that ended (it has a replay) begun again: its ending makes a
        # new replay, so it counts against the new-games limit (issue 26: docs/security.md)
        created = changed and (
            stored is None
            or (replay_id(stored) is not None and saved is not None and saved.marks.replay is None)
        )
        if created and not creating.allowed:
            raise PlayerError.rate_limited(creating.retry_after, page_url)
        if saved is not None and stored is None and daily_day is not None:  # the streak's day
            saved = saved.with_marks(saved.marks._replace(daily=daily_day))
        if saved is not None:
            saved = with_key(saved, replay)
        row = saved or stored
        return saved, Acted(session, game, said, before, state, ended, created, row, after_mark)

    # the game as this worker last wrote it: decided here, only checked in the transaction
    cache = game_cache(request)
    kept = cache.take(player.sid, code_str)
    early: tuple[StoredGame | None, Acted] | PlayerError | None = None
    if kept is not None:
        try:
            early = decide(kept.session, kept.row, kept.game, False)
        except PlayerError as error:  # raised in the transaction, after the token's check
            early = error

    def change(
        session: SessionData | None, stored: StoredGame | None
    ) -> tuple[StoredGame | None, Acted]:
        session = check_token(player, session, token, page_url)
        if (
            kept is not None
            and early is not None
            and stored is not None
            and session == kept.session
            and same_row(stored, kept.row)
        ):
            if isinstance(early, PlayerError):
                raise early
            return early
        game, unreadable = rebuild(screen, code, stored)
        return decide(session, stored, game, unreadable)

    acted = await store.change_game_async(player.sid, code_str, change)
    said, ended, state = acted.said, acted.ended, acted.state
    if acted.created:
        await limit(request, "new")
    # the verdict on the new position: proved outside the store's writer (it may search)
    was_over = acted.before is not None and acted.before.state.is_over
    if await settle_verdict(request, store, player.sid, screen, acted.game):
        state = acted.game.status()
        ended = ended or not was_over
    if not is_htmx(request):
        notice = said.notice or ""
        shown = bool(notice) and screen.notice(notice, acted.game) is not None
        signer, moves = signer_of(request.app), acted.game.move_count
        query = [notice_query(signer, player.sid, page_url, notice, moves)] if shown else []
        query += [f"ask={said.ask}"] if said.ask else []
        url = page_url + ("?" + "&".join(query) if query else "")
        _keep(cache, player.sid, code_str, acted)
        return vary_on_htmx(RedirectResponse(url, 303, headers=NO_STORE))
    session, game = acted.session, acted.game
    lang = language(request, session)
    t = translations(lang)
    message = sentence(said.message(t), lang) if said.message else None
    # the end of the game and a question are on the board already: announced, not shown twice
    spoken = screen.ending(game, t, state, session.zen) if ended else None
    asking = asked(said.ask, game)
    if asking:
        spoken = t.gettext(QUESTIONS[asking])
    after = screen.facts(game, session, state, asking)
    before = acted.before
    if after.state.is_over or (before is not None and before.state.is_over):
        # the end box's additions, on both sides: an action on a finished game (Undo) changes
        # neither, so the page it came from still matches the board it started from
        result = await game_result(store, player.sid, code_str, screen.ranks_wins_by_moves)
        after = with_result(after, result)
        before = None if before is None else with_result(before, result)
    board, version = _board_answer(request, screen, before, after, lang, session.token, said)
    info = info_view(request, screen, game, code_str, after.score, session.zen)
    board += info_changes(lang, screen.view(lang, game), info)
    sound = ("win" if ended and state == Status.WON else said.sound) if session.sound else None
    status = status_html(message, True, spoken, sound, said.flight)
    html = fill(board, session.token, code_str) + status
    headers = {**NO_STORE, BOARD_VERSION_HEADER: version}
    _keep(cache, player.sid, code_str, acted)
    return html_answer(html, headers=headers)


def _keep(cache: GameCache, sid: str, code: str, acted: Acted) -> None:
    """Cache the game when it still is the row the store now holds (a verdict proved after
    the commit may have stopped its clock: then it is rebuilt next time)."""
    if acted.row is not None and acted.mark is not None and mark_of(acted.game) == acted.mark:
        cache.keep(sid, code, Kept(acted.row, acted.game, acted.session))


def _board_answer(
    request: Request,
    screen: AnyScreen,
    before: BoardFacts | None,
    after: BoardFacts,
    lang: str,
    token: str,
    said: Said,
) -> tuple[str, str]:
    """The board's part of an htmx answer (the changed places, or the whole board) and the
    new board version."""
    seen = request.headers.get(BOARD_VERSION_HEADER)
    parts = screen.board_parts(after, lang)
    version = screen.board_version(after, parts, lang, token)
    if before is not None and seen is not None and said.notice != "stale":
        before_parts = screen.board_parts(before, lang)
        if seen == screen.board_version(before, before_parts, lang, token):
            return _changes(screen, before, after, before_parts, parts, lang, version), version
    inner = screen.layout(parts) + screen.ending_html(after, lang)
    return board_html(screen.slug, CODE, after, version, "true", inner), version


def _changes(
    screen: AnyScreen,
    before: BoardFacts,
    after: BoardFacts,
    before_parts: list[str],
    parts: list[str],
    lang: str,
    version: str,
) -> str:
    out = [board_html(screen.slug, CODE, after, version, "outerMorph")]
    # places that gain cards go first: htmx
    # gives the focus back by id after each swap, so a focused card that moves keeps it only
    # if its new place is already on the page when its old place is swapped.
    changed = sorted(
        (before.places[i].count - after.places[i].count, i)
        for i in range(len(parts))
        if parts[i] is not before_parts[i] and parts[i] != before_parts[i]
    )
    out.extend(oob(parts[i]) for _, i in changed)
    if after.ending != before.ending:
        out.append(oob(screen.ending_html(after, lang)))
    return "".join(out)


def action_route(
    router: APIRouter, screen: AnyScreen, verb: str, model: type[FormT]
) -> Callable[[Callable[[FormT], Action]], Callable[[FormT], Action]]:
    """Register ``POST /{game}/{code}/{verb}`` for the decorated function, which turns the
    validated form into the :data:`Action` to apply. The route checks the request
    (:func:`app.web.dependencies.guard_write`), parses the deal code, validates the form once
    against that deal, and hands the action to :func:`act`."""

    def register(make: Callable[[FormT], Action]) -> Callable[[FormT], Action]:
        async def endpoint(code: str, request: Request) -> Response:
            await guard_write(request)  # same origin, and the write rate limit
            deal = parse_code(screen, code, action=True)
            form = await read_form(request, model, deal)
            return await act(request, screen, deal, form.token, make(form))

        name = f"{screen.slug}-{verb}"
        router.add_api_route(f"/{{code}}/{verb}", endpoint, methods=["POST"], name=name)
        return make

    return register
