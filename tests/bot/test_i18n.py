"""The bot's words come from the message catalogues: every message in English and Japanese
with the same fields, a Discord locale finds its language's folder, and a third language is a
folder of catalogues (partial ones falling back to English message by message)."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path
from typing import Any

import discord
import pytest
from babel.messages.pofile import read_po

from bot import i18n
from bot.client.translator import Translator
from games import wording
from tests.bot.sim_helpers import world

#: the bot's catalogue files (the cards' and the games' are other parts' and tested with them)
BOT_PARTS = ("bot", "commands", "hints", "learn", "results", "review", "rules", "stats",
             "status")
OTHER = discord.app_commands.TranslationContextLocation.other
CONTEXT: discord.app_commands.TranslationContext[Any, Any] = (
    discord.app_commands.TranslationContext(OTHER, None))  # type: ignore[call-overload]


def po(lang: str, entries: dict[str, str]) -> str:
    """A catalogue's text: its header, then ``entries`` (msgid: msgstr)."""
    head = (f'msgid ""\nmsgstr ""\n"Language: {lang}\\n"\n'
            '"Content-Type: text/plain; charset=UTF-8\\n"\n')
    return head + "".join(f'\nmsgid "{key}"\nmsgstr "{text}"\n' for key, text in entries.items())


def part_keys(lang: str, part: str) -> list[str]:
    with (wording.LOCALES / lang / f"{part}.po").open("rb") as handle:
        return [str(m.id) for m in read_po(handle) if m.id]


def translate(text: str, locale: discord.Locale, **extras: Any) -> Any:
    named = type("R", (), {"title": lambda self, lang: "ハイカード"})()
    return Translator(lambda game: named).translate(
        discord.app_commands.locale_str(text, **extras), locale, CONTEXT)


def test_every_bot_message_is_in_english_and_japanese_with_the_same_fields() -> None:
    english = wording.catalogue("en")
    japanese = wording.catalogue("ja")  # the catalogue itself: no fallback to English here
    keys = [key for part in BOT_PARTS for key in part_keys("en", part)]
    assert len(keys) > 350, "the bot's messages are in the catalogues"
    for key in keys:
        assert japanese.get(key, "").strip(), key
        assert i18n.fields(english[key]) == i18n.fields(japanese[key]), key
    assert [k for part in BOT_PARTS for k in part_keys("ja", part)] == keys, "same files, order"


def test_no_message_is_in_two_catalogue_files() -> None:
    """The catalogues of a language are read as one: a key twice would hide one text."""
    for lang in wording.languages():
        seen: dict[str, str] = {}
        for path in sorted((wording.LOCALES / lang).glob("*.po")):
            for key in part_keys(lang, path.stem):
                assert key not in seen, f"{lang}: {key} in {seen.get(key)} and {path.name}"
                seen[key] = path.name


def test_no_sentence_is_left_in_the_python_of_i18n() -> None:
    tree = ast.parse(inspect.getsource(i18n))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef,
                                       ast.ClassDef))
                  and node.body and isinstance(node.body[0], ast.Expr)}
    words = [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
             and isinstance(node.value, str) and id(node) not in docstrings
             and re.search(r"[^\W\d_]+\s+[^\W\d_]+", node.value)]
    assert words == []


def test_every_refusal_of_the_table_manager_has_a_sentence() -> None:
    from bot import tables
    from bot.tables import computers, finish, hints, lobby, model, registry, turns
    source = "".join(inspect.getsource(m) for m in (
        computers, finish, hints, lobby, model, registry, tables, turns))
    keys = set(re.findall(r'Refusal\("([a-z-]+)"', source))
    assert keys, "the table manager raises refusals"
    assert keys <= set(wording.catalogue("en")) & set(wording.catalogue("ja"))


@pytest.mark.parametrize(("locale", "lang"), [
    (discord.Locale.japanese, "ja"), (discord.Locale.american_english, "en"),
    (discord.Locale.british_english, "en"), ("ja", "ja"), ("JA-jp", "ja"), ("fr", "en"),
    (discord.Locale.spain_spanish, "en"), (None, "en"), ("", "en"), ("../ja", "en")])
def test_locale_picks_the_language_that_has_catalogues(locale: object, lang: str) -> None:
    assert i18n.lang_of(locale) == lang


def test_sentences_fill_their_fields() -> None:
    assert i18n.t("table-full", "en", most=4) == "The table is full (4 players at most)."
    assert i18n.t("table-full", "ja", most=4) == "卓は満席です（最大 4 人）。"
    assert i18n.t("no-such-message", "ja") == "no-such-message"


def test_plural_forms_follow_each_language() -> None:
    assert i18n.plural("st-partner", 1, "en", name="Bob", games=1) == "Bob (1 game)"
    assert i18n.plural("st-partner", 0, "en", name="Bob", games=0) == "Bob (0 games)"
    assert i18n.plural("st-partner", 1, "ja", name="Bob", games=1) == "Bob（1 局）"
    assert i18n.plural("rs-bear-failed", "early", "en") == "failed"  # not a number: one form


def test_move_words_never_show_the_rules_internal_name() -> None:
    assert i18n.move_word("exchange", "ja") == "交換"
    assert i18n.move_word("take", "en") == "your move"


async def test_command_names_and_descriptions_are_translated_from_the_catalogues() -> None:
    ja = discord.Locale.japanese
    assert await translate("Open a table for a card game in this channel", ja) == (
        "このチャンネルでカードゲームの卓を開く")
    assert await translate("status", ja) == "status"
    assert await translate("Open a table for a card game in this channel",
                           discord.Locale.french) is None
    assert await translate("Open a table for a card game in this channel",
                           discord.Locale.american_english) is None
    assert await translate("High card", ja, game="high-card") == "ハイカード"
    assert await translate("A text no catalogue has", ja) is None


async def test_every_synced_command_string_has_its_japanese(tmp_path: Path) -> None:
    """Each command's name and description, and each of its options', found in the
    catalogues: a command declared with a text the catalogue lacks fails here."""
    async with world(tmp_path, people=1) as w:
        commands = w.sim.commands()
    assert len(commands) >= 10

    def check(item: dict[str, Any], where: str) -> None:
        assert (item.get("name_localizations") or {}).get("ja"), f"{where}: name"
        if item.get("description"):
            assert (item.get("description_localizations") or {}).get("ja"), f"{where}: text"
        for option in item.get("options") or []:
            check(option, f"{where} {option['name']}")
        for choice in item.get("choices") or []:
            assert (choice.get("name_localizations") or {}).get("ja"), f"{where}: choice"

    for command in commands:
        check(command, "/" + command["name"])


async def test_a_third_language_is_a_folder_of_catalogues(locales: Path) -> None:
    """French, partly translated: its locale finds it, its messages are French where they
    are translated and English elsewhere, in the bot's sentences and its commands alike."""
    folder = locales / "fr"
    folder.mkdir()
    (folder / "bot.po").write_text(po("fr", {
        "table-full": "La table est complète ({most} joueurs au plus).",
        "join": "Rejoindre",
    }), encoding="utf-8")
    (folder / "stats.po").write_text(po("fr", {
        "st-partner": "{name} ({games} parties)",
        "st-partner-one": "{name} ({games} partie)",
    }), encoding="utf-8")
    (folder / "commands.po").write_text(po("fr", {
        "cmd-play-about": "Ouvrir une table de jeu de cartes dans ce salon",
    }), encoding="utf-8")
    assert i18n.lang_of(discord.Locale.french) == "fr"
    assert i18n.lang_of("fr") == "fr"
    assert i18n.lang_of(discord.Locale.spain_spanish) == "en"  # no Spanish folder
    assert i18n.t("table-full", "fr", most=4) == "La table est complète (4 joueurs au plus)."
    assert i18n.t("join", "fr") == "Rejoindre"
    assert i18n.t("leave", "fr") == "Leave"  # not translated yet: English
    # French says 'one' of 0 and 1 (CLDR), English only of 1
    assert i18n.plural("st-partner", 0, "fr", name="Bob", games=0) == "Bob (0 partie)"
    assert i18n.plural("st-partner", 2, "fr", name="Bob", games=2) == "Bob (2 parties)"
    assert i18n.plural("st-forget-done", 1, "fr", count=1) == (
        "Done: 1 game record of yours was removed.")  # English, in English's forms
    assert await translate("Open a table for a card game in this channel",
                           discord.Locale.french) == (
        "Ouvrir une table de jeu de cartes dans ce salon")
    assert await translate("List the games I can host", discord.Locale.french) is None
    assert await translate("Open a table for a card game in this channel",
                           discord.Locale.japanese) == "このチャンネルでカードゲームの卓を開く"


def test_a_regional_locale_finds_its_folder_before_the_language(locales: Path) -> None:
    (locales / "es").mkdir()
    (locales / "es" / "bot.po").write_text(po("es", {"join": "Unirse"}), encoding="utf-8")
    assert i18n.lang_of(discord.Locale.spain_spanish) == "es"  # 'es-ES'
    assert i18n.lang_of(discord.Locale.latin_american_spanish) == "es"  # 'es-419'
    (locales / "pt-BR").mkdir()
    (locales / "pt-BR" / "bot.po").write_text(po("pt-BR", {"join": "Entrar"}),
                                              encoding="utf-8")
    wording.forget()  # the folders are looked up once: a language added is read at start
    assert i18n.lang_of(discord.Locale.brazil_portuguese) == "pt-BR"
    assert i18n.lang_of("pt-br") == "pt-BR"
    assert i18n.lang_of("pt-PT") == "en"  # no Portuguese folder but the Brazilian one
    assert i18n.t("join", i18n.lang_of(discord.Locale.brazil_portuguese)) == "Entrar"
