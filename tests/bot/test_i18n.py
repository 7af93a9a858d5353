"""Every sentence exists in English and Japanese with the same fields."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot import i18n


def test_every_sentence_has_both_languages_with_the_same_fields() -> None:
    english, japanese = i18n.MESSAGES["en"], i18n.MESSAGES["ja"]
    assert set(english) == set(japanese)
    for key, text in english.items():
        assert japanese[key].strip(), key
        assert i18n.fields(text) == i18n.fields(japanese[key]), key


def test_every_refusal_of_the_table_manager_has_a_sentence() -> None:
    import inspect
    import re

    from bot import computers, finish, hints, lobby, model, registry, tables, turns

    source = "".join(inspect.getsource(m) for m in (
        computers, finish, hints, lobby, model, registry, tables, turns))
    keys = set(re.findall(r'Refusal\("([a-z-]+)"', source))
    assert keys, "the table manager raises refusals"
    assert keys <= set(i18n.MESSAGES["en"])


@pytest.mark.parametrize(("locale", "lang"), [
    (discord.Locale.japanese, "ja"), (discord.Locale.american_english, "en"),
    ("ja", "ja"), ("fr", "en"), (None, "en")])
def test_locale_picks_the_language(locale: object, lang: str) -> None:
    assert i18n.lang_of(locale) == lang


def test_sentences_fill_their_fields() -> None:
    assert i18n.t("table-full", "en", most=4) == "The table is full (4 players at most)."
    assert "4" in i18n.t("table-full", "ja", most=4)


async def test_command_descriptions_are_translated_to_japanese() -> None:
    translator = i18n.Translator()
    text = discord.app_commands.locale_str("Open a table for a card game in this channel")
    other = discord.app_commands.TranslationContextLocation.other
    ctx: discord.app_commands.TranslationContext[Any, Any] = (
        discord.app_commands.TranslationContext(other, None))  # type: ignore[call-overload]
    ja = await translator.translate(text, discord.Locale.japanese, ctx)
    assert ja == "このチャンネルでカードゲームの卓を開く"
    assert await translator.translate(text, discord.Locale.french, ctx) is None
