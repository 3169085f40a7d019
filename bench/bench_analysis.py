"""Where the win slipped away: time and decided share of the analysis of random ended games.

Run::

    .venv/bin/python -m bench.bench_analysis --games 200 --jobs 2 --seconds 10

Each game is a random deal played with random legal moves to a loss (Seahaven: no take-backs,
a card goes home whenever one can; ``tests/engine/ended_games.py``), then analysed as the server
does (``app.engine.analysis.analyse`` with the games' own solver budgets and a deadline of
``--seconds`` per analysis). Prints, per game, p50 / p95 / max wall time and the share of
findings decided (cannot be won, or slipped at move k); undecided ones are counted, never
guessed. Results append to ``bench/results/analysis.jsonl``.

``--linear`` also finds each game's slip by solving every position from the end back
(``analyse_linearly``, no deadline) and counts the games whose two findings agree (issue 33:
the binary search against a linear scan on 200 random ended games of each game; the tests run
a few of each, ``tests/engine/test_analysis.py``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from app.engine.analysis import Finding, analyse, analyse_linearly
from app.engine.codes import DealCode
from app.engine.games import game_by_id
from tests.engine.ended_games import ended_games

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "analysis.jsonl"
VARIANTS = (("HM", "N"), ("SH", "C4"), ("SH", "C2"), ("SH", "C1"))


def analyse_one(job: tuple[str, list[str], float, bool]) -> dict[str, Any]:
    text, moves_text, seconds, linear = job
    code = DealCode.parse(text)
    game = game_by_id(code.game)
    moves = [game.parse_move(m) for m in moves_text]
    start = time.perf_counter()
    finding = analyse(game, game.deal(code), moves, None, time.monotonic() + seconds)
    row = {
        "code": text,
        "moves": len(moves),
        "kind": finding.kind.value,
        "k": finding.last_winnable,
        "calls": finding.solver_calls,
        "nodes": finding.nodes,
        "seconds": round(time.perf_counter() - start, 4),
    }
    if linear:
        scan = analyse_linearly(game, game.deal(code), moves)
        row["linear"] = [scan.kind.value, scan.last_winnable]
    return row


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=2033)
    parser.add_argument("--only", default="", help="e.g. HM or SH-C2")
    parser.add_argument("--linear", action="store_true", help="check against a linear scan")
    args = parser.parse_args(argv)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    for game_id, variant in VARIANTS:
        if args.only and args.only not in (game_id, f"{game_id}-{variant}"):
            continue
        game = game_by_id(game_id)
        jobs = [
            (str(code), [str(m) for m in moves], args.seconds, args.linear)
            for code, moves in ended_games(game, variant, args.games, args.seed)
        ]
        with ProcessPoolExecutor(args.jobs) as pool:
            rows = list(pool.map(analyse_one, jobs))
        with RESULTS.open("a") as out:
            for row in rows:
                out.write(json.dumps({**row, "budget_s": args.seconds}) + "\n")
        seconds = [row["seconds"] for row in rows]
        kinds = [row["kind"] for row in rows]
        decided = 1 - kinds.count(Finding.UNDECIDED.value) / len(rows)
        print(
            f"{game_id}-{variant}: {len(rows)} games, p50 {statistics.median(seconds):.3f} s,"
            f" p95 {percentile(seconds, 0.95):.3f} s, max {max(seconds):.2f} s,"
            f" decided {100 * decided:.1f} % (cannot win {kinds.count('cannot_win')},"
            f" slipped {kinds.count('slipped')}, undecided {kinds.count('undecided')}),"
            f" calls p50 {statistics.median(row['calls'] for row in rows)}",
            flush=True,
        )
        if args.linear:
            both = [r for r in rows if "undecided" not in (r["kind"], r["linear"][0])]
            agree = sum([r["kind"], r["k"]] == r["linear"] for r in both)
            print(f"  linear scan: {agree} of {len(both)} decided both ways agree", flush=True)


if __name__ == "__main__":
    main()
