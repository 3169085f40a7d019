"""Everything a player can get wrong, answered with a clear page (or, for htmx, a notice).

Never a 500 for bad input: every refusal is a :class:`PlayerError` with a status, a title and
a sentence that says what was wrong and what is accepted, in the player's language. With htmx
the answer carries only an out-of-band notice, so the board on screen stays as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Final

from babel.support import NullTranslations

from app.engine.games import format_help
from app.i18n import N_

Text = Callable[[NullTranslations], str]
"""A message translated when the player's language is known."""


def _text(message: str, **values: object) -> Text:
    return lambda t: t.gettext(message) % values if values else t.gettext(message)


HOME_LINK: Final = ("/", N_("Home"))
"""The way on most error pages offer: (URL, label), a catalog text."""
HOME: Final[tuple[str, Text]] = ("/", _text(HOME_LINK[1]))
CARD_HELP = N_("A card is written rank then suit: AS, 10D, JC (suits S, H, D, C).")


@dataclass(slots=True)
class PlayerError(Exception):
    """A request refused for a reason the player (or the client's author) can fix."""

    status: int
    title: Text
    detail: Text
    links: list[tuple[str, Text]] = field(default_factory=list)
    """Ways on: (URL, label)."""
    headers: dict[str, str] = field(default_factory=dict)

    @classmethod
    def fixed(
        cls,
        status: int,
        title: str,
        detail: str,
        *ways: tuple[str, str],
        headers: dict[str, str] | None = None,
        **values: object,
    ) -> PlayerError:
        """A refusal from catalog texts: the title, the detail (``values`` fill it in), the ways
        on (URL, label: :data:`HOME_LINK` when none is given) and the answer's ``headers``."""
        links = [(url, _text(label)) for url, label in ways or (HOME_LINK,)]
        return cls(status, _text(title), _text(detail, **values), links, headers or {})

    @classmethod
    def not_found(cls) -> PlayerError:
        return cls.fixed(404, N_("Page not found"), N_("There is nothing at this address."))

    @classmethod
    def invalid_code(cls, text: str, new_game_url: str) -> PlayerError:
        return cls(
            404,
            _text(N_("No such deal")),
            lambda t: (
                t.gettext(N_("“%(code)s” is not a deal code.")) % {"code": text[:64]}
                + " "
                + format_help(t)
            ),
            [(new_game_url, _text(N_("New game"))), HOME],
        )

    @classmethod
    def bad_input(cls, problems: list[Text]) -> PlayerError:
        return cls(
            422,
            _text(N_("That request was not understood")),
            lambda t: " ".join(problem(t) for problem in problems),
            [HOME],
        )

    @classmethod
    def no_daily_deal(cls, game_title: str) -> PlayerError:
        """``/daily/<slug>`` of a game that deals no daily variant."""
        return cls(
            404,
            _text(N_("No daily deal")),
            lambda t: (
                t.gettext(N_("%(game)s has no daily deal.")) % {"game": t.gettext(game_title)}
            ),
            [HOME],
        )

    @classmethod
    def forbidden_origin(cls) -> PlayerError:
        return cls.fixed(
            403, N_("Move refused"), N_("Moves can only be made from this site’s own pages.")
        )

    @classmethod
    def expired_form(cls, page_url: str) -> PlayerError:
        return cls.fixed(
            403,
            N_("This page has expired"),
            N_(
                "The form was made for another session (perhaps an old tab). "
                "Reload the page and play on."
            ),
            (page_url, N_("Reload")),
        )

    @classmethod
    def method_not_allowed(cls, allowed: str) -> PlayerError:
        detail = N_("This address accepts only %(methods)s.")
        return cls.fixed(
            405, N_("Method not allowed"), detail, headers={"Allow": allowed}, methods=allowed
        )

    @classmethod
    def store_unavailable(cls) -> PlayerError:
        """The store failed (busy past its deadline, or down): nothing was changed."""
        return cls._busy(
            N_("Your move was not made: the game could not be saved just now. Try again.")
        )

    @classmethod
    def store_unreadable(cls) -> PlayerError:
        """The store failed while a page was read (a GET makes no move: nothing to say of
        one)."""
        return cls._busy(N_("The game could not be read just now. Try again."))

    @classmethod
    def _busy(cls, sentence: str) -> PlayerError:
        """503 *Busy for a moment*, to be tried again in a second."""
        return cls.fixed(503, N_("Busy for a moment"), sentence, headers={"Retry-After": "1"})

    @classmethod
    def store_unconfirmed(cls, page_url: str) -> PlayerError:
        """A change was sent, but the store stopped answering before it said whether the
        change was made, and could not be asked in time (``UnconfirmedChangeError``): say
        so, never "not made". Reloading shows the game as the store holds it."""
        return cls.fixed(
            503,
            N_("Move not confirmed"),
            N_(
                "We could not confirm whether your move was made: the game could not be "
                "reached to check. Reload the page to see the game as it is saved."
            ),
            (page_url, N_("Reload")),
            headers={"Retry-After": "1"},
        )

    @classmethod
    def rate_limited(cls, seconds: int, back: str | None = None) -> PlayerError:
        """Too many writes from one address (``429``): nothing was changed. ``back``: the
        page the refused action came from, offered as the way on."""
        seconds = max(1, seconds)
        way_back = [(back, _text(N_("Back to the game")))] if back and back != "/" else []
        return cls(
            429,
            _text(N_("Too many requests")),
            lambda t: (
                t.ngettext(
                    "Too many moves came from your network in a short time, so this one was "
                    "not made. Try again in %(seconds)s second.",
                    "Too many moves came from your network in a short time, so this one was "
                    "not made. Try again in %(seconds)s seconds.",
                    seconds,
                )
                % {"seconds": seconds}
            ),
            [*way_back, HOME],
            {"Retry-After": str(seconds)},
        )

    @classmethod
    def other_game(cls, code: str, game_name: str, game_url: str) -> PlayerError:
        """An action posted to the other game's address (``404``, never a redirect that a
        browser would re-post somewhere it is not allowed)."""
        return cls(
            404,
            _text(N_("Not this game")),
            lambda t: (
                t.gettext(N_("%(code)s is a %(game)s deal: its moves are made on its own page."))
                % {"code": code, "game": t.gettext(game_name)}
            ),
            [(game_url, _text(N_("Open the deal"))), HOME],
        )

    @classmethod
    def game_too_long(cls, limit: int, page_url: str) -> PlayerError:
        """A move past the most a game record keeps (``409``): nothing was changed."""
        return cls.fixed(
            409,
            N_("This game is full"),
            N_(
                "A game keeps at most %(moves)s moves, and this one has them all: "
                "the move was not made. Undo, restart the deal or start a new game."
            ),
            (page_url, N_("Back to the game")),
            HOME_LINK,
            moves=limit,
        )

    @classmethod
    def unknown_link(cls) -> PlayerError:
        """A device link that names nobody: never made, revoked, or mistyped (``404``)."""
        return cls.fixed(
            404,
            N_("This device link does not work"),
            N_(
                "The link is not known here: it was revoked, replaced by a newer link, or"
                " copied incompletely. Ask for a new link on the statistics page of the"
                " browser that has your games."
            ),
            ("/stats", N_("Statistics")),
            HOME_LINK,
        )

    @classmethod
    def not_the_links_owner(cls) -> PlayerError:
        """A browser that uses a device link asked to make or revoke one (``403``): only the
        browser whose games the link carries may; this one may leave."""
        return cls.fixed(
            403,
            N_("Only the browser that made the link can do this"),
            N_(
                "This browser plays through a device link. The browser that made the link can"
                " make a new one or revoke it; this browser can leave: it then starts afresh"
                " and the link's games stay with their owner."
            ),
            ("/stats#device-heading", N_("Statistics")),
        )

    @classmethod
    def too_many_guesses(cls, seconds: int) -> PlayerError:
        """Too many device links that name nobody from one address (``429``)."""
        seconds = max(1, seconds)
        return cls(
            429,
            _text(N_("Too many requests")),
            lambda t: (
                t.ngettext(
                    "Too many unknown device links were tried from your network. Try again"
                    " in %(seconds)s second.",
                    "Too many unknown device links were tried from your network. Try again"
                    " in %(seconds)s seconds.",
                    seconds,
                )
                % {"seconds": seconds}
            ),
            [HOME],
            {"Retry-After": str(seconds)},
        )

    @classmethod
    def too_large(cls, limit: int) -> PlayerError:
        detail = N_("A request may carry at most %(bytes)s bytes.")
        return cls.fixed(413, N_("Request too large"), detail, bytes=limit)


def unknown_field(name: str) -> Text:
    return lambda t: (
        t.gettext(N_("The field “%(field)s” is not accepted here.")) % {"field": name[:40]}
    )


def missing_field(name: str) -> Text:
    return lambda t: t.gettext(N_("The field “%(field)s” is missing.")) % {"field": name[:40]}


def token_or_refuse(form: Mapping[str, object], problems: list[Text]) -> str:
    """A form's ``token`` once every problem found in it is said: a missing token joins
    ``problems``, and any problem refuses the form (422, each said) before anything is kept."""
    token = form.get("token")
    if not isinstance(token, str):
        problems.append(missing_field("token"))
    if problems or not isinstance(token, str):
        raise PlayerError.bad_input(problems)
    return token


def invalid_field(name: str, accepted: str | None) -> Text:
    def say(t: NullTranslations) -> str:
        text = t.gettext(N_("The field “%(field)s” has a value that is not accepted.")) % {
            "field": name[:40]
        }
        return f"{text} {t.gettext(accepted)}" if accepted else text

    return say
