"""The worker's cache of game objects (``app.web.play.gamecache.GameCache``): a tap on the game this
worker last wrote applies one engine action instead of replaying the record, and the cache
never answers from a game the store no longer holds — another worker moved on, or the
transaction failed after the action was applied."""

from __future__ import annotations

import warnings

import pytest

from app.engine.codes import DealCode
from app.engine.halfmoon import HalfMoon, deal, place_name
from app.engine.halfmoon.solver import solve
from app.main import create_app
from app.store import StoreError
from tests.web.conftest import HTMX, Player, sid_of

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

pytestmark = pytest.mark.all_stores  # the point is SQLite's writer, and Redis's retries

CODE = "HM1-N-AAAAAAB"


def pressed(p: Player, place: str) -> str:
    return p.board.find(data_place=place).find("button").attrs["aria-pressed"]


PILE_1 = "a"
"""Half Moon's record names the selected pile-1 ``a`` (``sel``; empty: no selection)."""


def stored_selection(store, p: Player) -> str | None:
    sid = sid_of(p.client)
    _, game = store.load(sid, CODE)
    return None if game is None else game.record["sel"]


@pytest.fixture
def replays(monkeypatch) -> list[int]:
    """Counts Half Moon records replayed (``HalfMoon.from_record``)."""
    calls: list[int] = []
    real = HalfMoon.from_record.__func__  # type: ignore[attr-defined]

    def counted(cls, record):
        calls.append(len(record.get("moves", [])))
        return real(cls, record)

    monkeypatch.setattr(HalfMoon, "from_record", classmethod(counted))
    return calls


def test_a_tap_on_the_game_this_worker_last_wrote_replays_nothing(player, store, replays):
    p = player(CODE)
    card = p.top("pile-1")
    p.tap("pile-1", card)  # the first action writes the game
    replays.clear()
    p.tap("pile-1", card)
    assert pressed(p, "pile-1") == "false"
    p.tap("pile-1", card)
    assert pressed(p, "pile-1") == "true"
    assert replays == []
    assert stored_selection(store, p) == PILE_1
    p.open()  # a reload shows what the answers drew
    assert pressed(p, "pile-1") == "true"


def test_a_game_with_moves_counted_by_the_statistics_replays_nothing(player, store, replays):
    """After a move the store marks the row ``counted`` (statistics) on its own: the cached
    game still matches the stored row."""
    p = player(CODE)
    first, second = solve(deal(DealCode.parse(CODE))).line[:2]
    for place in first:
        p.tap(place_name(place))
    sid = sid_of(p.client)
    assert store.load(sid, CODE)[1].marks.counted
    replays.clear()
    for place in second:
        p.tap(place_name(place))
    assert replays == []
    assert p.board.attrs["data-moves"] == "2"
    _, stored = store.load(sid, CODE)
    assert (stored.moves, stored.record["sel"]) == (2, "")
    p.open()
    assert p.board.attrs["data-moves"] == "2"


def test_a_game_another_worker_moved_on_is_decided_from_the_stored_row(
    player, store, proof_pool, replays
):
    """Two workers (two apps, each its own cache) on one store and one session: the first
    worker's cached game is behind after the second worker's tap, so the first worker's
    next tap is decided from the stored row, exactly as without a cache. (The second app
    closes the shared store when it stops: everything happens while it runs.)"""
    p = player(CODE)
    card = p.top("pile-1")
    p.tap("pile-1", card)  # worker 1: selected, and cached
    other = create_app(store=store.store, proof_pool=proof_pool)
    with TestClient(other, base_url="http://testserver", follow_redirects=False) as second:
        second.cookies.set("sid", p.client.cookies["sid"])
        q = Player(second, p.url)
        q.open()
        assert pressed(q, "pile-1") == "true"
        q.tap("pile-1", card)  # worker 2: deselected
        assert stored_selection(store, p) == ""
        replays.clear()
        # worker 1's page is behind, but the card is still there: the tap applies to the
        # stored game (nothing selected) and selects it
        response = p.client.post(
            f"{p.url}/tap", data={"place": "pile-1", "card": card, "token": p.token}, headers=HTMX
        )
        assert response.status_code == 200, response.text
        assert stored_selection(store, p) == PILE_1
        assert len(replays) == 1  # rebuilt from the row worker 2 wrote
        p.open()
        assert pressed(p, "pile-1") == "true"


def test_a_failed_transaction_leaves_no_half_applied_game_in_the_cache(player, store, monkeypatch):
    """The store runs the change (the engine applies the tap) and then fails to commit: the
    player gets the store's error, nothing is written, and the next tap starts from the
    stored game — not from the game object the failed tap had changed."""
    p = player(CODE)
    card = p.top("pile-1")
    p.tap("pile-1", card)  # selected, stored and cached
    sid = sid_of(p.client)

    async def change_then_fail(sid_: str, code: str, change):
        change(*await store.store.load(sid_, code))  # the action runs ...
        raise StoreError("disk full")  # ... and the commit fails

    with monkeypatch.context() as patched:
        patched.setattr(store.store, "change_game", change_then_fail)
        failed = p.client.post(
            f"{p.url}/tap", data={"place": "pile-1", "card": card, "token": p.token}, headers=HTMX
        )
    assert failed.status_code == 503
    assert store.load(sid, CODE)[1].record["sel"] == PILE_1
    p.open()
    assert pressed(p, "pile-1") == "true"
    p.tap("pile-1", card)  # deselects the stored selection
    assert stored_selection(store, p) == ""
    assert pressed(p, "pile-1") == "false"
