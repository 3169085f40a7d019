"""What both games' screens share: codes in URLs, loading and saving, acting, answering.

A game route does three things: parse its form (pydantic), call :func:`act` with a function
that applies one engine action, and let :func:`act` answer — the board fragment plus
out-of-band info bar and live region for htmx, a 303 back to the page without it.
"""

from __future__ import annotations

import dataclasses
import functools
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Literal, TypeVar
from urllib.parse import parse_qsl, quote

from babel.support import NullTranslations
from fastapi import APIRouter, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app import daily
from app.clock import now_ms
from app.dependencies import (
    PlayerDep,
    RendererDep,
    StoreDep,
    guard_write,
    limit,
    may_create,
)
from app.engine.codes import DealCode, DealCodeError
from app.engine.game import AWAY_MS, MAX_RECORD_MOVES, RecordError, Refusal
from app.engine.games import AnyGame
from app.i18n import N_, translations
from app.proofs import Prover
from app.stats import deal_tuple, ended_values, result_html
from app.store import SessionData, Store, StoredGame
from app.store.counting import DAILY, kind_of
from app.web.board import (
    BOARD_VERSION_HEADER,
    CODE,
    BoardFacts,
    board_open,
    ending_box,
    ending_html,
    fill,
    restart_question,
)
from app.web.board import version as board_version
from app.web.context import PageBase, language
from app.web.errors import PlayerError, Text
from app.web.htmx import is_htmx, vary_on_htmx
from app.web.render import Renderer
from app.web.sessions import Player, check_token, page_session
from app.web.views import (
    InfoView,
    ScreenView,
    clock_text,
    info_changes,
    info_html,
    status_html,
)

NO_STORE: Final = {"Cache-Control": "no-store"}


@dataclass(frozen=True, slots=True)
class Said:
    """What one action did: what to announce, and what to show after a no-JavaScript redirect.

    Whether to save is not the action's call: the game is written when its record changed.
    """

    message: Text | None = None
    """Announced in the live region (htmx answers)."""
    notice: str | None = None
    """Key of :data:`NOTICES` shown on the page after a no-JavaScript redirect."""
    ask: str | None = None
    """A question the board asks before acting (``restart``): see :data:`QUESTIONS`."""


NOTICES: dict[str, Text] = {}
"""Notices that survive a redirect as ``?n=key``: only known keys, never free text. Which of
them a page shows is its screen's call (:meth:`Screen.notice`): only its own game's keys, and
only what is true of the game on the page."""


def notice(key: str, message: str) -> Text:
    """Register a notice key and return its text."""

    def say(t: NullTranslations) -> str:
        return t.gettext(message)

    NOTICES[key] = say
    return say


STALE = notice(
    "stale",
    N_("That card is no longer there (the game moved on in another tab). Here is the board now."),
)
NOTHING_TO_UNDO = notice("no-undo", N_("There is nothing to undo."))
NOTHING_TO_REDO = notice("no-redo", N_("There is nothing to redo."))
UNREADABLE = notice(
    "unreadable", N_("Your saved game for this deal could not be read, so it starts afresh.")
)


REFUSED = notice("refused", N_("Not allowed: nothing moved."))
"""A refusal with *Move errors* off: it shows that nothing happened, without the reason."""

QUESTIONS: Final = {
    "restart": N_("Restart this deal from the beginning? Your moves so far are lost.")
}
"""What the board may ask before an action (``?ask=restart`` without JavaScript)."""


def sentence(text: str, lang: str) -> str:
    """A status sentence starts with a capital ("three of hearts selected." reads as a sentence
    too), Turkish dotted i included.

    >>> sentence("üç kupa seçildi.", "tr"), sentence("ikili", "tr"), sentence("вале", "bg")
    ('Üç kupa seçildi.', 'İkili', 'Вале')
    """
    if not text:
        return text
    first = "İ" if lang == "tr" and text[0] == "i" else text[0].upper()
    return first + text[1:]


COMMON_NOTICES: Final = frozenset({"stale", "no-undo", "no-redo", "unreadable"})


def refused(refusal: Refusal, session: SessionData, quiet: Text, quiet_key: str) -> Said:
    """A refusal explains itself (the engine's sentence, its key in a redirect) only with
    *Move errors* on; off, the game's ``quiet`` notice only says that nothing happened."""
    if session.move_errors:
        return Said(refusal.explain, refusal.key)
    return Said(quiet, quiet_key)


class Screen(ABC):
    """One game's pages: its engine class, template and board view."""

    slug: ClassVar[str]
    game: ClassVar[type[AnyGame]]
    template: ClassVar[str]
    name: ClassVar[str]
    """The game's name, a catalog text."""
    own_notices: ClassVar[frozenset[str]] = frozenset()
    """The keys of :data:`NOTICES` only this game's pages show (a key a game's actions use
    must be here or in :data:`COMMON_NOTICES`, or its no-JavaScript redirect drops it)."""

    def notice(self, key: str, game: AnyGame) -> Text | None:
        """The text of ``?n=key`` on this game's page, or ``None`` when the key is not this
        game's or would say something untrue of ``game`` (a crafted link cannot mislead).
        A refusal's key (``sum``, ``king_only``, ``group-4``) is the engine's."""
        if (key == "no-undo" and game.can_undo()) or (key == "no-redo" and game.can_redo()):
            return None
        if key in COMMON_NOTICES or key in self.own_notices:
            return NOTICES.get(key)
        refusal = Refusal.from_key(key)
        if refusal is not None and game.may_refuse(refusal):
            return refusal.explain
        return None

    @abstractmethod
    def facts(
        self,
        game: AnyGame,
        session: SessionData,
        state: str | None = None,
        asking: str | None = None,
    ) -> BoardFacts:
        """Everything the board shows, as plain data; ``state`` when already known; ``asking``
        a question the board shows (``restart``)."""

    @abstractmethod
    def place_html(self, lang: str, place: tuple[Any, ...]) -> str:
        """One place's interactive markup (cached; token and code are placeholders)."""

    @abstractmethod
    def place_id(self, place: tuple[Any, ...]) -> str:
        """The element id an answer swaps the place by."""

    def layout(self, places: list[str], interactive: bool = True) -> str:
        """The places' markup in the board's structure (Half Moon: a flat grid); a diagram
        (``interactive`` false) leaves out whatever only the game's forms need."""
        return "".join(places)

    defeat: ClassVar[str]
    """The message of a game that cannot be won any more (stuck, lost), a catalog text."""
    defeat_at_deal: ClassVar[str | None] = None
    """The message of a deal lost before any move (no Undo or Restart to suggest), when the
    game has one; otherwise :attr:`defeat`."""
    end_actions: ClassVar[tuple[str, ...]]
    """What the end message offers besides New game: ``undo``, ``restart``."""

    def ending(self, game: AnyGame, t: NullTranslations, state: str | None = None) -> str | None:
        """The announcement of a game that has ended, or ``None`` while it goes on."""
        state = state or game.status().value
        return self.ending_text(self.ending_facts(game, state, game.score), t)

    def ending_text(self, ending: tuple[Any, ...], t: NullTranslations) -> str | None:
        if not ending or ending[0] == "playing":
            return None
        state, score, elapsed_ms = ending[:3]
        if state == "won":
            return t.gettext(N_("You won! %(score)s points in %(time)s.")) % {
                "score": score,
                "time": clock_text(elapsed_ms),
            }
        if self.defeat_at_deal and ending[5]:
            return t.gettext(self.defeat_at_deal)
        return t.gettext(self.defeat)

    @property
    def new_game_url(self) -> str:
        """Where *New game* leads: a fresh deal, or a dialog first (Seahaven's cells)."""
        return f"/{self.slug}"

    def new_game_link(self, game: AnyGame) -> str:
        """*New game* from this game: the dialog may preselect what the player chose last."""
        return self.new_game_url

    def restored(self, game: AnyGame, stored: StoredGame) -> None:  # noqa: B027  (optional hook)
        """Take facts kept with the saved game (verdicts) instead of working them out again."""

    # --- verdicts proved off the request path (Seahaven's "no useful move left") ---------------

    def prepare(self, game: AnyGame) -> None:  # noqa: B027  (optional hook)
        """Called on every game the server builds: no search may run while it is changed."""

    def unproved(self, game: AnyGame) -> Any | None:
        """The position whose verdict the game still needs, or ``None`` when it needs none."""
        return None

    def note_verdict(self, game: AnyGame, lost: bool) -> None:  # noqa: B027  (optional hook)
        """Tell the game the verdict on its current position, proved elsewhere."""

    def end_actions_for(self, game: AnyGame) -> tuple[str, ...]:
        """What the end message offers: only what would do something (no Undo at the deal)."""
        can = {"undo": game.can_undo(), "restart": game.move_count > 0 or game.can_redo()}
        return tuple(verb for verb in self.end_actions if can.get(verb, True))

    async def new_deal(
        self, request: Request, renderer: Renderer, store: Store, player: Player
    ) -> Response:
        """``GET /{game}``: 303 to a fresh random deal."""
        code = DealCode.random(self.game.game_id)
        return RedirectResponse(self.url(code), 303, headers=NO_STORE)

    def ending_facts(
        self, game: AnyGame, state: str, score: int, asking: str | None = None
    ) -> tuple[Any, ...]:
        """What the ending box depends on (``()`` while the game goes on and nothing is asked):
        state, score, play time, the question asked (``restart``), the New game link, whether
        the deal was lost before any move, and the actions offered."""
        if state == "playing" and asking is None:
            return ()
        elapsed = game.clock.elapsed_ms if state == "won" else 0
        at_deal = game.move_count == 0 and not game.can_redo()
        actions = self.end_actions_for(game)
        return (state, score, elapsed, asking, self.new_game_link(game), at_deal, actions)

    def ending_html(self, facts: BoardFacts, lang: str) -> str:
        return _ending_html(self, lang, facts.ending) if facts.ending else ending_html("", None)

    def board_parts(self, facts: BoardFacts, lang: str) -> list[str]:
        """Each place's cached markup, in board order."""
        return [self.place_html(lang, place) for place in facts.places]

    def board_version(self, facts: BoardFacts, parts: list[str], lang: str, token: str) -> str:
        head = f"{lang}|{facts.state}|{facts.score}|{facts.moves}|{facts.classes}|{facts.ending}"
        return board_version((head, *parts), token)

    def board_html(self, facts: BoardFacts, lang: str, token: str, oob: str | None = None) -> str:
        """The whole board (token and code still placeholders)."""
        parts = self.board_parts(facts, lang)
        head = board_open(
            self.slug, CODE, facts, self.board_version(facts, parts, lang, token), oob
        )
        return f"{head}{self.layout(parts)}{self.ending_html(facts, lang)}</div>"

    def view(self, lang: str, game: AnyGame) -> ScreenView:
        t = translations(lang)
        name = t.gettext(self.name)
        return ScreenView(self.slug, name, self.new_game_link(game), self.end_actions)

    def url(self, code: DealCode | str) -> str:
        return f"/{self.slug}/{code}"

    def stored(
        self, game: AnyGame, record: dict[str, Any], now: int, state: str | None = None
    ) -> StoredGame:
        """What the store keeps: the record, and the facts lists and verdicts need."""
        return StoredGame(
            record["code"],
            record,
            state or game.status().value,
            game.score,
            game.move_count,
            now,
        )


SCREENS: dict[str, Screen] = {}
"""Every game screen by slug, filled by the game modules; used for codes of the other game."""


# --- codes in URLs -----------------------------------------------------------------------------


def parse_code(screen: Screen, text: str, *, action: bool = False) -> DealCode:
    """The code in a URL, or a 404 page that says what a code looks like.

    A page of the other game's code redirects there (308); an action posted to it is a 404
    that names the right game — a 308 would make the browser post it again, to an address
    that accepts only GET."""
    try:
        code = DealCode.parse(text)
    except DealCodeError:
        raise PlayerError.invalid_code(text, f"/{screen.slug}") from None
    if code.game != screen.game.game_id:
        other = next((s for s in SCREENS.values() if s.game.game_id == code.game), None)
        if other is None:
            raise PlayerError.invalid_code(text, f"/{screen.slug}")
        if action:
            raise PlayerError.other_game(str(code), other.name, other.url(code))
        raise Redirect(other.url(code), 308)
    return code


class Redirect(Exception):  # noqa: N818  (control flow, not an error)
    """Answer with a redirect from deep inside a helper."""

    def __init__(self, url: str, status: int) -> None:
        self.url, self.status = url, status


def rebuild(screen: Screen, code: DealCode, stored: StoredGame | None) -> tuple[AnyGame, bool]:
    """The saved game, or a fresh one; ``True`` when a saved game existed but was unreadable."""
    game, unreadable = _rebuild(screen, code, stored)
    screen.prepare(game)
    if stored is not None and not unreadable:
        screen.restored(game, stored)
    return game, unreadable


def _rebuild(screen: Screen, code: DealCode, stored: StoredGame | None) -> tuple[AnyGame, bool]:
    if stored is None:
        return screen.game(code), False
    try:
        game = screen.game.from_record(stored.record)
    except RecordError:
        return screen.game(code), True
    if str(game.code) != str(code):
        return screen.game(code), True
    return game, False


async def settle_verdict(
    request: Request, store: Store, sid: str, screen: Screen, game: AnyGame
) -> bool:
    """Prove the game's position in the proof pool when nobody has (:mod:`app.proofs`);
    ``True`` when it is lost — then the saved game (when it is still this one) keeps the
    verdict, its clock stopped at its last action. Waits at most ``proof_wait`` seconds
    without holding up anyone else; without a verdict by then, the game goes on as playable
    and the next answer asks again."""
    position = screen.unproved(game)
    if position is None:
        return False
    prover: Prover = request.app.state.prover
    wait: float = request.app.state.config.proof_wait
    lost = await prover.verdict(position, wait=wait, wanted_by=(sid, str(game.code)))
    if lost is None:
        return False
    screen.note_verdict(game, lost)
    if lost:
        await _keep_lost(store, sid, screen, game)
    return lost


async def _keep_lost(store: Store, sid: str, screen: Screen, game: AnyGame) -> None:
    """Write the verdict into the saved game, if it is still the game that was proved."""
    code = game.code
    record = game.to_record()

    def change(
        session: SessionData | None, stored: StoredGame | None
    ) -> tuple[StoredGame | None, int | None]:
        if stored is None or stored.record != record or stored.state == "lost":
            return None, None
        kept, _ = rebuild(screen, code, stored)
        screen.note_verdict(kept, True)
        kept.clock.stop(stored.updated_ms)  # the game ended with its last action
        return screen.stored(kept, kept.to_record(), stored.updated_ms), stored.updated_ms

    ended = await store.change_game_async(sid, str(code), change)
    if ended is not None:
        game.clock.stop(ended)


# --- answering ---------------------------------------------------------------------------------


def origin(request: Request) -> str:
    """Where players reach this site: ``SOLITAIRE_ORIGIN`` when set (:func:`public_origin`),
    else ``http://host:port`` of this request, without building a URL object."""
    config = getattr(request.app.state, "config", None)
    if config is not None and config.origin:
        return str(config.origin)
    scope = request.scope
    host = request.headers.get("host")
    if host is None:
        server = scope.get("server") or ("localhost", 80)
        host = f"{server[0]}:{server[1]}"
    return f"{scope.get('scheme', 'http')}://{host}"


def page_context(
    request: Request,
    screen: Screen,
    game: AnyGame,
    session: SessionData,
    lang: str,
    *,
    message: str | None = None,
    spoken: str | None = None,
    asking: str | None = None,
) -> dict[str, Any]:
    """``message`` is shown and announced; ``spoken`` only announced (the board shows it already:
    the end of the game, a question); ``asking`` names a question of :data:`QUESTIONS`."""
    code = str(game.code)
    return PageBase(session, lang, request.url.path).context(
        screen=screen.view(lang, game),
        info=info_view(request, screen, game, code, game.score),
        message=sentence(message, lang) if message else message,
        spoken=spoken,
        asking=asked(asking, game),
        oob=False,
    )


def asked(asking: str | None, game: AnyGame) -> str | None:
    """The question the board asks, if it is one and there is something to lose."""
    return asking if asking in QUESTIONS and game.move_count else None


def info_view(request: Request, screen: Screen, game: AnyGame, code: str, score: int) -> InfoView:
    now = now_ms()
    clock = game.clock
    since = clock.running_since
    return InfoView(
        elapsed_ms=clock.elapsed(now),
        running=clock.is_running,
        away_left_ms=0 if since is None else max(0, AWAY_MS - max(0, now - since)),
        score=score,
        moves=game.move_count,
        code=code,
        url=origin(request) + screen.url(code),
        can_undo=game.can_undo(),
        can_redo=game.can_redo(),
        can_restart=game.move_count > 0 or game.can_redo(),
    )


async def show_page(
    request: Request,
    renderer: Renderer,
    store: Store,
    player: Player,
    screen: Screen,
    code_text: str,
) -> Response:
    """``GET /{game}/{code}``: the player's own game for this deal, or the deal from the start."""
    code = parse_code(screen, code_text)
    if str(code) != code_text:
        return RedirectResponse(screen.url(code), 308)
    session, stored = await store.load_async(player.sid, str(code))
    session = page_session(player, session)
    game, unreadable = rebuild(screen, code, stored)
    await settle_verdict(request, store, player.sid, screen, game)
    lang = language(request, session)
    t = translations(lang)
    said = UNREADABLE if unreadable else screen.notice(request.query_params.get("n", "")[:32], game)
    message = said(t) if said else None
    asking = asked(request.query_params.get("ask"), game)
    question = t.gettext(QUESTIONS[asking]) if asking else None
    context = page_context(
        request, screen, game, session, lang, message=message, spoken=question, asking=asking
    )
    token, code_text = session.token, context["info"].code
    facts = screen.facts(game, session, asking=asking)
    if facts.state != "playing":
        facts = with_result(facts, await game_result(store, player.sid, code_text))
    board = screen.board_html(facts, lang, token)
    shortcuts = renderer.partial("partials/shortcuts.html", lang)
    info = info_html(lang, context["screen"], context["info"], shortcuts)
    context["board_html"] = Markup(fill(board, token, code_text))
    context["info_html"] = Markup(fill(info, token, code_text))
    context["status_html"] = Markup(status_html(context["message"], False, question))
    response = HTMLResponse(renderer.page(screen.template, context, t), headers=NO_STORE)
    return vary_on_htmx(response)


Action = Callable[[AnyGame, SessionData, int], Said]


def _mark(game: AnyGame) -> tuple[Any, ...]:
    """What a game's record is made of, cheaply: equal marks, equal records (no JSON)."""
    return (
        game.position,
        game.selection_text(),
        len(game.moves),
        len(game.redo_stack),
        game.undo_floor,
        game.clock.to_list(),
    )


@dataclass(frozen=True, slots=True)
class Acted:
    """What :func:`act`'s store callback hands back to the answer."""

    session: SessionData
    game: AnyGame
    said: Said
    before: BoardFacts | None
    """The board before the action (``None`` when the saved game could not be read)."""
    state: str
    ended: bool
    """The action ended the game (announced; the board shows the ending)."""
    created: bool = False
    """The action wrote a game the session had not played yet (counts as a new game)."""


async def act(
    request: Request,
    renderer: Renderer,
    store: Store,
    player: Player,
    screen: Screen,
    code_text: str,
    token: str,
    action: Action,
    code: DealCode | None = None,
) -> Response:
    """Apply one action to the player's game atomically, then answer htmx or the plain form.

    An htmx answer is out-of-band swaps only: ``#board``'s own attributes (morphed, children
    kept), the places whose markup changed, the ending box when it changed, the info bar and
    the live region. The whole board (swapped by id) answers a page that does not show the
    board the action started from: the form's card was gone, or the page's board version
    (``X-Board-Version``, sent by ``#board``'s inherited ``hx-headers``) is not the server's.

    A game the session has not played yet counts against the client's limit of new games:
    when it is spent the action is refused (429) and nothing is written. A move past
    :data:`MAX_RECORD_MOVES` is refused too, so every record written can be read back.
    """
    code = code or parse_code(screen, code_text, action=True)
    code_str = str(code)
    page_url = screen.url(code_str)
    creating = await may_create(request)
    daily_day = await daily.day_of(code_str)

    def change(
        session: SessionData | None, stored: StoredGame | None
    ) -> tuple[StoredGame | None, Acted]:
        session = check_token(player, session, token, page_url)
        game, unreadable = rebuild(screen, code, stored)
        before = None if unreadable else screen.facts(game, session)
        mark = None if unreadable else _mark(game)
        now = now_ms()
        said = action(game, session, now)
        changed = unreadable or _mark(game) != mark
        state = game.status().value if changed or before is None else before.state
        if unreadable and said.message is None:
            said = Said(UNREADABLE, "unreadable")
        if changed and game.move_count > MAX_RECORD_MOVES:
            raise PlayerError.game_too_long(MAX_RECORD_MOVES, page_url)
        created = changed and stored is None
        if created and not creating.allowed:
            raise PlayerError.rate_limited(creating.retry_after, page_url)
        was_over = before is not None and before.state != "playing"
        ended = changed and state != "playing" and not was_over
        saved = screen.stored(game, game.to_record(), now, state) if changed else None
        if saved is not None and daily_day is not None:  # counted for the daily streak
            saved = dataclasses.replace(saved, extra={**saved.extra, DAILY: daily_day})
        return saved, Acted(session, game, said, before, state, ended, created)

    acted = await store.change_game_async(player.sid, code_str, change)
    said, ended, state = acted.said, acted.ended, acted.state
    if acted.created:
        await limit(request, "new")
    # the verdict on the new position: proved outside the store's writer (it may search)
    was_over = acted.before is not None and acted.before.state != "playing"
    if await settle_verdict(request, store, player.sid, screen, acted.game):
        state = acted.game.status().value
        ended = ended or not was_over
    if not is_htmx(request):
        shown = said.notice is not None and screen.notice(said.notice, acted.game) is not None
        query = [f"n={quote(said.notice or '')}"] if shown else []
        query += [f"ask={said.ask}"] if said.ask else []
        url = page_url + ("?" + "&".join(query) if query else "")
        return vary_on_htmx(RedirectResponse(url, 303, headers=NO_STORE))
    session, game = acted.session, acted.game
    lang = language(request, session)
    t = translations(lang)
    message = sentence(said.message(t), lang) if said.message else None
    # the end of the game and a question are on the board already: announced, not shown twice
    spoken = screen.ending(game, t, state) if ended else None
    asking = asked(said.ask, game)
    if asking:
        spoken = t.gettext(QUESTIONS[asking])
    after = screen.facts(game, session, state, asking)
    before = acted.before
    if after.state != "playing" or (before is not None and before.state != "playing"):
        # the end box's additions, on both sides: an action on a finished game (Undo) changes
        # neither, so the page it came from still matches the board it started from
        result = await game_result(store, player.sid, code_str)
        after = with_result(after, result)
        before = None if before is None else with_result(before, result)
    board, version = _board_answer(request, screen, before, after, lang, session.token, said)
    info = info_view(request, screen, game, code_str, after.score)
    board += info_changes(lang, screen.view(lang, game), info)
    html = fill(board, session.token, code_str) + status_html(message, True, spoken)
    headers = {**NO_STORE, BOARD_VERSION_HEADER: version}
    return vary_on_htmx(HTMLResponse(html, headers=headers))


def _board_answer(
    request: Request,
    screen: Screen,
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
    head = board_open(screen.slug, CODE, after, version, "true")
    return f"{head}{screen.layout(parts)}{screen.ending_html(after, lang)}</div>", version


def _changes(
    screen: Screen,
    before: BoardFacts,
    after: BoardFacts,
    before_parts: list[str],
    parts: list[str],
    lang: str,
    version: str,
) -> str:
    out = [board_open(screen.slug, CODE, after, version, "outerMorph"), "</div>"]
    # every place's facts start (index, count, ...). Places that gain cards go first: htmx
    # gives the focus back by id after each swap, so a focused card that moves keeps it only
    # if its new place is already on the page when its old place is swapped.
    changed = sorted(
        (before.places[i][1] - after.places[i][1], i)
        for i in range(len(parts))
        if parts[i] is not before_parts[i] and parts[i] != before_parts[i]
    )
    out.extend(oob(parts[i]) for _, i in changed)
    if after.ending != before.ending:
        out.append(oob(screen.ending_html(after, lang)))
    return "".join(out)


def oob(html: str) -> str:
    """The element ``html`` (one element) marked for an out-of-band swap by its id."""
    cut = html.index(" ")
    return f'{html[:cut]} hx-swap-oob="true"{html[cut:]}'


@functools.lru_cache(maxsize=256)
def _ending_html(screen: Screen, lang: str, ending: tuple[Any, ...]) -> str:
    """The end of a game, and Restart's question (``asking``), inside the board."""
    t = translations(lang)
    state, _score, _elapsed, asking, new_game_link, _at_deal, offered = ending[:7]
    result = ending[7] if len(ending) > 7 else None  # issue 16: what the game set, the deal
    parts = []
    if state != "playing" and asking != "restart":
        labels = {"undo": t.gettext(N_("Undo")), "restart": t.gettext(N_("Restart"))}
        actions = [] if state == "won" else [(verb, labels[verb]) for verb in offered]
        text = screen.ending_text(ending, t) or ""
        parts.append(
            ending_box(
                screen.slug,
                state,
                text,
                actions,
                (new_game_link, t.gettext(N_("New game"))),
                result_html(result, t),
            )
        )
    if asking == "restart":
        parts.append(
            restart_question(
                screen.slug,
                t.gettext(QUESTIONS["restart"]),
                t.gettext(N_("Restart")),
                t.gettext(N_("Keep playing")),
            )
        )
    return ending_html("".join(parts), state)


async def game_result(store: Store, sid: str, code: str) -> tuple[Any, ...] | None:
    """What the end box adds once the player's game is over (the caller asks only then:
    no screen may say whether a deal can be won while it is played): the personal bests and
    streaks it set, and how the deal went for everyone who finished it — hashable data."""
    kind = kind_of(code)
    if kind is None:
        return None
    doc = await store.player_stats_async(sid)
    figures = await store.deal_stats_async(code)
    return (ended_values(doc, code, kind), deal_tuple(figures))


def with_result(facts: BoardFacts, result: tuple[Any, ...] | None) -> BoardFacts:
    """The board's facts with the end box's additions (part of what the ending depends on,
    so a partial answer sends the box again when they change)."""
    if result is None or not facts.ending or facts.state == "playing":
        return facts
    return dataclasses.replace(facts, ending=(*facts.ending[:7], result))


# --- the routes every game has -----------------------------------------------------------------


FormModel = TypeVar("FormModel", bound=BaseModel)


async def read_form(request: Request, model: type[FormModel]) -> FormModel:
    """An action's form, its body parsed once and checked by the route's pydantic model.

    Every POST route's guard first (:func:`app.dependencies.guard_write`). Browsers and htmx
    send ``application/x-www-form-urlencoded``: one ``parse_qsl``, instead of
    FastAPI's ``Form()`` machinery and a dependency per shared object (about 0.15 ms a tap,
    measured with py-spy). Multipart bodies still work. As with ``Form()``, an empty value
    counts as missing, and bad input raises the same ``RequestValidationError``, so the 422
    page is unchanged.
    """
    await guard_write(request)  # same origin, and the write rate limit
    if request.headers.get("content-type", "").startswith("multipart/form-data"):
        form = await request.form()
        data = {name: value for name, value in form.multi_items() if isinstance(value, str)}
        data = {name: value for name, value in data.items() if value}
    else:
        body = await request.body()
        data = dict(parse_qsl(body.decode("utf-8", "replace")))
    try:
        return model.model_validate(data)
    except ValidationError as error:
        problems = [{**problem, "loc": ("body", *problem["loc"])} for problem in error.errors()]
        raise RequestValidationError(problems) from None


def acting(request: Request) -> tuple[Renderer, Store, Player]:
    """What an action needs from the application, without a dependency per object."""
    state = request.app.state
    return state.renderer, state.store, Player.from_request(request)


class TokenForm(BaseModel):
    """Undo, Redo, Restart: the form token; Restart's confirmation (``confirm=yes``)."""

    model_config = ConfigDict(extra="forbid")
    token: str = Field(max_length=64)
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
    """Restart without ``confirm=yes``: a game with moves asks first (nothing changes yet)."""
    if game.move_count == 0:
        return _restart(game, session, now)
    return Said(ask="restart")


def _history_route(screen: Screen, action: Action) -> Callable[..., Awaitable[Response]]:
    """The endpoint of one history verb; ``action`` is bound here, so it is no parameter of
    the route (a default argument would be read from the query string)."""

    async def history(code: str, request: Request) -> Response:
        form = await read_form(request, TokenForm)
        renderer, store, player = acting(request)
        chosen = _ask_restart if action is _restart and form.confirm != "yes" else action
        return await act(request, renderer, store, player, screen, code, form.token, chosen)

    return history


def game_router(screen: Screen) -> APIRouter:
    """``GET /{game}`` (a fresh deal), the game page, and Undo / Redo / Restart."""
    SCREENS[screen.slug] = screen
    router = APIRouter(prefix=f"/{screen.slug}")

    @router.get("", name=f"{screen.slug}-new")
    async def new_deal(
        request: Request, renderer: RendererDep, store: StoreDep, player: PlayerDep
    ) -> Response:
        return await screen.new_deal(request, renderer, store, player)

    @router.get("/{code}", name=f"{screen.slug}-page")
    async def page(
        code: str, request: Request, renderer: RendererDep, store: StoreDep, player: PlayerDep
    ) -> Response:
        return await show_page(request, renderer, store, player, screen, code)

    for verb, action in (("undo", _undo), ("redo", _redo), ("restart", _restart)):
        router.add_api_route(f"/{{code}}/{verb}", _history_route(screen, action), methods=["POST"])
    return router
