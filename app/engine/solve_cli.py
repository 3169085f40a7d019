"""Command line: ``python -m app.engine.solve_cli CODE [--budget N]`` prints a verdict and its line.

A tool for analysis and tests. The game screens never offer it.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from app.engine.codes import DealCode, DealCodeError
from app.engine.games import FORMAT_HELP, game_for_code
from app.engine.solutions import Verdict


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.engine.solve_cli", description=__doc__)
    parser.add_argument("code", help="a deal code: " + FORMAT_HELP)
    parser.add_argument("--budget", type=int, help="positions to expand before giving up")
    args = parser.parse_args(argv)
    try:
        code = DealCode.parse(args.code)
    except DealCodeError as error:
        print(error, file=sys.stderr)
        return 2
    started = time.perf_counter()
    verdict, nodes, steps = game_for_code(code).solve(code, args.budget)
    seconds = time.perf_counter() - started
    summary = f"in {len(steps)} moves" if verdict is Verdict.WON else ""
    text = f"{code}: {verdict.value} {summary} ({nodes} positions, {seconds:.2f} s)"
    print(text.replace("  ", " "))
    for number, step in enumerate(steps, 1):
        print(f"{number:3}. {step}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
