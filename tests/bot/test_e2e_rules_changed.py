"""A restart after a game's rules changed, on the simulated Discord: a table whose stored moves
no longer replay is ended with a sentence on its message; the other tables resume as before."""

from __future__ import annotations

from pathlib import Path

from bot.storage.store import Storage
from bot.tables import CANCELLED, PLAYING
from tests.bot.sim_helpers import button, make_bot, table_of, world
from tests.bot.test_e2e_games import open_table


async def test_a_table_that_no_longer_replays_is_ended_and_the_others_resume(
        tmp_path: Path) -> None:
    async with world(tmp_path, people=4) as w:
        alice, bob, carol, dave = w.users
        # a game of Fapfap in the first channel, a game of the test game in a second one
        fapfap = await open_table(w, "spar", [alice, bob], 2, {"variant": "fapfap"})
        home = w.channel
        w.channel = w.sim.add_channel(w.guild, "more")
        other = await open_table(w, "high-card", [carol, dave], 2, {"hand": "4"})
        w.channel = home
        m = w.bot.manager
        broken = next(t for t in m.tables.values() if t.rules.id == "spar")
        kept = next(t for t in m.tables.values() if t.rules.id == "high-card")
        state = broken.state
        assert state is not None and len(state.view(0)["hand"]) == 6
        seat = state.to_act[0]
        theirs = state.view(1 - seat)["hand"][0]
        before = kept.state.view(None) if kept.state is not None else None
        # the bot stops; the table's stored moves are those of an older Fapfap (a deal of five
        # cards): here a card its seat does not hold under the current rules
        await w.sim.stop_bot()
        await w.bot.store.close()
        store = await Storage.open(w.db)
        await store.add_action(broken.id, 0, seat, f"play:{theirs}", int(alice.id), "click")
        await store.close()
        w.bot = await make_bot(w.db)
        w.bots.append(w.bot)
        await w.sim.start(w.bot)
        await w.sim.settle(idle=0.2)

        m = w.bot.manager
        assert broken.id not in m.tables
        row = await w.bot.store.table(broken.id)
        assert row is not None and row.status == CANCELLED
        message = table_of(w.sim, home)
        assert message is not None and message.id == fapfap.id
        assert "This table was ended: its moves no longer fit the game's corrected rules" in (
            message.content or ""), message.content
        assert message.buttons() == []  # nothing left to click on it
        # the other table resumed as it was, and plays on
        again = m.tables[kept.id]
        assert again.status == PLAYING and again.state is not None
        assert again.state.view(None) == before
        r = await w.sim.click(carol, other, button(other, "hand")["custom_id"])
        assert r.status == "ok", r
        # the channel of the ended table is free for a new one
        r = await w.sim.slash(alice, home, "play", {"game": "spar"})
        assert r.status == "ok", r
        assert w.sim.spec_errors == []
