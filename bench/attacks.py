"""Issue 23's and 34's attacks, replayed against real servers: did each one do harm?

For the baseline (``--baseline``: a git ref archived into the work folder, or a directory;
``none`` to skip) and for this checkout, each attack runs against fresh ``scripts/run``-style
servers (the SQLite store; rate limits as the attack needs them) through HTTP only, as an
attacker would, and prints one line: ``harm`` or ``no harm``, with what was seen.

1. ``growth`` — 300 cookie-less GETs of Seahaven deals nobody played: rows added to the store.
   ``full`` — Redis at its ``maxmemory`` (``noeviction``, filled up): a new player's first
   tap, and what ``/health`` says meanwhile (503 for the tap while ``/health`` says 200?).
2. ``answers`` — the Redis store (a real ``redis-server`` of the attack's own) stalls while
   taps are under way: players tap on, a thread stops Redis (SIGSTOP) for longer than
   ``SOLITAIRE_STORE_TIMEOUT`` and resumes it (SIGCONT), again and again. Each 503 is checked
   against the game as Redis holds it once resumed: an answer saying "not made" for a move
   that was made? And a tap sent twice with the same ``X-Board-Version`` (its answer lost):
   applied twice?
3. ``planting`` — under HTTPS an attacker plants their own session id as a plain ``sid``
   (a sibling subdomain can): does the victim then play in the attacker's session?
   Also a made-up id: is it adopted?
4. ``revoke`` — a device link used by a second browser, then revoked: does the second browser
   still see the owner's games? Does the access log show the link's secret?
5. ``notices`` — ``?n=unreadable`` on a readable game, ``/stats?n=revoked`` while the link
   works: is the untrue notice shown?
6. ``inflate`` — a won deal pushed out of the session's 100 games, then won again: does it
   count twice? Yesterday's daily deal, first played today and won: a daily streak for it?
7. ``limits`` — ``/health`` while the connection cap is held; ``X-Forwarded-For`` text that is
   no address: a new limit per text?; a right link secret after 20 wrong guesses: told apart?
8. ``noise`` — an aborted POST body: log lines; a 70 KB body sent with its headers: 431?
9. ``long`` — a game at the move cap (5,000 moves): one view's time against a fresh deal's,
   and ``/health`` p50 while 16 clients view it (``bench/bench_long_game.py``'s code, shorter
   runs; that bench measures it at length).

Issue 34's (findings 2, 4 and 6; finding 1 is ``answers``' "not made" for a move made):

10. ``revoke-race`` — ten Revokes sent at once by the owner's browser: how many answers end
    on the id that holds the owner's game?
11. ``at-once`` — 64 new games sent at once from one address with 5 an hour: how many made?
12. ``standings`` — three scripts win one deal (48 moves in a second or two): is the third
    ranked among the other two?

    .venv/bin/python -m bench.attacks [--baseline main] [--only growth,planting]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import signal
import socket
import sqlite3
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from bench import bench_long_game as long_game
from bench.bench_http import RUN_ARGS, checkout
from tests.store.redis_server import fill_redis, start_redis_server, stop_redis_server
from tests.system.servers import Server, start_server
from tests.web.html import Element, parse

Result = tuple[bool, str]
"""Whether the attack did harm, and what was seen."""

HM = "HM1-N-AAAAAAB"
HTTPS = "https://cards.example"


def rows(db: Path) -> int:
    con = sqlite3.connect(db)
    try:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return sum(con.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in tables)
    finally:
        con.close()


def token_of(page: Element) -> str:
    return page.find_all("input", name="token")[0].attrs["value"]


def first_card(page: Element) -> str:
    return page.find(data_place="pile-1").find("button").attrs["data-card"]


def tap(client: httpx.Client, code: str, place: str = "pile-1", card: str | None = None) -> int:
    page = parse(client.get(f"/half-moon/{code}").text)
    card = first_card(page) if card is None else card
    data = {"place": place, "card": card, "token": token_of(page)}
    return client.post(f"/half-moon/{code}/tap", data=data).status_code


def won(client: httpx.Client) -> str:
    page = parse(client.get("/stats").text)
    row = page.find("tr", data_kind="HM")
    return next(td.text.strip() for td in row.find_all("td") if td.attrs["data-field"] == "won")


def win(client: httpx.Client, code: str) -> None:
    from app.engine.codes import DealCode
    from app.engine.halfmoon import deal, place_name
    from app.engine.halfmoon.solver import solve

    for removal in solve(deal(DealCode.parse(code))).line:
        for place in removal:
            page = parse(client.get(f"/half-moon/{code}").text)
            name = place_name(place)
            cards = page.find(data_place=name).find_all(data_card=True)
            data = {"place": name, "card": cards[0].attrs["data-card"], "token": token_of(page)}
            client.post(f"/half-moon/{code}/tap", data=data)


class Target:
    """One checkout: starts its servers in a work folder of its own."""

    def __init__(self, name: str, root: Path, work: Path) -> None:
        self.name, self.root, self.work = name, root, work
        self.count = 0
        self.db = work / "none.db"
        """The store of the server started last."""

    def server(
        self,
        env: dict[str, str] | None = None,
        args: tuple[str, ...] = (),
        store: str | None = None,
        prepare: Callable[[Path], None] | None = None,
    ) -> Server:
        """A server of this checkout on a new SQLite file (``prepare`` writes to it before the
        server starts), or on ``store``."""
        self.count += 1
        db = self.db = self.work / f"{self.name}-{self.count}.db"
        if prepare is not None:
            prepare(db)
        settings = {"SOLITAIRE_RATE_WRITES": "off", "SOLITAIRE_RATE_NEW": "off", **(env or {})}
        return start_server(
            store or str(db),
            self.work,
            name=f"{self.name}-{self.count}",
            env=settings,
            root=self.root,
            args=(*RUN_ARGS, *args),
        )


def attack_growth(target: Target) -> Result:
    from app.engine.codes import DealCode

    server = target.server()
    try:
        db = target.db
        before = rows(db)
        with httpx.Client(base_url=server.url, timeout=60) as client:
            for n in range(300):
                client.cookies.clear()
                client.get(f"/seahaven/{DealCode('SH', 1, 'C1', 20_000 + n)}")
        added = rows(db) - before
    finally:
        server.stop()
    return added > 0, f"{added} rows added by 300 cookie-less GETs"


def attack_full(target: Target) -> Result:
    import redis

    redis_process, redis_url = start_redis_server(target.work / f"redis-full-{target.name}")
    try:
        server = target.server(store=redis_url)  # started: its layout marker and secret kept
        try:
            with redis.Redis.from_url(redis_url) as operator:
                used = int(operator.info("memory")["used_memory"])
                operator.config_set("maxmemory-policy", "noeviction")
                operator.config_set("maxmemory", used + 512 * 1024)
                fill_redis(operator)
                # over it for sure, not near its edge (used memory moves by a few KiB)
                used = int(operator.info("memory")["used_memory"])
                operator.config_set("maxmemory", used - 64 * 1024)
            with httpx.Client(base_url=server.url, timeout=30) as player:
                first = tap(player, HM)
            health = httpx.get(f"{server.url}/health", timeout=30)
        finally:
            server.stop()
    finally:
        stop_redis_server(redis_process)
    seen = f"a new player's first tap: {first}; /health: {health.status_code} {health.text!r}"
    return first == 503 and health.status_code == 200, seen


STALL_TIMEOUT = 0.4
"""``SOLITAIRE_STORE_TIMEOUT`` of the ``answers`` attack's servers: a stall outlasts it."""


def pressed(page: Element) -> bool:
    return (
        page.by_id("board").find(data_place="pile-1").find("button").attrs["aria-pressed"] == "true"
    )


def _version(page: Element) -> str:
    return str(page.by_id("board").attrs["hx-headers:inherited"]).split('"')[3]


def _page_when_up(client: httpx.Client, code: str, running: threading.Event) -> Element:
    """The game's page once the store answers again."""
    while True:
        running.wait()
        response = client.get(f"/half-moon/{code}")
        if response.status_code == 200:
            return parse(response.text)
        time.sleep(0.05)


def _tapping(
    url: str, code: str, running: threading.Event, done: threading.Event, seen: list[str]
) -> None:
    """One player selecting and deselecting pile 1's card until ``done``; after each 503,
    once Redis is back, whether the tap was in fact made (the card's state flipped)."""
    with httpx.Client(base_url=url, timeout=30) as client:
        while not done.is_set():
            page = _page_when_up(client, code, running)
            before = pressed(page)
            data = {"place": "pile-1", "card": first_card(page), "token": token_of(page)}
            headers = {"HX-Request": "true", "X-Board-Version": _version(page)}
            answer = client.post(f"/half-moon/{code}/tap", data=data, headers=headers)
            if answer.status_code != 503:
                seen.append(str(answer.status_code))
                continue
            said = (
                "not made"
                if "was not made" in answer.text
                else "unconfirmed"
                if "could not confirm" in answer.text
                else "503"
            )
            time.sleep(0.2)  # a write Redis held runs when it resumes
            made = pressed(_page_when_up(client, code, running)) != before
            seen.append(f"{said}, {'made' if made else 'not made'}")


def _stalls(pid: int, running: threading.Event, stalls: int) -> None:
    """Stop Redis ``stalls`` times, each for 1.5-3 store timeouts, at random moments."""
    chance = random.Random(23)
    for _ in range(stalls):
        time.sleep(chance.uniform(0.1, 0.4))
        os.kill(pid, signal.SIGSTOP)
        running.clear()
        time.sleep(chance.uniform(1.5, 3) * STALL_TIMEOUT)
        os.kill(pid, signal.SIGCONT)
        running.set()


def _sent_twice(url: str, rounds: int) -> int:
    """Taps sent twice from the same board (the first answer lost): how many were applied
    twice (the card selected, then deselected again)."""
    twice = 0
    with httpx.Client(base_url=url, timeout=30) as client:
        for n in range(rounds):
            code = str(_deal_code("HM", "N", 7000 + n))
            page = parse(client.get(f"/half-moon/{code}").text)
            data = {"place": "pile-1", "card": first_card(page), "token": token_of(page)}
            headers = {"HX-Request": "true", "X-Board-Version": _version(page)}
            for _ in range(2):
                client.post(f"/half-moon/{code}/tap", data=data, headers=headers)
            twice += not pressed(parse(client.get(f"/half-moon/{code}").text))
    return twice


def _deal_code(game: str, variant: str, number: int) -> object:
    from app.engine.codes import DealCode

    return DealCode(game, 1, variant, number)


def attack_answers(target: Target, players: int = 6, stalls: int = 40) -> Result:
    redis_process, redis_url = start_redis_server(target.work / f"redis-{target.name}")
    try:
        server = target.server({"SOLITAIRE_STORE_TIMEOUT": str(STALL_TIMEOUT)}, store=redis_url)
        try:
            running, done = threading.Event(), threading.Event()
            running.set()
            seen: list[str] = []
            tappers = [
                threading.Thread(
                    target=_tapping,
                    args=(server.url, str(_deal_code("HM", "N", 6000 + n)), running, done, seen),
                    daemon=True,
                )
                for n in range(players)
            ]
            for t in tappers:
                t.start()
            _stalls(redis_process.pid, running, stalls)
            done.set()
            for t in tappers:
                t.join(60)
            twice = _sent_twice(server.url, 10)
        finally:
            server.stop()
    finally:
        os.kill(redis_process.pid, signal.SIGCONT)
        stop_redis_server(redis_process)
    counts = {kind: seen.count(kind) for kind in sorted(set(seen))}
    false = counts.get("not made, made", 0)
    answered_503 = sum(v for k, v in counts.items() if not k.isdigit())
    shown = ", ".join(f"{k}: {v}" for k, v in counts.items() if not k.isdigit())
    seen_text = (
        f"{len(seen)} taps, {answered_503} answered 503 ({shown}): {false} said 'not made' for"
        f" a move that was made; a tap sent twice from one board: applied twice {twice} of 10"
    )
    return false > 0 or twice > 0, seen_text


def attack_long(target: Target, views: int = 40, clients: int = 16, seconds: float = 5) -> Result:
    sid = long_game.player_of(target.root)
    server = target.server(prepare=lambda db: long_game.seed(db, sid, target.root))
    try:
        value = long_game.cookie(sid, target.db)
        long_path = f"/seahaven/{long_game.CODE}"
        fresh, long = (
            statistics.median(times[1:])  # the first view of each: the worker's first
            for times in long_game.view_times(server, value, (long_game.FRESH, long_path), views)
        )
        health = [
            long_game.p(long_game.health_under_load(server, value, path, clients, seconds), 0.5)
            for path in (long_game.FRESH, long_path)
        ]
    finally:
        server.stop()
    seen = (
        f"a view of 5,000 moves {long:.1f} ms against {fresh:.1f} ms for a fresh deal"
        f" ({long / fresh:.1f}x); /health p50 {health[1]:.0f} ms while {clients} clients view"
        f" it ({health[0]:.0f} ms while they view a fresh deal; load average"
        f" {os.getloadavg()[0]:.1f})"
    )
    return long > 2 * fresh, seen


def attack_planting(target: Target) -> Result:
    server = target.server({"SOLITAIRE_ORIGIN": HTTPS})  # a proxy speaks plain HTTP to it
    try:
        with httpx.Client(base_url=server.url, timeout=30) as attacker:
            first = attacker.get("/")
            found = re.search(r"__Host-sid=([^;]+)", first.headers.get("set-cookie", ""))
            assert found is not None
            planted = found.group(1)  # the attacker's own session …
            attacker.headers["cookie"] = f"__Host-sid={planted}"  # (sent as a browser would)
            tap(attacker, HM)  # … with a selected card
        with httpx.Client(base_url=server.url, timeout=30) as victim:
            victim.headers["cookie"] = f"sid={planted}"  # what a sibling subdomain can set
            page = parse(victim.get(f"/half-moon/{HM}").text)
            adopted = bool(page.find_all(aria_pressed="true"))
        with httpx.Client(base_url=server.url, timeout=30) as other:
            made_up = "M" * 32
            other.cookies.set("__Host-sid", made_up)
            response = other.get("/")
            kept = any(made_up in c for c in response.headers.get_list("set-cookie"))
    finally:
        server.stop()
    seen = f"planted plain sid adopted: {adopted}; a made-up id kept: {kept}"
    return adopted or kept, seen


def _link(client: httpx.Client) -> str:
    token = token_of(parse(client.get("/stats").text))
    made = client.post("/stats/link", data={"token": token})
    return str(parse(made.text).by_id("device-link").attrs["value"]).rsplit("/", 1)[1]


def attack_revoke(target: Target) -> Result:
    server = target.server(args=("--access-log",))
    try:
        with (
            httpx.Client(base_url=server.url, timeout=30) as owner,
            httpx.Client(base_url=server.url, timeout=30) as thief,
        ):
            tap(owner, HM)
            secret = _link(owner)
            question = thief.get(f"/link/{secret}")
            thief.post(f"/link/{secret}", data={"token": token_of(parse(question.text))})
            token = token_of(parse(owner.get("/stats").text))
            owner.post("/stats/link/revoke", data={"token": token})
            page = parse(thief.get(f"/half-moon/{HM}").text)
            still = bool(page.find_all(aria_pressed="true"))
        time.sleep(0.5)
        logged = secret in server.log.read_text(errors="replace")
    finally:
        server.stop()
    return (
        still or logged,
        f"after revoking, the thief still sees the game: {still}; secret in log: {logged}",
    )


def attack_notices(target: Target) -> Result:
    server = target.server()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            tap(client, HM)
            page = parse(client.get(f"/half-moon/{HM}?n=unreadable").text)
            unreadable = "could not be read" in page.by_id("status").text
            _link(client)
            stats = parse(client.get("/stats?n=revoked").text)
            revoked = bool(stats.find_all(id="stats-notice"))
    finally:
        server.stop()
    return unreadable or revoked, f"?n=unreadable shown: {unreadable}; ?n=revoked shown: {revoked}"


def attack_inflate(target: Target) -> Result:
    import asyncio

    from app.engine.codes import DealCode
    from app.services import daily

    server = target.server()
    try:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            win(client, HM)
            for n in range(100):  # a hundred newer games push the won one out
                tap(client, str(DealCode("HM", 1, "N", 5000 + n)))
            win(client, HM)
            twice = won(client)
        with httpx.Client(base_url=server.url, timeout=60) as client:
            yesterday = daily.yesterday_of(daily.today())
            code = str(asyncio.run(daily.daily_codes(yesterday))["HM"])
            win(client, code)
            streak = parse(client.get("/stats").text).by_id("daily-streak").text
    finally:
        server.stop()
    counted_twice = twice != "1"
    yesterday_counts = not streak.startswith("Daily streak: 0 days")
    seen = f"won after winning one deal twice: {twice}; yesterday's deal: {streak!r}"
    return counted_twice or yesterday_counts, seen


def _held(server: Server, n: int) -> list[socket.socket]:
    host, port = server.url.removeprefix("http://").split(":")
    held = []
    for _ in range(n):
        sock = socket.create_connection((host, int(port)), timeout=10)
        sock.sendall(b"GET /faq HTTP/1.1\r\nHost: test\r\n\r\n")
        sock.recv(65536)
        held.append(sock)
    return held


def attack_limits(target: Target) -> Result:
    server = target.server({"SOLITAIRE_RATE_WRITES": "3/minute"}, args=("--limit-concurrency", "6"))
    try:
        held = _held(server, 5)
        try:
            health = httpx.get(f"{server.url}/health", timeout=10).status_code
        finally:
            for sock in held:
                sock.close()
        time.sleep(0.3)
        statuses = []
        for i in range(6):
            with httpx.Client(base_url=server.url, timeout=30) as client:
                token = token_of(parse(client.get("/stats").text))
                forwarded = {"X-Forwarded-For": f"not-an-address-{i}"}
                response = client.post("/stats/reset", data={"token": token}, headers=forwarded)
                statuses.append(response.status_code)
        escaped = 429 not in statuses
    finally:
        server.stop()
    guess = target.server()
    try:
        with httpx.Client(base_url=guess.url, timeout=30) as owner:
            secret = _link(owner)
        with httpx.Client(base_url=guess.url, timeout=30) as guesser:
            token = token_of(parse(guesser.get("/").text))
            for i in range(20):
                guesser.get(f"/link/{'G' * 30}{i:02d}")
                guesser.post(f"/link/{'G' * 30}{i:02d}", data={"token": token})
            wrong = guesser.post(f"/link/{'W' * 32}", data={"token": token}).status_code
            right = guesser.post(f"/link/{secret}", data={"token": token}).status_code
            right_get = guesser.get(f"/link/{secret}").status_code
            wrong_get = guesser.get(f"/link/{'W' * 32}").status_code
    finally:
        guess.stop()
    oracle = wrong != right or right_get != wrong_get
    seen = (
        f"/health at the cap: {health}; 6 POSTs with new forwarded text: {statuses}; past the"
        f" guess limit, wrong/right: POST {wrong}/{right}, GET {wrong_get}/{right_get}"
    )
    return health != 200 or escaped or oracle, seen


def attack_noise(target: Target) -> Result:
    server = target.server()
    host, port = server.url.removeprefix("http://").split(":")
    try:
        before = len(server.log.read_text(errors="replace").splitlines())
        with socket.create_connection((host, int(port)), timeout=10) as sock:
            sock.sendall(
                b"POST /settings HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n"
                b"Content-Type: application/x-www-form-urlencoded\r\n\r\ntoken="
            )
            time.sleep(0.3)
        time.sleep(1)
        lines = len(server.log.read_text(errors="replace").splitlines()) - before
        body = b"token=" + b"a" * 70_000
        with socket.create_connection((host, int(port)), timeout=10) as sock:
            sock.sendall(
                b"POST /settings HTTP/1.1\r\nHost: t\r\nContent-Length: "
                + str(len(body)).encode()
                + b"\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\n"
                + body
            )
            status = sock.recv(65536)[:12].decode(errors="replace")
    finally:
        server.stop()
    return lines > 1 or "413" not in status, f"log lines for an aborted body: {lines}; {status!r}"


def attack_revoke_race(target: Target) -> Result:
    """Issue 34, finding 2: ten Revokes sent at once by the owner's browser; which id does
    each answer give it, and does that id hold the owner's game?"""
    from concurrent.futures import ThreadPoolExecutor

    server = target.server()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as owner:
            tap(owner, HM)
            _link(owner)
            token = token_of(parse(owner.get("/stats").text))
            name, value = next((c.name, c.value) for c in owner.cookies.jar)

            def revoke(_: int) -> str:
                with httpx.Client(base_url=server.url, timeout=30) as c:
                    c.cookies.set(name, value)
                    answer = c.post("/stats/link/revoke", data={"token": token})
                    return answer.cookies.get(name) or value

            with ThreadPoolExecutor(10) as pool:
                ends = list(pool.map(revoke, range(10)))
            holding = 0
            for cookie in ends:
                with httpx.Client(base_url=server.url, timeout=30) as c:
                    c.cookies.set(name, cookie)
                    page = parse(c.get(f"/half-moon/{HM}").text)
                    holding += bool(page.find_all(aria_pressed="true"))
    finally:
        server.stop()
    return holding < 10, f"of 10 Revokes at once, {holding} end on the id that holds the game"


def attack_limits_at_once(target: Target) -> Result:
    """Issue 34, finding 6: 64 new games sent at once from one address with 5 new games an
    hour: how many are made?"""
    from concurrent.futures import ThreadPoolExecutor

    server = target.server(env={"SOLITAIRE_RATE_NEW": "5/hour"})
    try:
        clients = [httpx.Client(base_url=server.url, timeout=60) for _ in range(64)]
        forms = []
        for n, client in enumerate(clients):
            code = f"HM1-N-AAAAA{'ABCDEFGH'[n // 8]}{'ABCDEFGH'[n % 8]}"
            page = parse(client.get(f"/half-moon/{code}").text)
            forms.append((client, code, page))

        def send(item: tuple[httpx.Client, str, Element]) -> int:
            client, code, page = item
            data = {"place": "pile-1", "card": first_card(page), "token": token_of(page)}
            return client.post(f"/half-moon/{code}/tap", data=data).status_code

        with ThreadPoolExecutor(64) as pool:
            answers = list(pool.map(send, forms))
        for client in clients:
            client.close()
    finally:
        server.stop()
    made = sum(a != 429 for a in answers)
    return made > 5, f"64 new games at once with 5 an hour: {made} made"


def attack_standings(target: Target) -> Result:
    """Issue 34, finding 4: three scripts win one deal in a second or two each (48 moves); the
    third reads where its win stands."""
    server = target.server()
    said = ""
    try:
        for _ in range(3):
            with httpx.Client(base_url=server.url, timeout=60) as client:
                win(client, HM)
                found = parse(client.get(f"/half-moon/{HM}").text).find_all(id="standing")
                said = found[0].text if found else "(no standing: no ranked win)"
    finally:
        server.stop()
    return "2 other players" in said, f"the third scripted win: {said!r}"


ATTACKS: dict[str, Callable[[Target], Result]] = {
    "growth": attack_growth,
    "full": attack_full,
    "answers": attack_answers,
    "planting": attack_planting,
    "revoke": attack_revoke,
    "notices": attack_notices,
    "inflate": attack_inflate,
    "limits": attack_limits,
    "standings": attack_standings,
    "revoke-race": attack_revoke_race,
    "at-once": attack_limits_at_once,
    "noise": attack_noise,
    "long": attack_long,
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="main")
    parser.add_argument("--only", default=",".join(ATTACKS))
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="bench-attacks-"))
    targets = [Target("change", Path(__file__).resolve().parents[1], work)]
    if args.baseline != "none":
        targets.insert(0, Target("baseline", checkout(args.baseline, work), work))
    for name in args.only.split(","):
        for target in targets:
            try:
                harm, seen = ATTACKS[name](target)
                verdict = "HARM   " if harm else "no harm"
            except Exception as error:  # an attack that cannot even run is reported, not hidden
                verdict, seen = "error  ", f"{type(error).__name__}: {error}"
            print(f"{name:<9} {target.name:<9} {verdict}  {seen}", flush=True)
    print(f"details in {work}")


if __name__ == "__main__":
    main()
