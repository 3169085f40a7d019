"""Seahaven Towers' pages: the fanned board and its screen (this module), the New game dialog
and the deals (:mod:`~app.web.seahaven.deals`), the forms and the actions tap / auto / move
(:mod:`~app.web.seahaven.forms`, :mod:`~app.web.seahaven.actions`) and the example
(:mod:`~app.web.seahaven.examples`) (SPEC §3)."""

from __future__ import annotations

import functools
from collections.abc import Collection
from typing import Any, ClassVar, Final

from babel.support import NullTranslations
from fastapi import Request
from fastapi.responses import RedirectResponse, Response
from markupsafe import Markup

from app.engine.cards import SUIT_SYMBOLS, SUITS, Card
from app.engine.codes import DealCode
from app.engine.seahaven import (
    CELLS,
    COLUMNS,
    FOUNDATIONS,
    Position,
    Seahaven,
)
from app.i18n import N_, card_count, card_name, rank_letter, translations
from app.status import Status
from app.store import Store, StoredGame
from app.web.edge.dependencies import get_page
from app.web.edge.errors import Text
from app.web.edge.htmx import NO_STORE, html_answer
from app.web.play.deals import asked, new_code
from app.web.play.game_routes import game_router
from app.web.play.unfinished import START, ask_first
from app.web.players.sessions import Player
from app.web.rendering.board_markup import draw, words
from app.web.rendering.board_values import (
    INTERACTIVE,
    STATIC,
    Ending,
    Place,
    place_of,
    selected_from,
)
from app.web.rendering.diagrams import NOBODY, Diagram
from app.web.rendering.screen import Screen
from app.web.rendering.templates import Renderer
from app.web.seahaven import actions, examples, replay
from app.web.seahaven.actions import NOT_HOME_KEY
from app.web.seahaven.deals import CELLS_HELP, LEVELS, cells_query, playable_deal
from app.web.seahaven.forms import PlaceForm
from app.web.seahaven.places import (
    DESTINATION_HINT,
    column_label,
    destinations,
    foundation_label,
    place_names,
    place_text,
)


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
    own_notices: ClassVar = frozenset({"refused", NOT_HOME_KEY})
    tap_form: ClassVar = PlaceForm
    rules_title: ClassVar = N_("Seahaven Towers rules")
    rules_description: ClassVar = N_(
        "How to play Seahaven Towers: ten columns, cells and foundations, building down by "
        "suit, kings in empty columns, how many cards move as a group."
    )
    diagram_deals: ClassVar = tuple(DealCode("SH", 1, v.code, 0) for v in Seahaven.variants)
    """Deal 0 with each number of cells."""
    example_deal: ClassVar = examples.SEAHAVEN_DEAL

    def diagram(self, game: Seahaven, lang: str, ringed: Collection[str] = ()) -> Diagram:
        return diagram(game, lang, ringed)

    def example_steps(self) -> int:
        return len(examples.seahaven_steps()[0]) - 1

    def example_view(self, number: int, lang: str) -> dict[str, Any]:
        return {"view": examples.seahaven_step_view(number, lang, diagram)}

    def examples_index(self) -> dict[str, Any]:
        return {"sh_code": str(self.example_deal), "case_step": examples.seahaven_steps()[1].step}

    ranks_wins_by_moves: ClassVar = True

    def hint_marks(self, position: Any, move: Any) -> tuple[str, ...]:
        """The card a move takes (the bottom of the run it moves): ``card-7H``."""
        source, count, _ = move
        card = position.columns[source][-count] if source in COLUMNS else position.top(source)
        return () if card is None else (f"card-{card}",)

    def describe_move(self, position: Any, move: Any, lang: str) -> str:
        return replay.describe(position, move, lang)

    def move_ringed(self, position: Any, move: Any) -> Collection[str]:
        return tuple(str(card) for card in replay.moving(position, move))

    def daily_variant(self, request: Request) -> str:
        """``?cells=4|2|1`` (4 when not given; anything else is the 422 page)."""
        return "C" + cells_query(request, ("cells",)).get("cells", "4")

    def restored(self, game: Seahaven, stored: StoredGame) -> None:
        """The saved verdict: ``lost``, or ``playing`` once proved (older rows have no
        ``unproved`` mark: their verdict was always proved before saving)."""
        lost = stored.state == Status.LOST
        if lost or (stored.state == Status.PLAYING and not stored.marks.unproved):
            game.note_verdict(lost)

    def prepare(self, game: Seahaven) -> None:
        game.defer_proofs()

    def unproved(self, game: Seahaven) -> Position | None:
        return game.position if game.verdict() is None else None

    def note_verdict(self, game: Seahaven, lost: bool) -> None:
        game.note_verdict(lost)

    def stored(
        self, game: Seahaven, record: dict[str, Any], now: int, state: Status | None = None
    ) -> StoredGame:
        """Marked ``unproved`` while the verdict on its position is not known yet."""
        kept = super().stored(game, record, now, state)
        if self.unproved(game) is None:
            return kept
        return kept.with_marks(kept.marks._replace(unproved=True))

    async def new_deal(
        self, request: Request, renderer: Renderer, store: Store, player: Player
    ) -> Response:
        """``GET /seahaven``: the New game dialog; ``?cells=4|2|1`` deals (303 to the URL)."""
        chosen = cells_query(request, ("cells", "last"), also=("winnable", START))
        cells, last = chosen.get("cells"), chosen.get("last")
        if cells is not None:
            variant = f"C{cells}"
            asked_first = await ask_first(
                request, renderer, store, player, self.game.game_id, variant
            )
            if asked_first is not None:  # an unfinished game of the level (issue 43)
                return asked_first
            code = await new_code(request, store, player, Seahaven.game_id, variant)
            code = code or await playable_deal(request, variant)
            return RedirectResponse(self.url(code), 303, headers=NO_STORE)
        asked(request)  # a malformed ?winnable= is the 422 page here too
        page = await get_page(request, store, player)
        t = page.t
        context = page.context(
            levels=[(cells, t.gettext(name)) for cells, name in LEVELS],
            chosen=last or LEVELS[0][0],
            winnable=page.session.winnable if page.session else "auto",
        )
        return html_answer(renderer.page("games/seahaven/new.html", context, t))

    def ending_facts(
        self,
        game: Seahaven,
        state: Status,
        score: int,
        asking: str | None = None,
        zen: bool = False,
    ) -> Ending | None:
        """While only foundation moves are left, the ending slot offers *Send all home*
        (``home`` among the actions offered; issue 27)."""
        if state == Status.PLAYING and asking is None and game.can_send_home():
            return Ending(
                state=Status.PLAYING,
                score=None,
                elapsed_ms=None,
                asking=None,
                new_game_link=self.new_game_link(game),
                other_link=self.other_deal_link(game),
                at_deal=False,
                actions=("home",),
                moves=0,
            )
        return super().ending_facts(game, state, score, asking, zen)

    def notice(self, key: str, game: Seahaven) -> Text | None:
        """``not-home`` only while *Send all home* is indeed not possible."""
        if key == NOT_HOME_KEY and game.can_send_home():
            return None
        return super().notice(key, game)

    deal_fields: ClassVar[dict[str, tuple[tuple[str, ...], str]]] = {
        "cells": (tuple(cells for cells, _ in LEVELS), CELLS_HELP)
    }

    def new_deals(self, t: NullTranslations) -> list[tuple[str, str, str]]:
        """A tap deals each level (``?cells=``): the dialog's choices, without the dialog."""
        deals = []
        for cells, name in LEVELS:
            count = t.ngettext("%(num)s cell", "%(num)s cells", int(cells)) % {"num": cells}
            deals.append((f"C{cells}", f"/seahaven?cells={cells}", f"{t.gettext(name)} · {count}"))
        return deals

    def new_game_link(self, game: Seahaven) -> str:
        """One tap to a fresh deal of this game's level (issue 45): ``?cells=N`` deals."""
        return f"/seahaven?cells={game.cell_count}"

    def other_deal_link(self, game: Seahaven) -> str:
        """The dialog preselects this game's level (``?last=2``): from Hard it offers Hard."""
        return f"/seahaven?last={game.cell_count}"

    def places(self, game: Seahaven, helping: bool) -> tuple[Place, ...]:
        position = game.position
        chosen = game.selection
        at, card = chosen if chosen is not None else (-1, None)
        # *Placement help*: where each movable card may go, and where the selection may go
        targets = destinations(game) if helping else {}
        wanted = targets.get((at, len(game.selected_cards())), ()) if chosen is not None else ()
        places: list[Place] = []

        def slot(kind: str, number: int, place: int, count: int, top: Card | None) -> Place:
            goes = place_names(targets.get((place, 1), ()))
            cards, selected = () if top is None else (top,), 0 if place == at else None
            return place_of(
                kind,
                number,
                count,
                cards,
                selected,
                0,
                False,
                place in wanted,
                (goes,) if goes else (),
            )

        for i, in_cell in enumerate(position.cells):
            places.append(
                slot("cell", i + 1, CELLS.start + i, 0 if in_cell is None else 1, in_cell)
            )
        for i, (suit, height) in enumerate(zip(SUITS, position.foundations, strict=True)):
            top = Card(height, suit) if height else None
            places.append(slot("foundation", i + 1, FOUNDATIONS.start + i, height, top))
        for index in COLUMNS:
            column = position.columns[index]
            count = len(column)
            goes_from = (
                tuple(
                    place_names(targets.get((index, count - depth), ())) for depth in range(count)
                )
                if helping
                else ()
            )
            selected = column.index(card) if index == at and card is not None else None
            movable = count - position.run_length(index)
            number = index - COLUMNS.start + 1
            destination = index in wanted
            places.append(
                place_of(
                    "column",
                    number,
                    count,
                    column,
                    selected,
                    movable,
                    False,
                    destination,
                    goes_from,
                )
            )
        return tuple(places)

    def place_html(self, lang: str, place: Place) -> str:
        if place.kind == "column":
            return column_html(lang, place)
        return slot_html(lang, place)

    def layout(self, places: list[str], interactive: bool = True) -> str:
        cells = len(places) - len(COLUMNS) - len(SUITS)
        parts = places[:cells], places[cells : cells + len(SUITS)], places[cells + len(SUITS) :]
        around = _layout(interactive)
        return "".join(
            (around[0], *parts[0], around[1], *parts[1], around[2], *parts[2], around[3])
        )


LAYOUT_MARKS: Final = ("\x00cells\x00", "\x00foundations\x00", "\x00columns\x00")


@functools.lru_cache(maxsize=2)
def _layout(interactive: bool) -> tuple[str, str, str, str]:
    """The board's layout (``layout`` of ``templates/games/seahaven/board.html``) drawn once,
    cut where the cells, the foundations and the columns go."""
    drawn = draw(BOARD, "layout", *(Markup(mark) for mark in LAYOUT_MARKS), interactive)
    first, rest = drawn.split(LAYOUT_MARKS[0])
    second, rest = rest.split(LAYOUT_MARKS[1])
    third, last = rest.split(LAYOUT_MARKS[2])
    return first, second, third, last


BOARD: Final = "games/seahaven/board.html"


def engine_place(place: Place) -> int:
    """The engine's index of a place (:mod:`app.engine.seahaven`'s ``CELLS``, …)."""
    first = {"cell": CELLS, "foundation": FOUNDATIONS, "column": COLUMNS}[place.kind].start
    return first + place.number - 1


@functools.lru_cache(maxsize=8192)
def slot_html(lang: str, slot: Place, interactive: bool = INTERACTIVE) -> str:
    """A cell or a foundation (``templates/games/seahaven/board.html``), its texts in ``lang``.

    *Placement help*: ``destination`` (the selection may come here: said in its name too) and
    ``targets`` (where its card may go, for the drag)."""
    t = translations(lang)
    place, card = engine_place(slot), slot.top
    hint = f", {t.gettext(DESTINATION_HINT)}" if slot.destination else ""
    if slot.kind == "cell":
        name = t.gettext("cell %(number)s") % {"number": slot.number}
        texts = {"count": None, "short": str(slot.number), "tint": "", "suit": ""}
    else:
        letter = SUITS[slot.number - 1]
        name = foundation_label(letter, slot.count, t)
        suit = SUIT_SYMBOLS[letter]
        tint = "red" if letter in "HD" else "black"
        texts = {"count": card_count(slot.count, t), "short": suit, "tint": tint, "suit": suit}
    texts |= {
        "spoken": name + hint,
        "title": place_text(place, t),
        "card": "" if card is None else card_name(card, t),
        "rank": "" if card is None else rank_letter(card, t),
    }
    return draw(BOARD, "slot", slot, words(**texts), interactive)


@functools.lru_cache(maxsize=8192)
def column_html(lang: str, column: Place, interactive: bool = INTERACTIVE) -> str:
    """A column (``templates/games/seahaven/board.html``), its texts in ``lang``.

    *Placement help*: ``destination`` (the selection may come here) and ``targets`` (for each
    card, where it may go with the cards above it)."""
    t = translations(lang)
    texts = words(
        spoken=column_label(column.number, column.count, t),
        hint=f", {t.gettext(DESTINATION_HINT)}" if column.destination else "",
        title=place_text(engine_place(column), t),
        count=card_count(column.count, t),
        short=str(column.number),
        cards=[(card_name(card, t), rank_letter(card, t)) for card in column.cards],
    )
    return draw(BOARD, "column", column, texts, fan_class(column.count), interactive)


def diagram(game: Seahaven, lang: str, ringed: Collection[str] = ()) -> Diagram:
    """Seahaven's cells, foundations and columns; ``ringed`` names cards (``KH``) whose place
    shows them ringed — in a column, the card and everything above it."""
    facts = SCREEN.facts(game, NOBODY, state=Status.PLAYING)
    parts = []
    for place in facts.places:
        marked = [depth for depth, card in enumerate(place.cards) if str(card) in ringed]
        ring = selected_from(place, min(marked, default=None))
        if place.kind == "column":
            parts.append(column_html(lang, ring, interactive=STATIC))
        else:
            parts.append(slot_html(lang, ring, interactive=STATIC))
    cells = len(game.position.cells)
    return Diagram(
        SCREEN.slug, str(game.code), cells, Markup(SCREEN.layout(parts, interactive=False))
    )


SCREEN = SeahavenScreen()
router = game_router(SCREEN)
actions.routes(router, SCREEN)
