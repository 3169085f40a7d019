"""What a game at the move cap costs to view, next to a fresh deal (issue 23 item 9).

For the baseline (``--baseline``: a git ref archived into the work folder, or a directory;
``none`` to skip) and for this checkout, side by side in one run: a real uvicorn (one worker,
``scripts/run``'s options, the SQLite store) holding one player's Seahaven game of 5,000 moves
(``MAX_RECORD_MOVES``: a card shuttled between two cells) and

1. the time of one page view of that game and of a fresh deal (``--views`` sequential GETs
   each, taken in turn, medians; the first view of the long game shown apart), and
2. ``GET /health`` latency (p50, p99, max over ``--seconds``) while ``--clients`` clients
   (default 16, the issue's) keep viewing the fresh deal, then the long game.

Before: every view replayed the 5,000 moves through the rules on the event loop (16 ms a GET
on a quiet machine against 1.4 ms for a fresh deal; 16 clients put ``/health`` p50 at
826 ms). After: the first view of a worker replays it in a thread and caches the game; the
next views copy the cached game.

    .venv/bin/python -m bench.bench_long_game [--baseline main] [--views 30] [--seconds 8]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Final

import httpx

from bench.bench_http import RUN_ARGS, checkout
from tests.system.servers import ROOT, Server, start_server

CODE = "SH1-C4-AAAAAJ2"
FRESH = "/seahaven/SH1-C4-AAAAAJ3"
"""A deal nobody played: the short game the long one is compared with."""


def long_record() -> tuple[dict[str, object], int]:
    from app.engine.codes import DealCode
    from app.engine.game import MAX_RECORD_MOVES
    from app.engine.seahaven import Move, Seahaven

    game = Seahaven(DealCode.parse(CODE))
    for i in range(MAX_RECORD_MOVES):
        game.play(Move(10, 1, 12) if i % 2 == 0 else Move(12, 1, 10), 0)
    return game.to_record(), game.move_count


def player_of(root: Path) -> str:
    """The long game's player: an id of the kind the checkout at ``root`` issues (43
    characters once ids are signed, 32 before)."""
    return "B" * (43 if (root / "app" / "services" / "signing.py").exists() else 32)


SEED: Final = """
import json, sys
from app.clock import now_ms
from app.store import StoredGame
from app.store.sync import SyncStore
from app.store.sqlite import SQLiteStore
db, sid, code, moves = sys.argv[1:]
row = StoredGame(code, json.load(sys.stdin), "playing", 0, int(moves), now_ms())
store = SyncStore(SQLiteStore(db))
try:
    store.change_game(sid, code, lambda s, g: (row, None))
finally:
    store.close()
"""
"""Writes the long game with the store of the checkout it runs in: each side's own schema
(a baseline from before a migration refuses a file a newer store made)."""


def seed(db: Path, sid: str, root: Path = ROOT) -> None:
    """The long game (this checkout's record: the format both sides read), written into
    ``db`` by the checkout at ``root``."""
    record, moves = long_record()
    python = root / ".venv" / "bin" / "python"
    command = [str(python if python.exists() else sys.executable), "-c", SEED]
    subprocess.run(
        [*command, str(db), sid, CODE, str(moves)],
        input=json.dumps(record).encode(),
        cwd=root,
        check=True,
    )


def cookie(sid: str, db: Path) -> str:
    """The cookie that carries ``sid``: signed with the secret kept beside the store when the
    checkout signs ids (43 characters), the bare id otherwise."""
    if len(sid) != 43:
        return sid
    from app.services.signing import Signer
    from app.store.secretfile import kept_secret

    return f"{sid}.{Signer(kept_secret(Path(f'{db}.secret'))).sign('sid', sid)}"


def view_times(server: Server, value: str, paths: tuple[str, ...], n: int) -> list[list[float]]:
    """Milliseconds of ``n`` views of each of ``paths``, taken in turn (one of each, then
    again), so a change in the machine's load weighs on every path alike."""
    times: list[list[float]] = [[] for _ in paths]
    with httpx.Client(base_url=server.url, timeout=60, cookies={"sid": value}) as client:
        for _ in range(n):
            for path, taken in zip(paths, times, strict=True):
                start = time.perf_counter()
                response = client.get(path)
                taken.append((time.perf_counter() - start) * 1000)
                assert response.status_code == 200, response.status_code
    return times


def health_under_load(
    server: Server, value: str, path: str, clients: int, seconds: float
) -> list[float]:
    stop = threading.Event()

    def view() -> None:
        with httpx.Client(base_url=server.url, timeout=60, cookies={"sid": value}) as client:
            while not stop.is_set():
                client.get(path)

    threads = [threading.Thread(target=view, daemon=True) for _ in range(clients)]
    for t in threads:
        t.start()
    time.sleep(1)  # every client under way
    checks: list[float] = []
    with httpx.Client(base_url=server.url, timeout=60) as client:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            start = time.perf_counter()
            client.get("/health")
            checks.append((time.perf_counter() - start) * 1000)
            time.sleep(0.05)
    stop.set()
    for t in threads:
        t.join(60)
    return checks


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="main")
    parser.add_argument("--views", type=int, default=30)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=8.0)
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="bench-long-"))
    here = Path(__file__).resolve().parents[1]
    sides = [("change", here)]
    if args.baseline != "none":
        sides.insert(0, (f"baseline {args.baseline}", checkout(args.baseline, work)))
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    rows = []
    for name, root in sides:
        db = work / f"{name.split()[0]}.db"
        sid = player_of(root)
        seed(db, sid, root)
        server = start_server(str(db), work, name=name.split()[0], root=root, args=RUN_ARGS)
        try:
            value = cookie(sid, db)
            fresh, long = view_times(server, value, (FRESH, f"/seahaven/{CODE}"), args.views)
            checks = [
                health_under_load(server, value, path, args.clients, args.seconds)
                for path in (FRESH, f"/seahaven/{CODE}")
            ]
        finally:
            server.stop()
        rows.append((name, fresh, long, checks))
    print(
        f"{'checkout':<18} {'fresh deal p50':>14} {'5,000 moves p50':>15} {'first view':>10}"
        f" {'ratio':>6}   /health p50 / p99 / max with {args.clients} viewers of"
    )
    for name, fresh, long, checks in rows:
        f50, l50 = statistics.median(fresh), statistics.median(long)
        shown = [f"{p(c, 0.5):.1f} / {p(c, 0.99):.1f} / {max(c):.1f} ms" for c in checks]
        print(
            f"{name:<18} {f50:11.2f} ms {l50:12.2f} ms {long[0]:7.1f} ms {l50 / f50:6.2f}"
            f"   the fresh deal {shown[0]}; the long game {shown[1]}"
        )
    print(f"load average at the end: {os.getloadavg()[0]:.1f}; details in {work}")


if __name__ == "__main__":
    main()
