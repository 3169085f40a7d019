"""What an operator watches (``GET /metrics``, Prometheus's text format): every metric of the
application, defined here once, with ``prometheus-client``.

Names and labels follow Prometheus's conventions: base units with their suffix (``_seconds``,
``_total``), histograms for latencies, and labels with a few values each — a route template,
a game, an action, an outcome, a store, a pool, a limit; never a path, an id or a deal code.
``docs/deployment.md`` (*Watching it*) lists them with the alerts that read them.

**Several workers.** ``uvicorn --workers N`` runs N processes, each counting its own requests;
a scrape reaches one of them. prometheus-client's multiprocess mode adds them up: each process
writes its figures into memory-mapped files in one folder (``PROMETHEUS_MULTIPROC_DIR``) and
``/metrics`` reads them all. The folder is chosen before the library is imported, here:
the one ``PROMETHEUS_MULTIPROC_DIR`` names (``scripts/run`` sets it and empties it before
uvicorn starts), else, in a worker that uvicorn's supervisor started, a folder named after
that supervisor (its pid and start time) in the system's temporary folder, made by the first
worker, shared by the others and removed by the next run once its supervisor is gone. One
process alone (no ``--workers``, the tests' clients) counts in memory. A dead worker's gauges
are dropped at the next scrape (:func:`figures`); its counters stay in the sums, so a
counter never goes back.

``SOLITAIRE_METRICS=off`` records nothing (every metric below is then a stand-in that does
nothing, and ``/metrics`` answers 404): ``bench/bench_tap.py`` measures a tap both ways.

This module imports nothing of the application: the store, the services and the web layer
all record here.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import shutil
import stat
import tempfile
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Final, Literal, cast

ON: Final = os.environ.get("SOLITAIRE_METRICS", "on").strip().lower() not in ("off", "0", "no")
"""Whether metrics are recorded at all (``SOLITAIRE_METRICS``, default on)."""

MULTIPROC_ENV: Final = "PROMETHEUS_MULTIPROC_DIR"
_PREFIX: Final = "solitaire-metrics-"


def _started(pid: int) -> str:
    """When process ``pid`` started (clock ticks since boot, Linux's ``/proc``), or ``""``:
    a pid alone may be reused by a later process."""
    try:
        line = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""
    return line.rpartition(")")[2].split()[19]


def _alive(name: str) -> bool:
    """Whether the supervisor a shared folder is named after still runs."""
    pid, _, started = name.removeprefix(_PREFIX).partition("-")
    return pid.isdigit() and _started(int(pid)) == started


def _multiprocess_dir() -> str | None:
    """The folder the workers share, made now; ``None``: one process, counting in memory."""
    configured = os.environ.get(MULTIPROC_ENV, "")
    if configured:
        Path(configured).mkdir(parents=True, exist_ok=True)
        return configured
    if multiprocessing.parent_process() is None:
        return None
    supervisor = os.getppid()
    temp = Path(tempfile.gettempdir())
    for old in temp.glob(f"{_PREFIX}*"):  # an earlier run's, its supervisor gone
        if not _alive(old.name):
            shutil.rmtree(old, ignore_errors=True)
    folder = temp / f"{_PREFIX}{supervisor}-{_started(supervisor)}"
    folder.mkdir(mode=0o700, exist_ok=True)
    made = folder.lstat()
    if not stat.S_ISDIR(made.st_mode) or made.st_uid != os.getuid():  # planted by another user
        raise RuntimeError(
            f"{folder} is not a folder of this user's: set {MULTIPROC_ENV} to a folder of"
            " the server's own (scripts/run does)"
        )
    os.environ[MULTIPROC_ENV] = str(folder)  # before the import below; the pools inherit it
    return str(folder)


MULTIPROC_DIR: Final = _multiprocess_dir() if ON else None

# The library reads PROMETHEUS_MULTIPROC_DIR when it is imported: only now.
from prometheus_client import (  # noqa: E402
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

CONTENT_TYPE: Final = CONTENT_TYPE_LATEST


class _Nothing:
    """A metric that records nothing (``SOLITAIRE_METRICS=off``)."""

    def labels(self, *values: str) -> _Nothing:
        return self

    def inc(self, amount: float = 1) -> None:
        pass

    def dec(self, amount: float = 1) -> None:
        pass

    def set(self, value: float) -> None:
        pass

    def observe(self, value: float) -> None:
        pass


_NOTHING: Final = _Nothing()

LATENCY_BUCKETS: Final = (
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.5,
    5.0,
    10.0,
)
"""Seconds: a tap takes a millisecond or two, a page a few, a store call under one; the top
buckets catch a store timing out (1 s) and a request's deadline (10 s)."""

POOL_BUCKETS: Final = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 30.0, 60.0)
"""Seconds: a proof takes a fraction of a second to its bound (10 s), an analysis up to 20 s."""


def _counter(name: str, doc: str, labels: Sequence[str] = ()) -> Counter:
    return Counter(name, doc, labels) if ON else cast(Counter, _NOTHING)


def _histogram(name: str, doc: str, labels: Sequence[str], buckets: Sequence[float]) -> Histogram:
    return Histogram(name, doc, labels, buckets=buckets) if ON else cast(Histogram, _NOTHING)


GaugeMode = Literal["livesum", "livemostrecent"]


def _latency(name: str, doc: str, labels: Sequence[str]) -> Histogram:
    """A histogram of durations, in :data:`LATENCY_BUCKETS`."""
    return _histogram(name, doc, labels, LATENCY_BUCKETS)


def _gauge(name: str, doc: str, labels: Sequence[str], mode: GaugeMode) -> Gauge:
    return Gauge(name, doc, labels, multiprocess_mode=mode) if ON else cast(Gauge, _NOTHING)


HTTP_REQUESTS: Final = _counter(
    "solitaire_http_requests",
    "HTTP requests answered, by route template, method and status code.",
    ("route", "method", "status"),
)
ACTIONS: Final = _counter(
    "solitaire_actions",
    "Game actions (tap, move, auto, home, undo, redo, restart) by game, action, outcome"
    " (made, refused, kept, not_made) and store.",
    ("game", "action", "outcome", "store"),
)
HTTP_DURATION: Final = _latency(
    "solitaire_http_request_duration_seconds",
    "Time from a request's arrival to the end of its answer, by route template and method.",
    ("route", "method"),
)
STORE_DURATION: Final = _latency(
    "solitaire_store_call_duration_seconds",
    "Time one call of the store took, by store and operation.",
    ("store", "operation"),
)
STORE_ERRORS: Final = _counter(
    "solitaire_store_errors",
    "Store calls that failed (the store unreachable, full, or its answer lost), by store and"
    " operation.",
    ("store", "operation"),
)
STORE_UP: Final = _gauge(
    "solitaire_store_up",
    "1 when the store answered the last scrape's ping, 0 when it did not.",
    ("store",),
    "livemostrecent",
)
POOL_RUNNING: Final = _gauge(
    "solitaire_pool_running",
    "Tasks running in a process pool (proof, analysis), all workers together.",
    ("pool",),
    "livesum",
)
POOL_QUEUED: Final = _gauge(
    "solitaire_pool_queued",
    "Tasks waiting for a process pool (proof, analysis), all workers together.",
    ("pool",),
    "livesum",
)
POOL_REFUSED: Final = _counter(
    "solitaire_pool_refused",
    "Tasks a process pool refused because it was full (answered busy, or without a verdict).",
    ("pool",),
)
POOL_RESTARTS: Final = _counter(
    "solitaire_pool_restarts",
    "Process pools started again after one of their processes died.",
    ("pool",),
)
POOL_DURATION: Final = _histogram(
    "solitaire_pool_task_duration_seconds",
    "Time from a task's submission to its result (waiting included), by pool.",
    ("pool",),
    POOL_BUCKETS,
)
RATE_LIMITED: Final = _counter(
    "solitaire_rate_limit_refusals",
    "Requests refused (429) by a client's rate limit, by limit (write, new, guess).",
    ("limit",),
)
SESSIONS_CREATED: Final = _counter(
    "solitaire_sessions_created",
    "Session ids issued: a browser without one was given one (a page or an action).",
)
GAMES_CREATED: Final = _counter(
    "solitaire_games_created",
    "Games started: a deal a session had not played, or a finished deal started again.",
    ("game",),
)

_pending: dict[str, int] = {}
"""Tasks submitted to each pool of this process and not done yet."""
_pending_lock: Final = threading.Lock()
"""A task is counted in on the event loop and out in the pool's own thread."""


def track_pool(pool: str, workers: int, future: Future[Any], queued: bool = True) -> None:
    """Count ``future``, just submitted to ``pool`` (``workers`` processes), as queued or
    running until it is done, then its time. A pool of
    processes runs its tasks in order: the first ``workers`` pending ones run, the rest wait.
    ``queued=False``: the caller keeps its own queue and says its length (:func:`set_queued`);
    it submits only what runs."""
    if not ON:
        return
    started = time.perf_counter()
    _count_pending(pool, workers, 1, queued)

    def done(future: Future[Any]) -> None:
        _count_pending(pool, workers, -1, queued)
        if not future.cancelled():
            POOL_DURATION.labels(pool).observe(time.perf_counter() - started)

    future.add_done_callback(done)


def _count_pending(pool: str, workers: int, step: int, queued: bool = True) -> None:
    with _pending_lock:
        pending = _pending[pool] = _pending.get(pool, 0) + step
        running = min(pending, workers)
        POOL_RUNNING.labels(pool).set(running)
        if queued:
            POOL_QUEUED.labels(pool).set(pending - running)


def set_queued(pool: str, waiting: int) -> None:
    """The length of a pool's own queue (the analysis queue: issue 44's fair queue)."""
    if ON:
        POOL_QUEUED.labels(pool).set(waiting)


def figures() -> bytes:
    """Every metric in Prometheus's text format: this process's, or all workers' added up
    (reading files: call it off the event loop)."""
    if MULTIPROC_DIR is None:
        return generate_latest()
    _forget_dead_workers(MULTIPROC_DIR)
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=MULTIPROC_DIR)  # type: ignore[no-untyped-call]
    return generate_latest(registry)


def _forget_dead_workers(folder: str) -> None:
    """Drop the live gauges of processes that are gone (a worker uvicorn replaced, a pool's
    process): their counters stay."""
    for path in Path(folder).glob("gauge_live*_*.db"):
        pid = path.stem.rpartition("_")[2]
        if pid.isdigit() and not _pid_alive(int(pid)):
            multiprocess.mark_process_dead(int(pid), folder)  # type: ignore[no-untyped-call]


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def process_ended() -> None:
    """This worker stops: its live gauges leave the sums now."""
    if MULTIPROC_DIR is not None:
        with contextlib.suppress(OSError):
            multiprocess.mark_process_dead(os.getpid(), MULTIPROC_DIR)  # type: ignore[no-untyped-call]
