"""Every failed start of the real ``python -m bot`` ends promptly, closes what it opened, and
says why in one log line (the configured format) with the fix, and a non-zero status."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.bot.realbot import WRONG_TOKEN, RealBot
from tests.discord_sim import SimulatedDiscord

#: seconds within which a failed start must have ended (it hung forever before)
PROMPT = 20.0


def one_sentence(bot: RealBot, *words: str) -> str:
    """The one ERROR line's event, checked: it names ``words``, ends as a sentence, and no
    traceback was printed anywhere."""
    errors = bot.errors()
    assert len(errors) == 1, bot.stderr
    event = str(errors[0]["event"])
    for word in words:
        assert word in event, event
    assert event.endswith("."), event
    assert "error" not in errors[0]  # no trace: the sentence says it all
    assert not any("Traceback" in line for line in bot.stderr), bot.stderr
    return event


async def test_unreachable_discord_ends_with_a_sentence(tmp_path: Path) -> None:
    bot = RealBot(tmp_path, None)
    status, seconds = await bot.run(PROMPT)
    assert status == 1, bot.stderr
    assert seconds < PROMPT
    one_sentence(bot, "Discord cannot be reached", "network")
    assert all(isinstance(json.loads(line), dict) for line in bot.stderr)  # every line JSON


async def test_a_rejected_token_ends_with_a_sentence_naming_the_readme_command(
        tmp_path: Path) -> None:
    async with SimulatedDiscord() as sim:
        bot = RealBot(tmp_path, sim, DISCORD_TOKEN=WRONG_TOKEN)
        status, seconds = await bot.run(PROMPT)
    assert status == 2, bot.stderr
    assert seconds < PROMPT
    event = one_sentence(bot, "Discord refused the bot's token",
                         "DISCORD_TOKEN=… bash scripts/run-bot")
    assert WRONG_TOKEN not in "\n".join(bot.stderr)
    assert "deckhand" not in event.replace("scripts/run-bot", "")


async def test_a_rejected_token_in_text_format_is_one_logfmt_line(tmp_path: Path) -> None:
    async with SimulatedDiscord() as sim:
        bot = RealBot(tmp_path, sim, DISCORD_TOKEN=WRONG_TOKEN, DECKHAND_LOG_FORMAT="text")
        status, _ = await bot.run(PROMPT)
    assert status == 2
    [line] = [x for x in bot.stderr if "level=ERROR" in x]
    assert line.startswith("time=") and 'event="Discord refused the bot\'s token' in line
    assert not any("Traceback" in x for x in bot.stderr)


async def test_an_unreachable_database_ends_with_a_sentence_without_its_password(
        tmp_path: Path) -> None:
    bot = RealBot(tmp_path, None,
                  DECKHAND_DB="postgresql://deckhand:hunter2secret@127.0.0.1:9/deckhand")
    status, seconds = await bot.run(PROMPT)
    assert status == 1, bot.stderr
    assert seconds < PROMPT
    event = one_sentence(bot, "PostgreSQL at postgresql://deckhand@127.0.0.1:9/deckhand",
                         "cannot be reached", "DECKHAND_DB")
    assert "hunter2secret" not in "\n".join(bot.stderr), event


async def test_a_database_file_that_cannot_be_opened_ends_with_a_sentence(
        tmp_path: Path) -> None:
    bot = RealBot(tmp_path, None, DECKHAND_DB=str(tmp_path / "missing" / "deckhand.sqlite3"))
    status, _ = await bot.run(PROMPT)
    assert status == 2, bot.stderr
    one_sentence(bot, "cannot be opened", "DECKHAND_DB", "folder that exists")


async def test_a_file_that_is_no_database_is_refused_with_a_sentence(tmp_path: Path) -> None:
    junk = tmp_path / "notes.txt"
    junk.write_text("shopping list: eggs, milk, a new deck of cards\n" * 200)
    bot = RealBot(tmp_path, None, DECKHAND_DB=str(junk))
    status, _ = await bot.run(PROMPT)
    assert status == 2, bot.stderr
    one_sentence(bot, "is not a SQLite database", "DECKHAND_DB")


async def test_postgresql_refusing_the_login_ends_with_a_sentence(tmp_path: Path) -> None:
    url = os.environ.get("DECKHAND_TEST_PG")
    if not url:
        pytest.skip("DECKHAND_TEST_PG is not set (bash scripts/test sets it)")
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    wrong = parts._replace(netloc=f"nobody-here:wrong-password@{parts.hostname}:{parts.port}")
    bot = RealBot(tmp_path, None, DECKHAND_DB=urlunsplit(wrong))
    status, _ = await bot.run(PROMPT)
    assert status == 2, bot.stderr
    one_sentence(bot, "refused the bot's login", "DECKHAND_DB")
    assert "wrong-password" not in "\n".join(bot.stderr)


@pytest.mark.parametrize(("env", "words"), [
    ({"DECKHAND_LOG_LEVEL": "verbose"}, ["DECKHAND_LOG_LEVEL", "'verbose'", "DEBUG"]),
    ({"DECKHAND_AI_DELAY": "soon"}, ["DECKHAND_AI_DELAY", "'soon'"]),
    ({"DECKHAND_EVENT_LOOP": "fast"}, ["DECKHAND_EVENT_LOOP", "'fast'", "uvloop or asyncio"]),
    ({"DECKHAND_SHARDS": "0-7"}, ["DECKHAND_SHARDS", "total shard count"]),
    ({"DISCORD_TOKEN": "<unset>"}, ["Set DISCORD_TOKEN", "DISCORD_TOKEN=… bash scripts/run-bot"]),
    ({"DISCORD_TOKEN": "<unset>", "DISCORD_TOKEN_FILE": "/nonexistent/token"},
     ["DISCORD_TOKEN_FILE", "/nonexistent/token", "cannot be read"]),
])
async def test_a_bad_setting_ends_with_a_json_sentence_and_status_2(
        tmp_path: Path, env: dict[str, str], words: list[str]) -> None:
    bot = RealBot(tmp_path, None, **env)
    status, _ = await bot.run(PROMPT)
    assert status == 2, bot.stderr
    assert all(isinstance(json.loads(line), dict) for line in bot.stderr), bot.stderr
    one_sentence(bot, *words)
    assert not (tmp_path / "deckhand.sqlite3").exists()  # nothing opened before the settings


async def test_an_unknown_log_format_is_told_in_text(tmp_path: Path) -> None:
    bot = RealBot(tmp_path, None, DECKHAND_LOG_FORMAT="xml")
    status, _ = await bot.run(PROMPT)
    assert status == 2
    assert len(bot.stderr) == 1 and bot.stderr[0].startswith("time="), bot.stderr
    assert "DECKHAND_LOG_FORMAT must be text or json, not 'xml'." in bot.stderr[0]


async def test_the_token_from_a_docker_secret_file_is_used_and_never_logged(
        tmp_path: Path) -> None:
    secret = tmp_path / "discord_token"
    async with SimulatedDiscord() as sim:
        secret.write_text(sim.token + "\n")
        bot = RealBot(tmp_path, sim, DISCORD_TOKEN="<unset>", DISCORD_TOKEN_FILE=str(secret))
        await bot.start()
        status, _ = await bot.stop()
    assert status == 0, bot.stderr
    assert bot.errors() == []
    logged = "\n".join(bot.stderr)
    assert "token=<hidden>" in logged and sim.token not in logged

