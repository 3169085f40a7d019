"""Issue 17 item 7: the server ``scripts/run`` starts times out slow clients, keeps idle
keep-alive connections longer than a proxy does, and caps concurrent connections; issue 23
items 4, 7 and 8: ``/health`` answers at the cap, a large body sent with its headers is a
413, and the access log never shows a device link's secret.

One real ``bash scripts/run`` (uvicorn, the protocol of app/server.py) on a free port, with a
short request deadline and a small concurrency limit so the tests run in seconds.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import httpx
import pytest

from app.config import DEFAULT_MAX_BODY
from app.engine.game import MAX_RECORD_MOVES
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
        ["bash", "scripts/run"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        _wait_until_up(port, process, folder / "server.log")
        yield "127.0.0.1", port, folder / "server.log"
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


def _connect(server: tuple[str, int, Path]) -> socket.socket:
    sock = socket.create_connection(server[:2], timeout=10)
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


def test_connections_past_the_concurrency_limit_get_503_but_health_checks_do_not(server):
    # uvicorn answers 503 when a request arrives with the limit's number of connections open
    # (this one included): five kept-alive connections are served, a sixth is refused —
    # except the load balancer's health check (issue 23: before, it got 503 too)
    held = [_connect(server) for _ in range(5)]
    try:
        for sock in held:
            assert _request(sock).startswith(b"HTTP/1.1 200 ")
        with _connect(server) as extra:
            extra.sendall(b"GET /faq HTTP/1.1\r\nHost: test\r\n\r\n")
            assert extra.recv(65536).startswith(b"HTTP/1.1 503 ")
        with _connect(server) as check:
            assert _request(check, "/health").startswith(b"HTTP/1.1 200 ")
        with _connect(server) as check:
            check.sendall(b"HEAD /health?probe=1 HTTP/1.1\r\nHost: test\r\n\r\n")
            assert check.recv(65536).startswith(b"HTTP/1.1 200 ")
    finally:
        for sock in held:
            sock.close()
    time.sleep(0.2)
    with _connect(server) as sock:  # once they are gone, requests are served again
        assert _request(sock).startswith(b"HTTP/1.1 200 ")


def test_a_large_body_sent_with_its_headers_gets_413_not_431(server):
    # issue 23: the body that came in the same packets as the headers was counted as head
    body = b"token=" + b"a" * 70_000
    head = (
        b"POST /settings HTTP/1.1\r\nHost: test\r\n"
        b"Content-Type: application/x-www-form-urlencoded\r\n"
        b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n"
    )
    with _connect(server) as sock:
        sock.sendall(head + body)
        data, _ = _read_until_closed(sock)
    assert data.startswith(b"HTTP/1.1 413 ")
    assert b"The request is too large" in data or b"too large" in data.lower()


def test_a_long_games_text_is_taken_by_post_replay_only(server):
    """A 5,000-move game's text as a browser sends it (CR LF line breaks: 40 kB) is read by the
    real server's POST /replay (its own body limit, app.web.review.replay_pages.PASTED_MAX_BODY); the same
    body elsewhere is the general limit's 413."""
    text = "SH1-C4-AAAAAJ2\r\n" + "km\r\nmk\r\n" * (MAX_RECORD_MOVES // 2)
    with httpx.Client(base_url=f"http://{server[0]}:{server[1]}", timeout=30) as client:
        form = client.get("/replay").text
        token = re.search(r'name="token" value="([^"]+)"', form)
        assert token is not None
        fields = {"text": text, "step": "4999", "token": token.group(1)}
        assert len(urlencode(fields)) > 2 * DEFAULT_MAX_BODY
        shown = client.post("/replay", data=fields)
        assert shown.status_code == 200, shown.text[-500:]
        assert "Step 4999 of 5000" in shown.text
        refused = client.post("/settings", data=fields)
        assert refused.status_code == 413
        assert f"at most {DEFAULT_MAX_BODY} bytes" in refused.text


def test_headers_that_end_past_the_cap_in_one_packet_still_get_431(server):
    with _connect(server) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: test\r\nX-Big: " + b"a" * 70_000 + b"\r\n\r\n")
        data, _ = _read_until_closed(sock)
    assert data.startswith(b"HTTP/1.1 431 ")


def test_the_access_log_never_shows_a_device_links_secret(server):
    secret = "SeCrEt" * 6
    httpx.get(f"http://{server[0]}:{server[1]}/link/{secret}", timeout=10)
    httpx.get(f"http://{server[0]}:{server[1]}/faq?after=link", timeout=10)
    deadline = time.monotonic() + 5
    log = ""
    while "/faq?after=link" not in log and time.monotonic() < deadline:
        time.sleep(0.1)
        log = server[2].read_text(errors="replace")
    assert '"GET /link/… HTTP/1.1" 200' in log
    assert secret not in log
