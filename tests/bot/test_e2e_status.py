"""/status on the simulated Discord: for server managers only, in their language."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogs.admin import uptime_text, version
from tests.bot.sim_helpers import world


def fields_of(embed: dict[str, object]) -> dict[str, str]:
    """An embed's fields by name."""
    found = embed.get("fields")
    assert isinstance(found, list)
    return {str(f["name"]): str(f["value"]) for f in found}


async def test_status_shows_tables_latency_shards_version_and_database(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        alice, manager = w.users[0], w.users[-1]
        command = next(c for c in w.sim.commands() if c["name"] == "status")
        assert int(command["default_member_permissions"]) == 1 << 5  # Manage Server
        assert command["name_localizations"]["ja"] == "status"
        r = await w.sim.slash(alice, w.channel, "play", {"game": "high-card"})
        assert r.status == "ok", r
        await w.sim.settle()

        r = await w.sim.slash(manager, w.channel, "status", {})
        assert r.status == "ok" and r.ephemeral, r
        assert r.message is not None
        embed = r.message.embeds[0]
        assert embed["title"] == "Deckhand status"
        shown = fields_of(embed)
        assert shown["Tables"] == (
            "1 open in this server (0 playing); 1 in this process (0 playing)")
        assert shown["Gateway latency"].endswith(" ms") or shown["Gateway latency"] == "—"
        assert shown["Shards"] == "this server: shard 0; this process: 0 of 1"
        assert shown["Version"] == version()
        assert shown["Version"].startswith("0.")
        assert shown["Database"] == "sqlite"
        assert str(w.db) not in str(embed)  # the back end, never the address
        assert w.sim.spec_errors == []


async def test_status_speaks_japanese_and_is_hidden_from_other_members(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        alice, manager = w.users[0], w.users[-1]
        r = await w.sim.slash(manager, w.channel, "status", {}, locale="ja")
        assert r.message is not None
        embed = r.message.embeds[0]
        assert embed["title"] == "Deckhand の状態"
        assert "このサーバー：0 卓" in fields_of(embed)["卓"]
        with pytest.raises(AssertionError):  # Discord would not offer it to Alice
            await w.sim.slash(alice, w.channel, "status", {})
        assert w.sim.spec_errors == []


def test_uptime_reads_as_a_clock() -> None:
    assert uptime_text(0) == "00:00:00"
    assert uptime_text(3 * 3600 + 62) == "03:01:02"
    assert uptime_text(2 * 86400 + 5) == "2 d 00:00:05"


def test_version_carries_the_commit_given_at_build_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    version.cache_clear()
    try:
        monkeypatch.setenv("DECKHAND_COMMIT", "0123456789abcdef0123")
        assert version().endswith("(0123456789ab)")
    finally:
        monkeypatch.delenv("DECKHAND_COMMIT")
        version.cache_clear()
