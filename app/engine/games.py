"""The one table of games, keyed by URL slug, so callers never branch on the game type.

>>> find_game("half-moon").title, game_for_code(DealCode.parse("SH1-C2-AAAAAJ2")).slug
('Half Moon', 'seahaven')
"""

from __future__ import annotations

from typing import Any, Final

from app.engine.codes import DealCode, GameId
from app.engine.game import Game
from app.engine.halfmoon import HalfMoon
from app.engine.seahaven import Seahaven

AnyGame = Game[Any, Any]

GAMES: Final[dict[str, type[AnyGame]]] = {HalfMoon.slug: HalfMoon, Seahaven.slug: Seahaven}
_BY_ID: Final[dict[GameId, type[AnyGame]]] = {g.game_id: g for g in GAMES.values()}


class UnknownGameError(LookupError):
    """No game has that slug."""


def find_game(slug: str) -> type[AnyGame]:
    """:raises UnknownGameError: when no game has this slug."""
    try:
        return GAMES[slug]
    except KeyError:
        raise UnknownGameError(f"no game {slug!r}; known: {', '.join(GAMES)}") from None


def game_for_code(code: DealCode) -> type[AnyGame]:
    """The game a deal code belongs to."""
    return _BY_ID[code.game]
