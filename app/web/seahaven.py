"""Seahaven Towers' pages: the New game dialog, the fanned board, tap / auto / move (SPEC §3)."""

from __future__ import annotations

import dataclasses
import functools
import time
from collections.abc import Callable
from typing import Annotated, Any, ClassVar, Final

from babel.support import NullTranslations
from fastapi import Request
from fastapi.responses import RedirectResponse, Response
from pydantic import ConfigDict, Field

from app.dependencies import get_page
from app.engine.cards import SUIT_SYMBOLS, SUITS, Card, Suit
from app.engine.codes import DealCode
from app.engine.game import Outcome
from app.engine.seahaven import (
    CELLS,
    COLUMNS,
    FOUNDATIONS,
    MAX_CELLS,
    ActionResult,
    Move,
    Position,
    Seahaven,
    deal_position,
    parse_place,
    place_name,
)
from app.i18n import N_, card_count, card_name, rank_letter, translations
from app.proofs import Prover
from app.store import SessionData, Store, StoredGame
from app.web.actions import Action, ActionForm, CardField, action_route, parsed
from app.web.board import INTERACTIVE, action_form, attr, colour, face_html, hidden, label_html
from app.web.errors import PlayerError, Text, invalid_field, unknown_field
from app.web.game_routes import game_router
from app.web.htmx import NO_STORE, html_answer
from app.web.notices import REFUSED, STALE, Said, notice, refused
from app.web.render import Renderer
from app.web.screen import Screen
from app.web.sessions import Player

LEVELS: Final = (("4", N_("Easy")), ("2", N_("Medium")), ("1", N_("Hard")))
"""The New game dialog's choices: cells and their names (SPEC §3)."""
CELLS_HELP: Final = N_("Accepted: 4, 2 or 1 cells.")

PLACE_HELP: Final = N_(
    "A Seahaven place is column-1 … column-10, cell-1 … cell-4 (as many as the deal has) "
    "or foundation-S, foundation-H, foundation-D, foundation-C."
)


def cells_query(request: Request, names: tuple[str, ...]) -> dict[str, str]:
    """The query's cell counts (``4``, ``2`` or ``1``, once each) under ``names``, the only
    fields it may have; anything else is the 422 page that says what is accepted."""
    query = request.query_params
    problems = [unknown_field(name) for name in query if name not in names]
    problems += [
        invalid_field(name, CELLS_HELP)
        for name in names
        if name in query and (query[name] not in ("4", "2", "1") or len(query.getlist(name)) > 1)
    ]
    if problems:
        raise PlayerError.bad_input(problems)
    return {name: query[name] for name in names if name in query}


def place_text(place: int, t: NullTranslations) -> str:
    """A place in a sentence: "column 3", "cell 1", "foundation ♥"."""
    if place in COLUMNS:
        return t.gettext("column %(number)s") % {"number": place - COLUMNS.start + 1}
    if place in CELLS:
        return t.gettext("cell %(number)s") % {"number": place - CELLS.start + 1}
    suit = SUITS[place - FOUNDATIONS.start]
    return t.gettext("foundation %(suit)s") % {"suit": SUIT_SYMBOLS[suit]}


def column_label(number: int, count: int, t: NullTranslations) -> str:
    return t.ngettext(
        "column %(number)s, %(count)s card", "column %(number)s, %(count)s cards", count
    ) % {"number": number, "count": count}


def foundation_label(suit: Suit, count: int, t: NullTranslations) -> str:
    return t.ngettext(
        "foundation %(suit)s, %(count)s card", "foundation %(suit)s, %(count)s cards", count
    ) % {"suit": SUIT_SYMBOLS[suit], "count": count}


def fan_class(count: int) -> str:
    """How tightly a column's cards overlap: long columns tighten so they never clip."""
    if count <= 7:
        return "fan-loose"
    if count <= 11:
        return "fan-mid"
    if count <= 15:
        return "fan-tight"
    return "fan-tighter"


class SeahavenScreen(Screen[Seahaven]):
    game: ClassVar = Seahaven
    defeat: ClassVar = N_(
        "No useful move left: no card can reach a foundation any more. Undo, or restart the deal."
    )
    defeat_at_deal: ClassVar = N_(
        "No useful move left: no card of this deal can reach a foundation. Start a new game."
    )
    end_actions: ClassVar = ("undo", "restart")
    own_notices: ClassVar = frozenset({"refused", "not-home"})

    def restored(self, game: Seahaven, stored: StoredGame) -> None:
        """The saved verdict: ``lost``, or ``playing`` once proved (older rows have no
        ``unproved`` mark: their verdict was always proved before saving)."""
        if stored.state == "lost" or (stored.state == "playing" and not stored.extra.get(UNPROVED)):
            game.note_verdict(stored.state == "lost")

    def prepare(self, game: Seahaven) -> None:
        game.defer_proofs()

    def unproved(self, game: Seahaven) -> Position | None:
        return game.position if game.verdict() is None else None

    def note_verdict(self, game: Seahaven, lost: bool) -> None:
        game.note_verdict(lost)

    def stored(
        self, game: Seahaven, record: dict[str, Any], now: int, state: str | None = None
    ) -> StoredGame:
        """Marked ``unproved`` while the verdict on its position is not known yet."""
        kept = super().stored(game, record, now, state)
        if self.unproved(game) is None:
            return kept
        return dataclasses.replace(kept, extra={**kept.extra, UNPROVED: True})

    async def new_deal(
        self, request: Request, renderer: Renderer, store: Store, player: Player
    ) -> Response:
        """``GET /seahaven``: the New game dialog; ``?cells=4|2|1`` deals (303 to the URL)."""
        chosen = cells_query(request, ("cells", "last"))
        cells, last = chosen.get("cells"), chosen.get("last")
        if cells is not None:
            code = await playable_deal(request, f"C{cells}")
            return RedirectResponse(self.url(code), 303, headers=NO_STORE)
        page = await get_page(request, store, player)
        t = page.t
        context = page.context(
            levels=[(cells, t.gettext(name)) for cells, name in LEVELS],
            chosen=last or LEVELS[0][0],
        )
        return html_answer(renderer.page("games/seahaven/new.html", context, t))

    def ending_facts(
        self, game: Seahaven, state: str, score: int, asking: str | None = None, zen: bool = False
    ) -> tuple[Any, ...]:
        """While only foundation moves are left, the ending slot offers *Send all home*
        (``home`` among the actions offered; issue 27)."""
        if state == "playing" and asking is None and game.can_send_home():
            return ("playing", None, None, None, self.new_game_link(game), False, ("home",), 0)
        return super().ending_facts(game, state, score, asking, zen)

    def notice(self, key: str, game: Seahaven) -> Text | None:
        """``not-home`` only while *Send all home* is indeed not possible."""
        if key == NOT_HOME_KEY and game.can_send_home():
            return None
        return super().notice(key, game)

    def new_game_link(self, game: Seahaven) -> str:
        """The dialog preselects this game's level (``?last=2``): from Hard it offers Hard."""
        return f"/seahaven?last={game.cell_count}"

    def places(self, game: Seahaven, helping: bool) -> tuple[tuple[Any, ...], ...]:
        position = game.position
        chosen = game.selection
        at, card = chosen if chosen is not None else (-1, None)
        # *Placement help*: where each movable card may go, and where the selection may go
        targets = destinations(game) if helping else {}
        wanted = targets.get((at, len(game.selected_cards())), ()) if chosen is not None else ()
        places: list[tuple[Any, ...]] = []
        for offset, in_cell in enumerate(position.cells):
            place = CELLS.start + offset
            count = 0 if in_cell is None else 1
            goes = _names(targets.get((place, 1), ()))
            places.append((place, count, in_cell, place == at, place in wanted, goes))
        for offset, (suit, height) in enumerate(zip(SUITS, position.foundations, strict=True)):
            place = FOUNDATIONS.start + offset
            top = Card(height, suit) if height else None
            goes = _names(targets.get((place, 1), ()))
            places.append((place, height, top, place == at, place in wanted, goes))
        for index in COLUMNS:
            column = position.columns[index]
            count = len(column)
            selected_from = column.index(card) if index == at and card is not None else -1
            movable_from = count - position.run_length(index)
            goes_from = (
                tuple(_names(targets.get((index, count - depth), ())) for depth in range(count))
                if helping
                else ()
            )
            places.append(
                (index, count, column, movable_from, selected_from, index in wanted, goes_from)
            )
        return tuple(places)

    def place_html(self, lang: str, place: tuple[Any, ...]) -> str:
        if place[0] in COLUMNS:
            return column_html(lang, *place)
        return slot_html(lang, *place)

    def layout(self, places: list[str], interactive: bool = True) -> str:
        cells = len(places) - len(COLUMNS) - len(SUITS)
        return (
            f'<div class="top-row"><div class="cells">{"".join(places[:cells])}</div>'
            f'<div class="foundations">{"".join(places[cells : cells + len(SUITS)])}</div></div>'
            f'<div class="columns">{"".join(places[cells + len(SUITS) :])}</div>'
            + (GESTURES if interactive else "")
        )


GESTURES: Final = action_form(
    "seahaven",
    "auto",
    ' id="gesture-double" hidden',
    hidden("place", "") + hidden("card", "") + hidden("double", "1"),
) + action_form(
    "seahaven",
    "move",
    ' id="gesture-drop" hidden',
    hidden("from", "") + hidden("card", "") + hidden("to", ""),
)
"""What the script submits for gestures a plain form has no button for: the second click of a
double tap (it fills ``place`` and ``card``; ``double=1``) and a drop (``from``, ``card``,
``to``). On the board, so they carry its version (``hx-headers:inherited``) and join the same
queue as every tap; they never change, so a partial answer leaves them alone."""


UNPROVED: Final = "unproved"
"""Key of :attr:`StoredGame.extra`: the verdict on the saved position is not known yet."""

DEAL_DRAWS: Final = 12
"""Most random deals :func:`playable_deal` proves before it deals one anyway (at one cell
about one deal in four is lost at the deal: twelve lost in a row happen once in 17 million)."""


async def playable_deal(request: Request, variant: str) -> DealCode:
    """A random deal the app cannot prove lost at the deal (issue 13): drawn again while the
    proof pool says the deal is lost, at most :data:`DEAL_DRAWS` times and within
    ``proof_wait`` seconds in all. A deal whose proof did not finish in time is dealt (the
    app cannot prove it lost); a shared code always opens exactly what it codes."""
    prover: Prover = request.app.state.prover
    deadline = time.monotonic() + request.app.state.config.proof_wait
    code = DealCode.random("SH", variant)
    for _ in range(DEAL_DRAWS):
        left = deadline - time.monotonic()
        if left <= 0:
            break
        if await prover.verdict(deal_position(code), wait=left) is not True:
            break
        code = DealCode.random("SH", variant)
    return code


DESTINATION_HINT: Final = N_("the selection can go here")
"""*Placement help*: added to the spoken name of a place the selection may move to."""


def destinations(game: Seahaven) -> dict[tuple[int, int], tuple[int, ...]]:
    """*Placement help*: for every movable card (its place and how many cards move with it),
    the places it may legally go to — from the engine's legal moves, so the hint never
    promises a move the rules refuse."""
    found: dict[tuple[int, int], list[int]] = {}
    for source, count, target in game.legal_moves():
        found.setdefault((source, count), []).append(target)
    return {key: tuple(sorted(places)) for key, places in found.items()}


def _names(places: tuple[int, ...]) -> str:
    return " ".join(place_name(place) for place in places)


def _card_html(
    card: Card,
    spoken: str,
    selected: bool,
    movable: bool,
    t: NullTranslations,
    interactive: bool,
    targets: str = "",
) -> str:
    code = str(card)
    face = face_html(card, rank_letter(card, t))
    classes = f"card {colour(card)}{' movable' if movable else ''}"
    if not interactive:
        mark = " data-selected" if selected else ""
        return (
            f'<div class="{classes}" data-card="{code}" role="img"'
            f' aria-label="{attr(spoken)}"{mark}>{face}</div>'
        )
    goes = f' data-targets="{targets}"' if targets else ""
    return (
        f'<button id="card-{code}" name="card" value="{code}" class="{classes}" data-card="{code}"'
        f'{goes} aria-pressed="{"true" if selected else "false"}"'
        f' aria-label="{attr(spoken)}">{face}</button>'
    )


def _place_html(
    name: str, kind: str, count: int, inner: str, label: str, interactive: bool, extra: str = ""
) -> str:
    """A place's element around its cards; ``label`` is the label's markup (:func:`label_html`)."""
    classes = f"place {kind}{' ' + extra if extra else ''}"
    if not interactive:
        return (
            f'<div class="{classes}" data-place="{name}" data-count="{count}">{inner}{label}</div>'
        )
    attrs = f' id="place-{name}" class="{classes}" data-place="{name}" data-count="{count}"'
    return action_form("seahaven", "tap", attrs, hidden("place", name), inner + label)


def _empty_html(name: str, label: str, interactive: bool, extra: str = "", suit: str = "") -> str:
    classes = f"card empty{' ' + extra if extra else ''}"
    inner = f'<span class="suit">{suit}</span>' if suit else ""
    if not interactive:
        return f'<div class="{classes}" role="img" aria-label="{attr(label)}">{inner}</div>'
    return (
        f'<button id="slot-{name}" name="card" value="" class="{classes}"'
        f' aria-label="{attr(label)}">{inner}</button>'
    )


@functools.lru_cache(maxsize=8192)
def slot_html(
    lang: str,
    place: int,
    count: int,
    card: Card | None,
    selected: bool,
    destination: bool = False,
    targets: str = "",
    interactive: bool = INTERACTIVE,
) -> str:
    """A cell or a foundation: its one visible card (a foundation's top) or an empty slot.

    *Placement help*: ``destination`` (the selection may come here: said in its name too) and
    ``targets`` (where its card may go, for the drag)."""
    t = translations(lang)
    name = place_name(place)
    if place in CELLS:
        kind, extra, suit = "cell", "", ""
        label = t.gettext("cell %(number)s") % {"number": place - CELLS.start + 1}
    else:
        kind = "foundation"
        letter = SUITS[place - FOUNDATIONS.start]
        extra, suit = ("red" if letter in "HD" else "black"), SUIT_SYMBOLS[letter]
        label = foundation_label(letter, count, t)
    hint = f", {t.gettext(DESTINATION_HINT)}" if destination else ""
    if card is None:
        inner = _empty_html(name, label + hint, interactive, extra, suit)
    else:
        spoken = f"{card_name(card, t)}, {label}{hint}"
        inner = _card_html(card, spoken, selected, True, t, interactive, targets)
    place_class = "destination" if destination else ""
    counted = None if kind == "cell" else card_count(count, t)
    shown = label_html(place_text(place, t), counted)
    return _place_html(name, kind, count, inner, shown, interactive, place_class)


@functools.lru_cache(maxsize=8192)
def column_html(
    lang: str,
    index: int,
    count: int,
    cards: tuple[Card, ...],
    movable_from: int,
    selected_from: int,
    destination: bool = False,
    targets: tuple[str, ...] = (),
    interactive: bool = INTERACTIVE,
) -> str:
    """A column, fanned bottom to top; the cards of the run at its top are movable.

    *Placement help*: ``destination`` (the selection may come here) and ``targets`` (for each
    card, where it may go with the cards above it)."""
    t = translations(lang)
    name = place_name(index)
    label = column_label(index - COLUMNS.start + 1, count, t)
    hint = f", {t.gettext(DESTINATION_HINT)}" if destination else ""
    shown = "".join(
        _card_html(
            card,
            f"{card_name(card, t)}, {label}{hint if depth == count - 1 else ''}",
            0 <= selected_from <= depth,
            depth >= movable_from,
            t,
            interactive,
            targets[depth] if targets else "",
        )
        for depth, card in enumerate(cards)
    )
    if not cards:
        shown = _empty_html(name, label + hint, interactive)
    extra = fan_class(count) + (" destination" if destination else "")
    title = label_html(place_text(index, t), card_count(count, t))
    return _place_html(
        name, "column", count, f'<div class="fan">{shown}</div>', title, interactive, extra
    )


SCREEN = SeahavenScreen()
router = game_router(SCREEN)


# --- forms ---------------------------------------------------------------------------------------


def _on_board(text: str, code: DealCode | None) -> int:
    """A place on the form's deal (a cell its variant removed is no place)."""
    return parse_place(text, code.cells if code else MAX_CELLS)


SeahavenPlace = Annotated[int, parsed(_on_board, PLACE_HELP)]


class PlaceForm(ActionForm):
    """``tap`` and ``auto``: the card the player saw at a place (none for an empty place)."""

    place: SeahavenPlace
    card: CardField | None = None


class AutoForm(PlaceForm):
    """``auto``: a double tap; ``double=1`` when its first click was already sent as a tap."""

    double: bool = False


class MoveForm(ActionForm):
    """``move`` (a drag): the bottom card of the run, where it was, where it goes."""

    model_config = ConfigDict(populate_by_name=True)
    source: SeahavenPlace = Field(alias="from")
    card: CardField
    to: SeahavenPlace


def said_for(game: Seahaven, result: ActionResult[Move], session: SessionData) -> Said:
    """The live region's sentence for one action; a refusal explains itself only with *Move
    errors* on, and otherwise says that nothing moved (issue 13)."""
    outcome = result.outcome
    if outcome is Outcome.MOVED:
        assert result.move is not None
        _source, count, target = result.move
        position = game.position
        moved = position.columns[target][-count] if target in COLUMNS else position.top(target)
        assert moved is not None

        def say_moved(t: NullTranslations) -> str:
            values = {"card": card_name(moved, t), "place": place_text(target, t), "count": count}
            if count == 1:
                return t.gettext(N_("%(card)s to %(place)s.")) % values
            return t.gettext(N_("%(count)s cards, from %(card)s up, to %(place)s.")) % values

        return Said(say_moved, sound="card" if target in FOUNDATIONS else None)
    if outcome is Outcome.REFUSED:
        assert result.refusal is not None
        return refused(result.refusal, session, REFUSED, "refused")
    if outcome is Outcome.STALE:
        return Said(STALE, "stale")
    if outcome in (Outcome.SELECTED, Outcome.DESELECTED):
        cards = game.selected_cards() if outcome is Outcome.SELECTED else ()
        if outcome is Outcome.SELECTED:
            first, extra = cards[0], len(cards) - 1

            def say_selected(t: NullTranslations) -> str:
                if extra == 0:
                    return t.gettext(N_("%(card)s selected.")) % {"card": card_name(first, t)}
                return t.ngettext(
                    "%(card)s and %(num)s card above it selected.",
                    "%(card)s and %(num)s cards above it selected.",
                    extra,
                ) % {"card": card_name(first, t), "num": extra}

            return Said(say_selected)
        return Said(lambda t: t.gettext(N_("Selection cleared.")))
    return Said()


def _played(play: Callable[[Seahaven, int], ActionResult[Move]]) -> Action:
    """The action that plays ``play`` (one of the game's actions, the form's values bound)."""
    return lambda game, session, now: said_for(game, play(game, now), session)


@action_route(router, SCREEN, "tap", PlaceForm)
def tap(form: PlaceForm) -> Action:
    """A single tap: to the foundation when allowed, else select / move here."""
    return _played(lambda game, now: game.tap(form.place, form.card, now))


@action_route(router, SCREEN, "auto", AutoForm)
def auto(form: AutoForm) -> Action:
    """A double tap: the documents' destination order, never also a single tap. With
    ``double=1`` the page already sent its first click as a tap: the engine finishes the double
    tap so the game ends as the double tap alone would leave it (docs/decisions.md)."""
    double = Seahaven.finish_double_tap if form.double else Seahaven.auto
    return _played(lambda game, now: double(game, form.place, form.card, now))


NOT_HOME_KEY: Final = "not-home"
NOT_HOME = notice(
    NOT_HOME_KEY,
    N_("Not every card can go home by moves to the foundations now: nothing moved."),
)


class HomeForm(ActionForm):
    """``home``: *Send all home* takes nothing but the form token."""


@action_route(router, SCREEN, "home", HomeForm)
def home(form: HomeForm) -> Action:
    """*Send all home* (issue 27): every card left goes to its foundation, one after
    another, as one action; refused (nothing moves) unless only foundation moves are left."""

    def action(game: Seahaven, session: SessionData, now: int) -> Said:
        result = game.send_home(now)
        if result.outcome is not Outcome.MOVED:
            return Said(NOT_HOME, NOT_HOME_KEY, sound="refusal")
        sent = len(result.cards)

        def say(t: NullTranslations) -> str:
            return t.ngettext("%(num)s card sent home.", "%(num)s cards sent home.", sent) % {
                "num": sent
            }

        return Said(say, sound="card", flight=tuple(f"card-{card}" for card in result.cards))

    return action


@action_route(router, SCREEN, "move", MoveForm)
def move(form: MoveForm) -> Action:
    """A drag and drop: ``card`` (with the run above it) from ``from`` to ``to``."""
    return _played(lambda game, now: game.move(form.source, form.card, form.to, now))
