"""The web table beside the chat table in one bot: the real Deckhand, its cogs and its web
server against the simulated Discord. A move clicked in the chat reaches the sockets; a move
made on a socket reaches the chat's table message."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp

from bot.client.deckhand import Deckhand
from bot.config import ActivitySettings, Settings
from bot.storage.store import Storage
from tests.bot.fakegame import lookup
from tests.bot.sim_helpers import button, game_ids, table_of, verb_of
from tests.discord_sim import SimChannel, SimGuild, SimulatedDiscord
from tests.web.helpers import Site, Socket


@asynccontextmanager
async def web_table(tmp_path: Path, sim: SimulatedDiscord, guild: SimGuild,
                    channel: SimChannel) -> AsyncIterator[tuple[Deckhand, Site]]:
    """The recipe of a bot with its web table on (a free port, 0, read back from bot.web),
    and a site to sign people in to it; everything stopped afterwards."""
    activity = ActivitySettings(int(sim.application_id), sim.client_secret, 0, "127.0.0.1")
    settings = Settings(token="sim-token", db_path=str(tmp_path / "db.sqlite3"),
                        ai_delay=0.0, ai_level="random", activity=activity)
    store = await Storage.open(settings.db_path)
    bot = Deckhand(settings, store, rules_for=lookup, game_ids=game_ids)
    await sim.start(bot)
    assert bot.web is not None and bot.web.port > 0
    http = aiohttp.ClientSession()
    web = Site(sim, bot.manager, bot.web, guild, channel, http)
    try:
        yield bot, web
    finally:
        for socket in web.sockets:
            await socket.close()
        await http.close()
        await sim.stop_bot(graceful=True)
        await store.close()


async def test_a_move_clicked_in_chat_reaches_the_sockets_and_back(tmp_path: Path) -> None:
    async with SimulatedDiscord() as sim:
        guild = sim.add_guild("Cards")
        channel = sim.add_channel(guild, "table")
        alice, bob = sim.add_user("Alice", locale="ja"), sim.add_user("Bob")
        for user in (alice, bob):
            sim.add_member(guild, user)
        async with web_table(tmp_path, sim, guild, channel) as (bot, web):
            r = await sim.slash(alice, channel, "play", {"game": "spar"})
            assert r.status == "ok"
            await sim.settle()
            table_message = sim.last_message(channel)
            assert table_message is not None
            await sim.click(bob, table_message, button(table_message, "join")["custom_id"])
            await sim.click(alice, table_message, button(table_message, "start")["custom_id"])
            await sim.settle()
            table = bot.manager.live_in(int(channel.id))
            assert table is not None and table.status == "playing"
            instance = sim.add_activity_instance(channel, [alice, bob])
            sockets: dict[str, Socket] = {}
            for name, user in (("Alice", alice), ("Bob", bob)):
                sockets[name] = await web.viewer(user, instance)
                await sockets[name].request({"type": "watch", "table": table.id}, "table")

            # in the chat: the person due opens their hand and plays its first card
            version = table.version
            due = alice if table.seat_of(int(alice.id)) in table.state.to_act else bob
            r = await sim.click(due, sim.last_message(channel),
                                button(sim.last_message(channel), "hand")["custom_id"])
            panel = r.message
            assert panel is not None
            picks = [s for s in panel.selects() if verb_of(s["custom_id"]) == "pick"]
            acts = [b for b in panel.buttons() if verb_of(b["custom_id"]) == "act"]
            if picks:
                await sim.select(due, panel, picks[0]["custom_id"],
                                 [picks[0]["options"][0]["value"]])
            else:
                await sim.click(due, panel, acts[0]["custom_id"])
            for socket in sockets.values():
                seen = await socket.wait_for(lambda m: m.get("type") == "table"
                                             and m["version"] > version)
                assert seen["last"] is not None and seen["log"]
            assert any("スパー" in m.get("title", "") for m in sockets["Alice"].received)

            # on the web: the next person due plays; the chat's table message shows it
            await sim.settle()
            version = table.version
            name = next(n for n, s in sockets.items() if s.received[-1].get("you", {})
                        .get("may_act") and s.received[-1]["version"] == version)
            model = sockets[name].received[-1]
            # (the table message, not the turn alert that may be the channel's last message)
            before = dict(table_of(sim, channel).raw)  # type: ignore[union-attr]
            await sockets[name].send({"type": "act", "table": table.id, "version": version,
                                      "move": model["you"]["moves"][0]["index"]})
            await sockets[name].wait_for(lambda m: m.get("type") == "table"
                                         and m["version"] > version)
            await sim.settle()
            assert table.version > version
            for _ in range(100):  # the table message's edit runs in the background
                if table_of(sim, channel).raw != before:  # type: ignore[union-attr]
                    break
                await asyncio.sleep(0.05)
            assert table_of(sim, channel).raw != before  # type: ignore[union-attr]
            assert sim.spec_errors == [] and sim.client_errors == []


async def test_a_table_opened_in_chat_reaches_a_page_waiting_in_its_channel(
        tmp_path: Path) -> None:
    """A page open in a channel without a table learns of the lobby once /play posts it, and
    a seated person there is shown their seat before any card is dealt."""
    async with SimulatedDiscord() as sim:
        guild = sim.add_guild("Cards")
        channel = sim.add_channel(guild, "table")
        alice = sim.add_user("Alice")
        sim.add_member(guild, alice)
        async with web_table(tmp_path, sim, guild, channel) as (_bot, web):
            instance = sim.add_activity_instance(channel, [alice])
            page = await web.viewer(alice, instance)
            empty = await page.request({"type": "tables"}, "tables")
            assert empty["tables"] == []
            r = await sim.slash(alice, channel, "play", {"game": "spar"})
            assert r.status == "ok"
            listed = await page.wait_for(lambda m: m.get("type") == "tables" and m["tables"])
            [table] = listed["tables"]
            assert table["status"] == "lobby" and table["seats"] == ["Alice"]
            model = await page.request({"type": "watch", "table": table["id"]}, "table")
            assert model["status"] == "lobby"
            assert model["you"]["seat"] == 0 and model["you"]["hand"] == []
            assert not model["you"]["may_act"] and model["you"]["moves"] == []
            assert sim.spec_errors == [] and sim.client_errors == []
