"""One analysis running per player and per address on the whole site (issue 44 item 1), through
two real uvicorn processes on one store (one Redis; one SQLite file): an address's second game
waits while its first runs on the other instance and is looked at after it; with the instance
that runs the first killed (SIGKILL: its leases never released), the second is looked at once
their time has run out."""

from __future__ import annotations

import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from tests.system.conftest import HTMX
from tests.system.servers import Server, start_server
from tests.system.test_pools import analysed, play_stuck

SLOW = ("HM1-N-L3L7TQ2", 31)
"""A game stuck in 11 moves whose analysis runs its whole budget (undecided): the first."""
CHEAP = (("HM1-N-AAAAAAB", 4), ("HM1-N-AAAAAAC", 5))
"""Games whose analysis takes a tenth of a second: the address's second, in each round."""

WAITING = re.compile(r"Waiting for its turn: (\d+) games? before this one\.")


@pytest.fixture(params=["redis", "sqlite"])
def place(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Where both instances keep their data: one Redis (emptied), or one SQLite file."""
    if request.param == "redis":
        request.getfixturevalue("redis_client")
        yield request.getfixturevalue("redis_url")
    else:
        yield str(tmp_path / "games.db")


def ask(client: httpx.Client, server: Server, ident: str) -> str:
    return client.get(f"{server.url}/replay/{ident}/analysis", headers=HTMX).text


def test_an_addresss_second_analysis_waits_for_its_first_on_the_other_instance(
    place: str, tmp_path: Path
) -> None:
    """Before: each instance ran one analysis of the address at once, so the cheap game ran
    beside the slow one (the address had two running) and its first answer was "Looking"."""
    budget = {"SOLITAIRE_ANALYSIS_SECONDS": "4"}
    with ThreadPoolExecutor(2) as starting:  # both warm up at once
        started = [
            starting.submit(start_server, place, tmp_path, name=name, env=budget)
            for name in ("first", "second")
        ]
        failed = [f.exception() for f in started if f.exception() is not None]
        if failed:  # none left running
            for future in started:
                if future.exception() is None:
                    future.result().stop()
            raise failed[0]
        first, second = (future.result() for future in started)
    try:
        # two players of one address (127.0.0.1): the slow game on the first instance, the
        # cheap one on the second
        with httpx.Client(timeout=30) as slow, httpx.Client(timeout=30) as cheap:
            ran = play_stuck(slow, first.url, *SLOW)
            waits = play_stuck(cheap, second.url, *CHEAP[0])
            assert "Looking for where it slipped away" in ask(slow, first, ran)
            said = WAITING.search(ask(cheap, second, waits))
            assert said is not None and said.group(1) == "1"  # the one running there
            assert 'id="analysis-text"' in analysed(cheap, second.url, waits, 60)
            assert "hx-trigger" not in ask(slow, first, ran)  # it had ended before

            # the first instance killed while it runs another slow game: its leases run out
            with httpx.Client(timeout=30) as other:
                killed = play_stuck(other, first.url, *SLOW)
                after = play_stuck(cheap, second.url, *CHEAP[1])
                assert "Looking for where it slipped away" in ask(other, first, killed)
            assert WAITING.search(ask(cheap, second, after)) is not None
            first.crash()
            assert WAITING.search(ask(cheap, second, after)) is not None  # until they run out
            assert 'id="analysis-text"' in analysed(cheap, second.url, after, 60)
    finally:
        first.stop()
        second.stop()
    log = second.log.read_text()
    assert "Traceback" not in log, log[-3000:]
