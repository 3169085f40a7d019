"""Half Moon's pages: the arc board and the tap route (SPEC §2, issue "Play Half Moon"), its
rules page's diagram and its example (:mod:`app.web.halfmoon.examples`)."""

from __future__ import annotations

import functools
from collections.abc import Collection
from typing import Annotated, Any, ClassVar, Final

from fastapi import Request
from fastapi.responses import Response
from markupsafe import Markup

from app.engine.cards import Card
from app.engine.game import ActionResult
from app.engine.halfmoon import (
    PILES,
    HalfMoon,
    Outcome,
    Removal,
    parse_place,
    place_name,
)
from app.i18n import (
    N_,
    card_count,
    card_name,
    cards_text,
    place_label,
    place_title,
    rank_letter,
    translations,
)
from app.store import SessionData, Store
from app.web.edge.dependencies import get_page
from app.web.edge.errors import PlayerError, invalid_field, unknown_field
from app.web.edge.htmx import html_answer
from app.web.halfmoon import examples, replay
from app.web.play.actions import Action, action_route
from app.web.play.deals import asked
from app.web.play.forms import ActionForm, CardField, parsed
from app.web.play.game_routes import game_router
from app.web.players.sessions import Player
from app.web.rendering.board_markup import draw, words
from app.web.rendering.board_values import INTERACTIVE, STATIC, Place, selected_from
from app.web.rendering.diagrams import NOBODY, Diagram
from app.web.rendering.notices import STALE, Said, notice, refused
from app.web.rendering.screen import Screen
from app.web.rendering.templates import Renderer

CLEARED = notice("cleared", N_("Selection cleared."))
"""A refusal with *Move errors* off: nothing was removed and the selection is gone."""


DIALOG: Final = "/half-moon?new=1"
"""The New game dialog (``GET /half-moon?new=1``): *Winnable deals only*, then Deal."""
NEW_HELP: Final = N_("Accepted: 1.")

PLACE_HELP: Final = N_("A Half Moon place is pile-1 … pile-12 or reserve-1 … reserve-8.")


class TapForm(ActionForm):
    """``POST /half-moon/{code}/tap``: the card the player saw at a place."""

    place: Annotated[int, parsed(lambda text, _code: parse_place(text), PLACE_HELP)]
    card: CardField


class HalfMoonScreen(Screen[HalfMoon]):
    game: ClassVar = HalfMoon
    defeat: ClassVar = N_(
        "No moves left: no pair sums to 11 and there is no jack–queen–king triple "
        "to remove. Undo, or restart the deal."
    )
    defeat_at_deal: ClassVar = N_(
        "No moves left: no pair sums to 11 and there is no jack–queen–king triple "
        "to remove. Start a new game."
    )
    own_notices: ClassVar = frozenset({"cleared"})
    tap_form: ClassVar = TapForm
    rules_title: ClassVar = N_("Half Moon rules")
    rules_description: ClassVar = N_(
        "How to play Half Moon: the arc of twelve piles and the reserve, pairs that sum to "
        "11, jack–queen–king triples, taps, score and the end of the game."
    )
    example_deal: ClassVar = examples.HALF_MOON_DEAL
    """Half Moon deal 8: its first move is a pair between two piles that uncovers a jack, which
    the second move takes with a queen and a king — like the documents' own worked example."""
    diagram_deals: ClassVar = (example_deal,)

    def places(self, game: HalfMoon, helping: bool) -> tuple[Place, ...]:
        dimmed = game.dimmed() if helping and game.selection else frozenset()
        selection = game.selection
        piles, reserve = game.position.piles, game.position.reserve
        return tuple(
            hm_place(i, len(pile), pile[-1] if pile else None, i in selection, i in dimmed)
            for i, pile in enumerate(piles)
        ) + tuple(
            hm_place(r, 0 if c is None else 1, c, r in selection, r in dimmed)
            for r, c in enumerate(reserve, start=PILES)
        )

    def place_html(self, lang: str, place: Place) -> str:
        return place_html(lang, place)

    def diagram(self, game: HalfMoon, lang: str, ringed: Collection[str] = ()) -> Diagram:
        return diagram(game, lang, ringed)

    def example_steps(self) -> int:
        return len(examples.half_moon_steps()) - 1

    def example_view(self, number: int, lang: str) -> dict[str, Any]:
        return {
            "view": examples.half_moon_step_view(number, lang, diagram),
            "opening": examples.opening(lang),
        }

    def examples_index(self) -> dict[str, Any]:
        return {"hm_code": str(self.example_deal)}

    def hint_words(self, position: Any, move: Any, lang: str) -> str:
        return replay.advise(position, move, lang)

    def hint_marks(self, position: Any, move: Any) -> tuple[str, ...]:
        """The cards a removal takes: ``card-pile-3`` (the top card of each of its places)."""
        return tuple(f"card-{place_name(place)}" for place in move)

    def describe_move(self, position: Any, move: Any, lang: str) -> str:
        return replay.describe(position, move, lang)

    def move_ringed(self, position: Any, move: Any) -> Collection[str]:
        return tuple(place_name(place) for place in move)

    other_deal_label: ClassVar[str] = N_("Deal options or code…")

    def other_deal_link(self, game: HalfMoon) -> str:
        """*New game* deals at once (``/half-moon``, issue 45); the dialog (:data:`DIALOG`)
        is this small link beside it."""
        return DIALOG

    async def new_deal(
        self, request: Request, renderer: Renderer, store: Store, player: Player
    ) -> Response | None:
        """``GET /half-moon``: a fresh deal (``None``: :func:`app.web.play.deals.fresh_deal`);
        ``?new=1``: the New game dialog, its *Winnable deals only* preset from the player's
        choice (issue 33, item 5). The dialog's query has no other field than ``winnable``
        (422 otherwise)."""
        query = request.query_params
        if "new" not in query:
            return None
        problems = [unknown_field(name) for name in query if name not in ("new", "winnable")]
        if query.getlist("new") != ["1"]:
            problems.append(invalid_field("new", NEW_HELP))
        if problems:
            raise PlayerError.bad_input(problems)
        asked(request)  # a malformed ?winnable= is the 422 page here too
        page = await get_page(request, store, player)
        winnable = page.session.winnable if page.session else "auto"
        context = page.context(winnable=winnable)
        return html_answer(renderer.page("games/half-moon/new.html", context, page.t))


BOARD: Final = "games/half-moon/board.html"


@functools.lru_cache(maxsize=16384)
def hm_place(index: int, count: int, card: Card | None, selected: bool, dimmed: bool) -> Place:
    """The place of index ``index`` (the piles, then the reserve), its top card ``card``
    (made once for its values: a board's places change few at a time)."""
    kind, number = ("pile", index + 1) if index < PILES else ("reserve", index - PILES + 1)
    cards = () if card is None else (card,)
    return Place(kind, number, count, cards, 0 if selected else None, dimmed=dimmed)


@functools.lru_cache(maxsize=8192)
def place_html(lang: str, place: Place, interactive: bool = INTERACTIVE) -> str:
    """A pile or reserve slot (``templates/games/half-moon/board.html``), its texts in
    ``lang``. Cached: a pure function of its arguments; the token and the deal code are
    placeholders."""
    t = translations(lang)
    kind, number, count, card = place.kind, place.number, place.count, place.top
    texts = words(
        spoken=place_label(kind, number, count, t),  # the sentence a screen reader speaks
        title=place_title(kind, number, t),
        count=card_count(count, t),
        card="" if card is None else card_name(card, t),
        rank="" if card is None else rank_letter(card, t),
    )
    return draw(BOARD, "place", place, texts, interactive)


def diagram(game: HalfMoon, lang: str, ringed: Collection[str] = ()) -> Diagram:
    """Half Moon's arc and reserve; ``ringed`` names places (``pile-2``) whose card is ringed."""
    facts = SCREEN.facts(game, NOBODY)
    parts = [
        place_html(lang, selected_from(p, 0 if p.name in ringed else None), STATIC)
        for p in facts.places
    ]
    return Diagram(SCREEN.slug, str(game.code), 0, Markup(SCREEN.layout(parts, interactive=False)))


SCREEN = HalfMoonScreen()
router = game_router(SCREEN)


@action_route(router, SCREEN, "tap", TapForm)
def tap(form: TapForm) -> Action:
    """The tap the form names: the card must still be there (else the tap is stale)."""

    def action(game: HalfMoon, session: SessionData, now: int) -> Said:
        if game.position.top(form.place) != form.card:
            return Said(STALE, "stale")
        return said_for(game.tap(form.place, form.card, now), form.card, session)

    return action


def said_for(result: ActionResult[Removal], card: Card, session: SessionData) -> Said:
    """The announcement of one tap; a refusal explains itself only with *Move errors* on."""
    outcome = result.outcome
    if outcome is Outcome.REMOVED:
        assert result.move is not None
        points = result.move.points
        if session.zen:  # issue 27: no score anywhere on the page
            return Said(
                lambda t: (
                    t.gettext(N_("Removed %(cards)s.")) % {"cards": cards_text(result.cards, t)}
                ),
                sound="card",
            )
        return Said(
            lambda t: (
                t.gettext(N_("Removed %(cards)s: %(points)s points."))
                % {"cards": cards_text(result.cards, t), "points": points}
            ),
            sound="card",
        )
    if outcome is Outcome.REFUSED:
        assert result.refusal is not None
        return refused(result.refusal, session, CLEARED, "cleared")
    messages: dict[object, str] = {
        Outcome.SELECTED: N_("%(card)s selected."),
        Outcome.DESELECTED: N_("%(card)s no longer selected."),
        Outcome.REPLACED: N_("%(card)s selected instead."),
    }
    message = messages[outcome]
    return Said(lambda t: t.gettext(message) % {"card": card_name(card, t)})
