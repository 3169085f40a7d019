"""The charts of ``/stats``, inline SVG drawn here, each with its numbers in a table. One chart
per game (issue 22: a Half Moon time and a Seahaven time on one axis mean nothing), each with
its axes named: what the bars or the line measure, and what they run along."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from babel.support import NullTranslations
from markupsafe import Markup, escape

from app.engine.games import GAMES
from app.i18n import N_
from app.web.statistics import slug_of
from app.web.views import clock_text

WIDTH: Final = 320
HEIGHT: Final = 120
VIEW: Final = f"-58 -10 {WIDTH + 66} {HEIGHT + 40}"
"""Room left of the axis for the ticks and the measure's name, under it for the run's."""


@dataclass(frozen=True, slots=True)
class Chart:
    ident: str
    title: str
    svg: Markup
    headers: tuple[str, str]
    rows: list[tuple[str, str]]


def _opening(ident: str, title: str) -> str:
    """A chart's ``<svg>`` opening tag and its title, which names it for screen readers."""
    return (
        f'<svg class="chart" viewBox="{VIEW}" role="img"'
        f' aria-labelledby="{ident}-title" focusable="false">'
        f'<title id="{ident}-title">{escape(title)}</title>'
    )


def _axes(y_name: str, x_name: str) -> str:
    """The axes' names: the measure up the left side, the run under the bottom axis."""
    return (
        f'<text class="axis-name" x="{-50}" y="{HEIGHT / 2}" text-anchor="middle"'
        f' transform="rotate(-90 -50 {HEIGHT / 2})">{escape(y_name)}</text>'
        f'<text class="axis-name" x="{WIDTH / 2}" y="{HEIGHT + 24}" text-anchor="middle">'
        f"{escape(x_name)}</text>"
    )


def _of_game(doc: dict[str, Any], slug: str, results: tuple[str, ...]) -> list[dict[str, Any]]:
    """The last games of one game with one of ``results``, oldest first."""
    return [
        e
        for e in reversed(doc["recent"])
        if e.get("r") in results and isinstance(e.get("code"), str) and slug_of(e["code"]) == slug
    ]


def win_rate_chart(doc: dict[str, Any], t: NullTranslations, slug: str) -> Chart | None:
    """The win rate of one game after each of its last finished games (oldest first), as a
    line."""
    done = _of_game(doc, slug, ("won", "lost", "abandoned"))
    if not done:
        return None
    rates: list[tuple[str, int]] = []
    wins = 0
    for i, entry in enumerate(done, 1):
        wins += entry.get("r") == "won"
        rates.append((str(entry.get("code")), round(100 * wins / i)))
    n = len(rates)
    step = WIDTH / max(1, n - 1) if n > 1 else 0
    points = [
        (round(i * step if n > 1 else WIDTH / 2, 1), round(HEIGHT - rate * HEIGHT / 100, 1))
        for i, (_, rate) in enumerate(rates)
    ]
    path = " ".join(f"{x},{y}" for x, y in points)
    dots = "".join(f'<circle cx="{x}" cy="{y}" r="3"/>' for x, y in points)
    game = t.gettext(GAMES[slug].title)
    title = t.gettext(N_("%(game)s: win rate over your last games")) % {"game": game}
    ident = f"chart-rate-{slug}"
    svg = Markup(
        _opening(ident, title)
        + f'<line class="axis" x1="0" y1="{HEIGHT}" x2="{WIDTH}" y2="{HEIGHT}"/>'
        f'<line class="grid" x1="0" y1="{HEIGHT / 2}" x2="{WIDTH}" y2="{HEIGHT / 2}"/>'
        f'<line class="grid" x1="0" y1="0" x2="{WIDTH}" y2="0"/>'
        f'<text class="tick" x="-6" y="4" text-anchor="end">100 %</text>'
        f'<text class="tick" x="-6" y="{HEIGHT / 2 + 4}" text-anchor="end">50 %</text>'
        f'<text class="tick" x="-6" y="{HEIGHT + 4}" text-anchor="end">0 %</text>'
        + _axes(t.gettext(N_("Win rate")), t.gettext(N_("Your last games, oldest first")))
        + f'<polyline points="{path}"/>{dots}</svg>'
    )
    rows = [(f"{i}. {code}", f"{rate} %") for i, (code, rate) in enumerate(rates, 1)]
    return Chart(ident, title, svg, (t.gettext(N_("Game")), t.gettext(N_("Win rate"))), rows)


def win_time_chart(doc: dict[str, Any], t: NullTranslations, slug: str) -> Chart | None:
    """The time of each of one game's last won games (oldest first), as bars spread over the
    width (each in its own slot, never squeezed into a corner)."""
    won = _of_game(doc, slug, ("won",))
    if not won:
        return None
    times = [int(e.get("ms") or 0) for e in won]
    top = max(times) or 1
    slot = WIDTH / len(won)
    bar = min(32.0, slot * 0.7)
    bars = "".join(
        f'<rect x="{round(i * slot + (slot - bar) / 2, 1)}"'
        f' y="{round(HEIGHT - ms * HEIGHT / top, 1)}"'
        f' width="{round(bar, 1)}" height="{round(ms * HEIGHT / top, 1)}"/>'
        for i, ms in enumerate(times)
    )
    game = t.gettext(GAMES[slug].title)
    title = t.gettext(N_("%(game)s: time of your last wins")) % {"game": game}
    ident = f"chart-time-{slug}"
    svg = Markup(
        _opening(ident, title) + f'<line class="grid" x1="0" y1="0" x2="{WIDTH}" y2="0"/>'
        f'<text class="tick" x="-6" y="4" text-anchor="end">{clock_text(top)}</text>'
        f'<text class="tick" x="-6" y="{HEIGHT + 4}" text-anchor="end">0:00</text>'
        + _axes(t.gettext(N_("Time")), t.gettext(N_("Your last wins, oldest first")))
        + f'<line class="axis" x1="0" y1="{HEIGHT}" x2="{WIDTH}" y2="{HEIGHT}"/>{bars}</svg>'
    )
    rows = [
        (f"{i}. {e.get('code')}", clock_text(ms))
        for i, (e, ms) in enumerate(zip(won, times, strict=True), 1)
    ]
    return Chart(ident, title, svg, (t.gettext(N_("Game")), t.gettext(N_("Time"))), rows)


def charts(doc: dict[str, Any], t: NullTranslations) -> list[Chart]:
    """Every game's charts, game by game: its win rate, then the time of its wins."""
    found = []
    for slug in GAMES:
        found += [c for c in (win_rate_chart(doc, t, slug), win_time_chart(doc, t, slug)) if c]
    return found
