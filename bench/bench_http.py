"""HTTP speed, side by side in one run: taps against an honest floor, both games, per store.

Run: ``.venv/bin/python -m bench.bench_http [--seconds 8] [--connections 32] [--workers 1]
[--threads N]``

For each store (SQLite with synchronous=FULL, then Redis) it starts a real uvicorn on a free
loopback port with the floor route mounted (``app/web/floor.py``), opens one player session
per connection and per game, and drives it with ``wrk`` (installed from the system packages
when missing), one wrk thread per connection so each connection is one player whose page
follows its own board version (read from the answer's ``X-Board-Version`` header) exactly as
htmx does. With ``--threads N`` (fewer threads than connections, as in the issue's original
measurement: ``wrk -t2 -c32``, 2 workers) each thread drives a pool of twice as many players as
it has connections: a request takes an idle player, and the answer's board version, which is one
of the two that player's board can show (card selected or not), hands the player back:

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

import httpx

from app.engine.codes import DealCode
from app.engine.halfmoon import deal
from app.engine.seahaven import COLUMNS, deal_position
from tests.system.servers import Server, start_server

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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--workers", type=int, default=WORKERS)
    parser.add_argument(
        "--threads", type=int, default=0, help="wrk threads (default: one per connection)"
    )
    parser.add_argument(
        "--loads",
        default="0.5",
        help="fixed offered loads, fractions of the tap capacity (comma-separated)",
    )
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--skip-redis", action="store_true")
    parser.add_argument("--skip-scaling", action="store_true")
    args = parser.parse_args(argv)
    ensure_wrk()
    work = Path(tempfile.mkdtemp(prefix="bench-http-"))
    db = work / "games.db"
    threads = args.threads or args.connections
    loads = tuple(float(x) for x in args.loads.split(","))
    run = (args.seconds, args.connections, threads, work, args.workers, loads)
    results = measure(str(db), "sqlite", *run)
    if not args.skip_redis:
        from tests.store.redis_server import start_redis_server

        redis, url = start_redis_server(work)
        try:
            results += measure(url, "redis", *run)
        finally:
            redis.terminate()
    for result in results:
        print(result.lines())
    summary = [result.__dict__ for result in results]
    (work / "results.json").write_text(json.dumps(summary, default=lambda o: o.__dict__, indent=1))
    if args.skip_scaling:
        print(f"details in {work}")
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
    print(f"details in {work}")


if __name__ == "__main__":
    main()
