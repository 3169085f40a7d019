"""One small least-recently-used map for the workers' caches (the games of recent actions,
:mod:`app.web.play.gamecache`; the lines of recently shown replays,
:mod:`app.web.review.linecache`): at most so many entries, and optionally so much weight
together; past either, the entries used longest ago go. Not thread-safe: each cache is
touched by its event loop's thread alone."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
C = TypeVar("C")


class LRU(Generic[K, V]):
    """``size`` entries at most; with ``weight``, also ``max_weight`` of it together.

    >>> cache: LRU[str, int] = LRU(2)
    >>> cache.put("a", 1); cache.put("b", 2); cache.get("a"); cache.put("c", 3)
    1
    >>> sorted(cache.keys())
    ['a', 'c']
    """

    def __init__(
        self, size: int, weight: Callable[[V], int] | None = None, max_weight: int = 0
    ) -> None:
        self.size = size
        self.max_weight = max_weight
        self._weight = weight
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._total = 0

    def get(self, key: K) -> V | None:
        """The entry, now the most recently used."""
        value = self._entries.get(key)
        if value is not None:
            self._entries.move_to_end(key)
        return value

    def peek(self, key: K) -> V | None:
        """The entry, its place left as it was."""
        return self._entries.get(key)

    def pop(self, key: K) -> V | None:
        value = self._entries.pop(key, None)
        if value is not None and self._weight is not None:
            self._total -= self._weight(value)
        return value

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` as the most recently used; then the oldest go while there are too
        many or they weigh too much."""
        self.pop(key)
        self._entries[key] = value
        if self._weight is not None:
            self._total += self._weight(value)
        while len(self._entries) > self.size or (
            self._weight is not None and self._total > self.max_weight and self._entries
        ):
            self.pop(next(iter(self._entries)))

    @property
    def weight(self) -> int:
        """What the entries weigh together (0 without ``weight``)."""
        return self._total

    def keys(self) -> list[K]:
        return list(self._entries)

    def clear(self) -> None:
        self._entries.clear()
        self._total = 0

    def __len__(self) -> int:
        return len(self._entries)


def kept_on(state: Any, name: str, make: Callable[[], C]) -> C:
    """The cache ``name`` of an application's ``state`` (``app.state``), made on first use."""
    cache: C | None = getattr(state, name, None)
    if cache is None:
        cache = make()
        setattr(state, name, cache)
    return cache
