"""HTTP speed, side by side in one run: taps against the framework's floor, per store.

Run: ``.venv/bin/python -m bench.bench_http [--seconds 10] [--connections 32]``

For each store (SQLite with synchronous=FULL, then Redis) it starts a real uvicorn on a free
loopback port, opens 32 player sessions, and drives it with ``wrk`` (installed from the
system packages when missing):

- tap throughput (``POST /half-moon/{code}/tap`` selecting and deselecting a card: every
  request is a full read-modify-write of a stored game) versus ``GET /health``, the cheapest
  route of the same server — the ratio is the number to watch, not the absolute rates;
- p50 / p99 latency at 32 connections;
- bytes of one tap response, raw and gzipped;
- store scaling: tap latency with 1 versus 100,000 stored games (SQLite), bytes per stored
  game; the server's memory after 10,000 sessions.

Targets (issue "Benchmarks and deal statistics"): taps ≥ 0.5 × the trivial route's
throughput; p99 ≤ 25 ms at 32 connections; a Half Moon tap response ≤ 3 KB gzipped; a stored
game ≤ 1 KB; latency at 100,000 games within 10 % of latency at 1.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import httpx

from app.engine.codes import DealCode
from app.engine.halfmoon import deal
from tests.system.servers import Server, start_server

HTMX = {"HX-Request": "true"}


def ensure_wrk() -> None:
    if shutil.which("wrk"):
        return
    prefix = [] if os.geteuid() == 0 else ["sudo", "-n"]
    subprocess.run([*prefix, "apt-get", "update", "-qq"], check=True)
    subprocess.run([*prefix, "apt-get", "install", "-y", "-qq", "wrk"], check=True)


def open_sessions(server: Server, count: int) -> list[dict[str, str]]:
    """``count`` players, each on their own deal: cookie, token, and the card at pile 1."""
    players = []
    for number in range(count):
        code = DealCode("HM", 1, "N", 1000 + number)
        with httpx.Client(timeout=30) as client:
            page = client.get(f"{server.url}/half-moon/{code}")
            token = re.search(r'name="token" value="([^"]+)"', page.text)
            assert token, page.text[:300]
            card = deal(code).top(0)
            players.append(
                {
                    "path": f"/half-moon/{code}/tap",
                    "body": f"place=pile-1&card={card}&token={token.group(1)}",
                    "cookie": f"sid={client.cookies['sid']}",
                }
            )
    return players


@dataclass(frozen=True)
class Load:
    rps: float
    p50_ms: float
    p99_ms: float
    errors: int


@dataclass(frozen=True)
class Measurement:
    store: str
    floor: Load
    taps: Load
    tap_bytes_raw: int
    tap_bytes_gzip: int

    @property
    def ratio(self) -> float:
        return self.taps.rps / self.floor.rps

    def line(self) -> str:
        return (
            f"{self.store:11} floor {self.floor.rps:7.0f} req/s | taps {self.taps.rps:7.0f} req/s"
            f" (ratio {self.ratio:.2f}), p50 {self.taps.p50_ms:.1f} ms, p99 {self.taps.p99_ms:.1f}"
            f" ms, non-2xx {self.taps.errors} | tap response {self.tap_bytes_raw} B raw,"
            f" {self.tap_bytes_gzip} B gzip"
        )


def wrk(server: Server, script: str, seconds: int, connections: int) -> Load:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(script)
    command = [
        "wrk",
        f"-t{min(2, connections)}",
        f"-c{connections}",
        f"-d{seconds}s",
        "--latency",
        "-s",
        f.name,
    ]
    out = subprocess.run([*command, server.url], capture_output=True, text=True, check=True).stdout
    os.unlink(f.name)
    rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
    assert rps, out
    latency = {}
    for pct in ("50", "99"):
        found = re.search(rf"\s{pct}%\s+([\d.]+)(us|ms|s)\b", out)
        assert found, out
        latency[pct] = float(found.group(1)) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[found.group(2)]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return Load(
        float(rps.group(1)), latency["50"], latency["99"], int(errors.group(1)) if errors else 0
    )


def tap_script(players: list[dict[str, str]]) -> str:
    entries = ",\n".join(
        f'{{path="{p["path"]}", body="{p["body"]}", cookie="{p["cookie"]}"}}' for p in players
    )
    return f"""
local entries = {{
{entries}
}}
local i = 0
request = function()
  i = i + 1
  local e = entries[(i % #entries) + 1]
  return wrk.format("POST", e.path, {{
    ["Content-Type"] = "application/x-www-form-urlencoded",
    ["HX-Request"] = "true",
    ["Cookie"] = e.cookie,
  }}, e.body)
end
"""


HEALTH_SCRIPT = 'request = function() return wrk.format("GET", "/health") end\n'


def response_bytes(server: Server, player: dict[str, str]) -> tuple[int, int]:
    sizes = []
    for encoding in ("identity", "gzip"):
        headers = {
            **HTMX,
            "Cookie": player["cookie"],
            "Accept-Encoding": encoding,
            "Content-Type": "application/x-www-form-urlencoded",
        }
        with (
            httpx.Client(timeout=30) as client,
            client.stream(
                "POST", server.url + player["path"], content=player["body"], headers=headers
            ) as response,
        ):
            assert response.status_code == 200
            body = b"".join(response.iter_raw())
            sizes.append(len(body))
    return sizes[0], sizes[1]


def rss_kb(server: Server) -> int:
    status = Path(f"/proc/{server.process.pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+)", status).group(1))  # type: ignore[union-attr]


def fill_sqlite(path: Path, games: int) -> None:
    """Store ``games`` realistic games (a mid-game record each) straight into the file."""
    con = sqlite3.connect(path)
    row = con.execute("SELECT record, state, score, moves, extra, updated_ms FROM games").fetchone()
    record, state, score, moves, extra, updated = row
    con.execute("BEGIN")
    con.executemany(
        "INSERT OR IGNORE INTO games (sid, code, record, state, score, moves, extra, updated_ms)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            (f"filler-{i:08d}", "HM1-N-AAAAAAB", record, state, score, moves, extra, updated)
            for i in range(games)
        ),
    )
    con.execute("COMMIT")
    con.close()


WORKERS = os.cpu_count() or 2
"""Server processes, as deployed: one per core."""


def measure(store: str, label: str, seconds: int, connections: int, work: Path) -> Measurement:
    server = start_server(store, work, name=label, workers=WORKERS)
    try:
        players = open_sessions(server, connections)
        wrk(server, tap_script(players), 2, connections)  # warm up
        floor = wrk(server, HEALTH_SCRIPT, seconds, connections)
        taps = wrk(server, tap_script(players), seconds, connections)
        raw, gz = response_bytes(server, players[0])
        return Measurement(label, floor, taps, raw, gz)
    finally:
        server.stop()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--skip-redis", action="store_true")
    args = parser.parse_args(argv)
    ensure_wrk()
    work = Path(tempfile.mkdtemp(prefix="bench-http-"))
    db = work / "games.db"
    results = [measure(str(db), "sqlite", args.seconds, args.connections, work)]
    if not args.skip_redis:
        from tests.store.redis_server import start_redis_server

        redis, url = start_redis_server(work)
        try:
            results.append(measure(url, "redis", args.seconds, args.connections, work))
        finally:
            redis.terminate()
    for result in results:
        print(result.line())

    # store scaling: the same SQLite file with 100,000 more games
    con = sqlite3.connect(db)
    count, per_game = con.execute(
        "SELECT COUNT(*), AVG(LENGTH(record) + LENGTH(extra) + LENGTH(code) + LENGTH(sid) + 24)"
        " FROM games"
    ).fetchone()
    con.close()
    print(f"bytes per stored game (record, key and columns; before indexes): {per_game:.0f}")
    fill_sqlite(db, args.games)
    big = measure(str(db), "sqlite-100k", args.seconds, args.connections, work)
    print(big.line())
    small = results[0].taps
    print(
        f"tap p50 with {count} stored games {small.p50_ms:.1f} ms, with {count + args.games:,}"
        f" {big.taps.p50_ms:.1f} ms: ratio {big.taps.p50_ms / small.p50_ms:.2f};"
        f" file bytes per game {db.stat().st_size / (count + args.games):.0f}"
    )

    # memory after many sessions
    server = start_server(str(work / "sessions.db"), work, name="sessions")
    try:
        before = rss_kb(server)
        with httpx.Client(timeout=30) as client:
            for _ in range(args.sessions):
                client.cookies.clear()
                client.get(f"{server.url}/half-moon/HM1-N-AAAAAAB")
        after = rss_kb(server)
    finally:
        server.stop()
    print(
        f"server RSS {before / 1024:.1f} MiB at start, {after / 1024:.1f} MiB after"
        f" {args.sessions:,} new sessions"
    )
    summary = [result.__dict__ for result in [*results, big]]
    (work / "results.json").write_text(json.dumps(summary, default=lambda o: o.__dict__, indent=1))
    print(f"details in {work}")


if __name__ == "__main__":
    main()
