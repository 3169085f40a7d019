"""The store interface itself: what a new store must write, and the one synchronous adapter."""

from __future__ import annotations

import asyncio
import inspect
import threading
from typing import Any

import pytest

from app.store import MemoryStore, SessionData, Store
from app.store.base import (
    FollowUpError,
    Outcome,
    StoreError,
    StoreFullError,
    UnconfirmedChangeError,
    followed,
    outcome_of,
)
from app.store.sync import Portal, SyncStore
from tests.loops import run_apart

REQUIRED = {
    "rate_limiter",
    "load",
    "save_session",
    "change_game",
    "recent_games",
    "finished_games",
    "sweep",
    "player_stats",
    "deal_stats",
    "reset_stats",
    "replay",
    "player_replays",
    "delete_replay",
    "analysis",
    "save_analysis",
    "save_link",
    "link_owner",
    "has_link",
    "revoke_link",
    "moved_to",
    "replay_owner",
    "kept_secret",
    "take_lease",
    "drop_lease",
}
"""Every operation a store must write itself (the others have one definition for all)."""


def test_every_operation_a_store_must_write_is_abstract() -> None:
    assert Store.__abstractmethods__ == REQUIRED


@pytest.mark.parametrize("missing", sorted(REQUIRED))
def test_a_store_that_lacks_one_operation_cannot_be_made(missing: str) -> None:
    """Before: a store without ``move_player`` was made, and failed when a player revoked a
    device link (``NotImplementedError``, at run time)."""

    async def written(self: Any, *args: Any) -> None:
        return None

    partial = type("Partial", (Store,), dict.fromkeys(REQUIRED - {missing}, written))
    with pytest.raises(TypeError, match=missing):
        partial()


def test_every_operation_but_the_limiter_is_a_coroutine() -> None:
    """One interface, asynchronous only: no operation is written twice."""
    blocking = {
        name
        for name, member in inspect.getmembers(Store, inspect.isfunction)
        if not name.startswith("_") and not inspect.iscoroutinefunction(member)
    }
    assert blocking == {"rate_limiter"}


def test_the_adapter_makes_every_operation_a_blocking_call() -> None:
    store = SyncStore(MemoryStore())
    store.save_session("p", SessionData("tok"))
    assert store.load("p") == (SessionData("tok"), None)
    assert store.knows("p") and not store.knows("q")
    assert store.bounds is store.store.bounds  # the store's other attributes, as they are
    store.close()


def test_the_adapter_runs_the_coroutines_on_a_loop_of_its_own() -> None:
    loops: list[asyncio.AbstractEventLoop] = []

    class Watched(MemoryStore):
        async def load(self, sid: str, code: str | None = None) -> Any:
            loops.append(asyncio.get_running_loop())
            return await super().load(sid, code)

    own = Portal("test-portal")
    SyncStore(Watched(), own).load("p")
    assert loops == [own.loop] and own.loop is not None
    own.close()
    assert not any(t.name == "test-portal" for t in threading.enumerate())


def test_a_change_that_calls_the_adapter_from_the_portals_loop_is_refused() -> None:
    """It would wait for itself: the error says so instead of hanging."""
    store = SyncStore(MemoryStore())

    def change(_session: Any, _game: Any) -> tuple[None, None]:
        store.load("p")
        return None, None

    with pytest.raises(RuntimeError, match="own loop"):
        store.change_game("p", "HM1-N-AAAAAAB", change)


# --- did a change happen: what a failure says (issue 34) ---------------------------------


def test_every_failure_of_a_change_says_whether_it_was_made() -> None:
    assert [outcome_of(e) for e in (StoreError("x"), StoreFullError("x"))] == [Outcome.NOT_MADE] * 2
    assert outcome_of(UnconfirmedChangeError("x")) is Outcome.UNKNOWN
    assert outcome_of(FollowUpError("x", "answer")) is Outcome.MADE
    assert outcome_of(RuntimeError("escaped from inside a store")) is Outcome.UNKNOWN


def test_a_store_failure_after_a_change_that_was_made_reads_made() -> None:
    """The reads an answer makes after the commit (statistics, a deal's figures), or a
    verdict written after it: their failure carries the change's result, outcome MADE."""

    async def fails() -> None:
        raise StoreError("the statistics read failed")

    async def reads() -> str:
        return "figures"

    async def main() -> Any:
        assert await followed("acted", reads()) == "figures"
        with pytest.raises(FollowUpError) as raised:
            await followed("acted", fails())
        return raised.value

    error = run_apart(main())
    assert (outcome_of(error), error.result) == (Outcome.MADE, "acted")
    assert isinstance(error.__cause__, StoreError)


def test_a_change_its_callback_refuses_is_not_made_and_writes_nothing() -> None:
    """A store error raised by the change's own callback: nothing written, NOT_MADE."""
    store = SyncStore(MemoryStore())

    def refuse(_session: Any, _game: Any) -> tuple[None, None]:
        raise StoreError("refused")

    with pytest.raises(StoreError) as raised:
        store.change_game("p", "HM1-N-AAAAAAB", refuse)
    assert outcome_of(raised.value) is Outcome.NOT_MADE and store.load("p", "HM1-N-AAAAAAB") == (
        None,
        None,
    )
