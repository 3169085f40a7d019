"""A throwaway ``redis-server`` for tests: on a free loopback port, in a temporary folder,
without persistence — or a throwaway Redis Cluster of three primaries made of three of them
(``redis-server --cluster-enabled yes``, joined by ``redis-cli --cluster create``). Other
test folders import it::

    from tests.store.redis_server import start_redis_server, stop_redis_server

A missing ``redis-server`` or ``redis-cli`` fails the test (``scripts/test`` installs them):
a Redis store that is never tested must not look like one that passed.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
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


def _tool(name: str) -> str:
    binary = shutil.which(name)
    if binary is None:
        pytest.fail(
            f"{name} is not installed, so the Redis store cannot be tested: run the test"
            " command, scripts/test, which installs it (or apt-get install redis-server)",
            pytrace=False,
        )
    return binary


def start_redis_server(tmp_dir: Path | str, *options: str) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``redis-server`` with its files in ``tmp_dir`` (and ``options``, e.g. a
    cluster node's); return the process and the URL of its database 0 once it answers PING.
    Stop it with :func:`stop_redis_server`."""
    binary = _tool("redis-server")
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
            *(option.replace("{port}", str(port)) for option in options),
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


CLUSTER_PRIMARIES = 3


@dataclass
class Cluster:
    """A Redis Cluster of :data:`CLUSTER_PRIMARIES` primaries, no replicas."""

    processes: list[subprocess.Popen[bytes]]
    ports: list[int]

    @property
    def url(self) -> str:
        """The store's URL: every node as a startup node."""
        return "redis+cluster://" + ",".join(f"127.0.0.1:{port}" for port in self.ports)

    def primary_of(self, key: str) -> int:
        """The index (in :attr:`ports`) of the primary that serves ``key``'s slot: the one
        node that does not answer ``MOVED``."""
        for index, port in enumerate(self.ports):
            with redis.Redis(port=port, socket_timeout=2) as client:
                try:
                    client.execute_command("EXISTS", key)
                    return index
                except redis.exceptions.MovedError:
                    continue
        raise LookupError(key)

    def stop(self) -> None:
        for process in self.processes:
            stop_redis_server(process)


def start_redis_cluster(tmp_dir: Path | str) -> Cluster:
    """Three cluster-enabled servers joined into one cluster, once every node says
    ``cluster_state:ok``. Stop it with :meth:`Cluster.stop`."""
    cli = _tool("redis-cli")
    folder = Path(tmp_dir)
    processes, ports = [], []
    try:
        for i in range(CLUSTER_PRIMARIES):
            bus = _free_port()  # the default, port + 10000, may be past 65535
            process, url = start_redis_server(
                folder / f"node-{i}",
                "--cluster-enabled", "yes",
                "--cluster-config-file", "nodes-{port}.conf",
                "--cluster-port", str(bus),
                "--cluster-node-timeout", "15000",
            )  # fmt: skip
            processes.append(process)
            ports.append(int(url.rsplit(":", 1)[1].split("/")[0]))
        nodes = [f"127.0.0.1:{p}" for p in ports]
        create = [cli, "--cluster", "create", *nodes, "--cluster-replicas", "0", "--cluster-yes"]
        created = subprocess.run(
            create,
            capture_output=True,
            text=True,
            timeout=60,
        )
        if created.returncode != 0:
            pytest.fail(f"redis-cli --cluster create failed: {created.stdout[-2000:]}")
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while not all(_cluster_ok(port) for port in ports):
            if time.monotonic() > deadline:
                pytest.fail("the Redis Cluster did not come up", pytrace=False)
            time.sleep(0.05)
    except BaseException:
        for process in processes:
            stop_redis_server(process)
        raise
    return Cluster(processes, ports)


def _cluster_ok(port: int) -> bool:
    with redis.Redis(port=port, decode_responses=True, socket_timeout=1) as client:
        info: dict[str, object] = client.cluster("INFO")
        return info.get("cluster_state") == "ok"


def fill_redis(client: redis.Redis) -> None:
    """Write 4 KiB values until the server refuses one for want of memory (a ``maxmemory``
    with ``noeviction``): a Redis as full as a flood of keys would leave it."""
    for n in range(100_000):
        try:
            client.set(f"filler:{n}", "x" * 4096)
        except redis.exceptions.OutOfMemoryError:  # "used memory > 'maxmemory'"
            return
    raise AssertionError("the server never filled up")


@contextmanager
def pausable_redis_server(tmp_dir: Path | str) -> Iterator[tuple[int, str]]:
    """A server of the test's own that the test may pause (``SIGSTOP``): its pid and URL;
    resumed, if it is still paused, and stopped after."""
    process, url = start_redis_server(tmp_dir)
    try:
        yield process.pid, url
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGCONT)
        stop_redis_server(process)
