"""The bot's words in each person's language.

Every sentence is in the message catalogues (``games/locales/<lang>/*.po``, read by
:mod:`games.wording`): ``bot.po`` for the table messages, ``commands.po`` for the slash
commands, ``stats.po``, ``results.po``, ``hints.po``, ``learn.po``, ``review.po``, ``rules.po``
and ``status.po`` for their parts. This module picks the language of a Discord locale and fills
a message; it holds no sentence itself.

Private replies use the clicking user's locale; public table messages use the server's. A
language is a folder of catalogues: a Discord locale finds it by its name ('fr', or 'pt-BR' /
'pt_BR' before 'pt'), and everything else is English.

The table service words its messages here, so this module does not import discord.py (nor
aiohttp): the service stays Discord-free (tests/bot/test_service_imports.py). The slash
commands' translator, which only the Discord client needs, is :mod:`bot.client.translator`.
"""

from __future__ import annotations

import functools
import re
from decimal import Decimal
from typing import Any

from babel import Locale, UnknownLocaleError

from games import wording

#: the languages that had catalogues when the bot started, English first
LANGS = wording.languages()
#: the shape of a language tag ('ja', 'en-US', 'pt_BR'): nothing else is looked for on disk
_TAG = re.compile(r"([A-Za-z]{2,3})(?:[-_]([A-Za-z0-9]{2,8}))?")


def lang_of(locale: object) -> str:
    """The language of a Discord locale (a discord.Locale, whose ``value`` is its tag, or the
    tag as text): the one whose catalogues it names ('ja', 'es-ES' → 'es' when there is an
    'es' folder), else English. Read by its value, not its type, so discord.py stays out."""
    value = str(getattr(locale, "value", locale) or "")
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
