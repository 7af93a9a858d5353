"""Several processes on PostgreSQL: a viewer's socket that reaches a process which does not own
the table is forwarded to the process that does.

Each process runs a slice of the bot's shards (``DECKHAND_SHARDS``) and only the tables of
guilds on its shards. At start it records, for each of its shards, its internal web address
(``DECKHAND_WEB_INTERNAL_URL``, by default ``http://127.0.0.1:<port>``) in the database
(:meth:`bot.storage.Storage.set_web_route`). A viewer's socket may reach any process (the
reverse proxy chooses); once the person and the instance are checked there, a process that
does not own the channel's guild opens a socket to the owner's address with the person signed
(HMAC with the client secret, valid :data:`VOUCH_SECONDS`) and pipes the frames both ways. The
owner accepts that signature in place of a session. All logic runs in the owner; the
forwarding process is a pipe, so one process keeps one order of a table's events.

One process, or SQLite (each process its own file): no router, nothing is forwarded.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import aiohttp
from aiohttp import web

from bot.web.auth import seal, unseal
from bot.web.viewers import Person, error
from games import wording

if TYPE_CHECKING:
    from bot.storage import Storage

log = logging.getLogger(__name__)

#: the header a forwarding process names the person in
HEADER = "X-Deckhand-Vouch"
#: how long a forwarding process's signature is good for (seconds): it is used at once
VOUCH_SECONDS = 30
#: how long connecting to the owner may take (seconds)
CONNECT_SECONDS = 5.0
#: the code a socket is closed with when its table's process cannot be reached
UNAVAILABLE_CLOSE = 4503

#: the router of an application (None: one process, nothing forwarded)
ROUTER = web.AppKey("router", object)


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that carries a guild (Discord's rule, as :func:`bot.client.shard_of`)."""
    return (guild_id >> 22) % shard_count


class Router:
    """Where each guild's tables live, and the pipe to them."""

    def __init__(self, store: Storage, client_secret: str, shard_ids: tuple[int, ...],
                 shard_count: int, guild_of: Callable[[int], Awaitable[int | None]]) -> None:
        self.store = store
        self.shard_ids = shard_ids
        self.shard_count = shard_count
        #: the guild of a channel (the database's tables, else Discord), None when unknown
        self.guild_of = guild_of
        # a key of its own, apart from the sessions': a vouch is never a session
        self._key = hashlib.sha256(b"deckhand-web-forward:" + client_secret.encode()).digest()
        self._http: aiohttp.ClientSession | None = None
        self._guilds: dict[int, int] = {}  # channel -> guild, learnt once

    # -- the routes -----------------------------------------------------------------------
    async def announce(self, url: str) -> None:
        """Record this process's address for each of its shards."""
        await self.store.set_web_route(self.shard_count, self.shard_ids, url)
        log.info("the web table of shards %s is reachable at %s",
                 ",".join(map(str, self.shard_ids)), url)

    def owns(self, guild_id: int) -> bool:
        """Whether this process runs the guild's shard."""
        return shard_of(guild_id, self.shard_count) in self.shard_ids

    async def _guild(self, channel_id: int) -> int | None:
        found = self._guilds.get(channel_id)
        if found is None:
            found = await self.guild_of(channel_id)
            if found is not None:
                if len(self._guilds) > 100_000:
                    self._guilds.clear()
                self._guilds[channel_id] = found
        return found

    # -- the signature --------------------------------------------------------------------
    def vouch(self, person: Person, channel_id: int, now: float | None = None) -> str:
        """A short-lived signature naming a person for a channel."""
        expiry = int((time.time() if now is None else now) + VOUCH_SECONDS)
        return seal(self._key, person, expiry, c=str(channel_id))

    def vouched(self, request: web.Request, now: float | None = None) -> Person | None:
        """The person another process signed for this request's channel, or None."""
        found = unseal(self._key, request.headers.get(HEADER, ""), now)
        if found is None:
            return None
        person, fields = found
        return person if str(fields.get("c")) == request.query.get("channel_id", "") else None

    # -- the pipe -------------------------------------------------------------------------
    def http(self) -> aiohttp.ClientSession:
        """The client that reaches the other processes (made on the running loop)."""
        if self._http is None or self._http.closed:
            self._http = aiohttp.ClientSession()
        return self._http

    async def close(self) -> None:
        """Close the client."""
        if self._http is not None:
            await self._http.close()

    async def forward(self, ws: web.WebSocketResponse, request: web.Request, person: Person,
                      channel_id: int) -> bool:
        """Serve a checked viewer's socket from the owner when this process is not it: True
        when it was forwarded (or refused), False when this process serves it itself."""
        guild = await self._guild(channel_id)
        if guild is None or self.owns(guild):  # (a channel nobody knows: nothing to forward)
            return False
        url = None
        if request.headers.get(HEADER) is None:  # a forwarded socket is never sent on again
            url = await self.store.web_route(self.shard_count, shard_of(guild, self.shard_count))
        if url is None:
            log.warning("no web table is known for shard %s: a viewer of channel %s is turned "
                        "away", shard_of(guild, self.shard_count), channel_id)
            await self._unavailable(ws, person.lang)
            return True
        target = f"{url}/ws?channel_id={channel_id}"
        try:
            upstream = await self.http().ws_connect(
                target, headers={HEADER: self.vouch(person, channel_id)},
                timeout=aiohttp.ClientWSTimeout(ws_close=CONNECT_SECONDS),
                max_msg_size=0)
        except (aiohttp.ClientError, TimeoutError) as exc:
            log.warning("the web table at %s cannot be reached (%s)", url, type(exc).__name__)
            await self._unavailable(ws, person.lang)
            return True
        try:
            await _pipe(ws, upstream)
        finally:
            await upstream.close()
        return True

    async def _unavailable(self, ws: web.WebSocketResponse, lang: str) -> None:
        await ws.send_json(error("unavailable", lang, wording.text("web-unavailable", lang)))
        await ws.close(code=UNAVAILABLE_CLOSE)


async def _relay(source: web.WebSocketResponse | aiohttp.ClientWebSocketResponse,
                 sink: web.WebSocketResponse | aiohttp.ClientWebSocketResponse) -> None:
    """Every text and binary frame of one socket sent on to the other, until it closes."""
    async for frame in source:
        if frame.type == aiohttp.WSMsgType.TEXT:
            await sink.send_str(frame.data)
        elif frame.type == aiohttp.WSMsgType.BINARY:
            await sink.send_bytes(frame.data)


async def _pipe(viewer: web.WebSocketResponse, owner: aiohttp.ClientWebSocketResponse) -> None:
    """Frames both ways until either side closes; the other is then closed with its code."""

    async def down() -> None:
        await _relay(owner, viewer)
        await viewer.close(code=owner.close_code or aiohttp.WSCloseCode.GOING_AWAY)

    async def up() -> None:
        await _relay(viewer, owner)
        await owner.close()

    tasks = [asyncio.ensure_future(down()), asyncio.ensure_future(up())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, aiohttp.ClientError,
                                     ConnectionError, RuntimeError):
                await task


def attach(app: web.Application, router: Router) -> None:
    """Give an application (before it starts) its router, closed when it stops."""
    app[ROUTER] = router

    async def end(_app: web.Application) -> None:
        await router.close()

    app.on_cleanup.append(end)


def router_of(app: web.Application) -> Router | None:
    """The application's router, if it has one."""
    found = app.get(ROUTER)
    return found if isinstance(found, Router) else None
