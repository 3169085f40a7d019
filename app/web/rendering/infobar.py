"""Plain data the pages show around the board, and the info bar and live region drawn from
it (``templates/board/info.html``).

The info bar and the live region are in every answer to an action: what does not change
within a page (the controls' buttons) is drawn once per value and cached, the numbers and
the live region's sentence per answer. The board's places are drawn by the game modules.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Final

from markupsafe import Markup

from app.i18n import N_, translations
from app.store.life import deal_of
from app.web.rendering.board_markup import draw, words


@dataclass(frozen=True, slots=True)
class ScreenView:
    slug: str
    name: str
    new_game_url: str
    end_actions: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class InfoView:
    """The info bar: time (server's clock, ticking in the browser), score, moves, code."""

    elapsed_ms: int
    running: bool
    away_left_ms: int
    """How much longer the browser's clock may tick without an action (time away stops it)."""
    score: int
    moves: int
    code: str
    url: str
    can_undo: bool
    can_redo: bool
    can_restart: bool = True
    """Whether Restart would change anything (moves made, or moves to redo)."""
    zen: bool = False
    """*Zen* (issue 27): the bar has no clock and no score at all, only the moves."""

    @property
    def deal(self) -> str:
        """The deal's code (:attr:`code` is the game's key: a practice's ends ``/practice``)."""
        return deal_of(self.code)[0]

    @property
    def clock(self) -> str:
        return clock_text(self.elapsed_ms)


def clock_text(ms: int) -> str:
    """``m:ss``, or ``h:mm:ss`` past an hour.

    >>> clock_text(0), clock_text(65_999), clock_text(3_725_000)
    ('0:00', '1:05', '1:02:05')
    """
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


INFO: Final = "board/info.html"


WORDS: Final = {
    "time": N_("Time"),
    "score": N_("Score"),
    "moves": N_("Moves"),
    "deal": N_("Deal"),
    "copied": N_("Link copied."),
    "copy_link": N_("Copy link"),
    "new_game": N_("New game"),
    "rules": N_("Rules"),
    "shortcuts": N_("Help"),  # partials/game_help.html: touch or keys
    "undo": N_("Undo"),
    "redo": N_("Redo"),
    "restart": N_("Restart"),
}
"""The info bar's words (catalog texts)."""


@functools.lru_cache(maxsize=8)
def _texts(lang: str) -> SimpleNamespace:
    """The info bar's words in a language."""
    t = translations(lang)
    return words(**{key: t.gettext(text) for key, text in WORDS.items()})


@functools.lru_cache(maxsize=64)
def _control(lang: str, verb: str, enabled: bool, oob: bool = False) -> str:
    """Undo, Redo or Restart, enabled or not: the controls whose state an action changes."""
    return draw(INFO, "control", verb, getattr(_texts(lang), verb), enabled, oob)


@functools.lru_cache(maxsize=1024)
def _deal(lang: str, code: str, url: str) -> str:
    """The deal's part of the numbers: its code, its link, the button that copies it."""
    return draw(INFO, "deal", _texts(lang), words(code=code, url=url, deal=deal_of(code)[0]))


CONTROLS: Final = ("undo", "redo", "restart")


def _enabled(info: InfoView) -> tuple[bool, bool, bool]:
    return info.can_undo, info.can_redo, info.can_restart


def info_html(lang: str, screen: ScreenView, info: InfoView, shortcuts: str) -> str:
    """The info bar of both games (``templates/board/info.html``): time, score, moves, deal
    code; Undo, Redo, Restart, New game, the keyboard shortcuts (``shortcuts``: their list,
    rendered once per language). The token is still a placeholder (``board.fill``).
    Drawn once per language, screen, deal, mode and controls' state, with :data:`NUMBERS`
    where its numbers go (as :func:`_stats`), filled in here."""
    bar = _bar(lang, screen, info.code, info.url, info.running, info.zen, _enabled(info), shortcuts)
    for mark, value in zip(NUMBERS, _numbers(info), strict=True):
        bar = bar.replace(mark, value, 1)
    return bar


@functools.lru_cache(maxsize=1024)
def _bar(
    lang: str,
    screen: ScreenView,
    code: str,
    url: str,
    running: bool,
    zen: bool,
    enabled: tuple[bool, bool, bool],
    shortcuts: str,
) -> str:
    controls = [
        (verb, Markup(_control(lang, verb, on))) for verb, on in zip(CONTROLS, enabled, strict=True)
    ]
    info = _marked(running, zen, code=code, url=url, deal=deal_of(code)[0])
    return draw(INFO, "bar", _texts(lang), screen, info, controls, Markup(shortcuts))


def info_changes(lang: str, screen: ScreenView, info: InfoView) -> str:
    """What an action changes in the info bar, out of band by id: the numbers (``#stats``,
    the deal link included), Undo, Redo and Restart. The rest of the bar never changes on a page."""
    stats = _stats(lang, info.code, info.url, info.running, info.zen)
    for mark, value in zip(NUMBERS, _numbers(info), strict=True):
        stats = stats.replace(mark, value)
    controls = zip(CONTROLS, _enabled(info), strict=True)
    return stats + "".join(_control(lang, verb, enabled, True) for verb, enabled in controls)


NUMBERS: Final = tuple(f"\x00{name}\x00" for name in ("elapsed", "away", "clock", "score", "moves"))
"""Stand for the info bar's numbers in its cached markup (:func:`_stats`), as ``board.TOKEN``
stands for the token: filled in per answer."""


def _marked(running: bool, zen: bool, **more: Any) -> SimpleNamespace:
    """The info bar's words with :data:`NUMBERS`' marks where its numbers go."""
    elapsed, away, clock, score, moves = (Markup(mark) for mark in NUMBERS)
    numbers = {"elapsed_ms": elapsed, "away_left_ms": away, "clock": clock, "score": score}
    return words(**numbers, moves=moves, running=running, zen=zen, **more)


def _numbers(info: InfoView) -> tuple[str, ...]:
    return (
        str(info.elapsed_ms),
        str(info.away_left_ms),
        info.clock,
        str(info.score),
        str(info.moves),
    )


@functools.lru_cache(maxsize=1024)
def _stats(lang: str, code: str, url: str, running: bool, zen: bool) -> str:
    """``#stats`` out of band (``templates/board/info.html``'s ``stats``), drawn once per
    language, deal and mode with :data:`NUMBERS` where its numbers go."""
    deal = Markup(_deal(lang, code, url))
    numbers = _marked(running, zen)
    return draw(INFO, "stats", _texts(lang), numbers, deal, True)


def oob(html: str) -> str:
    """The element ``html`` starts with marked for an out-of-band swap by its id."""
    cut = html.index(" ")
    return f'{html[:cut]} hx-swap-oob="true"{html[cut:]}'


@functools.lru_cache(maxsize=4096)
def status_html(
    message: str | None,
    oob: bool,
    spoken: str | None = None,
    sound: str | None = None,
    flight: tuple[str, ...] = (),
) -> str:
    """The live region (``templates/board/info.html``): outside the swapped board, updated out
    of band after every action. What the board already shows (the end of the game, a
    question) is ``spoken`` only: in the live region for screen readers, never printed twice.
    ``sound``: what a player with *Sound* on hears for this answer (``static/js/sound.js``).
    Cached by value: a game's sentences repeat."""
    return draw(INFO, "status", message, oob, spoken, sound, flight)
