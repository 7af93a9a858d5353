"""The Discord client: the command tree, the table manager, resume, and a bounded stop.

A stop (:meth:`Deckhand.close`, which SIGTERM and SIGINT start, see :mod:`bot.lifecycle`) runs in
this order, within :data:`STOP_SECONDS`: the clicks and commands being handled are answered
(up to :data:`DRAIN_SECONDS`), computers and timers stop (their moves are stored as they are
made), the table messages are brought up to date, the connection to Discord closes, the
picture and computer workers end, and the database closes (when the bot opened it).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import logging
import os
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord.ext import commands

import games
from bot import logs, memory
from bot.budget import Budget, share
from bot.client.translator import Translator
from bot.client.tree import DeckhandTree, sync_commands
from bot.config import Settings
from bot.health import HEARTBEAT_SECONDS
from bot.lane import Lane
from bot.pictures import painter
from bot.pictures.painter import Painter
from bot.storage.db import is_postgres
from bot.storage.store import Storage
from bot.tables import Clock, TableManager
from bot.tables.model import RulesLookup
from bot.tournaments.runner import Tournaments
from bot.web.app import WebServer, web_server
from bot.web.routing import Router, attach

log = logging.getLogger(__name__)

#: how much lower the pictures' workers (the table's and the hands') run than the bot: the
#: lowest priority there is. A picture follows an answer already given (its words and
#: controls), so nobody waits on it the way a click waits for its answer, and a busy core goes
#: to the bot's event loop first. At nice 10 and 5, the pictures drawn while every table
#: started still took enough of the two cores to double the clicks' worst waits in some runs
#: (docs/benchmarks.md, issue 39).
PICTURE_NICE = 19

#: seconds a stop may take, all told (docs/deploy.md promises it; Docker waits 10 s)
STOP_SECONDS = 5.0
#: of which the clicks and commands being answered get at most this long
DRAIN_SECONDS = 3.0
#: seconds a stop first leaves for interactions already received to start being answered
ARRIVAL_GRACE = 0.1
#: seconds between the heartbeat's looks for a connection, until its first beat
CONNECT_POLL = 0.25
#: the modules that give the bot its commands (each with ``async def setup(bot)``), in order
EXTENSIONS = ("cogs.play", "cogs.stats", "cogs.admin", "cogs.learn", "cogs.review",
              "cogs.tournaments")

_TABLE_IN_ID = re.compile(r"^dh:[a-z]{1,8}:(\d{1,18}):")


def shard_of(guild_id: int | None, shard_count: int | None) -> int:
    """The shard that carries a guild's events (Discord's rule; direct messages: shard 0)."""
    if guild_id is None or not shard_count:
        return 0
    return (guild_id >> 22) % shard_count


def table_in(data: dict[str, Any]) -> int | None:
    """The table id in an interaction's component or modal custom id, if any."""
    inner = data.get("data")
    custom_id = inner.get("custom_id") if isinstance(inner, dict) else None
    found = _TABLE_IN_ID.match(custom_id) if isinstance(custom_id, str) else None
    return int(found.group(1)) if found else None


class Deckhand(commands.AutoShardedBot):
    """Deckhand's bot: non-privileged intents, the table manager and the table cog.

    Sharded: ``settings.shard_ids``/``shard_count`` run a slice of the bot's shards (None:
    every shard, as many as Discord recommends). A process resumes and serves only the
    tables of guilds on its own shards.
    """

    #: seconds between two shards' IDENTIFYs (Discord allows one per 5 s per bucket)
    identify_pause = 5.0

    def __init__(self, settings: Settings, store: Storage, rules_for: RulesLookup = games.get,
                 game_ids: Callable[[], list[str]] = games.ids, *, only_sync: bool = False,
                 owns_store: bool = False, clock: Clock | None = None) -> None:
        # Only guilds (the names a DM gives, the channels tables sit in): interactions come
        # without any intent, and the messages, reactions and typing of the default intents
        # would be events the bot throws away, one for every message in every channel.
        intents = discord.Intents.none()
        intents.guilds = True
        # It never joins voice: no warning at every start that voice's libraries are missing.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        sharding: dict[str, Any] = {"shard_count": settings.shard_count}
        if settings.shard_ids is not None:  # a slice; otherwise every shard of the count
            sharding["shard_ids"] = list(settings.shard_ids)
        #: this process's share of Discord's global request limit (None: none kept, the
        #: default of settings made in code); every request of discord.py passes it
        self.budget: Budget | None = None
        if settings.global_rate > 0:
            self.budget = Budget(share(settings.global_rate, settings.shard_ids,
                                       settings.shard_count))
            sharding["http_trace"] = self.budget.trace()
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         tree_cls=DeckhandTree, help_command=None, **sharding)
        self.settings = settings
        self.started = time.monotonic()
        #: ``deckhand sync``: log in, send the commands to Discord, nothing more
        self.only_sync = only_sync
        #: whether :meth:`close` closes the database (the bot opened it: :meth:`create`)
        self.owns_store = owns_store
        #: what a stop awaits before it disconnects, each bounded by the time left: a cog
        #: brings its messages up to date here
        self.before_disconnect: list[Callable[[], Awaitable[None]]] = []
        self._stopping: asyncio.Task[None] | None = None
        self._heartbeat_task: asyncio.Task[None] | None = None
        self.answering: set[asyncio.Task[Any]] = set()  # interactions being answered now
        parsers = self._connection.parsers
        parse_interaction = parsers["INTERACTION_CREATE"]
        seen: dict[str, None] = {}  # recent interaction ids, oldest first

        def tagged(data: dict[str, Any]) -> None:
            # A second delivery of one interaction (a gateway replay) is ignored: handled
            # twice, a lobby change or a computer added would happen twice.
            key = str(data.get("id"))
            if key in seen:
                log.info("interaction %s delivered twice; the second is ignored", key)
                return
            seen[key] = None
            if len(seen) > 10_000:
                del seen[next(iter(seen))]
            # Tasks started while handling the interaction inherit these ids in their logs.
            guild_raw = data.get("guild_id")
            guild = int(guild_raw) if guild_raw else None
            with logs.context(guild=guild, shard=shard_of(guild, self.shard_count),
                              table=table_in(data)):
                log.debug("interaction type %s", data.get("type"))
                parse_interaction(data)

        parsers["INTERACTION_CREATE"] = tagged
        self.store = store
        self.rules_for = rules_for
        self.game_ids = game_ids
        self.manager = TableManager(store, rules_for=rules_for, ai_delay=settings.ai_delay,
                                    timer_scale=settings.timer_scale,
                                    ai_level=settings.ai_level,
                                    ai_workers=settings.ai_workers,
                                    ai_scheduler=settings.ai_scheduler,
                                    # the tests' manual clock (None: the service's own,
                                    # scaled by settings.timer_scale)
                                    clock=clock)
        #: tournaments: their rounds' tables opened through the table service, on its clock
        self.tournaments = Tournaments(self.manager, store, self.manager.clock)
        #: draw the pictures: tables in ``render_workers`` processes, hands in one of their own
        #: (threads with ``render_workers=0``)
        self.painters = {"table": Painter(settings.render_workers, nice=PICTURE_NICE),
                         "hand": Painter(min(1, settings.render_workers), nice=PICTURE_NICE)}
        #: work nobody waits on (table edits, alerts, pictures after an answer), a few at a time
        self.lane = Lane()
        #: the Activity's web table beside the bot (None: not configured)
        self.web: WebServer | None = None
        activity = settings.activity
        if activity is not None and not only_sync:
            self.web = web_server(self.manager, activity, activity.client_secret,
                                  settings.token, activity.host, activity.port)
        #: several processes on PostgreSQL: a viewer of another process's table is forwarded
        #: there (None: one process, or SQLite)
        self.router: Router | None = None
        if (self.web is not None and activity is not None and settings.shard_ids is not None
                and settings.shard_count is not None and is_postgres(settings.db_path)):
            self.router = Router(store, activity.client_secret, settings.shard_ids,
                                 settings.shard_count, self.guild_of_channel)
            attach(self.web.app, self.router)

    @classmethod
    async def create(cls, settings: Settings, *, only_sync: bool = False) -> Deckhand:
        """A bot with its database opened (and closed by :meth:`close`)."""
        store = await Storage.open(settings.db_path)
        try:
            return cls(settings, store, only_sync=only_sync, owns_store=True)
        except BaseException:
            await store.close()
            raise

    async def setup_hook(self) -> None:
        """Pictures' workers, translations, the commands, resumed tables, then the command
        sync (only by the process of shard 0, only when the commands changed)."""
        if self.only_sync:
            await self.load_commands()
            await sync_commands(self.tree, self.store, dev_guild=self.settings.dev_guild,
                                force=True, activity=self.activity_configured)
            return
        for kind, chosen in self.painters.items():
            await chosen.start()
            painter.use(chosen, kind)
        await self.load_commands()
        resumed = await self.manager.resume(owns=self.owns_guild)
        # after the tables: a round's table finished while the bot was down is found closed
        await self.tournaments.resume_all(owns=self.owns_guild)  # this process's guilds
        if self.syncs_commands():
            await sync_commands(self.tree, self.store, dev_guild=self.settings.dev_guild,
                                activity=self.activity_configured)
        self.dispatch("tables_resumed", resumed)  # the table cog refreshes their messages
        if self.web is not None:  # the web table, once the tables are back
            await self.web.start()
            if self.router is not None:  # the other processes' listener, recorded for them
                await self.router.start(self.web.viewers, self.settings.web_internal_url)
        # before the gateway connects: nobody waits for this collection
        memory.keep_startup_objects()
        beat_path = self.settings.heartbeat_path
        if beat_path is not None:
            self._heartbeat_task = asyncio.create_task(self._heartbeat(beat_path))

    async def load_commands(self) -> None:
        """The translations, then each extension's ``setup(bot)``, which adds its cog and
        commands. The extensions are imported by name here (once per process, as any module),
        so the bot depends on no cog and the cogs may depend on the bot."""
        await self.tree.set_translator(Translator(self.rules_for))
        for name in EXTENSIONS:
            await importlib.import_module(name).setup(self)

    @property
    def activity_configured(self) -> bool:
        """Whether the Activity is configured (``settings.activity``): then the table message
        offers Open table and the commands keep the entry point."""
        return self.settings.activity is not None

    @property
    def drawing(self) -> int:
        """Pictures being drawn now: the messages waiting for them send nothing meanwhile
        (a quiet wire is not yet a bot at rest)."""
        return sum(chosen.drawing for chosen in self.painters.values())

    async def guild_of_channel(self, channel_id: int) -> int | None:
        """The guild of a channel: from its tables in the database, else from Discord."""
        found = await self.store.guild_of_channel(channel_id)
        if found is not None:
            return found
        try:
            channel = await self.http.get_channel(channel_id)
        except discord.HTTPException:
            return None
        guild = channel.get("guild_id")
        return int(str(guild)) if guild is not None else None

    def syncs_commands(self) -> bool:
        """Whether this process sends the commands to Discord: the one running shard 0."""
        ids = self.settings.shard_ids
        return ids is None or 0 in ids

    def owns_guild(self, guild_id: int) -> bool:
        """Whether this process runs the shard of a guild (always, without a shard slice)."""
        ids, count = self.settings.shard_ids, self.settings.shard_count
        return ids is None or count is None or shard_of(guild_id, count) in ids

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Wait ``identify_pause`` seconds before each IDENTIFY but the first."""
        if not initial and self.identify_pause > 0:
            await asyncio.sleep(self.identify_pause)

    async def on_shard_connect(self, shard_id: int) -> None:
        """Log each shard as it connects."""
        log.info("shard connected", extra={"shard": shard_id})

    async def on_shard_disconnect(self, shard_id: int) -> None:
        """Log each shard as it loses its connection."""
        log.info("shard disconnected", extra={"shard": shard_id})

    def connected(self) -> bool:
        """True once Discord has said who the bot is (its first READY), while it is not
        stopping and every shard of this process is connected."""
        if self.user is None or self.is_closed() or not self.shards:
            return False
        return all(not shard.is_closed() for shard in self.shards.values())

    async def beat(self, path: str) -> bool:
        """Rewrite the heartbeat file if the bot is connected and its database answers."""
        if not self.connected():
            return False
        try:
            await self.store.version()
        except Exception:
            log.exception("heartbeat: the database does not answer")
            return False
        info = {"time": time.time(), "shards": sorted(self.shards),
                "tables": self.manager.status().tables}
        partial = f"{path}.tmp"
        with open(partial, "w", encoding="utf-8") as out:
            json.dump(info, out)
        os.replace(partial, path)
        return True

    async def _heartbeat(self, path: str) -> None:
        # Until the first beat, look often, so a health check sees a new bot soon after it
        # connects; then beat at the pace the health check expects.
        while not self.is_closed():
            beaten = False
            try:
                beaten = await self.beat(path)
            except OSError:
                log.exception("heartbeat: cannot write %s", path)
            await asyncio.sleep(HEARTBEAT_SECONDS if beaten else CONNECT_POLL)

    def under_way(self) -> None:
        """The task answering an interaction (a command or a click, from any cog) counts as
        under way until it ends, a refusal's answer by the error handler included."""
        task = asyncio.current_task()
        if task is not None and task not in self.answering:
            self.answering.add(task)
            self.lane.click_began()
            task.add_done_callback(self._answered)

    def _answered(self, task: asyncio.Task[Any]) -> None:
        self.answering.discard(task)
        self.lane.click_ended()

    async def drain(self, timeout: float = DRAIN_SECONDS) -> None:
        """Let the interactions being answered finish, for up to ``timeout`` seconds (those
        that arrive meanwhile too): a stop waits for them before it stops the tables and
        closes the connection to Discord, so a move a person made just then is answered
        rather than cut off."""
        me = asyncio.current_task()
        deadline = asyncio.get_running_loop().time() + timeout
        if self.connected():  # what Discord sent just before the stop gets its task first
            await asyncio.sleep(ARRIVAL_GRACE)
        while True:
            pending = [task for task in self.answering if task is not me and not task.done()]
            left = deadline - asyncio.get_running_loop().time()
            if not pending or left <= 0:
                if pending:
                    log.warning("stopping with %d interactions still being answered",
                                len(pending))
                return
            await asyncio.wait(pending, timeout=left)

    async def close(self) -> None:
        """Stop, within :data:`STOP_SECONDS`: answer the interactions under way, stop computers
        and timers, bring the table messages up to date, disconnect, end the workers and
        close the database if the bot opened it (the tables stay stored). A second call waits
        for the first."""
        if self._stopping is None:
            self._stopping = asyncio.get_running_loop().create_task(self._stop())
        await asyncio.shield(self._stopping)

    async def __aexit__(self, *exc: object) -> None:
        """Leaving ``async with``: the whole stop, even when discord.py's own close (the last
        part of ours) has begun already."""
        await self.close()

    async def _stop(self) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + STOP_SECONDS
        if self._heartbeat_task is not None:
            self._heartbeat_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heartbeat_task
            if self.settings.heartbeat_path is not None:
                with contextlib.suppress(OSError):
                    os.remove(self.settings.heartbeat_path)
        if self.web is not None:  # its sockets close first: no move arrives from there now
            await self.web.stop()
        await self.drain()
        await self.tournaments.close()  # before the tables: no round opens as they stop
        await self.manager.close()
        for hook in self.before_disconnect:
            left = deadline - loop.time() - 1.0  # a second kept for the rest
            try:
                await asyncio.wait_for(hook(), max(0.1, left))
            except Exception as exc:  # a message left behind is refreshed on the next start
                log.warning("a stop step failed (%s)", type(exc).__name__,
                            extra=logs.failure(exc))
        await super().close()
        if self.budget is not None:
            self.budget.close()
        for kind, chosen in self.painters.items():
            if painter.current(kind) is chosen:
                painter.use(Painter(), kind)
            await chosen.close()
        if self.owns_store:
            await self.store.close()
