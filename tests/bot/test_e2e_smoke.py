"""The bot on the simulated Discord: a table opened, joined, played."""

from __future__ import annotations

from pathlib import Path

from tests.bot.sim_helpers import button, world


async def test_play_opens_a_lobby_and_join_seats_a_player(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        alice, bob = w.users[:2]
        r = await w.sim.slash(alice, w.channel, "play", {"game": "high-card"})
        assert r.status == "ok", r
        await w.sim.settle()
        lobby = w.table_message()
        r = await w.sim.click(bob, lobby, button(lobby, "join")["custom_id"])
        assert r.status == "ok", r
        await w.sim.settle()
        lobby = w.table_message()
        assert "Bob" in str(lobby.embeds)
        assert w.sim.spec_errors == []
