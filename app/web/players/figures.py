"""Statistics as players read them (issue 16): the ``/stats`` page's figures and charts, the
lines of the end box ("which personal bests and streaks this game set"), and how a deal went
for everyone. The counting itself is :mod:`app.store.counting` (inside the store's
transaction); this module only reads what it wrote.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from babel.support import NullTranslations

from app.engine.codes import DealCode
from app.engine.games import GAMES, VARIANTS, game_by_id, kind_of, kinds
from app.i18n import N_
from app.status import Status
from app.store.counting import figures, normal, records
from app.store.replays import ReplaySummary
from app.web.players.standing import standing_line
from app.web.rendering.board_values import DealFigures, GameResult, Records
from app.web.rendering.infobar import clock_text

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
    number: dict[str, int | str] = {
        "first_win": kind,  # the first win at this game and level (issue 43)
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
    for key, figure in values:
        if key == "first_win":
            name = KIND_NAMES.get(str(figure))
            if name is None:  # a kind no game names any more
                said.append(t.gettext(N_("Your first win at this game!")))
            else:
                first = t.gettext(N_("Your first win at %(game)s!"))
                said.append(first % {"game": t.gettext(name)})
            continue
        n = int(figure)
        if key == "best_time":
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


def deal_figures(data: dict[str, Any] | None, aside: bool = False) -> DealFigures | None:
    """A deal's figures for everyone, ``None`` when nobody finished it; ``aside``: they do
    not hold the player's game (a later game of the deal, or a win not ranked)."""
    if not data or not data.get("players"):
        return None
    return DealFigures(
        players=int(data["players"]),
        wins=int(data.get("wins", 0)),
        best_ms=int(data.get("best_ms", 0)),
        fewest=int(data.get("fewest", 0)),
        aside=aside,
    )


ZEN_HIDDEN: Final = frozenset({"best_time", "best_score"})
"""The records an end box in *Zen* leaves out (issue 27): they name a time or a score."""


@dataclass(frozen=True, slots=True)
class ResultLines:
    """The end box's additions in words (``templates/board/ending.html``'s ``result``)."""

    bests: tuple[str, ...] = ()
    """The bests and streaks this game set."""
    standing: str | None = None
    """Where it stands on its deal (issue 26)."""
    deal: str | None = None
    """How the deal went for everyone who finished it (without its full stop)."""


def result_lines(result: GameResult | None, t: NullTranslations, zen: bool = False) -> ResultLines:
    """The end box's additions (issue 16): the bests and streaks this game set, where it stands
    on its deal (issue 26) and how the deal went for everyone who finished it (after a loss
    without the wins, which the standing line already says: issue 45) — ``result``
    from :func:`app.web.rendering.ending.game_result`. In *Zen* nothing that names a time or a score
    (the statistics still count them)."""
    if not result:
        return ResultLines()
    values, deal, standing = result.records, result.deal, result.standing
    if zen:
        values = tuple((key, n) for key, n in values if key not in ZEN_HIDDEN)
    bests = tuple(record_lines(values, t))
    said = None if standing is None else standing_line(standing, t, zen)
    text = None
    if deal is not None:
        players, wins, best_ms, fewest = deal.players, deal.wins, deal.best_ms, deal.fewest
        if deal.aside:
            text = t.ngettext(
                "This deal for everyone, not counting this game: %(num)s player finished it",
                "This deal for everyone, not counting this game: %(num)s players finished it",
                players,
            ) % {"num": players}
        else:
            text = t.ngettext(
                "This deal for everyone: %(num)s player finished it",
                "This deal for everyone: %(num)s players finished it",
                players,
            ) % {"num": players}
        if standing is None or standing.state == Status.WON:  # a loss's standing says the wins
            text += ", " + t.ngettext("%(num)s won", "%(num)s won", wins) % {"num": wins}
        if best_ms and zen:
            text += "; " + t.gettext(N_("fewest moves %(moves)s")) % {"moves": fewest}
        elif best_ms:
            text += "; " + t.gettext(N_("best time %(time)s, fewest moves %(moves)s")) % {
                "time": clock_text(best_ms),
                "moves": fewest,
            }
    return ResultLines(bests, said, text)


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
class PlayedRow:
    """What a line of ``/stats``'s lists of games and of replays both say of a game."""

    code: str
    url: str
    game: str
    result: str
    state: str
    time: str
    moves: int
    date: str


@dataclass(frozen=True, slots=True)
class GameRow(PlayedRow):
    resumable: bool
    replay: str | None = None
    """The game's replay, while the player keeps it."""
    when: str = ""
    """The moment as ``<time datetime>`` reads it (UTC, ISO 8601), empty for none: the page's
    script shows it in the player's own time zone."""
    label: str = ""
    """``Assisted`` (translated) for a game played with hints (issue 45), else empty."""


ASSISTED: Final = N_("Assisted")


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


def game_rows(
    doc: dict[str, Any],
    t: NullTranslations,
    replays: frozenset[str] = frozenset(),
    going: Mapping[str, int] | None = None,
) -> list[GameRow]:
    """The last games' rows; ``replays``: the player's replays still kept (linked);
    ``going``: the moves of the player's games still being played, by code — a game not
    finished is listed with its row's moves, not the count its first move left in the
    statistics (issue 34)."""
    going = going or {}
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
                going.get(code, int(entry.get("moves") or 0))
                if state not in ("won", "lost")
                else int(entry.get("moves") or 0),
                date_text(at),
                state == "playing",
                f"/replay/{entry['replay']}" if entry.get("replay") in replays else None,
                iso_text(at),
                t.gettext(ASSISTED) if entry.get("a") is True else "",
            )
        )
    return rows


def date_text(ms: int) -> str:
    """A moment as the statistics page writes it (UTC), ``–`` for none."""
    if not ms:
        return "–"
    return datetime.datetime.fromtimestamp(ms / 1000, datetime.UTC).strftime("%Y-%m-%d %H:%M")


def iso_text(ms: int) -> str:
    """A moment for ``<time datetime>`` (UTC, to the minute), empty for none.

    >>> iso_text(1_764_670_980_000), iso_text(0)
    ('2025-12-02T10:23Z', '')
    """
    if not ms:
        return ""
    return datetime.datetime.fromtimestamp(ms / 1000, datetime.UTC).strftime("%Y-%m-%dT%H:%MZ")


@dataclass(frozen=True, slots=True)
class ReplayRow(PlayedRow):
    """A line of ``/stats``'s list of the player's replays."""

    delete: str
    """Where its Delete form posts."""
    when: str = ""
    """As :attr:`GameRow.when`."""


def replay_rows(replays: list[ReplaySummary], t: NullTranslations) -> list[ReplayRow]:
    rows = []
    for replay in replays:
        kind = kind_of_code(replay.code)
        if kind is None:
            continue
        won = replay.state == "won"
        rows.append(
            ReplayRow(
                replay.code,
                f"/replay/{replay.id}",
                t.gettext(KIND_NAMES[kind]),
                t.gettext(RESULT_NAMES["won" if won else "lost"]),
                "won" if won else "lost",
                clock_text(replay.ms),
                replay.moves,
                date_text(replay.ended_ms),
                f"/replay/{replay.id}/delete",
                iso_text(replay.ended_ms),
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
