"""HTTP speed, side by side in one run: taps against honest floors, per store, before/after.

Run: ``.venv/bin/python -m bench.bench_http [--baseline main] [--rounds 5] [--seconds 6]
[--connections 32] [--threads 1] [--skip-redis] [--details [--scaling]]``

**Issue 24's table** (always): for the baseline (``--baseline``: a git ref, archived into the
work folder, or a directory; ``none`` to skip) and for this checkout, one uvicorn worker each
with ``scripts/run``'s options, per configuration — SQLite ``synchronous=FULL`` with the rate
limits on but raised out of reach (``scripts/run``'s default), the same with the limits
``off``, the memory store, Redis (no persistence) — plus the project's floor route
(``POST /_bench/floor/half-moon``, ``app/web/play/floor.py``: the tap's form, cookie, middleware
and write limit, a static answer) and a minimal FastAPI app (``bench/minimal_app.py``: a form
POST with a cookie answered by the same static bytes). Half Moon taps by 64 players, each on
its own session and deal, driven by ``wrk -t1 -c32`` (the issue's measurement): a request
takes an idle player, sends its cookie, form and current ``X-Board-Version``, and the
answer's version hands the player back, so every answer is a followed partial 200 (whole
boards, non-2xx and starved requests are counted: should be 0). Every configuration of both
checkouts is measured once per round, interleaved, for ``--rounds`` rounds: the table shows
medians (the range of taps/s in brackets), the 1-minute load average during the
measurements, and the ratios (taps ÷ minimal app, ÷ floor route, change ÷ baseline, Redis ÷
SQLite).

**``--details``** (issue 12 item 5): for each store (SQLite, then Redis) a real uvicorn with the
floor route, one player per connection and per game (``--threads N`` fewer than connections:
pools of twice as many players per thread), and:
- tap throughput — ``POST /half-moon/{code}/tap`` selecting and deselecting a card,
  ``POST /seahaven/{code}/tap`` the same on a column's top card: every request a full
  read-modify-write of a stored game, answered with the changed places — versus the floor,
  ``POST /_bench/floor/{game}``: the same form fields parsed the same way, the same cookie,
  the same middleware, answering the bytes of a real tap answer. Without and with gzip
  (``Accept-Encoding: gzip``; wrk alone sends none);
- p50 / p99 latency at 32 connections, and p50 / p99 of taps and floor at fixed lower offered
  loads (``--loads``, fractions of the measured capacity: each connection waits an exponential
  think time between requests, so the connections do not fall into step);
- bytes of one tap answer, raw and gzipped, per game;
- store scaling: tap latency with 1 versus 100,000 stored games (SQLite), bytes per stored
  game; the server's memory after 10,000 sessions.

Targets (issue 12, item 5): taps ≥ 0.5 × the floor; p99 ≤ 25 ms at 32 connections; a Half
Moon tap answer ≤ 1 KB gzipped; a stored game ≤ 1 KB; latency at 100,000 games within 10 % of
latency at 1.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import httpx

from app.engine.codes import DealCode
from app.engine.halfmoon import deal
from app.engine.seahaven import COLUMNS, deal_position
from tests.system.servers import ROOT, Server, start_server

HTMX = {"HX-Request": "true"}
GAMES = ("half-moon", "seahaven")
FORM = "application/x-www-form-urlencoded"


def ensure_wrk() -> None:
    if shutil.which("wrk"):
        return
    prefix = [] if os.geteuid() == 0 else ["sudo", "-n"]
    subprocess.run([*prefix, "apt-get", "update", "-qq"], check=True)
    subprocess.run([*prefix, "apt-get", "install", "-y", "-qq", "wrk"], check=True)


def _tap_fields(game: str, number: int) -> tuple[DealCode, str]:
    """A deal and the tap that selects (then deselects) one card of it."""
    if game == "half-moon":
        code = DealCode("HM", 1, "N", 1000 + number)
        return code, f"place=pile-1&card={deal(code).top(0)}"
    code = DealCode("SH", 1, "C4", 1000 + number)
    position = deal_position(code)
    # a top card that cannot go home (no ace, no two): a tap selects it, the next deselects
    index = next(i for i in COLUMNS if position.columns[i][-1].rank > 2)
    return code, f"place=column-{index + 1}&card={position.columns[index][-1]}"


def open_sessions(server: Server, game: str, count: int) -> list[dict[str, str]]:
    """``count`` players of ``game``, each on their own deal: cookie, form body, board version."""
    players = []
    for number in range(count):
        code, fields = _tap_fields(game, number)
        with httpx.Client(timeout=30) as client:
            page = client.get(f"{server.url}/{game}/{code}")
            token = re.search(r'name="token" value="([^"]+)"', page.text)
            version = re.search(r'X-Board-Version":"(\w+)"', page.text)
            assert token, page.text[:300]
            assert version, page.text[:300]
            player = {
                "game": game,
                "path": f"/{game}/{code}/tap",
                "body": f"{fields}&token={token.group(1)}",
                "cookie": f"sid={client.cookies['sid']}",
                "version": version.group(1),
            }
            # the two versions this board shows: a tap selects the card, the next deselects it
            selected = _tap(client, server, player)
            assert _tap(client, server, {**player, "version": selected}) == player["version"]
            players.append({**player, "shows": f"{player['version']} {selected}"})
    return players


def _tap(client: httpx.Client, server: Server, player: dict[str, str]) -> str:
    """One tap from the player's page; the board version of its answer."""
    headers = {**HTMX, "Content-Type": FORM, "X-Board-Version": player["version"]}
    answer = client.post(server.url + player["path"], content=player["body"], headers=headers)
    assert answer.status_code == 200, answer.text[:300]
    return answer.headers["x-board-version"]


@dataclass(frozen=True)
class Load:
    rps: float
    p50_ms: float
    p99_ms: float
    errors: int
    whole: int = 0
    """Answers that were the whole board (a page behind the server): should be 0."""
    starved: int = 0
    """Requests that found no idle player in their thread's pool, and answers whose version
    named no player: should be 0."""


def wrk(server: Server, script: str, seconds: int, connections: int, threads: int) -> Load:
    """Run wrk with ``threads`` threads over ``connections`` connections."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(script)
    command = [
        "wrk",
        f"-t{threads}",
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
    whole = re.search(r"whole boards: (\d+)", out)
    starved = re.search(r"starved: (\d+)", out)
    return Load(
        float(rps.group(1)),
        latency["50"],
        latency["99"],
        int(errors.group(1)) if errors else 0,
        int(whole.group(1)) if whole else 0,
        int(starved.group(1)) if starved else 0,
    )


def script(
    players: list[dict[str, str]], threads: int, *, floor: bool, gzip: bool, delay_ms: int = 0
) -> str:
    """Thread ``t`` (1-based) drives players ``t, t + threads, …``; each request takes the
    thread's longest-idle player, with the board version its last answer gave, as the page's
    htmx would. The answer's version names the player (each player's board shows one of two
    versions, ``shows``), which goes back to the idle queue. The floor's answers
    carry no version: floor requests take the players in turn."""
    entries = ",\n".join(
        '{{path="{}", body="{}", cookie="{}", version="{}", shows={{"{}", "{}"}}}}'.format(
            f"/_bench/floor/{p['game']}" if floor else p["path"],
            p["body"],
            p["cookie"],
            p["version"],
            *p["shows"].split(),
        )
        for p in players
    )
    encoding = '["Accept-Encoding"] = "gzip",' if gzip else ""
    # exponential think times: each connection's taps are a Poisson stream, so the connections
    # do not fall into step and arrive as one burst of 32
    delay = (
        f"delay = function() return math.floor(-math.log(1 - math.random()) * {delay_ms}) end"
        if delay_ms
        else ""
    )
    follow = "false" if floor else "true"
    return f"""
local players = {{
{entries}
}}
local follow = {follow}
local threads = {{}}
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
  table.insert(threads, thread)
end
local idle, byversion = {{}}, {{}}
local turn = 0
-- globals: done() reads them with thread:get
whole = 0
starved = 0
lost = 0
function init(args)
  for i, p in ipairs(players) do
    if (i - 1) % {threads} == id - 1 then
      table.insert(idle, p)
      byversion[p.shows[1]] = p
      byversion[p.shows[2]] = p
    end
  end
end
function request()
  local me
  if follow then
    me = table.remove(idle, 1)
    if me == nil then
      starved = starved + 1
      me = byversion[next(byversion)]
    end
  else
    turn = turn % #idle + 1
    me = idle[turn]
  end
  return wrk.format("POST", me.path, {{
    ["Content-Type"] = "{FORM}",
    ["HX-Request"] = "true",
    ["Cookie"] = me.cookie,
    ["X-Board-Version"] = me.version,
    {encoding}
  }}, me.body)
end
function response(status, headers, body)
  if string.find(body, 'id="board" hx-swap-oob="true"', 1, true) then
    whole = whole + 1
  end
  if follow then
    local version = headers["x-board-version"] or headers["X-Board-Version"]
    local p = version and byversion[version]
    if p then
      p.version = version
      table.insert(idle, p)
    else
      lost = lost + 1
    end
  end
end
{delay}
function done(summary, latency, requests)
  local total, hungry = 0, 0
  for _, thread in ipairs(threads) do
    total = total + (thread:get("whole") or 0)
    hungry = hungry + (thread:get("starved") or 0) + (thread:get("lost") or 0)
  end
  io.write("whole boards: " .. total .. "\\n")
  io.write("starved: " .. hungry .. "\\n")
end
"""


def refresh_versions(server: Server, players: list[dict[str, str]]) -> None:
    """Each player's page reloaded (a GET changes nothing): the board version it shows now."""
    with httpx.Client(timeout=30) as client:
        for player in players:
            page = client.get(
                server.url + player["path"][: -len("/tap")], headers={"Cookie": player["cookie"]}
            )
            found = re.search(r'X-Board-Version":"(\w+)"', page.text)
            assert found, page.text[:300]
            player["version"] = found.group(1)


def answer_bytes(server: Server, player: dict[str, str]) -> tuple[int, int]:
    """Raw and gzipped bytes of one tap answer (the player's page follows the answers)."""
    sizes = []
    for encoding in ("identity", "gzip"):
        headers = {
            **HTMX,
            "Cookie": player["cookie"],
            "Accept-Encoding": encoding,
            "Content-Type": FORM,
            "X-Board-Version": player["version"],
        }
        with (
            httpx.Client(timeout=30) as client,
            client.stream(
                "POST", server.url + player["path"], content=player["body"], headers=headers
            ) as response,
        ):
            assert response.status_code == 200
            body = b"".join(response.iter_raw())
            player["version"] = response.headers["x-board-version"]
            text = gzip.decompress(body) if encoding == "gzip" else body
            assert b'id="board" hx-swap-oob="outerMorph"' in text, text[:200]
            sizes.append(len(body))
    return sizes[0], sizes[1]


@dataclass(frozen=True)
class Measurement:
    store: str
    game: str
    floor: Load
    taps: Load
    floor_gzip: Load
    taps_gzip: Load
    answer_raw: int
    answer_gzip: int
    fixed: tuple[tuple[float, Load, Load], ...] = ()
    """At fixed offered loads (fractions of the tap capacity measured without gzip): the
    offered rate, the floor and the taps."""

    def lines(self) -> str:
        def part(name: str, floor: Load, taps: Load) -> str:
            return (
                f"  {name:8} floor {floor.rps:7.0f} req/s | taps {taps.rps:7.0f} req/s"
                f" (ratio {taps.rps / floor.rps:.2f}), p50 {taps.p50_ms:.1f} ms,"
                f" p99 {taps.p99_ms:.1f} ms (floor p99 {floor.p99_ms:.1f}),"
                f" non-2xx {taps.errors}, whole boards {taps.whole}, starved {taps.starved}"
            )

        return "\n".join(
            [
                f"{self.store} {self.game}: answer {self.answer_raw} B raw,"
                f" {self.answer_gzip} B gzip",
                part("no gzip", self.floor, self.taps),
                part("gzip", self.floor_gzip, self.taps_gzip),
                *(
                    f"  fixed load ~{offered:.0f} req/s offered: taps {taps.rps:.0f} req/s,"
                    f" p50 {taps.p50_ms:.1f} ms, p99 {taps.p99_ms:.1f} ms | floor"
                    f" p50 {floor.p50_ms:.1f} ms, p99 {floor.p99_ms:.1f} ms"
                    for offered, floor, taps in self.fixed
                ),
            ]
        )


def measure_game(
    server: Server,
    label: str,
    game: str,
    seconds: int,
    connections: int,
    threads: int,
    floors: Path,
    loads: tuple[float, ...] = (0.5,),
) -> Measurement:
    # one player per connection, or a pool of twice as many when threads share connections
    pool = connections if threads == connections else 2 * connections
    players = open_sessions(server, game, pool + 1)
    probe = players.pop()
    raw, gz = answer_bytes(server, probe)
    # the floor answers the bytes of a real tap answer of this game
    with httpx.Client(timeout=30) as client:
        headers = {**HTMX, "Cookie": probe["cookie"], "Content-Type": FORM}
        headers["X-Board-Version"] = probe["version"]
        answer = client.post(server.url + probe["path"], content=probe["body"], headers=headers)
    (floors / f"{game}.html").write_text(answer.text, "utf-8")

    def taps(seconds: int, *, compress: bool = False, delay_ms: int = 0) -> Load:
        refresh_versions(server, players)
        run = script(players, threads, floor=False, gzip=compress, delay_ms=delay_ms)
        return wrk(server, run, seconds, connections, threads)

    def floor(seconds: int, *, compress: bool = False, delay_ms: int = 0) -> Load:
        run = script(players, threads, floor=True, gzip=compress, delay_ms=delay_ms)
        return wrk(server, run, seconds, connections, threads)

    taps(2)  # warm up
    floor(1)
    rounds: dict[str, list[Load]] = {"floor": [], "taps": [], "floor_gz": [], "taps_gz": []}
    for _ in range(ROUNDS):  # interleaved: the machine's load drifts
        rounds["floor"].append(floor(seconds))
        rounds["taps"].append(taps(seconds))
        rounds["floor_gz"].append(floor(seconds, compress=True))
        rounds["taps_gz"].append(taps(seconds, compress=True))
    best = {name: _median(loads) for name, loads in rounds.items()}
    fixed = []
    for fraction in loads:
        # each connection waits an exponential think time of this mean before each tap
        delay = max(1, round(connections / (best["taps"].rps * fraction) * 1000))
        offered = connections / delay * 1000
        fixed.append((offered, floor(seconds, delay_ms=delay), taps(seconds, delay_ms=delay)))
    return Measurement(
        label,
        game,
        best["floor"],
        best["taps"],
        best["floor_gz"],
        best["taps_gz"],
        raw,
        gz,
        tuple(fixed),
    )


ROUNDS = 3
"""Floor and taps alternate this many times; each figure is the median of its rounds."""


def _median(loads: list[Load]) -> Load:
    return Load(
        statistics.median(load.rps for load in loads),
        statistics.median(load.p50_ms for load in loads),
        statistics.median(load.p99_ms for load in loads),
        sum(load.errors for load in loads),
        sum(load.whole for load in loads),
        sum(load.starved for load in loads),
    )


WORKERS = 1
"""Server processes: one, so the ratio is one process's CPU (the issue's measurement)."""


def measure(
    store: str,
    label: str,
    seconds: int,
    connections: int,
    threads: int,
    work: Path,
    workers: int,
    loads: tuple[float, ...],
) -> list[Measurement]:
    floors = work / "floors"
    floors.mkdir(exist_ok=True)
    os.environ["SOLITAIRE_BENCH_FLOOR"] = str(floors)
    server = start_server(store, work, name=label, workers=workers)
    try:
        return [
            measure_game(server, label, g, seconds, connections, threads, floors, loads)
            for g in GAMES
        ]
    finally:
        server.stop()
        del os.environ["SOLITAIRE_BENCH_FLOOR"]


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


RAISED: Final = {
    "SOLITAIRE_RATE_WRITES": "100000000/minute",
    "SOLITAIRE_RATE_NEW": "100000000/minute",
}
"""The limits on, as ``scripts/run`` ships them, raised out of a load test's reach (all the
benchmark's players share 127.0.0.1)."""

LIMITS_OFF: Final = {"SOLITAIRE_RATE_WRITES": "off", "SOLITAIRE_RATE_NEW": "off"}

RUN_ARGS: Final = (
    "--proxy-headers",
    "--http",
    "app.server:TimedHttpToolsProtocol",
    "--limit-concurrency",
    "1000",
    "--timeout-keep-alive",
    "75",
)
"""uvicorn's options as ``scripts/run`` passes them."""

CONFIGURATIONS: Final = (
    ("sqlite", "SQLite FULL, limits on (out of reach)", RAISED),
    ("sqlite-off", "same, limits off", LIMITS_OFF),
    ("memory", "memory store, limits on", RAISED),
    ("redis", "Redis (no persistence), limits on", RAISED),
)
"""Issue 24's table: (name, label, environment). ``scripts/run``'s default comes first."""


@dataclass
class Side:
    """One checkout's servers for the table: ``main`` (the baseline) or ``change``."""

    name: str
    root: Path
    servers: dict[str, Server]
    players: dict[str, list[dict[str, str]]]


def checkout(ref: str, work: Path) -> Path:
    """A directory holding ``ref``: the directory itself, or ``git archive`` of the commit."""
    given = Path(ref)
    if given.is_dir():
        return given.resolve()
    folder = work / f"checkout-{re.sub(r'[^A-Za-z0-9]', '_', ref)}"
    folder.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", ref], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def start_side(name: str, root: Path, work: Path, redis_url: str | None, players: int) -> Side:
    servers: dict[str, Server] = {}
    for config, _, env in CONFIGURATIONS:
        if config == "redis" and redis_url is None:
            continue
        store = {
            "memory": "memory:",
            "redis": redis_url or "",
        }.get(config, str(work / f"{name}-{config}.db"))
        servers[config] = start_server(
            store, work, name=f"{name}-{config}", env=env, root=root, args=RUN_ARGS
        )
    side = Side(name, root, servers, {})
    for config, server in servers.items():
        side.players[config] = open_sessions(server, "half-moon", players)
    return side


@dataclass
class Row:
    label: str
    loads: list[Load]
    load_average: list[float]

    @property
    def rps(self) -> float:
        return statistics.median(load.rps for load in self.loads)

    @property
    def p99(self) -> float:
        return statistics.median(load.p99_ms for load in self.loads)

    def cell(self) -> str:
        low = min(load.rps for load in self.loads)
        high = max(load.rps for load in self.loads)
        return f"{self.rps:,.0f} ({low:,.0f}–{high:,.0f}) | {self.p99:.1f}"

    def faults(self) -> int:
        return sum(load.errors + load.whole + load.starved for load in self.loads)


def issue_table(args: argparse.Namespace, work: Path) -> None:
    """Issue 24's table for the baseline and this checkout, measured in one run: the same
    rounds, each round measuring every configuration of both once, interleaved."""
    floors = work / "floors"
    floors.mkdir(exist_ok=True)
    os.environ["SOLITAIRE_BENCH_FLOOR"] = str(floors)
    redis_url = None
    redis = None
    if not args.skip_redis:
        from tests.store.redis_server import start_redis_server

        redis, url = start_redis_server(work)
        redis_url = url.rsplit("/", 1)[0]
    sides: list[Side] = []
    minimal: Server | None = None
    players = 2 * args.connections  # a pool per thread, as in the issue's measurement
    try:
        change = start_side("change", ROOT, work, redis_url and f"{redis_url}/2", players + 1)
        probe = change.players["sqlite"].pop()
        answer_bytes(change.servers["sqlite"], probe)
        with httpx.Client(timeout=30) as client:  # the floors answer a real tap's bytes
            headers = {**HTMX, "Cookie": probe["cookie"], "Content-Type": FORM}
            headers["X-Board-Version"] = probe["version"]
            answer = client.post(
                change.servers["sqlite"].url + probe["path"], content=probe["body"], headers=headers
            )
        (floors / "half-moon.html").write_text(answer.text, "utf-8")
        if args.baseline != "none":
            root = checkout(args.baseline, work)
            name = f"main@{args.baseline}" if not Path(args.baseline).is_dir() else "baseline"
            sides.insert(
                0, start_side(name, root, work, redis_url and f"{redis_url}/1", players + 1)
            )
            for side in sides[:1]:
                side.players["sqlite"].pop()
        sides.append(change)
        minimal = start_server("memory:", work, name="minimal", app="bench.minimal_app:app")
        rows: dict[tuple[str, str], Row] = {}
        plan: list[tuple[str, str, Server, list[dict[str, str]], bool]] = []
        for config, label, _ in CONFIGURATIONS:
            for side in sides:
                if config in side.servers:
                    plan.append(
                        (side.name, config, side.servers[config], side.players[config], False)
                    )
                    rows[(side.name, config)] = Row(label, [], [])
        for side in sides:  # the project's floor: its middleware, limits on, no game
            plan.append((side.name, "floor", side.servers["sqlite"], side.players["sqlite"], True))
            rows[(side.name, "floor")] = Row(
                "the project's floor route (SQLite, limits on)", [], []
            )
        plan.append(("both", "minimal", minimal, change.players["sqlite"], True))
        rows[("both", "minimal")] = Row(
            "a minimal FastAPI app (form POST, cookie, static bytes)", [], []
        )
        for _name, _, server, pool, floor in plan:  # warm up
            if not floor:
                refresh_versions(server, pool)
            wrk(
                server,
                script(pool, args.threads, floor=floor, gzip=False),
                2,
                args.connections,
                args.threads,
            )
        for round_ in range(args.rounds):
            for name, config, server, pool, floor in plan:
                if not floor:
                    refresh_versions(server, pool)
                run = script(pool, args.threads, floor=floor, gzip=False)
                load = wrk(server, run, args.seconds, args.connections, args.threads)
                rows[(name, config)].loads.append(load)
                rows[(name, config)].load_average.append(os.getloadavg()[0])
            print(
                f"round {round_ + 1} of {args.rounds} done, load average {os.getloadavg()[0]:.1f}",
                flush=True,
            )
        print_table(rows, [side.name for side in sides], args)
    finally:
        for side in sides:
            for server in side.servers.values():
                server.stop()
        if minimal is not None:
            minimal.stop()
        if redis is not None:
            redis.terminate()
        del os.environ["SOLITAIRE_BENCH_FLOOR"]


def print_table(
    rows: dict[tuple[str, str], Row], sides: list[str], args: argparse.Namespace
) -> None:
    """The table (medians of the rounds, the range of taps/s in brackets), then the ratios."""
    print(
        f"\nHalf Moon taps, 1 uvicorn worker, wrk -t{args.threads} -c{args.connections}"
        f" -d{args.seconds}s, {args.rounds} rounds interleaved; every answer a followed partial"
        " 200 (non-2xx, whole boards and starved requests summed last)\n"
    )
    head = " | ".join(f"{side} taps/s | {side} p99 ms" for side in sides)
    print(f"| configuration | {head} | load avg | faults |")
    print("|---|" + "---:|---:|" * len(sides) + "---:|---:|")
    names = [config for config, _, _ in CONFIGURATIONS] + ["floor"]
    for config in [*names, "minimal"]:
        found = [rows.get((side, config)) for side in sides]
        if config == "minimal":
            found = [rows[("both", "minimal")]] * len(sides)
        present = [row for row in found if row is not None]
        if not present:
            continue
        cells = " | ".join(row.cell() if row else "– | –" for row in found)
        loads = [x for row in present for x in row.load_average]
        faults = sum(row.faults() for row in present)
        print(
            f"| {present[0].label} | {cells} | {statistics.median(loads):.1f}"
            f" ({min(loads):.1f}–{max(loads):.1f}) | {faults} |"
        )
    minimal = rows[("both", "minimal")].rps
    print()
    for side in sides:
        floor = rows[(side, "floor")].rps
        parts = []
        for config in ("sqlite", "redis", "memory"):
            row = rows.get((side, config))
            if row is not None:
                parts.append(
                    f"{config} taps ÷ minimal app {row.rps / minimal:.2f}, ÷ floor route"
                    f" {row.rps / floor:.2f}"
                )
        print(f"{side}: " + "; ".join(parts))
    if len(sides) == 2:
        for config, label, _ in CONFIGURATIONS:
            before, after = rows.get((sides[0], config)), rows.get((sides[1], config))
            if before and after:
                print(
                    f"{label}: taps {after.rps / before.rps:.2f} × {sides[0]}'s,"
                    f" p99 {before.p99:.1f} → {after.p99:.1f} ms"
                )
    if "redis" in {c for (_, c) in rows}:
        for side in sides:
            redis, sqlite = rows.get((side, "redis")), rows.get((side, "sqlite"))
            if redis and sqlite:
                print(f"{side}: Redis taps ÷ SQLite taps {redis.rps / sqlite.rps:.2f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=6)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        help="wrk threads (default: 1 for the table, as the issue measured; one per connection"
        " for --details)",
    )
    parser.add_argument(
        "--baseline",
        default="main",
        help="the checkout to compare with: a directory, a git ref (archived), or none",
    )
    parser.add_argument("--skip-redis", action="store_true")
    parser.add_argument(
        "--details",
        action="store_true",
        help="after the table: both games per store with and without gzip, fixed loads",
    )
    parser.add_argument(
        "--loads",
        default="0.5",
        help="(--details) fixed offered loads, fractions of the tap capacity (comma-separated)",
    )
    parser.add_argument("--workers", type=int, default=WORKERS, help="(--details)")
    parser.add_argument(
        "--scaling", action="store_true", help="(--details) 100,000 games, 10,000 sessions"
    )
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--sessions", type=int, default=10_000)
    args = parser.parse_args(argv)
    ensure_wrk()
    work = Path(tempfile.mkdtemp(prefix="bench-http-"))
    table_threads, args.threads = args.threads, args.threads or 1
    print(f"uptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    issue_table(args, work)
    if args.details:
        args.threads = table_threads or args.connections
        details(args, work)
    print(f"details in {work}")


def details(args: argparse.Namespace, work: Path) -> None:
    """The per-store figures of issue 12 item 5: both games, gzip, fixed loads, scaling."""
    db = work / "games.db"
    loads = tuple(float(x) for x in args.loads.split(","))
    run = (args.seconds, args.connections, args.threads, work, args.workers, loads)
    results = measure(str(db), "sqlite", *run)
    if not args.skip_redis:
        from tests.store.redis_server import start_redis_server

        redis, url = start_redis_server(work / "details-redis")
        try:
            results += measure(url, "redis", *run)
        finally:
            redis.terminate()
    for result in results:
        print(result.lines())
    summary = [result.__dict__ for result in results]
    (work / "results.json").write_text(json.dumps(summary, default=lambda o: o.__dict__, indent=1))
    if not args.scaling:
        return

    # store scaling: the same SQLite file with 100,000 more games
    con = sqlite3.connect(db)
    count, per_game = con.execute(
        "SELECT COUNT(*), AVG(LENGTH(record) + LENGTH(extra) + LENGTH(code) + LENGTH(sid) + 24)"
        " FROM games"
    ).fetchone()
    con.close()
    print(f"bytes per stored game (record, key and columns; before indexes): {per_game:.0f}")
    fill_sqlite(db, args.games)
    big = measure(str(db), "sqlite-100k", *run)
    small = statistics.median(r.taps.p50_ms for r in results if r.store == "sqlite")
    large = statistics.median(r.taps.p50_ms for r in big)
    print(
        f"tap p50 with {count} stored games {small:.1f} ms, with {count + args.games:,}"
        f" {large:.1f} ms: ratio {large / small:.2f};"
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


if __name__ == "__main__":
    main()
