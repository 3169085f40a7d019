"""Cross-check and race our Seahaven solver against Freecell Solver (``fc-solve``).

Run (resumable; needs ``fc-solve`` from the Debian package ``freecell-solver-bin``, which this
command installs when it is missing)::

    .venv/bin/python -m bench.fcsolve_race --deals 500 --cells 4 --jobs 2
    .venv/bin/python -m bench.fcsolve_race --deals 200 --cells 2
    .venv/bin/python -m bench.deal_statistics report     # the tables land in docs/statistics.md

The documents' group formula, ``(free cells + 1) × 2^(empty columns)``, lies between
fc-solve's ``seahaven`` preset (runs of at most free cells + 1) and ``relaxed_seahaven``
(unlimited runs). So every deal fc-solve solves under the strict preset must be won by ours,
and every deal it proves unsolvable under the relaxed preset must be a proved no-win for ours.
Deals are drawn at random (fixed seed) from all 2^35 numbers; both solvers get one deal per
process at a time, timed side by side.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from app.engine.codes import MAX_NUMBER, DealCode
from app.engine.seahaven import deal_position
from app.engine.seahaven.solver import SOLVE_BUDGET, solve_code

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "fcsolve-race.jsonl"
FC_ITERATIONS = 2_000_000
FC_TIMEOUT_S = 120


def board_text(code: DealCode) -> str:
    """The deal in fc-solve's board format: foundations, free cells, then columns bottom → top."""
    position = deal_position(code)

    def card(c: object) -> str:
        return str(c).replace("10", "T")

    lines = ["Founds: H-0 C-0 D-0 S-0"]
    lines.append("FC: " + " ".join(card(c) if c else "-" for c in position.cells))
    lines += [" ".join(card(c) for c in column) for column in position.columns]
    return "\n".join(lines) + "\n"


def fc_solve(code: DealCode, preset: str) -> tuple[str, float]:
    command = ["fc-solve", "-g", preset, "--freecells-num", str(code.cells), "-sel"]
    command += ["-mi", str(FC_ITERATIONS)]
    start = time.perf_counter()
    try:
        out = subprocess.run(
            command, input=board_text(code), capture_output=True, text=True, timeout=FC_TIMEOUT_S
        ).stdout
    except subprocess.TimeoutExpired:
        return "undecided", time.perf_counter() - start
    elapsed = time.perf_counter() - start
    if "This game is solveable" in out:
        return "won", elapsed
    if "Iterations count exceeded" in out:
        return "undecided", elapsed
    if "I could not solve this game" in out:
        return "no win", elapsed
    return "error", elapsed


def race_one(text: str) -> dict[str, Any]:
    code = DealCode.parse(text)
    start = time.perf_counter()
    ours = solve_code(code, SOLVE_BUDGET)
    ours_s = time.perf_counter() - start
    strict, strict_s = fc_solve(code, "seahaven")
    relaxed, relaxed_s = fc_solve(code, "relaxed_seahaven")
    return {
        "code": text,
        "cells": code.cells,
        "ours": ours.verdict.value,
        "ours_s": round(ours_s, 4),
        "strict": strict,
        "strict_s": round(strict_s, 4),
        "relaxed": relaxed,
        "relaxed_s": round(relaxed_s, 4),
    }


def ensure_fc_solve() -> None:
    if shutil.which("fc-solve"):
        return
    command = ["apt-get", "install", "-y", "-qq", "freecell-solver-bin"]
    if os.geteuid() != 0:
        command = ["sudo", "-n", *command]
    subprocess.run(["apt-get", "update", "-qq"] if os.geteuid() == 0 else ["true"], check=False)
    subprocess.run(command, check=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--cells", type=int, choices=[4, 2, 1], default=4)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args(argv)
    ensure_fc_solve()
    rng = random.Random(args.seed * 10 + args.cells)
    codes = [
        str(DealCode("SH", 1, f"C{args.cells}", rng.randrange(MAX_NUMBER + 1)))
        for _ in range(args.deals)
    ]
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    done = {json.loads(line)["code"] for line in RESULTS.open()} if RESULTS.exists() else set()
    todo = [code for code in codes if code not in done]
    print(f"{len(codes) - len(todo)} done, {len(todo)} to race with {args.jobs} processes")
    with RESULTS.open("a") as out, ProcessPoolExecutor(args.jobs) as pool:
        for i, row in enumerate(pool.map(race_one, todo), 1):
            out.write(json.dumps(row) + "\n")
            out.flush()
            if i % 50 == 0:
                print(f"  {i}/{len(todo)}", flush=True)


if __name__ == "__main__":
    main()
