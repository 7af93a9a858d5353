"""The Discord client: one command tree with one error handler, the table manager, resume."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import time
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import games
from bot import logs
from bot.config import Settings
from bot.health import HEARTBEAT_SECONDS
from bot.i18n import Translator, lang_of, t
from bot.render import painter
from bot.render.painter import Painter
from bot.storage import Storage
from bot.tables import Refusal, RulesLookup, TableManager

log = logging.getLogger(__name__)

#: how much lower the table pictures' workers run than the bot: nobody waits on a redraw of
#: the public table the way a click waits for its answer, so a busy core goes to the bot first
TABLE_PICTURE_NICE = 10

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


async def reply(interaction: discord.Interaction[Any], text: str) -> None:
    """An ephemeral sentence, as the response or, once answered, as a followup."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


def refusal_text(error: BaseException, locale: object) -> str:
    """The sentence for a refusal, or the generic apology for anything else."""
    lang = lang_of(locale)
    if isinstance(error, Refusal):
        return t(error.key, lang, **error.params)
    return t("error", lang)


class DeckhandTree(app_commands.CommandTree[Any]):
    """The command tree: every command error ends as one ephemeral sentence."""

    async def on_error(self, interaction: discord.Interaction[Any],
                       error: app_commands.AppCommandError) -> None:
        """Answer a failed command with a sentence saying why."""
        cause: BaseException = error
        if isinstance(error, app_commands.CommandInvokeError):
            cause = error.original
        if not isinstance(cause, Refusal):
            log.error("command %s failed", interaction.command and interaction.command.name,
                      exc_info=cause)
        try:
            await reply(interaction, refusal_text(cause, interaction.locale))
        except discord.HTTPException:
            log.warning("could not tell a user why their command failed")


class Deckhand(commands.AutoShardedBot):
    """Deckhand's bot: non-privileged intents, the table manager and the table cog.

    Sharded: ``settings.shard_ids``/``shard_count`` run a slice of the bot's shards (None:
    every shard, as many as Discord recommends). A process resumes and serves only the
    tables of guilds on its own shards.
    """

    #: seconds between two shards' IDENTIFYs (Discord allows one per 5 s per bucket)
    identify_pause = 5.0

    def __init__(self, settings: Settings, store: Storage, rules_for: RulesLookup = games.get,
                 game_ids: Callable[[], list[str]] = games.ids) -> None:
        # Only guilds (the names a DM gives, the channels tables sit in): interactions come
        # without any intent, and the messages, reactions and typing of the default intents
        # would be events the bot throws away, one for every message in every channel.
        intents = discord.Intents.none()
        intents.guilds = True
        sharding: dict[str, Any] = {"shard_count": settings.shard_count}
        if settings.shard_ids is not None:  # a slice; otherwise every shard of the count
            sharding["shard_ids"] = list(settings.shard_ids)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         tree_cls=DeckhandTree, help_command=None, **sharding)
        self.settings = settings
        self.started = time.monotonic()
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
                                    ai_workers=settings.ai_workers)
        #: draw the pictures: tables in ``render_workers`` processes, hands in one of their own
        #: (threads with ``render_workers=0``)
        self.painters = {"table": Painter(settings.render_workers, nice=TABLE_PICTURE_NICE),
                         "hand": Painter(min(1, settings.render_workers))}

    @classmethod
    async def create(cls, settings: Settings) -> Deckhand:
        """A bot with its database opened."""
        store = await Storage.open(settings.db_path)
        return cls(settings, store)

    async def setup_hook(self) -> None:
        """Pictures' workers, translations, the table cog, resumed tables, then the command
        sync."""
        for kind, chosen in self.painters.items():
            await chosen.start()
            painter.use(chosen, kind)
        await self.tree.set_translator(Translator(self.rules_for))
        from cogs.play import PlayCog

        cog = PlayCog(self)
        await self.add_cog(cog)
        await self.load_extension("cogs.stats")  # records, ratings, leaderboards, replays
        await self.load_extension("cogs.admin")  # /status
        resumed = await self.manager.resume(owns=self.owns_guild)
        if self.settings.dev_guild is not None:
            guild = discord.Object(self.settings.dev_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        cog.refresh_later(resumed)
        beat_path = self.settings.heartbeat_path
        if beat_path is not None:
            self._heartbeat_task = asyncio.create_task(self._heartbeat(beat_path))

    def owns_guild(self, guild_id: int) -> bool:
        """Whether this process runs the shard of a guild (always, without a shard slice)."""
        ids, count = self.settings.shard_ids, self.settings.shard_count
        return ids is None or count is None or shard_of(guild_id, count) in ids

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Wait ``identify_pause`` seconds before each IDENTIFY but the first."""
        if not initial and self.identify_pause > 0:
            await asyncio.sleep(self.identify_pause)

    async def on_shard_ready(self, shard_id: int) -> None:
        """Log each shard as it becomes ready."""
        log.info("shard ready", extra={"shard": shard_id})

    async def on_shard_disconnect(self, shard_id: int) -> None:
        """Log each shard as it loses its connection."""
        log.info("shard disconnected", extra={"shard": shard_id})

    def connected(self) -> bool:
        """True while the bot is ready and every shard of this process is connected."""
        if not self.is_ready() or self.is_closed():
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
                "tables": len(self.manager.tables)}
        partial = f"{path}.tmp"
        with open(partial, "w", encoding="utf-8") as out:
            json.dump(info, out)
        os.replace(partial, path)
        return True

    async def _heartbeat(self, path: str) -> None:
        await self.wait_until_ready()
        while not self.is_closed():
            try:
                await self.beat(path)
            except OSError:
                log.exception("heartbeat: cannot write %s", path)
            await asyncio.sleep(HEARTBEAT_SECONDS)

    def under_way(self) -> None:
        """The task answering an interaction (a command or a click, from any cog) counts as
        under way until it ends, a refusal's answer by the error handler included."""
        task = asyncio.current_task()
        if task is not None and task not in self.answering:
            self.answering.add(task)
            task.add_done_callback(self.answering.discard)

    async def drain(self, timeout: float = 5.0) -> None:
        """Let the interactions being answered finish, for up to ``timeout`` seconds: a
        shutdown waits for them before it stops the tables and closes the connection to
        Discord, so a move a person made just then is answered rather than cut off."""
        me = asyncio.current_task()
        pending = [task for task in self.answering if task is not me and not task.done()]
        if pending:
            await asyncio.wait(pending, timeout=timeout)

    async def close(self) -> None:
        """Answer the interactions under way, stop computers and timers, then disconnect (the
        tables stay stored)."""
        if self._heartbeat_task is not None:
            self._heartbeat_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heartbeat_task
            if self.settings.heartbeat_path is not None:
                with contextlib.suppress(OSError):
                    os.remove(self.settings.heartbeat_path)
        await self.drain()
        await self.manager.close()
        await super().close()
        for kind, chosen in self.painters.items():
            if painter.current(kind) is chosen:
                painter.use(Painter(), kind)
            await chosen.close()
