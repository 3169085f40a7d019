"""Each worker's lines of recently shown replays (:mod:`app.web.review.replay_pages`): a step of a
replay
never replays its whole game again."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from fastapi import Request

from app.engine.replay import Line


class LineCache:
    """This worker's lines of recently shown replays, keyed by what they were read from (a
    stored replay's id and line, or a pasted text's digest): a step never replays the whole
    game again. Only the event loop's thread touches it."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._lines: OrderedDict[tuple[str, str], Line[Any, Any]] = OrderedDict()
        self._words: OrderedDict[tuple[str, str, str], tuple[str, ...]] = OrderedDict()

    def get(self, key: tuple[str, str]) -> Line[Any, Any] | None:
        line = self._lines.get(key)
        if line is not None:
            self._lines.move_to_end(key)
        return line

    def keep(self, key: tuple[str, str], line: Line[Any, Any]) -> None:
        self._lines[key] = line
        self._lines.move_to_end(key)
        while len(self._lines) > self.size:
            self._lines.popitem(last=False)

    def __len__(self) -> int:
        return len(self._lines)

    def words(self, key: tuple[str, str], lang: str) -> tuple[str, ...] | None:
        """The line's moves in words in ``lang``, when this worker told them already."""
        return self._words.get((*key, lang))

    def keep_words(self, key: tuple[str, str], lang: str, words: tuple[str, ...]) -> None:
        self._words[(*key, lang)] = words
        self._words.move_to_end((*key, lang))
        while len(self._words) > self.size:
            self._words.popitem(last=False)


def line_cache(request: Request) -> LineCache:
    """The application's :class:`LineCache` (made on first use)."""
    state = request.app.state
    cache: LineCache | None = getattr(state, "replay_lines", None)
    if cache is None:
        cache = state.replay_lines = LineCache()
    return cache
