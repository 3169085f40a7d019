"""Pages side by side with another commit (issue 48 item 1): each page's cost here against a
baseline checkout, A B A B, pair by pair.

Run: ``.venv/bin/python -m bench.bench_pages [--baseline 267c4d4 [--baseline REF …]]
[--rounds 7] [--requests 40]``

``--baseline``: a git ref (archived into the work folder, as ``bench_http`` does) or a
directory (``git worktree add /tmp/pages-base 267c4d4``); given again, another baseline (the
commit before a change: before and after side by side in one run). A is a baseline, B this
checkout; each round measures every baseline and then this checkout.
Each runs one uvicorn worker with ``scripts/run``'s options (``bench_http.RUN_ARGS``), the
SQLite store as shipped (a file of its own per checkout) and the limits on (raised out of
reach: every request comes from 127.0.0.1). Before its server starts, each store is filled by
that checkout's own code (``bench/bench_replay.py``'s ``fill``: the player's won Half Moon and
Seahaven games with their replays) plus one game in progress per game (the first moves of
its solver's line), so each page is drawn the way its checkout draws it.

The pages, all with the player's cookie, over keep-alive, one request at a time: the home
page, ``/stats``, each game's fresh deal and its game in progress, and a replay step of
each game (a step drawn anew for every request). Every page is asked for ``--warm`` times
before the rounds. In each round A and then B ask ``--requests`` times for every page (the
pages one after the other); a round's figures per page are the server's CPU time per request
(all its threads, from ``/proc/PID/task/*/schedstat``: what a worker spends, and steady on a
loaded machine) and the median of the requests' times as the client sees them. Printed per
page: the medians over rounds of A and of B, and the ratio B ÷ A taken round by round (its
median, and its lowest and highest in brackets). Read the CPU ratio; the times' ratio needs a
quiet machine.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import httpx

from bench.bench_http import RAISED, RUN_ARGS, checkout
from bench.bench_replay import timed
from tests.system.servers import ROOT, Server, start_server

SID = "B" * 32
"""``bench_replay``'s player: its won games and replays belong to this session."""

REPLAYS = {"Half Moon": "H" * 22, "Seahaven": "S" * 22}
IN_PROGRESS = {"half-moon": "HM1-N-AAAAAAC", "seahaven": "SH1-C4-AAAAAJ3"}
FRESH = {"half-moon": "HM1-N-AAAAAAD", "seahaven": "SH1-C4-AAAAAAB"}
MOVES_IN = 12
"""Moves of the solver's line played in a game in progress."""

FILL = """
import json, sys
from app.clock import now_ms
from app.engine.codes import DealCode
from app.engine.halfmoon import HalfMoon, deal
from app.engine.halfmoon.solver import solve
from app.engine.seahaven import Seahaven
from app.engine.seahaven.solver import solve_code
from app.store import StoredGame
from app.store.sqlite import SQLiteStore
from bench import bench_replay

path, sid, hm, sh, count = sys.argv[1:6]
steps = bench_replay.fill(path)
try:
    from app.store.sync import SyncStore
    store = SyncStore(SQLiteStore(path))
except ImportError:
    store = SQLiteStore(path)
hm, sh = DealCode.parse(hm), DealCode.parse(sh)
for game, line in ((HalfMoon(hm), solve(deal(hm)).line), (Seahaven(sh), solve_code(sh).line)):
    line = list(line)[: int(count)]
    assert len(line) == int(count), "the deal's line is too short"
    for i, move in enumerate(line):
        game.play(move, now=1_000 + i)
    row = StoredGame(str(game.code), game.to_record(), "playing", game.score, game.move_count,
                     now_ms())
    store.change_game(sid, str(game.code), lambda _s, _g, row=row: (row, None))
store.close()
print(json.dumps(steps))
"""
"""Run in each checkout's own interpreter and code: fills its store; prints the replays'
move counts."""


def fill(root: Path, db: Path) -> dict[str, int]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    command = [sys.executable, "-c", FILL, str(db), SID, IN_PROGRESS["half-moon"]]
    command += [IN_PROGRESS["seahaven"], str(MOVES_IN)]
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def pages(steps: dict[str, int], draw: random.Random) -> dict[str, Callable[[], str]]:
    def step(name: str, key: str) -> Callable[[], str]:
        return lambda: f"/replay/{REPLAYS[name]}?step={draw.randrange(steps[key] + 1)}"

    return {
        "home page": lambda: "/",
        "/stats": lambda: "/stats",
        "Half Moon, fresh deal": lambda: f"/half-moon/{FRESH['half-moon']}",
        "Half Moon, in progress": lambda: f"/half-moon/{IN_PROGRESS['half-moon']}",
        "Seahaven, fresh deal": lambda: f"/seahaven/{FRESH['seahaven']}",
        "Seahaven, in progress": lambda: f"/seahaven/{IN_PROGRESS['seahaven']}",
        "replay step, Half Moon": step("Half Moon", "hm"),
        "replay step, Seahaven": step("Seahaven", "sh"),
    }


def cpu_ns(pid: int) -> int:
    """The CPU time of all the process's threads so far, in nanoseconds (the scheduler's
    count: exact, where the machine's load makes the wall clock drift)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):  # a thread ended
            total += int((task / "schedstat").read_text().split()[0])
    return total


def one_round(
    server: Server, urls: dict[str, Callable[[], str]], requests: int
) -> dict[str, tuple[float, float]]:
    """Each page ``requests`` times in a row: per page, the median time of a request
    (client's wall clock) and the server's CPU time per request, in ms."""
    found: dict[str, tuple[float, float]] = {}
    pid = server.process.pid
    with httpx.Client(base_url=server.url, cookies={"sid": SID}, timeout=30) as client:
        for name, url in urls.items():
            before = cpu_ns(pid)
            times = [timed(client, url()) for _ in range(requests)]
            cpu = (cpu_ns(pid) - before) / requests / 1e6
            found[name] = (statistics.median(times), cpu)
    return found


Round = dict[str, tuple[float, float]]


def report(names: list[str], a: list[Round], b: list[Round], labels: tuple[str, str]) -> list[str]:
    """Per page, for the server's CPU time per request and for the client's time: the
    medians over rounds of A and B, and B ÷ A round by round (median, range)."""
    lines = [
        "| page | A CPU ms | B CPU ms | CPU B ÷ A | A ms | B ms | time B ÷ A |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    lines[0] = lines[0].replace("A CPU", f"A ({labels[0]}) CPU").replace("B CPU", "B (this) CPU")
    for name in names:
        cells = []
        for which in (1, 0):
            ratios = [y[name][which] / x[name][which] for x, y in zip(a, b, strict=True)]
            cells.append(
                f"{statistics.median(r[name][which] for r in a):.2f}"
                f" | {statistics.median(r[name][which] for r in b):.2f}"
                f" | {statistics.median(ratios):.2f} ({min(ratios):.2f}–{max(ratios):.2f})"
            )
        lines.append(f"| {name} | {' | '.join(cells)} |")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--baseline",
        action="append",
        help="a git ref or a directory (267c4d4 when none); again for another baseline, each"
        " measured in turn with this checkout and compared with it",
    )
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--requests", type=int, default=40, help="per page and round")
    parser.add_argument("--warm", type=int, default=10, help="requests per page before")
    parser.add_argument("--only", help="comma-separated page names (default: all)")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="bench-pages-"))
    baselines = args.baseline or ["267c4d4"]
    roots = {f"A{i}": checkout(ref, work) for i, ref in enumerate(baselines)} | {"B": ROOT}
    servers: dict[str, Server] = {}
    urls: dict[str, dict[str, Callable[[], str]]] = {}
    print(f"uptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    try:
        for side, root in roots.items():
            db = work / f"{side}.db"
            steps = fill(root, db)
            env = {**RAISED, "PYTHONPATH": str(root)}
            servers[side] = start_server(
                str(db), work, name=f"pages-{side}", env=env, root=root, args=RUN_ARGS
            )
            urls[side] = pages(steps, random.Random(48))
            if args.only:
                wanted = set(args.only.split(","))
                urls[side] = {k: v for k, v in urls[side].items() if k in wanted}
            one_round(servers[side], urls[side], args.warm)
        results: dict[str, list[Round]] = {side: [] for side in roots}
        loads = []
        for number in range(args.rounds):
            for side in roots:
                results[side].append(one_round(servers[side], urls[side], args.requests))
            loads.append(os.getloadavg()[0])
            print(f"round {number + 1} of {args.rounds}, load average {loads[-1]:.1f}", flush=True)
    finally:
        for server in servers.values():
            server.stop()
    print(
        f"\n{args.rounds} rounds {' '.join(roots)}, {args.requests} requests per page and round"
        f" (keep-alive, one at a time), one uvicorn worker each; load average"
        f" {statistics.median(loads):.1f} ({min(loads):.1f}–{max(loads):.1f})\n"
    )
    for i, ref in enumerate(baselines):
        print(f"A = {ref}, B = this checkout")
        for line in report(list(urls["B"]), results[f"A{i}"], results["B"], (ref, "this")):
            print(line)
        print()
    print(f"details in {work}")


if __name__ == "__main__":
    main()
