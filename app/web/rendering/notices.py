"""What an action says: the live region's sentence, the notices a no-JavaScript redirect
carries (``?n=key``, only known keys), and the questions the board may ask."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final
from urllib.parse import quote

from babel.support import NullTranslations

from app.engine.game import Refusal
from app.i18n import N_
from app.services.signing import Signer
from app.store import SessionData
from app.web.edge.errors import Text


@dataclass(frozen=True, slots=True)
class Said:
    """What one action did: what to announce, and what to show after a no-JavaScript redirect.

    Whether to save is not the action's call: the game is written when its record changed.
    """

    message: Text | None = None
    """Announced in the live region (htmx answers)."""
    notice: str | None = None
    """Key of :data:`NOTICES` shown on the page after a no-JavaScript redirect."""
    ask: str | None = None
    """A question the board asks before acting (``restart``): see :data:`QUESTIONS`."""
    sound: str | None = None
    """What a player with *Sound* on hears (issue 27): ``card`` (a removal, a card home) or
    ``refusal``; the win's sound is the answer's call (:func:`app.web.play.actions.act`)."""
    flight: tuple[str, ...] = ()
    """*Send all home*: the cards sent, in the order they go (``static/js/motion.js`` flies
    them home one after another)."""


NOTICES: dict[str, Text] = {}
"""Notices that survive a redirect as ``?n=key``: only known keys, never free text. Which of
them a page shows is its screen's call (:meth:`Screen.notice`): only its own game's keys, and
only what is true of the game on the page."""


def notice(key: str, message: str) -> Text:
    """Register a notice key and return its text."""

    def say(t: NullTranslations) -> str:
        return t.gettext(message)

    NOTICES[key] = say
    return say


STALE = notice(
    "stale",
    N_("That card is no longer there (the game moved on in another tab). Here is the board now."),
)
MOVED_ON = notice(
    "moved-on",
    N_(
        "This game moved on elsewhere while you were offline, so the moves kept on this"
        " page were not made. Here is the game now."
    ),
)
NOTHING_TO_UNDO = notice("no-undo", N_("There is nothing to undo."))
NOTHING_TO_REDO = notice("no-redo", N_("There is nothing to redo."))
UNREADABLE = notice(
    "unreadable", N_("Your saved game for this deal could not be read, so it starts afresh.")
)

QUESTIONS: Final = {
    "restart": N_("Restart this deal from the beginning? Your moves so far are lost.")
}
"""What the board may ask before an action (``?ask=restart`` without JavaScript)."""


def sentence(text: str, lang: str) -> str:
    """A status sentence starts with a capital ("three of hearts selected." reads as a sentence
    too), Turkish dotted i included.

    >>> sentence("üç kupa seçildi.", "tr"), sentence("ikili", "tr"), sentence("вале", "bg")
    ('Üç kupa seçildi.', 'İkili', 'Вале')
    """
    if not text:
        return text
    first = "İ" if lang == "tr" and text[0] == "i" else text[0].upper()
    return first + text[1:]


COMMON_NOTICES: Final = frozenset({"stale", "moved-on", "no-undo", "no-redo", "unreadable"})

EVENTS: Final = frozenset(
    {"stale", "moved-on", "unreadable", "reset", "revoked", "linked", "left", "replay-deleted"}
    | {"cleared", "refused"}
)
"""Notices that tell of something that happened, which the page cannot check by looking at
what it shows: their redirect carries a tag (``&t=``, :func:`notice_tag`) that only this
server makes, for this session, page, notice and board, so a crafted link shows none of them
(issue 23; a deleted replay, and a refusal told without its reason — "Selection cleared.",
"Not allowed: nothing moved." —, issue 34)."""

TAG: Final = "t"


def notice_tag(signer: Signer, sid: str, page: str, key: str, state: object = "") -> str:
    """The tag of an :data:`EVENTS` notice on ``page`` for the session ``sid``; ``state`` is
    what it is true of (a game's move count: one more move and the link says nothing)."""
    return signer.sign("notice", f"{sid}|{page}|{key}|{state}")


def notice_query(signer: Signer, sid: str, page: str, key: str, state: object = "") -> str:
    """``n=key`` (and the tag an event notice needs), for a redirect's query."""
    if key not in EVENTS:
        return f"n={quote(key)}"
    return f"n={quote(key)}&{TAG}={notice_tag(signer, sid, page, key, state)}"


def is_told(signer: Signer, sid: str, page: str, key: str, tag: str, state: object = "") -> bool:
    """Whether ``?n=key`` may be shown: any key that is no event (the page checks it against
    what it shows), an event only with its tag."""
    if key not in EVENTS:
        return True
    return signer.verify(tag, "notice", f"{sid}|{page}|{key}|{state}")


def refused(refusal: Refusal, session: SessionData, quiet: Text, quiet_key: str) -> Said:
    """A refusal explains itself (the engine's sentence, its key in a redirect) only with
    *Move errors* on; off, the game's ``quiet`` notice only says that nothing happened."""
    if session.move_errors:
        return Said(refusal.explain, refusal.key, sound="refusal")
    return Said(quiet, quiet_key, sound="refusal")
