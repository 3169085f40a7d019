"""Seahaven's "no useful move left" proofs: off the request path, proved once per position,
and never dealt at random (issues 12 item 3 and 13 item 2)."""

from __future__ import annotations

import asyncio
import dataclasses
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

import app.engine.seahaven.solver as solver
from app.config import Config
from app.engine.codes import DealCode
from app.engine.seahaven import deal_position
from app.main import create_app
from app.services.proofs import Prover, make_pool
from app.store import MemoryStore
from tests.store.helpers import footprint
from tests.web.html import parse

COSTLY = "SH1-C4-AAAABBX"
"""Lost at the deal after about 20,000 positions: around a second of proof."""
LOST = "SH1-C1-AAAAAAC"
PLAYABLE = "SH1-C1-AAAAAJ2"


def run_loop(coroutine):
    """A fresh event loop in its own thread (Playwright keeps one in the main thread)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def state_of(response) -> str:
    assert response.status_code == 200, response.text
    return parse(response.text).by_id("board").attrs["data-state"]


@pytest.fixture
def app(store, proof_pool):
    """Proofs with time to spare: the machine running the tests may be loaded, and these
    tests are about where proofs run and how often, not about their time bound."""
    config = dataclasses.replace(Config(), proof_seconds=120.0, proof_wait=120.0)
    return create_app(config, store.store, proof_pool)


@pytest.fixture
def no_search_here(monkeypatch):
    """Any search in this (the server's) process fails the request: proofs run in the pool."""

    def refuse(*args, **kwargs):
        raise AssertionError("a lost proof ran in the server process")

    monkeypatch.setattr(solver, "is_lost", refuse)


def move_on_the_lost_deal(client):
    """QS from column 2 to column 9 on LOST (htmx): a move that leaves it lost."""
    page = parse(client.get(f"/seahaven/{LOST}").text)
    token = page.find_all("input", name="token")[0].attrs["value"]
    return client.post(
        f"/seahaven/{LOST}/move",
        data={"from": "column-2", "card": "QS", "to": "column-9", "token": token},
        headers={"HX-Request": "true"},
    )


def test_pages_and_moves_never_search_in_the_server_process(client, no_search_here):
    assert state_of(client.get(f"/seahaven/{COSTLY}")) == "lost"
    assert state_of(move_on_the_lost_deal(client)) == "lost"


@pytest.mark.slow
def test_a_position_is_proved_once_per_worker_and_kept_only_by_a_saved_game(
    store, app, client, proof_pool
):
    """The store keeps no verdict of a position nobody saved (issue 23: a GET writes nothing);
    a saved game keeps its own, so another worker reads it without proving anything."""
    before = footprint(store)
    for _ in range(2):  # two players of one worker
        client.cookies.clear()
        assert state_of(client.get(f"/seahaven/{COSTLY}")) == "lost"
    assert app.state.prover.proofs == 1
    assert footprint(store) == before
    other = create_app(app.state.config, store.store, proof_pool)  # another worker or instance
    with TestClient(other) as player:
        assert state_of(player.get(f"/seahaven/{COSTLY}")) == "lost"
    assert other.state.prover.proofs == 1  # proved again: nothing was stored for it
    assert state_of(move_on_the_lost_deal(client)) == "lost"
    third = create_app(app.state.config, store.store, proof_pool)
    with TestClient(third) as same_player:
        same_player.cookies.set("sid", client.cookies["sid"])
        assert state_of(same_player.get(f"/seahaven/{LOST}")) == "lost"
    assert third.state.prover.proofs == 0  # the saved game's own verdict


def test_a_pending_verdict_appears_on_the_next_answer(proof_pool):
    """A request waits at most ``proof_wait``; the proof goes on and the next answer has it."""
    store = MemoryStore()
    config = dataclasses.replace(Config(store="memory:"), proof_wait=0.01)
    with TestClient(create_app(config, store, proof_pool)) as client:
        assert state_of(client.get(f"/seahaven/{COSTLY}")) == "playing"
        prover = client.app.state.prover
        position = deal_position(DealCode.parse(COSTLY))
        deadline = time.monotonic() + 20
        while prover.known(position) is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert state_of(client.get(f"/seahaven/{COSTLY}")) == "lost"
        assert client.app.state.prover.proofs == 1


@pytest.mark.slow
def test_a_proof_nobody_wants_any_more_is_cancelled_before_it_starts():
    """A game that moves on to another position drops its queued proof of the old one."""
    codes = ["SH1-C4-AAAAAAB", "SH1-C4-AAAAAAD", "SH1-C4-AAAAAAE", "SH1-C4-AAAAAAF"]
    busy, queued, more, second, third = (
        deal_position(DealCode.parse(code)) for code in [COSTLY, *codes]
    )

    async def main():
        pool = make_pool(1)
        try:
            # hold the only worker for a known time first, so what reaches the pool while the
            # asks below come in does not depend on how fast this machine proves COSTLY
            pool.submit(time.sleep, 5)
            prover = Prover(pool=pool)
            asked = []
            # one proof runs, two wait in the pool's call queue (already out of reach), and
            # the fourth waits to be sent when "c" moves on to a fifth position
            asks = [(busy, "a"), (queued, "b"), (more, "d"), (second, "c"), (third, "c")]
            for position, who in asks:
                asked.append(asyncio.create_task(prover.verdict(position, wait=30, wanted_by=who)))
                await asyncio.sleep(0.1)
            verdicts = await asyncio.gather(*asked)
            return verdicts, prover.proofs, prover.cancelled
        finally:
            pool.shutdown(cancel_futures=True)

    verdicts, proofs, cancelled = run_loop(main())
    assert verdicts == [True, False, False, None, False]  # c's first position was dropped
    assert (proofs, cancelled) == (5, 1)


def test_a_fresh_random_deal_is_never_lost_at_the_deal(client, monkeypatch):
    drawn = iter([LOST, LOST, PLAYABLE, LOST])
    monkeypatch.setattr(DealCode, "random", lambda *a, **k: DealCode.parse(next(drawn)))
    response = client.get("/seahaven?cells=1&winnable=off")  # else a deal proved winnable
    assert response.status_code == 303
    assert urlsplit(response.headers["location"]).path == f"/seahaven/{PLAYABLE}"


def test_a_shared_code_lost_at_the_deal_still_opens_as_it_codes(client):
    response = client.get(f"/seahaven/{LOST}")
    assert state_of(response) == "lost"
    assert parse(response.text).by_id("deal-link").text == LOST
