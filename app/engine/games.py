"""The one table of games: each game is a package of the engine (``app/engine/<name>/``, its
game class as ``GAME``) and one of the web layer (``app/web/<name>/``), both named in
:data:`PACKAGES` — the one line a new game adds. Every other table of the games (deal codes,
daily deals, statistics, pages) is built from this one, so callers never branch on the game.

>>> find_game("half-moon").title, game_for_code(DealCode.parse("SH1-C2-AAAAAJ2")).slug
('Half Moon', 'seahaven')
>>> [kind_of(code) for code in (DealCode.parse("HM1-N-AAAAAAB"), DealCode("SH", 1, "C2", 7))]
['HM', 'SH-C2']
"""

from __future__ import annotations

import importlib
from typing import Any, Final

from app.engine import rng
from app.engine.codes import DealCode, GameId, Variant, know_games
from app.engine.game import Game
from app.engine.texts import ENGLISH, N_, Translator

PACKAGES: Final = ("halfmoon", "seahaven")
"""The games, in the order the site lists them, by the name of their two packages."""

AnyGame = Game[Any, Any]


def _game_of(package: str) -> type[AnyGame]:
    game = getattr(importlib.import_module(f"app.engine.{package}"), "GAME", None)
    if not (isinstance(game, type) and issubclass(game, Game)):
        raise ImportError(f"app.engine.{package} has no GAME: the Game subclass it defines")
    return game


GAMES: Final[dict[str, type[AnyGame]]] = {g.slug: g for g in map(_game_of, PACKAGES)}
"""Each game's class under its slug, in :data:`PACKAGES` order."""
_BY_ID: Final[dict[GameId, type[AnyGame]]] = {g.game_id: g for g in GAMES.values()}
_BY_POSITION: Final[dict[type, type[AnyGame]]] = {g.position_type: g for g in GAMES.values()}

VARIANTS: Final[dict[GameId, tuple[str, ...]]] = {
    g.game_id: tuple(v.code for v in g.variants) for g in GAMES.values()
}
"""Each game's variant codes (its default first): what :meth:`DealCode.parse` accepts."""


class UnknownGameError(LookupError):
    """No game has that slug."""


def find_game(slug: str) -> type[AnyGame]:
    """:raises UnknownGameError: when no game has this slug."""
    try:
        return GAMES[slug]
    except KeyError:
        raise UnknownGameError(f"no game {slug!r}; known: {', '.join(GAMES)}") from None


def game_by_id(game_id: GameId) -> type[AnyGame]:
    """The game whose deal codes start with ``game_id``.

    :raises UnknownGameError: when no game's do.
    """
    try:
        return _BY_ID[game_id]
    except KeyError:
        raise UnknownGameError(f"no game {game_id!r}; known: {', '.join(_BY_ID)}") from None


def game_for_code(code: DealCode) -> type[AnyGame]:
    """The game a deal code belongs to."""
    return _BY_ID[code.game]


def game_for_position(position: object) -> type[AnyGame]:
    """The game a position is of (a proof is asked for by position)."""
    return _BY_POSITION[type(position)]


def variant_of(code: DealCode) -> Variant:
    """The variant a deal code deals (its name for players)."""
    return next(v for v in game_for_code(code).variants if v.code == code.variant)


def kind_of(code: DealCode) -> str:
    """A deal's kind for the statistics and the daily deals: the game's letters, with the
    variant when the game has several (``HM``, ``SH-C4``)."""
    if len(game_for_code(code).variants) == 1:
        return code.game
    return f"{code.game}-{code.variant}"


def kinds() -> dict[str, tuple[type[AnyGame], Variant]]:
    """Every kind of deal (:func:`kind_of`), in the order the site lists them."""
    found = {}
    for game in GAMES.values():
        for variant in game.variants:
            code = DealCode(game.game_id, 1, variant.code, 0)
            found[kind_of(code)] = (game, variant)
    return found


def format_help(t: Translator = ENGLISH) -> str:
    """What a deal code looks like, in ``t``'s language: said after every code error."""
    examples = [t.gettext(game.code_example) for game in GAMES.values()]
    joined = examples[0]
    if len(examples) > 1:
        joined = t.gettext(N_("%(first)s or %(last)s")) % {
            "first": ", ".join(examples[:-1]),
            "last": examples[-1],
        }
    return t.gettext(
        N_(
            "A deal code looks like %(examples)s: the game, the version 1, the variant, then "
            "7 characters A–Z or 2–7."
        )
    ) % {"examples": joined}


FORMAT_HELP: Final = format_help()
"""What a deal code looks like, in English (the engine's own messages say it)."""

know_games(VARIANTS, FORMAT_HELP)
rng.DECKS.update({g.game_id: g.decks for g in GAMES.values()})
