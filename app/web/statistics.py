"""Statistics as players read them (issue 16): the ``/stats`` page's figures and charts, the
lines of the end box ("which personal bests and streaks this game set"), and how a deal went
for everyone. The counting itself is :mod:`app.store.counting` (inside the store's
transaction); this module only reads what it wrote.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any, Final

from babel.support import NullTranslations
from markupsafe import Markup, escape

from app.engine.codes import DealCode
from app.engine.games import GAMES, VARIANTS, game_by_id, kind_of, kinds
from app.i18n import N_
from app.store.counting import figures, normal, records
from app.web.board import DealFigures, GameResult, Records
from app.web.views import clock_text

KIND_NAMES: Final = {kind: variant.name for kind, (_, variant) in kinds().items()}
"""Each kind's name for players (catalog texts): its game's variant's."""


def kind_of_code(code: str) -> str | None:
    """The statistics kind of a canonical deal code (:func:`app.engine.games.kind_of`),
    ``None`` for any other text (a damaged entry, a code of no game).

    >>> kind_of_code("HM1-N-AAAAAAB"), kind_of_code("SH1-C2-AAAAAJ2"), kind_of_code("HM-1")
    ('HM', 'SH-C2', None)
    """
    try:
        deal = DealCode.parse(code)
        return kind_of(deal) if str(deal) == code else None
    except (ValueError, LookupError):
        return None


RESULT_NAMES: Final = {
    "won": N_("won"),
    "lost": N_("lost"),
    "abandoned": N_("abandoned (counted as lost)"),
    "playing": N_("in play"),
}


def bests_set(
    before: dict[str, Any] | None, after: dict[str, Any], kind: str, won: bool, t: NullTranslations
) -> list[str]:
    """Which personal bests and streaks a game set, given the player's statistics documents
    before and after it was counted — as sentences in the player's language."""
    return lines(records(normal(before), normal(after), kind, won), normal(after), kind, t)


def lines(keys: list[str], doc: dict[str, Any], kind: str, t: NullTranslations) -> list[str]:
    """The sentences of the record keys :func:`app.store.counting.records` found."""
    return record_lines(record_values(keys, doc, kind), t)


def record_values(keys: list[str], doc: dict[str, Any], kind: str) -> Records:
    """Each record key with the figure its sentence names (language-independent, hashable:
    the board's cached ending box depends on it)."""
    counts = figures(doc, kind)
    number = {
        "first_win": 0,
        "best_time": counts["best_ms"],
        "fewest": counts["fewest"],
        "best_score": counts["best_score"],
        "best_streak": counts["best_streak"],
        "streak": counts["streak"],
        "daily_streak": doc["daily"]["streak"],
    }
    return tuple((key, number[key]) for key in keys if key in number)


def record_lines(values: Records, t: NullTranslations) -> list[str]:
    said: list[str] = []
    for key, n in values:
        if key == "first_win":
            said.append(t.gettext(N_("Your first win at this game!")))
        elif key == "best_time":
            said.append(t.gettext(N_("New best time: %(time)s.")) % {"time": clock_text(n)})
        elif key == "fewest":
            said.append(t.gettext(N_("New fewest moves: %(moves)s.")) % {"moves": n})
        elif key == "best_score":
            said.append(t.gettext(N_("New best score: %(score)s.")) % {"score": n})
        elif key == "best_streak":
            said.append(
                t.ngettext(
                    "New best streak: %(num)s win in a row.",
                    "New best streak: %(num)s wins in a row.",
                    n,
                )
                % {"num": n}
            )
        elif key == "streak":
            said.append(
                t.ngettext("%(num)s win in a row.", "%(num)s wins in a row.", n) % {"num": n}
            )
        elif key == "daily_streak":
            said.append(
                t.ngettext("Daily streak: %(num)s day.", "Daily streak: %(num)s days.", n)
                % {"num": n}
            )
    return said


def ended_values(doc: dict[str, Any] | None, code: str, kind: str) -> Records:
    """What the game ``code`` set when it was counted (nothing when the player's last counted
    game is another one)."""
    data = normal(doc)
    if data["set"].get("code") != code:
        return ()
    keys = [k for k in data["set"].get("keys", []) if isinstance(k, str)]
    return record_values(keys, data, kind)


def ended_lines(doc: dict[str, Any] | None, code: str, kind: str, t: NullTranslations) -> list[str]:
    """The end box's lines for the game ``code``."""
    return record_lines(ended_values(doc, code, kind), t)


def deal_figures(data: dict[str, Any] | None) -> DealFigures | None:
    """A deal's figures for everyone, ``None`` when nobody finished it."""
    if not data or not data.get("players"):
        return None
    return DealFigures(
        int(data["players"]),
        int(data.get("wins", 0)),
        int(data.get("best_ms", 0)),
        int(data.get("fewest", 0)),
    )


ZEN_HIDDEN: Final = frozenset({"best_time", "best_score"})
"""The records an end box in *Zen* leaves out (issue 27): they name a time or a score."""


def result_html(result: GameResult | None, t: NullTranslations, zen: bool = False) -> str:
    """The end box's additions (issue 16): the bests and streaks this game set, and how the
    deal went for everyone who finished it — ``result`` from :func:`app.web.ending.game_result`.
    In *Zen* nothing that names a time or a score (the statistics still count them)."""
    if not result:
        return ""
    values, deal = result
    if zen:
        values = tuple((key, n) for key, n in values if key not in ZEN_HIDDEN)
    out = ""
    said = record_lines(values, t)
    if said:
        items = "".join(f"<li>{escape(line)}</li>" for line in said)
        out += f'<ul class="bests" id="bests">{items}</ul>'
    if deal is not None:
        players, wins, best_ms, fewest = deal
        text = t.ngettext(
            "This deal for everyone: %(num)s player finished it",
            "This deal for everyone: %(num)s players finished it",
            players,
        ) % {"num": players}
        text += ", " + t.ngettext("%(num)s won", "%(num)s won", wins) % {"num": wins}
        if best_ms and zen:
            text += "; " + t.gettext(N_("fewest moves %(moves)s")) % {"moves": fewest}
        elif best_ms:
            text += "; " + t.gettext(N_("best time %(time)s, fewest moves %(moves)s")) % {
                "time": clock_text(best_ms),
                "moves": fewest,
            }
        out += f'<div class="deal-figures" id="deal-figures">{escape(text)}.</div>'
    return out


# --- the /stats page ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class KindRow:
    kind: str
    name: str
    played: int
    won: int
    lost: int
    rate: str
    streak: int
    best_streak: int
    best_time: str
    fewest: str
    best_score: str


@dataclass(frozen=True, slots=True)
class GameRow:
    code: str
    url: str
    game: str
    result: str
    state: str
    time: str
    moves: int
    date: str
    resumable: bool


def percent(part: int, whole: int) -> str:
    """``57 %`` (rounded), ``–`` when nothing was played.

    >>> percent(4, 7), percent(0, 0)
    ('57 %', '–')
    """
    return f"{round(100 * part / whole)} %" if whole else "–"


def slug_of(code: str) -> str:
    """The game of a listed code, by its letters (a damaged entry's: the first game's)."""
    letters = code[:2]
    return game_by_id(letters).slug if letters in VARIANTS else next(iter(GAMES))


def kind_rows(doc: dict[str, Any], t: NullTranslations) -> list[KindRow]:
    rows = []
    for kind in KIND_NAMES:
        f = figures(doc, kind)
        decided = f["won"] + f["lost"]
        rows.append(
            KindRow(
                kind,
                t.gettext(KIND_NAMES[kind]),
                f["played"],
                f["won"],
                f["lost"],
                percent(f["won"], decided),
                f["streak"],
                f["best_streak"],
                clock_text(f["best_ms"]) if f["best_ms"] else "–",
                str(f["fewest"]) if f["fewest"] else "–",
                str(f["best_score"]) if f["played"] else "–",
            )
        )
    return rows


def game_rows(doc: dict[str, Any], t: NullTranslations) -> list[GameRow]:
    rows = []
    for entry in doc["recent"]:
        code = entry.get("code")
        if not isinstance(code, str):
            continue
        state = entry.get("r") if entry.get("r") in RESULT_NAMES else "playing"
        ms, at = int(entry.get("ms") or 0), int(entry.get("at") or 0)
        kind = kind_of_code(code) or next(iter(KIND_NAMES))
        rows.append(
            GameRow(
                code,
                f"/{slug_of(code)}/{code}",
                t.gettext(KIND_NAMES.get(kind, next(iter(KIND_NAMES.values())))),
                t.gettext(RESULT_NAMES[str(state)]),
                str(state),
                clock_text(ms) if state in ("won", "lost") else "–",
                int(entry.get("moves") or 0),
                datetime.datetime.fromtimestamp(at / 1000, datetime.UTC).strftime("%Y-%m-%d %H:%M")
                if at
                else "–",
                state == "playing",
            )
        )
    return rows


def daily_streak(doc: dict[str, Any], today: str) -> tuple[int, int]:
    """The current daily streak (0 once a whole UTC day passed without a daily win) and the
    best one."""
    daily = doc["daily"]
    last = daily["last"]
    yesterday = (datetime.date.fromisoformat(today) - datetime.timedelta(days=1)).isoformat()
    current = daily["streak"] if last in (today, yesterday) else 0
    return current, daily["best"]


# --- charts: inline SVG drawn here, each with its numbers in a table ---------------------------

WIDTH: Final = 320
HEIGHT: Final = 120


@dataclass(frozen=True, slots=True)
class Chart:
    ident: str
    title: str
    svg: Markup
    headers: tuple[str, str]
    rows: list[tuple[str, str]]


def win_rate_chart(doc: dict[str, Any], t: NullTranslations) -> Chart | None:
    """The win rate after each of the last finished games (oldest first), as a line."""
    done = [e for e in reversed(doc["recent"]) if e.get("r") in ("won", "lost", "abandoned")]
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
    title = t.gettext(N_("Win rate over your last games"))
    svg = Markup(
        f'<svg class="chart" viewBox="-40 -8 {WIDTH + 48} {HEIGHT + 16}" role="img"'
        f' aria-labelledby="chart-rate-title" focusable="false">'
        f'<title id="chart-rate-title">{escape(title)}</title>'
        f'<line class="axis" x1="0" y1="{HEIGHT}" x2="{WIDTH}" y2="{HEIGHT}"/>'
        f'<line class="grid" x1="0" y1="{HEIGHT / 2}" x2="{WIDTH}" y2="{HEIGHT / 2}"/>'
        f'<line class="grid" x1="0" y1="0" x2="{WIDTH}" y2="0"/>'
        f'<text class="tick" x="-6" y="4" text-anchor="end">100 %</text>'
        f'<text class="tick" x="-6" y="{HEIGHT / 2 + 4}" text-anchor="end">50 %</text>'
        f'<text class="tick" x="-6" y="{HEIGHT + 4}" text-anchor="end">0 %</text>'
        f'<polyline points="{path}"/>{dots}</svg>'
    )
    rows = [(f"{i}. {code}", f"{rate} %") for i, (code, rate) in enumerate(rates, 1)]
    return Chart("chart-rate", title, svg, (t.gettext(N_("Game")), t.gettext(N_("Win rate"))), rows)


def win_time_chart(doc: dict[str, Any], t: NullTranslations) -> Chart | None:
    """The time of each of the last won games (oldest first), as bars."""
    won = [e for e in reversed(doc["recent"]) if e.get("r") == "won"]
    if not won:
        return None
    times = [int(e.get("ms") or 0) for e in won]
    top = max(times) or 1
    gap = 4
    bar = min(32.0, (WIDTH - gap * (len(won) - 1)) / len(won))
    bars = "".join(
        f'<rect x="{round(i * (bar + gap), 1)}" y="{round(HEIGHT - ms * HEIGHT / top, 1)}"'
        f' width="{round(bar, 1)}" height="{round(ms * HEIGHT / top, 1)}"/>'
        for i, ms in enumerate(times)
    )
    title = t.gettext(N_("Time of your last wins"))
    svg = Markup(
        f'<svg class="chart" viewBox="-40 -8 {WIDTH + 48} {HEIGHT + 16}" role="img"'
        f' aria-labelledby="chart-time-title" focusable="false">'
        f'<title id="chart-time-title">{escape(title)}</title>'
        f'<line class="grid" x1="0" y1="0" x2="{WIDTH}" y2="0"/>'
        f'<text class="tick" x="-6" y="4" text-anchor="end">{clock_text(top)}</text>'
        f'<text class="tick" x="-6" y="{HEIGHT + 4}" text-anchor="end">0:00</text>'
        f'<line class="axis" x1="0" y1="{HEIGHT}" x2="{WIDTH}" y2="{HEIGHT}"/>{bars}</svg>'
    )
    rows = [
        (f"{i}. {e.get('code')}", clock_text(ms))
        for i, (e, ms) in enumerate(zip(won, times, strict=True), 1)
    ]
    return Chart("chart-time", title, svg, (t.gettext(N_("Game")), t.gettext(N_("Time"))), rows)
