"""One analysis running per player and per address on the whole site (issue 44): the analysts
of two instances (two stores on one file, one Redis or one cluster, as two workers or two
machines have) take the player's and the address's lease in the store before they start, so an
address's second game waits while its first runs on the other instance, and starts once that
one ends or its holder's lease runs out (the instance killed)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from app.services import analyses
from app.services.analyses import Analyst, Progress, lease_names
from app.store import MemoryStore
from app.store.base import StoreError
from app.store.replays import StoredReplay
from app.store.sync import SyncStore
from tests.loops import run_apart


def _replay(ident: str, line: str = "ae") -> StoredReplay:
    return StoredReplay(ident.ljust(22, "A"), "HM1-N-AAAAAAB", "stuck", 1000, 1, 10, 1, line)


class Held:
    """``analyse_line`` in a pool's thread: each waits until the test lets it end."""

    def __init__(self) -> None:
        self.order: list[str] = []
        self.go = threading.Event()

    def __call__(self, code: str, line: str, seconds: float) -> dict[str, Any]:
        self.order.append(line)
        self.go.wait(20)
        return {"version": 1, "kind": "undecided", "k": None, "line": "", "seconds": 0.1}


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> Held:
    held = Held()
    monkeypatch.setattr(analyses, "analyse_line", held)
    monkeypatch.setattr(analyses, "LEASE_RETRY_SECONDS", 0.05)
    return held


async def _until(check: Callable[[], bool], seconds: float = 20) -> None:
    async with asyncio.timeout(seconds):
        while not check():
            await asyncio.sleep(0.02)


def test_an_addresss_second_game_waits_while_its_first_runs_on_another_instance(
    shared_store: Callable[[], SyncStore], quick: Held, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: each instance ran one analysis of the address, so two instances ran two. The
    first's lease is renewed while it runs (its time here a fifth of the wait)."""
    monkeypatch.setattr(analyses, "LEASE_SECONDS", 0.2)
    one, two = shared_store(), shared_store()

    async def scenario() -> tuple[Any, ...]:
        with ThreadPoolExecutor(1) as first_pool, ThreadPoolExecutor(1) as second_pool:
            first, second = Analyst(pool=first_pool), Analyst(pool=second_pool)
            began = await first.answer(one.store, _replay("one", "l1"), player="p", client="x")
            await _until(lambda: quick.order == ["l1"])
            waits = await second.answer(two.store, _replay("two", "l2"), player="q", client="x")
            elsewhere = await second.answer(
                two.store, _replay("three", "l3"), player="r", client="y"
            )
            await _until(lambda: "l3" in quick.order)
            await asyncio.sleep(1.0)  # many retries, five times the lease's time: still waiting
            during = (list(quick.order), second.running, second.queued)
            again = await second.answer(two.store, _replay("two", "l2"), player="q", client="x")
            quick.go.set()
            await first.wait(_replay("one").id)
            await _until(lambda: "l2" in quick.order)
            await second.wait(_replay("two").id)
            await first.close()
            await second.close()
            return began, waits, elsewhere, during, again, list(quick.order)

    began, waits, elsewhere, during, again, order = run_apart(scenario())
    assert began.progress is Progress.RUNNING
    assert (waits.progress, waits.ahead) == (Progress.QUEUED, 1)  # the one on the other
    assert elsewhere.progress in (Progress.RUNNING, Progress.QUEUED)  # it ran: order below
    assert during == (["l1", "l3"], 1, 1)  # the address's second game did not start
    assert (again.progress, again.ahead) == (Progress.QUEUED, 2)  # l3 here, l1 on the other
    assert order == ["l1", "l3", "l2"]


def test_one_player_runs_one_analysis_on_the_whole_site(
    shared_store: Callable[[], SyncStore], quick: Held
) -> None:
    one, two = shared_store(), shared_store()

    async def scenario() -> tuple[Any, ...]:
        with ThreadPoolExecutor(1) as first_pool, ThreadPoolExecutor(1) as second_pool:
            first, second = Analyst(pool=first_pool), Analyst(pool=second_pool)
            await first.answer(one.store, _replay("one", "l1"), player="p", client="x")
            await _until(lambda: quick.order == ["l1"])
            await second.answer(two.store, _replay("two", "l2"), player="p", client="y")
            await asyncio.sleep(0.5)
            during = list(quick.order)
            waits = await second.answer(two.store, _replay("two", "l2"), player="p", client="y")
            quick.go.set()
            await second.wait(_replay("two").id)
            await first.close()
            await second.close()
            return during, waits, list(quick.order)

    during, waits, order = run_apart(scenario())
    assert during == ["l1"]
    assert (waits.progress, waits.ahead) == (Progress.QUEUED, 1)  # the one on the other
    assert order == ["l1", "l2"]


def test_a_lease_whose_instance_died_runs_out_and_the_waiting_game_starts(
    shared_store: Callable[[], SyncStore], quick: Held
) -> None:
    """An instance killed while its analysis ran never releases its leases: the other
    instance's game waits for their time to run out, then starts (never "waiting" for
    ever)."""
    quick.go.set()
    dead, alive = shared_store(), shared_store()
    for name in lease_names("p", "x"):  # as a killed instance left them
        assert dead.take_lease(name, "killed", 1500) is True

    async def scenario() -> tuple[Any, ...]:
        with ThreadPoolExecutor(1) as pool:
            analyst = Analyst(pool=pool)
            waits = await analyst.answer(alive.store, _replay("two", "l2"), player="q", client="x")
            await _until(lambda: quick.order == ["l2"])
            await analyst.wait(_replay("two").id)
            await analyst.close()
            return waits

    waits = run_apart(scenario())
    assert (waits.progress, waits.ahead) == (Progress.QUEUED, 1)
    assert quick.order == ["l2"]
    assert alive.analysis(_replay("two").id) is None  # no replay stored: nothing kept
    for name in lease_names("q", "x"):  # released when it ended
        assert alive.take_lease(name, "next", 60_000) is True


def test_a_store_that_fails_to_answer_starts_nothing_until_it_answers(
    quick: Held, caplog: pytest.LogCaptureFixture
) -> None:
    """Without its leases an analysis does not start (it might be an address's second); the
    game waits, is tried again, and starts once the store answers; the log says so once."""
    quick.go.set()

    class Failing(MemoryStore):
        fails = 4

        async def take_lease(self, name: str, holder: str, ttl_ms: int) -> bool:
            if self.fails:
                self.fails -= 1
                raise StoreError("the store does not answer")
            return await super().take_lease(name, holder, ttl_ms)

    store = Failing()

    async def scenario() -> Any:
        with ThreadPoolExecutor(1) as pool:
            analyst = Analyst(pool=pool)
            waits = await analyst.answer(store, _replay("one", "l1"), player="p", client="x")
            await analyst.wait(_replay("one").id)
            await analyst.close()
            return waits

    waits = run_apart(scenario())
    assert (waits.progress, waits.ahead) == (Progress.QUEUED, 0)
    assert quick.order == ["l1"] and store.fails == 0
    said = [r.message for r in caplog.records if "leases could not be taken" in r.message]
    assert len(said) == 1, said
    assert store._leases == {}  # released when it ended
