"""Hints on request (issue 45): how long a hint takes, and what hints cost other players' taps.

    .venv/bin/python -m bench.bench_hints [--positions 30] [--taps 300]

1. **Latency**: ``--positions`` positions of each game reached by random play (a random deal,
   0–30 random legal moves, stopped early at the end), each sent to a one-process pool made as
   the server makes it (:func:`app.services.proofs.make_pool`: ``spawn``, niced) with the
   server's bounds (:data:`app.services.hints.SECONDS`): wall time per hint (the pool's round
   trip included), p50 / p95 / max, and how many answered a move, "lost" or "late".
2. **Taps while hints run**: a real server (``uvicorn``, memory store, one worker) and a
   player tapping a Half Moon card (select, deselect: each a full read-modify-write), ``--taps``
   taps alone, then as many while two other players ask for hints back to back on fresh
   deals. The tap's p50 / p95 in both.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

from app.engine.codes import DealCode
from app.engine.games import game_for_code
from app.services.hints import SECONDS
from app.services.proofs import make_pool
from app.services.proofworker import find_hint

ROOT = Path(__file__).resolve().parent.parent
TOKEN = re.compile(r'name="token" value="([^"]+)"')


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def positions(game_id: str, count: int, rng: random.Random) -> list[object]:
    found: list[object] = []
    while len(found) < count:
        code = DealCode.random(game_id)
        game = game_for_code(code)
        position = game.deal(code)
        for _ in range(rng.randint(0, 30)):
            moves = list(game.generate(position))
            if not moves:
                break
            position = game.result(position, rng.choice(moves))
        if list(game.generate(position)):  # a position a player could ask a hint on
            found.append(position)
    return found


def latency(count: int) -> None:
    rng = random.Random(45)
    pool = make_pool(1)
    pool.submit(int).result()  # started: the server's pool is warm before players come
    for game_id in ("HM", "SH"):
        times: list[float] = []
        kinds: dict[str, int] = {}
        for position in positions(game_id, count, rng):
            started = time.perf_counter()
            kind, _ = pool.submit(find_hint, position, None, SECONDS).result()
            times.append((time.perf_counter() - started) * 1000)
            kinds[kind] = kinds.get(kind, 0) + 1
        print(
            f"{game_id}: {count} hints  p50 {pct(times, 50):.0f} ms  p95 {pct(times, 95):.0f} ms"
            f"  max {max(times):.0f} ms  answers {kinds}"
        )
    pool.shutdown()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def session(url: str, path: str, hints: bool) -> tuple[httpx.Client, str]:
    client = httpx.Client(base_url=url, timeout=30)
    page = client.get(path).text
    token = TOKEN.search(page)
    assert token is not None
    if hints:
        client.post("/settings", data={"hints": "on", "token": token[1], "next": path})
    return client, token[1]


def taps(url: str, count: int) -> list[float]:
    code = "HM1-N-AAAAAAB"
    client, token = session(url, f"/half-moon/{code}", False)
    page = client.get(f"/half-moon/{code}").text
    card = re.search(r'id="card-pile-1"[^>]*data-card="([^"]+)"', page)
    assert card is not None
    times = []
    for _ in range(count):
        started = time.perf_counter()
        answer = client.post(
            f"/half-moon/{code}/tap",
            data={"place": "pile-1", "card": card[1], "token": token},
            headers={"HX-Request": "true"},
        )
        times.append((time.perf_counter() - started) * 1000)
        assert answer.status_code == 200, answer.text
    return times


def hinting(url: str, stop: threading.Event, done: list[int]) -> None:
    while not stop.is_set():
        code = DealCode.random("HM")
        path = f"/half-moon/{code}"
        client, token = session(url, path, True)
        answer = client.post(f"{path}/hint", data={"token": token}, headers={"HX-Request": "true"})
        if answer.status_code == 200:
            done[0] += 1
        client.close()


def taps_with_hints(count: int) -> None:
    port = free_port()
    env = {**os.environ, "SOLITAIRE_STORE": "memory:", "PYTHONPATH": str(ROOT)}
    env |= {"SOLITAIRE_RATE_WRITES": "off", "SOLITAIRE_RATE_NEW": "off"}  # one address here
    command = [sys.executable, "-m", "uvicorn", "app.main:app", "--port", str(port)]
    server = subprocess.Popen(
        [*command, "--no-access-log"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                httpx.get(f"{url}/health", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        taps(url, 30)  # warm
        alone = taps(url, count)
        stop, done = threading.Event(), [0]
        hinters = [threading.Thread(target=hinting, args=(url, stop, done)) for _ in range(2)]
        for thread in hinters:
            thread.start()
        time.sleep(1.0)
        loaded = taps(url, count)
        stop.set()
        for thread in hinters:
            thread.join()
    finally:
        server.terminate()
        server.wait()
    for name, values in (("alone", alone), ("hints running", loaded)):
        print(
            f"tap {name}: p50 {statistics.median(values):.1f} ms  p95 {pct(values, 95):.1f} ms"
            f"  ({len(values)} taps)"
        )
    print(f"hints answered meanwhile: {done[0]}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--taps", type=int, default=300)
    args = parser.parse_args(argv)
    latency(args.positions)
    taps_with_hints(args.taps)


if __name__ == "__main__":
    main()
