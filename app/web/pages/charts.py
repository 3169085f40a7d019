"""The charts of ``/stats``, inline SVG (``templates/partials/chart_svg.html``), each with its
numbers in a table. One chart
per game (issue 22: a Half Moon time and a Seahaven time on one axis mean nothing), each with
its axes named: what the bars or the line measure, and what they run along."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from babel.support import NullTranslations
from markupsafe import Markup

from app.engine.games import GAMES
from app.i18n import N_
from app.web.players.figures import slug_of
from app.web.rendering.board_markup import macro
from app.web.rendering.infobar import clock_text

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


@dataclass(frozen=True, slots=True)
class Frame:
    """What a chart's SVG frame says: its id and title, and what its axes measure."""

    ident: str
    title: str
    y_name: str
    """The measure, up the left side."""
    x_name: str
    """The run, under the bottom axis."""
    width: int = WIDTH
    height: int = HEIGHT
    view: str = VIEW


CHART: Final = "partials/chart_svg.html"


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
    game = t.gettext(GAMES[slug].title)
    title = t.gettext(N_("%(game)s: win rate over your last games")) % {"game": game}
    ident = f"chart-rate-{slug}"
    frame = Frame(
        ident, title, t.gettext(N_("Win rate")), t.gettext(N_("Your last games, oldest first"))
    )
    svg = macro(CHART, "rate")(frame, points)
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
    bars = [
        (
            round(i * slot + (slot - bar) / 2, 1),
            round(HEIGHT - ms * HEIGHT / top, 1),
            round(bar, 1),
            round(ms * HEIGHT / top, 1),
        )
        for i, ms in enumerate(times)
    ]
    game = t.gettext(GAMES[slug].title)
    title = t.gettext(N_("%(game)s: time of your last wins")) % {"game": game}
    ident = f"chart-time-{slug}"
    frame = Frame(
        ident, title, t.gettext(N_("Time")), t.gettext(N_("Your last wins, oldest first"))
    )
    svg = macro(CHART, "times")(frame, clock_text(top), bars)
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
