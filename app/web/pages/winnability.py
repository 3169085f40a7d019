"""The figures of "How winnable are these games?", read from the committed data file.

``app/data/winnability.json`` is written by ``python -m bench.deal_statistics export``; this
module only reads and formats it (numbers in the reader's language, the SVG bar chart's
geometry). Nothing here solves a deal.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from babel import Locale
from babel.numbers import format_decimal, format_percent

from app.engine.games import game_by_id
from app.i18n import translations

DATA: Final = Path(__file__).resolve().parents[2] / "data" / "winnability.json"
VERDICTS: Final = ("won", "no win", "undecided")
TAIL: Final = 200
"""Winning lines of this many moves or more share the chart's last bar."""


@functools.cache
def load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA.read_text("utf-8"))
    return data


def percent(share: float, lang: str) -> str:
    """A share with one decimal, the way the language writes it: ``93.8%``, ``%93,8``."""
    pattern = Locale.parse(lang).percent_formats[None].pattern.replace("#,##0", "#,##0.0")
    return format_percent(share, pattern, locale=lang)


def number(value: float, lang: str) -> str:
    return format_decimal(value, locale=lang)


@dataclass(frozen=True, slots=True)
class Share:
    verdict: str
    count: int
    share: str
    low: str
    high: str


@dataclass(frozen=True, slots=True)
class Bar:
    label: str
    count: int
    share: str
    x: float
    y: float
    height: float


@dataclass(frozen=True, slots=True)
class Chart:
    """Moves in the solver's winning lines, by tens: bars in a 100-unit-high SVG."""

    bars: tuple[Bar, ...]
    width: float
    top: str
    """The share at the top of the scale."""
    median: int | None
    least: int | None
    most: int | None
    wins: int

    @property
    def rows(self) -> tuple[tuple[str, int, str], ...]:
        """The figures of the chart's table: moves, wins, share."""
        return tuple((bar.label, bar.count, bar.share) for bar in self.bars)


@dataclass(frozen=True, slots=True)
class Variant:
    key: str
    name: str
    code: str
    deals: int
    deals_text: str
    first: int
    last: int
    budget: str
    shares: tuple[Share, ...]
    median_seconds: str
    chart: Chart | None


def _has_chart(data: dict[str, Any]) -> bool:
    """Whether a variant's wins differ in length (every Half Moon win takes 48 moves)."""
    moves = data["moves_in_wins"]
    return bool(data["counts"]["won"]) and moves["min"] < moves["max"]


def _names(data: dict[str, Any]) -> tuple[str, str]:
    """A variant's key in the page (``half-moon``, ``seahaven-4``) and its name for players."""
    game = game_by_id(data["game"])
    name = next(v.short_name for v in game.variants if v.code == data["variant"])
    return game.slug if data["cells"] is None else f"{game.slug}-{data['cells']}", name


def _chart(data: dict[str, Any], lang: str, scale: float) -> Chart | None:
    moves = data["moves_in_wins"]
    wins = data["counts"]["won"]
    if not _has_chart(data):
        return None
    counts: dict[int, int] = {}
    for start, count in moves["by_tens"]:
        key = min(start, TAIL)
        counts[key] = counts.get(key, 0) + count
    starts = range(60, TAIL + 10, 10)
    bars = []
    for i, start in enumerate(starts):
        count = counts.get(start, 0)
        label = f"{start}+" if start == TAIL else f"{start}–{start + 9}"
        height = 100 * count / wins / scale
        bars.append(
            Bar(label, count, percent(count / wins, lang), 10 * i + 1, 100 - height, height)
        )
    return Chart(
        tuple(bars),
        10 * len(bars),
        percent(scale, lang),
        moves["median"],
        moves["min"],
        moves["max"],
        wins,
    )


@functools.cache
def figures(lang: str) -> dict[str, Any]:
    """Everything the page shows, formatted for ``lang``."""
    t = translations(lang)
    data = load()
    peaks = [
        count / v["counts"]["won"]
        for v in data["variants"]
        if _has_chart(v)
        for _, count in v["moves_in_wins"]["by_tens"]
    ]
    scale = max(0.1, -(-max(peaks, default=0.1) * 10 // 1) / 10)  # round up to 10 %
    variants = []
    for v in data["variants"]:
        n = v["deals"]
        shares = tuple(
            Share(
                verdict,
                v["counts"][verdict],
                percent(v["counts"][verdict] / n, lang),
                percent(v["intervals"][verdict][0], lang),
                percent(v["intervals"][verdict][1], lang),
            )
            for verdict in VERDICTS
        )
        key, name = _names(v)
        variants.append(
            Variant(
                key=key,
                name=t.gettext(name),
                code=f"{v['game']}1-{v['variant']}",
                deals=n,
                deals_text=number(n, lang),
                first=v["first"],
                last=v["last"],
                budget=number(v["budget"], lang),
                shares=shares,
                median_seconds=number(round(v["seconds"]["median"] * 1000, 1), lang),
                chart=_chart(v, lang, scale),
            )
        )
    race = []
    for r in data["race"]:
        tables = r["tables"]
        strict_won = sum(row[0] for row in tables["strict"])
        relaxed_no = sum(row[1] for row in tables["relaxed"])
        race.append(
            {
                "cells": r["cells"],
                "deals": r["deals"],
                "tables": tables,
                "strict_won": strict_won,
                "strict_won_ours_no": tables["strict"][1][0],
                "relaxed_no": relaxed_no,
                "relaxed_no_ours_won": tables["relaxed"][0][1],
                "ours": [sum(row) for row in tables["strict"]],
                "ratio": number(r["time_ratio"]["median"], lang),
            }
        )
    return {"variants": variants, "race": race}
