"""Where a tap's microseconds go in a real server under load: py-spy over uvicorn while wrk taps.

Run: ``.venv/bin/python -m bench.bench_profile [--store sqlite|memory|redis] [--seconds 10]
[--rate 250] [--game half-moon] [--floor] [--top 25]`` (py-spy comes with the ``bench``
extra: ``pip install -e '.[bench]'``; it needs ptrace, which root has).

One uvicorn worker with ``scripts/run``'s options and the limits on but raised out of reach
(``bench/bench_http.py``'s ``RAISED``), 64 players tapping through ``wrk -t1 -c32`` with the
issue's pool script (every answer a followed partial 200). While wrk runs, ``py-spy record
--threads --idle --format raw`` samples the server's threads. Each sample of a thread that is
not waiting (:data:`IDLE`) is charged to the deepest frame of the code that owns the
request's path — ours (``app/``) or the stack's (uvicorn, Starlette, FastAPI, asyncio) — so
the time spent in a library (json, Jinja, pydantic, sqlite3) counts for whoever called it;
those owners are then grouped into the stages of a tap. Microseconds per tap = samples ÷
rate ÷ taps answered in the sampled seconds. Read on a quiet machine: a thread waiting for a
core looks busy to py-spy.

With ``--floor`` the same measurement drives the project's floor route instead of taps.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from bench.bench_http import (
    RAISED,
    RUN_ARGS,
    Load,
    open_sessions,
    refresh_versions,
    script,
    wrk,
)
from tests.system.servers import start_server

OWNERS: Final = re.compile(
    r"\((app/[^:]+|uvicorn/[^:]+|starlette/[^:]+|fastapi/[^:]+|asyncio/[^:]+):\d+\)$"
)
"""A frame of code that owns a part of the request's path (py-spy shortens file names to
the package part)."""

STAGES: Final = (
    ("the rate limit", r"app/store/ratelimit|app/web/dependencies\.py.*(limit|may_create)"),
    ("the store's calls on the loop", r"app/store/"),
    ("the rules engine", r"app/engine/"),
    (
        "the answer: places, info bar, live region",
        r"app/web/(board|views|render|htmx)|"
        r"app/web/(halfmoon|seahaven)/|place_html|_html |answer",
    ),
    ("the action: cache, decide, settle", r"app/web/actions|app/web/replay|app/web/screen"),
    ("the form, origin and token checks", r"read_form|guard_write|check_token|parse|Form"),
    ("the session cookie and page state", r"app/web/(sessions|context|codes|notices)"),
    ("our middleware (headers, gzip, errors)", r"app/web/middleware|app/server"),
    ("other app code", r"app/"),
    ("FastAPI routing and endpoint call", r"fastapi/"),
    ("Starlette requests, responses, middleware", r"starlette/"),
    ("uvicorn: HTTP parsing and the transport", r"uvicorn/"),
    ("asyncio: tasks, futures, scheduling", r"asyncio/"),
)
"""(stage, pattern on the owning frame), first match wins."""


def owner(stack: list[str]) -> str:
    """The deepest frame owning the request's path, or the leaf when none does."""
    for frame in reversed(stack):
        if OWNERS.search(frame):
            return frame
    return stack[-1] if stack else "?"


def stage_of(frame: str) -> str:
    for name, pattern in STAGES:
        if re.search(pattern, frame):
            return name
    return "elsewhere (interpreter, C libraries)"


IDLE: Final = re.compile(
    r"^(Runner\.run \(asyncio/runners|Condition\.wait|Event\.wait|_worker \(concurrent/"
    r"|GroupCommit\._write_batches|\S*select \(selectors|Thread\.run|_bootstrap)"
)
"""A thread's innermost Python frame while it waits in C: the event loop in uvloop's own
loop (waiting for sockets, or its C work: reads, writes, timers), a worker waiting for work,
the writer waiting for changes. ``py-spy --idle`` samples them; they are reported apart."""

UVLOOP: Final = "uvloop's own C loop (waiting for sockets, reading and writing them)"


def read_raw(path: Path) -> dict[str, collections.Counter[str]]:
    """Samples by thread name, then by owning frame (waits: :data:`UVLOOP` or ``idle``)."""
    threads: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for line in path.read_text().splitlines():
        stack_text, _, count = line.rpartition(" ")
        frames = stack_text.split(";")
        thread = re.sub(r"^thread \(\d+\): ", "", frames[0])
        leaf = frames[-1]
        if IDLE.match(leaf):
            key = UVLOOP if leaf.startswith("Runner.run") else "idle"
        else:
            key = owner(frames[1:])
        threads[thread][key] += int(count)
    return threads


def report(
    threads: dict[str, collections.Counter[str]], rate: int, taps: float, top: int
) -> Iterable[str]:
    per_tap = 1e6 / rate / taps
    loop = threads.get("MainThread", collections.Counter())
    stages: collections.Counter[str] = collections.Counter()
    for frame, n in loop.items():
        if frame != UVLOOP:
            stages[stage_of(frame)] += n
    busy = sum(stages.values())
    yield (
        f"event loop thread: {busy * per_tap:,.0f} µs per tap in Python"
        f" (+ {loop[UVLOOP] * per_tap:,.0f} in {UVLOOP})"
    )
    yield "| stage | µs per tap | share |"
    yield "|---|---:|---:|"
    for name, n in stages.most_common():
        yield f"| {name} | {n * per_tap:,.1f} | {n / busy:.0%} |"
    for thread, counts in sorted(threads.items()):
        if thread == "MainThread":
            continue
        working = {frame: n for frame, n in counts.items() if frame != "idle"}
        if sum(working.values()) * per_tap >= 5:
            yield f"thread {thread}: {sum(working.values()) * per_tap:,.0f} µs per tap, mostly:"
            for frame, n in collections.Counter(working).most_common(6):
                yield f"  {n * per_tap:7.1f}  {frame}"
    yield f"\ntop {top} owners on the event loop (µs per tap):"
    for frame, n in collections.Counter({k: v for k, v in loop.items() if k != UVLOOP}).most_common(
        top
    ):
        yield f"  {n * per_tap:7.1f}  {frame}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", choices=("sqlite", "memory", "redis"), default="sqlite")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--rate", type=int, default=250)
    parser.add_argument("--game", default="half-moon")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--floor", action="store_true", help="profile the floor route instead")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="bench-profile-"))
    floors = work / "floors"
    floors.mkdir()
    os.environ["SOLITAIRE_BENCH_FLOOR"] = str(floors)
    redis = None
    store = {"sqlite": str(work / "games.db"), "memory": "memory:"}.get(args.store, "")
    if args.store == "redis":
        from tests.store.redis_server import start_redis_server

        redis, store = start_redis_server(work)
    print(f"uptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    server = start_server(store, work, name="profiled", env=RAISED, args=RUN_ARGS)
    try:
        players = open_sessions(server, args.game, 2 * args.connections + 1)
        probe = players.pop()
        (floors / f"{args.game}.html").write_text(_answer(server, probe), "utf-8")
        run = script(players, 1, floor=args.floor, gzip=False)
        refresh_versions(server, players)
        wrk(server, run, 3, args.connections, 1)  # warm up
        refresh_versions(server, players)
        result: dict[str, Load] = {}
        driver = threading.Thread(
            target=lambda: result.setdefault(
                "load", wrk(server, run, args.seconds + 2, args.connections, 1)
            )
        )
        driver.start()
        time.sleep(1)
        raw = work / "profile.txt"
        subprocess.run(
            [
                str(Path(__file__).resolve().parents[1] / ".venv" / "bin" / "py-spy"),
                "record",
                "--pid",
                str(server.process.pid),
                "--duration",
                str(args.seconds),
                "--rate",
                str(args.rate),
                "--threads",
                "--idle",
                "--format",
                "raw",
                "--output",
                str(raw),
            ],
            check=True,
            capture_output=True,
        )
        driver.join()
    finally:
        server.stop()
        if redis is not None:
            redis.terminate()
    load = result["load"]
    what = "floor requests" if args.floor else "taps"
    print(
        f"{args.store}, {args.game}, {what}: {load.rps:,.0f} req/s, p50 {load.p50_ms:.1f} ms,"
        f" p99 {load.p99_ms:.1f} ms, faults {load.errors + load.whole + load.starved};"
        f" py-spy at {args.rate} Hz for {args.seconds} s"
    )
    for line in report(read_raw(raw), args.rate, load.rps * args.seconds, args.top):
        print(line)
    print(f"details in {work}")


def _answer(server: object, player: dict[str, str]) -> str:
    """A real tap answer's text (the floor answers its bytes)."""
    import httpx

    from bench.bench_http import FORM, HTMX

    url = server.url
    with httpx.Client(timeout=30) as client:
        headers = {**HTMX, "Cookie": player["cookie"], "Content-Type": FORM}
        headers["X-Board-Version"] = player["version"]
        return client.post(url + player["path"], content=player["body"], headers=headers).text


if __name__ == "__main__":
    main()
