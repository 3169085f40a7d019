"""Fairness: does one player's costly Seahaven board slow anyone else down? (issue 12 item 3)

Run: ``.venv/bin/python -m bench.bench_fairness [--seconds 20] [--scan 1500] [--workers 1]
[--baseline PATH]`` — ``--baseline`` measures another checkout (say ``git worktree add
/tmp/before main``) the same way in the same run, for a before/after table.

1. Finds the costliest deals: times the "no useful move left" proof of the first ``--scan``
   deals of each cell count (in this process, before any server starts) and keeps the slowest.
2. Starts a real uvicorn (SQLite store in a temporary folder, ``synchronous=FULL``) and runs
   two phases of ``--seconds`` each, in one run, side by side:

   - *quiet*: a probe asks ``GET /health`` every 20 ms, and another player taps a Half Moon
     card (select, deselect) every 20 ms;
   - *hammered*: the same, while two clients hammer the costliest deals: each opens a deal
     with a fresh session, then moves the top card of every column to a free cell and takes
     it back (every new position is a new proof), and goes on to the next deal.

   It prints p50 / p99 / max of ``/health`` and of the taps in both phases, and how many
   hammer requests were answered (and how slowly).

With ``--analyses`` the second phase runs analyses of ended games instead (issue 33): two
processes made as the server makes its analysis pool (``app.services.proofs.make_pool``,
below the web workers' priority) analyse random ended Half Moon games back to back, the
costliest kind, while ``/health`` and the taps are measured.

With ``--flood`` (issue 44) the phases are about the analysis queue: in both, another
player (its own address, ``X-Forwarded-For`` from loopback, which uvicorn trusts) plays a
Half Moon deal to stuck and asks for its analysis (a cheap one) every 0.25 s until it comes,
then again with a new session; in the second, eight sessions of one other address play deal
HM1-N-L3L7TQ2 stuck in 11 moves (a line whose analysis runs into the full 20 s budget),
each asking for its analysis every 2 s as the page does and starting over once it comes.
It prints the cheap analysis's wait (p50 / p95; one still waiting when the phase ends counts
with the time it waited) and ``/health``'s p99, quiet and flooded side by side.

Targets: ``/health`` max ≤ 100 ms and taps unaffected while hammered.
"""

from __future__ import annotations

import argparse
import multiprocessing
import multiprocessing.queues
import re
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from app.engine.codes import DealCode
from app.engine.halfmoon import deal as halfmoon_deal
from app.engine.seahaven import CELLS, COLUMNS, deal_position, place_name
from app.engine.seahaven.solver import is_lost
from tests.system.servers import ROOT, Server, start_server

HTMX = {"HX-Request": "true"}
TOKEN = re.compile(r'name="token" value="([^"]+)"')


def costliest_deals(scan: int, keep: int) -> list[tuple[str, float, bool | None]]:
    """The ``keep`` deals whose proof took longest among the first ``scan`` of each variant."""
    timed: list[tuple[str, float, bool | None]] = []
    for variant in ("C4", "C2", "C1"):
        for number in range(1, scan + 1):
            code = DealCode("SH", 1, variant, number)
            start = time.perf_counter()
            verdict = is_lost(deal_position(code))
            timed.append((str(code), time.perf_counter() - start, verdict))
    timed.sort(key=lambda entry: -entry[1])
    return timed[:keep]


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(values: list[float]) -> str:
    if not values:
        return "no answers"
    return (
        f"p50 {statistics.median(values) * 1000:7.1f}  p99 {percentile(values, 0.99) * 1000:7.1f}"
        f"  max {max(values) * 1000:7.1f} ms  (n={len(values)})"
    )


def every(period: float, stop: Any, request: Callable[[], None]) -> list[float]:
    """Call ``request`` every ``period`` seconds until ``stop``; the latency of each call."""
    latencies: list[float] = []
    while not stop.is_set():
        start = time.perf_counter()
        request()
        took = time.perf_counter() - start
        latencies.append(took)
        stop.wait(max(0.0, period - took))
    return latencies


def health_probe(server: Server) -> Callable[[], None]:
    client = httpx.Client(base_url=server.url, timeout=30)

    def probe() -> None:
        assert client.get("/health").status_code == 200

    return probe


def halfmoon_player(server: Server) -> Callable[[], None]:
    code = DealCode("HM", 1, "N", 4242)
    client = httpx.Client(base_url=server.url, timeout=30)
    page = client.get(f"/half-moon/{code}")
    found = TOKEN.search(page.text)
    assert found, page.text[:300]
    body = {"place": "pile-1", "card": str(halfmoon_deal(code).top(0)), "token": found.group(1)}

    def tap() -> None:  # select, then deselect: every tap is a full read-modify-write
        assert client.post(f"/half-moon/{code}/tap", data=body, headers=HTMX).status_code == 200

    return tap


def hammer(server: Server, deals: list[str], stop: threading.Event, out: list[float]) -> None:
    """Open each costly deal afresh, then move every column's top card to a free cell and take
    it back, until ``stop``."""
    round_ = 0
    while not stop.is_set():
        for code_text in deals:
            if stop.is_set():
                return
            client = httpx.Client(base_url=server.url, timeout=60)
            start = time.perf_counter()
            page = client.get(f"/seahaven/{code_text}")
            out.append(time.perf_counter() - start)
            found = TOKEN.search(page.text)
            if not found:
                continue
            token = found.group(1)
            position = deal_position(DealCode.parse(code_text))
            free = [CELLS.start + i for i, card in enumerate(position.cells) if card is None]
            if not free:
                continue
            columns = list(COLUMNS)[round_ % 10 :] + list(COLUMNS)[: round_ % 10]
            for column in columns:
                if stop.is_set():
                    return
                card = position.columns[column][-1]
                move = {
                    "from": place_name(column),
                    "card": str(card),
                    "to": place_name(free[0]),
                    "token": token,
                }
                for verb, data in (("move", move), ("undo", {"token": token})):
                    start = time.perf_counter()
                    client.post(f"/seahaven/{code_text}/{verb}", data=data, headers=HTMX)
                    out.append(time.perf_counter() - start)
            client.close()
        round_ += 1


def measure(
    server: Server, kind: str, stop: Any, out: multiprocessing.queues.Queue[list[float]]
) -> None:
    """One measuring client in a process of its own (no GIL shared with the hammers)."""
    request = health_probe(server) if kind == "health" else halfmoon_player(server)
    out.put(every(0.02, stop, request))


def analysing(stop: threading.Event, out: list[float]) -> None:
    """Analyse random ended Half Moon games in a niced pool of two processes until ``stop``."""
    from app.engine.halfmoon import HalfMoon
    from app.services.proofs import make_pool
    from app.services.proofworker import analyse_line
    from tests.engine.ended_games import ended_games

    games = ended_games(HalfMoon, "N", 10_000, 2033)
    with make_pool(2) as pool:
        running: list[tuple[float, Any]] = []
        while not stop.is_set():
            while len(running) < 2:
                code, moves = next(games)
                line = ".".join(str(m) for m in moves)
                running.append(
                    (time.perf_counter(), pool.submit(analyse_line, str(code), line, 20))
                )
            started, future = running.pop(0)
            future.result()
            out.append(time.perf_counter() - started)


FLOOD_DEAL = "HM1-N-L3L7TQ2"
FLOOD_SEED = 31
"""A random game of the flood deal (seeded) stuck in 11 moves whose analysis is undecided
after the full budget."""
CHEAP_DEAL = "HM1-N-AAAAAAB"
CHEAP_SEED = 4


def stuck_taps(code: str, seed: int) -> list[list[tuple[str, str]]]:
    """(place, card) taps of a random game of ``code`` (seeded) played until it is stuck."""
    import random

    from app.engine.halfmoon import HalfMoon
    from app.engine.halfmoon import place_name as hm_place

    rng = random.Random(seed)
    position = HalfMoon.deal(DealCode.parse(code))
    taps = []
    while legal := list(HalfMoon.generate(position)):
        removal = rng.choice(legal)
        taps.append([(hm_place(p), str(position.top(p))) for p in removal])
        position = HalfMoon.result(position, removal)
    return taps


REPLAY = re.compile(r"/replay/([A-Za-z0-9_-]{22})")


def analysed_game(
    server: Server, address: str, code: str, seed: int, every_s: float, stop: Any
) -> float | None:
    """A new session of ``address`` plays ``code`` stuck, then asks for the analysis every
    ``every_s`` seconds until it comes (or ``stop``): the seconds it waited."""
    headers = {"X-Forwarded-For": address}
    with httpx.Client(base_url=server.url, timeout=60, headers=headers) as client:
        page = client.get(f"/half-moon/{code}")
        found = TOKEN.search(page.text)
        assert found, page.text[:300]
        for removal in stuck_taps(code, seed):
            for place, card in removal:
                data = {"place": place, "card": card, "token": found.group(1)}
                client.post(f"/half-moon/{code}/tap", data=data, headers=HTMX)
        replay = REPLAY.search(client.get(f"/half-moon/{code}").text)
        assert replay, "no replay link: the game did not end"
        start = time.perf_counter()
        while True:
            answer = client.get(f"/replay/{replay.group(1)}/analysis", headers=HTMX)
            if "hx-trigger" not in answer.text:
                return time.perf_counter() - start
            if stop.wait(every_s):
                return time.perf_counter() - start


def cheap_player(server: Server, stop: threading.Event, out: list[float]) -> None:
    while not stop.is_set():
        waited = analysed_game(server, "198.51.100.99", CHEAP_DEAL, CHEAP_SEED, 0.25, stop)
        if waited is not None:
            out.append(waited)
        stop.wait(0.5)


def flooder(server: Server, stop: threading.Event, out: list[float]) -> None:
    while not stop.is_set():
        waited = analysed_game(server, "203.0.113.66", FLOOD_DEAL, FLOOD_SEED, 2.0, stop)
        if waited is not None and not stop.is_set():
            out.append(waited)


def flood_phase(server: Server, seconds: float, flood: bool) -> dict[str, list[float]]:
    context = multiprocessing.get_context("fork")
    stop = context.Event()
    queue: multiprocessing.queues.Queue[list[float]] = context.Queue()
    probe = context.Process(target=measure, args=(server, "health", stop, queue))
    cheap: list[float] = []
    flooded: list[float] = []
    threads = [threading.Thread(target=cheap_player, args=(server, stop, cheap))]
    if flood:
        threads += [
            threading.Thread(target=flooder, args=(server, stop, flooded)) for _ in range(8)
        ]
    probe.start()
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    health = queue.get()
    probe.join()
    for thread in threads:
        thread.join()
    return {"health": health, "cheap": cheap, "flood": flooded}


def flood_report(name: str, quiet: dict[str, list[float]], loud: dict[str, list[float]]) -> None:
    def cheap(values: list[float]) -> str:
        if not values:
            return "none came"
        p50, p95 = statistics.median(values), percentile(values, 0.95)
        return f"p50 {p50:6.2f} s  p95 {p95:6.2f} s  max {max(values):6.2f} s (n={len(values)})"

    def health(values: list[float]) -> str:
        p50, p99 = statistics.median(values) * 1000, percentile(values, 0.99) * 1000
        return f"p50 {p50:6.1f}  p99 {p99:6.1f} ms"

    print(f"\n{name:10} {'quiet':^50} | {'one address floods (8 sessions)':^50}")
    print(f"{'cheap':10} {cheap(quiet['cheap']):50} | {cheap(loud['cheap']):50}")
    print(f"{'/health':10} {health(quiet['health']):50} | {health(loud['health']):50}")
    print(f"{'flood':10} {'':50} | {cheap(loud['flood']):50}")


def phase(
    server: Server, seconds: float, deals: list[str] | None, analyses: bool = False
) -> dict[str, list[float]]:
    context = multiprocessing.get_context("fork")
    stop = context.Event()
    results: dict[str, list[float]] = {"health": [], "tap": [], "hammer": []}
    queues = {kind: context.Queue() for kind in ("health", "tap")}
    probes = [
        context.Process(target=measure, args=(server, kind, stop, queue))
        for kind, queue in queues.items()
    ]
    threads: list[threading.Thread] = []
    analysed: list[float] = []
    if analyses:
        threads.append(threading.Thread(target=analysing, args=(stop, analysed)))
    elif deals:
        hammered: list[list[float]] = [[], []]
        for i in range(2):
            rotated = deals[i:] + deals[:i]
            threads.append(
                threading.Thread(target=hammer, args=(server, rotated, stop, hammered[i]))
            )
    for probe in probes:
        probe.start()
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for kind, queue in queues.items():
        results[kind] = queue.get()
    for probe in probes:
        probe.join()
    for thread in threads:
        thread.join()
    if analyses:
        results["hammer"] = analysed
    elif deals:
        results["hammer"] = hammered[0] + hammered[1]
    return results


def run(
    name: str,
    start: Callable[[str, Path], Server],
    seconds: float,
    deals: list[str],
    analyses: bool = False,
) -> tuple[dict[str, list[float]], dict[str, list[float]], int]:
    with tempfile.TemporaryDirectory() as folder:
        store = str(Path(folder) / "fairness.db")
        server = start(store, Path(folder))
        try:
            quiet = phase(server, seconds, None)
            loud = phase(server, seconds, deals, analyses)
        finally:
            server.stop()
        errors = sum(log.read_text().count("Traceback") for log in Path(folder).glob("*.log"))
    return quiet, loud, errors


def report(
    name: str, quiet: dict[str, list[float]], loud: dict[str, list[float]], analyses: bool
) -> None:
    beside = "two analyses at a time" if analyses else "two clients hammering costly deals"
    print(f"\n{name:10} {'quiet':^58} | {beside:^58}")
    for kind in ("health", "tap"):
        print(f"{kind:10} {summary(quiet[kind]):58} | {summary(loud[kind]):58}")
    label = "analysis" if analyses else "hammer"
    print(f"{label:10} {'':58} | {summary(loud['hammer']):58}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--scan", type=int, default=1500, help="deals scanned per cell count")
    parser.add_argument("--keep", type=int, default=12, help="costliest deals hammered")
    parser.add_argument("--workers", type=int, default=1, help="uvicorn worker processes")
    parser.add_argument(
        "--baseline", help="another checkout of this code (with a .venv) to measure after it"
    )
    parser.add_argument(
        "--analyses", action="store_true", help="analyses of ended games instead of proofs"
    )
    parser.add_argument(
        "--flood", action="store_true", help="one address floods the analysis queue (issue 44)"
    )
    args = parser.parse_args(argv)
    if args.flood:
        flood_main(args)
        return
    if args.analyses:
        args.scan = 0

    print(f"scanning {args.scan} deals per cell count for the costliest proofs ...")
    costly = costliest_deals(args.scan, args.keep)
    print("costliest deals (proof time in this process, verdict):")
    for code, seconds, verdict in costly:
        print(f"  {code}  {seconds * 1000:7.0f} ms  lost={verdict}")
    deals = [code for code, _, _ in costly]
    runs = [
        (
            "this code",
            lambda store, folder: start_server(store, folder, workers=args.workers, name="now"),
        )
    ]
    if args.baseline:
        root = Path(args.baseline).resolve()
        runs.append(
            (
                "baseline",
                lambda store, folder: start_server(
                    store, folder, workers=args.workers, name="baseline", root=root
                ),
            )
        )
    for name, start in runs:
        quiet, loud, errors = run(name, start, args.seconds, deals, args.analyses)
        report(name, quiet, loud, args.analyses)
        print(f"server tracebacks: {errors}")


def flood_main(args: argparse.Namespace) -> None:
    roots: list[tuple[str, Path | None]] = [("this code", None)]
    if args.baseline:
        roots.append(("baseline", Path(args.baseline).resolve()))
    for name, root in roots:
        with tempfile.TemporaryDirectory() as folder:
            server = start_server(
                str(Path(folder) / "flood.db"),
                Path(folder),
                workers=args.workers,
                name="flood",
                root=root or ROOT,
            )
            try:
                quiet = flood_phase(server, args.seconds, flood=False)
                loud = flood_phase(server, args.seconds, flood=True)
            finally:
                server.stop()
            errors = sum(log.read_text().count("Traceback") for log in Path(folder).glob("*.log"))
        flood_report(name, quiet, loud)
        print(f"server tracebacks: {errors}")


if __name__ == "__main__":
    main()
