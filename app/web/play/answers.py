"""Step three of a game action (:func:`app.web.play.actions.act`): **answer** what was made — for
htmx the changed parts of the board plus the info bar and the live region out of band, a 303
back to the page without it.

It comes after the commit, so it never says "not made" (issue 34): when the statistics the
end box adds cannot be read, the box goes without them (the next read shows them).
"""

from __future__ import annotations

import logging

from fastapi import Request
from fastapi.responses import RedirectResponse, Response

from app.i18n import translations
from app.status import Status
from app.store import Store
from app.web.edge.htmx import NO_STORE, html_answer, is_htmx, vary_on_htmx
from app.web.play.decide import Acted, Turn
from app.web.players.sessions import Player, signer_of
from app.web.rendering.board_markup import board_html
from app.web.rendering.board_values import BOARD_VERSION_HEADER, CODE, KEPT_HEADER, BoardFacts, fill
from app.web.rendering.context import asked, info_view, language
from app.web.rendering.ending import as_practice, result_or_none, with_result
from app.web.rendering.infobar import info_changes, oob, status_html
from app.web.rendering.notices import QUESTIONS, Said, notice_query, sentence
from app.web.rendering.screen import AnyScreen

log = logging.getLogger(__name__)


async def answer(request: Request, turn: Turn, acted: Acted) -> Response:
    """The htmx fragment, or the 303 back to the page (its notice signed into the URL)."""
    if is_htmx(request):
        return await _fragment(request, turn, acted)
    said, screen, page_url = acted.said, turn.screen, turn.page_url
    notice = said.notice or ""
    shown = bool(notice) and screen.notice(notice, acted.game) is not None
    signer, sid = signer_of(request.app), Player.from_request(request).sid
    query = [notice_query(signer, sid, page_url, notice, acted.game.move_count)] if shown else []
    query += [f"ask={said.ask}"] if said.ask else []
    url = page_url + ("?" + "&".join(query) if query else "")
    return vary_on_htmx(RedirectResponse(url, 303, headers=NO_STORE))


async def _fragment(request: Request, turn: Turn, acted: Acted) -> Response:
    """Out-of-band swaps only: ``#board``'s own attributes (morphed, children kept), the places
    whose markup changed, the ending box when it changed, the info bar and the live region —
    or the whole board (:func:`board_answer`)."""
    session, game, said, screen = acted.session, acted.game, acted.said, turn.screen
    lang = language(request, session)
    t = translations(lang)
    message = sentence(said.message(t), lang) if said.message else None
    # the end of the game and a question are on the board already: announced, not shown twice
    spoken = screen.ending(game, t, acted.state, session.zen) if acted.ended else None
    asking = asked(said.ask, game)
    if asking:
        spoken = t.gettext(QUESTIONS[asking])
    after = screen.facts(game, session, acted.state, asking)
    before, after = await _with_statistics(request, turn, acted.before, after)
    if turn.practice:  # its end box says it counts nowhere (issue 43)
        start = acted.row.marks.start if acted.row is not None else turn.start or 0
        before = None if before is None else as_practice(before, start)
        after = as_practice(after, start)
    board, version = board_answer(request, screen, before, after, lang, session.token, said)
    code = turn.key
    info = info_view(request, screen, game, code, after.score, session.zen)
    board += info_changes(lang, screen.view(lang, game), info)
    won = acted.ended and acted.state == Status.WON
    sound = ("win" if won else said.sound) if session.sound else None
    status = status_html(message, True, spoken, sound, said.flight)
    headers = {**NO_STORE, BOARD_VERSION_HEADER: version}
    if said.notice == "moved-on":  # a kept action not made: the page stops sending the rest
        headers[KEPT_HEADER] = "refused"
    return html_answer(fill(board, session.token, code) + status, headers=headers)


async def _with_statistics(
    request: Request, turn: Turn, before: BoardFacts | None, after: BoardFacts
) -> tuple[BoardFacts | None, BoardFacts]:
    """The end box's additions, on both sides: an action on a finished game (Undo) changes
    neither, so the page it came from still matches the board it started from. When the store
    cannot read them, both sides go without (the page's board then differs: it gets the
    whole board)."""
    if not after.state.is_over and (before is None or not before.state.is_over):
        return before, after
    store: Store = request.app.state.store
    sid, code = Player.from_request(request).sid, turn.key
    result = await result_or_none(store, sid, code, turn.screen.ranks_wins_by_moves)
    return (None if before is None else with_result(before, result)), with_result(after, result)


def board_answer(
    request: Request,
    screen: AnyScreen,
    before: BoardFacts | None,
    after: BoardFacts,
    lang: str,
    token: str,
    said: Said,
) -> tuple[str, str]:
    """The board's part of an htmx answer and the new board version: the changed places, or
    the whole board (swapped by id) for a page that does not show the board the action
    started from — the form's card was gone, or the page's board version (``X-Board-Version``,
    sent by ``#board``'s inherited ``hx-headers``) is not the server's."""
    seen = request.headers.get(BOARD_VERSION_HEADER)
    parts = screen.board_parts(after, lang)
    version = screen.board_version(after, parts, lang, token)
    if before is not None and seen is not None and said.notice != "stale":
        before_parts = screen.board_parts(before, lang)
        if seen == screen.board_version(before, before_parts, lang, token):
            return changes(screen, before, after, before_parts, parts, lang, version), version
    inner = screen.layout(parts) + screen.ending_html(after, lang)
    return board_html(screen.slug, CODE, after, version, "true", inner), version


def changes(
    screen: AnyScreen,
    before: BoardFacts,
    after: BoardFacts,
    before_parts: list[str],
    parts: list[str],
    lang: str,
    version: str,
) -> str:
    """``#board``'s attributes, the places whose markup changed and the ending when it did."""
    out = [board_html(screen.slug, CODE, after, version, "outerMorph")]
    # places that gain cards go first: htmx gives the focus back by id after each swap, so a
    # focused card that moves keeps it only if its new place is already on the page when its
    # old place is swapped
    changed = sorted(
        (before.places[i].count - after.places[i].count, i)
        for i in range(len(parts))
        if parts[i] is not before_parts[i] and parts[i] != before_parts[i]
    )
    out.extend(oob(parts[i]) for _, i in changed)
    if after.ending != before.ending:
        out.append(oob(screen.ending_html(after, lang)))
    return "".join(out)
