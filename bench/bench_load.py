"""The load profile of real play (``bench/locustfile.py``) run headless, with its figures:
requests per second, p50 / p95 / p99 per action, failures, and the games reloaded after the run
(lost, desynced).

Run: ``.venv/bin/python -m bench.bench_load [--setup one|two|both] [--users 40] [--seconds 60]
[--workers 2] [--pace 0.8]``

- ``one``: one instance (``--workers`` uvicorn workers) on a SQLite file;
- ``two``: two instances on one Redis (a ``redis-server`` of its own, no persistence), every
  request going to the next instance in turn (``SOLITAIRE_LOCUST_HOSTS``): each game is
  played on both.

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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setup", choices=("one", "two", "both"), default="both")
    parser.add_argument("--users", type=int, default=40)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--pace", type=float, default=0.8)
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="bench-load-"))
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
