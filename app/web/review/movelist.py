"""A replay's move list in words (issues 35 and 44): every move told, kept beside the line, and
the page of it a replay's answer carries — the :data:`MOVE_PAGE` steps around the step shown,
with the steps the pages before and after open at."""

from __future__ import annotations

from typing import Any, Final

from fastapi import Request
from starlette.concurrency import run_in_threadpool

from app.engine.replay import Line
from app.web.rendering.screen import AnyScreen
from app.web.review.linecache import line_cache


def told(screen: AnyScreen, line: Line[Any, Any], lang: str) -> tuple[str, ...]:
    """Every move of ``line`` in words (the move list, issue 35), walking the line once."""
    position = line.position(0)
    words = []
    for move in line.moves:
        words.append(screen.describe_move(position, move, lang))
        position = line.game.result(position, move)
    return tuple(words)


async def move_list(
    request: Request, key: tuple[str, str], screen: AnyScreen, line: Line[Any, Any], lang: str
) -> tuple[str, ...]:
    """:func:`told`, kept by this worker beside the line (a long game's first telling runs in
    the thread pool: a few milliseconds per hundred moves)."""
    cache = line_cache(request)
    words = cache.words(key, lang)
    if words is None:
        words = await run_in_threadpool(told, screen, line, lang)
        cache.keep_words(key, lang, words)
    return words


MOVE_PAGE: Final = 100
"""Entries of a replay's move list a page carries (issue 44): the hundred around the step
shown, with a way to the hundred before and after (a 5,000-move game's whole list made its
every page cost 20 game pages)."""


def told_window(
    screen: AnyScreen, line: Line[Any, Any], step: int, lang: str
) -> tuple[int, tuple[str, ...]]:
    """The moves in words of the :data:`MOVE_PAGE` steps that hold ``step`` (0 is the deal):
    the first step's number and the words of its moves (the deal itself has none); the line
    is walked from the nearest snapshot, not from the deal."""
    first = step // MOVE_PAGE * MOVE_PAGE
    last = min(first + MOVE_PAGE, len(line) + 1)
    start = max(first, 1)
    position = line.position(start - 1)
    words = []
    for n in range(start, last):
        move = line.move(n)
        words.append(screen.describe_move(position, move, lang))
        position = line.game.result(position, move)
    return first, tuple(words)


def window_of(step: int, last: int, words: tuple[str, ...] | None = None) -> dict[str, Any]:
    """The move list's page that holds ``step`` (:data:`MOVE_PAGE` steps; 0 is the deal) and
    the steps the pages before and after open at: ``move_first``, ``move_earlier``,
    ``move_later``, and ``move_words`` cut from ``words`` (every move's) when given."""
    first = step // MOVE_PAGE * MOVE_PAGE
    window: dict[str, Any] = {
        "move_first": first,
        "move_earlier": first - 1 if first > 0 else None,
        "move_later": first + MOVE_PAGE if first + MOVE_PAGE <= last else None,
    }
    if words is not None:
        window["move_words"] = words[max(first, 1) - 1 : first + MOVE_PAGE - 1]
    return window
