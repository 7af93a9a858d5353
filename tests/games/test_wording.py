"""The message catalogues (games/locales): every language has every message, with the same
fields; a language with a partial catalogue falls back to English message by message."""

from __future__ import annotations

from pathlib import Path

from games import wording
from games.cards import parse


def test_every_language_has_every_message() -> None:
    english = set(wording.keys("en"))
    assert english, "no English catalogue"
    for lang in wording.languages():
        missing = english - set(wording.keys(lang))
        assert not missing, f"{lang} lacks {sorted(missing)[:20]}"
        extra = set(wording.keys(lang)) - english
        assert not extra, f"{lang} has messages English lacks: {sorted(extra)[:20]}"


def test_every_translation_fills_the_same_fields() -> None:
    for lang in wording.languages():
        for key in wording.keys(lang):
            assert wording.fields(wording.template(key, lang)) == wording.fields(
                wording.template(key, "en")), f"{lang} {key}"


def test_a_third_language_is_one_catalogue_and_falls_back_to_english(locales: Path) -> None:
    folder = locales / "fr"
    folder.mkdir()
    (folder / "cards.po").write_text(
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "suit-H"\nmsgstr "cœurs"\n', encoding="utf-8")
    assert "fr" in wording.languages()
    assert wording.text("suit-H", "fr") == "cœurs"
    assert wording.text("suit-S", "fr") == "spades"  # not translated yet: English
    assert wording.has("suit-S", "fr")


def test_a_message_missing_everywhere_shows_its_key() -> None:
    assert wording.text("no-such-message", "ja") == "no-such-message"


def test_cards_and_messages_in_fields_are_worded_in_the_readers_language() -> None:
    assert wording.word(parse("TS"), "en") == "10♠"
    assert wording.word([parse("TS"), parse("JH")], "ja") == "10♠ J♥"
    assert wording.word(wording.msg("suit-H"), "ja") == "ハート"
    assert wording.word(3, "en") == 3
