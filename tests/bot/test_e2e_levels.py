"""The host chooses how strong a table's computer players are, on the simulated Discord."""

from __future__ import annotations

import json
from pathlib import Path

from tests.bot.sim_helpers import World, button, verb_of, world
from tests.bot.test_e2e_safety import refused
from tests.discord_sim import SimMessage, SimUser


async def lobby_with_computer(w: World, host: SimUser, locale: str = "en-US") -> SimMessage:
    """The host opens a table of the test game and adds a computer; the lobby message."""
    await w.sim.slash(host, w.channel, "play", {"game": "high-card"}, locale=locale)
    await w.sim.settle()
    lobby = w.table_message()
    await w.sim.click(host, lobby, button(lobby, "addc")["custom_id"], locale=locale)
    return w.table_message()


async def test_the_host_picks_the_computers_level_in_the_options(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        alice, bob = w.users
        await w.sim.slash(alice, w.channel, "play", {"game": "high-card"})
        await w.sim.settle()
        lobby = w.table_message()
        start = w.bot.manager.default_level  # the bot's own level (these tests: normal)
        assert start == "normal"
        assert f"Computer players: {start}" in json.dumps(lobby.embeds)
        r = await w.sim.click(alice, lobby, button(lobby, "addc")["custom_id"])
        lobby = w.table_message()
        r = await w.sim.click(alice, lobby, button(lobby, "opts")["custom_id"])
        menu = r.message
        assert menu is not None
        [level] = [s for s in menu.selects() if verb_of(s["custom_id"]) == "level"]
        offered = [(o["value"], o.get("default", False)) for o in level["options"]]
        assert offered == [("easy", False), ("normal", True), ("hard", False)]
        assert all(o.get("description") for o in level["options"])  # what each level does
        r = await w.sim.select(alice, menu, level["custom_id"], ["easy"])
        assert r.status == "ok" and r.message is not None
        [again] = [s for s in r.message.selects() if verb_of(s["custom_id"]) == "level"]
        assert [o["value"] for o in again["options"] if o.get("default")] == ["easy"]
        await w.sim.settle()
        assert w.bot.manager.tables[1].level == "easy"
        assert "Computer players: easy" in json.dumps(w.table_message().embeds)
        # the menu is the host's alone; the public lobby shows Bob the level, nothing to set
        r = await w.sim.click(bob, w.table_message(), button(w.table_message(), "opts")[
            "custom_id"])
        refused(r, "Only the host")
        # in play the table's footer keeps saying it, since a computer sits here
        lobby = w.table_message()
        await w.sim.click(alice, lobby, button(lobby, "start")["custom_id"])
        await w.sim.settle()
        [embed] = w.table_message().embeds
        assert embed["footer"]["text"] == "Computer players: easy"
        assert w.sim.spec_errors == [] and w.sim.client_errors == []


async def test_the_level_reads_in_japanese(tmp_path: Path) -> None:
    async with world(tmp_path, people=1) as w:
        [alice] = w.users
        await w.sim.slash(alice, w.channel, "play", {"game": "high-card"}, locale="ja")
        await w.sim.settle()
        lobby = w.table_message()
        r = await w.sim.click(alice, lobby, button(lobby, "opts")["custom_id"], locale="ja")
        assert r.message is not None
        [level] = [s for s in r.message.selects() if verb_of(s["custom_id"]) == "level"]
        assert [o["label"] for o in level["options"]] == ["やさしい", "ふつう", "つよい"]
        await w.sim.select(alice, r.message, level["custom_id"], ["hard"], locale="ja")
        await w.sim.settle()
        assert w.bot.manager.tables[1].level == "hard"


async def test_the_host_changes_the_level_in_play(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        alice, bob = w.users
        lobby = await lobby_with_computer(w, alice)
        r = await w.sim.click(alice, lobby, button(lobby, "opts")["custom_id"])
        old_menu = r.message  # the lobby's options, still open when the game starts
        assert old_menu is not None
        lobby = w.table_message()
        await w.sim.click(alice, lobby, button(lobby, "start")["custom_id"])
        await w.sim.settle()
        table = w.table_message()
        r = await w.sim.click(alice, table, button(table, "manage")["custom_id"])
        menu = r.message
        assert menu is not None
        [level] = [s for s in menu.selects() if verb_of(s["custom_id"]) == "level"]
        assert [(o["value"], o.get("default", False)) for o in level["options"]] == [
            ("easy", False), ("normal", True), ("hard", False)]
        r = await w.sim.select(alice, menu, level["custom_id"], ["hard"])
        assert r.status == "ok" and r.message is not None
        [again] = [s for s in r.message.selects() if verb_of(s["custom_id"]) == "level"]
        assert [o["value"] for o in again["options"] if o.get("default")] == ["hard"]
        await w.sim.settle()
        assert w.bot.manager.tables[1].level == "hard"
        shown = json.dumps(w.table_message().embeds)
        assert "The computer players now play at the hard level." in shown
        assert w.table_message().embeds[0]["footer"]["text"] == "Computer players: hard"
        # the lobby's menu left open acts on the game too: no dead select
        [stale] = [s for s in old_menu.selects() if verb_of(s["custom_id"]) == "level"]
        r = await w.sim.select(alice, old_menu, stale["custom_id"], ["easy"])
        assert r.status == "ok"
        await w.sim.settle()
        assert w.bot.manager.tables[1].level == "easy"
        # Bob may manage the server (these worlds' last member): he may change it too
        r = await w.sim.click(bob, w.table_message(), button(w.table_message(), "manage")[
            "custom_id"])
        assert r.message is not None
        [level] = [s for s in r.message.selects() if verb_of(s["custom_id"]) == "level"]
        r = await w.sim.select(bob, r.message, level["custom_id"], ["normal"])
        assert r.status == "ok"
        await w.sim.settle()
        assert w.bot.manager.tables[1].level == "normal"
        assert w.sim.spec_errors == [] and w.sim.client_errors == []


async def test_a_level_change_in_play_reads_in_japanese(tmp_path: Path) -> None:
    async with world(tmp_path, people=1, locale="ja") as w:  # a Japanese server's table
        [alice] = w.users
        lobby = await lobby_with_computer(w, alice, "ja")
        await w.sim.click(alice, lobby, button(lobby, "start")["custom_id"], locale="ja")
        await w.sim.settle()
        table = w.table_message()
        r = await w.sim.click(alice, table, button(table, "manage")["custom_id"], locale="ja")
        assert r.message is not None
        [level] = [s for s in r.message.selects() if verb_of(s["custom_id"]) == "level"]
        assert level["placeholder"] == "コンピューターの強さ"
        await w.sim.select(alice, r.message, level["custom_id"], ["easy"], locale="ja")
        await w.sim.settle()
        assert "コンピューターの強さを「やさしい」に変えました。" in json.dumps(
            w.table_message().embeds, ensure_ascii=False)
