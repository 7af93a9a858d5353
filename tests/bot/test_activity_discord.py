"""The Discord side of the Activity through the simulated Discord: the table message's Open
table button answers with LAUNCH_ACTIVITY (type 12) for anyone, a stale one says why, and the
command sync keeps the entry point command exactly when the Activity is configured."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.client.deckhand import Deckhand
from bot.tables import TurnReminder
from tests.bot.sim_helpers import button, make_bot, table_of
from tests.discord_sim import SimChannel, SimGuild, SimulatedDiscord, SimUser

ENTRY_POINT = 4


@pytest.fixture
def configured(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Bots made in the test have the Activity configured."""
    monkeypatch.setattr(Deckhand, "activity_configured", property(lambda self: True))
    yield


@asynccontextmanager
async def table_world(tmp_path: Path, *, activities: bool = True
                      ) -> AsyncIterator[tuple[SimulatedDiscord, Deckhand, SimChannel,
                                               list[SimUser]]]:
    """A bot in a server with Alice, Bob and Carol (the application has an Activity when
    ``activities``)."""
    async with SimulatedDiscord(activities=activities) as sim:
        guild = sim.add_guild("Test Server")
        channel = sim.add_channel(guild, "cards")
        users = [sim.add_user(name) for name in ("Alice", "Bob", "Carol")]
        for user in users:
            sim.add_member(guild, user)
        bot = await make_bot(tmp_path / "deckhand.sqlite3")
        await sim.start(bot, wait_for_sync=True)
        try:
            yield sim, bot, channel, users
        finally:
            await sim.stop_bot()
            await bot.manager.close()
            await bot.store.close()


def verbs(message: Any) -> list[str]:
    """The verbs of a message's buttons."""
    return [str(b.get("custom_id", "")).split(":")[1] for b in message.buttons()
            if b.get("custom_id")]


async def open_lobby(sim: SimulatedDiscord, channel: SimChannel, host: SimUser) -> Any:
    """/play high-card in the channel: the lobby message."""
    r = await sim.slash(host, channel, "play", {"game": "high-card"})
    assert r.status == "ok", r
    await sim.settle()
    return r.message  # the table's message in the channel


async def test_open_table_launches_the_activity_in_the_table_channel_for_a_spectator(
        tmp_path: Path, configured: None) -> None:
    async with table_world(tmp_path) as (sim, _bot, channel, (alice, bob, carol)):
        lobby = await open_lobby(sim, channel, alice)
        assert "open" in verbs(lobby)  # the lobby offers it already
        r = await sim.click(bob, lobby, button(lobby, "join")["custom_id"])
        await sim.settle()
        r = await sim.click(alice, table_of(sim, channel), button(lobby, "start")["custom_id"])
        await sim.settle()
        # the table's compact message in the channel (the whole table is in its thread)
        playing = next(m for m in sim.messages(channel) if m.id == lobby.id)
        assert not playing.embeds and "hand" in verbs(playing) and "open" in verbs(playing)
        before = len(sim.ephemerals(carol))
        r = await sim.click(carol, playing, button(playing, "open")["custom_id"])  # not seated
        assert r.status == "ok" and r.callback_type == 12, r
        assert r.activity_instance_id is not None
        [launch] = sim.launches
        assert (launch.user, launch.channel, launch.interaction_id) == (carol, channel, r.id)
        assert launch.instance_id == r.activity_instance_id
        assert sim._activity_instances[launch.instance_id] == (channel, [carol])
        assert len(sim.ephemerals(carol)) == before  # the Activity is the whole answer
        assert sim.spec_errors == [] and sim.client_errors == []


async def test_a_reminder_opens_the_table_in_the_activity_in_its_thread(
        tmp_path: Path, configured: None) -> None:
    """A turn's reminder in the table's thread carries Open table: the Activity launches in
    the thread, whose page shows that table (#50 item 7)."""
    async with table_world(tmp_path) as (sim, bot, channel, (alice, bob, _)):
        lobby = await open_lobby(sim, channel, alice)
        await sim.click(bob, lobby, button(lobby, "join")["custom_id"])
        await sim.settle()
        await sim.click(alice, table_of(sim, channel), button(lobby, "start")["custom_id"])
        await sim.settle()
        [thread] = sim.threads_in(channel)
        position = await bot.manager.table_in(int(channel.id))
        assert position is not None and position.thread_id == int(thread.id)
        seat = position.to_act[0]
        due = position.seats[seat].user_id
        assert due is not None
        cog = bot.get_cog("PlayCog")
        await cog.reminders.remind(TurnReminder(position, seat, due))  # type: ignore[union-attr]
        await sim.settle()
        [reminder] = [m for m in sim.messages(thread) if "open" in verbs(m)
                      and f"<@{due}>" in m.content and not m.embeds]  # (not the table)
        assert "mine" in verbs(reminder)  # and the hand, a fresh token each click
        person = alice if int(alice.id) == due else bob
        r = await sim.click(person, reminder, button(reminder, "open")["custom_id"])
        assert r.status == "ok" and r.callback_type == 12, r
        [launch] = sim.launches
        assert (launch.user, launch.channel) == (person, thread)
        assert sim.spec_errors == [] and sim.client_errors == []


async def test_open_table_in_japanese(tmp_path: Path, configured: None) -> None:
    async with SimulatedDiscord(activities=True) as sim:
        guild = sim.add_guild("サーバー", locale="ja")
        channel = sim.add_channel(guild, "cards")
        alice = sim.add_user("Alice", locale="ja")
        sim.add_member(guild, alice)
        bot = await make_bot(tmp_path / "deckhand.sqlite3")
        await sim.start(bot, wait_for_sync=True)
        try:
            lobby = await open_lobby(sim, channel, alice)
            assert button(lobby, "open")["label"] == "卓を開く"
        finally:
            await sim.stop_bot()
            await bot.manager.close()
            await bot.store.close()


async def test_no_open_table_button_without_the_activity(tmp_path: Path) -> None:
    async with table_world(tmp_path, activities=False) as (sim, _bot, channel, (alice, *_)):
        lobby = await open_lobby(sim, channel, alice)
        assert "open" not in verbs(lobby) and "join" in verbs(lobby)


async def test_open_table_on_a_table_that_has_ended_says_so(
        tmp_path: Path, configured: None) -> None:
    async with table_world(tmp_path) as (sim, bot, channel, (alice, bob, _)):
        lobby = await open_lobby(sim, channel, alice)
        [table_id] = list(bot.manager.tables)
        # the table ends while its message still shows Open table (the bot was stopped before
        # it could edit the message): a restart does not bring the table back
        await sim.stop_bot()
        await bot.store.db.execute("UPDATE tables SET status='cancelled' WHERE id=?", table_id)
        await bot.manager.close()
        await bot.store.close()
        again = await make_bot(tmp_path / "deckhand.sqlite3")
        await sim.start(again)
        try:
            r = await sim.click(bob, lobby, button(lobby, "open")["custom_id"])
            assert r.status == "ok" and r.callback_type == 4 and r.ephemeral, r
            assert r.content == ("This table has ended, so there is nothing to open. "
                                 "Start a new one with /play.")
            assert sim.launches == []
        finally:
            await sim.stop_bot()
            await again.manager.close()
            await again.store.close()


async def test_an_open_table_button_left_from_before_the_activity_was_turned_off(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Deckhand, "activity_configured", property(lambda self: True))
    async with table_world(tmp_path) as (sim, _bot, channel, (alice, bob, _)):
        lobby = await open_lobby(sim, channel, alice)
        monkeypatch.setattr(Deckhand, "activity_configured", property(lambda self: False))
        r = await sim.click(bob, lobby, button(lobby, "open")["custom_id"])
        assert r.ephemeral and r.content is not None and "isn't set up" in r.content, r
        assert sim.launches == []


# -- the command sync -------------------------------------------------------------------------


def puts(sim: SimulatedDiscord) -> list[Any]:
    """The bulk overwrites of the global commands the bot made."""
    return [r for r in sim.requests if r.method == "PUT" and r.route.endswith("}/commands")]


def entry_points(commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The entry point commands among some commands."""
    return [c for c in commands if c.get("type") == ENTRY_POINT]


async def test_the_sync_keeps_discords_entry_point_when_the_activity_is_configured(
        tmp_path: Path, configured: None) -> None:
    async with SimulatedDiscord(activities=True) as sim:
        [made] = entry_points(sim.commands())  # Discord made it when Activities were enabled
        bot = await make_bot(tmp_path / "deckhand.sqlite3")
        await sim.start(bot, wait_for_sync=True)
        await sim.settle()
        [put] = puts(sim)
        assert put.status == 200, put.response
        [sent] = entry_points(put.json)
        assert sent == {k: made[k] for k in ("name", "description", "type", "handler",
                                             "integration_types", "contexts",
                                             "default_member_permissions", "nsfw")}
        [kept] = entry_points(sim.commands())
        assert kept["id"] == made["id"] and kept["handler"] == 2
        assert "play" in {c["name"] for c in sim.commands()}
        assert sim.spec_errors == []
        await sim.stop_bot()
        await bot.manager.close()
        await bot.store.close()


async def test_a_customised_entry_point_is_sent_back_unchanged(
        tmp_path: Path, configured: None) -> None:
    async with SimulatedDiscord(activities=True) as sim:
        [made] = entry_points(sim.commands())
        made.update(name="table", description="Open the card table",
                    name_localizations={"ja": "卓"})
        sim._global_commands[:] = [made]  # as the owner edited it in the portal
        bot = await make_bot(tmp_path / "deckhand.sqlite3")
        await sim.start(bot, wait_for_sync=True)
        await sim.settle()
        [sent] = entry_points(puts(sim)[0].json)
        assert (sent["name"], sent["description"], sent["name_localizations"]) == (
            "table", "Open the card table", {"ja": "卓"})
        assert "id" not in sent and "version" not in sent
        await sim.stop_bot()
        await bot.manager.close()
        await bot.store.close()


async def test_no_entry_point_is_made_when_discord_holds_none(
        tmp_path: Path, configured: None, caplog: pytest.LogCaptureFixture) -> None:
    # Activities not enabled in the portal: an entry point with Discord's handler would be
    # refused, and the App Launcher's command is the owner's to make there
    async with SimulatedDiscord(activities=False) as sim:
        bot = await make_bot(tmp_path / "deckhand.sqlite3")
        await sim.start(bot, wait_for_sync=True)
        await sim.settle()
        [put] = puts(sim)
        assert put.status == 200 and entry_points(put.json) == []
        assert "play" in {c["name"] for c in sim.commands()}
        assert any("holds no entry point" in r.getMessage() for r in caplog.records)
        await sim.stop_bot()
        await bot.manager.close()
        await bot.store.close()


async def test_without_the_activity_the_sync_sends_no_entry_point(tmp_path: Path) -> None:
    async with SimulatedDiscord() as sim:
        bot = await make_bot(tmp_path / "deckhand.sqlite3")
        await sim.start(bot, wait_for_sync=True)
        await sim.settle()
        [put] = puts(sim)
        assert put.status == 200 and entry_points(put.json) == []
        assert not [r for r in sim.requests if r.method == "GET" and r.route.endswith(
            "}/commands")]  # nor asks Discord for its commands
        await sim.stop_bot()
        await bot.manager.close()
        await bot.store.close()


async def test_an_app_with_activities_but_none_configured_is_told_what_to_set(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async with SimulatedDiscord(activities=True) as sim:
        bot = await make_bot(tmp_path / "deckhand.sqlite3")
        with pytest.raises(discord.HTTPException, match="50240"):
            await sim.start(bot, wait_for_sync=True)
        [put] = puts(sim)
        assert put.status == 400 and put.response["code"] == 50240
        assert len(entry_points(sim.commands())) == 1  # Discord deleted nothing
        told = [r.getMessage() for r in caplog.records if r.name == "bot.client.tree"]
        assert any("DISCORD_CLIENT_ID" in line and "Developer Portal" in line for line in told)
        await bot.manager.close()
        await bot.store.close()


async def test_turning_the_activity_on_sends_the_commands_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "deckhand.sqlite3"
    async with SimulatedDiscord() as sim:
        bot = await make_bot(db)
        await sim.start(bot, wait_for_sync=True)
        await sim.settle()
        await sim.stop_bot()
        await bot.manager.close()
        await bot.store.close()
        assert len(puts(sim)) == 1
        # the owner enables Activities in the portal (Discord makes the entry point), then
        # configures the Activity here
        sim.activities = True
        sim._global_commands.append(sim._stored_command(
            {"name": "launch", "description": "", "type": ENTRY_POINT, "handler": 2}, None, None))
        monkeypatch.setattr(Deckhand, "activity_configured", property(lambda self: True))
        bot = await make_bot(db)
        await sim.start(bot, wait_for_sync=True)
        await sim.settle()
        assert len(puts(sim)) == 2 and puts(sim)[-1].status == 200
        assert len(entry_points(sim.commands())) == 1
        await sim.stop_bot()
        await bot.manager.close()
        await bot.store.close()


# -- the simulated Discord's rules ----------------------------------------------------------


async def raw_put(sim: SimulatedDiscord, bot: Deckhand, body: list[dict[str, Any]],
                  guild: SimGuild | None = None) -> discord.HTTPException | None:
    """A bulk overwrite sent as it is; the refusal, or None."""
    assert bot.application_id is not None
    try:
        if guild is None:
            await bot.http.bulk_upsert_global_commands(bot.application_id, payload=body)
        else:
            await bot.http.bulk_upsert_guild_commands(bot.application_id, int(guild.id),
                                                      payload=body)
    except discord.HTTPException as refused:
        return refused
    return None


async def test_the_simulated_discord_refuses_what_discord_refuses(
        tmp_path: Path, configured: None) -> None:
    async with SimulatedDiscord(activities=True) as sim:
        guild = sim.add_guild("Test Server")
        [made] = entry_points(sim.commands())
        bot = await make_bot(tmp_path / "deckhand.sqlite3")
        await sim.start(bot, wait_for_sync=False)
        slash = {"name": "ping", "description": "Ping", "type": 1}
        left_out = await raw_put(sim, bot, [slash])  # the entry point left out
        assert left_out is not None and left_out.code == 50240, left_out
        assert [c["id"] for c in entry_points(sim.commands())] == [made["id"]]  # still there
        entry = {"name": "launch", "description": "", "type": 4, "handler": 2}
        two = await raw_put(sim, bot, [entry, dict(entry, name="other")])
        assert two is not None and two.status == 400
        in_guild = await raw_put(sim, bot, [entry], guild)
        assert in_guild is not None and in_guild.status == 400
        handler_on_slash = await raw_put(sim, bot, [dict(slash, handler=2), entry])
        assert handler_on_slash is not None and handler_on_slash.status == 400
        assert await raw_put(sim, bot, [slash, entry]) is None
        [kept] = entry_points(sim.commands())
        assert kept["id"] == made["id"]  # the same command, kept
        await sim.stop_bot()
        await bot.manager.close()
        await bot.store.close()


async def test_the_app_launcher_opens_the_activity_without_the_bot(tmp_path: Path) -> None:
    async with SimulatedDiscord(activities=True) as sim:
        guild = sim.add_guild("Test Server")
        channel = sim.add_channel(guild, "cards")
        alice = sim.add_user("Alice")
        sim.add_member(guild, alice)
        launch = await sim.open_app_launcher(alice, channel)
        assert not hasattr(launch, "status")  # handler 2: no interaction reached the app
        assert sim.launches == [launch] and launch.interaction_id is None
