"""A TCP proxy in front of a Redis server that can hold back what a client sends, as a slow
or partitioned network does: what the store's open connections send after :meth:`hold` stays
in the proxy until :meth:`release`, while connections opened later pass at once. A test
uses it to make a write reach Redis *after* the store has asked whether it landed, which a
paused server (SIGSTOP) cannot do: a paused Redis reads its clients in the order they sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from dataclasses import dataclass, field


@dataclass
class _Link:
    upstream: asyncio.StreamWriter
    held: bool = False
    buffer: list[bytes] = field(default_factory=list)
    client_done: bool = False


class HoldingProxy:
    """Listens on a free loopback port and forwards each connection to ``port``."""

    def __init__(self, port: int) -> None:
        self._target = port
        self._links: list[_Link] = []
        self._loop = asyncio.new_event_loop()
        self._started = threading.Event()
        self._thread = threading.Thread(target=self._run, name="holding-proxy", daemon=True)
        self._thread.start()
        self._started.wait(5)
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(
            asyncio.start_server(self._serve, "127.0.0.1", 0)
        )
        self.port: int = self._server.sockets[0].getsockname()[1]
        self._started.set()
        self._loop.run_forever()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self._target)
        link = _Link(up_writer)
        self._links.append(link)

        async def answers() -> None:
            with contextlib.suppress(OSError):
                while data := await up_reader.read(65536):
                    writer.write(data)
                    await writer.drain()
            writer.close()

        answering = asyncio.ensure_future(answers())
        with contextlib.suppress(OSError):
            while data := await reader.read(65536):
                if link.held:
                    link.buffer.append(data)
                else:
                    up_writer.write(data)
                    await up_writer.drain()
        link.client_done = True
        if not link.held:
            up_writer.close()
        await answering

    def hold(self) -> None:
        """From now on, hold back what every connection open now sends."""

        async def hold_all() -> None:
            for link in self._links:
                link.held = True

        asyncio.run_coroutine_threadsafe(hold_all(), self._loop).result(5)

    def release(self) -> int:
        """Send on what was held (then close the connections whose clients closed); how many
        bytes went."""

        async def release_all() -> int:
            sent = 0
            for link in self._links:
                if not link.held:
                    continue
                link.held = False
                for data in link.buffer:
                    link.upstream.write(data)
                    sent += len(data)
                link.buffer.clear()
                with contextlib.suppress(OSError):
                    await link.upstream.drain()
                if link.client_done:
                    link.upstream.close()
            return sent

        return asyncio.run_coroutine_threadsafe(release_all(), self._loop).result(5)

    def close(self) -> None:
        def stop() -> None:
            self._server.close()
            for link in self._links:
                link.upstream.close()
            self._loop.stop()

        self._loop.call_soon_threadsafe(stop)
        self._thread.join(5)
