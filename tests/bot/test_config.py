"""Settings from the environment and the refusal to start without a token."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, db_backend, describe_db, load


def test_missing_token_is_refused_with_a_clear_message() -> None:
    with pytest.raises(ConfigError, match="DISCORD_TOKEN"):
        load({})


def test_defaults_and_values_are_read_once() -> None:
    settings = load({"DISCORD_TOKEN": "abc.def", "DECKHAND_DEV_GUILD": "123",
                     "DECKHAND_AI_DELAY": "0"})
    assert settings.db_path == "./deckhand.sqlite3"
    assert settings.dev_guild == 123
    assert settings.ai_delay == 0.0
    assert settings.edit_gap == 1.0  # Discord's pace for edits of one channel's messages
    assert load({"DISCORD_TOKEN": "t", "DECKHAND_EDIT_GAP": "0.25"}).edit_gap == 0.25


def test_the_token_never_appears_in_the_settings_text() -> None:
    settings = load({"DISCORD_TOKEN": "very-secret-token"})
    assert "very-secret-token" not in repr(settings)
    assert "very-secret-token" not in str(settings)


@pytest.mark.parametrize("env", [{"DECKHAND_DEV_GUILD": "abc"}, {"DECKHAND_AI_DELAY": "-1"},
                                 {"DECKHAND_AI_DELAY": "soon"}, {"DECKHAND_EDIT_GAP": "-0.5"},
                                 {"DECKHAND_EDIT_GAP": "often"}, {"DECKHAND_AI_LEVEL": "expert"}])
def test_malformed_settings_are_refused_by_name(env: dict[str, str]) -> None:
    with pytest.raises(ConfigError, match=next(iter(env))):
        load({"DISCORD_TOKEN": "t", **env})


def test_python_m_bot_refuses_to_start_without_a_token() -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    done = subprocess.run([sys.executable, "-m", "bot"], env=env, capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 2
    assert "Set DISCORD_TOKEN" in done.stderr


@pytest.mark.parametrize(("raw", "ids", "count"), [
    ("0-7/16", (0, 1, 2, 3, 4, 5, 6, 7), 16),
    ("3/16", (3,), 16),
    ("0,2,5/8", (0, 2, 5), 8),
    (" 0-1, 4 / 6 ", (0, 1, 4), 6),
    ("", None, None),
])
def test_a_shard_slice_is_read_as_ids_and_count(raw: str, ids: tuple[int, ...] | None,
                                                count: int | None) -> None:
    settings = load({"DISCORD_TOKEN": "t", "DECKHAND_SHARDS": raw})
    assert settings.shard_ids == ids
    assert settings.shard_count == count


@pytest.mark.parametrize(("raw", "says"), [
    ("16", "total shard count"),
    ("0-7", "total shard count"),
    ("0-16/16", "shard 16 does not exist with 16 shards"),
    ("7-3/16", "runs backwards"),
    ("a/4", "'a' is not a shard id"),
    ("1,1/4", "twice"),
    ("0/0", "at least 1"),
    ("/4", "is not a shard id"),
    ("-1/4", "is not a shard id"),
])
def test_malformed_shard_slices_are_refused_with_a_sentence(raw: str, says: str) -> None:
    with pytest.raises(ConfigError, match="DECKHAND_SHARDS") as refused:
        load({"DISCORD_TOKEN": "t", "DECKHAND_SHARDS": raw})
    assert says in str(refused.value)
    assert str(refused.value).endswith(".")


def test_log_format_is_json_or_text() -> None:
    assert load({"DISCORD_TOKEN": "t"}).log_format == "text"
    assert load({"DISCORD_TOKEN": "t", "DECKHAND_LOG_FORMAT": "JSON"}).log_format == "json"
    with pytest.raises(ConfigError, match="DECKHAND_LOG_FORMAT must be text or json"):
        load({"DISCORD_TOKEN": "t", "DECKHAND_LOG_FORMAT": "xml"})


def test_a_postgresql_address_is_accepted_and_printed_without_its_password() -> None:
    dsn = "postgresql://deckhand:hunter2-secret@db.example:5432/deckhand"
    settings = load({"DISCORD_TOKEN": "t", "DECKHAND_DB": dsn})
    assert settings.db_path == dsn  # handed to the storage as it is, not checked as a path
    assert db_backend(settings.db_path) == "postgresql"
    assert db_backend("./deckhand.sqlite3") == "sqlite"
    assert "hunter2-secret" not in repr(settings)
    assert describe_db(dsn) == "postgresql://deckhand@db.example:5432/deckhand"


def test_the_computer_levels_an_operator_names_are_the_games_and_best() -> None:
    from bot.config import AI_LEVELS
    from games.ai import LEVELS

    assert (*LEVELS, "best") == AI_LEVELS
    assert load({"DISCORD_TOKEN": "t", "DECKHAND_AI_LEVEL": " Normal "}).ai_level == "normal"
    assert load({"DISCORD_TOKEN": "t"}).ai_level == "best"


def test_the_token_can_come_from_a_file_for_docker_secrets(tmp_path: Path) -> None:
    secret = tmp_path / "discord_token"
    secret.write_text("  from-the-file  \n")
    assert load({"DISCORD_TOKEN_FILE": str(secret)}).token == "from-the-file"
    with pytest.raises(ConfigError, match="keep one of them"):
        load({"DISCORD_TOKEN": "t", "DISCORD_TOKEN_FILE": str(secret)})
    secret.write_text("\n")
    with pytest.raises(ConfigError, match="is empty"):
        load({"DISCORD_TOKEN_FILE": str(secret)})
    with pytest.raises(ConfigError, match="cannot be read"):
        load({"DISCORD_TOKEN_FILE": str(tmp_path / "missing")})


def test_the_missing_token_hint_names_the_readme_command() -> None:
    with pytest.raises(ConfigError) as refused:
        load({})
    assert "DISCORD_TOKEN=… bash scripts/run-bot" in str(refused.value)
    assert "DISCORD_TOKEN=... deckhand" not in str(refused.value)


@pytest.mark.parametrize("level", ["verbose", "trace", "10"])
def test_an_unknown_log_level_is_refused_by_name(level: str) -> None:
    with pytest.raises(ConfigError, match="DECKHAND_LOG_LEVEL must be one of DEBUG"):
        load({"DISCORD_TOKEN": "t", "DECKHAND_LOG_LEVEL": level})
    assert load({"DISCORD_TOKEN": "t", "DECKHAND_LOG_LEVEL": "warning"}).log_level == "WARNING"


def test_python_m_bot_explains_its_arguments() -> None:
    done = subprocess.run([sys.executable, "-m", "bot", "--help"], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0 and "sync" in done.stdout and "--health" in done.stdout
    done = subprocess.run([sys.executable, "-m", "bot", "launch"], capture_output=True,
                          text=True, timeout=60, check=False)
    # (a clone's way: deckhand is in .venv/bin, not on the PATH; the image's: test_started_as)
    assert done.returncode == 2 and done.stderr.startswith("usage: bash scripts/run-bot")


@pytest.mark.parametrize(("raw", "wanted"), [("", True), ("on", True), ("ON", True),
                                             ("yes", True), ("1", True), ("off", False),
                                             (" Off ", False), ("no", False), ("0", False),
                                             ("false", False)])
def test_the_thinking_scheduler_is_on_unless_turned_off(raw: str, wanted: bool) -> None:
    assert load({"DISCORD_TOKEN": "t", "DECKHAND_AI_SCHEDULER": raw}).ai_scheduler is wanted


@pytest.mark.parametrize("raw", ["maybe", "2", "of"])
def test_a_malformed_scheduler_switch_stops_the_start_with_a_sentence(raw: str) -> None:
    with pytest.raises(ConfigError) as refused:
        load({"DISCORD_TOKEN": "t", "DECKHAND_AI_SCHEDULER": raw})
    assert str(refused.value) == f"DECKHAND_AI_SCHEDULER must be on or off, not {raw!r}."


async def test_the_scheduler_setting_reaches_the_thinker(tmp_path: Path) -> None:
    from bot.storage.store import Storage
    from bot.tables import TableManager

    store = await Storage.open(str(tmp_path / "deckhand.sqlite3"))
    try:
        settings = load({"DISCORD_TOKEN": "t", "DECKHAND_AI_SCHEDULER": "off"})
        assert TableManager(store, ai_scheduler=settings.ai_scheduler).thinker.scheduler is None
        assert TableManager(store).thinker.scheduler is not None
    finally:
        await store.close()
