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


async def test_the_bot_asks_only_for_the_guilds_intent(tmp_path: Path) -> None:
    # Interactions need no intent; messages, reactions and typing would be events thrown
    # away, one for every message in every channel the bot can see.
    async with world(tmp_path) as w:
        identified = [s for s in w.sim._gateways if s.identified]
        assert identified
        assert {s.intents for s in identified} == {1}  # GUILDS only
        r = await w.sim.slash(w.users[0], w.channel, "play", {"game": "high-card"})
        assert r.status == "ok", r
        await w.sim.settle()
        assert not any(s.wants_message(True) or s.wants_message(False) for s in identified)
