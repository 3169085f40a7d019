"""What one anonymous client can make the store keep, and what the rate limiter costs.

A real uvicorn (SQLite store, default limits: 240 writes a minute and 60 new games or
sessions an hour per address) faces one hostile client that

1. sends ``--gets`` requests without a cookie, GET and HEAD in turn, to every GET route of the
   app's route table (``tests/web/anonymous.py``: pages of ever new Half Moon and Seahaven
   deals, random and daily deals, a replay and a device link a player made beforehand, steps,
   languages, manifests, the service worker, assets by their hashed names, statistics with
   crafted notices, device-link guesses, 404s, GETs on POST-only routes; a GET route without
   sample paths stops the run; issue 23 wants 0 rows from any number of them),
2. floods one game with ``--taps`` taps,
3. tries to start ``--games`` new games, each from a fresh cookie (page, then one tap),
4. tries to make ``--settings`` new sessions by saving a setting from fresh cookies;
5. ends one game ``--endings`` times (issue 26: every ending is a replay): a short stuck line,
   then Undo and Redo over and over, each Redo ending the game again;

after each phase the rows of every table and the games' bytes are counted, so the run shows
what the store kept (issue 17 measured 10,000 GETs and 5,000 games kept before the limits;
issue 23 found every Seahaven deal opened kept a verdict row). Then the limiter's
cost: the same taps against two servers side by side, limits on (never reached) and off,
medians and their ratio.

    .venv/bin/python -m bench.bench_growth            # about a minute
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sqlite3
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from tests.system.servers import Server, start_server
from tests.web.anonymous import Made, anonymous_gets

TOKEN = re.compile(r'name="token" value="([^"]+)"')
CARD = re.compile(r'data-place="pile-1".*?data-card="([^"]+)"', re.DOTALL)
HTMX = {"HX-Request": "true"}


@dataclass
class Footprint:
    rows: dict[str, int]
    """Rows of every table: sessions, games, replays, statistics, deals, links, verdicts, rate
    limits."""
    bytes: int
    """Bytes of the sessions', games' and replays' data (sid, code, record, session JSON, the
    replay's line, columns)."""

    @property
    def total(self) -> int:
        return sum(self.rows.values())

    @property
    def replays(self) -> int:
        return self.rows.get("replays", 0)

    def __str__(self) -> str:
        others = {k: v for k, v in self.rows.items() if k not in ("sessions", "games") and v}
        rest = " ".join(f"{k} {v:,}" for k, v in others.items()) or "nothing else"
        return (
            f"{self.rows.get('sessions', 0):6,} sessions {self.rows.get('games', 0):6,} games"
            f" {self.bytes / 1024:9.1f} KiB; {rest}"
        )


def footprint(db: Path) -> Footprint:
    con = sqlite3.connect(db)
    try:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        rows = {t: con.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in tables}
        s_bytes = con.execute(
            "SELECT COALESCE(SUM(LENGTH(sid) + LENGTH(data) + 16), 0) FROM sessions"
        ).fetchone()[0]
        g_bytes = con.execute(
            "SELECT COALESCE(SUM(LENGTH(sid) + LENGTH(code) + LENGTH(record)"
            " + LENGTH(extra) + LENGTH(state) + 24), 0) FROM games"
        ).fetchone()[0]
        r_bytes = con.execute(
            "SELECT COALESCE(SUM(LENGTH(id) + LENGTH(sid) + LENGTH(code)"
            " + LENGTH(line) + LENGTH(state) + 40), 0) FROM replays"
        ).fetchone()[0]
    finally:
        con.close()
    return Footprint(rows, s_bytes + g_bytes + r_bytes)


def token_and_card(html: str) -> tuple[str, str]:
    token = TOKEN.search(html)
    card = CARD.search(html)
    if token is None or card is None:
        raise RuntimeError("the page has no token or no card on pile 1")
    return token.group(1), card.group(1)


def deal(i: int) -> str:
    """Half Moon deal code number ``i`` (base-32 digits, as DealCode writes them)."""
    from app.engine.codes import DealCode

    return str(DealCode("HM", 1, "N", i))


def made_by_a_player(server: Server) -> Made:
    """A replay and a device link, made by a player with a cookie before the anonymous GETs
    (a game ended once, then a link asked for on ``/stats``)."""
    with httpx.Client(base_url=server.url, timeout=30) as client:
        end_a_game(client)
        stats = client.get("/stats").text
        replay = re.search(r'href="/replay/([A-Za-z0-9_-]+)"', stats)
        token = TOKEN.search(stats)
        assert replay is not None, "no replay on /stats"
        assert token is not None
        made = client.post("/stats/link", data={"token": token.group(1)}).text
        link = re.search(r'id="device-link"[^>]*value="[^"]*/link/([^"]+)"', made)
        assert link is not None, "no device link on /stats"
        return Made(replay.group(1), link.group(1))


def phase_gets(server: Server, n: int, made: Made) -> None:
    """``n`` requests without a cookie, GET and HEAD in turn, round after round of every GET
    route's sample paths (each round new deals and guesses)."""
    from app.config import Config
    from app.main import create_app

    app = create_app(Config(store="memory:"))  # its route table only: nothing is opened
    with httpx.Client(base_url=server.url, timeout=30) as client:
        done = 0
        i = 0
        while done < n:
            for path in anonymous_gets(app, i, made):
                for method in ("GET", "HEAD"):
                    if done == n:
                        return
                    client.cookies.clear()
                    client.request(method, path, follow_redirects=True)
                    done += 1
            i += 1


def phase_games(server: Server, n: int) -> dict[int, int]:
    statuses: dict[int, int] = {}
    with httpx.Client(base_url=server.url, timeout=30) as client:
        for i in range(n):
            client.cookies.clear()
            url = f"/half-moon/{deal(1000 + i)}"
            token, card = token_and_card(client.get(url).text)
            response = client.post(
                f"{url}/tap", data={"place": "pile-1", "card": card, "token": token}, headers=HTMX
            )
            statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
    return statuses


def phase_settings(server: Server, n: int) -> dict[int, int]:
    statuses: dict[int, int] = {}
    with httpx.Client(base_url=server.url, timeout=30) as client:
        for _ in range(n):
            client.cookies.clear()
            token = TOKEN.search(client.get("/").text)
            assert token
            response = client.post(
                "/settings", data={"lang": "tr", "token": token.group(1), "next": "/"}
            )
            statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
    return statuses


def end_a_game(client: httpx.Client) -> str:
    """Play a Half Moon deal's stuck line (found as the browser tests find theirs) to its end;
    the game's URL."""
    from app.engine.halfmoon import place_name
    from tests.browser.play import hm_stuck_line

    code, line = hm_stuck_line()
    url = f"/half-moon/{code}"
    for removal in line:
        for place in removal:
            page = client.get(url).text
            token = TOKEN.search(page)
            card = re.search(
                rf'data-place="{place_name(place)}".*?data-card="([^"]+)"', page, re.DOTALL
            )
            assert token is not None
            assert card is not None
            data = {"place": place_name(place), "card": card.group(1), "token": token.group(1)}
            client.post(f"{url}/tap", data=data, headers=HTMX)
    return url


def phase_endings(server: Server, n: int) -> dict[int, int]:
    """One game ended ``n`` times: a stuck line (found as the browser tests find theirs), then
    Undo and Redo, each Redo ending it again."""
    statuses: dict[int, int] = {}
    with httpx.Client(base_url=server.url, timeout=30) as client:
        url = end_a_game(client)
        token = TOKEN.search(client.get(url).text)
        assert token
        for i in range(2 * n):
            verb = "undo" if i % 2 == 0 else "redo"
            response = client.post(f"{url}/{verb}", data={"token": token.group(1)}, headers=HTMX)
            statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
    return statuses


def tap_times(server: Server, n: int, code: str) -> tuple[list[float], dict[int, int]]:
    """``n`` taps on one game (select and deselect pile 1's card: every tap is written)."""
    times: list[float] = []
    statuses: dict[int, int] = {}
    with httpx.Client(base_url=server.url, timeout=30) as client:
        url = f"/half-moon/{code}"
        token, card = token_and_card(client.get(url).text)
        data = {"place": "pile-1", "card": card, "token": token}
        for _ in range(n):
            start = time.perf_counter()
            response = client.post(f"{url}/tap", data=data, headers=HTMX)
            times.append((time.perf_counter() - start) * 1000)
            statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
    return times, statuses


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gets", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--settings", type=int, default=200)
    parser.add_argument("--taps", type=int, default=600)
    parser.add_argument("--endings", type=int, default=100)
    parser.add_argument("--cost-taps", type=int, default=400)
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="bench-growth-"))

    db = work / "games.db"
    limited = {"SOLITAIRE_RATE_WRITES": "240/minute", "SOLITAIRE_RATE_NEW": "60/hour"}
    server = start_server(str(db), work, name="limited", env=limited)
    try:
        print(f"start                                    {footprint(db)}")
        made = made_by_a_player(server)
        print(f"a player's replay and device link        {footprint(db)}")
        t = time.monotonic()
        before = footprint(db).total
        phase_gets(server, args.gets, made)
        took = time.monotonic() - t
        after = footprint(db)
        print(f"{args.gets:,} GETs and HEADs without a cookie ({took:.0f} s)  {after}")
        print(f"  rows the GETs added: {after.total - before}")
        _, statuses = tap_times(server, args.taps, deal(1))
        print(f"{args.taps:,} taps on one game {statuses}  {footprint(db)}")
        t = time.monotonic()
        statuses = phase_games(server, args.games)
        print(
            f"{args.games:,} new games tried {statuses} ({time.monotonic() - t:.0f} s)"
            f"  {footprint(db)}"
        )
        statuses = phase_settings(server, args.settings)
        print(f"{args.settings:,} new sessions tried {statuses}  {footprint(db)}")
        time.sleep(60)  # the write limit's minute again
        statuses = phase_endings(server, args.endings)
        print(f"one game ended {args.endings:,} times {statuses}  {footprint(db)}")
    finally:
        server.stop()

    # the limiter's cost: limits on (never reached) and off, side by side, alternating blocks
    never = {"SOLITAIRE_RATE_WRITES": "1000000/minute", "SOLITAIRE_RATE_NEW": "1000000/hour"}
    on = start_server(str(work / "on.db"), work, name="on", env=never)
    off = start_server(str(work / "off.db"), work, name="off")
    try:
        on_times: list[float] = []
        off_times: list[float] = []
        block = max(1, args.cost_taps // 10)
        for i in range(10):
            on_times += tap_times(on, block, deal(50 + i))[0]
            off_times += tap_times(off, block, deal(50 + i))[0]
    finally:
        on.stop()
        off.stop()
    on_p50, off_p50 = statistics.median(on_times), statistics.median(off_times)
    print(
        f"tap p50 limits on {on_p50:.2f} ms, off {off_p50:.2f} ms: ratio {on_p50 / off_p50:.2f}"
        f" ({len(on_times)} taps each, SQLite store, one worker)"
    )
    print(f"SQLite store's token bucket, one hit in process: {hit_cost(work):.1f} µs (median)")
    print(f"details in {work}")


def hit_cost(work: Path, n: int = 2000) -> float:
    """Microseconds per hit of the SQLite store's limiter (:class:`BucketLimiter`: decided in
    memory, its counts shared through the group commit), in process, on the loop's thread."""
    import limits

    from app.store.buckets import BucketLimiter
    from app.store.ratelimit import Limits
    from app.store.sqlite import SQLiteStore
    from app.store.sync import SyncStore

    store = SyncStore(SQLiteStore(str(work / "cost.db")))
    limiter = store.rate_limiter(Limits.parse("off", "off"))
    assert isinstance(limiter, BucketLimiter)
    item = limits.parse("1000000/minute")
    times = []

    async def hits() -> None:
        for i in range(n):
            start = time.perf_counter()
            await limiter.take_async(item, f"write:203.0.113.{i % 50}", "spend")
            times.append((time.perf_counter() - start) * 1e6)

    try:
        asyncio.run(hits())
    finally:
        limiter.close()
        store.close()
    return statistics.median(times)


if __name__ == "__main__":
    main()
