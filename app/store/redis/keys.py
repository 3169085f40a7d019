"""Where everything lives in Redis: one player's keys share a hash tag, so each script and
each transaction touches one hash slot (one node of a Redis Cluster).

Under a configurable prefix (default ``sol:``):

``sol:{sid}:s``
    The session: JSON of :meth:`SessionData.to_data` plus ``created_ms`` and ``touched_ms``.
``sol:{sid}:g:{code}``
    A game: JSON with ``record``, ``state``, ``score``, ``moves``, ``extra`` and ``updated_ms``,
    and ``w``: the random ids of its last four writes, newest first (how the store learns
    whether a write whose answer was lost landed; a value without it is read as ever).
``sol:{sid}:r``
    A sorted set of the codes of the player's games in state ``playing``, scored by their
    ``updated_ms``: the home page's "continue" list reads it instead of scanning keys.
``sol:{sid}:a``
    A sorted set of the codes of all the player's games, scored by ``updated_ms``: a change
    that creates a game past the store's ``bounds.games`` deletes the lowest-scored ones (the
    oldest untouched) in the same script.
``sol:{sid}:p``
    The player's statistics document (:mod:`app.store.counting`), written by the same
    script as the game change that counted it.
``sol:{sid}:q``
    A hash of the deal results the player's games counted that are not yet added to their
    deal's figures (result id → JSON): written with the game, removed once folded.
``sol:{sid}:o``
    The hash of the player's device link (``sol:l:…`` names the player back).
``sol:{sid}:m``
    Where the player went when their device link was revoked: ``NEW 0`` while the keys are
    being moved, ``NEW 1`` once done (:mod:`app.store.redis.revoke`).
``sol:{sid}:x:{write id}``
    A fence: set (for a day) when a write's answer was lost and it had not landed when the
    store asked, so the write refuses itself if it arrives later. Only lost answers make one.
``sol:{sid}:y``
    A hash of the player's replays (replay id → its summary, JSON): their list on ``/stats``,
    their cap and their deletion (issue 26). Written by the same script as the game that
    ended, which drops the ones past the cap (they ended first) and answers their ids.
``sol:Y:{id}``
    A replay (JSON: the game as it ended, with its line), in the slot of its own id: a link
    names the replay alone, without a session. Written just before the script that writes
    the game that ended (a replay whose game's write lost a race names an id nobody was
    shown, and expires); deleted after it when the script answers it past the cap.
``sol:d:{code}`` / ``sol:d:{code}:seen``
    How a deal went for everyone who finished it (JSON: players, wins, best_ms, fewest), and
    the ids of the results already folded into it (so a result is never counted twice).
``sol:l:{hash}``
    A device link: the hash of its secret → the player.
``sol:lease:{name}``
    A lease (issue 44: one analysis running per player and per address on the whole site):
    its holder's token, set with ``PX`` so that Redis deletes it when its time runs out (a
    killed holder's too); renewed and released by scripts that compare the holder.
``sol:v:{position key}``
    A verdict on a position, written by versions before issue 23 (none is written now: they
    expire).
``sol:layout``
    ``2`` once the keys of the first layout (``sol:s:{sid}``, ``sol:g:{sid}:{code}``, …) have
    been moved (:mod:`app.store.redis.migrate`).

The braces are Redis Cluster's hash tags: only the text between them picks the slot. A
session id or deal code is written with :func:`key_part` so it holds no brace (nor ``:``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final
from urllib.parse import quote

LAYOUT: Final = "2"
"""The value of the layout key once this layout is in place."""


def key_part(text: str) -> str:
    """``text`` percent-escaped down to letters, digits and ``_.-~``, so a key splits one way
    only and a brace cannot move its hash tag (the web layer's ids need no escaping).

    >>> key_part("abc-_9"), key_part("a:b%c"), key_part("x}{y")
    ('abc-_9', 'a%3Ab%25c', 'x%7D%7By')
    """
    return quote(text, safe="")


@dataclass(frozen=True, slots=True)
class Player:
    """The keys of one player, all in the slot of ``{sid}``."""

    base: str
    """``sol:{sid}:``: every key of the player starts with it."""

    @property
    def session(self) -> str:
        return f"{self.base}s"

    def game(self, code: str) -> str:
        return f"{self.base}g:{code}"

    def read_keys(self, code: str) -> tuple[str, str, str]:
        """What a change reads: the session, the game, the statistics."""
        return self.session, self.game(code), self.stats

    def write_keys(self, code: str) -> tuple[str, ...]:
        """The keys the game's write script takes, in its order (the write's fence goes
        last)."""
        return (
            self.session,
            self.game(code),
            self.recent,
            self.all,
            self.stats,
            self.pending,
            self.replays,
        )

    @property
    def games(self) -> str:
        """What a game's key starts with (a script adds the code)."""
        return f"{self.base}g:"

    @property
    def recent(self) -> str:
        return f"{self.base}r"

    @property
    def all(self) -> str:
        return f"{self.base}a"

    @property
    def stats(self) -> str:
        return f"{self.base}p"

    @property
    def pending(self) -> str:
        return f"{self.base}q"

    @property
    def link(self) -> str:
        return f"{self.base}o"

    @property
    def moved(self) -> str:
        return f"{self.base}m"

    def fence(self, write_id: str) -> str:
        return f"{self.base}x:{write_id}"

    @property
    def replays(self) -> str:
        return f"{self.base}y"


@dataclass(frozen=True, slots=True)
class Deal:
    """The keys of one deal's figures, both in the slot of ``{code}``."""

    figures: str
    seen: str


_OLD: Final = re.compile(r"(?P<kind>[sgrapo]):(?P<sid>[^:]*)(?::(?P<code>.*))?|d:(?P<deal>[^{].*)")
"""A key of the first layout, without its prefix: ``s:SID``, ``g:SID:CODE``, ``d:CODE``…"""

_OLD_ESCAPES: Final = re.compile("%(25|3A)")


def _old_sid(text: str) -> str:
    """A session id as the first layout wrote it (``%`` → ``%25``, ``:`` → ``%3A``), read back.

    >>> _old_sid("a%3Ab%25c"), _old_sid("a%253A")
    ('a:b%c', 'a%3A')
    """
    return _OLD_ESCAPES.sub(lambda m: "%" if m.group(1) == "25" else ":", text)


class Layout:
    """The key names under one prefix."""

    def __init__(self, prefix: str) -> None:
        if "{" in prefix or "}" in prefix:
            raise ValueError(f"a Redis key prefix holds no braces (hash tags): {prefix!r}")
        self.prefix: Final = prefix
        self.marker: Final = f"{prefix}layout"

    def player(self, sid: str) -> Player:
        return Player(f"{self.prefix}{{{key_part(sid)}}}:")

    def deal(self, code: str) -> Deal:
        figures = f"{self.prefix}d:{{{key_part(code)}}}"
        return Deal(figures, f"{figures}:seen")

    def link(self, digest: str) -> str:
        return f"{self.prefix}l:{digest}"

    def replay(self, replay_id: str) -> str:
        """A replay, in the slot of its own id (found by the id alone: a link holds no sid)."""
        return f"{self.prefix}Y:{{{key_part(replay_id)}}}"

    def analysis(self, replay_id: str) -> str:
        """A replay's analysis, in the slot of its replay."""
        return f"{self.prefix}A:{{{key_part(replay_id)}}}"

    def lease(self, name: str) -> str:
        """A lease (:meth:`app.store.base.Store.take_lease`): its holder, expiring with it."""
        return f"{self.prefix}lease:{{{key_part(name)}}}"

    @property
    def old_pattern(self) -> str:
        """A ``SCAN MATCH`` pattern that finds the first layout's keys (and deal keys of this
        one, which :meth:`moved` tells apart)."""
        escaped = re.sub(r"([*?\[\]\\])", r"\\\1", self.prefix)
        return f"{escaped}[sgrapod]:*"

    def moved(self, key: str) -> str | None:
        """Where a key of the first layout goes now, ``None`` for a key of this layout (or
        not of ours).

        >>> layout = Layout("sol:")
        >>> layout.moved("sol:g:a%3Ab:HM1-N-AAAAAAB"), layout.moved("sol:s:abc")
        ('sol:{a%3Ab}:g:HM1-N-AAAAAAB', 'sol:{abc}:s')
        >>> layout.moved("sol:d:HM1-N-AAAAAAB"), layout.moved("sol:d:{HM1-N-AAAAAAB}")
        ('sol:d:{HM1-N-AAAAAAB}', None)
        """
        if not key.startswith(self.prefix):
            return None
        found = _OLD.fullmatch(key[len(self.prefix) :])
        if found is None:
            return None
        if found["deal"] is not None:
            return self.deal(found["deal"]).figures
        kind, code = found["kind"], found["code"]
        player = self.player(_old_sid(found["sid"]))
        if kind == "g":
            return None if code is None else player.game(code)
        if code is not None:
            return None
        return {
            "s": player.session,
            "r": player.recent,
            "a": player.all,
            "p": player.stats,
            "o": player.link,
        }[kind]
