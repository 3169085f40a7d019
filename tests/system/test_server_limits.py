"""Issue 17 item 7: the server ``scripts/run`` starts times out slow clients, keeps idle
keep-alive connections longer than a proxy does, and caps concurrent connections.

One real ``bash scripts/run`` (uvicorn, the protocol of app/server.py) on a free port, with a
short request deadline and a small concurrency limit so the tests run in seconds.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.system.servers import ROOT, free_port

DEADLINE = 1.5
"""SOLITAIRE_REQUEST_TIMEOUT for these tests."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    folder = tmp_path_factory.mktemp("run")
    port = free_port()
    env = {
        **os.environ,
        "PORT": str(port),
        "SOLITAIRE_STORE": str(folder / "games.db"),
        "SOLITAIRE_REQUEST_TIMEOUT": str(DEADLINE),
        "SOLITAIRE_LIMIT_CONCURRENCY": "6",
    }
    log = (folder / "server.log").open("wb")
    process = subprocess.Popen(
        ["bash", "scripts/run", "--no-access-log"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        _wait_until_up(port, process, folder / "server.log")
        yield "127.0.0.1", port
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(20)
        log.close()


def _wait_until_up(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(log.read_text()[-2000:])
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"scripts/run did not start: {log.read_text()[-2000:]}")


def _connect(address: tuple[str, int]) -> socket.socket:
    sock = socket.create_connection(address, timeout=10)
    return sock


def _read_until_closed(sock: socket.socket) -> tuple[bytes, float]:
    """Everything the server sends until it closes, and how long that took."""
    start = time.monotonic()
    data = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return data, time.monotonic() - start
        data += chunk


def _request(sock: socket.socket, path: str = "/health") -> bytes:
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: test\r\n\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data or not data.endswith(b"ok"):
        chunk = sock.recv(65536)
        assert chunk, f"closed after {data!r}"
        data += chunk
    return data


def test_a_client_that_never_finishes_its_headers_is_cut_off(server):
    with _connect(server) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: test\r\nX-Slow: ")
        data, waited = _read_until_closed(sock)
    assert data == b""
    assert DEADLINE - 0.2 < waited < DEADLINE + 2


def test_a_client_that_connects_and_sends_nothing_is_cut_off(server):
    with _connect(server) as sock:
        data, waited = _read_until_closed(sock)
    assert data == b""
    assert waited < DEADLINE + 2


def test_a_trickled_body_gets_408_and_the_connection_is_closed(server):
    with _connect(server) as sock:
        sock.sendall(
            b"POST /settings HTTP/1.1\r\nHost: test\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n"
        )
        for _ in range(3):  # a byte now and then: each would restart a keep-alive timer
            sock.sendall(b"a")
            time.sleep(0.3)
        data, waited = _read_until_closed(sock)
    assert data.startswith(b"HTTP/1.1 408 ")
    assert b"connection: close" in data.lower()
    assert waited < DEADLINE + 2


def test_headers_over_64_kib_get_431(server):
    with _connect(server) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: test\r\n" + b"X-Big: " + b"a" * 70_000 + b"\r\n")
        data, _ = _read_until_closed(sock)
    assert data.startswith(b"HTTP/1.1 431 ")


def test_an_idle_keep_alive_connection_outlives_uvicorns_default_5_seconds(server):
    with _connect(server) as sock:
        assert _request(sock).startswith(b"HTTP/1.1 200 ")
        time.sleep(6)  # a proxy reusing its connection after 6 s of quiet (its limit: 60 s)
        assert _request(sock).startswith(b"HTTP/1.1 200 ")


def test_connections_past_the_concurrency_limit_get_503(server):
    # uvicorn answers 503 when a request arrives with the limit's number of connections open
    # (this one included): five kept-alive connections are served, a sixth is refused.
    held = [_connect(server) for _ in range(5)]
    try:
        for sock in held:
            assert _request(sock).startswith(b"HTTP/1.1 200 ")
        with _connect(server) as extra:
            extra.sendall(b"GET /health HTTP/1.1\r\nHost: test\r\n\r\n")
            assert extra.recv(65536).startswith(b"HTTP/1.1 503 ")
    finally:
        for sock in held:
            sock.close()
    time.sleep(0.2)
    with _connect(server) as sock:  # once they are gone, requests are served again
        assert _request(sock).startswith(b"HTTP/1.1 200 ")
