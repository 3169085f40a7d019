"""The limits hold exactly when requests come at once (issue 34, finding 6): a limit is spent
before the write, atomically, so 64 new games sent together with 60 an hour left make 60 games,
not 64; the same for wrong device-link guesses. On every store: each gives its own limiter."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections import Counter
from typing import Any

import httpx
import pytest

from app.config import Config
from app.engine.codes import DealCode
from app.main import create_app
from app.store.redis import RedisStore
from app.store.sync import SyncStore
from tests.web.conftest import HTMX, token_of
from tests.web.html import parse

pytestmark = pytest.mark.all_stores

AT_ONCE = 64


def run(coroutine: Any) -> Any:
    """``asyncio.run`` in a thread of its own (the browser tests keep a loop in this one)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


async def _at_once(app: Any, send: Any) -> tuple[list[int], httpx.Cookies]:
    """``send(client, n)`` for n in 0 … 63, all at once, from one browser on one address;
    the answers' status codes."""
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            prepared = [await send(client, n, None) for n in range(AT_ONCE)]
            answers = await asyncio.gather(*(send(client, n, p) for n, p in enumerate(prepared)))
            return [a.status_code for a in answers], client.cookies


@pytest.fixture
def patient(store: Any) -> Any:
    """The store the application is given: on Redis, one with a timeout of seconds, not one
    (64 requests at once open up to 64 connections while one loop renders 64 pages: on a
    busy test machine a connection took longer than the shipped second)."""
    if not isinstance(store.store, RedisStore):
        yield store.store
        return
    made = RedisStore(store.store.url, socket_timeout=10)
    yield made
    SyncStore(made).close()


def _code(n: int) -> str:
    return str(DealCode("HM", 1, "N", 100 + n))


async def _new_game(client: httpx.AsyncClient, n: int, prepared: Any) -> Any:
    """First call: read the deal's page (a GET writes nothing): its token and pile 1's card.
    Second: tap that card, the deal's first move, which makes a new game."""
    url = f"/half-moon/{_code(n)}"
    if prepared is None:
        page = parse((await client.get(url)).text)
        card = page.find(data_place="pile-1").find("button").attrs["data-card"]
        return {"place": "pile-1", "card": card, "token": token_of(page)}
    return await client.post(f"{url}/tap", data=prepared, headers=HTMX)


@pytest.mark.parametrize(("limit", "allowed"), [("60/hour", 60), ("5/hour", 5)])
def test_new_games_sent_at_once_are_allowed_exactly_up_to_the_limit(store, patient, limit, allowed):
    """Before: the limit was checked before the write and spent after it, so 64 new games
    sent at once all passed a 60-an-hour limit, and 12 to 24 passed 5 an hour."""
    app = create_app(Config(rate_new=limit, rate_writes="off"), store=patient)
    statuses, cookies = run(_at_once(app, _new_game))
    assert Counter(statuses) == {200: allowed, 429: AT_ONCE - allowed}
    sid = cookies["sid"].partition(".")[0]
    made = [n for n in range(AT_ONCE) if store.load(sid, _code(n))[1] is not None]
    assert [statuses[n] for n in made] == [200] * allowed  # each allowed tap made its game


async def _guess(client: httpx.AsyncClient, n: int, prepared: Any) -> Any:
    """First call: the link's question page (it looks nothing up) and its token. Second: the
    POST that looks the secret up, a secret nobody was given."""
    url = f"/link/{'G' * 30}{n:02d}"
    if prepared is None:
        return {"token": token_of(parse((await client.get(url)).text))}
    return await client.post(url, data=prepared)


def test_wrong_link_guesses_sent_at_once_are_allowed_exactly_up_to_the_limit(patient):
    """Before: 20 wrong guesses an hour let 30 through when sent at once (Redis)."""
    app = create_app(Config(rate_writes="off"), store=patient)
    statuses, _ = run(_at_once(app, _guess))
    assert Counter(statuses) == {404: 20, 429: AT_ONCE - 20}


def test_ipv6_addresses_are_counted_per_64_network(patient):
    """Issue 43 item 7: only a doctest held it. An IPv6 client may pick any address of its
    /64: every address of one /64 spends one limit; another /64 has its own."""
    app = create_app(Config(rate_new="3/hour", rate_writes="off"), store=patient)

    async def main() -> list[int]:
        statuses = []
        async with app.router.lifespan_context(app):
            plan = [
                ("2001:db8:1:2::1", 0),
                ("2001:db8:1:2::1", 1),
                ("2001:db8:1:2:ffff:ffff:ffff:fffe", 2),  # the same /64: the third game
                ("2001:db8:1:2:abcd::7", 3),  # the same /64: past the limit
                ("2001:db8:1:3::1", 4),  # the next /64: a limit of its own
                ("::ffff:192.0.2.1", 5),  # an IPv4 address in IPv6 clothes: itself
            ]
            for address, n in plan:
                transport = httpx.ASGITransport(app=app, client=(address, 50000))
                async with httpx.AsyncClient(
                    transport=transport, base_url="http://testserver"
                ) as client:
                    prepared = await _new_game(client, n, None)
                    statuses.append((await _new_game(client, n, prepared)).status_code)
        return statuses

    assert run(main()) == [200, 200, 200, 429, 200, 200]
