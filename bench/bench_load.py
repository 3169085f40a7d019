"""The load profile of real play (``bench/locustfile.py``) run headless, with its figures:
requests per second, p50 / p95 / p99 per action, failures, and the games reloaded after the run
(lost, desynced).

Run: ``.venv/bin/python -m bench.bench_load [--setup one|two|both] [--users 40] [--seconds 60]
[--workers 2] [--pace 0.8]``; how many players one worker serves:
``.venv/bin/python -m bench.bench_load --ramp 100,200,400,700,1000 [--pace 2] [--seconds 40]
[--p99 50]``

- ``one``: one instance (``--workers`` uvicorn workers) on a SQLite file;
- ``two``: two instances on one Redis (a ``redis-server`` of its own, no persistence), every
  request going to the next instance in turn (``SOLITAIRE_LOCUST_HOSTS``): each game is
  played on both.

- ``--ramp``: one uvicorn worker with ``scripts/run``'s options, the SQLite store and the rate
  limits on but raised out of reach (``bench/bench_http.py``'s ``RAISED``: every simulated
  player shares 127.0.0.1), and a run of the profile for each count of players in turn, at a
  human's pace (``--pace``, default 2 s between a player's actions); each count's tap p50 /
  p95 / p99 (the worse of the two games' taps), and the largest count whose tap p99 stays
  within ``--p99`` ms with no failure and no game lost or desynced. The ramp stops at the
  first count that misses.

Locust runs in its own process on the same machine: on a small machine the load generator
takes a share of the CPU the figures would otherwise show (``docs/performance.md``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from tests.store.redis_server import start_redis_server, stop_redis_server
from tests.system.servers import ROOT, Server, start_server


def _locust(
    hosts: list[str], users: int, seconds: int, pace: float, folder: Path
) -> dict[str, Any]:
    report = folder / "report.json"
    env = {
        **os.environ,
        "SOLITAIRE_LOCUST_PACE": str(pace),
        "SOLITAIRE_LOCUST_REPORT": str(report),
        "SOLITAIRE_LOCUST_HOSTS": ",".join(hosts),
        "PYTHONPATH": str(ROOT),
    }
    command = [sys.executable, "-m", "locust", "-f", "bench/locustfile.py", "--headless"]
    command += ["-u", str(users), "-r", str(max(1, users // 5)), "-t", f"{seconds}s"]
    command += ["--stop-timeout", "10", "--only-summary", "--host", hosts[0]]
    run = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    if not report.exists():
        raise RuntimeError(run.stderr[-3000:])
    figures: dict[str, Any] = json.loads(report.read_text())
    figures["exit_code"] = run.returncode
    return figures


def _print(title: str, figures: dict[str, Any]) -> None:
    print(f"\n{title}")
    print(
        f"  {figures['requests']} requests, {figures['requests_per_s']} /s, failures"
        f" {figures['failures']}; all: p50 {figures['p50_ms']} ms, p95 {figures['p95_ms']} ms,"
        f" p99 {figures['p99_ms']} ms"
    )
    for name, entry in figures["actions"].items():
        print(
            f"  {name:16} {entry['requests']:6}  p50 {entry['p50_ms']:5} ms  p95"
            f" {entry['p95_ms']:5} ms  p99 {entry['p99_ms']:5} ms  failures {entry['failures']}"
        )
    print(
        f"  games reloaded {figures['games']}: lost {figures['lost']}, desynced"
        f" {figures['desynced']}, in flight {figures['in_flight']} (exit {figures['exit_code']})"
    )


def ramp(counts: list[int], seconds: int, pace: float, bound: float, folder: Path) -> None:
    """The profile at each count of players against one worker (``--ramp``)."""
    from bench.bench_http import RAISED, RUN_ARGS

    server = start_server(
        str(folder / "ramp.db"), folder, workers=1, name="ramp", env=RAISED, args=RUN_ARGS
    )
    best = None
    print(f"one worker, SQLite, limits on (out of reach), a player's action every {pace} s\n")
    print(
        "| players | requests/s | tap p50 / p95 / p99 ms | all p99 ms | failures"
        " | lost, desynced | load avg |"
    )
    print("|---:|---:|---|---:|---:|---|---:|")
    try:
        for users in counts:
            step = folder / f"ramp-{users}"
            step.mkdir()
            figures = _locust([server.url], users, seconds, pace, step)
            taps = [entry for name, entry in figures["actions"].items() if name.endswith(" tap")]
            worst = {k: max(entry[k] for entry in taps) for k in ("p50_ms", "p95_ms", "p99_ms")}
            sound = not figures["failures"] and not figures["lost"] and not figures["desynced"]
            print(
                f"| {users} | {figures['requests_per_s']} | {worst['p50_ms']} /"
                f" {worst['p95_ms']} / {worst['p99_ms']} | {figures['p99_ms']} |"
                f" {figures['failures']} of {figures['requests']} |"
                f" {figures['lost']}, {figures['desynced']} | {os.getloadavg()[0]:.1f} |",
                flush=True,
            )
            if not sound or worst["p99_ms"] > bound:
                break
            best = users
    finally:
        server.stop()
    print(f"\nthe most players one worker served with tap p99 ≤ {bound:g} ms: {best or 'none'}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setup", choices=("one", "two", "both"), default="both")
    parser.add_argument("--users", type=int, default=40)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--pace", type=float, default=None, help="seconds between actions (0.8; --ramp: 2)"
    )
    parser.add_argument("--ramp", help="counts of players, comma-separated: one worker")
    parser.add_argument("--p99", type=float, default=50.0, help="(--ramp) the tap p99 bound, ms")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="bench-load-"))
    if args.ramp:
        counts = [int(count) for count in args.ramp.split(",")]
        ramp(counts, args.seconds, args.pace or 2.0, args.p99, folder)
        return
    args.pace = args.pace or 0.8
    run = (args.users, args.seconds, args.pace)
    if args.setup in ("one", "both"):
        server = start_server(str(folder / "games.db"), folder, workers=args.workers, name="one")
        try:
            figures = _locust([server.url], *run, folder)
        finally:
            server.stop()
        _print(f"one instance, {args.workers} workers, SQLite, {args.users} players", figures)
    if args.setup in ("two", "both"):
        redis, url = start_redis_server(folder / "redis")
        servers: list[Server] = []
        try:
            for name in ("a", "b"):
                servers.append(start_server(url, folder, workers=args.workers, name=name))
            figures = _locust([s.url for s in servers], *run, folder)
        finally:
            for server in servers:
                server.stop()
            stop_redis_server(redis)
        _print(
            f"two instances on one Redis, {args.workers} workers each, {args.users} players",
            figures,
        )


if __name__ == "__main__":
    main()
