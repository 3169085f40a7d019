"""The action pipeline every game route shares: read the form once, rebuild the saved game,
apply one engine action atomically in the store, prove verdicts off the request path, answer.

A game's action is a function from its validated form (an :class:`ActionForm` whose fields
are already the engine's values) to the :data:`Action` that calls the engine; registered with
:func:`action_route`, the route checks the request, parses the deal code and the form once, and
lets :func:`act` answer — the changed parts of the board plus the info bar and live region out
of band for htmx, a 303 back to the page without it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar
from urllib.parse import parse_qsl, quote

from fastapi import APIRouter, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field, PlainValidator, ValidationError, ValidationInfo
from pydantic_core import PydanticCustomError

from app import daily
from app.clock import now_ms
from app.dependencies import (
    guard_write,
    limit,
    may_create,
)
from app.engine.cards import Card
from app.engine.codes import DealCode
from app.engine.game import MAX_RECORD_MOVES, RecordError
from app.engine.games import AnyGame
from app.i18n import translations
from app.proofs import Prover
from app.stats import deal_tuple, ended_values
from app.store import SessionData, Store, StoredGame
from app.store.counting import COUNTED, DAILY, kind_of
from app.web.board import (
    BOARD_VERSION_HEADER,
    CODE,
    BoardFacts,
    board_open,
    fill,
)
from app.web.codes import parse_code
from app.web.context import asked, info_view, language
from app.web.errors import CARD_HELP, PlayerError
from app.web.htmx import NO_STORE, html_answer, is_htmx, vary_on_htmx
from app.web.notices import QUESTIONS, UNREADABLE, Said, sentence
from app.web.replay import carried
from app.web.screen import AnyScreen
from app.web.sessions import Player, check_token
from app.web.views import info_changes, oob, status_html


def rebuild(screen: AnyScreen, code: DealCode, stored: StoredGame | None) -> tuple[AnyGame, bool]:
    """The saved game, or a fresh one; ``True`` when a saved game existed but was unreadable."""
    game, unreadable = _rebuild(screen, code, stored)
    screen.prepare(game)
    if stored is not None and not unreadable:
        screen.restored(game, stored)
    return game, unreadable


def _rebuild(screen: AnyScreen, code: DealCode, stored: StoredGame | None) -> tuple[AnyGame, bool]:
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
    request: Request, store: Store, sid: str, screen: AnyScreen, game: AnyGame
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


async def _keep_lost(store: Store, sid: str, screen: AnyScreen, game: AnyGame) -> None:
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
        written = screen.stored(kept, kept.to_record(), stored.updated_ms)
        return carried(stored, written), stored.updated_ms

    ended = await store.change_game_async(sid, str(code), change)
    if ended is not None:
        game.clock.stop(ended)


Action = Callable[[Any, SessionData, int], Said]
"""One engine action, its form's values already bound: given the game of the route's screen
(its own class: a Half Moon route's action takes a ``HalfMoon``), the session and the time."""


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
    row: StoredGame | None = None
    """The game's row after the action: the one written, or the one read when nothing was."""
    mark: tuple[Any, ...] | None = None
    """:func:`_mark` of ``game`` when ``row`` was decided (the game still is that row while
    its mark is this one)."""


@dataclass(frozen=True, slots=True)
class Kept:
    """A game object that is exactly its stored row: what :class:`GameCache` keeps."""

    row: StoredGame
    game: AnyGame
    session: SessionData
    """The session the game's last action was decided for."""


def _same_row(stored: StoredGame, kept: StoredGame) -> bool:
    """The stored row rebuilds the same game as the row a cached game was decided as: the
    same record, state and marks (Seahaven's verdict), except the statistics mark the store
    itself adds and carries from row to row (``counted``: the game never reads it, and the
    store carries it onto the decided row either way)."""
    if stored.record != kept.record or stored.state != kept.state:
        return False
    if COUNTED in stored.extra and COUNTED not in kept.extra:
        return {k: v for k, v in stored.extra.items() if k != COUNTED} == kept.extra
    return stored.extra == kept.extra


class GameCache:
    """This worker's game objects of recent actions, keyed by (session id, deal code), so an
    action applies one engine action to the game instead of replaying its record — on the
    event loop, before the store's transaction, which then only checks that the stored row is
    still the one the game was built from (another tab, worker or instance may have moved on:
    then the action is decided again from the stored row, inside the transaction, as without
    the cache).

    An entry is taken out (:meth:`take`) before its game is changed and put back
    (:meth:`keep`) only after the store committed the row it now is: a failed transaction
    can never leave a half-applied game here. Only the event loop's thread touches it.
    """

    def __init__(self, size: int = 2048) -> None:
        self.size = size
        self._games: dict[tuple[str, str], Kept] = {}

    def take(self, sid: str, code: str) -> Kept | None:
        return self._games.pop((sid, code), None)

    def keep(self, sid: str, code: str, kept: Kept) -> None:
        """Keep ``kept``; past :attr:`size` entries, the one kept longest ago goes."""
        self._games[(sid, code)] = kept
        if len(self._games) > self.size:
            del self._games[next(iter(self._games))]

    def clear(self) -> None:
        self._games.clear()

    def __len__(self) -> int:
        return len(self._games)


def game_cache(request: Request) -> GameCache:
    """The application's :class:`GameCache` (made on first use)."""
    state = request.app.state
    cache: GameCache | None = getattr(state, "game_cache", None)
    if cache is None:
        cache = state.game_cache = GameCache()
    return cache


async def act(
    request: Request, screen: AnyScreen, code: DealCode, token: str, action: Action
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
    store: Store = request.app.state.store
    player = Player.from_request(request)
    code_str = str(code)
    page_url = screen.url(code_str)
    creating = await may_create(request)
    daily_day = await daily.day_of(code_str)

    def decide(
        session: SessionData, stored: StoredGame | None, game: AnyGame, unreadable: bool
    ) -> tuple[StoredGame | None, Acted]:
        before = None if unreadable else screen.facts(game, session)
        mark = None if unreadable else _mark(game)
        now = now_ms()
        said = action(game, session, now)
        after_mark = _mark(game)
        changed = unreadable or after_mark != mark
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
        saved = None
        if changed:
            saved = carried(stored, screen.stored(game, game.to_record(), now, state))
        if saved is not None and daily_day is not None:  # counted for the daily streak
            saved = dataclasses.replace(saved, extra={**saved.extra, DAILY: daily_day})
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
            and _same_row(stored, kept.row)
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
    was_over = acted.before is not None and acted.before.state != "playing"
    if await settle_verdict(request, store, player.sid, screen, acted.game):
        state = acted.game.status().value
        ended = ended or not was_over
    if not is_htmx(request):
        shown = said.notice is not None and screen.notice(said.notice, acted.game) is not None
        query = [f"n={quote(said.notice or '')}"] if shown else []
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
    if after.state != "playing" or (before is not None and before.state != "playing"):
        # the end box's additions, on both sides: an action on a finished game (Undo) changes
        # neither, so the page it came from still matches the board it started from
        result = await game_result(store, player.sid, code_str)
        after = with_result(after, result)
        before = None if before is None else with_result(before, result)
    board, version = _board_answer(request, screen, before, after, lang, session.token, said)
    info = info_view(request, screen, game, code_str, after.score, session.zen)
    board += info_changes(lang, screen.view(lang, game), info)
    sound = ("win" if ended and state == "won" else said.sound) if session.sound else None
    status = status_html(message, True, spoken, sound, said.flight)
    html = fill(board, session.token, code_str) + status
    headers = {**NO_STORE, BOARD_VERSION_HEADER: version}
    _keep(cache, player.sid, code_str, acted)
    return html_answer(html, headers=headers)


def _keep(cache: GameCache, sid: str, code: str, acted: Acted) -> None:
    """Cache the game when it still is the row the store now holds (a verdict proved after
    the commit may have stopped its clock: then it is rebuilt next time)."""
    if acted.row is not None and acted.mark is not None and _mark(acted.game) == acted.mark:
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
    head = board_open(screen.slug, CODE, after, version, "true")
    return f"{head}{screen.layout(parts)}{screen.ending_html(after, lang)}</div>", version


def _changes(
    screen: AnyScreen,
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


class ActionForm(BaseModel):
    """What every action's form has: the form token (:func:`check_token`), and no field the
    route does not name."""

    model_config = ConfigDict(extra="forbid")
    token: str = Field(max_length=64)


FormModel = TypeVar("FormModel", bound=BaseModel)
FormT = TypeVar("FormT", bound=ActionForm)


async def read_form(
    request: Request, model: type[FormModel], code: DealCode | None = None
) -> FormModel:
    """A POST's form, its body parsed once and validated once by the route's pydantic model,
    whose fields are the values the engine takes (:func:`parsed`); ``code``, the deal the form
    acts on, is the validation context (a Seahaven place depends on the deal's cells).

    The route has passed :func:`app.dependencies.guard_write` first. Browsers and htmx
    send ``application/x-www-form-urlencoded``: one ``parse_qsl``, instead of
    FastAPI's ``Form()`` machinery and a dependency per shared object (about 0.15 ms a tap,
    measured with py-spy). Multipart bodies still work. As with ``Form()``, an empty value
    counts as missing, and bad input raises the same ``RequestValidationError``, so the 422
    page is unchanged.
    """
    if request.headers.get("content-type", "").startswith("multipart/form-data"):
        form = await request.form()
        data = {name: value for name, value in form.multi_items() if isinstance(value, str)}
        data = {name: value for name, value in data.items() if value}
    else:
        body = await request.body()
        data = dict(parse_qsl(body.decode("utf-8", "replace")))
    try:
        return model.model_validate(data, context={"code": code})
    except ValidationError as error:
        problems = [{**problem, "loc": ("body", *problem["loc"])} for problem in error.errors()]
        raise RequestValidationError(problems) from None


T = TypeVar("T")


def parsed(parse: Callable[[str, DealCode | None], T], accepted: str) -> PlainValidator:
    """A form field whose value the engine's own parser reads (given the form's deal, when
    the route has one); a value it refuses is a ``not_accepted`` error whose message is
    ``accepted`` (a catalog text), which the 422 page says after naming the field."""

    def validate(value: object, info: ValidationInfo) -> T:
        code = info.context["code"] if info.context else None
        try:
            if isinstance(value, str):
                return parse(value, code)
        except (ValueError, LookupError):
            pass
        raise PydanticCustomError("not_accepted", accepted)

    return PlainValidator(validate)


CardField = Annotated[Card, parsed(lambda text, _code: Card.parse(text), CARD_HELP)]
"""A card a form names (``AS``, ``10D``)."""


def action_route(
    router: APIRouter, screen: AnyScreen, verb: str, model: type[FormT]
) -> Callable[[Callable[[FormT], Action]], Callable[[FormT], Action]]:
    """Register ``POST /{game}/{code}/{verb}`` for the decorated function, which turns the
    validated form into the :data:`Action` to apply. The route checks the request
    (:func:`app.dependencies.guard_write`), parses the deal code, validates the form once
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
    return dataclasses.replace(facts, ending=(*facts.ending[:8], result))
