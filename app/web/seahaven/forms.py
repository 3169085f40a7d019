"""Seahaven's action forms: a place on the form's deal, a card, and what each action takes."""

from __future__ import annotations

from typing import Annotated, Final

from pydantic import ConfigDict, Field

from app.engine.codes import DealCode
from app.engine.seahaven import MAX_CELLS, cells_of, parse_place
from app.i18n import N_
from app.web.play.forms import ActionForm, CardField, parsed

PLACE_HELP: Final = N_(
    "A Seahaven place is column-1 … column-10, cell-1 … cell-4 (as many as the deal has) "
    "or foundation-S, foundation-H, foundation-D, foundation-C."
)


def _on_board(text: str, code: DealCode | None) -> int:
    """A place on the form's deal (a cell its variant removed is no place)."""
    return parse_place(text, cells_of(code) if code else MAX_CELLS)


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


class HomeForm(ActionForm):
    """``home``: *Send all home* takes nothing but the form token."""
