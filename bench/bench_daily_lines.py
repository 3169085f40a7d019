"""Scripted wins of a daily deal at a human pace (issue 44 item 4): does a lost game's public
winning line let a script into the day's standings?

Run: ``.venv/bin/python -m bench.bench_daily_lines [--pace 0.35] [--baseline PATH]`` —
``--baseline`` runs another checkout (``git archive b11f655``) the same way after this one.

One uvicorn worker, SQLite in a temporary folder, the rate limits as ``tests/system`` runs
them (ranked wins not capped per address, so only the line decides). A player plays today's
Half Moon daily deal to stuck (a random game, seeded, whose analysis finds the slip) and
waits for the analysis; then a script, another session, asks for ``/replay/ID/win.txt`` and,
when it answers, plays the line's moves at ``--pace`` seconds a move (0.3–1 s: the pace a
player's win is ranked at), and the deal's figures are read from the store afterwards:
whether the script's win was ranked (the deal's ranked wins before and after).
"""

from __future__ import annotations

import argparse
import random
import re
import tempfile
import time
from pathlib import Path

import httpx

from app.engine.codes import DealCode
from app.engine.halfmoon import HalfMoon, Removal, place_name
from app.engine.replay import Line
from app.services import daily
from app.services.proofworker import analyse_line
from app.store.sqlite import SQLiteStore
from app.store.sync import SyncStore
from tests.system.servers import ROOT, start_server

HTMX = {"HX-Request": "true"}
TOKEN = re.compile(r'name="token" value="([^"]+)"')
REPLAY = re.compile(r"/replay/([A-Za-z0-9_-]{22})")


def slipping_game(code: str) -> list[Removal]:
    """A random game of ``code`` played to stuck whose analysis finds where it slipped."""
    for seed in range(200):
        rng = random.Random(seed)
        position, moves = HalfMoon.deal(DealCode.parse(code)), list[Removal]()
        while legal := list(HalfMoon.generate(position)):
            move = rng.choice(legal)
            position = HalfMoon.result(position, move)
            moves.append(move)
        if position.is_won():
            continue
        if analyse_line(code, ".".join(str(m) for m in moves), 5)["kind"] == "slipped":
            return moves
    raise RuntimeError(f"no random game of {code} slipped within 200 seeds")


def play(client: httpx.Client, code: str, moves: list[Removal], pace: float) -> None:
    token_found = TOKEN.search(client.get(f"/half-moon/{code}").text)
    assert token_found
    token = token_found.group(1)
    position = HalfMoon.deal(DealCode.parse(code))
    for move in moves:
        for place in move:
            data = {"place": place_name(place), "card": str(position.top(place)), "token": token}
            client.post(f"/half-moon/{code}/tap", data=data, headers=HTMX)
        position = HalfMoon.result(position, move)
        time.sleep(pace)


def ranked_wins(db: Path, code: str) -> int:
    store = SyncStore(SQLiteStore(str(db)))
    try:
        figures = store.deal_stats(code) or {}
        return int(figures.get("wins") or 0)
    finally:
        store.close()


def run(name: str, root: Path, code: str, moves: list[Removal], pace: float) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "daily.db"
        server = start_server(str(db), Path(folder), name="daily", root=root)
        try:
            with httpx.Client(base_url=server.url, timeout=60) as player:
                play(player, code, moves, 0)
                found = REPLAY.search(player.get(f"/half-moon/{code}").text)
                assert found, "the game did not end"
                ident = found.group(1)
                for _ in range(120):
                    fragment = player.get(f"/replay/{ident}/analysis", headers=HTMX).text
                    if "hx-trigger" not in fragment:
                        break
                    time.sleep(0.5)
            before = ranked_wins(db, code)
            with httpx.Client(base_url=server.url, timeout=60) as script:
                answer = script.get(f"/replay/{ident}/win.txt")
                line_length, started = 0, time.perf_counter()
                if answer.status_code == 200:
                    line = Line.from_text(answer.text)
                    line_length = len(line)
                    play(script, code, list(line.moves), pace)
                took = time.perf_counter() - started
            after = ranked_wins(db, code)
        finally:
            server.stop()
    print(
        f"{name:10} win.txt {answer.status_code}  line {line_length:3} moves"
        f"  followed in {took:5.1f} s  ranked wins of the deal {before} → {after}"
        f"  ({'the script was ranked' if after > before else 'the script was not ranked'})"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pace", type=float, default=0.35, help="seconds a move (0.3–1)")
    parser.add_argument("--baseline", help="another checkout of this code to run after it")
    args = parser.parse_args(argv)
    code = str(daily.codes_of(daily.today())["HM"])
    moves = slipping_game(code)
    print(f"today's Half Moon daily deal {code}: a lost game of {len(moves)} moves")
    runs = [("this code", ROOT)]
    if args.baseline:
        runs.append(("baseline", Path(args.baseline).resolve()))
    for name, root in runs:
        run(name, root, code, moves, args.pace)


if __name__ == "__main__":
    main()
