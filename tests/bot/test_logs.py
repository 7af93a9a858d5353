"""Structured logs: one line per event with its ids, and never the token."""

from __future__ import annotations

import io
import json
import logging
import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot import logs
from bot.__main__ import secrets_of
from bot.config import load
from tests.bot.sim_helpers import button, world

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabCdE.abcdefghijklmnopqrstuvwxyz0123456789AB"


@pytest.fixture
def captured() -> Iterator[tuple[io.StringIO, logging.Handler]]:
    """A structured handler on a test logger, writing into a buffer."""
    buffer = io.StringIO()
    handler = logs.handler("json", [TOKEN], buffer)
    logger = logging.getLogger("deckhand.test")
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    yield buffer, handler
    logger.removeHandler(handler)


def lines(buffer: io.StringIO) -> list[dict[str, object]]:
    """The JSON lines written so far."""
    return [json.loads(line) for line in buffer.getvalue().splitlines()]


def test_json_lines_carry_time_level_logger_event_and_ids(
        captured: tuple[io.StringIO, logging.Handler]) -> None:
    buffer, _ = captured
    logger = logging.getLogger("deckhand.test")
    logger.info("table %s: a listener failed on %s", 42, "moved")
    with logs.context(guild=1234, shard=3):
        logger.warning("slow\nanswer")
    logger.info("plain")
    first, second, third = lines(buffer)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", str(first["time"]))
    assert first["level"] == "INFO" and first["logger"] == "deckhand.test"
    assert first["event"] == "table 42: a listener failed on moved"
    assert first["table"] == 42 and "guild" not in first
    assert second["event"] == "slow\nanswer"  # still one line: the newline is escaped
    assert (second["guild"], second["shard"], second["level"]) == (1234, 3, "WARNING")
    assert "table" not in second
    assert set(third) == {"time", "level", "logger", "event"}
    assert len(buffer.getvalue().splitlines()) == 3


def test_text_format_is_logfmt() -> None:
    buffer = io.StringIO()
    handler = logs.handler("text", [], buffer)
    record = logging.LogRecord("bot.tables", logging.ERROR, __file__, 1,
                               'table %s: "odd" thing', (7,), None)
    with logs.context(guild=99, shard=0):
        handler.handle(record)
    line = buffer.getvalue().rstrip("\n")
    assert "\n" not in line
    pairs = dict(item.split("=", 1) for item in shlex.split(line))
    assert pairs["level"] == "ERROR" and pairs["logger"] == "bot.tables"
    assert pairs["event"] == 'table 7: "odd" thing'
    assert (pairs["table"], pairs["guild"], pairs["shard"]) == ("7", "99", "0")
    assert line.startswith("time=")


def test_the_token_never_reaches_a_line() -> None:
    buffer = io.StringIO()
    logger = logging.getLogger("deckhand.test.secret")
    logger.propagate = False
    # its own level: another test of the same worker may have left the root logger's higher
    logger.setLevel(logging.INFO)
    dsn = "postgresql://deckhand:pg-pass-1234@db/deckhand"
    settings = load({"DISCORD_TOKEN": TOKEN, "DECKHAND_DB": dsn})
    handler = logs.handler("text", secrets_of(settings), buffer)
    logger.addHandler(handler)
    try:
        logger.info("starting with %s", settings)
        logger.info("settings %r", vars(settings))  # even the raw fields
        try:
            raise RuntimeError(f"login failed for token {TOKEN} at {dsn}")
        except RuntimeError:
            logger.exception("cannot connect")
        other = "NzkyNzE1NDU0MTk2MDg4ODQy.X-hvzA.Ovy4MCQywSkoMRRclStW4xAYK7I"
        logger.error("a token-shaped string %s", other)  # not ours: redacted all the same
    finally:
        logger.removeHandler(handler)
    text = buffer.getvalue()
    assert TOKEN not in text and "pg-pass-1234" not in text and other not in text
    assert "<redacted>" in text
    assert "RuntimeError: login failed for token <redacted>" in text
    assert "cannot connect" in text and "starting with Settings(" in text


async def test_interaction_lines_name_guild_shard_and_table(tmp_path: Path) -> None:
    buffer = io.StringIO()
    handler = logs.handler("json", [], buffer)
    watched = logging.getLogger("bot")
    watched.addHandler(handler)
    old_level = watched.level
    watched.setLevel(logging.DEBUG)
    try:
        async with world(tmp_path) as w:
            async def on_interaction(interaction: object) -> None:
                # runs in its own task: the ids travel with the task's context
                logging.getLogger("bot.test").info("seen")

            w.bot.add_listener(on_interaction)
            r = await w.sim.slash(w.users[0], w.channel, "play", {"game": "high-card"})
            await w.sim.settle()
            lobby = w.table_message()
            r = await w.sim.click(w.users[1], lobby, button(lobby, "join")["custom_id"])
            assert r.status == "ok"
            await w.sim.settle()
    finally:
        watched.removeHandler(handler)
        watched.setLevel(old_level)
    found = [json.loads(line) for line in buffer.getvalue().splitlines()]
    seen = [line for line in found if line["event"] == "seen"]
    assert len(seen) == 2
    assert all(line["guild"] == int(w.guild.id) and line["shard"] == 0 for line in seen)
    assert "table" not in seen[0] and seen[1]["table"] == 1  # the click names its table
    assert any(line["event"] == "interaction type 3" and line["table"] == 1 for line in found)
