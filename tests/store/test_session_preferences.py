"""The preferences of issue 27 in the session (zen, deck, hand, theme, sound): every store
keeps them, sessions stored before they existed keep loading (with the defaults), and a
value this version does not know falls back to its default without losing the session."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
import redis

from app.store import SessionData, Store
from app.store.base import CHOICES
from app.store.redis import RedisStore
from app.store.sqlite import SQLiteStore
from app.store.sync import SyncStore

OLD = {"token": "t1", "move_errors": True, "placement_help": False, "lang": "fr"}
"""A session as the stores wrote it before issue 27."""

CHOSEN = SessionData(
    "t1", move_errors=True, lang="fr", zen=True, deck="four-colour", hand="left",
    theme="dark", sound=True,
)  # fmt: skip


def test_every_preference_round_trips_in_every_store(store: Store) -> None:
    store.save_session("s1", CHOSEN)
    assert store.load("s1") == (CHOSEN, None)
    for theme in CHOICES["theme"]:
        session = SessionData("t1", theme=theme)
        store.save_session("s1", session)
        assert store.load("s1") == (session, None)


def test_a_session_stored_before_the_preferences_loads_with_the_defaults() -> None:
    session = SessionData.from_data(OLD)
    assert session == SessionData("t1", move_errors=True, lang="fr")
    assert session is not None
    assert (session.zen, session.deck, session.hand, session.theme, session.sound) == (
        False,
        "classic",
        "right",
        "auto",
        False,
    )


def test_a_default_session_is_stored_exactly_as_before() -> None:
    assert SessionData("t1", move_errors=True, lang="fr").to_data() == OLD
    assert CHOSEN.to_data() == {
        **OLD,
        "zen": True,
        "deck": "four-colour",
        "hand": "left",
        "theme": "dark",
        "sound": True,
    }


@pytest.mark.parametrize(
    "damage",
    [
        {"zen": "yes"},
        {"sound": 1},
        {"deck": "rainbow"},
        {"hand": None},
        {"theme": ["dark"]},
        {"deck": "Four-Colour"},
    ],
)
def test_an_unknown_preference_value_is_its_default_and_the_session_is_kept(damage) -> None:
    loaded = SessionData.from_data({**OLD, "theme": "light", **damage})
    expected = SessionData("t1", move_errors=True, lang="fr", theme="light")
    if "theme" in damage:
        expected = SessionData("t1", move_errors=True, lang="fr")
    assert loaded == expected


def test_an_old_sqlite_row_loads_and_takes_preferences(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    store = SyncStore(SQLiteStore(str(path)))
    try:
        with closing(sqlite3.connect(path)) as raw:
            raw.execute(
                "INSERT INTO sessions (sid, data, created_ms, touched_ms) VALUES (?, ?, 1, 2)",
                ("s1", json.dumps(OLD)),
            )
            raw.commit()
        loaded, _ = store.load("s1")
        assert loaded == SessionData("t1", move_errors=True, lang="fr")
        assert loaded is not None
        store.save_session("s1", CHOSEN)
        assert store.load("s1") == (CHOSEN, None)
    finally:
        store.close()


def test_an_old_redis_session_loads_and_takes_preferences(
    redis_url: str, redis_client: redis.Redis
) -> None:
    store = SyncStore(RedisStore(redis_url))
    try:
        redis_client.set("sol:{s1}:s", json.dumps({**OLD, "created_ms": 1, "touched_ms": 2}))
        assert store.load("s1") == (SessionData("t1", move_errors=True, lang="fr"), None)
        store.save_session("s1", CHOSEN)
        assert store.load("s1") == (CHOSEN, None)
        kept = json.loads(redis_client.get("sol:{s1}:s") or "")
        assert (kept["deck"], kept["zen"], kept["created_ms"]) == ("four-colour", True, 1)
    finally:
        store.close()
