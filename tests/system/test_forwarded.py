"""Issue 23 item 7: whose address a rate limit counts behind a proxy (``FORWARDED_ALLOW_IPS``,
``docs/deployment.md``).

Two real ``bash scripts/run`` servers on loopback, each allowing 3 POSTs a minute per
address: one trusting the loopback proxy (uvicorn's default, ``127.0.0.1``), one trusting
only a proxy elsewhere. A POST is ``/stats/reset`` without ``confirm``: it asks first and
changes nothing, but counts against the write limit like every POST.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.system.servers import ROOT, free_port

TOKEN = re.compile(r'name="token" value="([^"]+)"')


def _start(folder: Path, trusted: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {
        **os.environ,
        "PORT": str(port),
        "SOLITAIRE_STORE": str(folder / "games.db"),
        "SOLITAIRE_RATE_WRITES": "3/minute",
        "FORWARDED_ALLOW_IPS": trusted,
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
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError((folder / "server.log").read_text()[-2000:])
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return process, url
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError("scripts/run did not start")


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    started = {
        name: _start(tmp_path_factory.mktemp(name), trusted)
        for name, trusted in (("loopback", "127.0.0.1"), ("elsewhere", "10.9.9.9"))
    }
    try:
        yield {name: url for name, (_, url) in started.items()}
    finally:
        for process, _ in started.values():
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(20)


def statuses(url: str, forwarded: list[str]) -> list[int]:
    """One POST per ``X-Forwarded-For`` value, each from a fresh browser."""
    found = []
    for value in forwarded:
        with httpx.Client(base_url=url, timeout=10) as client:
            token = TOKEN.search(client.get("/stats").text)
            assert token is not None
            response = client.post(
                "/stats/reset", data={"token": token.group(1)}, headers={"X-Forwarded-For": value}
            )
            found.append(response.status_code)
    return found


def test_a_trusted_proxys_forwarded_address_is_the_client(servers):
    url = servers["loopback"]
    assert statuses(url, ["203.0.113.1"] * 4) == [303, 303, 303, 429]
    assert statuses(url, ["203.0.113.2", "198.51.100.7, 203.0.113.2"]) == [303, 303]


def test_forwarded_text_that_is_no_address_is_one_client_however_it_changes(servers):
    # before: every new text was a new client with a limit of its own
    assert statuses(servers["loopback"], [f"evil-{i}" for i in range(4)]) == [303] * 3 + [429]


def test_an_untrusted_peers_forwarded_address_is_ignored(servers):
    url = servers["elsewhere"]
    assert statuses(url, ["203.0.113.3", "203.0.113.4", "203.0.113.5", "203.0.113.6"]) == [
        303,
        303,
        303,
        429,
    ]
