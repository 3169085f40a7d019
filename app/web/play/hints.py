"""``POST /{game}/{code}/hint`` (issue 45): a move that keeps the deal winnable, shown on the
board, with *Hints* on in Settings.

The solver runs in a process (:class:`app.services.hints.Hinter`), never on the event loop; the
request awaits it (a few seconds at most) holding nothing, so no tap of anyone waits for it.
The answer is one of three: a move (its cards marked on the board, the move in words in the
live region), "no move keeps this deal winnable" (proved), or "no winning move found in time".
A move or a verdict shown marks the game *assisted* (``Marks.assisted``, :mod:`app.store.life`):
its ending counts as played, won or lost, never as a best, a deal figure or a standing.

With htmx the answer is the live region (``#status``, out of band like an action's answer or
a refusal), which carries the marked cards' ids in
``data-hint`` (``static/css/hints.css`` rings them) and is replaced by the next action's answer;
without JavaScript a 303 back to the game page, whose query carries the hint signed for this
session, page and move count (a forged or stale link shows nothing).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from app.clock import now_ms
from app.engine.games import AnyGame
from app.i18n import N_, translations
from app.services.hints import Hint, HintBusyError, Hinter
from app.store import SessionData, StoredGame
from app.store.base import carry
from app.web.edge.dependencies import PlayerDep, SameOrigin, StoreDep, limit
from app.web.edge.errors import PlayerError, token_or_refuse, unknown_field
from app.web.edge.htmx import NO_STORE, html_answer, is_htmx, vary_on_htmx
from app.web.play.gamecache import page_game
from app.web.play.urlcodes import parse_code
from app.web.players.sessions import check_token, signer_of
from app.web.rendering.context import language
from app.web.rendering.infobar import status_html
from app.web.rendering.screen import AnyScreen

HINT_MOVE = N_("Hint: %(move)s")
NO_WIN = N_("No move keeps this deal winnable.")
LATE = N_("No winning move found in time.")
STALE = N_("The board changed while the hint was looked for: ask again.")
HINTS_OFF = N_("Hints are off")
HINTS_OFF_DETAIL = N_("Turn Hints on in Settings to ask for a hint.")
NO_HINT = N_("No hint")
ENDED = N_("This game has ended: there is no move to hint.")
BUSY = N_("A hint is being looked for already. Wait for it, then ask again.")
BACK = N_("Back to the game")

QUERY: Final = "hint"
TAG: Final = "ht"


def _tag(request: Request, sid: str, page: str, value: str, moves: int) -> str:
    return signer_of(request.app).sign("hint", f"{sid}|{page}|{value}|{moves}")


def shown_hint(
    request: Request, screen: AnyScreen, game: AnyGame, sid: str, page: str, lang: str
) -> tuple[str, tuple[str, ...]] | None:
    """The hint a game page's query carries (after a hint asked without JavaScript): its
    words and the cards it marks, or ``None`` (none, forged, or the game moved on since)."""
    value = request.query_params.get(QUERY, "")[:64]
    tag = request.query_params.get(TAG, "")[:64]
    if not value or game.is_over():
        return None
    if not signer_of(request.app).verify(tag, "hint", f"{sid}|{page}|{value}|{game.move_count}"):
        return None
    hint = Hint("lost") if value == "lost" else Hint("late") if value == "late" else None
    return said(screen, game, hint or Hint("move", value), lang)


def said(
    screen: AnyScreen, game: AnyGame, hint: Hint, lang: str
) -> tuple[str, tuple[str, ...]] | None:
    """A hint's words and the ids of the cards it marks."""
    t = translations(lang)
    if hint.kind == "lost":
        return t.gettext(NO_WIN), ()
    if hint.kind == "late":
        return t.gettext(LATE), ()
    position: Any = game.position
    try:
        move = screen.game.parse_move(hint.move)
    except ValueError:
        return None
    if screen.game.check(position, move) is not None:
        return None
    words = t.gettext(HINT_MOVE) % {"move": screen.hint_words(position, move, lang)}
    return words, screen.hint_marks(position, move)


def hint_status(words: str, marks: tuple[str, ...], oob: bool = False) -> str:
    """The live region with a hint: its words, the marked cards' ids in ``data-hint``
    (``oob``: swapped by its id, as every action's answer and refusal is)."""
    html = status_html(words, oob)
    if marks:
        cut = html.index(" ")
        html = f'{html[:cut]} data-hint="{" ".join(marks)}"{html[cut:]}'
    return html


def hint_route(router: APIRouter, screen: AnyScreen) -> None:
    @router.post("/{code}/hint", name=f"{screen.slug}-hint", dependencies=[SameOrigin])
    async def hint(code: str, request: Request, store: StoreDep, player: PlayerDep) -> Response:
        deal = parse_code(screen, code, action=True)
        key = str(deal)
        page = screen.url(key)
        form = await request.form()
        token = token_or_refuse(form, [unknown_field(n) for n in form if n != "token"])
        session, stored = await store.load(player.sid, key)
        session = check_token(player, session, token, page)
        if not session.hints:
            raise PlayerError.fixed(409, HINTS_OFF, HINTS_OFF_DETAIL, (page, BACK))
        game, _ = await page_game(request, screen, deal, player.sid, session, stored, key)
        if game.is_over():
            raise PlayerError.fixed(409, NO_HINT, ENDED, (page, BACK))
        record = game.to_record()
        hinter: Hinter = request.app.state.hinter
        try:
            found = await hinter.hint(player.sid, f"{key}|{record}", game.position)
        except HintBusyError:
            raise PlayerError.fixed(429, NO_HINT, BUSY, (page, BACK)) from None
        lang = language(request, session)
        stale = found.kind != "late" and not await _mark_assisted(
            request, store, player.sid, screen, game, stored, record
        )
        if not is_htmx(request):
            value = found.move if found.kind == "move" else found.kind
            if stale:
                return vary_on_htmx(RedirectResponse(page, 303, headers=dict(NO_STORE)))
            tag = _tag(request, player.sid, page, value, game.move_count)
            url = f"{page}?{QUERY}={quote(value)}&{TAG}={tag}"
            return vary_on_htmx(RedirectResponse(url, 303, headers=dict(NO_STORE)))
        shown = None if stale else said(screen, game, found, lang)
        if shown is None:
            return html_answer(status_html(translations(lang).gettext(STALE), True))
        return html_answer(hint_status(*shown, oob=True))


async def _mark_assisted(
    request: Request,
    store: Any,
    sid: str,
    screen: AnyScreen,
    game: AnyGame,
    stored: StoredGame | None,
    record: dict[str, Any],
) -> bool:
    """Write the ``assisted`` mark on the game's row (a row for a deal not played yet): false
    when the game changed while the hint was looked for (nothing written)."""
    if stored is not None and stored.marks.assisted:
        return stored.record == record
    if stored is None:
        verdict = await limit(request, "new")
        if not verdict.allowed:
            raise PlayerError.rate_limited(verdict.retry_after)

    def change(
        session: SessionData | None, now: StoredGame | None
    ) -> tuple[StoredGame | None, bool]:
        if (now is None) != (stored is None) or (now is not None and now.record != record):
            return None, False
        if now is None:
            row = screen.stored(game, record, now_ms())
            return dataclasses.replace(row, marks=row.marks._replace(assisted=True)), True
        return carry(now, now.with_marks(now.marks._replace(assisted=True))), True

    changed: bool = await store.change_game(sid, str(game.code), change)
    return changed
