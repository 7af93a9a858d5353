"""The bot's words in each person's language, and discord.py's command translator.

Every sentence is in the message catalogues (``games/locales/<lang>/*.po``, read by
:mod:`games.wording`): ``bot.po`` for the table messages, ``commands.po`` for the slash
commands, ``stats.po``, ``results.po``, ``hints.po``, ``learn.po``, ``review.po``, ``rules.po``
and ``status.po`` for their parts. This module picks the language of a Discord locale and fills
a message; it holds no sentence itself.

Private replies use the clicking user's locale; public table messages use the server's. A
language is a folder of catalogues: a Discord locale finds it by its name ('fr', or 'pt-BR' /
'pt_BR' before 'pt'), and everything else is English.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import discord
from babel import Locale, UnknownLocaleError
from discord import app_commands

from games import wording

#: the languages that had catalogues when the bot started, English first
LANGS = wording.languages()
#: the shape of a language tag ('ja', 'en-US', 'pt_BR'): nothing else is looked for on disk
_TAG = re.compile(r"([A-Za-z]{2,3})(?:[-_]([A-Za-z0-9]{2,8}))?")
#: what the catalogue keys of the slash commands' names and descriptions start with
COMMAND_PREFIX = "cmd-"


def lang_of(locale: object) -> str:
    """The language of a Discord locale (a discord.Locale or its text): the one whose
    catalogues it names ('ja', 'es-ES' → 'es' when there is an 'es' folder), else English."""
    value = locale.value if isinstance(locale, discord.Locale) else str(locale or "")
    found = _TAG.fullmatch(value.strip())
    if found is None:
        return wording.DEFAULT
    base, region = found.group(1).lower(), found.group(2)
    if region and len(region) == 2:  # a country, written as the folders write it: 'pt-BR'
        region = region.upper()
    names = [f"{base}{sep}{region}" for sep in ("-", "_")] if region else []
    for name in (*names, base):
        if name == wording.DEFAULT or wording.has_language(name):
            return name
    return wording.DEFAULT


def t(key: str, lang: str = wording.DEFAULT, **params: Any) -> str:
    """The sentence ``key`` in ``lang`` (English when missing) with its fields filled."""
    return wording.text(key, lang, **params)


def fields(text: str) -> set[str]:
    """The ``{names}`` a sentence fills in."""
    return wording.fields(text)


def move_word(kind: str, lang: str = wording.DEFAULT) -> str:
    """A kind of move in words ('exchange'), never the rules' internal name."""
    key = f"move-{kind}"
    return t(key if wording.has(key) else "move-any", lang)


def plural(key: str, number: object, lang: str = wording.DEFAULT, /, **params: Any) -> str:
    """The sentence ``key`` for a count, in the form its language uses for that number:
    ``key-one`` where the number's plural category is 'one' (English: exactly 1) and the
    catalogue has that form, else ``key`` (Japanese has a single form). A message not yet
    translated is English, and so are its forms."""
    shown = lang if key in wording.catalogue(lang) else wording.DEFAULT
    form = plural_form(number, shown)
    if form != "other" and f"{key}-{form}" in wording.catalogue(shown):
        key = f"{key}-{form}"
    return t(key, lang, **params)


def plural_form(number: object, lang: str) -> str:
    """The CLDR plural category of ``number`` in ``lang`` ('one', 'few', 'other', ...);
    'other' for something that is not a number or a language Babel does not know."""
    try:
        value = number if isinstance(number, (int, float, Decimal)) else Decimal(str(number))
        return str(_locale(lang).plural_form(value))
    except (ArithmeticError, TypeError, ValueError, UnknownLocaleError):
        return "other"


@functools.cache
def _locale(lang: str) -> Locale:
    return Locale.parse(lang.replace("-", "_"))


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
        """A game's name in ``lang``, from its rules (None: its English name)."""
        if self.rules_for is None or lang != "ja":  # the rules name games in Japanese only
            return None
        try:
            return str(self.rules_for(game).name_ja)
        except KeyError:
            return None
