"""Replay pages side by side with game pages (issue 26): a step of a replay answers within
2 × a game page's time, and a step of a 5,000-move game replays no more than a snapshot's
moves (``app.engine.replay.SNAPSHOT_EVERY``), never the whole record.

Run: ``.venv/bin/python -m bench.bench_replay [--rounds 200]``

One uvicorn worker with ``scripts/run``'s options and configuration (the SQLite store, the
rate limits on: a GET is not limited), over real HTTP with keep-alive, one request at a time.
The store is filled before the server starts, through the store's own changes (so each
replay is written as a game's ending writes it): the player's won Half Moon game
(HM1-N-AAAAAAB, 48 moves), a won Seahaven game (SH1-C4-AAAAAJ2, its solver's line of 103
moves) and a won Seahaven game as long as a record allows (the same deal: a card moved
between two cells 4,896 times, then the winning line: 4,999 moves). Measured, interleaved
round by round (``--rounds``):

- the game pages ``GET /half-moon/CODE`` and ``GET /seahaven/CODE`` as their player sees them
  (finished: the end box with the statistics' additions and the replay link);
- ``GET /replay/ID?step=N`` of each replay, ``N`` drawn anew for every request (a step no
  request asked before, so nothing is cached per step), and the 5,000-move game's
  ``GET /replay/ID.txt``;
- a first view of the 5,000-move replay after the worker's line cache forgot it (a fresh
  worker: one request, for the record);
- ``POST /replay`` of the 5,000-move game's text (issue 44): the same text each time (a step
  of a pasted game: its line checked once per worker), and a new text each time (the line
  checked whole by the rules, as a script pasting ever new texts sends: the shuffle one pair
  shorter each time), with the answer's size.

``--baseline PATH`` measures another checkout (``git archive b11f655``) the same way after.

Prints each page's median and p90 in milliseconds, and the ratios replay ÷ game page.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx

from app.clock import now_ms
from app.engine.codes import DealCode
from app.engine.game import MAX_RECORD_MOVES, Game
from app.engine.halfmoon import HalfMoon, deal
from app.engine.halfmoon.solver import solve
from app.engine.seahaven import Seahaven
from app.engine.seahaven.solver import solve_code
from app.status import Status
from app.store import StoredGame
from app.store.marks import Marks
from app.store.sqlite import SQLiteStore
from app.store.sync import SyncStore
from app.web.players.sessions import COOKIE
from tests.system.servers import ROOT, start_server

SID = "B" * 32
HM = DealCode.parse("HM1-N-AAAAAAB")
SH = DealCode.parse("SH1-C4-AAAAAJ2")
LONG = DealCode.parse("SH1-C4-AAAAAJ2")
IDS = {"hm": "H" * 22, "sh": "S" * 22, "long": "L" * 22}


def _won(game: Game[Any, Any], moves: list[Any], ident: str, sid: str, store: SyncStore) -> int:
    for i, move in enumerate(moves):
        game.play(move, now=1_000 + i)
    assert game.is_won(), "the line must win"
    record = game.to_record()
    row = StoredGame(
        str(game.code), record, Status.WON, game.score, game.move_count, now_ms(),
        Marks(replay=ident),
    )  # fmt: skip
    store.change_game(sid, str(game.code), lambda _s, _g: (row, None))
    return game.move_count


def fill(path: str) -> dict[str, int]:
    """The player's three won games, their replays written by the store's own changes."""
    store = SyncStore(SQLiteStore(path))
    steps = {
        "hm": _won(HalfMoon(HM), list(solve(deal(HM)).line), IDS["hm"], SID, store),
        "sh": _won(Seahaven(SH), list(solve_code(SH).line), IDS["sh"], SID, store),
    }
    line = list(solve_code(LONG).line)
    pairs = (MAX_RECORD_MOVES - len(line)) // 2
    shuffle = [Seahaven.parse_move(m) for m in ("km", "mk")] * pairs
    long_game = shuffle + line
    assert len(long_game) <= MAX_RECORD_MOVES
    steps["long"] = _won(Seahaven(LONG), long_game, IDS["long"], "C" * 32, store)
    store.close()
    return steps


def timed(client: httpx.Client, url: str) -> float:
    start = time.perf_counter()
    response = client.get(url)
    took = (time.perf_counter() - start) * 1000
    assert response.status_code == 200, (url, response.status_code, response.text[:200])
    return took


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return f"median {statistics.median(times):6.2f} ms  p90 {p90:6.2f} ms"


def pasted_texts(count: int) -> list[str]:
    """``count`` texts of won Seahaven games of about 5,000 moves, each other (one pair of
    the cell shuffle fewer each)."""
    line = [str(m) for m in solve_code(LONG).line]
    pairs = (MAX_RECORD_MOVES - len(line)) // 2
    texts = []
    for n in range(count):
        moves = [*(["km", "mk"] * (pairs - n % pairs)), *line]
        texts.append("\n".join([str(LONG), *moves]) + "\n")
    return texts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--baseline", help="another checkout to measure after this one")
    args = parser.parse_args()
    for name, root in checkouts(args.baseline):
        print(f"\n== {name}")
        measure(args.rounds, root)


def checkouts(baseline: str | None) -> list[tuple[str, Path | None]]:
    """This code (``None``: the running checkout), then ``baseline`` when given."""
    found: list[tuple[str, Path | None]] = [("this code", None)]
    if baseline:
        found.append(("baseline", Path(baseline).resolve()))
    return found


def measure(rounds: int, root: Path | None) -> None:
    work = Path(tempfile.mkdtemp(prefix="bench-replay-"))
    db = str(work / "solitaire.db")
    steps = fill(db)
    print(f"replays: Half Moon {steps['hm']} moves, Seahaven {steps['sh']}, long {steps['long']:,}")
    options = ("--http", "app.server:TimedHttpToolsProtocol", "--limit-concurrency", "1000")
    raised = {"SOLITAIRE_RATE_WRITES": "1000000/minute", "SOLITAIRE_RATE_NEW": "1000000/minute"}
    server = start_server(db, work, name="replay", env=raised, args=options, root=root or ROOT)
    texts = pasted_texts(rounds + 10)
    sizes: list[int] = []
    draw = random.Random(26)
    try:
        with httpx.Client(base_url=server.url, cookies={COOKIE: SID}) as client:
            first = timed(client, f"/replay/{IDS['long']}?step=2500")  # a fresh worker's cache
            long = f"replay step, {steps['long']:,}-move game"

            def step_of(name: str) -> str:
                return f"/replay/{IDS[name]}?step={draw.randrange(steps[name] + 1)}"

            pages = {
                "game page, Half Moon": lambda: f"/half-moon/{HM}",
                "replay step, Half Moon": lambda: step_of("hm"),
                "game page, Seahaven": lambda: f"/seahaven/{SH}",
                "replay step, Seahaven": lambda: step_of("sh"),
                long: lambda: step_of("long"),
                "text of the long game": lambda: f"/replay/{IDS['long']}.txt",
            }
            token_found = re.search(r'name="token" value="([^"]+)"', client.get("/replay").text)
            assert token_found
            token = token_found.group(1)

            form = {"content-type": "application/x-www-form-urlencoded"}
            encoded = {text: urlencode({"text": text, "token": token}) for text in texts}

            def paste(text: str) -> float:
                # the body encoded before the clock starts: the server's cost, not the
                # client's quoting of 5,000 lines (about 2 ms in httpx, more than a walk)
                body = f"{encoded[text]}&step={draw.randrange(4000)}".encode()
                start = time.perf_counter()
                response = client.post("/replay", content=body, headers=form)
                took = (time.perf_counter() - start) * 1000
                assert response.status_code == 200, response.text[:300]
                sizes.append(len(response.content))
                return took

            fresh = iter(texts)
            posts = {
                "paste, 5,000 moves, the same text": lambda: paste(texts[0]),
                "paste, 5,000 moves, a new text": lambda: paste(next(fresh)),
            }
            times: dict[str, list[float]] = {name: [] for name in [*pages, *posts]}
            for _ in range(10):  # warm up every page
                for url in pages.values():
                    timed(client, url())
                for post in posts.values():
                    post()
            for _ in range(rounds):
                for name, url in pages.items():
                    times[name].append(timed(client, url()))
                for name, post in posts.items():
                    times[name].append(post())
    finally:
        server.stop()
    width = max(map(len, times))
    for name, found in times.items():
        print(f"{name:<{width}}  {summary(found)}")
    print(f"{'first view, the long game':<{width}}  {first:6.2f} ms (one request, cold cache)")
    median = {name: statistics.median(found) for name, found in times.items()}
    hm_page, sh_page = median["game page, Half Moon"], median["game page, Seahaven"]
    ratios: tuple[tuple[str, float], ...] = (
        ("replay ÷ game page, Half Moon", median["replay step, Half Moon"] / hm_page),
        ("replay ÷ game page, Seahaven", median["replay step, Seahaven"] / sh_page),
        ("long game's replay ÷ Seahaven game page", median[long] / sh_page),
    )
    ratios += (
        (
            "paste (same text) ÷ Seahaven game page",
            median["paste, 5,000 moves, the same text"] / sh_page,
        ),
        (
            "paste (new text) ÷ Seahaven game page",
            median["paste, 5,000 moves, a new text"] / sh_page,
        ),
    )
    for name, ratio in ratios:
        print(f"{name:<{width + 14}}  {ratio:.2f}")
    print(f"a paste's answer: median {statistics.median(sizes) / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
