"""Plain data the pages show around the board, and the info bar and live region's markup.

The info bar and the live region are in every answer to an action, so they are built by
functions (a template render of the two took about 0.1 ms; these take a few µs) that the
page templates call too: one source of markup. The board's places are in ``board.py`` and
the game modules.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from html import escape
from typing import Final, NamedTuple

from app.i18n import N_, translations
from app.web.board import QUEUE, TOKEN


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


def clock_text(ms: int) -> str:
    """``m:ss``, or ``h:mm:ss`` past an hour.

    >>> clock_text(0), clock_text(65_999), clock_text(3_725_000)
    ('0:00', '1:05', '1:02:05')
    """
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


ICONS: Final = {
    "undo": "M9 14 4 9l5-5M4 9h10.5a5.5 5.5 0 0 1 0 11H11",
    "redo": "m15 14 5-5-5-5M20 9H9.5a5.5 5.5 0 0 0 0 11H13",
    "restart": "M3 12a9 9 0 1 0 2.6-6.4L3 8M3 3v5h5",
    "new": "M6 3h12a1 1 0 0 1 1 1v16a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1zM12 8v8M8 12h8",
    "rules": "M4 19V5a2 2 0 0 1 2-2h14v14H6a2 2 0 0 0-2 2zm0 0a2 2 0 0 0 2 2h14v-4",
    "copy": "M9 9h11v11H9zM5 15H4V4h11v1",
}
"""The info bar's icons (24 × 24, drawn with the text colour): the controls show them on narrow
screens instead of their words, which stay in the button for screen readers (and show beside
the icon where there is room, static/css/app.css); the tooltip says them too."""


def icon(name: str) -> str:
    """An icon the screen reader skips: its button is named by its words."""
    return (
        '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">'
        f'<path d="{ICONS[name]}"/></svg>'
    )


def labelled(name: str, label: str) -> str:
    """A control's content: its icon, then its words (hidden on narrow screens)."""
    return f'{icon(name)}<span class="control-text">{escape(label)}</span>'


class InfoParts(NamedTuple):
    """The info bar's markup around what an action changes, in order: each part ends where a
    changing piece goes (the clock, the score, the moves, Undo, Redo, Restart)."""

    before_time: str
    before_score: str
    before_moves: str
    before_undo: str
    """From the moves to Undo: the deal link and the copy button, the controls' start."""
    before_redo: str
    before_restart: str
    after_restart: str
    """New game, Rules and the keyboard shortcuts: the end of the bar."""
    zen_moves: str
    """In *Zen* (issue 27), the bar's numbers start here: the moves alone."""


@functools.lru_cache(maxsize=1024)
def _info_parts(
    lang: str, slug: str, code: str, url: str, new_game_url: str, shortcuts: str
) -> InfoParts:
    """The info bar around what changes (time, score, moves, Undo and Redo): cached per
    language and deal; the token stays a placeholder."""
    t = translations(lang)
    href = escape(url)
    # texts looked up outside the f-strings: the catalog extractor does not read inside them
    time_text, score_text = t.gettext(N_("Time")), t.gettext(N_("Score"))
    moves_text, deal_text = t.gettext(N_("Moves")), t.gettext(N_("Deal"))
    copied, copy = t.gettext(N_("Link copied.")), t.gettext(N_("Copy link"))
    new_game = t.gettext(N_("New game"))
    rules = t.gettext(N_("Rules"))
    shortcuts_title = t.gettext(N_("Help"))  # partials/game_help.html: touch or keys
    forms = [
        f'<form method="post" action="/{slug}/{code}/{verb}" hx-post="/{slug}/{code}/{verb}"'
        f' hx-swap="none" hx-sync="{QUEUE}"><input type="hidden" name="token" value="{TOKEN}">'
        for verb in ("undo", "redo", "restart")
    ]
    return InfoParts(
        f'<dl class="stats" id="stats"><div><dt>{escape(time_text)}</dt><dd>',
        f'</dd></div><div><dt>{escape(score_text)}</dt><dd id="score">',
        f'</dd></div><div><dt>{escape(moves_text)}</dt><dd id="moves">',
        f'</dd></div><div class="deal"><dt>{escape(deal_text)}</dt><dd>'
        f'<a id="deal-link" href="{href}">{code}</a> <button type="button" class="copy"'
        f' data-copy="{href}" data-copied="{escape(copied)}" title="{escape(copy)}" hidden>'
        f"{labelled('copy', copy)}</button>"
        f'</dd></div></dl><div class="controls">{forms[0]}',
        f"</form>{forms[1]}",
        f"</form>{forms[2]}",
        f'</form><a class="button" id="control-new" href="{escape(new_game_url)}"'
        f' title="{escape(new_game)}">{labelled("new", new_game)}</a>'
        f'<a class="button" id="control-rules" href="/rules/{slug}" title="{escape(rules)}">'
        f"{labelled('rules', rules)}</a>"
        f'<details class="shortcuts-help"><summary title="{escape(shortcuts_title)}">'
        '<span aria-hidden="true">?</span>'
        f'<span class="visually-hidden">{escape(shortcuts_title)}</span></summary>'
        f"{shortcuts}</details></div>",
        f'<dl class="stats" id="stats"><div><dt>{escape(moves_text)}</dt><dd id="moves">',
    )


@functools.lru_cache(maxsize=64)
def _control(lang: str, verb: str, enabled: bool) -> str:
    """Undo, Redo or Restart, enabled or not: the controls whose state an action changes."""
    t = translations(lang)
    labels = {
        "undo": t.gettext(N_("Undo")),
        "redo": t.gettext(N_("Redo")),
        "restart": t.gettext(N_("Restart")),
    }
    label = labels[verb]
    return (
        f'<button id="control-{verb}" title="{escape(label)}"{"" if enabled else " disabled"}>'
        f"{labelled(verb, label)}</button>"
    )


def _stats(lang: str, info: InfoView, parts: InfoParts) -> str:
    """The numbers of the bar; in *Zen* only the moves (:attr:`InfoParts.zen_moves` opens the
    list at them)."""
    if info.zen:
        return f"{parts.zen_moves}{info.moves}"
    running = "true" if info.running else "false"
    return (
        f'{parts.before_time}<time id="clock" data-elapsed="{info.elapsed_ms}"'
        f' data-running="{running}" data-away-left="{info.away_left_ms}">'
        f"{clock_text(info.elapsed_ms)}</time>{parts.before_score}{info.score}"
        f"{parts.before_moves}{info.moves}"
    )


def info_html(lang: str, screen: ScreenView, info: InfoView, shortcuts: str) -> str:
    """The info bar of both games: time, score, moves, deal code; Undo, Redo, Restart, New
    game, the keyboard shortcuts (``shortcuts``: their list, rendered once per language). The
    token is still a placeholder (``board.fill``)."""
    parts = _info_parts(lang, screen.slug, info.code, info.url, screen.new_game_url, shortcuts)
    undo, redo = _control(lang, "undo", info.can_undo), _control(lang, "redo", info.can_redo)
    restart = _control(lang, "restart", info.can_restart)
    stats = _stats(lang, info, parts)
    return (
        f'<div id="info" class="info">{stats}{parts.before_undo}{undo}{parts.before_redo}{redo}'
        f"{parts.before_restart}{restart}{parts.after_restart}</div>"
    )


def info_changes(lang: str, screen: ScreenView, info: InfoView) -> str:
    """What an action changes in the info bar, out of band by id: the numbers (``#stats``,
    the deal link included), Undo, Redo and Restart. The rest of the bar never changes on a page."""
    parts = _info_parts(lang, screen.slug, info.code, info.url, screen.new_game_url, "")
    stats = oob(_stats(lang, info, parts))
    return (
        f"{stats}{parts.before_undo.partition('</dl>')[0]}</dl>"
        f"{oob(_control(lang, 'undo', info.can_undo))}"
        f"{oob(_control(lang, 'redo', info.can_redo))}"
        f"{oob(_control(lang, 'restart', info.can_restart))}"
    )


def oob(html: str) -> str:
    """The element ``html`` starts with marked for an out-of-band swap by its id."""
    cut = html.index(" ")
    return f'{html[:cut]} hx-swap-oob="true"{html[cut:]}'


def status_html(
    message: str | None,
    oob: bool,
    spoken: str | None = None,
    sound: str | None = None,
    flight: tuple[str, ...] = (),
) -> str:
    """The live region: outside the swapped board, updated out of band after every action.

    What the board already shows (the end of the game, a question) is ``spoken`` only: in the
    live region for screen readers, never printed twice. ``sound``: what a player with *Sound*
    on hears for this answer (``static/js/sound.js``)."""
    swap = ' hx-swap-oob="true"' if oob else ""
    if sound:
        swap += f' data-sound="{sound}"'
    if flight:
        swap += f' data-flight="{" ".join(flight)}"'
    text = escape(message) if message else ""
    if spoken:
        gap = " " if message else ""
        text += f'<span class="visually-hidden">{gap}{escape(spoken)}</span>'
    return f'<p id="status" class="status" role="status" aria-live="polite"{swap}>{text}</p>'
