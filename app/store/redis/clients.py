"""Connections to one Redis or to a Redis Cluster, with redis-py's asyncio clients only.

A store URL is ``redis://host:port/db`` (``rediss://`` for TLS, ``unix://path`` for a socket)
for one Redis, or ``redis+cluster://host:port[,host:port…]`` (``rediss+cluster://``) for a
cluster: any node, or several, from which the client learns the others. A password goes in
the URL either way.

Every client has short connect and command timeouts and no retries: a stalled or stopped
server costs a request at most one timeout and never holds up the event loop, and a write
whose answer was lost is never sent twice.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar
from urllib.parse import unquote, urlsplit, urlunsplit

import redis.asyncio
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.connection import parse_url
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

R = TypeVar("R")

Client = redis.asyncio.Redis | RedisCluster
"""What the store talks to: one server's client, or a cluster's."""

CLUSTER_SCHEMES: Final = ("redis+cluster", "rediss+cluster")
SCHEMES: Final = ("redis", "rediss", "unix", *CLUSTER_SCHEMES)

CONNECTIONS: Final = 64
"""Connections one server's client of one process may open; more requests at once wait (at
most the timeout) for one to be free."""

CLUSTER_CONNECTIONS: Final = 1024
"""Connections a cluster client may open to each node. redis-py's cluster client does not
wait for a free one (it fails at once), so it may open as many as a worker serves requests
at once (``--limit-concurrency``, 1000): each request holds at most one at a time."""


def without_password(url: str) -> str:
    """``url`` fit for an error message: any password replaced by ``***``.

    >>> without_password("redis://user:secret@host:6379/0")
    'redis://user:***@host:6379/0'
    >>> without_password("redis+cluster://:pw@a:7000,b:7001")
    'redis+cluster://:***@a:7000,b:7001'
    >>> without_password("redis://host/1")
    'redis://host/1'
    """
    try:
        parts = urlsplit(url)
        credentials, at, hosts = parts.netloc.rpartition("@")
        if not at or ":" not in credentials:
            return url
        user = credentials.split(":", 1)[0]
        return urlunsplit(parts._replace(netloc=f"{user}:***@{hosts}"))
    except ValueError:
        return "<unparsable URL>"


def is_cluster(url: str) -> bool:
    return url.split("://", 1)[0].lower() in CLUSTER_SCHEMES


def _cluster_nodes(url: str) -> tuple[list[tuple[str, int]], dict[str, Any]]:
    """The startup nodes and the connection options a cluster URL names.

    >>> _cluster_nodes("redis+cluster://u:p%40ss@10.0.0.1:7000,10.0.0.2")
    ([('10.0.0.1', 7000), ('10.0.0.2', 6379)], {'username': 'u', 'password': 'p@ss', 'ssl': False})

    :raises ValueError: for a URL without nodes, or a port that is not a number.
    """
    parts = urlsplit(url)
    credentials, _, hosts = parts.netloc.rpartition("@")
    user, _, password = credentials.partition(":")
    nodes = []
    for host in hosts.split(","):
        name, colon, port = host.rpartition(":") if ":" in host else (host, "", "")
        if not name:
            raise ValueError(f"no host in {host!r}")
        nodes.append((name.strip("[]"), int(port) if colon else 6379))
    if parts.path.strip("/") not in ("", "0"):
        raise ValueError("a cluster has database 0 only")
    options = {
        "username": unquote(user) or None,
        "password": unquote(password) or None,
        "ssl": parts.scheme.lower() == "rediss+cluster",
    }
    return nodes, options


def connector(url: str, timeout: float) -> Callable[[], Client]:
    """A function that makes a new client for ``url`` (one per event loop: an asyncio
    client's connections belong to the loop that opened them). Its answers are bytes, as
    stored: the store compares digests of values as stored, and decodes text itself. Checks
    the URL now.

    :raises ValueError: when the URL is not one of :data:`SCHEMES` or does not parse.
    """
    scheme = url.split("://", 1)[0].lower()
    if scheme not in SCHEMES:
        raise ValueError(f"not a Redis URL (scheme {scheme!r})")
    common: dict[str, Any] = {
        "socket_timeout": timeout,
        "socket_connect_timeout": timeout,
        "health_check_interval": 30,
    }
    if scheme in CLUSTER_SCHEMES:
        nodes, options = _cluster_nodes(url)

        def cluster() -> Client:
            return RedisCluster(
                startup_nodes=[ClusterNode(host, port) for host, port in nodes],
                retry=Retry(NoBackoff(), 0),  # a write is never sent twice
                max_connections=CLUSTER_CONNECTIONS,
                **options,
                **common,
            )

        return cluster
    parse_url(url)  # raises ValueError for a bad port or database

    def single() -> Client:
        pool = redis.asyncio.BlockingConnectionPool.from_url(
            url,
            max_connections=CONNECTIONS,
            timeout=timeout,  # waiting for a free connection counts as a timeout too
            retry=Retry(NoBackoff(), 0),  # a stalled server costs one timeout, not four
            **common,
        )
        return redis.asyncio.Redis.from_pool(pool)

    return single


@dataclass
class OnLoop:
    """What the store holds for one event loop: its client, and the turns its changes take."""

    client: Client
    turns: dict[str, tuple[asyncio.Lock, int]] = field(default_factory=dict)
    relearning: asyncio.Future[None] | None = None

    def after_failure(self, failure: BaseException) -> None:
        """A node did not answer. redis-py's cluster client would then learn the cluster's
        layout again before its next command, asking its startup nodes in random order (the
        silent one among them) while every other command waits on its lock: a paused
        primary cost other players' taps up to its timeout, twice (measured: 1.7 s at a 0.5 s
        timeout). Here the layout is learnt in the background instead, the silent node asked
        last; commands go on with the layout they know (a failover's new primary is learnt
        within that one exchange)."""
        client = self.client
        if not isinstance(client, RedisCluster) or not client._initialize:
            return
        client._initialize = False
        if self.relearning is None or self.relearning.done():
            failed = getattr(failure, "last_failed_node_name", None)
            self.relearning = asyncio.ensure_future(_relearn(client, failed))

    @contextlib.asynccontextmanager
    async def turn(self, name: str) -> AsyncIterator[None]:
        """Changes of one game (or deal) from this loop, one at a time: many concurrent taps
        on one game would otherwise keep refusing each other's writes."""
        lock, users = self.turns.get(name) or (asyncio.Lock(), 0)
        self.turns[name] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self.turns[name]
            if users == 1:
                del self.turns[name]
            else:
                self.turns[name] = (lock, users - 1)


async def _relearn(client: RedisCluster, failed: str | None) -> None:
    try:
        await client.nodes_manager.initialize(last_failed_node_name=failed)
    except Exception:  # no node answered: the next command asks on its own
        client._initialize = True


async def ping_primaries(client: Any) -> None:
    """Ping every primary of a cluster at once; done when the first answers, raise when none
    does (a paused primary must not make a health check wait for its timeout)."""
    await client.initialize()
    pings = [
        asyncio.ensure_future(client.execute_command("PING", target_nodes=node))
        for node in client.get_primaries()
    ]
    try:
        failure: BaseException = LookupError("no primary")
        for answered in asyncio.as_completed(pings):
            try:
                await answered
                return
            except Exception as exc:  # this one does not answer; another may
                failure = exc
        raise failure
    finally:
        for ping in pings:
            ping.cancel()


async def pipelined(client: Client, commands: list[tuple[Any, ...]]) -> list[Any]:
    """One pipeline, not a transaction (a cluster's client splits it by node and sends the
    parts at once); a command's error is answered in its place."""
    if not commands:
        return []
    pipe = client.pipeline(transaction=False)
    for command in commands:
        pipe.execute_command(*command)
    answers: list[Any] = await pipe.execute(raise_on_error=False)
    return answers
