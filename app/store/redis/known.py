"""What this worker last read from, or wrote to, one player's keys for one game: enough to
decide the next change of that game without reading first (issue 24 item 3).

A tap on a game this worker wrote last is then one round trip, the write. It stays correct
with other workers and instances because the write's script checks the digest of each value
the decision used (:data:`~app.store.redis.scripts.WRITE_GAME`): when another process wrote
meanwhile the script refuses and answers what the keys hold now, and the change is decided
again from that (no extra round trip either). A decision that writes nothing is checked by a
read before it is answered (:meth:`Known.same`): nothing the script could check was sent.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Final

from app.store.base import SessionData, StoredGame
from app.store.redis import records
from app.store.redis.scripts import digest

SIZE: Final = 2048
"""Games one event loop keeps (as many as the web layer's cache of game objects)."""

WRITES_KEPT: Final = 4
"""How many of a game's last writes its value names (``"w"``): a write whose answer was
lost is found among them (:data:`~app.store.redis.scripts.CONFIRM`)."""


@dataclass(frozen=True, slots=True)
class Known:
    """The session, game and statistics values as stored (the raw bytes' digests with them)."""

    session: SessionData | None
    session_digest: str
    game: StoredGame | None
    game_digest: str
    writes: tuple[str, ...]
    """The ids of the game's last writes, newest first (its value's ``"w"``)."""
    raw_doc: bytes | None
    """The statistics document as stored (read, or written by this worker)."""

    @classmethod
    def read(cls, code: str, values: list[bytes | None]) -> Known:
        """From the session, game and statistics values as ``MGET`` (or a refusing script)
        answered them."""
        raw_session, raw_game, raw_doc = values
        game, writes = records.game_and_writes(code, records.text(raw_game))
        return cls(
            records.session_from(records.text(raw_session)),
            digest(raw_session),
            game,
            digest(raw_game),
            writes,
            raw_doc,
        )

    def same(self, other: Known) -> bool:
        """The same values (a statistics document only read, never checked, is compared too:
        a decision may have counted from it)."""
        return (
            self.session_digest == other.session_digest
            and self.game_digest == other.game_digest
            and self.raw_doc == other.raw_doc
        )


class KnownGames:
    """:class:`Known` values by (session id, deal code), the :data:`SIZE` most recent. Only
    the event loop that owns it touches it, and a change of a game takes its entry out while
    it runs (changes of one game from one loop take turns), so a failed change leaves none."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._known: OrderedDict[tuple[str, str], Known] = OrderedDict()

    def take(self, sid: str, code: str) -> Known | None:
        return self._known.pop((sid, code), None)

    def keep(self, sid: str, code: str, known: Known) -> None:
        self._known[(sid, code)] = known
        if len(self._known) > self.size:
            self._known.popitem(last=False)

    def __len__(self) -> int:
        return len(self._known)
