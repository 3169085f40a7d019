"""Each worker's lines of recently shown replays (:mod:`app.web.review.replay_pages`): a step
of a replay never replays its whole game again."""

from __future__ import annotations

from typing import Any

from fastapi import Request

from app.engine.replay import Line
from app.lru import LRU, kept_on


class LineCache:
    """This worker's lines of recently shown replays, keyed by what they were read from (a
    stored replay's id and line, or a pasted text's digest): a step never replays the whole
    game again. Only the event loop's thread touches it."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._lines: LRU[tuple[str, str], Line[Any, Any]] = LRU(size)
        self._words: LRU[tuple[str, str, str], tuple[str, ...]] = LRU(size)

    def get(self, key: tuple[str, str]) -> Line[Any, Any] | None:
        return self._lines.get(key)

    def keep(self, key: tuple[str, str], line: Line[Any, Any]) -> None:
        self._lines.put(key, line)

    def __len__(self) -> int:
        return len(self._lines)

    def words(self, key: tuple[str, str], lang: str) -> tuple[str, ...] | None:
        """The line's moves in words in ``lang``, when this worker told them already."""
        return self._words.peek((*key, lang))

    def keep_words(self, key: tuple[str, str], lang: str, words: tuple[str, ...]) -> None:
        self._words.put((*key, lang), words)


def line_cache(request: Request) -> LineCache:
    """The application's :class:`LineCache` (made on first use)."""
    return kept_on(request.app.state, "replay_lines", LineCache)
