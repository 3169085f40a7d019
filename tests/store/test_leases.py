"""Leases in the store (issue 44): a name held by one holder at a time across every worker and
instance on the store, renewed by its holder, released by its holder only, and free again once
its time runs out (its holder's instance killed)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from app.store.sync import SyncStore

MINUTE = 60_000


def test_a_lease_is_held_by_one_holder_until_it_releases_it(store: SyncStore) -> None:
    assert store.take_lease("analysis:address:x", "one", MINUTE) is True
    assert store.take_lease("analysis:address:x", "two", MINUTE) is False
    assert store.take_lease("analysis:address:y", "two", MINUTE) is True  # another name
    assert store.take_lease("analysis:address:x", "one", MINUTE) is True  # renewed by its holder
    assert store.drop_lease("analysis:address:x", "two") is False  # not its own: left alone
    assert store.take_lease("analysis:address:x", "two", MINUTE) is False
    assert store.drop_lease("analysis:address:x", "one") is True
    assert store.drop_lease("analysis:address:x", "one") is False  # released already
    assert store.take_lease("analysis:address:x", "two", MINUTE) is True


def test_a_lease_whose_holder_died_is_free_once_its_time_ran_out(store: SyncStore) -> None:
    """A holder killed never releases: its lease runs out, and then another takes it; the dead
    holder's late release does not drop the new holder's lease."""
    assert store.take_lease("analysis:player:p", "dead", 50) is True
    time.sleep(0.2)
    assert store.take_lease("analysis:player:p", "alive", MINUTE) is True
    assert store.drop_lease("analysis:player:p", "dead") is False
    assert store.take_lease("analysis:player:p", "third", MINUTE) is False


def test_a_renewal_keeps_a_lease_past_its_first_time(store: SyncStore) -> None:
    assert store.take_lease("n", "one", 300) is True
    assert store.take_lease("n", "one", MINUTE) is True  # renewed for a minute
    time.sleep(0.5)
    assert store.take_lease("n", "two", MINUTE) is False


def test_names_with_separators_and_braces_are_kept_apart(store: SyncStore) -> None:
    assert store.take_lease("a:b}{c", "one", MINUTE) is True
    assert store.take_lease("a:b", "two", MINUTE) is True
    assert store.take_lease("a:b}{c", "two", MINUTE) is False


def test_workers_on_one_store_race_for_a_lease_and_one_wins(
    shared_store: Callable[[], SyncStore],
) -> None:
    """Eight workers (stores on one file, Redis or cluster) ask at once: exactly one holds it."""
    stores = [shared_store() for _ in range(4)]
    start = threading.Barrier(8)
    won: list[str] = []

    def ask(n: int) -> None:
        start.wait()
        if stores[n % 4].take_lease("analysis:address:race", f"h{n}", MINUTE):
            won.append(f"h{n}")

    threads = [threading.Thread(target=ask, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(won) == 1
    holder = won[0]
    assert all(s.take_lease("analysis:address:race", "late", MINUTE) is False for s in stores)
    assert stores[0].drop_lease("analysis:address:race", holder) is True
    assert stores[1].take_lease("analysis:address:race", "late", MINUTE) is True


def test_the_sweep_deletes_leases_whose_time_ran_out(sweeping_store: SyncStore) -> None:
    """The stores that sweep (Redis expires the key itself): a killed holder's lease leaves
    nothing behind; one still held stays."""
    assert sweeping_store.take_lease("dead", "one", 1) is True
    assert sweeping_store.take_lease("alive", "two", MINUTE) is True
    time.sleep(0.05)
    sweeping_store.sweep(0)
    store = sweeping_store.store
    if hasattr(store, "connection"):
        names = [n for (n,) in store.connection().execute("SELECT name FROM leases")]
    else:
        names = list(store._leases)
    assert names == ["alive"]
