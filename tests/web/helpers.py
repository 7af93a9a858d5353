"""The web table's server against the simulated Discord, and its viewers' sockets."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from bot.config import ActivitySettings
from bot.storage.store import Storage
from bot.tables import TableManager
from bot.web.app import WebServer, session_protocols, web_server
from tests.discord_sim import SimChannel, SimGuild, SimulatedDiscord, SimUser

Message = dict[str, Any]


class Socket:
    """One viewer's socket: every message it received is kept, in order."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.received: list[Message] = []
        self.raw: list[str] = []
        self._new = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for frame in self.ws:
            if frame.type == aiohttp.WSMsgType.TEXT:
                self.raw.append(frame.data)
                self.received.append(json.loads(frame.data))
                self._new.set()

    async def send(self, message: Message | str) -> None:
        """Send a message (data, or a text as it is)."""
        await self.ws.send_str(message if isinstance(message, str) else json.dumps(message))

    async def wait_for(self, check: Callable[[Message], bool], timeout: float = 10.0,
                       after: int = 0) -> Message:
        """The first message from index ``after`` on that passes ``check`` (waiting for it)."""
        limit = asyncio.get_running_loop().time() + timeout
        while True:
            for message in self.received[after:]:
                if check(message):
                    return message
            left = limit - asyncio.get_running_loop().time()
            if left <= 0 or self._reader.done():
                raise TimeoutError(f"no such message; received {self.types()}")
            self._new.clear()
            with suppress(TimeoutError):
                await asyncio.wait_for(self._new.wait(), left)

    async def next(self, kind: str, timeout: float = 10.0, **fields: Any) -> Message:
        """The next message of a type (and fields) after everything seen so far."""
        mark = len(self.received)
        return await self.wait_for(
            lambda m: m.get("type") == kind and all(m.get(k) == v for k, v in fields.items()),
            timeout, mark)

    async def request(self, message: Message | str, kind: str, timeout: float = 10.0
                      ) -> Message:
        """Send a message and wait for the next one of a type."""
        mark = len(self.received)
        await self.send(message)
        return await self.wait_for(lambda m: m.get("type") == kind, timeout, mark)

    def types(self) -> list[str]:
        """The types of the messages received."""
        return [str(m.get("type")) for m in self.received]

    async def close(self) -> None:
        """Close the socket."""
        await self.ws.close()
        await asyncio.gather(self._reader, return_exceptions=True)


@dataclass
class Site:
    """The simulated Discord, a table service and its web table, listening on a free port."""

    sim: SimulatedDiscord
    manager: TableManager
    server: WebServer
    guild: SimGuild
    channel: SimChannel
    http: aiohttp.ClientSession
    sockets: list[Socket] = field(default_factory=list)

    @property
    def base(self) -> str:
        """The web table's address."""
        return f"http://127.0.0.1:{self.server.port}"

    async def sign_in(self, user: SimUser) -> dict[str, Any]:
        """Sign a person in as the page does: a code from Discord, POST /api/token."""
        answer = await self.http.post(self.base + "/.proxy/api/token",
                                      json={"code": self.sim.oauth_code(user)})
        assert answer.status == 200, await answer.text()
        found: dict[str, Any] = await answer.json()
        return found

    async def connect(self, session: str, instance: str, channel: SimChannel | None = None
                      ) -> Socket:
        """Open a viewer's socket."""
        where = (channel or self.channel).id
        ws = await self.http.ws_connect(
            f"{self.base}/.proxy/ws?instance_id={instance}&channel_id={where}",
            protocols=session_protocols(session))
        socket = Socket(ws)
        self.sockets.append(socket)
        await socket.wait_for(lambda m: m.get("type") in ("hello", "error"))
        return socket

    async def viewer(self, user: SimUser, instance: str | None = None) -> Socket:
        """A signed-in person's socket in the site's channel (an instance with them in it)."""
        signed = await self.sign_in(user)
        instance = instance or self.sim.add_activity_instance(self.channel, [user])
        return await self.connect(signed["session"], instance)


def _racing() -> Callable[[], float]:
    """A clock that runs a minute each time it is read."""
    now = [0.0]

    def read() -> float:
        now[0] += 60.0
        return now[0]

    return read


@asynccontextmanager
async def site(tmp_path: Path, *, dev: bool = False, ai_level: str = "random",
               **users: str) -> AsyncIterator[tuple[Site, dict[str, SimUser]]]:
    """A running web table; ``users``: name → Discord locale of the people to add."""
    async with SimulatedDiscord() as sim:
        guild = sim.add_guild("Cards")
        channel = sim.add_channel(guild, "table")
        people = {name: sim.add_user(name, locale=locale) for name, locale in users.items()}
        tmp_path.mkdir(parents=True, exist_ok=True)
        store = await Storage.open(str(tmp_path / "web.sqlite3"))
        manager = TableManager(store, ai_delay=0.0, ai_level=ai_level, timer_scale=1.0)
        await manager.resume()
        settings = ActivitySettings(int(sim.application_id), sim.client_secret, 0, "127.0.0.1",
                                    dev)
        server = web_server(manager, settings, sim.client_secret, sim.token, "127.0.0.1", 0)
        # the tests' pages play faster than any person: their sockets' buckets read a clock
        # that runs a minute a reading, so that none is limited (tests/web/test_socket_limits.py
        # sets a clock of its own to test the limits)
        server.viewers.clock = _racing()
        await server.start()
        http = aiohttp.ClientSession()
        running = Site(sim, manager, server, guild, channel, http)
        try:
            yield running, people
        finally:
            for socket in running.sockets:
                await socket.close()
            await http.close()
            await server.stop()
            await manager.close()
            await store.close()
