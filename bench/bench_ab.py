"""A tap's CPU against the floors, in process, two checkouts side by side (A B A B …).

Run: ``.venv/bin/python -m bench.bench_ab [--baseline DIR] [--rounds 6] [--taps 400]
[--game half-moon] [--store memory:]``

For each round and each checkout in turn (the baseline first in odd rounds, second in even
ones), a fresh Python process with that checkout first on its path measures, one ASGI call at a
time (``bench/bench_tap.py``'s client, all middleware, no HTTP server): the median CPU µs of
``--taps`` taps (a player selecting and deselecting a card, every answer a partial answer),
of as many calls of the project's floor route (``app/web/floor.py``), and of the minimal
FastAPI app (``bench/minimal_app.py``: a form POST with a cookie, static bytes). Printed: each
checkout's medians over the rounds, and the ratios that do not depend on the machine's load —
taps ÷ minimal app (in requests a second: minimal CPU ÷ tap CPU), taps ÷ floor, and the
change ÷ the baseline pair by pair. Without ``--baseline`` only this checkout is measured.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _measure(kind: str, game: str, taps: int, store: str) -> float:
    """Median CPU ns of ``taps`` calls of ``kind`` (``tap``, ``floor``, ``minimal``)."""
    from bench.bench_tap import Client, _taps

    if kind != "minimal":
        _, cpus = asyncio.run(_taps(store, game, taps, False, floor=kind == "floor"))
        return statistics.median(cpus)
    from bench import minimal_app

    async def run() -> list[int]:
        client = Client(minimal_app.app)
        client.cookie = b"sid=bench"
        body = b"place=pile-1&card=AS&token=bench"
        cpus = []
        for _ in range(taps):
            cpu = time.process_time_ns()
            answer = await client.call("POST", f"/_bench/floor/{game}", body, hx_request="true")
            cpus.append(time.process_time_ns() - cpu)
            assert b'hx-swap-oob="outerMorph"' in answer, answer[:300]
        return cpus

    return statistics.median(asyncio.run(run()))


def _worker(args: argparse.Namespace) -> None:
    # in this order: the floor run saves a real tap answer in the folder
    # ``SOLITAIRE_BENCH_FLOOR`` names, whose bytes the minimal app then answers
    results = {kind: _measure(kind, args.game, args.taps, args.store) for kind in KINDS}
    print(json.dumps(results))


KINDS = ("tap", "floor", "minimal")


def _run(checkout: Path, args: argparse.Namespace) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    command = [sys.executable, str(Path(__file__).resolve()), "--worker"]
    command += ["--game", args.game, "--taps", str(args.taps), "--store", args.store]
    done = subprocess.run(command, cwd=checkout, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(done.stderr[-3000:])
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


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
        _worker(args)
        return
    sides = {"change": ROOT} if args.baseline is None else {"baseline": args.baseline}
    sides["change"] = ROOT
    found: dict[str, list[dict[str, float]]] = {name: [] for name in sides}
    print(f"load average {os.getloadavg()[0]:.1f}", flush=True)
    for round_ in range(args.rounds):
        order = list(sides) if round_ % 2 == 0 else list(reversed(sides))
        for name in order:
            found[name].append(_run(sides[name], args))
        print(
            f"round {round_ + 1}: "
            + "; ".join(
                f"{name} tap {found[name][-1]['tap'] / 1000:.0f} µs,"
                f" floor {found[name][-1]['floor'] / 1000:.0f},"
                f" minimal {found[name][-1]['minimal'] / 1000:.0f}"
                for name in sides
            )
            + f" (load {os.getloadavg()[0]:.1f})",
            flush=True,
        )
    print(f"\n{args.game}, store {args.store}, {args.taps} calls each, medians of {args.rounds}")
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
