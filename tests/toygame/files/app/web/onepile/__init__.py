# ruff: noqa: I001 — copied into app/web/onepile/, where app.engine.onepile is first-party
"""One Pile's pages (the toy game of tests/toygame/): one pile, its top card a tap form."""

from __future__ import annotations

import functools
from collections.abc import Collection
from typing import Annotated, Any, ClassVar

from markupsafe import Markup

from app.engine.cards import Card
from app.engine.codes import DealCode
from app.engine.onepile import OnePile, Outcome
from app.i18n import N_, card_name, place_label, rank_letter, translations
from app.store import SessionData
from app.web.play.actions import Action, action_route
from app.web.rendering.board_values import INTERACTIVE, STATIC, Place
from app.web.rendering.diagrams import Diagram
from app.web.play.forms import ActionForm, CardField, parsed
from app.web.play.game_routes import game_router
from app.web.rendering.board_markup import draw, words
from app.web.rendering.notices import STALE, Said, sentence
from app.web.rendering.screen import Screen

BOARD = "games/one-pile/board.html"


def _pile(text: str, _code: DealCode) -> int:
    if text != "pile-1":
        raise ValueError(text)
    return 0


class TapForm(ActionForm):
    place: Annotated[int, parsed(_pile, N_("A One Pile place is pile-1."))]
    card: CardField


class OnePileScreen(Screen[OnePile]):
    game: ClassVar = OnePile
    defeat: ClassVar = N_("No moves left.")
    tap_form: ClassVar = TapForm
    rules_title: ClassVar = N_("One Pile rules")
    rules_description: ClassVar = N_("How to play One Pile.")
    example_deal: ClassVar = DealCode.parse("OP1-N-AAAAAAB")
    diagram_deals: ClassVar = (example_deal,)

    def places(self, game: OnePile, helping: bool) -> tuple[Place, ...]:
        pile = game.position.pile
        return (Place("pile", 1, len(pile), pile[-1:]),)

    def place_html(self, lang: str, place: Place) -> str:
        return place_html(lang, place)

    def diagram(self, game: OnePile, lang: str, ringed: Collection[str] = ()) -> Diagram:
        parts = [place_html(lang, p, STATIC) for p in self.places(game, False)]
        return Diagram(self.slug, str(game.code), 0, Markup(self.layout(parts, False)))

    def example_steps(self) -> int:
        return 5

    def example_view(self, number: int, lang: str) -> dict[str, Any]:
        game = OnePile(self.example_deal)
        for _ in range(number):
            game.take(game.position.pile[-1], 0)
        return {"view": {"board": self.diagram(game, lang)}}

    def describe_move(self, position: Any, move: Any, lang: str) -> str:
        t = translations(lang)
        return sentence(
            t.gettext(N_("%(card)s taken.")) % {"card": card_name(position.top(), t)}, lang
        )


@functools.lru_cache(maxsize=256)
def place_html(lang: str, place: Place, interactive: bool = INTERACTIVE) -> str:
    t = translations(lang)
    top = place.top
    spoken = place_label(place.kind, place.number, place.count, t)
    if top is None:
        return draw(BOARD, "place", place, words(spoken=spoken), interactive)
    texts = words(spoken=spoken, card=card_name(top, t), rank=rank_letter(top, t))
    return draw(BOARD, "place", place, texts, interactive)


SCREEN = OnePileScreen()
router = game_router(SCREEN)


@action_route(router, SCREEN, "tap", TapForm)
def tap(form: TapForm) -> Action:
    def action(game: OnePile, session: SessionData, now: int) -> Said:
        card: Card = form.card
        result = game.take(card, now)
        if result.outcome is Outcome.STALE:
            return Said(STALE, "stale")
        return Said(lambda t: t.gettext(N_("%(card)s taken.")) % {"card": card_name(card, t)})

    return action
