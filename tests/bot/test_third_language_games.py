"""Adding a language is adding a folder (#49 item 5): a tiny French catalogue naming one game
and one of its options is enough for every front end to word that game in French — the table
message, the position's picture, the web page's model, the terminal, /games, /rules and the
slash commands' game choices — with English for every message French lacks."""

from __future__ import annotations

import json
from pathlib import Path

import discord
import pytest

import games
from bot.client.translator import Translator
from bot.pictures.scenes import scene_for
from bot.terminal import BadCommand, _engine_value
from bot.web.auth import lang_of_locale
from bot.web.model import table_model
from bot.web.viewers import client_words
from games import wording
from tests.bot.sim_helpers import world
from tests.bot.test_e2e_games import open_table

FRENCH_NAME = "L'Ours"
FRENCH_DEALS = "Nombre de donnes dans une partie."
ENGLISH_TARGET = "A player reaching this total ends the game."  # not translated: English


def french(locales: Path) -> None:
    """The tiny catalogue: Bear's name and its 'deals' option's help, nothing else."""
    folder = locales / "fr"
    folder.mkdir()
    (folder / "game_text.po").write_text(
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        f'\nmsgid "game-name-bear"\nmsgstr "{FRENCH_NAME}"\n'
        f'\nmsgid "game-option-bear-deals"\nmsgstr "{FRENCH_DEALS}"\n', encoding="utf-8")
    wording.forget()


def test_the_rules_word_a_game_in_any_language_with_a_catalogue(locales: Path) -> None:
    french(locales)
    bear = games.get("bear")
    assert "fr" in wording.languages()
    assert bear.title("fr") == FRENCH_NAME and bear.title("en") == bear.name == "Bear"
    assert bear.title("ja") == "ベア"
    assert bear.option_help("deals", "fr") == FRENCH_DEALS
    assert bear.option_help("target", "fr") == ENGLISH_TARGET
    assert bear.summary("fr") == bear.summary("en")  # no French summary: the English one
    assert games.get("spar").title("fr") == "Spar"  # another game: its English name
    described = {d["name"]: d["help"] for d in bear.describe_options()}
    assert described["deals"]["fr"] == FRENCH_DEALS
    assert described["target"] == {"en": ENGLISH_TARGET, "fr": ENGLISH_TARGET,
                                   "ja": bear.option_help("target", "ja")}
    # the picture of a position, the terminal and the web page's language choice
    view = bear.new_game(3, seed=1).view(None).to_dict()
    assert scene_for(view, ["A", "B", "C"], "fr").title == FRENCH_NAME
    with pytest.raises(BadCommand, match=FRENCH_NAME):
        _engine_value(bear, "nothing", "1", 3, "fr")
    assert lang_of_locale("fr") == "fr" and lang_of_locale("de") == "en"
    assert client_words("fr") == client_words("en")  # the page's own words: English for now


async def test_the_slash_commands_name_the_game_in_the_new_language(locales: Path) -> None:
    french(locales)
    translator = Translator(games.get)
    name = discord.app_commands.locale_str("Bear", game="bear")
    context = discord.app_commands.TranslationContext(
        discord.app_commands.TranslationContextLocation.choice_name, None)
    assert await translator.translate(name, discord.Locale.french, context) == FRENCH_NAME
    assert await translator.translate(name, discord.Locale.japanese, context) == "ベア"


async def test_every_front_end_shows_the_new_languages_game_name(
        locales: Path, tmp_path: Path) -> None:
    french(locales)
    async with world(tmp_path, people=1, locale="fr") as w:
        alice = w.users[0]
        # /games and /rules answer in the asker's language
        r = await w.sim.slash(alice, w.channel, "games", {}, locale="fr")
        assert r.message is not None
        listed = r.message.embeds[0]
        assert listed["title"] == "Games"  # not translated: English
        assert f"**{FRENCH_NAME}** (`bear`)" in listed["description"]
        assert "**Spar** (`spar`)" in listed["description"]
        r = await w.sim.slash(alice, w.channel, "rules", {"game": "bear"}, locale="fr")
        assert r.message is not None
        (embed,) = r.message.embeds
        assert embed["title"] == f"{FRENCH_NAME}: rules"
        assert FRENCH_DEALS in embed["description"] and ENGLISH_TARGET in embed["description"]
        # the table message, in the server's language
        table = await open_table(w, "bear", [alice], 3, {})
        shown = json.dumps(table.embeds, ensure_ascii=False) + table.content
        assert FRENCH_NAME in shown and "Bear" not in shown
        assert "Scores, in seat order" in shown  # not translated: English
        # the web page's model of the same table
        position = await w.bot.manager.position(1)
        model = table_model(position, "fr")
        assert model["title"] == FRENCH_NAME
        assert model["scene"]["title"] == FRENCH_NAME
        assert table_model(position, "en")["title"] == "Bear"
