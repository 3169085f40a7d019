"""A throwaway ``redis-server`` for tests: on a free loopback port, in a temporary folder,
without persistence. Other test folders import it::

    from tests.store.redis_server import start_redis_server, stop_redis_server

A missing ``redis-server`` fails the test (``scripts/test`` installs it): a Redis store that
is never tested must not look like one that passed.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest
import redis

START_TIMEOUT_SECONDS = 10.0
"""How long a new server may take to answer PING."""

ATTEMPTS = 5
"""How many free ports to try: another process may take the one we picked before the
server binds it."""


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _answers(url: str) -> bool:
    client = redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False
    finally:
        client.close()


def start_redis_server(tmp_dir: Path | str) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``redis-server`` with its files in ``tmp_dir``; return the process and the URL
    of its database 0 once it answers PING. Stop it with :func:`stop_redis_server`."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail(
            "redis-server is not installed, so the Redis store cannot be tested: run the"
            " test command, scripts/test, which installs it (or apt-get install redis-server)",
            pytrace=False,
        )
    folder = Path(tmp_dir)
    folder.mkdir(parents=True, exist_ok=True)
    failures: list[str] = []
    for attempt in range(ATTEMPTS):
        port = _free_port()
        log = folder / f"redis-{port}.log"
        command = [
            binary,
            "--port", str(port),
            "--bind", "127.0.0.1",
            "--save", "",
            "--appendonly", "no",
            "--daemonize", "no",
            "--dir", str(folder),
            "--logfile", str(log),
        ]  # fmt: skip
        process = subprocess.Popen(
            command, cwd=folder, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL
        )
        url = f"redis://127.0.0.1:{port}/0"
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while time.monotonic() < deadline and process.poll() is None:
            if _answers(url):
                return process, url
            time.sleep(0.02)
        stop_redis_server(process)
        tail = log.read_text(errors="replace")[-500:] if log.exists() else "(no log)"
        failures.append(f"attempt {attempt + 1}, port {port}: {tail.strip()}")
    pytest.fail("redis-server did not start:\n" + "\n".join(failures), pytrace=False)


def stop_redis_server(process: subprocess.Popen[bytes]) -> None:
    """Terminate the server (kill it when it does not stop within 5 seconds)."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
