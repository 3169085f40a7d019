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

from app.engine.cards import SUIT_SYMBOLS, SUITS, Card
from app.engine.codes import DealCode
from app.engine.seahaven import (
    CELLS,
    COLUMNS,
    FOUNDATIONS,
    Position,
    Seahaven,
    place_name,
)
from app.i18n import N_, card_count, card_name, rank_letter, translations
from app.store import Store, StoredGame
from app.web.board import (
    INTERACTIVE,
    Ending,
    action_form,
    attr,
    colour,
    face_html,
    hidden,
    label_html,
)
from app.web.dependencies import get_page
from app.web.diagrams import Diagram
from app.web.errors import Text
from app.web.game_routes import game_router
from app.web.htmx import NO_STORE, html_answer
from app.web.notices import notice
from app.web.render import Renderer
from app.web.screen import Screen
from app.web.seahaven.deals import LEVELS, cells_query, playable_deal
from app.web.seahaven.forms import PlaceForm
from app.web.seahaven.places import (
    DESTINATION_HINT,
    column_label,
    destinations,
    foundation_label,
    place_names,
    place_text,
)
from app.web.sessions import Player

REFUSED = notice("refused", N_("Not allowed: nothing moved."))
"""A refusal with *Move errors* off: it shows that nothing happened, without the reason."""
NOT_HOME_KEY: Final = "not-home"
NOT_HOME = notice(
    NOT_HOME_KEY,
    N_("Not every card can go home by moves to the foundations now: nothing moved."),
)
"""*Send all home* asked for while other moves than to the foundations are left."""


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
    own_notices: ClassVar = frozenset({"refused", NOT_HOME_KEY})
    tap_form: ClassVar = PlaceForm
    rules_title: ClassVar = N_("Seahaven Towers rules")
    rules_description: ClassVar = N_(
        "How to play Seahaven Towers: ten columns, cells and foundations, building down by "
        "suit, kings in empty columns, how many cards move as a group."
    )
    diagram_deals: ClassVar = tuple(DealCode("SH", 1, v.code, 0) for v in Seahaven.variants)
    """Deal 0 with each number of cells."""
    example_deal: ClassVar = DealCode.parse("SH1-C4-AAAAAAA")

    def diagram(self, game: Seahaven, lang: str, ringed: Collection[str] = ()) -> Diagram:
        from app.web.seahaven import examples  # it draws with this module's places

        return examples.diagram(game, lang, ringed)

    def example_steps(self) -> int:
        from app.web.seahaven import examples

        return len(examples.seahaven_steps()[0]) - 1

    def example_view(self, number: int, lang: str) -> dict[str, Any]:
        from app.web.seahaven import examples

        return {"view": examples.seahaven_step_view(number, lang)}

    def examples_index(self) -> dict[str, Any]:
        from app.web.seahaven import examples

        return {"sh_code": str(self.example_deal), "case_step": examples.seahaven_steps()[1].step}

    ranks_wins_by_moves: ClassVar = True

    def describe_move(self, position: Any, move: Any, lang: str) -> str:
        from app.web.seahaven import replay  # its own module, as the example is

        return replay.describe(position, move, lang)

    def daily_variant(self, request: Request) -> str:
        """``?cells=4|2|1`` (4 when not given; anything else is the 422 page)."""
        return "C" + cells_query(request, ("cells",)).get("cells", "4")

    def restored(self, game: Seahaven, stored: StoredGame) -> None:
        """The saved verdict: ``lost``, or ``playing`` once proved (older rows have no
        ``unproved`` mark: their verdict was always proved before saving)."""
        if stored.state == "lost" or (stored.state == "playing" and not stored.marks.unproved):
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
        return kept.with_marks(kept.marks._replace(unproved=True))

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
    ) -> Ending | None:
        """While only foundation moves are left, the ending slot offers *Send all home*
        (``home`` among the actions offered; issue 27)."""
        if state == "playing" and asking is None and game.can_send_home():
            return Ending(
                "playing", None, None, None, self.new_game_link(game), False, ("home",), 0
            )
        return super().ending_facts(game, state, score, asking, zen)

    def notice(self, key: str, game: Seahaven) -> Text | None:
        """``not-home`` only while *Send all home* is indeed not possible."""
        if key == NOT_HOME_KEY and game.can_send_home():
            return None
        return super().notice(key, game)

    def new_deals(self, t: NullTranslations) -> list[tuple[str, str, str]]:
        """A tap deals each level (``?cells=``): the dialog's choices, without the dialog."""
        deals = []
        for cells, name in LEVELS:
            count = t.ngettext("%(num)s cell", "%(num)s cells", int(cells)) % {"num": cells}
            deals.append((f"C{cells}", f"/seahaven?cells={cells}", f"{t.gettext(name)} · {count}"))
        return deals

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
            goes = place_names(targets.get((place, 1), ()))
            places.append((place, count, in_cell, place == at, place in wanted, goes))
        for offset, (suit, height) in enumerate(zip(SUITS, position.foundations, strict=True)):
            place = FOUNDATIONS.start + offset
            top = Card(height, suit) if height else None
            goes = place_names(targets.get((place, 1), ()))
            places.append((place, height, top, place == at, place in wanted, goes))
        for index in COLUMNS:
            column = position.columns[index]
            count = len(column)
            selected_from = column.index(card) if index == at and card is not None else -1
            movable_from = count - position.run_length(index)
            goes_from = (
                tuple(
                    place_names(targets.get((index, count - depth), ())) for depth in range(count)
                )
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
    short = str(place - CELLS.start + 1) if kind == "cell" else suit
    shown = label_html(place_text(place, t), counted, short)
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
    title = label_html(place_text(index, t), card_count(count, t), str(index - COLUMNS.start + 1))
    return _place_html(
        name, "column", count, f'<div class="fan">{shown}</div>', title, interactive, extra
    )


SCREEN = SeahavenScreen()
router = game_router(SCREEN)

from app.web.seahaven import actions as actions  # noqa: E402  (its routes need the screen above)
