"""Several processes on PostgreSQL: a viewer's socket that reaches a process which does not own
the table is forwarded to the process that does.

Each process runs a slice of the bot's shards (``DECKHAND_SHARDS``) and only the tables of
guilds on its shards. At start it opens a listener of its own for the other processes, apart
from the public web table, on the address they share (``DECKHAND_WEB_INTERNAL_URL``; by
default ``127.0.0.1`` and a free port: processes on one machine), and records that address for
each of its shards in the database (:meth:`bot.storage.store.Storage.set_web_route`). A viewer's
socket may reach any process (the reverse proxy chooses); once the person and the instance are
checked there, a process that does not own the channel's guild opens a socket to the owner's
listener with a vouch, and pipes the frames both ways. All logic runs in the owner; the
forwarding process is a pipe, so one process keeps one order of a table's events.

A vouch names the person, the channel, the process it is for (the owner's address) and a
nonce, signed with a key drawn from the client secret (HMAC-SHA256), and is good once, for
:data:`VOUCH_SECONDS`: the owner takes it on its own listener only (the public ``/ws`` refuses
one), for that channel, addressed to itself, and never a nonce twice. A vouch overheard on the
private network is spent or stale by the time anyone could replay it.

One process, or SQLite (each process its own file): no router, nothing is forwarded.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import hashlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import aiohttp
from aiohttp import web

from bot.web.auth import seal, unseal
from bot.web.viewers import NOT_VOUCHED, Person, Viewers, error
from games import wording

if TYPE_CHECKING:
    from bot.storage.store import Storage

log = logging.getLogger(__name__)

#: the header a forwarding process names the person in
HEADER = "X-Deckhand-Vouch"
#: how long a forwarding process's vouch is good for (seconds): it is used at once, and once
VOUCH_SECONDS = 10
#: the path of the processes' own listener's socket
FORWARD_PATH = "/forward"
#: where the listener is when DECKHAND_WEB_INTERNAL_URL is not set (port 0: a free one)
LOOPBACK = "http://127.0.0.1:0"
#: the largest frame the listener reads (the public socket's limit is smaller)
MAX_FRAME = 64 * 1024
#: how long connecting to the owner may take (seconds)
CONNECT_SECONDS = 5.0
#: the code a socket is closed with when its table's process cannot be reached
UNAVAILABLE_CLOSE = 4503

#: the router of an application (None: one process, nothing forwarded)
ROUTER = web.AppKey("router", object)


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that carries a guild (Discord's rule, as :func:`bot.client.deckhand.shard_of`)."""
    return (guild_id >> 22) % shard_count


class ServeFailed(Exception):
    """The web table (or the processes' listener) could not start; ``sentence`` says why and
    what to do."""

    def __init__(self, sentence: str) -> None:
        super().__init__(sentence)
        self.sentence = sentence


class Router:
    """Where each guild's tables live, the pipe to them, and the listener the other processes
    pipe theirs to."""

    def __init__(self, store: Storage, client_secret: str, shard_ids: tuple[int, ...],
                 shard_count: int, guild_of: Callable[[int], Awaitable[int | None]], *,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.shard_ids = shard_ids
        self.shard_count = shard_count
        #: the guild of a channel (the database's tables, else Discord), None when unknown
        self.guild_of = guild_of
        # a key of its own, apart from the sessions': a vouch is never a session
        self._key = hashlib.sha256(b"deckhand-web-forward:" + client_secret.encode()).digest()
        self._http: aiohttp.ClientSession | None = None
        self._guilds: dict[int, int] = {}  # channel -> guild, learnt once
        #: wall-clock seconds (a vouch crosses processes), a test's own in tests
        self.clock = clock
        #: this process's listener's address, as recorded for the others (None: not started)
        self.url: str | None = None
        self._viewers: Viewers | None = None
        self._runner: web.AppRunner | None = None
        self._spent: dict[str, float] = {}  # a vouch's nonce -> when it expires

    # -- the listener ---------------------------------------------------------------------
    async def start(self, viewers: Viewers, url: str | None) -> None:
        """Listen for the other processes at ``url`` (None: 127.0.0.1, a free port), serving
        their sockets to ``viewers``, and record the address for this process's shards;
        ServeFailed when the address cannot be taken."""
        self._viewers = viewers
        parts = urlsplit(url or LOOPBACK)
        host, port = parts.hostname or "127.0.0.1", parts.port or 0
        app = web.Application()
        app.router.add_get(FORWARD_PATH, self._serve_forwarded)
        runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await runner.setup()
        try:
            await web.TCPSite(runner, host, port).start()
        except OSError as exc:
            await runner.cleanup()
            why = "it is in use by another program" if exc.errno == errno.EADDRINUSE else (
                exc.strerror or type(exc).__name__)
            raise ServeFailed(
                f"The web table cannot listen for the other Deckhand processes on {host}:{port} "
                f"({why}): set DECKHAND_WEB_INTERNAL_URL to an address of this machine the "
                "others reach, with a free port other than DECKHAND_WEB_PORT's, then start "
                "again.") from None
        self._runner = runner
        if port == 0 and runner.addresses:
            port = int(runner.addresses[0][1])
        self.url = url if url is not None and parts.port else f"http://{host}:{port}"
        await self.announce(self.url)

    async def _serve_forwarded(self, request: web.Request) -> web.WebSocketResponse:
        """GET /forward on the listener: another process's viewer, vouched for."""
        ws = web.WebSocketResponse(heartbeat=30.0, max_msg_size=MAX_FRAME)
        await ws.prepare(request)
        found = self._vouch_of(request, None)
        channel = request.query.get("channel_id", "")
        if found is None or self._viewers is None:
            log.warning("a forwarded socket without a good vouch was refused (from %s)",
                        request.remote)
            await ws.send_json(error("forbidden", "en", wording.text(NOT_VOUCHED, "en")))
            await ws.close(code=4403)
            return ws
        person, fields = found
        guild = await self._guild(int(channel))
        if guild is not None and not self.owns(guild):  # (the shards moved: never sent on)
            await self._unavailable(ws, person.lang)
            return ws
        until = str(fields.get("s", ""))  # the session's end: the socket's too, as a direct one's
        valid = (lambda now: now <= int(until)) if until.isdigit() else None
        await self._viewers.serve(ws, person, int(channel), valid)
        return ws

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

    # -- the vouch ------------------------------------------------------------------------
    def vouch(self, person: Person, channel_id: int, target: str,
              now: float | None = None, until: int | None = None) -> str:
        """A vouch naming a person for a channel, for the process listening at ``target``:
        good once, for :data:`VOUCH_SECONDS` (``until``: when the person's session ends, and
        with it the socket the owner serves)."""
        expiry = int((self.clock() if now is None else now) + VOUCH_SECONDS)
        more = {} if until is None else {"s": str(until)}
        return seal(self._key, person, expiry, c=str(channel_id), t=target,
                    o=secrets.token_urlsafe(16), **more)  # ("n" is the name)

    def vouched(self, request: web.Request, now: float | None = None) -> Person | None:
        """The person another process vouched for, for this request's channel and for this
        process, the first time its nonce is seen; None otherwise."""
        found = self._vouch_of(request, now)
        return None if found is None else found[0]

    def _vouch_of(self, request: web.Request, now: float | None
                  ) -> tuple[Person, dict[str, Any]] | None:
        now = self.clock() if now is None else now
        found = unseal(self._key, request.headers.get(HEADER, ""), now)
        if found is None:
            return None
        person, fields = found
        nonce = str(fields.get("o", ""))
        if (str(fields.get("c")) != request.query.get("channel_id", "")
                or self.url is None or fields.get("t") != self.url
                or not nonce or nonce in self._spent):
            return None
        if len(self._spent) > 10_000:  # (only live ones matter: a stale vouch is refused)
            self._spent = {n: e for n, e in self._spent.items() if e >= now}
        self._spent[nonce] = float(fields["e"])
        return person, fields

    # -- the pipe -------------------------------------------------------------------------
    def http(self) -> aiohttp.ClientSession:
        """The client that reaches the other processes (made on the running loop)."""
        if self._http is None or self._http.closed:
            self._http = aiohttp.ClientSession()
        return self._http

    async def close(self) -> None:
        """Stop listening and close the client."""
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
        if self._http is not None:
            await self._http.close()

    async def forward(self, ws: web.WebSocketResponse, request: web.Request, person: Person,
                      channel_id: int, until: int | None = None) -> bool:
        """Serve a checked viewer's socket from the owner when this process is not it: True
        when it was forwarded (or refused), False when this process serves it itself
        (``until``: when the person's session ends; the owner closes the socket then)."""
        guild = await self._guild(channel_id)
        if guild is None or self.owns(guild):  # (a channel nobody knows: nothing to forward)
            return False
        url = await self.store.web_route(self.shard_count, shard_of(guild, self.shard_count))
        if url is None:
            log.warning("no web table is known for shard %s: a viewer of channel %s is turned "
                        "away", shard_of(guild, self.shard_count), channel_id)
            await self._unavailable(ws, person.lang)
            return True
        target = f"{url}{FORWARD_PATH}?channel_id={channel_id}"
        try:
            upstream = await self.http().ws_connect(
                target, headers={HEADER: self.vouch(person, channel_id, url, until=until)},
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
