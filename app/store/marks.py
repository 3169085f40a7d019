"""What a stored game carries besides its record (issue 25 item 4): its marks, typed.

Each mark is owned by one concern — the statistics (:mod:`app.store.counting`), the daily
deals, replays (:mod:`app.store.replays`; the id drawn by :func:`app.store.base.carry`), a
retried action (:mod:`app.web.play.retries`), a game's screen — and :class:`Marks` is the one place
that says what a row may carry. Nothing outside the store reads the stored form.

**Stored form** (``docs/decisions.md``): a JSON object of the marks that are set, the row's
``extra`` column in SQLite and the ``"extra"`` member of a game's Redis value — the same
keys and shapes as before the marks were typed, so every row saved before reads as it did::

    {"counted": "open", "daily": "2026-12-01",
     "won": {"ms": 309000, "moves": 48, "score": 520, "replay": "<22 characters>"},
     "unproved": true, "retry": "<18 hex digits>", "replay": {"id": "<22 characters>"},
     "practice": true, "start": 21, "assisted": true, "result": "lost"}

A value of the wrong type or shape reads as unset, and unknown keys are dropped.
"""

from __future__ import annotations

import re
from typing import Any, Final, Literal, NamedTuple, get_args

from app.store.jsondata import int_or_zero

Counted = Literal["", "open", "again", "new", "done", "aside"]
"""The statistics' mark: not counted; counted as played (``open``: the player's first game
of the deal, whose result the deal's figures take; ``again``: a later game of a deal counted
before — a restart of an ended game — whose result counts for the player alone); ``new``: a
game restarted after it ended, not played yet (its first move counts it ``again``); its
result counted (``done``: and in the deal's figures; ``aside``: for the player alone — a
later game, or a win the standings do not rank). Issue 34."""

_COUNTED: Final[dict[str, Counted]] = {c: c for c in get_args(Counted)}
_RESULTS: Final = frozenset({"won", "lost", "abandoned"})
RESULT_COUNTED: Final[frozenset[str]] = frozenset({"done", "aside"})
"""The marks of a game whose result is counted: it counts nothing more."""

REPLAY_ID: Final = re.compile(r"[A-Za-z0-9_-]{22}")
"""A replay id: 16 random bytes, URL-safe base64 without padding (128 bits)."""


class Win(NamedTuple):
    """A game's result when it was won: time on the game clock, moves, score, and its
    replay's id (``None``: it has none)."""

    ms: int
    moves: int
    score: int
    replay: str | None = None


class Marks(NamedTuple):
    """A stored game's marks (hashable: the web's caches key on rows)."""

    counted: Counted = ""
    """The statistics' own mark (:mod:`app.store.counting`). Only the store sets it
    (:func:`app.store.base.carry` takes it from the row being replaced)."""
    daily: str = ""
    """The UTC day (``YYYY-MM-DD``) whose daily deal this game is, ``""`` for another deal."""
    won: Win | None = None
    """The last win on this deal, kept when the player plays it again (the saved game
    restarts; its result must not be lost), shown with the game on the home page."""
    unproved: bool = False
    """The verdict on the saved position ("no move can help any more") is not proved yet:
    set by the game's screen on each change, never carried."""
    retry: str | None = None
    """What identifies the action that wrote the row (:mod:`app.web.play.retries`): the same
    action sent again from the same board is answered, not applied twice. Set by each
    change, never carried."""
    replay: str | None = None
    """The id of this game's replay (:mod:`app.store.replays`), drawn when the game first
    ends, kept while it goes on from the same deal, dropped when it restarts."""
    practice: bool = False
    """A practice game (issue 33: *Try from move k*): counted in no statistics, streak or
    standing, never replayed; kept for the row's life (:func:`app.store.values.carry`). Since
    issue 43 a practice has a row of its own (:func:`app.store.life.practice_key`)."""
    assisted: bool = False
    """A game played with hints (issue 43; set when a hint is shown, issue 45): counted as
    played, in no personal best, deal figure or standing (:mod:`app.store.life`)."""
    start: int = 0
    """A practice's first move: the board after the game's first *k* moves, where Restart
    returns (``0``: the deal's start)."""
    result: str = ""
    """The ending the statistics counted (``won``, ``lost`` or ``abandoned``; ``""``: none, or
    counted before issue 43 — :func:`app.store.life.life_of` reads it). Carried."""

    def to_data(self) -> dict[str, Any]:
        """The JSON object stored: the marks that are set.

        >>> Marks(counted="open", won=Win(9000, 48, 520), retry="ab").to_data()
        {'counted': 'open', 'won': {'ms': 9000, 'moves': 48, 'score': 520}, 'retry': 'ab'}
        """
        data: dict[str, Any] = {}
        if self.counted:
            data["counted"] = self.counted
        if self.daily:
            data["daily"] = self.daily
        if self.won is not None:
            won = self.won
            data["won"] = {"ms": won.ms, "moves": won.moves, "score": won.score}
            if won.replay is not None:
                data["won"]["replay"] = won.replay
        if self.unproved:
            data["unproved"] = True
        if self.retry is not None:
            data["retry"] = self.retry
        if self.replay is not None:
            data["replay"] = {"id": self.replay}
        if self.practice:
            data["practice"] = True
        if self.assisted:
            data["assisted"] = True
        if self.start > 0:
            data["start"] = self.start
        if self.result:
            data["result"] = self.result
        return data

    @classmethod
    def from_data(cls, data: Any) -> Marks:
        """The marks a stored JSON value holds (damaged ones, and unknown keys, read as unset).

        >>> Marks.from_data({"counted": "done", "won": {"ms": 5, "moves": 2, "score": 1}, "x": 1})
        Marks(counted='done', daily='', won=Win(ms=5, moves=2, score=1, replay=None), \
unproved=False, retry=None, replay=None, practice=False, assisted=False, start=0, result='')
        >>> Marks.from_data("[") == Marks.from_data({"counted": 1, "replay": "x"}) == Marks()
        True
        """
        if not isinstance(data, dict) or not data:
            return NO_MARKS
        counted, daily, retry = data.get("counted"), data.get("daily"), data.get("retry")
        replay = data.get("replay")
        return cls(
            _COUNTED.get(counted, "") if isinstance(counted, str) else "",
            daily if isinstance(daily, str) else "",
            _win(data.get("won")),
            data.get("unproved") is True,
            retry if isinstance(retry, str) else None,
            _replay_id(replay.get("id")) if isinstance(replay, dict) else None,
            data.get("practice") is True,
            data.get("assisted") is True,
            max(0, int_or_zero(data.get("start"))),
            result if isinstance(result := data.get("result"), str) and result in _RESULTS else "",
        )


def _replay_id(value: Any) -> str | None:
    return value if isinstance(value, str) and REPLAY_ID.fullmatch(value) else None


def _win(value: Any) -> Win | None:
    if not isinstance(value, dict):
        return None
    get = value.get
    return Win(
        int_or_zero(get("ms")),
        int_or_zero(get("moves")),
        int_or_zero(get("score")),
        _replay_id(get("replay")),
    )


NO_MARKS: Final = Marks()
"""A row with no marks (an empty ``extra``)."""
