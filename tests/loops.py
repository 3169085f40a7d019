"""Running a coroutine to its end from a test, whatever loop the test's thread has.

``asyncio.run`` refuses to start while the calling thread already runs a loop, and Playwright's
synchronous API keeps one running in the main thread for the whole browser session, so a plain
``asyncio.run`` in a test passes alone and fails after the browser tests in the same process.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run_apart(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` on a new event loop in a thread of its own and return its result."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="test-loop") as pool:
        return pool.submit(asyncio.run, coroutine).result()
