"""The board as values: what crosses from a game's screen to the markup (:class:`Place`,
:class:`Ending`, :class:`BoardFacts` …), frozen and hashable, with no language and no token.

The markup is drawn from these values by the macros of ``templates/board/`` and each game's
``templates/games/<slug>/board.html`` (:mod:`app.web.rendering.board_markup`), cached by
value. A place's markup is a pure function of its :class:`Place`, the language and the mode:
:data:`INTERACTIVE` (every card a form button, as on the game pages) or :data:`STATIC` (no
forms, no buttons: diagrams on rules pages). Two things differ per player and per deal, the
form token and the deal code; cached markup holds the placeholders :data:`TOKEN` and
:data:`CODE`, which :func:`fill` replaces once per answer, not once per place.

Both the page and the partial htmx answers draw with the same macros, so a partial answer
applied to the page gives exactly the board a full render gives.
"""

from __future__ import annotations

import dataclasses
import functools
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from html import escape
from typing import Final

from app.engine.cards import SUITS, Card
from app.status import Status
from app.store.life import deal_of

TOKEN: Final = "\x00token\x00"
"""Stands for the player's form token in cached markup."""
CODE: Final = "\x00code\x00"
"""Stands for the deal code in cached markup."""

INTERACTIVE: Final = True
STATIC: Final = False

BOARD_VERSION_HEADER: Final = "X-Board-Version"
KEPT_HEADER: Final = "X-Kept"
"""Sent as ``1`` with an action the page kept while offline (issue 32): it is made only on the
board its ``X-Board-Version`` names, else refused (the answer carries ``X-Kept: refused``)."""
"""Sent by the page with every htmx action (from ``#board``'s inherited ``hx-headers``): which
board the page shows, so an answer to a page that is not the server's previous board (another
tab moved on) is the whole board rather than the changed places."""

QUEUE: Final = "#main:queue all"
"""Every game form's ``hx-sync``: one queue per page, on ``<main>`` (never swapped), so a page's
actions reach the server one after another in click order. Written on each form, not inherited:
a form replaced by an earlier answer has no parents when its queued request leaves."""


def fill(html: str, token: str, code: str) -> str:
    """Put the token and the game's key — its deal code, or a practice's ``CODE/practice``
    (issue 43: its actions' URLs) — into cached markup (once per answer). The board's
    ``data-code`` stays the deal's code (the page's rules deal it); a practice's board says
    ``data-practice`` (the page's kept actions go to its URLs)."""
    deal, practice = deal_of(code)
    if practice:
        html = html.replace(f'data-code="{CODE}"', f'data-code="{deal}" data-practice="1"')
    return html.replace(TOKEN, escape(token)).replace(CODE, code)


Records = tuple[tuple[str, int | str], ...]
"""The personal bests and streaks a game set, each key with the figure its sentence names
(``("best_time", 309000)``; a first win names its statistics kind, ``("first_win", "SH-C1")``:
the first win at that game and level, issue 43)."""


@dataclass(frozen=True, slots=True)
class DealFigures:
    """How a deal went for everyone who finished it."""

    players: int
    wins: int
    best_ms: int
    fewest: int
    aside: bool = False
    """The figures do not hold this game: they take each player's first result of a deal,
    and only wins within human reach while the client may rank (issue 34)."""


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a finished game stands among its deal's wins (issue 26)."""

    state: Status
    """Won, or lost (stuck)."""
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
    it (:func:`app.web.rendering.ending.ending_box_html`)."""

    state: Status
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
    practice: int | None = None
    """A practice game's first move *k* (issue 43: the box says it counts nowhere, and its
    Play again starts again from move *k*); ``None``: the player's own game."""
    other_link: str = ""
    """The New game dialog (issue 45: *New game* deals in one tap; this small link beside it
    changes the level or takes a code); empty: not offered."""


@dataclass(frozen=True, slots=True)
class Place:
    """One place of a board as a player sees it: plain hashable data, no language. A game's
    screen lists its board's places (:meth:`app.web.rendering.screen.Screen.places`); its markup is
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


def selected_from(place: Place, depth: int | None) -> Place:
    """``place`` selected (a diagram: ringed) from ``depth`` of its cards (``None``: not): as
    ``dataclasses.replace`` makes it, through :func:`place_of` (a replay draws every place
    of a board on every step; ``replace`` cost several times as much)."""
    if depth == place.selected_from:
        return place
    return place_of(
        place.kind,
        place.number,
        place.count,
        place.cards,
        depth,
        place.movable_from,
        place.dimmed,
        place.destination,
        place.targets,
    )


@dataclass(frozen=True, slots=True)
class BoardFacts:
    """Everything the board shows, as plain hashable data (no language, no token): two boards
    of the same deal differ exactly where these differ."""

    state: Status
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
    history: tuple[str, str, int] | None = field(default=None, repr=False, compare=False)
    """The game's history (:meth:`app.engine.game.Game.history_text`) for the page's copy of
    the rules; not part of what a board version digests (the board shown is its places)."""


def value_text(value: object) -> str:
    """A board value as its ``repr``, but a state as its string: the text a board version
    digests, the same whether a state is a :class:`Status` member or the string it stands for
    (so a page drawn before the states were typed still matches)."""
    if isinstance(value, Status):
        return repr(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        shown = [f for f in dataclasses.fields(value) if f.repr]
        inner = ", ".join(f"{f.name}={value_text(getattr(value, f.name))}" for f in shown)
        return f"{type(value).__name__}({inner})"
    if isinstance(value, tuple):
        inner = ", ".join(value_text(item) for item in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    return repr(value)


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
