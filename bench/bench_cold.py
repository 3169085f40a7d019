"""The first requests after a worker starts (issue 48 item 2): a fresh ``uvicorn`` (memory store)
per round, each page asked for twice, the game pages' first request against the first request
of another deal in the same process (a warm process, a page never drawn before) and against the
same page again.

    .venv/bin/python -m bench.bench_cold --rounds 7

Prints each page's first and second time per round and the medians and ratios; ``--baseline DIR``
runs a checkout of another commit (``git worktree add DIR COMMIT``) in turn, A B A B.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

PATHS = (
    "/seahaven/SH1-C4-AAAAAAB",
    "/seahaven/SH1-C4-AAAAAAC",
    "/half-moon/HM1-N-AAAAAAB",
    "/half-moon/HM1-N-AAAAAAC",
    "/",
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def one_round(checkout: Path) -> dict[str, tuple[float, float]]:
    """A fresh server in ``checkout``; each path's first and second request, in ms."""
    port = free_port()
    env = {**os.environ, "SOLITAIRE_STORE": "memory:", "PYTHONPATH": str(checkout)}
    python = checkout / ".venv" / "bin" / "python"
    command = [str(python if python.exists() else sys.executable), "-m", "uvicorn"]
    command += ["app.main:app", "--port", str(port), "--no-access-log"]
    server = subprocess.Popen(
        command, cwd=checkout, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        url = f"http://127.0.0.1:{port}"
        for _ in range(600):  # the lifespan's warm-up runs before the first answer
            try:
                httpx.get(f"{url}/health", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        times = {}
        with httpx.Client(base_url=url) as client:
            for path in PATHS:
                pair = []
                for _ in range(2):
                    started = time.perf_counter()
                    client.get(path).raise_for_status()
                    pair.append((time.perf_counter() - started) * 1000)
                times[path] = (pair[0], pair[1])
        return times
    finally:
        server.terminate()
        server.wait()


def report(name: str, rounds: list[dict[str, tuple[float, float]]]) -> None:
    print(f"== {name}: {len(rounds)} fresh servers, ms (median of first, median of second)")
    for path in PATHS:
        first = statistics.median(r[path][0] for r in rounds)
        again = statistics.median(r[path][1] for r in rounds)
        print(f"{path:28} first {first:7.1f}  again {again:6.1f}  first/again {first / again:5.2f}")
    for game, other in ((PATHS[0], PATHS[1]), (PATHS[2], PATHS[3])):
        ratios = [r[game][0] / r[other][0] for r in rounds]
        print(f"{game:28} first ÷ first page of another deal: {statistics.median(ratios):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--baseline", type=Path, help="a checkout of another commit")
    args = parser.parse_args()
    here = Path(__file__).resolve().parents[1]
    ours, theirs = [], []
    for _ in range(args.rounds):
        ours.append(one_round(here))
        if args.baseline:
            theirs.append(one_round(args.baseline.resolve()))
    report("this checkout", ours)
    if args.baseline:
        report(str(args.baseline), theirs)


if __name__ == "__main__":
    main()
