"""What the Redis store's keys hold, as text, and back: sessions, games, game lists, deal
results. Damage never raises: what cannot be read loads as the interface's defaults (no
session; a game with ``record == {}``), as in the SQLite store."""

from __future__ import annotations

import hashlib
from typing import Any

from app.store.counting import DealResult
from app.store.jsondata import dict_from_json, dumps, int_or_zero, json_dict, json_or_none
from app.store.marks import Marks
from app.store.values import SessionData, StoredGame, status_of


def text(value: object) -> str | None:
    """A reply as text (bytes that are not UTF-8 are damage: replaced, never an error)."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value if isinstance(value, str) else None


def texts(values: object) -> list[str | None]:
    return [text(value) for value in values] if isinstance(values, list) else []


def session_from(raw: str | None) -> SessionData | None:
    return None if raw is None else SessionData.from_data(json_or_none(raw))


def session_json(session: SessionData, created_ms: int, now: int) -> str:
    return dumps({**session.to_data(), "created_ms": created_ms, "touched_ms": now})


def created_ms(raw: str | None) -> int:
    """When a stored session was first saved (0: never, or unreadable)."""
    return int_or_zero(dict_from_json(raw).get("created_ms"))


def game_from(code: str, raw: str | None) -> StoredGame | None:
    """The game a key holds; damaged fields load as defaults, a damaged whole as ``{}``."""
    return game_and_writes(code, raw)[0]


def game_and_writes(code: str, raw: str | None) -> tuple[StoredGame | None, tuple[str, ...]]:
    """:func:`game_from`, and the ids of the game's last writes its value names (``"w"``,
    newest first; none in a value written before they were kept)."""
    if raw is None:
        return None, ()
    data = dict_from_json(raw)
    state = data.get("state")
    game = StoredGame(
        code=code,
        record=json_dict(data.get("record")),
        state=status_of(state),
        score=int_or_zero(data.get("score")),
        moves=int_or_zero(data.get("moves")),
        updated_ms=int_or_zero(data.get("updated_ms")),
        marks=Marks.from_data(data.get("extra")),
    )
    writes = data.get("w")
    if not isinstance(writes, list):
        return game, ()
    return game, tuple(w for w in writes if isinstance(w, str))


def game_json(game: StoredGame, writes: tuple[str, ...] = ()) -> str:
    """A game's value; ``writes``: the ids of its last writes, this one first."""
    data: dict[str, Any] = {
        "record": game.record,
        "state": game.state,
        "score": game.score,
        "moves": game.moves,
        "extra": game.marks.to_data(),
        "updated_ms": game.updated_ms,
    }
    if writes:
        data["w"] = list(writes)
    return dumps(data)


def listed(reply: object, limit: int) -> list[StoredGame]:
    """:data:`~app.store.redis.scripts.LIST_GAMES`' answer (code, score, game JSON, …) as
    the ``limit`` newest games, ties ordered by code (as SQLite's ``ORDER BY updated_ms
    DESC, code`` orders them)."""
    flat = texts(reply)
    entries: list[tuple[float, str, str | None]] = []
    for i in range(0, len(flat) - 2, 3):
        code, score = flat[i], flat[i + 1]
        if code is not None and score is not None:
            try:
                entries.append((-float(score), code, flat[i + 2]))
            except ValueError:
                continue
    entries.sort(key=lambda e: (e[0], e[1]))
    games = (game_from(code, raw) for _, code, raw in entries[:limit])
    return [g for g in games if g is not None]


def result_json(code: str, result: DealResult) -> str:
    """A result filed for its deal's figures."""
    return dumps({"code": code, "won": result.won, "ms": result.ms, "moves": result.moves})


def result_from(raw: str | None) -> tuple[str, DealResult] | None:
    """A filed result and its deal, ``None`` when the entry is damaged (then dropped)."""
    data = dict_from_json(raw)
    code, won, ms, moves = data.get("code"), data.get("won"), data.get("ms"), data.get("moves")
    if not isinstance(code, str) or not isinstance(won, bool):
        return None
    if int_or_zero(ms) != ms or int_or_zero(moves) != moves:
        return None
    return code, DealResult(won, int_or_zero(ms), int_or_zero(moves))


def pending_from(reply: list[Any]) -> list[tuple[str, str | None]]:
    """The (id, JSON) pairs a flat ``HGETALL`` answer lists."""
    flat = texts(reply)
    return [(i, flat[n + 1]) for n, i in enumerate(flat[:-1]) if n % 2 == 0 and i is not None]


def values(reply: list[Any]) -> list[bytes | None]:
    """Values a script answered as stored (``nil``: none)."""
    return [v if isinstance(v, bytes) else None for v in reply]


def result_id(sid: str, game: StoredGame) -> str:
    """A counted result's id, the same however often the change that counted it runs (a
    player's game ends once per ``updated_ms``); hashed, so no session id leaves its slot."""
    text = f"{sid}\0{game.code}\0{game.updated_ms}"
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:20]
