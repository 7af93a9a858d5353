"""The admin cog for server managers: ``/status`` (tables, latency, shards, version, uptime)
and ``/limits`` (the server's caps on open tables per channel and per person)."""

from __future__ import annotations

import functools
import importlib.metadata
import math
import os
import subprocess
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.client.deckhand import shard_of
from bot.config import db_backend
from bot.i18n import lang_of, t
from bot.tables import TABLES_PER_CHANNEL_MOST, TABLES_PER_PERSON_MOST, Refusal

if TYPE_CHECKING:
    from bot.client.deckhand import Deckhand

Interaction = discord.Interaction[Any]


@functools.cache
def version() -> str:
    """The package version and, when known, the commit: ``0.1.0 (1a2b3c4)``.

    The commit comes from ``DECKHAND_COMMIT`` (set when the container image is built) or,
    in a checkout, from git.
    """
    try:
        number = importlib.metadata.version("deckhand")
    except importlib.metadata.PackageNotFoundError:
        number = "unknown"
    commit = os.environ.get("DECKHAND_COMMIT", "").strip()
    if not commit:
        try:
            done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                  text=True, timeout=5, check=False,
                                  cwd=Path(__file__).resolve().parent.parent)
            commit = done.stdout.strip() if done.returncode == 0 else ""
        except (OSError, subprocess.SubprocessError):
            commit = ""
    return f"{number} ({commit[:12]})" if commit else number


def uptime_text(seconds: float) -> str:
    """``3 d 04:05:06`` or ``04:05:06``."""
    whole = int(max(0.0, seconds))
    days, rest = divmod(whole, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    clock = f"{hours:02d}:{minutes:02d}:{secs:02d}"
    return f"{days} d {clock}" if days else clock


class AdminCog(commands.Cog):
    """Commands for the people who run a server."""

    def __init__(self, bot: Deckhand) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Find the version once, off the event loop (it may ask git)."""
        import asyncio

        await asyncio.to_thread(version)

    @app_commands.command(name=locale_str("status"),
                          description=locale_str("How Deckhand is running: tables, latency, "
                                                 "version"))
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def status(self, interaction: Interaction) -> None:
        """/status: an ephemeral summary of this process and this server."""
        self.bot.under_way()
        await interaction.response.send_message(embed=self.status_embed(interaction),
                                                ephemeral=True)

    @app_commands.command(name=locale_str("limits"),
                          description=locale_str("How many open tables this server allows per "
                                                 "channel and per person"))
    @app_commands.rename(per_channel=locale_str("per-channel"),
                         per_person=locale_str("per-person"))
    @app_commands.describe(per_channel=locale_str("Open tables a channel may hold"),
                           per_person=locale_str("Open tables a person may sit at"))
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def limits(
        self, interaction: Interaction,
        per_channel: app_commands.Range[int, 1, TABLES_PER_CHANNEL_MOST] | None = None,
        per_person: app_commands.Range[int, 1, TABLES_PER_PERSON_MOST] | None = None,
    ) -> None:
        """/limits: the server's caps on open tables, shown, or changed when given (the
        command is for managers; the service checks the numbers again)."""
        self.bot.under_way()
        lang = lang_of(interaction.locale)
        guild_id = interaction.guild_id
        if guild_id is None:  # guild_only: Discord offers it in servers alone
            return
        manager = self.bot.manager
        try:
            if per_channel is None and per_person is None:
                key, settings = "limits-now", await manager.limits(guild_id)
            else:
                key, settings = "limits-set", await manager.set_limits(guild_id, per_channel,
                                                                       per_person)
        except Refusal as refusal:
            await interaction.response.send_message(refusal.text(lang), ephemeral=True)
            return
        await interaction.response.send_message(
            t(key, lang, per_channel=settings.tables_per_channel,
              per_person=settings.tables_per_person), ephemeral=True)

    def status_embed(self, interaction: Interaction) -> discord.Embed:
        """The /status embed in the reader's language."""
        lang = lang_of(interaction.locale)
        bot = self.bot
        guild_id = interaction.guild_id
        figures = bot.manager.status(guild_id)
        latency = bot.latency
        latency_text = ("—" if math.isnan(latency) or math.isinf(latency)
                        else t("ad-ms", lang, ms=round(latency * 1000)))
        count = bot.shard_count or 1
        mine = sorted(bot.shards) or list(bot.shard_ids or [0])
        embed = discord.Embed(title=t("ad-title", lang))
        embed.add_field(name=t("ad-tables", lang), inline=False, value=t(
            "ad-tables-value", lang, here=figures.here, here_playing=figures.here_playing,
            process=figures.tables, playing=figures.playing))
        embed.add_field(name=t("ad-latency", lang), value=latency_text)
        embed.add_field(name=t("ad-uptime", lang),
                        value=uptime_text(time.monotonic() - bot.started))
        embed.add_field(name=t("ad-shards", lang), inline=False, value=t(
            "ad-shards-value", lang, shard=shard_of(guild_id, count),
            ids=", ".join(str(i) for i in mine), count=count))
        computers = figures.computers
        if computers is not None:
            embed.add_field(name=t("ad-computers", lang), inline=False, value=t(
                "ad-computers-behind" if computers.behind else "ad-computers-value", lang,
                searching=computers.searching, waiting=computers.waiting,
                moves=computers.behind))
        embed.add_field(name=t("ad-version", lang), value=version())
        embed.add_field(name=t("ad-db", lang), value=db_backend(bot.settings.db_path))
        return embed


async def setup(bot: Deckhand) -> None:
    """Extension entry point."""
    await bot.add_cog(AdminCog(bot))
