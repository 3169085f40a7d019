"""A deal's wins for everyone as a bounded histogram of moves and times (issue 26).

Each deal's figures (:func:`app.store.settling.fold_deal`) count its wins in *cells*: a cell is
a moves bucket and a time bucket, written ``"m.t"`` (JSON keys), holding how many wins fell in
it. The buckets are fixed (:data:`MOVES_BUCKETS`, :data:`TIME_BUCKETS`), so two stores, workers
or instances that fold the same results hold the same cells; a deal holds at most
:data:`MAX_CELLS` cells whatever its number of players (a win that would open one more cell
joins the nearest cell instead), so its figures stay a few kilobytes — never a list of games.

Where a result stands among the wins (:func:`standing`) is read from the cells: wins in worse
cells count as beaten, and half of the others in the result's own cell (their order inside a
cell is not kept). A game ranks wins by time alone, or by moves and then time.

>>> cells = {}
>>> for moves, ms in ((48, 250_000), (48, 300_000), (48, 400_000)):
...     cells = add(cells, moves, ms)
>>> standing(cells, 48, 250_000, by_moves=False, mine=(48, 250_000))
(2.0, 2)
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping
from typing import Any, Final

Buckets = tuple[tuple[int, int], ...]
"""Runs of equal buckets: ``(start, width)``, each run up to the next one's start; the last
run's one bucket holds everything from its start on."""

TIME_BUCKETS: Final[Buckets] = ((0, 5), (120, 10), (600, 30), (1800, 60), (3600, 300), (7200, 0))
"""Seconds: 5-second buckets under 2 minutes, 10 seconds to 10 minutes, 30 seconds to half an
hour, a minute to an hour, five minutes to two hours, then one bucket (155 in all)."""

MOVES_BUCKETS: Final[Buckets] = ((0, 1), (200, 10), (500, 50), (1000, 0))
"""Moves: one bucket a move count under 200, ten moves to 500, fifty to 1,000, then one
bucket (241 in all)."""

MAX_CELLS: Final = 1024
"""Most cells a deal keeps: at about 12 bytes a cell, its figures stay under 13 kB."""


def _firsts(buckets: Buckets) -> list[int]:
    """The first bucket index of each run."""
    firsts, index = [], 0
    for (start, width), (end, _) in zip(buckets, (*buckets[1:], (0, 0)), strict=True):
        firsts.append(index)
        index += (end - start) // width if width else 1
    return firsts


_TIME_FIRSTS: Final = _firsts(TIME_BUCKETS)
_MOVES_FIRSTS: Final = _firsts(MOVES_BUCKETS)


def bucket(value: int, buckets: Buckets, firsts: list[int] | None = None) -> int:
    """The bucket ``value`` falls in.

    >>> bucket(0, TIME_BUCKETS), bucket(119, TIME_BUCKETS), bucket(120, TIME_BUCKETS)
    (0, 23, 24)
    >>> bucket(10**9, TIME_BUCKETS), bucket(199, MOVES_BUCKETS), bucket(5000, MOVES_BUCKETS)
    (154, 199, 240)
    """
    firsts = firsts if firsts is not None else _firsts(buckets)
    run = bisect.bisect_right([start for start, _ in buckets], max(0, value)) - 1
    start, width = buckets[run]
    return firsts[run] + ((value - start) // width if width else 0)


def cell(moves: int, ms: int) -> tuple[int, int]:
    """A win's cell: its moves bucket and its time bucket (time in whole seconds)."""
    seconds = ms // 1000
    return bucket(moves, MOVES_BUCKETS, _MOVES_FIRSTS), bucket(seconds, TIME_BUCKETS, _TIME_FIRSTS)


def _key(at: tuple[int, int]) -> str:
    return f"{at[0]}.{at[1]}"


_KEY: Final = re.compile(r"[0-9]{1,4}\.[0-9]{1,4}")


def valid(data: Any) -> dict[str, int]:
    """A deal's cells as stored (JSON: ``{"m.t": count}``), counts that are not positive whole
    numbers left out (a key that names no cell is kept but never read: :func:`cells_of`)."""
    if not isinstance(data, Mapping):
        return {}
    return {k: n for k, n in data.items() if type(n) is int and n > 0}


def cells_of(data: Any) -> dict[tuple[int, int], int]:
    """A deal's cells as (moves bucket, time bucket) → wins; damaged entries left out."""
    found: dict[tuple[int, int], int] = {}
    for key, n in valid(data).items():
        if isinstance(key, str) and _KEY.fullmatch(key):
            m, _, t = key.partition(".")
            found[(int(m), int(t))] = n
    return found


def add(data: Any, moves: int, ms: int) -> dict[str, int]:
    """The cells ``data`` holds with one more win; past :data:`MAX_CELLS`, the win joins the
    nearest cell (in its own moves bucket when it has cells, else the nearest moves bucket;
    then the nearest time bucket)."""
    cells = valid(data)
    at = cell(moves, ms)
    key = _key(at)
    if key not in cells and len(cells) >= MAX_CELLS:
        own = cells_of({k: n for k, n in cells.items() if k.startswith(f"{at[0]}.")})
        near = min(own or cells_of(cells), key=lambda c: (abs(c[0] - at[0]), abs(c[1] - at[1]), c))
        key = _key(near)
    cells[key] = cells.get(key, 0) + 1
    return cells


def standing(
    data: Any,
    moves: int,
    ms: int,
    *,
    by_moves: bool,
    mine: tuple[int, int] | None = None,
    mine_cell: tuple[int, int] | None = None,
) -> tuple[float, int]:
    """How many of the deal's wins the result (``moves``, ``ms``) beats, and how many it is
    compared with: the wins in worse cells count, and half of those in its own cell.
    ``by_moves``: fewer moves first, then less time; else time alone. ``mine``: the player's
    own win among them (moves, ms), left out — a result is compared with the others'; or
    ``mine_cell``, its cell."""
    cells = cells_of(data)
    own_cell = mine_cell or (cell(*mine) if mine is not None else None)
    if own_cell is not None and cells.get(own_cell):
        cells[own_cell] -= 1
    at = cell(moves, ms)
    rank = (lambda c: c) if by_moves else (lambda c: (0, c[1]))
    own = rank(at)
    worse = sum(n for c, n in cells.items() if rank(c) > own)
    same = sum(n for c, n in cells.items() if rank(c) == own)
    return worse + same / 2, sum(cells.values())
