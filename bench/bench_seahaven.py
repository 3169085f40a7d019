"""Seahaven Towers timings: per-action engine cost, lost detection, solver share decided.

Run ``.venv/bin/python -m bench.bench_seahaven [--deals N] [--budget NODES]``. Positions "from
real games" are the boards along the solver's winning lines and along seeded random play (which
is where stuck boards come from). Everything is seeded, so two runs measure the same work.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable

from app.engine.codes import DealCode
from app.engine.seahaven import (
    LOST_BUDGET,
    Position,
    Seahaven,
    apply_move,
    legal_moves,
    place_name,
)
from app.engine.seahaven.solver import SOLVE_BUDGET, is_lost, solve_code
from app.engine.solutions import Verdict


def _timed(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def _sample_positions(games: int, seed: int = 2024) -> list[Position]:
    """Boards from solver lines and from random play (random play reaches stuck boards)."""
    rng = random.Random(seed)
    positions: list[Position] = []
    for number in range(games):
        code = DealCode("SH", 1, rng.choice(["C4", "C4", "C2", "C1"]), 10_000 + number)
        result = solve_code(code, 20_000)
        position = Seahaven.deal(code)
        positions.append(position)
        for move in result.line:
            position = apply_move(position, move)
            positions.append(position)
        position = Seahaven.deal(code)
        for _ in range(80):
            moves = list(legal_moves(position))
            if not moves:
                break
            position = apply_move(position, rng.choice(moves))
            positions.append(position)
    return positions


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def _us(seconds: float) -> str:
    return f"{seconds * 1e6:.1f} µs"


def bench_actions(positions: list[Position]) -> None:
    rng = random.Random(7)
    engine: list[float] = []
    action: list[float] = []
    for position in positions:
        moves = list(legal_moves(position))
        if not moves:
            continue
        pick = rng.randrange(len(moves))

        def generate_and_apply(p: Position = position, k: int = pick) -> None:
            apply_move(p, list(legal_moves(p))[k])

        engine.append(_timed(generate_and_apply))
        move = moves[pick]
        game = Seahaven.from_position(position)
        source = position.columns[move.source] if move.source < 10 else None
        card = source[-move.count] if source else position.top(move.source)
        target = place_name(move.target)
        action.append(
            _timed(
                lambda g=game, c=card, s=move.source, t=target: g.move(place_name(s), c, t, now=0)
            )
        )
    print(
        f"engine, generate all moves + apply one: median {_us(statistics.median(engine))}, "
        f"p95 {_us(_p95(engine))} over {len(engine)} boards"
    )
    print(
        f"game.move() action incl. validation and the lost check: median "
        f"{_us(statistics.median(action))}, p95 {_us(_p95(action))}"
    )


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def bench_lost(positions: list[Position], budget: int) -> None:
    times: list[float] = []
    verdicts: Counter[bool | None] = Counter()
    for position in positions:
        started = time.perf_counter()
        verdicts[is_lost(position, budget)] += 1
        times.append(time.perf_counter() - started)
    print(
        f"lost detection (budget {budget}): median {_ms(statistics.median(times))}, "
        f"p95 {_ms(_p95(times))}, max {_ms(max(times))} over {len(times)} boards; "
        f"lost {verdicts[True]}, not lost {verdicts[False]}, out of budget {verdicts[None]}"
    )


def bench_solver(deals: int, budget: int, first: int) -> None:
    verdicts: Counter[Verdict] = Counter()
    times: list[float] = []
    for number in range(first, first + deals):
        started = time.perf_counter()
        result = solve_code(DealCode("SH", 1, "C4", number), budget)
        times.append(time.perf_counter() - started)
        verdicts[result.verdict] += 1
    decided = deals - verdicts[Verdict.UNDECIDED]
    print(
        f"solver on {deals} consecutive 4-cell deals from {first} (budget {budget} nodes): "
        f"decided {decided / deals:.1%} (won {verdicts[Verdict.WON]}, "
        f"no win {verdicts[Verdict.NO_WIN]}, undecided {verdicts[Verdict.UNDECIDED]}); "
        f"mean {statistics.mean(times):.3f} s, median {statistics.median(times):.3f} s, "
        f"max {max(times):.2f} s"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=1000, help="4-cell deals for the solver")
    parser.add_argument("--first", type=int, default=0, help="number of the first deal")
    parser.add_argument("--budget", type=int, default=SOLVE_BUDGET, help="solver node budget")
    parser.add_argument("--games", type=int, default=40, help="games to sample boards from")
    args = parser.parse_args(argv)
    positions = _sample_positions(args.games)
    bench_actions(positions)
    bench_lost(positions, LOST_BUDGET)
    bench_solver(args.deals, args.budget, args.first)


if __name__ == "__main__":
    main()
