"""Settings from the environment and the refusal to start without a token."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bot.config import ConfigError, load


def test_missing_token_is_refused_with_a_clear_message() -> None:
    with pytest.raises(ConfigError, match="DISCORD_TOKEN"):
        load({})


def test_defaults_and_values_are_read_once() -> None:
    settings = load({"DISCORD_TOKEN": "abc.def", "DECKHAND_DEV_GUILD": "123",
                     "DECKHAND_AI_DELAY": "0"})
    assert settings.db_path == "./deckhand.sqlite3"
    assert settings.dev_guild == 123
    assert settings.ai_delay == 0.0


def test_the_token_never_appears_in_the_settings_text() -> None:
    settings = load({"DISCORD_TOKEN": "very-secret-token"})
    assert "very-secret-token" not in repr(settings)
    assert "very-secret-token" not in str(settings)


@pytest.mark.parametrize("env", [{"DECKHAND_DEV_GUILD": "abc"}, {"DECKHAND_AI_DELAY": "-1"},
                                 {"DECKHAND_AI_DELAY": "soon"}])
def test_malformed_settings_are_refused_by_name(env: dict[str, str]) -> None:
    with pytest.raises(ConfigError, match=next(iter(env))):
        load({"DISCORD_TOKEN": "t", **env})


def test_python_m_bot_refuses_to_start_without_a_token() -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    done = subprocess.run([sys.executable, "-m", "bot"], env=env, capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 2
    assert "Set DISCORD_TOKEN" in done.stderr
