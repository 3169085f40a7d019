"""Pools that heal (issue 44 item 2): the analysis pool's process killed (an OOM kill, a crash in
the SAT solver's C code) is replaced, and the next analysis finishes; the log says so once."""

from __future__ import annotations

import os
import random
import re
import signal
import time
from pathlib import Path

import httpx

from app.engine.codes import DealCode
from app.engine.halfmoon import HalfMoon, place_name
from tests.system.conftest import HTMX, board_of, token_of
from tests.system.servers import start_server

REPLAY = re.compile(r"/replay/([A-Za-z0-9_-]{22})")


def stuck_taps(code: str, seed: int) -> list[list[tuple[str, str]]]:
    """(place, card) taps of a random game of the deal played until no move is left."""
    rng = random.Random(seed)
    position = HalfMoon.deal(DealCode.parse(code))
    taps = []
    while legal := list(HalfMoon.generate(position)):
        removal = rng.choice(legal)
        taps.append([(place_name(p), str(position.top(p))) for p in removal])
        position = HalfMoon.result(position, removal)
    assert not position.is_won()
    return taps


def children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rpartition(")")[2].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def play_stuck(client: httpx.Client, url: str, code: str, seed: int) -> str:
    """The replay id of a game of ``code`` played to its end without a win."""
    token = token_of(client.get(f"{url}/half-moon/{code}").text)
    for removal in stuck_taps(code, seed):
        for place, card in removal:
            answer = client.post(
                f"{url}/half-moon/{code}/tap",
                data={"place": place, "card": card, "token": token},
                headers=HTMX,
            )
            assert answer.status_code == 200, answer.text
    page = client.get(f"{url}/half-moon/{code}").text
    assert board_of(page)["data-state"] in ("stuck", "lost")
    found = REPLAY.search(page)
    assert found is not None
    return found.group(1)


def analysed(client: httpx.Client, url: str, ident: str, seconds: float) -> str:
    """The finding's fragment once it stops asking again; fails after ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        fragment = client.get(f"{url}/replay/{ident}/analysis", headers=HTMX).text
        if "hx-trigger" not in fragment:
            return fragment
        time.sleep(0.25)
    raise AssertionError(f"the analysis of {ident} never ended: {fragment}")


def test_the_analysis_pool_comes_back_after_its_process_is_killed(tmp_path):
    server = start_server(
        str(tmp_path / "games.db"), tmp_path, env={"SOLITAIRE_ANALYSIS_SECONDS": "3"}
    )
    try:
        before = children(server.process.pid)
        with httpx.Client(timeout=30) as client:
            first = play_stuck(client, server.url, "HM1-N-AAAAAAB", 4)
            assert 'id="analysis-text"' in analysed(client, server.url, first, 60)
            pool = children(server.process.pid) - before
            assert pool, "the analysis pool started no process"
            for pid in pool:
                os.kill(pid, signal.SIGKILL)
            time.sleep(0.5)
            second = play_stuck(client, server.url, "HM1-N-AAAAAAC", 5)
            for _ in range(3):  # several viewers ask while it runs: still one line in the log
                client.get(f"{server.url}/replay/{second}/analysis", headers=HTMX)
            assert 'id="analysis-text"' in analysed(client, server.url, second, 60)
    finally:
        server.stop()
    log = server.log.read_text()
    assert log.count("the analysis pool broke") == 1, log[-3000:]
    assert "Traceback" not in log, log[-3000:]
