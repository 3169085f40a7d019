"""Real uvicorn processes on free loopback ports, for tests that need more than one process."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)

    def crash(self) -> None:
        """SIGKILL the whole process group: no shutdown, no flush — a power cut for the app."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)


def start_server(
    store: str,
    log_dir: Path,
    *,
    workers: int = 1,
    name: str = "server",
    env: dict[str, str] | None = None,
    root: Path = ROOT,
    app: str = "app.main:app",
    args: tuple[str, ...] = (),
) -> Server:
    """uvicorn serving ``app`` of the checkout at ``root`` (another one, for a benchmark's
    baseline, runs with its own ``.venv`` when it has one) on a free loopback port, once ``/``
    answers; ``args`` are more uvicorn options."""
    port = free_port()
    log = log_dir / f"{name}-{port}.log"
    # Many simulated players share 127.0.0.1 here: the per-address rate limits are off, the
    # ranked wins of a day too (the browser suite wins more than 30 deals from one address: a
    # later win went into no standings and its end box said nothing of where it stood)
    # (tests/system/test_server_limits.py, tests/web/test_abuse.py and tests/web/test_standings.py
    # test them).
    env = {
        **os.environ,
        "SOLITAIRE_STORE": store,
        "PYTHONUNBUFFERED": "1",
        "SOLITAIRE_RATE_WRITES": "off",
        "SOLITAIRE_RATE_NEW": "off",
        "SOLITAIRE_RATE_RANKED": "off",
        "SOLITAIRE_RATE_ANALYSIS": "off",
        **(env or {}),
    }
    python = root / ".venv" / "bin" / "python"
    python = python if root != ROOT and python.exists() else Path(sys.executable)
    command = [str(python), "-m", "uvicorn", app, "--host", "127.0.0.1"]
    command += ["--port", str(port), "--workers", str(workers), "--no-access-log"]
    # As scripts/run: a keep-alive longer than any client's idle gap, so that a client thread
    # starved on a loaded machine never sends into a connection the server is closing (uvicorn's
    # default 5 s made "Server disconnected without sending a response" under load).
    command += ["--timeout-keep-alive", "75", *args]
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    server = Server(f"http://127.0.0.1:{port}", process, log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited: {log.read_text()[-2000:]}")
        try:
            if httpx.get(server.url + "/", timeout=2).status_code == 200:
                return server
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    server.stop()
    raise RuntimeError(f"the server did not start within 30 s: {log.read_text()[-2000:]}")
