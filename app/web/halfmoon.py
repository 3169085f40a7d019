"""Half Moon's pages: the arc board and the tap route (SPEC §2, issue "Play Half Moon")."""

from __future__ import annotations

from typing import Annotated, ClassVar

from babel.support import NullTranslations
from fastapi import Form, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.dependencies import PlayerDep, RendererDep, SameOrigin, StoreDep
from app.engine.cards import Card
from app.engine.game import ActionResult, Outcome
from app.engine.games import AnyGame
from app.engine.halfmoon import (
    PILES,
    PLACES,
    HalfMoon,
    Removal,
    parse_place,
    place_name,
)
from app.i18n import N_, card_name, cards_text, place_label
from app.store import SessionData
from app.web.play import STALE, Action, Said, Screen, act, game_router, notice, refused
from app.web.views import BoardView, CardView, PlaceView

CLEARED = notice("cleared", N_("Selection cleared."))
"""A refusal with *Move errors* off: nothing was removed and the selection is gone."""


class HalfMoonScreen(Screen):
    slug: ClassVar = "half-moon"
    game: ClassVar = HalfMoon
    template: ClassVar = "pages/half_moon.html"
    name: ClassVar = N_("Half Moon")
    defeat: ClassVar = N_(
        "No moves left: no pair sums to 11 and there is no jack–queen–king triple "
        "to remove. Undo, or start a new game."
    )
    end_actions: ClassVar = ("undo",)
    own_notices: ClassVar = frozenset({"cleared"})

    def board(self, game: AnyGame, session: SessionData, t: NullTranslations) -> BoardView:
        assert isinstance(game, HalfMoon)
        position = game.position
        dimmed = game.dimmed() if session.placement_help else frozenset()
        places = []
        for index in range(PLACES):
            kind, number = ("pile", index + 1) if index < PILES else ("reserve", index - PILES + 1)
            count = position.count(index)
            label = place_label(kind, number, count, t)
            card = position.top(index)
            view = CardView.of(card, t) if card is not None else None
            places.append(
                PlaceView(
                    id=place_name(index),
                    count=count,
                    label=label,
                    spoken=f"{view.name}, {label}" if view else label,
                    card=view,
                    selected=index in game.selection,
                    dimmed=index in dimmed,
                )
            )
        return self.board_view(game, t, places=tuple(places), placement_help=session.placement_help)


SCREEN = HalfMoonScreen()
router = game_router(SCREEN)


class TapForm(BaseModel):
    """``POST /half-moon/{code}/tap``: the card the player saw at a place."""

    model_config = ConfigDict(extra="forbid")
    place: str = Field(max_length=16)
    card: str = Field(max_length=8)
    token: str = Field(max_length=64)

    @field_validator("place")
    @classmethod
    def _place(cls, value: str) -> str:
        return place_name(parse_place(value))

    @field_validator("card")
    @classmethod
    def _card(cls, value: str) -> str:
        return str(Card.parse(value))


def _tap(form: TapForm) -> Action:
    def action(game: AnyGame, session: SessionData, now: int) -> Said:
        assert isinstance(game, HalfMoon)
        card = Card.parse(form.card)
        if game.position.top(parse_place(form.place)) != card:
            return Said(STALE, "stale")
        return said_for(game.tap(form.place, card, now), card, session)

    return action


def said_for(result: ActionResult[Removal], card: Card, session: SessionData) -> Said:
    """The announcement of one tap; a refusal explains itself only with *Move errors* on."""
    outcome = result.outcome
    if outcome is Outcome.REMOVED:
        assert result.move is not None
        points = result.move.points
        return Said(
            lambda t: (
                t.gettext(N_("Removed %(cards)s: %(points)s points."))
                % {"cards": cards_text(result.cards, t), "points": points}
            ),
        )
    if outcome is Outcome.REFUSED:
        assert result.refusal is not None
        return refused(result.refusal, session, CLEARED, "cleared")
    messages = {
        Outcome.SELECTED: N_("%(card)s selected."),
        Outcome.DESELECTED: N_("%(card)s no longer selected."),
        Outcome.REPLACED: N_("%(card)s selected instead."),
    }
    message = messages[outcome]
    return Said(lambda t: t.gettext(message) % {"card": card_name(card, t)})


@router.post("/{code}/tap", dependencies=[SameOrigin])
async def tap(
    code: str,
    form: Annotated[TapForm, Form()],
    request: Request,
    renderer: RendererDep,
    store: StoreDep,
    player: PlayerDep,
) -> Response:
    return await act(request, renderer, store, player, SCREEN, code, form.token, _tap(form))
