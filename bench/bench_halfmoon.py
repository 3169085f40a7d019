"""Half Moon engine speed: taps, record rebuilds, solver decisions.

Run: ``.venv/bin/python -m bench.bench_halfmoon [--deals 1000] [--budget 200000]``

Prints medians (machines here are shared and noisy: read ratios and medians, not single runs).
Targets (issue "Rules engine I"): one tap < 50 µs median; rebuilding the longest record
< 2 ms; the solver decides ≥ 95 % of 1,000 consecutive deals, well under a second on average.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from app.engine.codes import DealCode
from app.engine.halfmoon import HalfMoon, deal, place_name
from app.engine.halfmoon.solver import DEFAULT_BUDGET, SEARCH_FIRST, solve


def _won_game(number: int) -> tuple[DealCode, tuple[tuple[int, ...], ...]] | None:
    code = DealCode("HM", 1, "N", number)
    result = solve(deal(code))
    return (code, result.line) if result.line else None


def bench_taps(games: int = 30) -> list[float]:
    """Time every tap of solver lines replayed through ``HalfMoon.tap`` (µs per tap)."""
    timings = []
    found = 0
    number = 0
    while found < games:
        won = _won_game(number)
        number += 1
        if won is None:
            continue
        found += 1
        code, line = won
        game = HalfMoon(code)
        for removal in line:
            for place in removal:
                name, card = place_name(place), game.position.top(place)
                assert card is not None
                start = time.perf_counter()
                game.tap(name, card, now=0)
                timings.append((time.perf_counter() - start) * 1e6)
        assert game.is_won()
    return timings


def bench_rebuild(repeats: int = 200) -> list[float]:
    """Rebuild a won (longest possible) game from its record (ms)."""
    won = _won_game(1)
    assert won is not None
    code, line = won
    game = HalfMoon(code)
    game.replay(line, now=0)
    record = game.to_record()
    timings = []
    for _ in range(repeats):
        start = time.perf_counter()
        HalfMoon.from_record(record)
        timings.append((time.perf_counter() - start) * 1e3)
    return timings


def bench_solver(
    first: int, deals: int, budget: int, exact: bool = False
) -> tuple[Counter[str], list[float]]:
    verdicts: Counter[str] = Counter()
    seconds = []
    for number in range(first, first + deals):
        start = time.perf_counter()
        result = solve(deal(DealCode("HM", 1, "N", number)), budget, exact=exact)
        seconds.append(time.perf_counter() - start)
        verdicts[result.verdict.value] += 1
    return verdicts, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--first", type=int, default=0, help="first deal number")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--budget", type=int, default=None)
    parser.add_argument(
        "--search-only",
        action="store_true",
        help="the search alone (budget 200,000 by default), without the prover after it",
    )
    args = parser.parse_args()
    exact = not args.search_only  # the product's: SEARCH_FIRST positions, then the prover
    if args.budget is None:
        args.budget = DEFAULT_BUDGET if args.search_only else SEARCH_FIRST

    taps = bench_taps()
    print(
        f"tap: median {statistics.median(taps):.1f} µs over {len(taps)} taps "
        f"(p90 {statistics.quantiles(taps, n=10)[-1]:.1f} µs)"
    )
    rebuild = bench_rebuild()
    print(f"rebuild of a won game's record (48 moves): median {statistics.median(rebuild):.3f} ms")
    verdicts, seconds = bench_solver(args.first, args.deals, args.budget, exact)
    decided = (verdicts["won"] + verdicts["no win"]) / args.deals
    print(
        f"solver, deals {args.first}…{args.first + args.deals - 1}, budget {args.budget}"
        f"{', then the prover' if exact else ''}: "
        f"{dict(verdicts)}; "
        f"decided {decided:.1%}; mean {statistics.mean(seconds):.3f} s, "
        f"median {statistics.median(seconds) * 1e3:.1f} ms, max {max(seconds):.2f} s"
    )


if __name__ == "__main__":
    main()
