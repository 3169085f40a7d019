"""Where a tap's time goes, in process: whole taps through the ASGI app, and their stages.

Run: ``.venv/bin/python -m bench.bench_tap [--taps 3000]``; the cost of the metrics
(``app/metrics.py``): ``.venv/bin/python -m bench.bench_tap --metrics [--taps 3000]``

No HTTP server and no load generator: each tap is one call of the ASGI application (all its
middleware included) with a hand-built request, so the numbers are the application's own
microseconds. A player selects and deselects a card again and again — every tap is a full
read-modify-write of the stored game — sending the board version its page shows, as htmx
does. Reported: the median and p90 per tap, memory store, memory store with gzip, SQLite
``synchronous=FULL`` (wall time, and CPU time of all threads). ``--metrics`` taps the memory
store through two apps of one process, metrics off and on, in alternating blocks (the
machine's load falls on both alike), once with the values in memory (one process) and once in
multiprocess mode (a child process with ``PROMETHEUS_MULTIPROC_DIR``, as under ``uvicorn
--workers``), and prints the CPU per tap of each and their ratio. Whole taps only: the
stage timings that once stood here called pieces of the single-function ``act`` that the
three steps (decide, commit, answer) replaced.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gzip
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from app.config import Config
from app.engine.codes import DealCode
from app.engine.halfmoon import deal
from app.engine.seahaven import COLUMNS, deal_position
from app.main import create_app
from app.store import open_store

VERSION = re.compile(rb'X-Board-Version&#34;:&#34;(\w+)|X-Board-Version":"(\w+)')


class Client:
    """Calls an ASGI app directly; keeps the cookie and the board version."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.cookie = b""
        self.version = b""

    async def call(self, method: str, path: str, body: bytes = b"", **extra: str) -> bytes:
        headers = [(b"host", b"bench"), (b"cookie", self.cookie)]
        if body:
            headers.append((b"content-type", b"application/x-www-form-urlencoded"))
            headers.append((b"content-length", str(len(body)).encode()))
        headers += [(k.replace("_", "-").encode(), v.encode()) for k, v in extra.items()]
        if self.version:
            headers.append((b"x-board-version", self.version))
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": headers,
            "client": ("127.0.0.1", 1),
            "server": ("bench", 80),
        }
        sent = False
        chunks: list[bytes] = []

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if sent:
                await asyncio.sleep(3600)
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                for name, value in message["headers"]:
                    if name == b"set-cookie" and value.startswith(b"sid="):
                        self.cookie = value.split(b";")[0]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(scope, receive, send)
        answer = b"".join(chunks)
        if answer[:2] == b"\x1f\x8b":
            answer = gzip.decompress(answer)
        found = VERSION.search(answer)
        if found:
            self.version = found.group(1) or found.group(2)
        return answer


def _page_token(page: bytes) -> str:
    found = re.search(rb'name="token" value="([^"]+)"', page)
    assert found, page[:300]
    return found.group(1).decode()


async def _taps(
    store_text: str, game: str, taps: int, compress: bool, floor: bool = False
) -> tuple[list[int], list[int]]:
    """Taps (or, with ``floor``, the floor route answering a tap's answer) through the app."""
    answers = Path(tempfile.mkdtemp(prefix="bench-floor-"))
    os.environ["SOLITAIRE_BENCH_FLOOR"] = str(answers)
    # every tap passes the write limiter (its cost is part of a tap) and none is refused: one
    # client making thousands of taps would meet the default limit (240 a minute) and then
    # time 429 pages
    config = Config(rate_writes="1000000000/minute")
    app = create_app(config, store=open_store(store_text))
    async with app.router.lifespan_context(app):
        client = Client(app)
        if game == "half-moon":
            code = DealCode("HM", 1, "N", 7)
            body_fields = f"place=pile-1&card={deal(code).top(0)}"
        else:
            code = DealCode("SH", 1, "C4", 7)
            position = deal_position(code)
            index = next(i for i in COLUMNS if position.columns[i][-1].rank > 2)
            body_fields = f"place=column-{index + 1}&card={position.columns[index][-1]}"
        page = await client.call("GET", f"/{game}/{code}")
        body = f"{body_fields}&token={_page_token(page)}".encode()
        extra = {"hx_request": "true"}
        if compress:
            extra["accept_encoding"] = "gzip"
        path = f"/{game}/{code}/tap"
        if floor:
            answer = await client.call("POST", path, body, hx_request="true")
            (answers / f"{game}.html").write_bytes(answer)
            path = f"/_bench/floor/{game}"
        walls, cpus = [], []
        for _ in range(taps):
            cpu, wall = time.process_time_ns(), time.perf_counter_ns()
            answer = await client.call("POST", path, body, **extra)
            walls.append(time.perf_counter_ns() - wall)
            cpus.append(time.process_time_ns() - cpu)
            assert b'hx-swap-oob="outerMorph"' in answer, answer[:300]  # a tap's partial answer
        return walls, cpus


def _us(values: list[int]) -> str:
    ordered = sorted(values)
    p90 = ordered[int(len(ordered) * 0.9)]
    return f"{statistics.median(ordered) / 1000:7.0f} µs (p90 {p90 / 1000:6.0f})"


def whole_taps(taps: int) -> None:
    work = Path(tempfile.mkdtemp(prefix="bench-tap-"))
    for game in ("half-moon", "seahaven"):
        for label, store, compress in (
            ("memory store", "memory:", False),
            ("memory store + gzip", "memory:", True),
            ("SQLite synchronous=FULL", str(work / f"{game}.db"), False),
        ):
            walls, cpus = asyncio.run(_taps(store, game, taps, compress))
            print(f"{game:9} {label:26} wall {_us(walls)}  CPU {_us(cpus)}")
            if store == "memory:" and os.path.exists("app/web/play/floor.py"):
                _, floor = asyncio.run(_taps(store, game, taps, compress, floor=True))
                ratio = statistics.median(floor) / statistics.median(cpus)
                print(
                    f"{'':9} {'  the floor, same way':26} CPU {_us(floor)}"
                    f"  (floor ÷ tap {ratio:.2f})"
                )


async def _metrics_ab(game: str, taps: int, block: int = 50) -> dict[str, list[int]]:
    """Taps on two apps in this process, one with the metrics off and one with them on,
    in alternating blocks of ``block`` taps (the order swapped each round), so that the
    machine's load and the heap's state fall on both alike: each tap's CPU time, by mode."""
    from app import metrics

    config = Config(rate_writes="1000000000/minute")
    cpus: dict[str, list[int]] = {"off": [], "on": []}
    async with contextlib.AsyncExitStack() as stack:
        sessions = {}
        for mode in cpus:
            metrics.ON = mode == "on"  # type: ignore[misc]  # read per request: off skips all
            app = create_app(config, store=open_store("memory:"))
            await stack.enter_async_context(app.router.lifespan_context(app))
            sessions[mode] = await _tap_session(Client(app), game)
        for round_ in range(taps // block):
            for mode in ("off", "on") if round_ % 2 else ("on", "off"):
                metrics.ON = mode == "on"  # type: ignore[misc]
                client, path, body = sessions[mode]
                for _ in range(block):
                    cpu = time.process_time_ns()
                    answer = await client.call("POST", path, body, hx_request="true")
                    cpus[mode].append(time.process_time_ns() - cpu)
                    assert b'hx-swap-oob="outerMorph"' in answer, answer[:300]
        metrics.ON = True  # type: ignore[misc]
    return cpus


async def _tap_session(client: Client, game: str) -> tuple[Client, str, bytes]:
    """A player on a deal of ``game``: its client, the tap's path and body (select and
    deselect one card, again and again)."""
    if game == "half-moon":
        code = DealCode("HM", 1, "N", 7)
        fields = f"place=pile-1&card={deal(code).top(0)}"
    else:
        code = DealCode("SH", 1, "C4", 7)
        position = deal_position(code)
        index = next(i for i in COLUMNS if position.columns[i][-1].rank > 2)
        fields = f"place=column-{index + 1}&card={position.columns[index][-1]}"
    page = await client.call("GET", f"/{game}/{code}")
    return client, f"/{game}/{code}/tap", f"{fields}&token={_page_token(page)}".encode()


def metrics_side_by_side(taps: int) -> None:
    """:func:`_metrics_ab` for both games, in this process (values in memory, as one worker
    keeps them) and in a child process in multiprocess mode (``PROMETHEUS_MULTIPROC_DIR``, as
    under ``uvicorn --workers``: values in memory-mapped files)."""
    kind = "multiprocess" if "PROMETHEUS_MULTIPROC_DIR" in os.environ else "one process"
    for game in ("half-moon", "seahaven"):
        cpus = asyncio.run(_metrics_ab(game, taps))
        off, on = statistics.median(cpus["off"]), statistics.median(cpus["on"])
        print(
            f"{game:9} {kind:12} metrics off {_us(cpus['off'])}, on {_us(cpus['on'])} CPU"
            f"  (on ÷ off: median {on / off:.3f}, mean"
            f" {statistics.fmean(cpus['on']) / statistics.fmean(cpus['off']):.3f})",
            flush=True,
        )
    if kind == "one process":  # then the same in multiprocess mode, in a child process
        folder = tempfile.mkdtemp(prefix="bench-tap-multiproc-")
        env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": folder}
        command = [sys.executable, "-m", "bench.bench_tap", "--metrics", "--taps", str(taps)]
        subprocess.run(command, env=env, check=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=3000)
    parser.add_argument("--metrics", action="store_true", help="metrics on and off, side by side")
    args = parser.parse_args(argv)
    if args.metrics:
        metrics_side_by_side(args.taps)
    else:
        whole_taps(args.taps)


if __name__ == "__main__":
    main()
