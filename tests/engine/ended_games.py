"""Random ended games for the analysis tests and bench: seeded, reproducible, never won."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from app.engine.codes import MAX_NUMBER, DealCode
from app.engine.game import Game
from app.engine.seahaven.rules import FOUNDATIONS
from app.engine.seahaven.solver import is_lost

SEAHAVEN_MOVES = 250
"""A Seahaven walk that has not ended by then is dropped (random play can circle forever)."""


def _walk(game: type[Game[Any, Any]], code: DealCode, rng: random.Random) -> list[Any] | None:
    """Random legal moves until the game ends; ``None`` when it was won or never ended.

    Seahaven's walk never takes a card back from a foundation and puts a card home whenever
    one can go (a player's obvious move), so it ends with no useful move left, as real games do.
    """
    position = game.deal(code)
    moves: list[Any] = []
    seahaven = code.game == "SH"
    while len(moves) < SEAHAVEN_MOVES:
        if seahaven:
            if position.is_won():
                return None
            if is_lost(position) is True:
                return moves
            legal = [m for m in game.generate(position) if m.source not in FOUNDATIONS]
            home = [m for m in legal if m.target in FOUNDATIONS]
            choices = home or legal
        else:
            choices = list(game.generate(position))
            if not choices:
                return None if position.is_won() else moves
        move = rng.choice(choices)
        position = game.result(position, move)
        moves.append(move)
    return None


def ended_games(
    game: type[Game[Any, Any]], variant: str, count: int, seed: int
) -> Iterator[tuple[DealCode, list[Any]]]:
    """``count`` random deals of ``variant`` played at random to a loss: (code, moves)."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        code = DealCode(game.game_id, 1, variant, rng.randrange(MAX_NUMBER + 1))
        moves = _walk(game, code, rng)
        if moves is not None:
            found += 1
            yield code, moves
