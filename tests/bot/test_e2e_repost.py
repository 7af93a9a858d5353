"""A table stored without a message (the bot stopped between storing the table and posting it,
or before storing the posted message's id) gets a new public message when the bot comes back:
without one nobody could join, play or cancel it."""

from __future__ import annotations

from pathlib import Path

from tests.bot.sim_helpers import button, world
from tests.bot.test_e2e_safety import open_hand


async def test_a_lobby_never_posted_is_posted_after_a_restart(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        alice, bob = w.users
        # as if the bot were killed right after storing the lobby
        table = await w.bot.manager.open(int(w.guild.id), int(w.channel.id), "high-card",
                                         int(alice.id), alice.name)
        table_id = table.table_id
        assert table.message_id is None and w.sim.last_message(w.channel) is None
        await w.restart()
        shown = w.table_message()
        assert "a new table" in str(shown.embeds) and "Host: Alice" in str(shown.embeds)
        assert (await w.bot.store.table(table_id)).message_id == int(shown.id)  # type: ignore
        r = await w.sim.click(bob, shown, button(shown, "join")["custom_id"])
        assert r.status == "ok", r
        r = await w.sim.click(alice, w.table_message(), button(w.table_message(),
                                                               "start")["custom_id"])
        assert r.status == "ok", r
        await w.sim.settle()
        hand = await open_hand(w, alice)
        assert hand.ephemeral
        assert w.bot.manager.tables[table_id].version == 0
        assert w.sim.spec_errors == [] and w.sim.client_errors == []


async def test_a_game_whose_message_id_was_lost_is_posted_again(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        alice, bob = w.users
        r = await w.sim.slash(alice, w.channel, "play", {"game": "high-card"})
        assert r.status == "ok"
        await w.sim.settle()
        old = w.table_message()
        await w.sim.click(bob, old, button(old, "join")["custom_id"])
        await w.sim.click(alice, w.table_message(), button(w.table_message(), "start")["custom_id"])
        await w.sim.settle()
        table = w.bot.manager.tables[1]
        assert table.status == "playing"
        # as if the bot had stopped before storing the posted message's id
        table.message_id = None
        await w.bot.manager._registry.save(table)
        await w.restart()
        shown = w.table_message()
        assert shown.id != old.id
        assert (await w.bot.store.table(table.id)).message_id == int(shown.id)  # type: ignore
        assert button(shown, "hand")  # the game goes on from the new message
        hand = await open_hand(w, alice)
        assert hand.ephemeral
        assert w.sim.spec_errors == [] and w.sim.client_errors == []
