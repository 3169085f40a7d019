"""Replays (issue 26): every finished game, step by step, for anyone with its link.

- ``GET /replay/ID?step=N``: the board after ``N`` moves (0: the deal), the move that led there
  in words, First / Previous / Next / Last and a slider (links and a GET form; htmx swaps
  ``#replay`` and the cards move as on the game screens), every move in words as a list whose
  entries go to their step (issue 35: lichess's move list), the game's result, time, moves and
  score; with JavaScript, play and pause at a chosen speed. Read-only: no game form.
- ``GET /replay/ID.txt``: the game as text (:meth:`app.engine.replay.Line.text`).
- ``GET /replay``: a form for such a text; ``POST /replay`` checks every move with the rules
  and shows the replay without storing anything (its steps are POSTs of the same text).
- ``POST /replay/ID/delete``: the player deletes their replay (from ``/stats``); its link then
  answers 404.

A replay's page shows the game and nothing of its player (no session id, no token of theirs,
no other game). Its line is replayed once per worker (:class:`LineCache`; a first replay of a
long game runs in the thread pool); a step then costs a snapshot and fewer than
:data:`~app.engine.replay.SNAPSHOT_EVERY` moves. A GET never writes.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Final

from babel.support import NullTranslations
from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from markupsafe import Markup
from pydantic import Field
from starlette.concurrency import run_in_threadpool

from app.engine.codes import DealCode, DealCodeError
from app.engine.game import MAX_RECORD_MOVES, RecordError
from app.engine.games import UnknownGameError, format_help, game_for_code
from app.engine.replay import TEXT_MAX, Line, LineError
from app.i18n import N_
from app.status import Status
from app.store import Store
from app.store.replays import ID_PATTERN, StoredReplay
from app.web.edge.dependencies import (
    PlayerDep,
    RendererDep,
    StoreDep,
    checked_form,
    checked_form_page,
    get_page,
    public_origin,
)
from app.web.edge.errors import PlayerError
from app.web.edge.htmx import NO_STORE, html_answer, vary_on_htmx
from app.web.pages.reading import Pager, parse_step
from app.web.play.forms import ActionForm
from app.web.players.sessions import signer_of
from app.web.rendering.board_markup import board_html
from app.web.rendering.board_values import BoardFacts
from app.web.rendering.context import PageBase
from app.web.rendering.infobar import clock_text
from app.web.rendering.notices import notice_query
from app.web.rendering.screen import AnyScreen, screen_for
from app.web.rendering.templates import Renderer
from app.web.review.linecache import line_cache
from app.web.review.movelist import move_list, told_window, window_of

router = APIRouter()

TEMPLATE: Final = "pages/replay.html"
FORM_TEMPLATE: Final = "pages/replay_form.html"

PASTED_MAX_BODY: Final = (TEXT_MAX + 5 * (MAX_RECORD_MOVES + 1) + 1024 + 1023) // 1024 * 1024
"""``POST /replay``'s body limit (the general one, ``SOLITAIRE_MAX_BODY``, is 16 KiB): the
longest text the site writes (:data:`~app.engine.replay.TEXT_MAX`) as a browser sends a form —
each line break as CR LF, percent-encoded: ``%0D%0A``, 5 bytes more than the newline — with
1 KiB for the token, the step and the fields' names, rounded up to whole KiB: 50 KiB. A
5,000-move game's own text fits; a body past this is the 413 page. Each step of a pasted
replay sends its text again (nothing is stored), so a step's request is as large."""


@dataclass(frozen=True, slots=True)
class Result:
    """How the replayed game ended, as the page shows it (a pasted game's has no time)."""

    state: Status
    """Won, stuck, lost; playing for a pasted game that was not won."""
    ms: int | None
    moves: int
    score: int


def unreadable() -> PlayerError:
    """A stored replay that no longer replays (its game's rules changed, or damage)."""
    return PlayerError.fixed(
        404, N_("Replay not found"), N_("This replay cannot be shown: it no longer replays.")
    )


def not_found() -> PlayerError:
    return PlayerError.fixed(
        404,
        N_("Replay not found"),
        N_("There is no replay at this address: it was deleted, it expired, or the link is"
           " incomplete."),
    )  # fmt: skip


async def stored_line(request: Request, replay: StoredReplay) -> Line[Any, Any]:
    """The line of a stored replay: from this worker's cache, else replayed (in the thread
    pool: a long game takes milliseconds) and kept."""
    cache = line_cache(request)
    key = (replay.id, replay.line)
    line = cache.get(key)
    if line is None:
        try:
            code = DealCode.parse(replay.code)
            game = game_for_code(code)
        except (DealCodeError, KeyError, UnknownGameError):
            raise unreadable() from None
        try:
            line = await run_in_threadpool(Line.from_moves_text, game, code, replay.line)
        except RecordError:
            raise unreadable() from None
        cache.keep(key, line)
    return line


async def find_replay(store: Store, ident: str) -> StoredReplay:
    replay = await store.replay(ident) if ID_PATTERN.fullmatch(ident) else None
    if replay is None:
        raise not_found()
    return replay


OUTCOMES: Final = {
    Status.WON: N_("won in %(time)s"),
    Status.STUCK: N_("lost after %(time)s"),
    Status.LOST: N_("lost after %(time)s"),
}
"""A stored game's result in a title ("Half Moon HM1-N-… — won in 4:12")."""

PASTED: Final = {
    Status.WON: N_("won"),
    Status.STUCK: N_("lost"),
    Status.LOST: N_("lost"),
    Status.PLAYING: N_("not won"),
}


def _outcome(result: Result, t: NullTranslations, zen: bool) -> str:
    if result.ms is None or zen:
        return t.gettext(PASTED[result.state])
    return t.gettext(OUTCOMES[result.state]) % {"time": clock_text(result.ms)}


def view(
    screen: AnyScreen,
    line: Line[Any, Any],
    result: Result,
    step: int,
    lang: str,
    t: NullTranslations,
    zen: bool = False,
) -> dict[str, Any]:
    """One step of a replay: what its template shows (plain data, the board as markup); in
    *Zen* (the viewer's) neither the time nor the score."""
    code, last = line.code, len(line)
    position = line.position(step)
    said = t.gettext(N_("The deal, before the first move."))
    if step:
        move = screen.describe_move(line.position(step - 1), line.move(step), lang)
        said = t.gettext(N_("Move %(step)s: %(move)s")) % {"step": step, "move": move}
    # the next move's cards raised and ringed, and told (issue 45: as the examples pages do)
    upcoming = ""
    ringed: tuple[str, ...] = ()
    if step < last:
        coming = line.move(step + 1)
        ringed = tuple(screen.move_ringed(position, coming))
        upcoming = t.gettext(N_("Next move: %(move)s")) % {
            "move": screen.describe_move(position, coming, lang)
        }
    state = result.state if step == last else Status.PLAYING
    points = line.game.points(position)
    facts = BoardFacts(
        state=state, score=points, moves=step, places=(), ending=None, classes="still", zen=zen
    )
    places = screen.replay_board(code, position, lang, ringed)
    board = board_html(screen.slug, str(code), facts, None, None, places)
    name = t.gettext(screen.name)
    return {
        "name": name,
        "slug": screen.slug,
        "code": str(code),
        "title": f"{name} {code} — {_outcome(result, t, zen)}",
        "zen": zen,
        "state": result.state,
        "time": "–" if result.ms is None else clock_text(result.ms),
        "moves": result.moves,
        "score": result.score,
        "step": step,
        "last": last,
        "said": said,
        "upcoming": upcoming,
        "ended": step == last,
        "board": Markup(board),
        "play_url": screen.url(code),
    }


async def render_page(
    request: Request,
    renderer: Renderer,
    page: PageBase,
    replay: dict[str, Any],
    status: int = 200,
) -> Response:
    context = page.context(r=replay)
    html = await run_in_threadpool(renderer.page, TEMPLATE, context, page.t)
    return html_answer(html, status)


def viewer_zen(page: PageBase) -> bool:
    """The viewer's *Zen* (issue 27): no clock, no score."""
    return page.session is not None and page.session.zen


@router.get("/replay", name="replay-form")
async def replay_form(
    request: Request, renderer: RendererDep, store: StoreDep, player: PlayerDep
) -> Response:
    """The form that opens a replay from a game's text."""
    page = await get_page(request, store, player)
    html = renderer.page(FORM_TEMPLATE, page.context(text="", problem=None), page.t)
    return html_answer(html)


def text_answer(line: Line[Any, Any]) -> Response:
    """A line as text: the deal code, then one move a line (``text/plain``)."""
    return Response(line.text(), media_type="text/plain; charset=utf-8", headers=dict(NO_STORE))


async def stored_view(
    request: Request,
    page: PageBase,
    line: Line[Any, Any],
    result: Result,
    step: str,
    path: str,
    key: tuple[str, str],
) -> dict[str, Any]:
    """One step of a stored line at ``path`` (a replay, or the winning line from its slip):
    :func:`view` with the step's links, the text form, the shared address and the move list
    (kept under ``key``)."""
    number = parse_step(step, len(line))
    screen = screen_for(line.code)
    shown = view(screen, line, result, number, page.lang, page.t, viewer_zen(page))
    shown |= {
        "pager": Pager(number, len(line), path),
        "text_url": f"{path}.txt",
        "url": f"{public_origin(request)}{path}",
        "text": None,
        **window_of(number, len(line), await move_list(request, key, screen, line, page.lang)),
    }
    return shown


@router.get("/replay/{ident}.txt", name="replay-text")
async def replay_text(ident: str, request: Request, store: StoreDep) -> Response:
    """The game as text: the deal code, then one move a line (``text/plain``)."""
    return text_answer(await stored_line(request, await find_replay(store, ident)))


class PastedForm(ActionForm):
    """``POST /replay``: a game's text (:meth:`Line.text`) and the step to show."""

    text: str = Field(default="", max_length=100_000)
    step: str = "0"
    """Any text: :func:`~app.web.pages.reading.parse_step` says what is accepted."""


def problem_text(error: LineError, t: NullTranslations) -> str:
    """What is wrong with a pasted game's text, naming the line and what is accepted."""
    values: dict[str, Any] = {"line": error.number, "text": error.text}
    if error.kind == "empty":
        return t.gettext(N_("The text is empty: paste a game’s text, its deal code first."))
    if error.kind == "code":
        said = N_("Line %(line)s: “%(text)s” is not a deal code: the first line is the deal’s.")
        return t.gettext(said) % values + " " + format_help(t)
    game = error.game
    notation = t.gettext(game.notation) if game is not None else ""
    if error.kind == "move":
        return t.gettext(N_("Line %(line)s: “%(text)s” is not a move.")) % values + " " + notation
    if error.kind == "illegal":
        why = error.refusal.explain(t) if error.refusal is not None else ""
        return t.gettext(
            N_("Line %(line)s: the rules do not allow the move “%(text)s” there (%(why)s).")
        ) % {**values, "why": why}
    return t.gettext(N_("A game has at most 5000 moves: line %(line)s is one too many.")) % values


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


@router.post("/replay", name="replay-pasted")
async def replay_pasted(
    request: Request, renderer: RendererDep, store: StoreDep, player: PlayerDep
) -> Response:
    """A pasted game's replay: every move checked by the rules, nothing stored."""
    form, page = await checked_form_page(request, store, player, PastedForm, "/replay")
    cache = line_cache(request)
    key = ("", _digest(form.text))
    known = cache.get(key)
    line, html = await run_in_threadpool(pasted_page, renderer, page, form, known)
    if line is None:
        return html_answer(html, 422)
    if known is None:
        cache.keep(key, line)
    return vary_on_htmx(html_answer(html))


def pasted_page(
    renderer: Renderer, page: PageBase, form: PastedForm, line: Line[Any, Any] | None
) -> tuple[Line[Any, Any] | None, str]:
    """In a worker thread, at once (issue 44: one hand-over, none of it on the event loop):
    the pasted text checked by the rules unless ``line`` is its line already, then the page
    of the step asked for; or the form again saying what is wrong (``None``)."""
    if line is None:
        try:
            line = Line.from_text(form.text)
        except LineError as error:
            context = page.context(text=form.text, problem=problem_text(error, page.t))
            return None, renderer.page(FORM_TEMPLATE, context, page.t)
    number = parse_step(form.step, len(line))
    screen = screen_for(line.code)
    final = screen.game.starting_from(line.code, line.position(len(line)))
    screen.prepare(final)  # no search on the request path: an unproved loss reads as not won
    result = Result(final.status(), None, len(line), line.game.points(final.position))
    shown = view(screen, line, result, number, page.lang, page.t, viewer_zen(page))
    # a page of the game, not the whole of it (issue 44): the move list's hundred around the
    # step, told now (a pasted text is anyone's: nothing of it is kept but the checked line)
    _, words = told_window(screen, line, number, page.lang)
    shown |= {
        "pager": Pager(number, len(line), "/replay"),
        "text_url": None,
        "url": None,
        "text": line.text(),
        **window_of(number, len(line)),
        "move_words": words,
    }
    return line, renderer.page(TEMPLATE, page.context(r=shown), page.t)


@router.post("/replay/{ident}/delete", name="replay-delete")
async def delete_replay(
    ident: str, request: Request, store: StoreDep, player: PlayerDep
) -> Response:
    """The player deletes one of their replays; another player's is never touched."""
    await checked_form(request, store, player, ActionForm, "/stats")
    deleted = ID_PATTERN.fullmatch(ident) and await store.delete_replay(player.sid, ident)
    if not deleted:
        raise not_found()
    query = notice_query(signer_of(request.app), player.sid, "/stats", "replay-deleted")
    return RedirectResponse(f"/stats?{query}#replays", 303, headers=NO_STORE)
