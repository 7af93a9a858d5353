"""The Discord client: one command tree with one error handler, the table manager, resume."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import games
from bot.config import Settings
from bot.i18n import Translator, lang_of, t
from bot.storage import Storage
from bot.tables import Refusal, RulesLookup, TableManager

log = logging.getLogger(__name__)


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


class Deckhand(commands.Bot):
    """Deckhand's bot: non-privileged intents, the table manager and the table cog."""

    def __init__(self, settings: Settings, store: Storage, rules_for: RulesLookup = games.get,
                 game_ids: Callable[[], list[str]] = games.ids) -> None:
        intents = discord.Intents.default()
        intents.message_content = False
        intents.members = False
        intents.presences = False
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         tree_cls=DeckhandTree, help_command=None)
        self.settings = settings
        self.store = store
        self.rules_for = rules_for
        self.game_ids = game_ids
        self.manager = TableManager(store, rules_for=rules_for, ai_delay=settings.ai_delay,
                                    timer_scale=settings.timer_scale,
                                    ai_level=settings.ai_level)

    @classmethod
    async def create(cls, settings: Settings) -> Deckhand:
        """A bot with its database opened."""
        store = await Storage.open(settings.db_path)
        return cls(settings, store)

    async def setup_hook(self) -> None:
        """Translations, the table cog, resumed tables, then the command sync."""
        await self.tree.set_translator(Translator(self.rules_for))
        from cogs.play import PlayCog

        cog = PlayCog(self)
        await self.add_cog(cog)
        await self.load_extension("cogs.stats")  # records, ratings, leaderboards, replays
        resumed = await self.manager.resume()
        if self.settings.dev_guild is not None:
            guild = discord.Object(self.settings.dev_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        cog.refresh_later(resumed)

    async def close(self) -> None:
        """Stop computers and timers, then disconnect (the tables stay stored)."""
        await self.manager.close()
        await super().close()
