"""Where the win slipped away, on the page (issue 33): the finding of an ended game's analysis
(:mod:`app.services.analyses`) in the end box and on the replay page, and the winning line it
carries as a replay of its own.

- ``GET /replay/ID/analysis``: the finding as a fragment (``#analysis``), for the end box and
  the replay page (htmx, ``load``); while the analysis runs, the fragment asks again every
  2 s. Without JavaScript the end box links the replay page, which draws the same finding (a
  link reloads it while the analysis runs).
- ``GET /replay/ID/win?step=N``: the game's first *k* moves, then the winning line, stepped
  like any replay (without a step, and from *See a win*, at move *k*);
  ``GET /replay/ID/win.txt`` the same as text (``POST /replay`` checks every move of it).

Never during play: a replay exists only once its game has ended, only a game that ended
without a win is analysed, and while the replay's player plays that game on (an Undo after
the end) the finding is withheld from everyone until it ends again. A request without a cookie only
reads a stored finding: it never starts an analysis (a GET without a cookie writes nothing).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Final

from babel.support import NullTranslations
from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from markupsafe import Markup

from app.engine.analysis import Analysis, Finding
from app.engine.codes import DealCode
from app.engine.replay import Line, LineError
from app.i18n import N_
from app.services.analyses import ANALYSED_STATES, Analyst, Answer, Progress, line_digest
from app.status import Status
from app.store import SessionData, Store
from app.store.replays import StoredReplay
from app.web.edge.dependencies import (
    PlayerDep,
    RendererDep,
    StoreDep,
    checked_form,
    client_of,
    get_page,
)
from app.web.edge.errors import PlayerError
from app.web.edge.htmx import NO_STORE, html_answer, is_htmx, vary_on_htmx
from app.web.pages.reading import StepQuery
from app.web.play.actions import act
from app.web.play.decide import begin_at
from app.web.play.forms import ActionForm
from app.web.players.sessions import Player
from app.web.rendering.board_markup import draw, words
from app.web.rendering.context import PageBase
from app.web.rendering.notices import Said
from app.web.rendering.screen import screen_for
from app.web.review.linecache import line_cache
from app.web.review.replay_pages import (
    Result,
    find_replay,
    render_page,
    stored_line,
    stored_view,
    text_answer,
)
from app.web.review.withheld import DAILY_PRIVATE, daily_line_private, daily_private, playing_on

router = APIRouter()

FRAGMENT: Final = "partials/analysis.html"
POLL: Final = "every 2s"
"""How often a running analysis's fragment asks again."""

TEXTS: Final = {
    "running": N_("Looking for where it slipped away…"),
    "busy": N_(
        "Many games are waiting to be looked at just now: this one joins the queue as soon as"
        " there is room."
    ),
    Finding.CANNOT_WIN: N_("This deal cannot be won: no sequence of moves wins it."),
    Finding.UNDECIDED: N_("The solver could not decide this in its budget."),
}


def _slipped_text(k: int, move: str, t: NullTranslations) -> str:
    if k == 0:
        said = N_("You could have won from the deal. Move 1 lost it: %(move)s")
        return t.gettext(said) % {"move": move}
    said = N_("You could still have won until move %(k)s. Move %(next)s lost it: %(move)s")
    return t.gettext(said) % {"k": k, "next": k + 1, "move": move}


@dataclass(frozen=True, slots=True)
class Shown:
    """What the fragment draws: nothing (``None`` text), a finding, or the analysis under way."""

    ident: str
    text: str | None = None
    kind: str = ""
    poll: bool = False
    win_url: str | None = None
    win_label: str = ""
    try_label: str = ""
    token: str = ""
    """The asker's form token, for *Try from move k*."""


def analyst_of(request: Request) -> Analyst:
    found: Analyst = request.app.state.analyst
    return found


async def answer_of(request: Request, store: Store, player: Player, replay: StoredReplay) -> Answer:
    """Where the analysis of ``replay`` stands for this asker (one that starts nothing when the
    request came without a cookie, or while the replay's player plays the game on:
    ``NONE``)."""
    if replay.state not in ANALYSED_STATES or await playing_on(store, player, replay):
        return Answer(Progress.NONE)
    if player.fresh:
        data = await store.analysis(replay.id)
        if data is None or data.get("for") != line_digest(replay):
            return Answer(Progress.NONE)
        return Answer(Progress.DONE, data)
    return await analyst_of(request).answer(
        store, replay, player=player.sid, client=client_of(request)
    )


async def finding_of(
    request: Request, store: Store, player: Player, replay: StoredReplay
) -> tuple[Progress, Analysis[Any] | None]:
    """:func:`answer_of`, and the finding it read when ``DONE``."""
    answer = await answer_of(request, store, player, replay)
    return answer.progress, _finding(replay, answer)


def _finding(replay: StoredReplay, answer: Answer) -> Analysis[Any] | None:
    if answer.progress is not Progress.DONE:
        return None
    game = screen_for(DealCode.parse(replay.code)).game
    return Analysis.from_data(answer.finding, game.parse_move)  # another version's: none


async def shown(
    request: Request,
    store: Store,
    player: Player,
    replay: StoredReplay,
    lang: str,
    t: Any,
    token: str,
) -> Shown:
    answer = await answer_of(request, store, player, replay)
    finding = _finding(replay, answer)
    if answer.progress is Progress.QUEUED and answer.ahead > 0:
        said = t.ngettext(
            "Waiting for its turn: %(n)s game before this one.",
            "Waiting for its turn: %(n)s games before this one.",
            answer.ahead,
        )
        return Shown(replay.id, said % {"n": answer.ahead}, "queued", poll=True)
    if answer.progress in (Progress.RUNNING, Progress.QUEUED, Progress.BUSY):
        key = "busy" if answer.progress is Progress.BUSY else "running"
        return Shown(replay.id, t.gettext(TEXTS[key]), key, poll=True)
    if answer.progress is Progress.SPENT:
        minutes = max(1, math.ceil(answer.retry_after / 60))
        said = t.ngettext(
            "Games from your connection have used their analysis time for this hour: this"
            " one can be looked at in about %(n)s minute.",
            "Games from your connection have used their analysis time for this hour: this"
            " one can be looked at in about %(n)s minutes.",
            minutes,
        )
        return Shown(replay.id, said % {"n": minutes}, "spent")
    if finding is None:
        return Shown(replay.id)
    if finding.kind is not Finding.SLIPPED:
        return Shown(replay.id, t.gettext(TEXTS[finding.kind]), finding.kind.value)
    winning = await _winning(request, replay, finding)
    if winning is None:  # not a finding this game's line bears out (damage): none
        return Shown(replay.id)
    line, k = winning.played, winning.k
    screen = screen_for(line.code)
    move = screen.describe_move(line.position(k), line.move(k + 1), lang)
    if await daily_private(replay):  # where it slipped, not how to win: the day is open
        said = f"{_slipped_text(k, move, t)} {t.gettext(DAILY_PRIVATE)}"
        return Shown(replay.id, said, finding.kind.value)
    return Shown(
        replay.id,
        _slipped_text(k, move, t),
        finding.kind.value,
        win_url=f"/replay/{replay.id}/win?step={k}",  # where the line leaves the game
        win_label=t.gettext(N_("See a win from move %(k)s")) % {"k": k},
        try_label=t.gettext(N_("Try from move %(k)s")) % {"k": k},
        token=token,
    )


def token_of(page: PageBase) -> str:
    return page.session.token if page.session is not None else ""


def fragment_html(s: Shown, t: NullTranslations) -> Markup:
    """``#analysis``: the finding, or the analysis under way (asking again), or an empty slot."""
    texts = words(
        heading=t.gettext(N_("Where the win slipped away")),
        again=t.gettext(N_("Look again")),
    )
    return Markup(draw(FRAGMENT, "analysis", s, texts, POLL))


def placeholder_html(ident: str, t: NullTranslations) -> Markup:
    """The end box's slot before the finding comes: loads it (htmx), or without JavaScript
    links the replay page, which draws it."""
    label = t.gettext(N_("Where did the win slip away?"))
    return Markup(draw(FRAGMENT, "placeholder", ident, label))


@router.get("/replay/{ident}", name="replay")
async def replay_page(
    ident: str,
    request: Request,
    renderer: RendererDep,
    store: StoreDep,
    player: PlayerDep,
    step: StepQuery = "0",
) -> Response:
    replay = await find_replay(store, ident)
    line = await stored_line(request, replay)
    page = await get_page(request, store, player)
    result = Result(Status(replay.state), replay.ms, replay.moves, replay.score)
    path, key = f"/replay/{replay.id}", (replay.id, replay.line)
    view = await stored_view(request, page, line, result, step, path, key)
    if replay.state != Status.WON:  # where the win slipped away (issue 33)
        found = await shown(request, store, player, replay, page.lang, page.t, token_of(page))
        view["analysis"] = fragment_html(found, page.t)
    return await render_page(request, renderer, page, view)


@router.get("/replay/{ident}/analysis", name="replay-analysis")
async def analysis_fragment(
    ident: str, request: Request, store: StoreDep, player: PlayerDep
) -> Response:
    """The finding as a fragment (htmx); a plain GET goes to the replay page, which draws it."""
    replay = await find_replay(store, ident)
    if not is_htmx(request):
        return RedirectResponse(f"/replay/{replay.id}#analysis", 303, headers=NO_STORE)
    page = await get_page(request, store, player)
    s = await shown(request, store, player, replay, page.lang, page.t, token_of(page))
    return vary_on_htmx(html_answer(str(fragment_html(s, page.t))))


NO_WIN_LINE: Final = (
    N_("No winning line here"),
    N_("This replay has no winning line: only a game that could have been won has one, once"
       " its analysis has ended."),
)  # fmt: skip
"""The 404 of a replay without a winning line: its title and its sentence."""


def no_win_line() -> PlayerError:
    return PlayerError.fixed(404, *NO_WIN_LINE)


@dataclass(frozen=True, slots=True)
class Winning:
    """The winning line from a game's slip: the game's line, the win (its first *k* moves,
    then the finding's line), *k*, and the key both are kept under by this worker."""

    played: Line[Any, Any]
    line: Line[Any, Any]
    k: int
    key: tuple[str, str]


async def _winning(
    request: Request, replay: StoredReplay, finding: Analysis[Any]
) -> Winning | None:
    """``None`` unless the finding slipped at a move of this game's line and its line wins."""
    k = finding.last_winnable
    if finding.kind is not Finding.SLIPPED or k is None:
        return None
    played = await stored_line(request, replay)
    if k >= len(played):
        return None
    wins = " ".join(str(move) for move in finding.winning_line)
    key = (replay.id, f"win:{k}:{wins}:{replay.line}")
    cache = line_cache(request)
    line = cache.get(key)
    if line is None:
        try:
            line = Line(played.game, played.code, [*played.moves[:k], *finding.winning_line])
        except LineError:  # a finding that no longer replays (the rules changed): none
            return None
        if not line.position(len(line)).is_won():
            return None
        cache.keep(key, line)
    return Winning(played, line, k, key)


async def _win_line(
    request: Request, store: Store, player: Player, ident: str
) -> tuple[StoredReplay, Winning]:
    replay = await find_replay(store, ident)
    _, finding = await finding_of(request, store, player, replay)
    winning = None if finding is None else await _winning(request, replay, finding)
    if winning is None:
        raise no_win_line()
    if await daily_private(replay):
        raise daily_line_private()
    return replay, winning


@router.get("/replay/{ident}/win.txt", name="replay-win-text")
async def win_text(ident: str, request: Request, store: StoreDep, player: PlayerDep) -> Response:
    """The winning line as text: the deal code, the game's first *k* moves, then the win."""
    _, winning = await _win_line(request, store, player, ident)
    return text_answer(winning.line)


@router.get("/replay/{ident}/win", name="replay-win")
async def win_page(
    ident: str,
    request: Request,
    renderer: RendererDep,
    store: StoreDep,
    player: PlayerDep,
    step: StepQuery | None = None,
) -> Response:
    """The game's first *k* moves, then a winning line, stepped like any replay; without a
    step it opens at move *k*, where the line leaves the game (issue 45: the player's own
    moves are behind them, the win ahead; First still reaches the deal)."""
    replay, winning = await _win_line(request, store, player, ident)
    line = winning.line
    page = await get_page(request, store, player)
    result = Result(Status.WON, None, len(line), line.game.points(line.position(len(line))))
    path = f"/replay/{replay.id}/win"
    shown_step = str(winning.k) if step is None else step
    s = await stored_view(request, page, line, result, shown_step, path, winning.key)
    s |= {"win_from": winning.k, "played_url": f"/replay/{replay.id}"}
    return await render_page(request, renderer, page, s)


PRACTICE_BEGUN: Final = N_("Practice from move %(k)s: it counts nowhere.")


@router.post("/replay/{ident}/try", name="replay-try")
async def try_from(ident: str, request: Request, store: StoreDep, player: PlayerDep) -> Response:
    """*Try from move k*: the player's practice game of the deal — its own row and URL beside
    the player's game, which stays as it is (issue 43) — at the board after the game's first
    *k* moves (Undo and Restart stop there), counted in no statistics, streak or standing.
    An action like any other (:func:`app.web.play.actions.act`): the form token, a new game against
    the client's limit, the proof of the board's verdict after the commit, the same answers."""
    form = await checked_form(request, store, player, ActionForm, f"/replay/{ident}")
    _, winning = await _win_line(request, store, player, ident)
    line, k = winning.line, winning.k
    moves = list(line.moves[:k])

    def begin(game: Any, session: SessionData, now: int) -> Said:
        begin_at(game, moves, now)
        return Said(lambda t: t.gettext(PRACTICE_BEGUN) % {"k": k})

    screen = screen_for(line.code)
    return await act(request, screen, line.code, form.token, begin, practice=True, start=k)
