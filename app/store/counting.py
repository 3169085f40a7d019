"""Counting results: the rules that turn a saved game's change into statistics (issue 16).

Every store calls :func:`count` inside the transaction that writes a game, so a result is
written with the game change that caused it, or not at all. Plain data only: what a game
counts as — its *kind* — is named by the web layer (:attr:`StoredGame.kind`).

**The rules** (also on ``/stats`` and in ``docs/decisions.md``):

- A game is *played* from its first move; a deal only opened is not counted.
- It is *won* when the engine says won, *lost* when the engine proves it cannot be won
  (the game's own "stuck" or "no useful move left"), or *abandoned* — counted as lost — when
  the player makes the first move of another deal of the same kind while it is unfinished.
- A deal's result counts once: the first ending (or the abandonment) is the result. Undoing
  after the end, restarting, or finishing an abandoned game later never counts again (the
  game's row carries the mark ``Marks.counted``: ``open`` once played, ``done`` once counted, and
  that mark is what makes a second transition — another tab, a retried tap, another app
  instance — count nothing, because it is read and written in the same transaction). The
  row may go — a session keeps 100 games, and a new one pushes out the oldest — so the
  player's document also keeps the deals counted (``seen``: a 32-bit fingerprint of each of
  the last :data:`SEEN` deals counted as played, 8 KiB at most): a deal played again after
  its row went counts nothing either (issue 23), unless thousands of other deals were
  counted since. A reset of the statistics keeps ``seen``.
- Time is the game clock's time; best time and fewest moves are of won games, best score of
  any counted game.

The document kept per player (JSON, a few kilobytes at most) holds the aggregates per kind
(the kinds the games named: one per game and variant), the open game of each kind, the last
:data:`RECENT` games, the codes of abandoned games still stored (at most :data:`GONE`, as
many as a session keeps games), the daily-deal streak and the fingerprints of the deals
counted (``seen``).
"""

from __future__ import annotations

import datetime
import os
from dataclasses import dataclass
from typing import Any, Final

from app.store.base import ENDED, StoredGame
from app.store.bounds import MAX_GAMES_PER_SESSION
from app.store.fingerprints import (
    rank,
    ranked_text,
    remember,
    seen_text,
    was_counted,
)
from app.store.jsondata import int_or_zero, json_dict
from app.store.life import entry_marks, in_deal_figures, in_records, life_of
from app.store.marks import RESULT_COUNTED, Counted
from app.store.replays import replay_id

RECENT: Final = 20
"""Games listed on ``/stats``."""

GONE: Final = MAX_GAMES_PER_SESSION
"""Abandoned games remembered so that finishing one later counts nothing: as many as a
session keeps games, so an abandoned game still stored is always among them."""


def _floor_ms() -> int:
    """``SOLITAIRE_FLOOR_MS_PER_MOVE`` when it is a whole number, else 200."""
    text = os.environ.get("SOLITAIRE_FLOOR_MS_PER_MOVE", "").strip()
    return int(text) if text.isdigit() else 200


FLOOR_MS_PER_MOVE: Final = _floor_ms()
"""The least time a human takes per move (``docs/decisions.md``, *Standings that are
earned*): a win faster than its moves × this is not ranked (issue 34). 200 ms unless
``SOLITAIRE_FLOOR_MS_PER_MOVE`` says otherwise (the browser tests' server sets 0: its scripted
players win a deal in a second)."""


@dataclass(frozen=True, slots=True)
class DealResult:
    """One player's result on a deal, folded into the deal's figures for everyone."""

    won: bool
    ms: int
    moves: int


def wants(new: StoredGame) -> bool:
    """Whether writing ``new`` (already :func:`~app.store.base.carry`-ed) changes statistics,
    so the store must read (and, for Redis, watch) the player's document and the deal's
    figures."""
    if new.moves <= 0 or new.kind is None:
        return False
    mark = new.marks.counted
    return mark in ("", "new") or (mark not in RESULT_COUNTED and new.state in ENDED)


def is_plausible(ms: int, moves: int) -> bool:
    """Whether a win of ``moves`` moves in ``ms`` on the game clock is within human reach
    (:data:`FLOOR_MS_PER_MOVE`); only such a win enters its deal's standings: a Half Moon
    deal's 48 moves take at least 9.6 s (the issue's scripts won in 2 s)."""
    return ms >= moves * FLOOR_MS_PER_MOVE


def clock_ms(game: StoredGame) -> int:
    """The game clock's time (``record["clock"] = [elapsed, running since]``)."""
    clock = game.record.get("clock")
    return int_or_zero(clock[0]) if isinstance(clock, list) and clock else 0


def empty_kind() -> dict[str, int]:
    return {
        "played": 0,
        "won": 0,
        "lost": 0,
        "streak": 0,
        "best_streak": 0,
        "best_ms": 0,
        "fewest": 0,
        "best_score": 0,
    }


def normal(doc: Any) -> dict[str, Any]:
    """A player's document in its full shape (a damaged or missing one reads as empty); the
    figures of a kind it does not hold read as :func:`empty_kind` (:func:`figures`)."""
    data = json_dict(doc)
    kinds = json_dict(data.get("k"))
    daily = json_dict(data.get("daily"))
    return {
        "k": {k: _figures(v) for k, v in kinds.items() if isinstance(v, dict)},
        "open": {k: v for k, v in json_dict(data.get("open")).items() if isinstance(v, str)},
        "recent": [json_dict(e) for e in data.get("recent", []) if isinstance(e, dict)][:RECENT],
        "gone": [c for c in data.get("gone", []) if isinstance(c, str)][-GONE:],
        "daily": {
            "last": daily.get("last") if isinstance(daily.get("last"), str) else "",
            "streak": int_or_zero(daily.get("streak")),
            "best": int_or_zero(daily.get("best")),
            "days": [d for d in daily.get("days", []) if isinstance(d, str)][-RECENT:],
        },
        "set": json_dict(data.get("set")),
        "seen": seen_text(data.get("seen")),
        "ranked": ranked_text(data.get("ranked")),
    }


def _figures(value: dict[str, Any]) -> dict[str, int]:
    return {f: int_or_zero(value.get(f)) for f in empty_kind()}


def figures(doc: dict[str, Any], kind: str) -> dict[str, int]:
    """The figures of ``kind`` in a :func:`normal` document (none counted yet: all zero)."""
    found: dict[str, int] = doc["k"].get(kind) or empty_kind()
    return found


def after_reset(doc: Any) -> dict[str, Any] | None:
    """The document a reset leaves: nothing counted, but the deals already counted stay
    counted, and the player's wins the deals' figures hold stay known as theirs (``None``:
    nothing to keep)."""
    data = normal(doc)
    kept = {key: data[key] for key in ("seen", "ranked") if data[key]}
    return kept or None


def _entry(doc: dict[str, Any], code: str) -> dict[str, Any] | None:
    return next((e for e in doc["recent"] if e.get("code") == code), None)


def _lose(doc: dict[str, Any], kind: str) -> None:
    counts = doc["k"].setdefault(kind, empty_kind())
    counts["lost"] += 1
    counts["streak"] = 0


def count(
    doc: Any, old: StoredGame | None, new: StoredGame
) -> tuple[StoredGame, dict[str, Any] | None, DealResult | None]:
    """Apply the rules to one game change: the game to write (with its ``counted`` mark),
    the player's new document (``None``: unchanged) and the result to add to the deal's
    figures (``None``: nothing). ``new`` must already be :func:`~app.store.base.carry`-ed;
    ``doc`` is the stored document (``None`` when the player has none)."""
    kind = new.kind
    if kind is None or not wants(new):
        return new, None, None
    data = normal(doc)
    counts = data["k"].setdefault(kind, empty_kind())
    code = new.code
    mark: Counted = new.marks.counted
    again = mark == "new"  # an ended game restarted: a new game of a deal counted before
    deal: DealResult | None = None
    if not mark and data["open"].get(kind) != code and was_counted(data, code):
        # counted before, its row pushed out since: its first result stands
        done = new.with_marks(new.marks._replace(counted="done"))
        if code not in data["gone"]:
            return done, None, None
        data["gone"] = [c for c in data["gone"] if c != code]
        return done, data, None
    if not mark and data["open"].get(kind) == code:
        mark = "open"  # played before and still open: its row went, the game goes on
    if not mark or again:  # the first move: played (and another open game of its kind abandoned)
        mark = _started(data, counts, kind, new, again)
    result = new.marks.result
    if new.state in ENDED:
        mark, result, deal = _ended(doc, data, counts, kind, new, first=mark == "open")
    written = new.with_marks(new.marks._replace(counted=mark, result=result))
    return written, data, deal


def _started(
    data: dict[str, Any], counts: dict[str, Any], kind: str, new: StoredGame, again: bool
) -> Counted:
    """The first move of a game: played (and another open game of its kind abandoned)."""
    code = new.code
    other = data["open"].get(kind)
    if other is not None and other != code:
        _lose(data, kind)
        data["gone"] = [*(c for c in data["gone"] if c != other), other][-GONE:]
        entry = _entry(data, other)
        if entry is not None:
            entry["r"] = "abandoned"
    data["open"][kind] = code
    counts["played"] += 1
    if not again:
        remember(data, code)
    data["recent"] = [
        {
            "code": code,
            "r": "playing",
            "ms": 0,
            "moves": new.moves,
            "score": 0,
            "at": new.updated_ms,
        }
        | entry_marks(life_of(new)),
        *(e for e in data["recent"] if e.get("code") != code),
    ][:RECENT]
    return "again" if again else "open"


def _ended(
    doc: Any,
    data: dict[str, Any],
    counts: dict[str, Any],
    kind: str,
    new: StoredGame,
    first: bool,
) -> tuple[Counted, str, DealResult | None]:
    """A game's ending counted: its mark, its result, and what it adds to the deal's figures
    (``first``: the player's first result of the deal)."""
    code = new.code
    if code in data["gone"]:  # abandoned before: already counted as lost
        data["gone"] = [c for c in data["gone"] if c != code]
        return "done", "abandoned", None
    if data["open"].get(kind) != code:  # open before the statistics were reset
        counts["played"] += 1
    else:
        del data["open"][kind]
    won = new.state == "won"
    ms = clock_ms(new)
    bests = in_records(life_of(new))  # an assisted game sets no personal best
    if won:
        counts["won"] += 1
        counts["streak"] += 1
        counts["best_streak"] = max(counts["best_streak"], counts["streak"])
        if bests:
            counts["best_ms"] = min(counts["best_ms"] or ms, ms)
            counts["fewest"] = min(counts["fewest"] or new.moves, new.moves)
    else:
        _lose(data, kind)
    if bests:
        counts["best_score"] = max(counts["best_score"], new.score)
    entry = {
        "code": code,
        "r": "won" if won else "lost",
        "ms": ms,
        "moves": new.moves,
        "score": new.score,
        "at": new.updated_ms,
    } | entry_marks(life_of(new))
    replay = replay_id(new)
    if replay is not None:  # the replay of the result that counted (/stats links it)
        entry["replay"] = replay
    data["recent"] = [entry, *(e for e in data["recent"] if e.get("code") != code)][:RECENT]
    before = normal(doc)
    day = new.marks.daily
    if won and day:
        _daily_win(data["daily"], day)
    data["set"] = {"code": code, "keys": records(before, data, kind, won and bests)}
    # the deal's figures take each player's first result, a win only when humanly
    # possible and while the client may rank (issue 34)
    if first and (not won or new.ranks) and in_deal_figures(life_of(new)):
        if won:
            rank(data, code, new.moves, ms)
        return "done", "won" if won else "lost", DealResult(won, ms, new.moves)
    return "aside", "won" if won else "lost", None


RECORDS: Final = (
    "first_win",
    "best_time",
    "fewest",
    "best_score",
    "best_streak",
    "streak",
    "daily_streak",
)
"""What a game may set, in the order the end box lists it."""


def records(before: dict[str, Any], after: dict[str, Any], kind: str, won: bool) -> list[str]:
    """The personal bests and streaks a game set, from the documents (:func:`normal`
    shapes) before and after it was counted: keys of :data:`RECORDS`."""
    old, new = figures(before, kind), figures(after, kind)
    found: list[str] = []
    if won and old["won"] == 0:
        found.append("first_win")
    if won and old["best_ms"] and new["best_ms"] < old["best_ms"]:
        found.append("best_time")
    if won and old["fewest"] and new["fewest"] < old["fewest"]:
        found.append("fewest")
    if old["best_score"] and new["best_score"] > old["best_score"]:
        found.append("best_score")
    if new["best_streak"] > old["best_streak"] and new["best_streak"] >= 2:
        found.append("best_streak")
    elif new["streak"] >= 2:
        found.append("streak")
    if after["daily"]["streak"] > before["daily"]["streak"] or (
        after["daily"]["last"] != before["daily"]["last"] and after["daily"]["streak"]
    ):
        found.append("daily_streak")
    return found


def _daily_win(daily: dict[str, Any], day: str) -> None:
    """A won daily deal of ``day``: the daily streak counts UTC days in a row with one."""
    if day in daily["days"]:
        return
    daily["days"] = sorted([*daily["days"], day])[-RECENT:]
    last = daily["last"]
    if last and _next_day(last) == day:
        daily["streak"] += 1
    elif not last or day > last:
        daily["streak"] = 1
    if not last or day > last:
        daily["last"] = day
    daily["best"] = max(daily["best"], daily["streak"])


def _next_day(day: str) -> str:
    try:
        return (datetime.date.fromisoformat(day) + datetime.timedelta(days=1)).isoformat()
    except ValueError:
        return ""
