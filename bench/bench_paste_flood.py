"""Another player's taps while pasted 5,000-move games flood the server (issue 44).

Run: ``.venv/bin/python -m bench.bench_paste_flood [--seconds 20] [--flooders 2]
[--baseline PATH]`` — ``--baseline`` measures another checkout (``git archive REV``) the same
way after, for a before/after table.

One uvicorn worker with ``scripts/run``'s options (the SQLite store; the write limit raised,
as if the flood came from many addresses: at the shipped limit one address's pastes are
mostly 429s). Two phases of ``--seconds`` each: *quiet*, another player (a process of its
own) taps a Half Moon card (select, deselect) every 20 ms; *flooded*, the same while
``--flooders`` clients post ever new 5,000-move Seahaven texts back to back (each checked
whole by the rules: :func:`bench.bench_replay.pasted_texts`). Prints the taps' p50 / p95 /
p99 in both phases and how many pastes were answered, and how fast.
"""

from __future__ import annotations

import argparse
import multiprocessing
import tempfile
import threading
import time
from itertools import cycle
from pathlib import Path
from typing import Any

import httpx

from bench.bench_fairness import TOKEN, every, halfmoon_player, percentile
from bench.bench_replay import checkouts, pasted_texts
from tests.system.servers import ROOT, Server, start_server


def taps(server: Server, stop: Any, out: Any) -> None:
    """Tap every 20 ms until ``stop``; the latencies (in a process of its own)."""
    out.put(every(0.02, stop, halfmoon_player(server)))


def flood(server: Server, texts: list[str], stop: threading.Event, out: list[float]) -> None:
    with httpx.Client(base_url=server.url, timeout=60) as client:
        found = TOKEN.search(client.get("/replay").text)
        assert found
        for text in cycle(texts):
            if stop.is_set():
                return
            start = time.perf_counter()
            answer = client.post("/replay", data={"text": text, "step": "2500", "token": found[1]})
            assert answer.status_code == 200, answer.text[:300]
            out.append(time.perf_counter() - start)


def phase(server: Server, seconds: float, flooders: int, texts: list[str]) -> dict[str, Any]:
    context = multiprocessing.get_context("fork")
    stop, queue = context.Event(), context.Queue()
    tapper = context.Process(target=taps, args=(server, stop, queue))
    halt = threading.Event()
    pasted: list[list[float]] = [[] for _ in range(flooders)]
    threads = [
        threading.Thread(target=flood, args=(server, texts[i::flooders], halt, pasted[i]))
        for i in range(flooders)
    ]
    tapper.start()
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    halt.set()
    found = queue.get()
    tapper.join()
    for thread in threads:
        thread.join()
    return {"taps": found, "pastes": [t for times in pasted for t in times]}


def line(values: list[float]) -> str:
    if not values:
        return "none"
    p50, p95, p99 = (percentile(values, q) * 1000 for q in (0.5, 0.95, 0.99))
    return f"p50 {p50:6.1f}  p95 {p95:6.1f}  p99 {p99:6.1f} ms (n={len(values)})"


def measure(root: Path | None, seconds: float, flooders: int) -> None:
    work = Path(tempfile.mkdtemp(prefix="bench-paste-flood-"))
    options = ("--http", "app.server:TimedHttpToolsProtocol", "--limit-concurrency", "1000")
    raised = {"SOLITAIRE_RATE_WRITES": "1000000/minute", "SOLITAIRE_RATE_NEW": "1000000/minute"}
    db = str(work / "solitaire.db")
    server = start_server(db, work, name="flood", env=raised, args=options, root=root or ROOT)
    texts = pasted_texts(400)
    try:
        quiet = phase(server, seconds, 0, texts)
        flooded = phase(server, seconds, flooders, texts)
    finally:
        server.stop()
    print(f"taps, quiet              {line(quiet['taps'])}")
    print(f"taps, {flooders} clients pasting  {line(flooded['taps'])}")
    print(f"the pastes               {line(flooded['pastes'])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--flooders", type=int, default=2)
    parser.add_argument("--baseline", help="another checkout to measure after this one")
    args = parser.parse_args()
    for name, root in checkouts(args.baseline):
        print(f"\n== {name}")
        measure(root, args.seconds, args.flooders)


if __name__ == "__main__":
    main()
