"""The Activity and tables in threads: the launcher of a channel lists its tables, those playing
in threads of it too, and an Activity launched inside a table's thread (its channel id is the
thread's) lists that table alone, which the page then opens by itself."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiohttp

from bot.tables import Position
from tests.discord_sim import SimChannel
from tests.web.helpers import Site, Socket, site


async def _thread(web: Site, name: str) -> SimChannel:
    """A public thread of the site's channel, started as the bot starts one (REST)."""
    async with aiohttp.ClientSession() as http, http.post(
            f"{web.sim.base_url}/api/v10/channels/{web.channel.id}/threads",
            json={"name": name, "type": 11, "auto_archive_duration": 10080},
            headers={"Authorization": f"Bot {web.sim.token}"}) as answer:
        assert answer.status == 201, await answer.text()
        body = await answer.json()
    thread = web.sim.channel(body["id"])
    assert thread.parent_id == web.channel.id
    return thread


async def _open(web: Site, people: dict[str, Any], game: str, seed: int) -> Position:
    """A table of the site's channel hosted by Aiko with Bob seated, not started."""
    aiko, bob = int(people["Aiko"].id), int(people["Bob"].id)
    table = await web.manager.open(int(web.guild.id), int(web.channel.id), game, aiko, "Aiko",
                                   seed=seed)
    return await web.manager.join(table.table_id, bob, "Bob")


async def _viewer_in(web: Site, people: dict[str, Any], name: str,
                     where: SimChannel) -> Socket:
    """A person's socket of an Activity launched in ``where`` (a channel or a thread)."""
    signed = await web.sign_in(people[name])
    instance = web.sim.add_activity_instance(where, [people[name]])
    return await web.connect(signed["session"], instance, where)


async def _due(web: Site, table_id: int, sockets: dict[str, Socket]
               ) -> tuple[Socket, dict[str, Any]]:
    """The socket of the person the game waits for, and their latest model (once the
    computers moved)."""
    for _ in range(500):
        version = web.manager.tables[table_id].version
        for socket in sockets.values():
            models = [m for m in socket.received if m.get("type") == "table"]
            if models and models[-1]["version"] == version and models[-1]["you"]["may_act"]:
                return socket, models[-1]
        await web.sim.settle(idle=0.02)
    raise AssertionError("nobody is due")


async def test_a_channel_lists_its_tables_those_in_threads_too(tmp_path: Path) -> None:
    async with site(tmp_path, Aiko="en-US", Bob="ja") as (web, people):
        threaded = await _open(web, people, "finesse", 1)
        plain = await _open(web, people, "spar", 2)
        thread = await _thread(web, "finesse")
        await web.manager.set_thread(threaded.table_id, int(thread.id))
        bob = await _viewer_in(web, people, "Bob", web.channel)
        listed = await bob.request({"type": "tables"}, "tables")
        assert [(t["id"], t["game"]) for t in listed["tables"]] == [
            (threaded.table_id, "finesse"), (plain.table_id, "spar")]
        # either may be watched from the channel's Activity
        for table in (threaded, plain):
            model = await bob.request({"type": "watch", "table": table.table_id}, "table")
            assert model["table"] == table.table_id


async def test_an_activity_in_a_tables_thread_lists_that_table_and_plays_it(
        tmp_path: Path) -> None:
    async with site(tmp_path, Aiko="en-US", Bob="ja") as (web, people):
        first = await _open(web, people, "finesse", 1)
        second = await _open(web, people, "spar", 2)
        first_thread, second_thread = await _thread(web, "finesse"), await _thread(web, "spar")
        await web.manager.set_thread(first.table_id, int(first_thread.id))
        await web.manager.set_thread(second.table_id, int(second_thread.id))
        aiko = await _viewer_in(web, people, "Aiko", first_thread)
        listed = await aiko.request({"type": "tables"}, "tables")
        # the one table listed: the page opens it at once (web/src/app.ts's launcher)
        assert [(t["id"], t["status"]) for t in listed["tables"]] == [(first.table_id, "lobby")]
        model = await aiko.request({"type": "watch", "table": first.table_id}, "table")
        assert model["table"] == first.table_id
        # the other thread's table is not this Activity's
        error = await aiko.request({"type": "watch", "table": second.table_id}, "error")
        assert error["code"] == "forbidden"
        # the table's news reaches the thread's Activity: started, it shows it playing
        bob = await _viewer_in(web, people, "Bob", first_thread)
        await bob.request({"type": "watch", "table": first.table_id}, "table")
        sockets = {"Aiko": aiko, "Bob": bob}
        marks = {name: len(s.received) for name, s in sockets.items()}
        while len((await web.manager.position(first.table_id)).seats) < 4:
            await web.manager.add_computer(first.table_id, int(people["Aiko"].id))
        await web.manager.start(first.table_id, int(people["Aiko"].id))
        for name, socket in sockets.items():
            await socket.wait_for(lambda m: m.get("type") == "table"
                                  and m["status"] == "playing", after=marks[name])
        # a move made on the thread's Activity is taken like any other
        socket, model = await _due(web, first.table_id, sockets)
        move = model["you"]["moves"][0]
        await socket.send({"type": "act", "table": first.table_id, "version": model["version"],
                           **({"cards": move["cards"]} if move["cards"] else {"move": 0})})
        await socket.wait_for(lambda m: m.get("type") == "table"
                              and m["version"] > model["version"])
        # its list in the thread no longer holds it once the table is cancelled
        await web.manager.cancel(first.table_id, int(people["Aiko"].id))
        gone = await aiko.request({"type": "tables"}, "tables")
        assert gone["tables"] == []
        # a thread no table plays in lists nothing; a bare channel id of another channel
        # neither
        elsewhere = web.sim.add_channel(web.guild, "elsewhere")
        other = await _viewer_in(web, people, "Bob", elsewhere)
        assert (await other.request({"type": "tables"}, "tables"))["tables"] == []
