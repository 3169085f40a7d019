"""Where the SQLite store's group-commit writer spends a tap, in process.

Run: ``.venv/bin/python -m bench.bench_writer [--players 32] [--taps 40] [--rounds 3]``

``players`` concurrent players (asyncio tasks calling the ASGI app, as ``bench_tap`` does),
each on its own deal, each selecting and deselecting one card ``taps`` times: the writer
gets batches as it does under wrk. Reported per tap (median of the rounds): the process's
CPU, the writer thread's CPU, and the writer's CPU split into its stages — the read (SELECT
+ JSON), the change callback, the write (JSON + upsert) and the rest of the batch (BEGIN,
savepoints, COMMIT, handing the results to the loop). The stages are timed by wrapping the
store's methods with ``time.thread_time_ns`` (the wrapping adds about 1 µs a call).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from app.main import create_app
from app.store import open_store
from app.store.sqlite import store as sqlite_store
from app.store.sqlite import writer as sqlite_writer
from bench.bench_http import _tap_fields
from bench.bench_tap import Client, _page_token

STAGES: dict[str, int] = defaultdict(int)
"""Writer-thread CPU nanoseconds by stage."""


def _timed(name: str, fn: Any) -> Any:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.thread_time_ns()
        try:
            return fn(*args, **kwargs)
        finally:
            STAGES[name] += time.thread_time_ns() - start

    return wrapper


def instrument() -> None:
    """Wrap the store's pieces; the callback is timed inside ``_apply``'s read-change-write."""
    cls = sqlite_store.SQLiteStore
    cls._read = staticmethod(_timed("read (SELECT + JSON)", cls._read))  # type: ignore[method-assign]
    writer = sqlite_writer.GroupCommit
    writer._commit_batch = _timed("whole batch", writer._commit_batch)  # type: ignore[method-assign]
    writer._write_loop = _timed("writer thread, all", writer._write_loop)  # type: ignore[method-assign]
    apply = cls._apply

    def _apply(self: Any, conn: Any, sid: str, code: str, change: Any) -> Any:
        return apply(self, conn, sid, code, _timed("change callback", change))

    cls._apply = _apply  # type: ignore[method-assign]
    dumps = sqlite_store.dumps
    sqlite_store.dumps = _timed("write (JSON)", dumps)  # type: ignore[assignment]


async def _round(game: str, players: int, taps: int, path: str) -> dict[str, float]:
    app = create_app(store=open_store(path))
    async with app.router.lifespan_context(app):
        store = app.state.store
        clients = []
        for number in range(players):
            client = Client(app)
            code, fields = _tap_fields(game, number)
            page = await client.call("GET", f"/{game}/{code}")
            body = f"{fields}&token={_page_token(page)}".encode()
            clients.append((client, f"/{game}/{code}/tap", body))
        for client, url, body in clients:  # the first tap writes the game: not measured
            await client.call("POST", url, body, hx_request="true")
            await client.call("POST", url, body, hx_request="true")
        STAGES.clear()
        batches, changes = getattr(store, "batches", 0), getattr(store, "batched_changes", 0)

        async def play(client: Client, url: str, body: bytes) -> None:
            for _ in range(taps):
                await client.call("POST", url, body, hx_request="true")

        cpu, wall = time.process_time_ns(), time.perf_counter_ns()
        await asyncio.gather(*(play(*c) for c in clients))
        cpu, wall = time.process_time_ns() - cpu, time.perf_counter_ns() - wall
        n = players * taps
        per = {name: value / n / 1000 for name, value in STAGES.items()}
        per["process CPU"] = cpu / n / 1000
        per["wall per tap"] = wall / n / 1000
        if hasattr(store, "batches"):
            done = max(1, store.batches - batches)
            per["changes per batch"] = (store.batched_changes - changes) / done
    # the writer thread has ended (the store closed): its whole CPU is counted now
    per["writer thread, all"] = STAGES["writer thread, all"] / n / 1000
    return per


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=32)
    parser.add_argument("--taps", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--memory", action="store_true", help="also the memory store")
    args = parser.parse_args(argv)
    # as bench_http's servers: the limits would refuse one address's hundreds of taps
    os.environ["SOLITAIRE_RATE_WRITES"] = os.environ["SOLITAIRE_RATE_NEW"] = "off"
    instrument()
    work = Path(tempfile.mkdtemp(prefix="bench-writer-"))
    print(f"load average {os.getloadavg()[0]:.1f}, threads {threading.active_count()}")
    for game in ("half-moon", "seahaven"):
        for kind in ("sqlite", "memory") if args.memory else ("sqlite",):
            results: dict[str, list[float]] = defaultdict(list)
            for number in range(args.rounds):
                path = str(work / f"{game}{number}.db") if kind == "sqlite" else "memory:"
                per = asyncio.run(_round(game, args.players, args.taps, path))
                for name, value in per.items():
                    results[name].append(value)
            print(f"{game}, {kind}: µs per tap, median of {args.rounds} rounds")
            for name, values in results.items():
                print(f"  {name:26} {statistics.median(values):8.1f}")


if __name__ == "__main__":
    main()
