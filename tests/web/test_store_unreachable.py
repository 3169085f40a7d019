"""A stalled or stopped Redis never freezes the worker (issue 12 item 4): a tap answers the
clear 503 within the store's timeout, ``/health`` says the store is unreachable, and other
requests are served meanwhile."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from app.config import Config
from app.main import create_app
from app.store.redis import RedisStore
from app.store.sync import SyncStore
from tests.store.redis_server import start_redis_server, stop_redis_server
from tests.web.html import parse

pytestmark = pytest.mark.slow  # each test starts a Redis server of its own

TIMEOUT = 0.3
"""The store's command timeout in these tests (``SOLITAIRE_STORE_TIMEOUT``)."""
CODE = "HM1-N-AAAAAAB"


@pytest.fixture
def redis_process(tmp_path):
    """A Redis server of this test's own, so it can be paused and stopped."""
    process, url = start_redis_server(tmp_path)
    yield process, url
    if process.poll() is None:
        os.kill(process.pid, signal.SIGCONT)
    stop_redis_server(process)


def run_loop(coroutine):
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


async def timed(request):
    start = time.monotonic()
    response = await request
    return response, time.monotonic() - start


@pytest.mark.parametrize("how", ["paused", "stopped"])
def test_a_stalled_redis_answers_503_fast_and_health_says_so(redis_process, proof_pool, how):
    process, url = redis_process
    store = SyncStore(RedisStore(url, socket_timeout=TIMEOUT))
    app = create_app(Config(store=url, store_timeout=TIMEOUT), store.store, proof_pool)

    async def main():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
            page = await c.get(f"/half-moon/{CODE}")
            token = parse(page.text).find_all("input", name="token")[0].attrs["value"]
            assert (await c.get("/health")).text == "ok"
            if how == "paused":
                os.kill(process.pid, signal.SIGSTOP)
            else:
                stop_redis_server(process)
            tap = asyncio.create_task(
                timed(
                    c.post(
                        f"/half-moon/{CODE}/tap",
                        data={"place": "pile-1", "card": "AS", "token": token},
                        headers={"HX-Request": "true"},
                    )
                )
            )
            await asyncio.sleep(0.05)
            other = await timed(c.get("/play", params={"code": CODE}))  # needs no store
            other_done_while_tap_waits = not tap.done() or how == "stopped"
            health = await timed(c.get("/health"))
            return await tap, other, other_done_while_tap_waits, health

    try:
        (tap, tap_s), (other, other_s), overlapped, (health, health_s) = run_loop(main())
    finally:
        store.close()
    assert tap.status_code == 503
    assert "Your move was not made" in tap.text
    assert tap.headers["retry-after"] == "1"
    assert tap_s < TIMEOUT + 0.5
    assert other.status_code == 303
    assert other_s < 0.2
    assert overlapped
    assert (health.status_code, health.text) == (503, "store unreachable")
    assert health_s < 0.5
