"""The daily deal (issue 16): one deal per game and variant each UTC day (the variants a game
marks :attr:`~app.engine.codes.Variant.daily`), the same for every player, derived from the
date by a function that must never change.

**The function** (stable forever — ``tests/web/test_daily.py`` pins its codes): for the day
``YYYY-MM-DD``, the game ``G`` (its letters, ``HM``) and the variant ``V`` (``N``, ``C4`` …),
try ``i = 0, 1, 2, …``: the deal number is the first 8 bytes of
``SHA-256("daily:YYYY-MM-DD:G:V:i")`` read big-endian, modulo 2^35 (every deal number of
:mod:`app.engine.codes`); the day's deal is the first candidate that is not over at the deal,
in the engine's own words (:meth:`Game.is_over`: Half Moon stuck before the first move;
Seahaven proved "no useful move left" by its bounded proof with its fixed node budget, a
deterministic search). Issue 13 deals no dead random deal; a daily deal must not be one either,
and the replacement is as deterministic as the first choice. At most :data:`TRIES` candidates
are tried (then the last is dealt: never met, one deal in four is lost at the deal at one cell).

**From 2026-12-06** (:data:`app.services.winnable.DAILY_FROM`; every day before keeps the deal
it had, :func:`first_alive`) the daily deals are always
winnable (issue 33): a day's deal is the first of the same candidates that the game's solver
proved winnable, worked out ahead by ``python -m bench.winnable_table`` and read from the
committed table ``app/data/winnable.json`` (a solve is too slow and too budget-dependent to
be the function itself). Past the table's last day the function above deals again, and the
daily page stops saying "always winnable" (:func:`proved_winnable`).
"""

from __future__ import annotations

import asyncio
import datetime
import functools
import hashlib
from typing import Final

from app.engine.codes import CURRENT_VERSION, MAX_NUMBER, DealCode, GameId
from app.engine.games import GAMES, game_for_code, kind_of
from app.services import winnable

TRIES: Final = 32

DAILY_VARIANTS: Final[tuple[tuple[GameId, str], ...]] = tuple(
    (game.game_id, variant.code)
    for game in GAMES.values()
    for variant in game.variants
    if variant.daily
)
"""Every daily deal of a day, in the order the home page lists them."""


def candidate(day: str, game: GameId, variant: str, attempt: int) -> DealCode:
    """The ``attempt``-th candidate for a day's deal.

    >>> str(candidate("2026-12-01", "HM", "N", 0))
    'HM1-N-Y5GESIS'
    """
    text = f"daily:{day}:{game}:{variant}:{attempt}".encode()
    number = int.from_bytes(hashlib.sha256(text).digest()[:8], "big") % (MAX_NUMBER + 1)
    return DealCode(game, CURRENT_VERSION, variant, number)


def dead_at_deal(code: DealCode) -> bool:
    """Over before the first move (the engine's own verdict: a bounded search for Seahaven)."""
    return game_for_code(code)(code).is_over()


@functools.lru_cache(maxsize=64)
def daily_code(day: str, game: GameId, variant: str) -> DealCode:
    """The day's deal (``day`` as ``YYYY-MM-DD``, UTC). Milliseconds of work, cached; call it
    off the event loop on a miss (:func:`daily_codes`)."""
    datetime.date.fromisoformat(day)  # a malformed day raises ValueError
    listed = winnable.daily_code(day, game, variant)
    return listed if listed is not None else first_alive(day, game, variant)


def first_alive(day: str, game: GameId, variant: str) -> DealCode:
    """The function before :data:`~app.services.winnable.DAILY_FROM` (and past the table's
    last day): the first candidate not over at the deal."""
    code = candidate(day, game, variant, 0)
    for attempt in range(1, TRIES):
        if not dead_at_deal(code):
            break
        code = candidate(day, game, variant, attempt)
    return code


def proved_winnable(day: str, game: GameId, variant: str) -> bool:
    """Whether the day's deal comes from the table of deals proved winnable."""
    return winnable.daily_code(day, game, variant) is not None


def today(now: datetime.datetime | None = None) -> str:
    """The UTC day as ``YYYY-MM-DD``."""
    return (now or datetime.datetime.now(datetime.UTC)).astimezone(datetime.UTC).date().isoformat()


@functools.lru_cache(maxsize=16)
def yesterday_of(day: str) -> str:
    return (datetime.date.fromisoformat(day) - datetime.timedelta(days=1)).isoformat()


def codes_of(day: str) -> dict[str, DealCode]:
    """Every daily deal of ``day`` by kind (:func:`~app.engine.games.kind_of`: ``HM``,
    ``SH-C4`` …), in :data:`DAILY_VARIANTS` order."""
    codes = (daily_code(day, game, variant) for game, variant in DAILY_VARIANTS)
    return {kind_of(code): code for code in codes}


_KNOWN: dict[str, dict[str, DealCode]] = {}
"""Days already worked out: a tap asks on every action, so a known day costs a lookup."""


async def daily_codes(day: str) -> dict[str, DealCode]:
    """:func:`codes_of`, in a thread the first time a day is asked for (it runs proofs)."""
    known = _KNOWN.get(day)
    if known is None:
        known = await asyncio.to_thread(codes_of, day)
        if len(_KNOWN) > 8:
            _KNOWN.clear()
        _KNOWN[day] = known
    return known


async def day_of(code: str, now: datetime.datetime | None = None) -> str | None:
    """The day whose daily deal ``code`` is, among today and yesterday (a daily deal begun
    before midnight and finished after still counts for its day), else ``None``."""
    day = today(now)
    for which in (day, yesterday_of(day)):
        known = _TEXTS.get(which)
        if known is None:
            known = _TEXTS[which] = frozenset(str(c) for c in (await daily_codes(which)).values())
            if len(_TEXTS) > 8:
                _TEXTS.clear()
        if code in known:
            return which
    return None


_TEXTS: dict[str, frozenset[str]] = {}
"""The codes of the days already asked about, as text: every action asks."""
