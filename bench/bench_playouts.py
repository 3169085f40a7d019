"""Random playouts per second, both games: the engines' raw speed on whole games.

Run: ``.venv/bin/python -m bench.bench_playouts [--seconds 5]``

A playout deals a fresh deal and plays uniformly random legal moves until none is left (Half
Moon: a removal; Seahaven: any move but a take-back from a foundation, at most 300 moves, since
random play can circle). Reported: playouts per second and moves per second, the median of
five rounds (machines here are shared and noisy).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from app.engine import halfmoon
from app.engine.codes import DealCode
from app.engine.halfmoon import deal as hm_deal
from app.engine.seahaven import FOUNDATIONS, apply_move, deal_position, legal_moves

MAX_SEAHAVEN_MOVES = 300


def halfmoon_playout(rng: random.Random, number: int) -> int:
    position = hm_deal(DealCode("HM", 1, "N", number))
    moves = 0
    while True:
        removals = list(halfmoon.legal_moves(position))
        if not removals:
            return moves
        position = halfmoon.apply_move(position, rng.choice(removals))
        moves += 1


def seahaven_playout(rng: random.Random, number: int) -> int:
    position = deal_position(DealCode("SH", 1, "C4", number))
    moves = 0
    while moves < MAX_SEAHAVEN_MOVES:
        options = [m for m in legal_moves(position) if m.source not in FOUNDATIONS]
        if not options:
            break
        position = apply_move(position, rng.choice(options))
        moves += 1
    return moves


def rounds(playout: Callable[[random.Random, int], int], seconds: float) -> tuple[float, float]:
    rng = random.Random(2026)
    per_round = seconds / 5
    games, moves = [], []
    number = 0
    for _ in range(5):
        start = time.perf_counter()
        played = made = 0
        while time.perf_counter() - start < per_round:
            made += playout(rng, number)
            played += 1
            number += 1
        elapsed = time.perf_counter() - start
        games.append(played / elapsed)
        moves.append(made / elapsed)
    return statistics.median(games), statistics.median(moves)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args(argv)
    for name, playout in (("Half Moon", halfmoon_playout), ("Seahaven", seahaven_playout)):
        games, moves = rounds(playout, args.seconds)
        print(f"{name:10} {games:8.0f} random playouts/s  {moves:9.0f} moves/s")


if __name__ == "__main__":
    main()
