"""Seahaven's actions: tap, double tap (``auto``) and drag (``move``), each the engine's own
action on the form's values, and the sentence each one says (SPEC §3)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from babel.support import NullTranslations
from fastapi import APIRouter

from app.engine.seahaven import COLUMNS, FOUNDATIONS, ActionResult, Move, Outcome, Seahaven
from app.i18n import N_, card_name
from app.store import SessionData
from app.web.play.actions import Action, action_route
from app.web.rendering.notices import STALE, Said, notice, refused
from app.web.rendering.screen import AnyScreen
from app.web.seahaven.forms import AutoForm, HomeForm, MoveForm, PlaceForm
from app.web.seahaven.places import place_text

REFUSED = notice("refused", N_("Not allowed: nothing moved."))
"""A refusal with *Move errors* off: it shows that nothing happened, without the reason."""
NOT_HOME_KEY: Final = "not-home"
NOT_HOME = notice(
    NOT_HOME_KEY,
    N_("Not every card can go home by moves to the foundations now: nothing moved."),
)
"""*Send all home* asked for while other moves than to the foundations are left."""


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


def tap(form: PlaceForm) -> Action:
    """A single tap: to the foundation when allowed, else select / move here."""
    return _played(lambda game, now: game.tap(form.place, form.card, now))


def auto(form: AutoForm) -> Action:
    """A double tap: the documents' destination order, never also a single tap. With
    ``double=1`` the page already sent its first click as a tap: the engine finishes the double
    tap so the game ends as the double tap alone would leave it (docs/decisions.md)."""
    double = Seahaven.finish_double_tap if form.double else Seahaven.auto
    return _played(lambda game, now: double(game, form.place, form.card, now))


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


def move(form: MoveForm) -> Action:
    """A drag and drop: ``card`` (with the run above it) from ``from`` to ``to``."""
    return _played(lambda game, now: game.move(form.source, form.card, form.to, now))


def routes(router: APIRouter, screen: AnyScreen) -> None:
    """Each action's ``POST /seahaven/{code}/{verb}`` on the game's router (the package
    registers them with its screen)."""
    action_route(router, screen, "tap", PlaceForm)(tap)
    action_route(router, screen, "auto", AutoForm)(auto)
    action_route(router, screen, "home", HomeForm)(home)
    action_route(router, screen, "move", MoveForm)(move)
