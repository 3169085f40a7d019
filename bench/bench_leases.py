"""What the analysis leases cost (issue 44): an analysis takes two leases before it starts and
releases them when it ends (four store writes, plus two renewals every 3.3 s while it runs).

Per store (SQLite on a temporary file, one Redis started for the run), rounds of: a lease
pair taken and dropped as an analysis does, then, side by side, one ``save_analysis`` (the
write every analysis made before): the medians and 99th percentiles of each, and their ratio.

    .venv/bin/python -m bench.bench_leases --rounds 2000
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from app.services.analyses import lease_names
from app.store.base import Store, StoredGame
from app.store.marks import Marks
from app.store.redis import RedisStore
from app.store.sqlite import SQLiteStore
from tests.store.redis_server import start_redis_server, stop_redis_server

RID = "Q" * 21 + "A"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def measure(store: Store, rounds: int) -> tuple[list[float], list[float]]:
    code = "HM1-N-AAAAAAB"
    record = {"code": code, "moves": "ae", "clock": [4000, None]}
    row = StoredGame(code, record, "stuck", 10, 1, 1, Marks(replay=RID), kind="HM")
    await store.change_game("p", code, lambda _s, _g: (row, None))
    names = lease_names("p", "198.51.100.7")
    leases, saves = [], []
    for n in range(rounds):
        started = time.perf_counter()
        for name in names:
            assert await store.take_lease(name, f"h{n}", 10_000)
        for name in names:
            assert await store.drop_lease(name, f"h{n}")
        leases.append(time.perf_counter() - started)
        started = time.perf_counter()
        await store.save_analysis(RID, {"version": 1, "kind": "undecided", "n": n})
        saves.append(time.perf_counter() - started)
    return leases, saves


def report(name: str, leases: list[float], saves: list[float]) -> None:
    lm, sm = statistics.median(leases) * 1e3, statistics.median(saves) * 1e3
    print(
        f"{name}: two leases taken and dropped p50 {lm:.3f} ms p99"
        f" {percentile(leases, 0.99) * 1e3:.3f} ms; one save_analysis p50 {sm:.3f} ms p99"
        f" {percentile(saves, 0.99) * 1e3:.3f} ms; ratio of medians {lm / sm:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        sqlite = SQLiteStore(str(Path(work) / "games.db"))
        report("sqlite", *asyncio.run(measure(sqlite, args.rounds)))
        process, url = start_redis_server(Path(work) / "redis")
        try:
            redis = RedisStore(url)
            report("redis", *asyncio.run(measure(redis, args.rounds)))
        finally:
            stop_redis_server(process)


if __name__ == "__main__":
    main()
