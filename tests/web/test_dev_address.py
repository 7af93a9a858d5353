"""Development mode (a sign-in by name, no instance check) runs on this machine's own address
only (#48): on 0.0.0.0 or any address other machines reach, the settings and the server refuse
it with a sentence saying why and what to do."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ActivitySettings, ConfigError, loopback_host, read_activity
from bot.storage.store import Storage
from bot.tables import TableManager
from bot.web.app import ServeFailed, WebServer, create_app
from bot.web.auth import Auth

SETTINGS = {"DISCORD_CLIENT_ID": "42", "DISCORD_CLIENT_SECRET": "s3",
            "DECKHAND_WEB_PORT": "8080", "DECKHAND_WEB_DEV": "on"}


@pytest.mark.parametrize("host", ["", "0.0.0.0", "::", "10.0.0.5", "deckhand.example.com"])
def test_development_mode_on_an_address_others_reach_is_a_settings_error(host: str) -> None:
    env = dict(SETTINGS, DECKHAND_WEB_HOST=host) if host else SETTINGS
    with pytest.raises(ConfigError) as refused:
        read_activity(env)
    sentence = str(refused.value)
    assert "DECKHAND_WEB_HOST=127.0.0.1" in sentence and "sign in by name" in sentence
    assert (host or "0.0.0.0") in sentence


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "127.0.1.1"])
def test_development_mode_on_this_machines_own_address_is_taken(host: str) -> None:
    found = read_activity(dict(SETTINGS, DECKHAND_WEB_HOST=host))
    assert found is not None and found.dev and loopback_host(host)
    assert read_activity(dict(SETTINGS, DECKHAND_WEB_DEV="off"))  # off: any address


async def test_the_server_will_not_start_development_mode_on_0_0_0_0(tmp_path: Path) -> None:
    store = await Storage.open(str(tmp_path / "dev.sqlite3"))
    manager = TableManager(store, ai_delay=0.0)
    settings = ActivitySettings(1, "secret", 0, "0.0.0.0", dev=True)
    server = WebServer(create_app(manager, settings, Auth(1, "secret", "token"),
                                  avatars=_NoAvatars()), "0.0.0.0", 0, dev=True)
    try:
        with pytest.raises(ServeFailed, match=r"DECKHAND_WEB_HOST=127\.0\.0\.1"):
            await server.start()
    finally:
        await server.stop()
        await manager.close()
        await store.close()


class _NoAvatars:
    def get(self, user_id: int | None) -> bytes | None:
        return None
