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

from bot.tables.position import position_of
from tests.bot.fakegame import lookup
from tests.bot.sim_helpers import button, verb_of, world
from tests.bot.test_e2e_games import open_table, quick_options
from tests.bot.test_e2e_panel import move_controls

GAME = "twenty-two"


async def person_to_act(w: Any) -> tuple[Any, int, Any]:
    """A game of 22 with two people: the table, the seat and the person that is to act."""
    rules = lookup(GAME)
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
    return table, seat, next(u for u in humans if int(u.id) == table.seats[seat].user_id)


async def live_panel(w: Any, user: Any) -> str:
    """The person presses Hand: their live panel's message id, once it has its picture."""
    r = await w.sim.click(user, w.table_message(), button(w.table_message(), "hand")["custom_id"])
    assert r.status == "ok" and r.message is not None
    await asyncio.sleep(0.3)
    await w.sim.settle()
    return str(r.message.id)


async def test_a_click_is_not_held_up_by_an_edit_of_its_panel_on_its_way(
        tmp_path: Path, monkeypatch: Any) -> None:
    async with world(tmp_path, people=2) as w:
        table, seat, user = await person_to_act(w)

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
        payload, _ = await cog.hands.panel_for(await w.bot.manager.position(table.id), seat,
                                               "en", int(user.id))
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
    async with world(tmp_path, people=2) as w:
        table, _, user = await person_to_act(w)
        panel_id = await live_panel(w, user)

        turn: Any = w.bot.get_cog("PlayCog")  # the table cog: its parts keep the panels
        panels = turn.panels
        panel = panels.by_table[table.id][int(user.id)]
        taking = asyncio.Event()
        release = asyncio.Event()
        original = turn.hands.panel_for

        async def held(*args: Any, **kwargs: Any) -> Any:
            found = await original(*args, **kwargs)
            task = asyncio.current_task()
            if task is not None and "Panels._edit" in task.get_coro().__qualname__:
                taking.set()
                await release.wait()  # the edit's position (before the click) is slow to come
            return found

        monkeypatch.setattr(turn.hands, "panel_for", held)
        assert panel.shown is not None
        panel.shown = (panel.shown[0] - 1, *panel.shown[1:])  # the panel is due an edit
        panels.changed(position_of(table))
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
        # click's answer (no control of the panel is one of that position's)
        shown = w.sim.message(panel_id)
        stale = [c["custom_id"] for c in shown.buttons() + shown.selects()
                 if f":{version}:" in c["custom_id"]]
        assert stale == [], stale
        assert len([q for q in w.sim.requests if q.method == "PATCH"
                    and "/messages/@original" in q.path]) >= edits
        assert w.sim.spec_errors == []


async def test_a_click_is_not_held_up_by_the_answer_to_the_one_before_on_its_way(
        tmp_path: Path, monkeypatch: Any) -> None:
    """The answer to a click on a panel is slow to reach Discord; a second click on the
    panel meanwhile is answered all the same, and once both have landed, in whichever order,
    the panel is made good through the newest token."""
    async with world(tmp_path, people=2) as w:
        table, _, user = await person_to_act(w)
        panel_id = await live_panel(w, user)
        turn: Any = w.bot.get_cog("PlayCog")
        panel = turn.panels.by_table[table.id][int(user.id)]

        on_its_way = asyncio.Event()
        release = asyncio.Event()
        original = discord.InteractionResponse.edit_message
        calls = 0

        async def slow_first(self: Any, **kwargs: Any) -> Any:
            nonlocal calls
            calls += 1
            if calls == 1:  # the first click's answer: its round trip is slow
                on_its_way.set()
                await release.wait()
            return await original(self, **kwargs)

        monkeypatch.setattr(discord.InteractionResponse, "edit_message", slow_first)
        views = [b for b in w.sim.message(panel_id).buttons()
                 if verb_of(b["custom_id"]) in ("view", "page")]
        first = asyncio.create_task(w.sim.click(user, w.sim.message(panel_id),
                                                move_controls(w.sim.message(panel_id))[0][1]
                                                ["custom_id"])
                                    if move_controls(w.sim.message(panel_id))[0][0] == "act"
                                    else w.sim.select(
                                        user, w.sim.message(panel_id),
                                        move_controls(w.sim.message(panel_id))[0][1]
                                        ["custom_id"],
                                        [move_controls(w.sim.message(panel_id))[0][1]
                                         ["options"][0]["value"]]))
        await asyncio.wait_for(on_its_way.wait(), 5.0)
        assert panel.answers == panel.adopted + 1  # the first answer is on its way
        # a second click on the same panel (an old control of it: answered with the position)
        callbacks = [q for q in w.sim.requests if "/callback" in q.path]
        stale = views[0]["custom_id"] if views else \
            w.sim.message(panel_id).selects()[0]["custom_id"]
        second = asyncio.create_task(
            w.sim.click(user, w.sim.message(panel_id), stale) if views else
            w.sim.select(user, w.sim.message(panel_id), stale,
                         [w.sim.message(panel_id).selects()[0]["options"][0]["value"]]))
        for _ in range(250):  # its answer reaches Discord while the first's is on its way
            if len([q for q in w.sim.requests if "/callback" in q.path]) > len(callbacks):
                break
            await asyncio.sleep(0.02)
        assert len([q for q in w.sim.requests if "/callback" in q.path]) > len(callbacks)
        assert not release.is_set()
        await asyncio.sleep(0.1)
        assert panel.adopted == panel.answers  # the second answer made it the live panel
        release.set()
        r = await asyncio.wait_for(first, 5.0)
        assert r.status == "ok", r
        later = await asyncio.wait_for(second, 5.0)
        assert later.status == "ok", later
        await asyncio.sleep(0.5)
        await w.sim.settle()
        # the first answer landed last; the panel was edited once more after it, so it does
        # not show the first answer's (older) position
        assert panel.interaction is not None
        assert int(panel.interaction.id) == int(later.id)
        assert not panel.repair
        assert w.sim.spec_errors == []


async def test_a_panel_leaves_nothing_running_behind_it(tmp_path: Path) -> None:
    # discord.py keeps a view sent with an ephemeral answer for 15 minutes, a timer task each,
    # unless the view is finished; a panel's clicks are routed by custom id, so none is kept
    async with world(tmp_path, people=2) as w:
        _, _, user = await person_to_act(w)
        await live_panel(w, user)
        before = len(asyncio.all_tasks())
        for _ in range(10):
            await live_panel(w, user)
        assert len(asyncio.all_tasks()) <= before + 2  # at most a picture or an edit in flight
