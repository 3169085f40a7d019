"""A tap's CPU against the floors, in process, two checkouts side by side (A B A B …).

Run: ``.venv/bin/python -m bench.bench_ab [--baseline DIR] [--rounds 6] [--taps 400]
[--game half-moon] [--store memory:]``

One worker process per checkout, that checkout first on its path, kept for the whole run:
each round, each checkout in turn (the order swapped every round) runs a block of ``--taps``
calls of each kind, one ASGI call at a time (``bench/bench_tap.py``'s client, all middleware,
no HTTP server), so the machine's load falls on both alike: taps (a player selecting and
deselecting a card, every answer a partial answer), the project's floor route
(``app/web/play/floor.py``, answering the tap's bytes) and the minimal FastAPI app
(``bench/minimal_app.py``: a form POST with a cookie, the same bytes). Printed: each
checkout's medians of the blocks' median CPU µs, the ratios that do not depend on the
machine's load — taps ÷ minimal app (in requests a second: minimal CPU ÷ tap CPU) and taps ÷
floor, block by block — and the change ÷ the baseline, pair by pair. Without ``--baseline``
only this checkout is measured.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


async def _worker(game: str, store: str) -> None:
    """Serve blocks: read ``KIND N`` lines, answer each with the CPU ns of N calls (JSON)."""
    from app.config import Config
    from app.main import create_app
    from app.store import open_store
    from bench import minimal_app
    from bench.bench_tap import Client, _tap_session

    folder = Path(tempfile.mkdtemp(prefix="bench-ab-"))
    os.environ["SOLITAIRE_BENCH_FLOOR"] = str(folder)  # before the app: its floor route
    app = create_app(Config(rate_writes="1000000000/minute"), store=open_store(store))
    async with app.router.lifespan_context(app):
        client, path, body = await _tap_session(Client(app), game)
        answer = await client.call("POST", path, body, hx_request="true")
        (folder / f"{game}.html").write_bytes(answer)  # the floors answer a tap's bytes
        plain = Client(minimal_app.app)
        plain.cookie = b"sid=bench"
        calls = {
            "tap": (client, path, body),
            "floor": (client, f"/_bench/floor/{game}", body),
            "minimal": (plain, f"/_bench/floor/{game}", b"place=pile-1&card=AS&token=bench"),
        }
        print("ready", flush=True)
        for line in sys.stdin:
            kind, count = line.split()
            caller, where, form = calls[kind]
            cpus = []
            for _ in range(int(count)):
                cpu = time.process_time_ns()
                answer = await caller.call("POST", where, form, hx_request="true")
                cpus.append(time.process_time_ns() - cpu)
                assert b'hx-swap-oob="outerMorph"' in answer, answer[:300]
            print(json.dumps(cpus), flush=True)


KINDS = ("tap", "floor", "minimal")


class Side:
    """A checkout's worker process, kept for the whole run."""

    def __init__(self, checkout: Path, args: argparse.Namespace) -> None:
        env = {**os.environ, "PYTHONPATH": str(checkout)}
        command = [sys.executable, str(Path(__file__).resolve()), "--worker"]
        command += ["--game", args.game, "--store", args.store]
        self.process = subprocess.Popen(
            command, cwd=checkout, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        assert self.process.stdin
        assert self.process.stdout
        self.stdin, self.stdout = self.process.stdin, self.process.stdout
        while (line := self.stdout.readline()) and line.strip() != "ready":
            if not line:
                raise SystemExit("a worker failed to start")
        self.cpus: dict[str, list[int]] = {kind: [] for kind in KINDS}
        self.blocks: list[dict[str, float]] = []

    def block(self, calls: int) -> None:
        """One block of each kind; its medians kept for the pair-by-pair ratios."""
        medians = {}
        for kind in KINDS:
            self.stdin.write(f"{kind} {calls}\n")
            self.stdin.flush()
            cpus: list[int] = json.loads(self.stdout.readline())
            self.cpus[kind] += cpus
            medians[kind] = statistics.median(cpus)
        self.blocks.append(medians)

    def close(self) -> None:
        self.stdin.close()
        self.process.wait(timeout=60)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, default=None)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--taps", type=int, default=400)
    parser.add_argument("--game", default="half-moon")
    parser.add_argument("--store", default="memory:")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        asyncio.run(_worker(args.game, args.store))
        return
    checkouts = {"change": ROOT} if args.baseline is None else {"baseline": args.baseline}
    checkouts["change"] = ROOT
    sides = {name: Side(path, args) for name, path in checkouts.items()}
    print(f"load average {os.getloadavg()[0]:.1f}", flush=True)
    try:
        for round_ in range(args.rounds):
            order = list(sides) if round_ % 2 == 0 else list(reversed(sides))
            for name in order:
                sides[name].block(args.taps)
        loads = os.getloadavg()[0]
    finally:
        for side in sides.values():
            side.close()
    found = {name: side.blocks for name, side in sides.items()}
    print(
        f"\n{args.game}, store {args.store}, {args.rounds} blocks of {args.taps} calls of each"
        f" kind per checkout, in turn; load average at the end {loads:.1f}"
    )
    print("| checkout | tap µs | floor µs | minimal µs | taps ÷ minimal | taps ÷ floor |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, rounds in found.items():
        tap, floor, minimal = (
            statistics.median(r[k] for r in rounds) for k in ("tap", "floor", "minimal")
        )
        pairs_min = statistics.median(r["minimal"] / r["tap"] for r in rounds)
        pairs_floor = statistics.median(r["floor"] / r["tap"] for r in rounds)
        print(
            f"| {name} | {tap / 1000:,.0f} | {floor / 1000:,.0f} | {minimal / 1000:,.0f} |"
            f" {pairs_min:.2f} | {pairs_floor:.2f} |"
        )
    if "baseline" in found:
        ratios = sorted(
            c["tap"] / b["tap"] for b, c in zip(found["baseline"], found["change"], strict=True)
        )
        floors = sorted(
            c["floor"] / b["floor"] for b, c in zip(found["baseline"], found["change"], strict=True)
        )
        print(
            f"change ÷ baseline, pair by pair: taps {statistics.median(ratios):.3f}"
            f" ({ratios[0]:.3f}–{ratios[-1]:.3f}), floor {statistics.median(floors):.3f}"
            f" ({floors[0]:.3f}–{floors[-1]:.3f})"
        )


if __name__ == "__main__":
    main()
