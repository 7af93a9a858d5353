"""discord.py's command translator: the slash commands' names and descriptions in each
language that has catalogues.

This is the Discord client's part of the bot's words, kept apart from :mod:`bot.i18n` so that
the table service words its messages without loading discord.py (the service is Discord-free:
tests/bot/test_service_imports.py). Every text comes from the ``commands.po`` catalogues.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

from bot.i18n import lang_of
from games import wording

#: what the catalogue keys of the slash commands' names and descriptions start with
COMMAND_PREFIX = "cmd-"


def command_key(english: str) -> str | None:
    """The catalogue key of a command's name or description, found by its English text (the
    text the command is declared with, discord.py's ``locale_str``)."""
    for key, text in wording.catalogue(wording.DEFAULT).items():
        if key.startswith(COMMAND_PREFIX) and text == english:
            return key
    return None


class Translator(app_commands.Translator):
    """discord.py's translator: command names and descriptions from the catalogues, games by
    name, in every language that has catalogues (None: Discord shows the English)."""

    def __init__(self, rules_for: Callable[[str], Any] | None = None) -> None:
        super().__init__()
        self.rules_for = rules_for

    async def translate(
        self, text: app_commands.locale_str, locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The text of a command string in ``locale``'s language, or None to keep the
        English (English itself, or a message that language has not translated yet)."""
        lang = lang_of(locale)
        if lang == wording.DEFAULT:
            return None
        game = text.extras.get("game")
        if game is not None:
            return self.game_name(game, lang)
        key = command_key(text.message)
        if key is None:
            return None
        return wording.catalogue(lang).get(key)

    def game_name(self, game: str, lang: str) -> str | None:
        """A game's name in ``lang``, from the catalogues (English where that language has
        not named it yet; None for a game the registry does not have)."""
        if self.rules_for is None:
            return None
        try:
            return str(self.rules_for(game).title(lang))
        except KeyError:
            return None
