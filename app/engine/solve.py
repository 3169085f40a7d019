"""Command line: ``python -m app.engine.solve CODE [--budget N]`` prints a verdict and its line.

A tool for analysis and tests. The game screens never offer it.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from app.engine.codes import DealCode, DealCodeError


def _half_moon(code: DealCode, budget: int | None) -> tuple[str, int, list[str]]:
    from app.engine import halfmoon
    from app.engine.halfmoon import solver as halfmoon_solver

    position = halfmoon.deal(code)
    result = halfmoon_solver.solve(position, budget or halfmoon_solver.DEFAULT_BUDGET)
    steps = []
    for removal in result.line:
        steps.append(" + ".join(f"{halfmoon.place_name(p)} {position.top(p)}" for p in removal))
        position = halfmoon.apply_move(position, removal)
    return result.verdict.value, result.nodes, steps


def _seahaven(code: DealCode, budget: int | None) -> tuple[str, int, list[str]]:
    from app.engine import seahaven
    from app.engine.seahaven import solver as seahaven_solver

    result = seahaven_solver.solve_code(code, budget or seahaven_solver.SOLVE_BUDGET)
    steps = seahaven_solver.describe_line(seahaven.deal_position(code), result.line)
    return result.verdict.value, result.nodes, steps


SOLVERS = {"HM": _half_moon, "SH": _seahaven}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.engine.solve", description=__doc__)
    parser.add_argument("code", help="a deal code, e.g. HM1-N-AAAAAAB or SH1-C4-AAAAAJ2")
    parser.add_argument("--budget", type=int, help="positions to expand before giving up")
    args = parser.parse_args(argv)
    try:
        code = DealCode.parse(args.code)
    except DealCodeError as error:
        print(error, file=sys.stderr)
        return 2
    started = time.perf_counter()
    verdict, nodes, steps = SOLVERS[code.game](code, args.budget)
    seconds = time.perf_counter() - started
    summary = f"in {len(steps)} moves" if verdict == "won" else ""
    print(f"{code}: {verdict} {summary} ({nodes} positions, {seconds:.2f} s)".replace("  ", " "))
    for number, step in enumerate(steps, 1):
        print(f"{number:3}. {step}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
