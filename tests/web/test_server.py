"""The web table beside the real bot: ``python -m bot`` with the Activity's settings, against
the simulated Discord — started after the tables, stopped by SIGTERM with the bot, a port in
use or a half configuration told in one sentence (exit status 2)."""

from __future__ import annotations

import json
import re
import signal
import socket
from pathlib import Path

import aiohttp

from bot import lifecycle
from bot.config import ActivitySettings, ConfigError, load, read_activity
from bot.web.app import session_protocols
from tests.bot.realbot import RealBot
from tests.discord_sim import SimulatedDiscord

LISTENS = re.compile(r"the web table listens on 127\.0\.0\.1:(\d+)")


def _activity(sim: SimulatedDiscord, port: int = 0) -> dict[str, str]:
    return {"DISCORD_CLIENT_ID": sim.application_id, "DISCORD_CLIENT_SECRET": sim.client_secret,
            "DECKHAND_WEB_PORT": str(port), "DECKHAND_WEB_HOST": "127.0.0.1"}


async def test_the_bot_serves_the_web_table_and_stops_it_on_sigterm(tmp_path: Path) -> None:
    async with SimulatedDiscord() as sim:
        guild = sim.add_guild("Cards")
        channel = sim.add_channel(guild, "table")
        alice = sim.add_user("Alice", locale="ja")
        bot = RealBot(tmp_path, sim, **_activity(sim))
        await bot.start()
        line = await bot.wait_for(lambda found: bool(LISTENS.search(found.get("event", ""))))
        port = int(LISTENS.search(line["event"]).group(1))  # type: ignore[union-attr]
        base = f"http://127.0.0.1:{port}"
        async with aiohttp.ClientSession() as http:
            answer = await http.post(base + "/.proxy/api/token",
                                     json={"code": sim.oauth_code(alice)})
            signed = await answer.json()
            assert signed["user"]["locale"] == "ja"
            instance = sim.add_activity_instance(channel, [alice])
            ws = await http.ws_connect(f"{base}/.proxy/ws?instance_id={instance}"
                                       f"&channel_id={channel.id}",
                                       protocols=session_protocols(signed["session"]))
            hello = json.loads((await ws.receive()).data)
            assert hello["type"] == "hello" and hello["user"]["name"] == "Alice"
            await ws.send_str('{"type": "tables"}')
            assert json.loads((await ws.receive()).data) == {"type": "tables", "tables": []}
            status, seconds = await bot.stop(signal.SIGTERM)
            assert status == lifecycle.OK and seconds < 5.0
            closing = await ws.receive()
            assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED,
                                    aiohttp.WSMsgType.CLOSING)
        assert bot.errors() == []
        assert not any("DEVELOPMENT" in text for text in bot.stderr)
        assert not any(sim.client_secret in text for text in bot.stderr)
        assert not any(signed["session"] in text for text in bot.stderr)
        assert sim.spec_errors == []


async def test_a_port_in_use_ends_the_start_with_one_sentence(tmp_path: Path) -> None:
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        async with SimulatedDiscord() as sim:
            sim.add_guild("Cards")
            bot = RealBot(tmp_path, sim, **_activity(sim, taken.getsockname()[1]))
            status, _seconds = await bot.run(timeout=60)
        assert status == lifecycle.BAD_SETTING
        [error] = bot.errors()
        assert "in use" in error["event"] and "DECKHAND_WEB_PORT" in error["event"]
    finally:
        taken.close()


async def test_a_half_configured_activity_is_a_settings_error(tmp_path: Path) -> None:
    bot = RealBot(tmp_path, None, DISCORD_CLIENT_ID="123", DECKHAND_WEB_PORT="8080")
    status, _seconds = await bot.run()
    assert status == lifecycle.BAD_SETTING
    [error] = bot.errors()
    assert "DISCORD_CLIENT_SECRET is missing" in error["event"]


def test_the_activity_settings(tmp_path: Path) -> None:
    base = {"DISCORD_TOKEN": "t"}
    assert load(base).activity is None
    full = {"DISCORD_CLIENT_ID": "42", "DISCORD_CLIENT_SECRET": "s3", "DECKHAND_WEB_PORT": "8080"}
    assert read_activity(full) == ActivitySettings(42, "s3", 8080, "0.0.0.0", False)
    secret = tmp_path / "secret"
    secret.write_text("from-a-file\n")
    filed = dict(full, DISCORD_CLIENT_SECRET="", DISCORD_CLIENT_SECRET_FILE=str(secret),
                 DECKHAND_WEB_DEV="1", DECKHAND_WEB_HOST="127.0.0.1")
    assert read_activity(filed) == ActivitySettings(42, "from-a-file", 8080, "127.0.0.1", True)
    assert "s3" not in repr(load(dict(base, **full)))
    bad = [{"DISCORD_CLIENT_ID": "42"}, dict(full, DISCORD_CLIENT_ID="app"),
           dict(full, DECKHAND_WEB_PORT="80000"), {"DECKHAND_WEB_DEV": "1"},
           dict(full, DECKHAND_WEB_DEV="maybe"),
           dict(full, DISCORD_CLIENT_SECRET_FILE=str(secret))]
    for env in bad:
        try:
            read_activity(env)
        except ConfigError as error:
            assert str(error)
        else:
            raise AssertionError(f"accepted {env}")
