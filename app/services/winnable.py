"""Deals the solver proved winnable (issue 33, item 5): the table ``app/data/winnable.json``.

The table is written by ``python -m bench.winnable_table`` (each deal solved by its game's own
solver and its winning line replayed through the rules to a win) and holds, per variant
(``HM-N``, ``SH-C4`` …):

- ``deals``: random deal numbers proved winnable, drawn from for *Winnable deals only*;
- ``daily``: the daily deal of each day from :data:`DAILY_FROM` on, one per day, in order:
  the first of the day's candidates (:func:`app.services.daily.candidate`) proved winnable.

A code from the table is an ordinary deal code: anyone can share it, and it plays exactly as
the same code typed in. Reading the table costs one file read per process (cached).
"""

from __future__ import annotations

import datetime
import functools
import json
import secrets
from pathlib import Path
from typing import Any, Final

from app.engine.codes import CURRENT_VERSION, DealCode, GameId
from app.engine.games import game_by_id

DATA: Final = Path(__file__).resolve().parents[1] / "data" / "winnable.json"

DAILY_FROM: Final = "2026-12-06"
"""The first day whose daily deals come from the table (the days before keep the deals they
had: a day's deal never changes once it was dealt)."""

PREFERENCES: Final = ("auto", "on", "off")
"""The player's *Winnable deals only* choice, the default first: ``auto`` deals only winnable
deals where most deals cannot be won (a variant marked
:attr:`~app.engine.codes.Variant.mostly_lost`: Seahaven with 2 cells, 14.5 % winnable, and 1
cell, 2.1 %), ``on`` always, ``off`` never."""


@functools.cache
def table() -> dict[str, Any]:
    """The table as written (an empty table when the file is missing: nothing is winnable-only)."""
    try:
        data: dict[str, Any] = json.loads(DATA.read_text("utf-8"))
    except FileNotFoundError:
        return {}
    return data


def kind(game: GameId, variant: str) -> str:
    return f"{game}-{variant}"


def wanted(preference: str, game: GameId, variant: str) -> bool:
    """Whether a new deal of ``variant`` is drawn from the winnable deals for this preference."""
    if preference == "on":
        return True
    if preference != "auto":
        return False
    return any(v.mostly_lost for v in game_by_id(game).variants if v.code == variant)


def winnable_code(game: GameId, variant: str) -> DealCode | None:
    """A random deal of the variant proved winnable, or ``None`` when the table has none."""
    numbers = table().get(kind(game, variant), {}).get("deals", [])
    if not numbers:
        return None
    return DealCode(game, CURRENT_VERSION, variant, secrets.choice(numbers))


def daily_code(day: str, game: GameId, variant: str) -> DealCode | None:
    """The table's daily deal of ``day`` (``YYYY-MM-DD``), or ``None`` before
    :data:`DAILY_FROM` or past the table's last day (then the day's deal is the old function's:
    :mod:`app.services.daily`)."""
    offset = (datetime.date.fromisoformat(day) - datetime.date.fromisoformat(DAILY_FROM)).days
    numbers = table().get(kind(game, variant), {}).get("daily", [])
    if offset < 0 or offset >= len(numbers):
        return None
    return DealCode(game, CURRENT_VERSION, variant, numbers[offset])
