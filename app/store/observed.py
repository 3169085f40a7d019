"""Every store call timed and its failures counted (``solitaire_store_call_duration_seconds``,
``solitaire_store_errors_total``, :mod:`app.metrics`), whatever the store.

:func:`observe` wraps the operations of one store object in place (instance attributes over
its class's methods): the object stays what it was — its type, its other attributes, its own
calls between its methods (``super()`` calls are not counted twice) — and each wrapper holds
its metric children, looked up once.
"""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Callable, Coroutine
from typing import Any, Final

from app import metrics
from app.store.base import Store, StoreError

OPERATIONS: Final = tuple(
    name
    for name, value in vars(Store).items()
    if not name.startswith("_") and inspect.iscoroutinefunction(value) and name != "close"
)
"""The store's interface (:class:`app.store.base.Store`), read from it: an operation added there
is timed too."""

_OBSERVED: Final = "_observed_by_metrics"


def store_label(store: object) -> str:
    """The ``store`` label: ``memory``, ``sqlite``, ``redis`` (its class's name).

    >>> from app.store import MemoryStore
    >>> store_label(MemoryStore())
    'memory'
    """
    return type(store).__name__.removesuffix("Store").lower() or "store"


def observe(store: Store) -> Store:
    """Time every operation of ``store`` (once: a store observed already is left as it is)."""
    if not metrics.ON or getattr(store, _OBSERVED, False):
        return store
    label = store_label(store)
    for name in OPERATIONS:
        method = getattr(store, name, None)
        if method is not None:
            setattr(store, name, _timed(method, label, name))
    setattr(store, _OBSERVED, True)
    return store


def _timed(
    method: Callable[..., Coroutine[Any, Any, Any]], store: str, operation: str
) -> Callable[..., Coroutine[Any, Any, Any]]:
    duration = metrics.STORE_DURATION.labels(store, operation)
    errors = metrics.STORE_ERRORS.labels(store, operation)

    @functools.wraps(method)
    async def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return await method(*args, **kwargs)
        except StoreError:
            errors.inc()
            raise
        finally:
            duration.observe(time.perf_counter() - started)

    return timed
