"""A stored game's marks, typed (issue 25 item 4): every mark a row carried in its ``extra``
dict is a field of :class:`Marks`; rows and keys saved before load as they did; what a change
keeps is the one :func:`carry`."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
import redis

from app.store import GameSummary, Store, StoredGame
from app.store.base import carry
from app.store.marks import NO_MARKS, Marks, Win
from app.store.redis import RedisStore
from app.store.sqlite import SQLiteStore
from app.store.sync import SyncStore
from tests.store.helpers import MARKED, MARKED_EXTRA, REPLAY, WON_REPLAY, put

OLD_EXTRA, OLD_MARKS = MARKED_EXTRA, MARKED
"""A row's ``extra`` as the version before typed marks wrote it, every key set; its marks."""


def test_every_key_the_old_extra_held_is_a_typed_mark_and_is_stored_as_it_was() -> None:
    assert Marks.from_data(OLD_EXTRA) == OLD_MARKS
    assert OLD_MARKS.to_data() == OLD_EXTRA  # an older version reads the rows this one writes
    assert Marks.from_data(NO_MARKS.to_data()) == NO_MARKS and NO_MARKS.to_data() == {}
    # nothing a row carries is untyped; issue 43's keys: the game's life (app/store/life.py)
    assert set(Marks._fields) == {*OLD_EXTRA, "practice", "assisted", "start", "result"}
    # issue 33's practice games: a key of its own (an older version drops it, as unknown)
    assert Marks(practice=True).to_data() == {"practice": True}
    assert Marks.from_data({"practice": True}) == Marks(practice=True)
    assert Marks.from_data({"practice": 1}) == NO_MARKS
    life = Marks(practice=True, start=21, assisted=True, result="abandoned")
    assert Marks.from_data(json.loads(json.dumps(life.to_data()))) == life
    stored = {"practice": True, "start": 21, "assisted": True, "result": "abandoned"}
    assert life.to_data() == stored
    assert Marks.from_data({"result": "maybe", "start": -3, "assisted": "yes"}) == NO_MARKS
    assert hash(OLD_MARKS) == hash(Marks.from_data(json.loads(json.dumps(OLD_EXTRA))))


def test_an_earlier_win_saved_without_a_replay_reads_with_none() -> None:
    """Wins kept before replays (issue 26) have no ``replay``; the previous version wrote
    ``null`` for a win whose game had none."""
    for won in (
        {"ms": 5, "moves": 2, "score": 1},
        {"ms": 5, "moves": 2, "score": 1, "replay": None},
    ):
        assert Marks.from_data({"won": won}).won == Win(5, 2, 1)
    assert Marks(won=Win(5, 2, 1)).to_data() == {"won": {"ms": 5, "moves": 2, "score": 1}}


@pytest.mark.parametrize(
    ("extra", "marks"),
    [
        ({"counted": "later"}, NO_MARKS),
        ({"counted": True, "daily": 20261201, "unproved": "yes"}, NO_MARKS),
        ({"won": [309_000, 48, 520]}, NO_MARKS),
        ({"won": {"ms": "5:09", "moves": 48}}, Marks(won=Win(0, 48, 0))),
        ({"won": {"ms": 1, "moves": 2, "score": 3, "replay": "short"}}, Marks(won=Win(1, 2, 3))),
        ({"replay": "R" * 22}, NO_MARKS),  # an id, not {"id": …}
        ({"replay": {"id": "R" * 21 + "/"}}, NO_MARKS),  # not URL-safe
        ({"replay": {"id": "R" * 23}}, NO_MARKS),
        ({"retry": 7}, NO_MARKS),
        ({"x": 1, "unproved": True}, Marks(unproved=True)),  # unknown keys dropped
        ([1, 2], NO_MARKS),
        ("{", NO_MARKS),
        (None, NO_MARKS),
    ],
)
def test_a_damaged_mark_reads_as_unset(extra: Any, marks: Marks) -> None:
    assert Marks.from_data(extra) == marks


def _old_row(path: Path, extra: Any) -> None:
    """A game row as the previous version wrote it (its ``extra`` text as it was)."""
    SyncStore(SQLiteStore(str(path))).close()  # the schema of today (the column did not change)
    with closing(sqlite3.connect(path)) as raw, raw:
        raw.execute(
            "INSERT INTO games (sid, code, record, state, score, moves, extra, updated_ms)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            ("s1", "HM1-N-AAAAAAB", '{"clock":[65000,null]}', "won", 520, 48, extra, 700),
        )


def test_a_sqlite_row_saved_before_the_marks_were_typed_loads_every_mark(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    _old_row(path, json.dumps(OLD_EXTRA))
    store = SyncStore(SQLiteStore(str(path)))
    try:
        _, row = store.load("s1", "HM1-N-AAAAAAB")
        assert row == StoredGame(
            "HM1-N-AAAAAAB", {"clock": [65000, None]}, "won", 520, 48, 700, OLD_MARKS
        )
        assert store.finished_games("s1") == [
            GameSummary("HM1-N-AAAAAAB", "won", 520, 48, 700, 65000, OLD_MARKS)
        ]
    finally:
        store.close()


@pytest.mark.parametrize("extra", ["{not json", "[]", "null", ""])
def test_a_damaged_sqlite_extra_loads_as_no_marks(tmp_path: Path, extra: str) -> None:
    path = tmp_path / "games.db"
    _old_row(path, extra)
    store = SyncStore(SQLiteStore(str(path)))
    try:
        row = store.load("s1", "HM1-N-AAAAAAB")[1]
        assert row is not None and row.marks == NO_MARKS and row.state == "won"
    finally:
        store.close()


def test_the_sqlite_column_holds_the_same_json_as_before(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    store = SyncStore(SQLiteStore(str(path)))
    try:
        put(store, "s1", StoredGame("HM-1", {"n": 1}, "playing", 0, 0, 5, OLD_MARKS))
    finally:
        store.close()
    with closing(sqlite3.connect(path)) as raw:
        (text,) = raw.execute("SELECT extra FROM games").fetchone()
    assert json.loads(text) == OLD_EXTRA


@pytest.fixture
def redis_store(redis_url: str, redis_client: redis.Redis) -> Iterator[RedisStore]:
    made = SyncStore(RedisStore(redis_url))
    yield made
    made.close()


def test_a_redis_key_saved_before_the_marks_were_typed_loads_every_mark(
    redis_store: RedisStore, redis_client: redis.Redis
) -> None:
    held = {
        "record": {"clock": [65000, None]},
        "state": "won",
        "score": 520,
        "moves": 48,
        "extra": OLD_EXTRA,
        "updated_ms": 700,
        "w": ["0123456789abcdef"],
    }
    redis_client.set("sol:{s1}:g:HM1-N-AAAAAAB", json.dumps(held))
    _, row = redis_store.load("s1", "HM1-N-AAAAAAB")
    assert row == StoredGame(
        "HM1-N-AAAAAAB", {"clock": [65000, None]}, "won", 520, 48, 700, OLD_MARKS
    )
    put(redis_store, "s1", StoredGame("HM1-N-AAAAAAB", {"n": 2}, "won", 520, 48, 800, OLD_MARKS))
    again = json.loads(redis_client.get("sol:{s1}:g:HM1-N-AAAAAAB") or "")
    assert again["extra"] == OLD_EXTRA  # written back in the same form


EACH_MARK = [
    NO_MARKS,
    Marks(counted="open"),
    Marks(counted="done"),
    Marks(daily="2026-12-01"),
    Marks(won=Win(309_000, 48, 520)),
    Marks(won=Win(309_000, 48, 520, WON_REPLAY)),
    Marks(unproved=True),
    Marks(retry="5f0e9a4c3b2d1e0f9a"),
    Marks(replay=REPLAY),
    MARKED,
]


def test_every_mark_round_trips_through_every_store(store: Store) -> None:
    for i, marks in enumerate(EACH_MARK):
        code = f"HM-{i}"
        written = StoredGame(code, {"n": i}, "playing", 1, 2, 100 + i, marks)
        put(store, "s1", written)
        assert store.load("s1", code)[1] == written, marks
        summary = next(g for g in store.recent_games("s1", limit=20) if g.code == code)
        assert summary.marks == marks


# --- carry: what a change keeps of the row it replaces ----------------------------------------


def _row(
    state: str = "playing", count: int = 3, marks: Marks = NO_MARKS, **record: Any
) -> StoredGame:
    """A Half Moon row of ``count`` moves (``record``: its ``moves`` and ``redo`` texts)."""
    return StoredGame(
        "HM1-N-AAAAAAB", {"clock": [9000, None], **record}, state, 520, count, 1, marks
    )


def ids() -> Iterator[str]:
    n = 0
    while True:
        n += 1
        yield f"{n:022d}"


def test_a_game_that_has_just_ended_gets_a_replay_id_from_the_web_layers_carry_only() -> None:
    draw = ids()
    ended = _row("won", 48, moves="ae")
    assert carry(_row(), ended, lambda: next(draw)).marks.replay == f"{1:022d}"
    assert carry(_row(), ended).marks.replay is None  # the store's own call draws none
    with_id = carry(_row(), ended, lambda: next(draw))
    assert carry(_row(), with_id, lambda: next(draw)) == with_id  # twice: nothing changes
    assert carry(with_id, with_id) == with_id


def test_the_replay_id_is_kept_while_the_game_goes_on_and_dropped_when_it_restarts() -> None:
    ended = _row("won", 48, Marks(counted="done", replay=REPLAY), moves="ae")
    undone = carry(ended, _row("playing", 47, moves="a", redo="e"))
    assert undone.marks == Marks(counted="done", won=Win(9000, 48, 520, REPLAY), replay=REPLAY)
    restarted = carry(ended, _row("playing", 0))
    assert restarted.marks == Marks(
        counted="new", won=Win(9000, 48, 520, REPLAY)
    )  # a new game (issue 34)
    assert carry(restarted, _row("playing", 1, moves="a")).marks == restarted.marks


def test_the_statistics_mark_comes_from_the_stored_row_and_the_changes_own_marks_stay() -> None:
    stored = _row(marks=Marks(counted="done", daily="2026-12-01", retry="old", unproved=True))
    decided = _row(marks=Marks(counted="open", retry="new"))  # decided on an older read
    kept = carry(stored, decided)
    assert kept.marks == Marks(counted="done", daily="2026-12-01", retry="new")
    assert carry(stored, dataclasses.replace(decided, marks=Marks(daily="2026-12-02"))).marks == (
        Marks(counted="done", daily="2026-12-02")
    )
    assert carry(None, decided) is decided


def test_a_practice_game_keeps_its_mark_is_counted_nowhere_and_never_replayed() -> None:
    ended = StoredGame("C", {"moves": "ae"}, "stuck", 10, 1, marks=Marks("done", replay=REPLAY))
    practice = StoredGame("C", {"moves": "ae"}, "playing", 10, 1, marks=Marks(practice=True),
                          kind="HM")  # fmt: skip
    tried = carry(ended, practice, lambda: "N" * 22)
    assert tried.marks.practice and tried.marks.replay is None  # not the game's replay
    assert (tried.kind, tried.ranks) == (None, False)
    later = carry(tried, StoredGame("C", {"moves": "ae.bc"}, "stuck", 20, 2, kind="HM"),
                  lambda: "N" * 22)  # fmt: skip
    assert later.marks.practice and later.marks.replay is None and later.kind is None
