"""The Jinja environment the board's markup is drawn in: the places, the board's element, the
end box, the info bar and the live region, as macros of ``templates/board/`` and of each
game's ``templates/games/<slug>/board.html``, called with the board's values
(:mod:`app.web.rendering.board_values`) and the texts already in the player's language.

Those templates are *joined*: a line break and the indentation after it are left out of the
output (:class:`JoinedLines`), so a macro reads as nested markup and gives the one-line
markup the pages and the htmx answers have always sent (``tests/web/test_markup_unchanged.py``
holds them byte for byte). The callers cache what they draw by value: a place's markup by its
:class:`~app.web.rendering.board_values.Place`, an end box by its
:class:`~app.web.rendering.board_values.Ending`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Final

import jinja2
from jinja2.ext import Extension
from markupsafe import Markup

from app.engine.cards import SUIT_SYMBOLS, Card
from app.status import Status
from app.web.rendering.board_values import BOARD_VERSION_HEADER, CODE, QUEUE, TOKEN, BoardFacts

TEMPLATES_DIR: Final = Path(__file__).resolve().parents[3] / "templates"

_JOINED_MARK: Final = "{# joined"
_LINE_BREAK: Final = re.compile(r"\n[ \t]*")


class JoinedLines(Extension):
    """Templates that start with ``{# joined`` lose their line breaks and the indentation
    after them before Jinja reads them (a space the output needs is written inside a line)."""

    def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
        if source.startswith(_JOINED_MARK):
            return _LINE_BREAK.sub("", source)
        return source


def colour(card: Card) -> str:
    return "red" if card.suit in "HD" else "black"


ICONS: Final = {
    "undo": "M9 14 4 9l5-5M4 9h10.5a5.5 5.5 0 0 1 0 11H11",
    "redo": "m15 14 5-5-5-5M20 9H9.5a5.5 5.5 0 0 0 0 11H13",
    "restart": "M3 12a9 9 0 1 0 2.6-6.4L3 8M3 3v5h5",
    "new": "M6 3h12a1 1 0 0 1 1 1v16a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1zM12 8v8M8 12h8",
    "rules": "M4 19V5a2 2 0 0 1 2-2h14v14H6a2 2 0 0 0-2 2zm0 0a2 2 0 0 0 2 2h14v-4",
    "copy": "M9 9h11v11H9zM5 15H4V4h11v1",
    "look": "M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12zm10 3a3 3 0 1 0 0-6 3 3 0 0 0 0 6z",
}
"""The info bar's icons (24 × 24, drawn with the text colour): the controls show them on narrow
screens instead of their words, which stay in the button for screen readers (and show beside
the icon where there is room, static/css/app.css); the tooltip says them too."""


ENV: Final = jinja2.Environment(
    loader=jinja2.FileSystemLoader(TEMPLATES_DIR),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    extensions=[JoinedLines],
    auto_reload=False,  # templates ship with the code: no stat() per render
)
ENV.globals.update(
    TOKEN=Markup(TOKEN),
    CODE=Markup(CODE),
    QUEUE=QUEUE,
    BOARD_VERSION_HEADER=BOARD_VERSION_HEADER,
    SUIT_SYMBOLS=SUIT_SYMBOLS,
    ICONS=ICONS,
    colour=colour,
)


@functools.cache
def macro(template: str, name: str) -> Callable[..., Markup]:
    """A macro of a template of the board (the template read once)."""
    found: Callable[..., Markup] = getattr(ENV.get_template(template).module, name)
    return found


def words(**texts: str | Any) -> SimpleNamespace:
    """Texts a macro reads by name (``x.spoken``): a namespace, not a dict — Jinja looks an
    attribute up first, and a dict's miss would raise and be caught on every read."""
    return SimpleNamespace(**texts)


def draw(template: str, name: str, *args: Any, **kwargs: Any) -> str:
    """The markup a macro draws, as a plain string."""
    return str(macro(template, name)(*args, **kwargs))


VERSION: Final = "\x00version\x00"
INNER: Final = "\x00inner\x00"
HISTORY: Final = "\x00history\x00"
"""Stand for the board's version and its contents in the cached element (:func:`_board`)."""


def board_html(
    game: str,
    code: str,
    facts: BoardFacts,
    board_version: str | None,
    oob: str | None,
    inner: str = "",
) -> str:
    """``<div id="board" …>``: the board-wide state, and the version the page sends back
    (``None``: a board no action is sent from, a replay's), around ``inner`` (the places and
    the ending slot)."""
    versioned = board_version is not None
    head, tail = _board(
        game, code, facts.state, facts.score, facts.moves, facts.classes, facts.zen, versioned, oob
    )
    if board_version is not None:
        head = head.replace(VERSION, board_version)
        if facts.history is not None:
            # the history the page's rules replay to draw Undo and Redo (record notation:
            # letters, digits, "." and "+", nothing to escape)
            line, redo, floor = facts.history
            head = head.replace(
                HISTORY, f' data-line="{line}" data-redo="{redo}" data-floor="{floor}"', 1
            )
    return head.replace(HISTORY, "", 1) + inner + tail


@functools.lru_cache(maxsize=4096)
def _board(
    game: str,
    code: str,
    state: Status,
    score: int,
    moves: int,
    classes: str,
    zen: bool,
    versioned: bool,
    oob: str | None,
) -> tuple[str, str]:
    """The board's element around its contents, drawn once per state (the version a
    placeholder): the part before the contents and the part after."""
    facts = BoardFacts(state, score, moves, (), None, classes, zen)
    version = VERSION if versioned else None
    history = Markup(HISTORY) if versioned else None
    drawn = draw(
        "board/common.html", "board", game, code, facts, version, oob, Markup(INNER), history
    )
    head, _, tail = drawn.partition(INNER)
    return head, tail
