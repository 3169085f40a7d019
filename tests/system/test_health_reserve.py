"""Issue 23 item 7: ``/health`` is answered beyond the connection cap, but only up to
:data:`app.server.HEALTH_RESERVE` checks at once — a flood of checks still meets a bound.

A real uvicorn (the protocol of ``app/server.py``, ``--limit-concurrency 6``) on a Redis
store paused with SIGSTOP, so each check the application takes waits its whole
``STORE_CHECK_SECONDS`` for the store and stays under way. The checks are sent while the
server itself is stopped too (SIGSTOP), so all of them are there when it resumes: none can
finish before the last one is read, whatever the machine's load.
"""

from __future__ import annotations

import os
import signal
import socket
from collections.abc import Iterator

import pytest

from app.server import HEALTH_RESERVE
from tests.store.redis_server import start_redis_server, stop_redis_server
from tests.system.servers import Server, start_server

CAP = 6
"""``--limit-concurrency`` of the server under test."""

CHECKS = 20


@pytest.fixture
def paused_redis(tmp_path) -> Iterator[tuple[int, str]]:
    process, url = start_redis_server(tmp_path / "redis")
    yield process.pid, url
    if process.poll() is None:
        os.kill(process.pid, signal.SIGCONT)
    stop_redis_server(process)


@pytest.fixture
def server(tmp_path, paused_redis: tuple[int, str]) -> Iterator[Server]:
    made = start_server(
        paused_redis[1],
        tmp_path,
        name="capped",
        env={"SOLITAIRE_STORE_TIMEOUT": "5"},
        args=(
            "--http",
            "app.server:TimedHttpToolsProtocol",
            "--limit-concurrency",
            str(CAP),
        ),
    )
    yield made
    os.kill(made.process.pid, signal.SIGCONT)
    made.stop()


def _answer(sock: socket.socket) -> bytes:
    data = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk


def test_health_checks_past_the_cap_are_answered_up_to_the_reserve_then_refused(
    server: Server, paused_redis: tuple[int, str]
) -> None:
    host, port = server.url.removeprefix("http://").split(":")
    os.kill(paused_redis[0], signal.SIGSTOP)  # every check the app takes waits for the store
    os.kill(server.process.pid, signal.SIGSTOP)
    socks = []
    try:
        for _ in range(CHECKS):
            sock = socket.create_connection((host, int(port)), timeout=20)
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
            socks.append(sock)
    finally:
        os.kill(server.process.pid, signal.SIGCONT)
    try:
        answers = [_answer(sock) for sock in socks]
    finally:
        for sock in socks:
            sock.close()
        os.kill(paused_redis[0], signal.SIGCONT)
    # the application's answer: it asked the store (paused) and says so
    asked = [a for a in answers if a.endswith(b"store unreachable")]
    # uvicorn's own refusal, without running the application
    refused = [a for a in answers if a.endswith(b"Service Unavailable")]
    assert all(a.startswith(b"HTTP/1.1 503 ") for a in answers), answers
    assert (len(asked), len(refused)) == (CAP + HEALTH_RESERVE, CHECKS - CAP - HEALTH_RESERVE)
    with socket.create_connection((host, int(port)), timeout=20) as sock:  # the store is back
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        again = _answer(sock)
    assert again.startswith(b"HTTP/1.1 200 ") and again.endswith(b"ok")
