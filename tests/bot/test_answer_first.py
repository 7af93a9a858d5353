"""A click is answered first: nothing on its way to Discord for the same panel holds it up.

A live panel is edited through an older interaction's token (its picture, a turn coming round)
while its person may click on it. The click's answer goes out at once; should the older edit
reach Discord after that answer, the panel is edited once more, so it ends showing the
position as it is.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import discord

from tests.bot.fakegame import lookup
from tests.bot.sim_helpers import button, world
from tests.bot.test_e2e_games import open_table, quick_options
from tests.bot.test_e2e_panel import move_controls

GAME = "twenty-two"


async def test_a_click_is_not_held_up_by_an_edit_of_its_panel_on_its_way(
        tmp_path: Path, monkeypatch: Any) -> None:
    rules = lookup(GAME)
    async with world(tmp_path, people=2) as w:
        humans = w.users[:2]
        await open_table(w, GAME, humans, rules.usual_players, quick_options(GAME))
        table = next(iter(w.bot.manager.tables.values()))
        for _ in range(200):  # until a person is to act
            await w.sim.settle()
            assert table.state is not None
            due = [s for s in table.state.to_act if not table.seats[s].auto]
            if due:
                break
            await asyncio.sleep(0.02)
        seat = due[0]
        user = next(u for u in humans if int(u.id) == table.seats[seat].user_id)

        on_its_way = asyncio.Event()
        release = asyncio.Event()  # edits through a token are held until the click is answered
        original = discord.Interaction.edit_original_response

        async def slow(self: Any, **kwargs: Any) -> Any:
            on_its_way.set()
            await release.wait()
            return await original(self, **kwargs)

        monkeypatch.setattr(discord.Interaction, "edit_original_response", slow)
        r = await w.sim.click(user, w.table_message(),
                              button(w.table_message(), "hand")["custom_id"])
        assert r.status == "ok" and r.message is not None
        panel = r.message
        await asyncio.wait_for(on_its_way.wait(), 5.0)  # the panel's picture is on its way
        version = table.version
        controls = move_controls(w.sim.message(panel.id))
        assert controls, w.sim.message(panel.id).components
        kind, control = controls[0]
        if kind == "act":
            r = await w.sim.click(user, w.sim.message(panel.id), control["custom_id"])
        else:  # a card from the menu of the hand
            r = await w.sim.select(user, w.sim.message(panel.id), control["custom_id"],
                                   [control["options"][0]["value"]])
        # answered in time although the panel's earlier edit has not gone out yet (a click
        # that waited for it would get no answer within Discord's deadline)
        assert r.status == "ok", r
        assert not release.is_set()
        assert [q for q in w.sim.requests if q.interaction_id == r.id and "/callback" in q.path]
        assert table.version > version  # the move was made

        # once everything has arrived, the panel shows the position now: the picture of the
        # Hand press, which came after the click's answer, was made good
        release.set()
        await asyncio.sleep(0.5)
        await w.sim.settle()
        monkeypatch.setattr(discord.Interaction, "edit_original_response", original)
        cog: Any = w.bot.get_cog("PlayCog")
        payload, _ = await cog.panel_for(table, seat, "en", int(user.id))
        shown = w.sim.message(panel.id)
        assert shown.components_v2
        assert payload.content in shown.text
        assert payload.embed is not None and payload.embed.description in shown.text
        assert shown.pictures()  # the Hand press's picture, which came after the answer
        wanted = [c["custom_id"] for row in payload.view.to_components()
                  for c in row["components"] if c.get("type") == 2]
        assert [c["custom_id"] for c in shown.buttons()] == wanted
        assert w.sim.spec_errors == []


async def test_a_click_is_not_held_up_by_a_turn_edit_waiting_for_its_position(
        tmp_path: Path, monkeypatch: Any) -> None:
    """A panel's turn edit that is still taking its position (waiting for the table, say)
    holds nothing the click on that panel needs: the click is answered, and the edit then
    looks again and leaves the panel as the click left it."""
    rules = lookup(GAME)
    async with world(tmp_path, people=2) as w:
        humans = w.users[:2]
        await open_table(w, GAME, humans, rules.usual_players, quick_options(GAME))
        table = next(iter(w.bot.manager.tables.values()))
        for _ in range(200):  # until a person is to act
            await w.sim.settle()
            assert table.state is not None
            due = [s for s in table.state.to_act if not table.seats[s].auto]
            if due:
                break
            await asyncio.sleep(0.02)
        seat = due[0]
        user = next(u for u in humans if int(u.id) == table.seats[seat].user_id)
        r = await w.sim.click(user, w.table_message(),
                              button(w.table_message(), "hand")["custom_id"])
        assert r.status == "ok" and r.message is not None
        panel_id = r.message.id
        await asyncio.sleep(0.3)
        await w.sim.settle()

        turn: Any = w.bot.get_cog("PlayCog")  # the table cog: its turn part keeps the panels
        panels = turn.panels
        panel = panels.by_table[table.id][int(user.id)]
        taking = asyncio.Event()
        release = asyncio.Event()
        original = turn.panel_for

        async def held(*args: Any, **kwargs: Any) -> Any:
            task = asyncio.current_task()
            if task is not None and "Panels._edit" in task.get_coro().__qualname__:
                taking.set()
                await release.wait()  # the edit's position is slow to come
            return await original(*args, **kwargs)

        monkeypatch.setattr(turn, "panel_for", held)
        assert panel.shown is not None
        panel.shown = (panel.shown[0] - 1, *panel.shown[1:])  # the panel is due an edit
        panels.changed(table)
        await asyncio.wait_for(taking.wait(), 5.0)
        assert panel.task is not None and not panel.task.done()

        version = table.version
        controls = move_controls(w.sim.message(panel_id))
        assert controls, w.sim.message(panel_id).components
        kind, control = controls[0]
        if kind == "act":
            r = await w.sim.click(user, w.sim.message(panel_id), control["custom_id"])
        else:  # a card from the menu of the hand
            r = await w.sim.select(user, w.sim.message(panel_id), control["custom_id"],
                                   [control["options"][0]["value"]])
        assert r.status == "ok", r  # answered while the edit still waits for its position
        assert not release.is_set()
        assert table.version > version  # the move was made

        edits = len([q for q in w.sim.requests if q.method == "PATCH"
                     and "/messages/@original" in q.path])
        release.set()
        await asyncio.wait_for(asyncio.shield(panel.task), 5.0)
        await asyncio.sleep(0.3)
        await w.sim.settle()
        # the edit looked again: the position it took before the click is not sent over the
        # click's answer; whatever it sent, the panel shows the position as it is now
        monkeypatch.setattr(turn, "panel_for", original)
        payload, _ = await original(table, seat, "en", int(user.id))
        shown = w.sim.message(panel_id)
        assert payload.content in shown.text
        wanted = [c["custom_id"] for row in payload.view.to_components()
                  for c in row["components"] if c.get("type") == 2]
        assert [c["custom_id"] for c in shown.buttons()] == wanted
        assert len([q for q in w.sim.requests if q.method == "PATCH"
                    and "/messages/@original" in q.path]) >= edits
        assert w.sim.spec_errors == []
