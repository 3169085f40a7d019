"""The board's HTML, built from plain data by small functions whose results are cached.

A place's markup is a pure function of its facts (cards, count, flags), the language and the
mode: :data:`INTERACTIVE` (every card a form button, as on the game pages) or :data:`STATIC`
(no forms, no buttons: diagrams on rules pages). Two things differ per player and per deal,
the form token and the deal code; cached markup holds the placeholders :data:`TOKEN` and
:data:`CODE`, which :func:`fill` replaces once per answer, not once per place.

Both the page (through its template) and the partial htmx answers use these functions, so a
partial answer applied to the page gives exactly the board a full render gives.
"""

from __future__ import annotations

import functools
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from html import escape
from typing import Final

from app.engine.cards import SUIT_SYMBOLS, SUITS, Card

TOKEN: Final = "\x00token\x00"
"""Stands for the player's form token in cached markup."""
CODE: Final = "\x00code\x00"
"""Stands for the deal code in cached markup."""

INTERACTIVE: Final = True
STATIC: Final = False

BOARD_VERSION_HEADER: Final = "X-Board-Version"
"""Sent by the page with every htmx action (from ``#board``'s inherited ``hx-headers``): which
board the page shows, so an answer to a page that is not the server's previous board (another
tab moved on) is the whole board rather than the changed places."""

QUEUE: Final = "#main:queue all"
"""Every game form's ``hx-sync``: one queue per page, on ``<main>`` (never swapped), so a page's
actions reach the server one after another in click order. Written on each form, not inherited:
a form replaced by an earlier answer has no parents when its queued request leaves."""


def fill(html: str, token: str, code: str) -> str:
    """Put the token and the deal code into cached markup (once per answer)."""
    return html.replace(TOKEN, escape(token)).replace(CODE, code)


def attr(value: str) -> str:
    """Text for a double-quoted attribute value or element content."""
    return escape(value, quote=True)


def label_html(name: str, count: str | None = None, short: str | None = None) -> str:
    """The label under a place: its name ("pile 8") over its count ("7 cards"). Both come as
    data, never cut out of a translated sentence. ``short`` names the place where its name
    does not fit (Seahaven's ten columns on a phone: "3", "♠"), drawn by the stylesheet.

    Hidden from screen readers: every card's name already says it.
    """
    mark = f' data-short="{attr(short)}"' if short else ""
    if count is None:
        inner = f'<span class="label-place">{attr(name)}</span>' if short else attr(name)
    else:
        inner = (
            f'<span class="label-place"><span>{attr(name)}</span>'
            f'<span class="label-comma">, </span></span>'
            f'<span class="label-count">{attr(count)}</span>'
        )
    return f'<span class="label" aria-hidden="true"{mark}>{inner}</span>'


def face_html(card: Card, rank: str) -> str:
    """The printed face: rank and suit symbol (colour is never the only signal)."""
    suit = SUIT_SYMBOLS[card.suit]
    return f'<span class="rank">{attr(rank)}</span><span class="suit">{suit}</span>'


def colour(card: Card) -> str:
    return "red" if card.suit in "HD" else "black"


def hidden(name: str, value: str) -> str:
    return f'<input type="hidden" name="{name}" value="{value}">'


TOKEN_FIELD: Final = hidden("token", TOKEN)


def action_form(slug: str, verb: str, attrs: str, fields: str, inner: str = "") -> str:
    """A game action's form, ``POST /{slug}/{code}/{verb}``: htmx posts it, queued behind
    earlier actions, the browser without JavaScript. ``attrs``: the form's own attributes
    (each with its leading space); ``fields`` go before the token, ``inner`` after it."""
    url = f"/{slug}/{CODE}/{verb}"
    return (
        f'<form{attrs} method="post" action="{url}" hx-post="{url}" hx-swap="none"'
        f' hx-sync="{QUEUE}">{fields}{TOKEN_FIELD}{inner}</form>'
    )


Records = tuple[tuple[str, int], ...]
"""The personal bests and streaks a game set, each key with the figure its sentence names
(``("best_time", 309000)``)."""


@dataclass(frozen=True, slots=True)
class DealFigures:
    """How a deal went for everyone who finished it."""

    players: int
    wins: int
    best_ms: int
    fewest: int


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a finished game stands among its deal's wins (issue 26)."""

    state: str
    """``won`` or ``lost``."""
    ms: int
    moves: int
    share: int
    """The percentage of the other players' wins it beats (a win)."""
    players: int
    """How many they are (a win); how many players won the deal (a loss)."""
    by_moves: bool
    """Wins rank by fewer moves first, then less time (else by time alone)."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """What the statistics add to a finished game's end box (issue 16), and its replay."""

    records: Records
    deal: DealFigures | None
    """``None`` when nobody has finished the deal."""
    standing: Standing | None = None
    """Where it stands on its deal (issue 26); ``None`` while nobody's wins are known."""
    replay: str | None = None
    """The game's replay id (issue 26): the end box links to it."""


@dataclass(frozen=True, slots=True)
class Ending:
    """What the end box (and Restart's question) depends on: hashable, its markup is cached by
    it (:func:`app.web.ending.ending_box_html`)."""

    state: str
    score: int | None
    """``None`` in *Zen* (issue 27): the box names no score and no time."""
    elapsed_ms: int | None
    """The game clock: a won game's time (0 otherwise; ``None`` in *Zen*)."""
    asking: str | None
    """The question the board asks (``restart``)."""
    new_game_link: str
    at_deal: bool
    """The deal ended before any move (no Undo or Restart to suggest)."""
    actions: tuple[str, ...]
    """What the end box offers besides New game (``undo``, ``restart``); ``home`` while a game
    that goes on offers *Send all home*."""
    moves: int
    """A won game's moves (0 otherwise)."""
    result: GameResult | None = None
    """What the statistics add once the game is over."""


@dataclass(frozen=True, slots=True)
class Place:
    """One place of a board as a player sees it: plain hashable data, no language. A game's
    screen lists its board's places (:meth:`app.web.screen.Screen.places`); its markup is
    drawn from this value alone (and cached by it), and a partial answer sends again exactly
    the places whose value changed."""

    kind: str
    """``pile``, ``reserve`` (Half Moon); ``cell``, ``foundation``, ``column`` (Seahaven)."""
    number: int
    """Its number among its kind, from 1 (a foundation's: its suit's, in ``SUITS`` order)."""
    count: int
    """How many cards it holds (a foundation: its height)."""
    cards: tuple[Card, ...] = ()
    """The cards shown, bottom to top: all of a column's, the top card elsewhere (none when
    it is empty)."""
    selected_from: int | None = None
    """The depth in :attr:`cards` from which they are selected (or ringed, on a diagram);
    ``None`` when none is."""
    movable_from: int = 0
    """The depth in :attr:`cards` from which they may move (a column: the run at its top)."""
    dimmed: bool = False
    """*Placement help* (Half Moon): the selection cannot be completed with this card."""
    destination: bool = False
    """*Placement help* (Seahaven): the selection may move here."""
    targets: tuple[str, ...] = ()
    """*Placement help* (Seahaven): for each of :attr:`cards`, where it may go with the cards
    above it (place names, space-separated); empty without the help."""
    _hash: int = field(init=False, repr=False, compare=False)
    """Worked out once: the markup's cache looks a place up on every answer."""

    def __post_init__(self) -> None:
        values = (self.kind, self.number, self.count, self.cards, self.selected_from)
        more = (self.movable_from, self.dimmed, self.destination, self.targets)
        object.__setattr__(self, "_hash", hash((*values, *more)))

    def __hash__(self) -> int:
        return self._hash

    @property
    def name(self) -> str:
        """Its name in forms and ids: ``pile-1``, ``reserve-8``, ``cell-2``, ``foundation-H``."""
        if self.kind == "foundation":
            return f"foundation-{SUITS[self.number - 1]}"
        return f"{self.kind}-{self.number}"

    @property
    def top(self) -> Card | None:
        return self.cards[-1] if self.cards else None

    @property
    def selected(self) -> bool:
        return self.selected_from is not None


place_of: Final = functools.lru_cache(maxsize=16384)(Place)
"""A :class:`Place` made once for its values (all given by position): a board's places change
few at a time, and a frozen dataclass costs some microseconds to make."""


@dataclass(frozen=True, slots=True)
class BoardFacts:
    """Everything the board shows, as plain hashable data (no language, no token): two boards
    of the same deal differ exactly where these differ."""

    state: str
    score: int
    moves: int
    places: tuple[Place, ...]
    """Every place, in board order."""
    ending: Ending | None
    """What the ending box depends on (``None`` while the game goes on and nothing is asked)."""
    classes: str = ""
    """Extra classes on ``#board`` (Half Moon's ``with-help``)."""
    zen: bool = False
    """*Zen* (issue 27): the board says nothing of the score (no ``data-score``)."""


@functools.lru_cache(maxsize=16384)
def _digest(part: str) -> int:
    """A place's markup digest; the cached markup is the same string object on every hit, so
    the lookup costs a hash already kept in the string."""
    return zlib.crc32(part.encode())


def version(parts: Iterable[str], token: str) -> str:
    """A short digest of the board markup a page shows (cached parts, before filling).

    The same in every worker process (crc32, not Python's salted ``hash``): a page's next
    action may reach another worker.
    """
    crc = zlib.crc32(token.encode())
    for part in parts:
        crc = zlib.crc32(_digest(part).to_bytes(4, "little"), crc)
    return f"{crc:08x}"


def board_open(
    game: str, code: str, facts: BoardFacts, board_version: str | None, oob: str | None
) -> str:
    """``<div id="board" …>``: the board-wide state, and the version the page sends back
    (``None``: a board no action is sent from, a replay's)."""
    swap = f' hx-swap-oob="{oob}"' if oob else ""
    classes = f"board {game}{' ' + facts.classes if facts.classes else ''}"
    score = "" if facts.zen else f' data-score="{facts.score}"'
    sent = (
        ""
        if board_version is None
        else f' hx-headers:inherited=\'{{"{BOARD_VERSION_HEADER}":"{board_version}"}}\''
    )
    return (
        f'<div id="board"{swap} class="{classes}" data-game="{game}" data-code="{code}"'
        f' data-state="{facts.state}"{score} data-moves="{facts.moves}"'
        f"{sent}>"
    )


def ending_html(inner: str, state: str | None) -> str:
    """The slot of the ending box and Restart's question, inside the board: always present (a
    ``display: contents`` wrapper, empty while the game goes on) so an answer can swap it by id."""
    return f'<div id="ending" class="ending-slot">{inner}</div>'


def replay_link(replay: tuple[str, str] | None) -> str:
    """The end box's link to the game's replay (issue 26): ``(url, label)``, or nothing."""
    if replay is None:
        return ""
    url, label = replay
    return f'<a class="button" id="ending-replay" href="{attr(url)}">{attr(label)}</a>'


def ending_box(
    slug: str,
    state: str,
    text: str,
    actions: Iterable[tuple[str, str]],
    new_game: tuple[str, str],
    extra: str = "",
    replay: tuple[str, str] | None = None,
) -> str:
    """The end of a game: the message, what it set and how the deal went for everyone
    (``extra``, markup, issue 16), and what the player can do next (``replay``: the link to
    the game's replay, issue 26). The focus goes to the message when the box appears
    (``autofocus``: on a page load, and after an htmx answer through static/js/app.js), so
    the next Tab reaches its buttons."""
    forms = "".join(
        f'<form method="post" action="/{slug}/{CODE}/{verb}" hx-post="/{slug}/{CODE}/{verb}"'
        f' hx-swap="none" hx-sync="{QUEUE}">{TOKEN_FIELD}'
        f"{hidden('confirm', 'yes') if verb == 'restart' else ''}"
        f'<button id="ending-{verb}">{attr(label)}</button></form>'
        for verb, label in actions
    )
    url, label = new_game
    return (
        f'<div class="ending {state}" role="group" aria-labelledby="ending-text">'
        f'<p id="ending-text" tabindex="-1" autofocus>{attr(text)}</p>{extra}'
        '<div class="ending-actions">'
        f"{forms}{replay_link(replay)}"
        f'<a class="button" id="ending-new" href="{attr(url)}">{attr(label)}</a></div></div>'
    )


def home_offer(slug: str, text: str, label: str) -> str:
    """*Send all home* (issue 27), offered while only foundation moves are left: a move the
    player sends (one action, one Undo), never one the game makes by itself."""
    button = f'<button id="control-home">{attr(label)}</button>'
    return (
        f'<div class="send-home" id="send-home"><p>{attr(text)}</p>'
        f"{action_form(slug, 'home', '', '', button)}</div>"
    )


def restart_question(slug: str, question: str, restart: str, keep: str) -> str:
    """Restart asks first when there are moves to lose (issue 13); without JavaScript too."""
    return (
        '<div class="ending asking" id="confirm-restart" role="group"'
        ' aria-labelledby="confirm-restart-text">'
        f'<p id="confirm-restart-text">{attr(question)}</p><div class="ending-actions">'
        f'<form method="post" action="/{slug}/{CODE}/restart" hx-post="/{slug}/{CODE}/restart"'
        f' hx-swap="none" hx-sync="{QUEUE}">{TOKEN_FIELD}{hidden("confirm", "yes")}'
        f'<button id="confirm-restart-yes">{attr(restart)}</button></form>'
        f'<a class="button" id="confirm-restart-no" href="/{slug}/{CODE}" autofocus>'
        f"{attr(keep)}</a></div></div>"
    )


def summary_box(
    title: str,
    figures: Iterable[tuple[str, str, str]],
    extra: str,
    cascade: Iterable[tuple[Card, str]],
    again: tuple[str, str],
    new_game: tuple[str, str],
    replay: tuple[str, str] | None = None,
) -> str:
    """A won game's end box (issue 16): the cascade of the celebration (decoration, hidden
    from screen readers, drawn only while the script celebrates), the heading the focus moves
    to, the figures (``(id, label, value)``), what the statistics add (``extra``, markup: the
    personal bests and streaks the game set, how the deal went for everyone), *Play this deal
    again* (``(slug, label)``: the deal's Restart, confirmed) and *New game* (``(url, label)``)."""
    cards = "".join(
        f'<span class="falling {colour(card)}">{face_html(card, rank)}</span>'
        for card, rank in cascade
    )
    numbers = "".join(
        f'<div><dt>{attr(label)}</dt><dd id="summary-{ident}">{attr(value)}</dd></div>'
        for ident, label, value in figures
    )
    slug, label = again
    url, new_label = new_game
    again_button = f'{hidden("confirm", "yes")}<button id="ending-again">{attr(label)}</button>'
    return (
        f'<div class="cascade" aria-hidden="true">{cards}</div>'
        '<section class="ending won summary" id="summary" aria-labelledby="summary-title">'
        f'<h2 id="summary-title" tabindex="-1" autofocus>{attr(title)}</h2>'
        f'<dl class="figures">{numbers}</dl>{extra}<div class="ending-actions">'
        f"{action_form(slug, 'restart', '', '', again_button)}{replay_link(replay)}"
        f'<a class="button" id="ending-new" href="{attr(url)}">{attr(new_label)}</a>'
        "</div></section>"
    )
