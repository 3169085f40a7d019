"""What a tap costs Redis, and what a player costs its memory: the figures that say when one
Redis is not enough (``docs/deployment.md``, *Past one Redis*).

Run: ``.venv/bin/python -m bench.bench_redis [--players 2000] [--taps 20000] [--cluster]``

Starts its own ``redis-server`` (no persistence; ``--cluster``: a three-primary cluster too)
and drives the store directly on one event loop, as a worker does: each player opens a Half
Moon deal and plays a few removals (a realistic record, counted statistics), then taps go
round the players (select / deselect a card: one ``MGET`` and one script each). Prints, per
server: the Redis CPU per tap (``INFO cpu`` of every node, divided by the taps), the
microseconds per call of the two commands a tap sends (``INFO commandstats``), this process's
CPU per tap (the client's share), and ``used_memory`` per player.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import redis

from app.clock import now_ms
from app.engine.codes import DealCode
from app.engine.halfmoon import HalfMoon
from app.engine.halfmoon.solver import solve
from app.store import SessionData, StoredGame
from app.store.redis import RedisStore
from tests.store.redis_server import start_redis_cluster, start_redis_server, stop_redis_server


def _records(moves: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A Half Moon game ``moves`` removals in, with pile 1's top card selected and not."""
    code = DealCode.parse("HM1-N-AAAAAAB")
    game = HalfMoon(code)
    for removal in solve(game.position).line[:moves]:
        for place in removal:
            game.tap(place, game.position.top(place))
    plain = game.to_record()
    game.tap(0, game.position.top(0))
    return plain, game.to_record()


def _nodes(url: str) -> list[redis.Redis]:
    if not url.startswith("redis+cluster://"):
        return [redis.Redis.from_url(url)]
    hosts = url.removeprefix("redis+cluster://").split(",")
    return [redis.Redis(host=h.rsplit(":", 1)[0], port=int(h.rsplit(":", 1)[1])) for h in hosts]


def _cpu(nodes: list[redis.Redis]) -> float:
    return sum(
        float(n.info("cpu")["used_cpu_user"]) + float(n.info("cpu")["used_cpu_sys"]) for n in nodes
    )


def _calls(nodes: list[redis.Redis], name: str) -> tuple[int, float]:
    calls, usec = 0, 0.0
    for node in nodes:
        stats: dict[str, Any] = node.info("commandstats").get(f"cmdstat_{name}", {})
        calls += int(stats.get("calls", 0))
        usec += float(stats.get("usec", 0))
    return calls, usec


def measure(label: str, url: str, players: int, taps: int) -> None:
    store = RedisStore(url)
    nodes = _nodes(url)
    plain, selected = _records(6)
    code = "HM1-N-AAAAAAB"
    memory_before = sum(int(n.info("memory")["used_memory"]) for n in nodes)

    def row(record: dict[str, Any], at: int) -> Callable[..., tuple[StoredGame, None]]:
        game = StoredGame(code, record, "playing", 12, 6, at, kind="HM")  # counted, as a tap is
        return lambda _session, _old: (game, None)

    async def run() -> tuple[float, float, float, int, float]:
        for i in range(players):
            await store.save_session(f"p{i}", SessionData("tok"))
            await store.change_game(f"p{i}", code, row(plain, now_ms()))
        memory = sum(int(n.info("memory")["used_memory"]) for n in nodes)
        for node in nodes:
            node.config_resetstat()
        cpu0, own0, wall0 = _cpu(nodes), time.process_time(), time.perf_counter()
        for i in range(taps):
            record = selected if (i // players) % 2 == 0 else plain
            await store.change_game(f"p{i % players}", code, row(record, now_ms()))
        cpu1, own1, wall1 = _cpu(nodes), time.process_time(), time.perf_counter()
        await store.close()
        return cpu1 - cpu0, own1 - own0, wall1 - wall0, memory, 0.0

    redis_cpu, own_cpu, wall, memory, _ = asyncio.run(run())
    mget, mget_us = _calls(nodes, "mget")
    evalsha, evalsha_us = _calls(nodes, "evalsha")
    print(
        f"{label}: {taps} taps over {players} players in {wall:.1f} s;"
        f" Redis CPU {redis_cpu / taps * 1e6:.0f} us a tap"
        f" (MGET {mget_us / max(1, mget):.1f} us, script {evalsha_us / max(1, evalsha):.1f} us"
        f" a call), this process {own_cpu / taps * 1e6:.0f} us a tap;"
        f" memory {(memory - memory_before) / players:.0f} bytes a player"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--taps", type=int, default=20000)
    parser.add_argument("--cluster", action="store_true", help="a three-primary cluster too")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="bench-redis-"))
    process, url = start_redis_server(work / "one")
    try:
        measure("one Redis", url, args.players, args.taps)
    finally:
        stop_redis_server(process)
    if args.cluster:
        cluster = start_redis_cluster(work / "cluster")
        try:
            measure("cluster of 3", cluster.url, args.players, args.taps)
        finally:
            cluster.stop()


if __name__ == "__main__":
    main()
