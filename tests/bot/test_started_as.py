"""Messages name the way the bot was started (#48): the image has no scripts/run-bot, so there
they name ``docker run …`` and ``deckhand``; in a clone, ``bash scripts/run-bot``. The image
says which it is with ``DECKHAND_IMAGE=1`` (its Dockerfile)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import discord
import pytest

from bot import config, lifecycle
from bot.config import ConfigError, load

ROOT = Path(__file__).resolve().parents[2]


def test_the_image_says_it_is_the_image() -> None:
    docker = (ROOT / "Dockerfile").read_text()
    final = docker.rsplit("\nFROM ", 1)[1]  # the stage that runs
    assert re.search(r"^\s+DECKHAND_IMAGE=1\b", final, re.M), "the run stage sets it"
    # and the image has no scripts/ to point at
    assert not re.search(r"^COPY\b.*\bscripts\b", docker, re.M)


@pytest.mark.parametrize(("env", "named", "not_named"), [
    ({}, "DISCORD_TOKEN=… bash scripts/run-bot", "docker run"),
    ({"DECKHAND_IMAGE": "1"}, "docker run -e DISCORD_TOKEN -v deckhand-data:/data deckhand",
     "scripts/run-bot"),
])
def test_the_missing_token_names_the_way_the_bot_was_started(
        env: dict[str, str], named: str, not_named: str) -> None:
    with pytest.raises(ConfigError) as refused:
        load(env)
    assert named in str(refused.value) and not_named not in str(refused.value)


@pytest.mark.parametrize(("image", "named", "not_named"), [
    ("", "bash scripts/run-bot", "docker run"),
    ("1", "docker run -e DISCORD_TOKEN -v", "scripts/run-bot"),
])
def test_a_rejected_token_names_the_way_the_bot_was_started(
        monkeypatch: pytest.MonkeyPatch, image: str, named: str, not_named: str) -> None:
    monkeypatch.setenv("DECKHAND_IMAGE", image)
    failed = lifecycle.discord_failure(discord.LoginFailure("Improper token"))
    assert failed is not None
    assert named in failed.sentence and not_named not in failed.sentence


@pytest.mark.parametrize(("image", "usage"), [("", "usage: bash scripts/run-bot [sync"),
                                              ("1", "usage: deckhand [sync")])
def test_the_usage_names_the_way_the_bot_was_started(image: str, usage: str) -> None:
    env = {**os.environ, "DECKHAND_IMAGE": image}
    for argv, status, stream in ((["launch"], 2, "stderr"), (["--help"], 0, "stdout")):
        done = subprocess.run([sys.executable, "-m", "bot", *argv], capture_output=True,
                              text=True, timeout=60, check=False, env=env)
        assert done.returncode == status and getattr(done, stream).startswith(usage)


def test_no_message_in_bot_names_a_script_but_through_the_way_started() -> None:
    """Every sentence of bot/ that names scripts/run-bot does so through config.run_command
    or config.program, which name the image's way there."""
    found = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("#", 1)[0]
            if "scripts/run-bot" in code and path.name != "config.py":
                found.append(f"{path.relative_to(ROOT)}:{number}")
    assert found == []
    assert config.run_command({"DECKHAND_IMAGE": "1"}) == config.IMAGE_RUN_COMMAND
    assert config.program({}) == "bash scripts/run-bot"
