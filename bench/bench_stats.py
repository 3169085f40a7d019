"""``/stats``: render time side by side with cheap pages, and the bytes one player's
statistics take in the store (issue 16).

Run: ``.venv/bin/python -m bench.bench_stats [--rounds 300]``

In process (httpx against the ASGI app, a memory store, no network), with the statistics
document at its largest: every kind played, the last 20 games listed, 100 abandoned codes
remembered, a daily streak. Prints medians and p90 of ``GET /stats`` (full and empty),
``GET /faq`` and ``GET /health``, the ratio /stats ÷ /faq, and the document's bytes as
stored (compact JSON, the same text in SQLite's ``player_stats.data`` and Redis's
``sol:p:{sid}``), plus one deal's figures.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
import warnings

import httpx

from app.config import Config
from app.engine.codes import DealCode, encode_number
from app.engine.game import now_ms
from app.engine.games import kind_of
from app.main import create_app
from app.store import MemoryStore, StoredGame
from app.store.jsondata import dumps
from app.store.marks import Marks
from app.store.sync import SyncStore
from app.web.players.sessions import cookie_value, signer_of


def fill(store: MemoryStore, sid: str) -> None:
    """Games enough to fill every bounded part of the document."""
    at = now_ms()
    for i in range(130):  # abandoned one after another: 100 remembered, 20 listed
        code = f"HM1-N-{encode_number(10_000 + i)}"
        store.change_game(sid, code, lambda _s, _g, c=code, t=at + i: (_game(c, 1, t), None))
    for variant in ("C4", "C2", "C1"):
        for i in range(5):
            code = f"SH1-{variant}-{encode_number(20_000 + i)}"
            state = "won" if i % 2 else "lost"
            for moves, st in ((1, "playing"), (90, state)):
                store.change_game(
                    sid, code, lambda _s, _g, c=code, m=moves, s=st: (_game(c, m, at, s), None)
                )


def _game(code: str, moves: int, at: int, state: str = "playing") -> StoredGame:
    record = {"code": code, "clock": [123_456, None], "extra": "x" * 0}
    kind = kind_of(DealCode.parse(code))  # as the web layer names it (Screen.stored)
    return StoredGame(
        code, record, state, moves * 3, moves, at, Marks(daily="2026-12-01"), kind=kind
    )


async def timed(client: httpx.AsyncClient, path: str, rounds: int) -> list[float]:
    for _ in range(10):
        (await client.get(path)).raise_for_status()
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        response = await client.get(path)
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, (path, response.status_code)
    return times


async def main(rounds: int) -> None:
    store = SyncStore(MemoryStore())
    app = create_app(Config(store="memory:"), store=store.store)
    full_sid, empty_sid = "F" * 43, "E" * 43
    transport = httpx.ASGITransport(app=app)
    results = {}
    async with app.router.lifespan_context(app):
        fill(store, full_sid)
        doc = store.player_stats(full_sid)
        assert doc is not None
        assert len(doc["recent"]) == 20
        size = len(dumps(doc).encode())
        for name, sid, path in (
            ("/stats (20 games, charts)", full_sid, "/stats"),
            ("/stats (nothing counted)", empty_sid, "/stats"),
            ("/ (home with the daily deals)", full_sid, "/"),
            ("/faq", full_sid, "/faq"),
            ("/health", full_sid, "/health"),
        ):
            cookie = cookie_value(signer_of(app), "sid", sid)  # an id this app signed
            async with httpx.AsyncClient(
                transport=transport, base_url="http://bench", cookies={"sid": cookie}
            ) as client:
                results[name] = await timed(client, path, rounds)
    print(f"rounds: {rounds}")
    for name, times in results.items():
        p90 = statistics.quantiles(times, n=10)[-1]
        print(f"{name:32} median {statistics.median(times):6.2f} ms   p90 {p90:6.2f} ms")
    full = statistics.median(results["/stats (20 games, charts)"])
    print(f"ratio /stats ÷ /faq (medians): {full / statistics.median(results['/faq']):.2f}")
    print(f"statistics document at its largest: {size} bytes (compact JSON)")
    figures = store.deal_stats("SH1-C1-" + encode_number(20_001))
    assert figures is not None
    print(f"a deal's figures: {len(dumps(figures))} bytes (compact JSON)")


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=300)
    asyncio.run(main(parser.parse_args().rounds))
