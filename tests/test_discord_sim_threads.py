"""The simulated Discord's threads: started from a message (sharing its id) or without one, the
messages in them, archiving, locking and deleting with Discord's answers, the gateway events
discord.py keeps its cache with, the bot's thread permissions, and interactions from inside a
thread."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord import app_commands

from tests.discord_sim import SimulatedDiscord
from tests.discord_sim.models import (
    CREATE_PUBLIC_THREADS,
    MANAGE_THREADS,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    SimChannel,
)
from tests.discord_sim.spec import spec_validator
from tests.test_discord_sim import World, raw

FROM_MESSAGE = "/channels/{channel_id}/messages/{message_id}/threads"


class Seat(discord.ui.View):
    """A Join button (edits its message) and a Say button (answers with a new message)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", custom_id="seat:join")
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button[Seat]) -> None:
        """Edit the message to show who joined."""
        await interaction.response.edit_message(content=f"{interaction.user.display_name} joined")

    @discord.ui.button(label="Say", custom_id="seat:say")
    async def say(self, interaction: discord.Interaction, button: discord.ui.Button[Seat]) -> None:
        """Answer with a message of its own."""
        await interaction.response.send_message(f"{interaction.user.display_name} says hi")


class ThreadBot(discord.Client):
    """A bot that opens a table message with a thread under it, and says where it is asked."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.events: list[tuple[str, int]] = []
        self.where: list[discord.Interaction] = []
        self.refused: list[discord.HTTPException] = []
        self.threads: list[discord.Thread] = []
        self.seen: list[discord.Message] = []

        @self.tree.command(name="table", description="Open a table with its thread")
        async def table(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("the table", view=Seat())
            message = await interaction.original_response()
            try:
                thread = await message.create_thread(name="Table 1", auto_archive_duration=60)
            except discord.HTTPException as error:
                self.refused.append(error)
                return
            self.threads.append(thread)
            await thread.send("welcome to the table", view=Seat())

        @self.tree.command(name="where", description="Say where")
        async def where(interaction: discord.Interaction) -> None:
            self.where.append(interaction)
            await interaction.response.send_message(f"in {interaction.channel_id}")

    async def setup_hook(self) -> None:
        """Sync the commands."""
        self.add_view(Seat())
        await self.tree.sync()

    async def on_message(self, message: discord.Message) -> None:
        """Remember the MESSAGE_CREATEs."""
        self.seen.append(message)

    async def on_thread_create(self, thread: discord.Thread) -> None:
        """Remember a new thread."""
        self.events.append(("create", thread.id))

    async def on_thread_join(self, thread: discord.Thread) -> None:
        """Remember a thread joined (or seen again)."""
        self.events.append(("join", thread.id))

    async def on_thread_remove(self, thread: discord.Thread) -> None:
        """Remember leaving a thread."""
        self.events.append(("remove", thread.id))

    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:
        """Remember a thread's change."""
        self.events.append(("update", after.id))

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """Remember a deleted thread."""
        self.events.append(("delete", payload.thread_id))


@pytest.fixture
async def world() -> AsyncIterator[World]:
    """A running simulation with one guild, one channel and Alice (the refusals the tests
    ask for are logged by discord.py as warnings, not errors)."""
    async with SimulatedDiscord(interaction_deadline=3.0) as sim:
        guild = sim.add_guild("Test Server", locale="en-US")
        channel = sim.add_channel(guild, "cards")
        alice = sim.add_user("Alice", locale="en-US")
        sim.add_member(guild, alice)
        yield sim, guild, channel, alice
        await sim.settle()
        assert sim.client_errors == []


async def opened(world: World) -> tuple[SimulatedDiscord, SimChannel, SimChannel, ThreadBot]:
    """Start a ThreadBot and open a table: the simulation, the channel, the thread, the bot."""
    sim, _, channel, alice = world
    bot = ThreadBot()
    await sim.start(bot)
    r = await sim.slash(alice, channel, "table")
    await sim.settle()
    assert r.status == "ok" and r.message is not None
    # the bot reads its response back before it opens the thread: on a loaded machine the
    # wire may be quiet for longer than settle's idle in between
    for _ in range(200):
        threads = sim.threads_in(channel)
        if threads and any(m.content == "welcome to the table" for m in bot.seen):
            break
        await asyncio.sleep(0.05)
        await sim.settle()
    assert len(threads) == 1
    return sim, channel, threads[0], bot


def thread_path(thread: SimChannel) -> str:
    return f"/channels/{thread.id}"


async def test_a_thread_started_from_a_message_shares_its_id(world: World) -> None:
    sim, channel, thread, bot = await opened(world)
    table = sim.messages(channel)[0]
    assert thread.id == table.id and thread.type == 11 and thread.parent_id == channel.id
    assert thread.name == "Table 1" and thread.auto_archive_duration == 60
    assert thread.owner_id == sim.bot_user.id and list(thread.members) == [sim.bot_user.id]
    assert not thread.archived and not thread.locked
    start = next(q for q in sim.requests if q.route == FROM_MESSAGE)
    assert start.status == 201 and start.json["name"] == "Table 1"
    assert start.response["id"] == table.id and start.response["parent_id"] == channel.id
    assert start.response["thread_metadata"]["auto_archive_duration"] == 60
    assert start.response["member"]["user_id"] == sim.bot_user.id
    # the thread opens with Discord's starter message, then the bot's post
    starter, welcome = sim.messages(thread)
    assert starter.type == 21 and starter.raw["message_reference"]["message_id"] == table.id
    assert welcome.content == "welcome to the table" and welcome.channel_id == thread.id
    assert thread.message_count == 1 and thread.total_message_sent == 1
    # the table message carries its thread
    status, body, _ = await raw(sim, "GET", f"/channels/{channel.id}/messages/{table.id}")
    assert status == 200 and isinstance(body, dict) and body["thread"]["id"] == thread.id
    # discord.py's cache knows it from THREAD_CREATE (newly_created) and the membership
    cached = bot.get_channel(int(thread.id))
    assert isinstance(cached, discord.Thread) and cached.parent_id == int(channel.id)
    assert cached.me is not None and cached.owner_id == int(sim.bot_user.id)
    assert ("create", int(thread.id)) in bot.events
    assert bot.threads[0].id == int(table.id)
    assert [m.channel.id for m in bot.seen if m.content == "welcome to the table"] == [
        int(thread.id)]
    assert sim.spec_errors == []


async def test_a_thread_without_a_message_and_get_channel(world: World) -> None:
    sim, _, channel, _ = world
    path = f"/channels/{channel.id}/threads"
    status, body, _ = await raw(sim, "POST", path, json={"name": "Lobby", "type": 11,
                                                         "auto_archive_duration": 1440})
    assert status == 201 and isinstance(body, dict)
    assert body["type"] == 11 and body["parent_id"] == channel.id
    assert body["message_count"] == 0 and body["member_count"] == 1
    thread = sim.channel(body["id"])
    assert sim.messages(thread) == []  # no starter message without a message
    # a missing type is a private thread (Discord's channel docs); @everyone here cannot
    # create private threads
    status, body, _ = await raw(sim, "POST", path, json={"name": "Secret"})
    assert (status, body) == (403, {"message": "Missing Permissions", "code": 50013})
    status, body, _ = await raw(sim, "GET", thread_path(thread))
    assert status == 200 and isinstance(body, dict) and body["name"] == "Lobby"
    assert body["thread_metadata"]["archived"] is False
    assert body["member"]["id"] == thread.id
    assert sim.spec_errors == []


async def test_bad_names_and_durations_answer_discords_form_errors(world: World) -> None:
    sim, _, channel, _ = world
    status, sent, _ = await raw(sim, "POST", f"/channels/{channel.id}/messages",
                                json={"content": "a table"})
    assert status == 200 and isinstance(sent, dict)
    path = f"/channels/{channel.id}/messages/{sent['id']}/threads"
    status, body, _ = await raw(sim, "POST", path, json={"name": ""})
    assert status == 400 and body == {
        "message": "Invalid Form Body", "code": 50035,
        "errors": {"name": {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH",
                                         "message": "Must be between 1 and 100 in length."}]}}}
    status, body, _ = await raw(sim, "POST", path, json={"name": "x" * 101})
    assert status == 400 and isinstance(body, dict) and "name" in body["errors"]
    status, body, _ = await raw(sim, "POST", path, json={"name": "T", "auto_archive_duration": 30})
    assert status == 400 and isinstance(body, dict)
    assert body["errors"]["auto_archive_duration"]["_errors"][0]["code"] == "BASE_TYPE_CHOICES"
    status, body, _ = await raw(sim, "POST", path, json={"auto_archive_duration": 60})
    assert status == 400 and isinstance(body, dict)
    assert body["errors"]["name"]["_errors"][0]["code"] == "BASE_TYPE_REQUIRED"
    # the bodies were the bot's mistakes: the spec says so too; the answers are Discord's
    assert sim.spec_errors and all("response" not in e.message for e in sim.spec_errors)
    assert {e.route for e in sim.spec_errors} == {FROM_MESSAGE}
    assert sim.threads_in(channel) == []
    sim.spec_errors.clear()
    assert (await raw(sim, "POST", path, json={"name": "T"}))[0] == 201
    status, body, _ = await raw(sim, "POST", path, json={"name": "Again"})
    assert (status, body) == (400, {"message": "A thread has already been created for this "
                                    "message", "code": 160004})
    # a thread inside a thread: not on this channel type
    status, body, _ = await raw(sim, "POST", f"/channels/{sent['id']}/threads",
                                json={"name": "deeper", "type": 11})
    assert status == 400 and isinstance(body, dict) and body["code"] == 50024
    assert sim.spec_errors == []


async def test_posting_unarchives_a_thread_and_a_locked_one_refuses(world: World) -> None:
    sim, _, thread, bot = await opened(world)
    sim.archive(thread)  # a moderator archives it: THREAD_UPDATE, discord.py drops it
    await sim.settle()
    assert thread.archived and bot.get_channel(int(thread.id)) is None
    stamp = thread.archive_timestamp
    posted = f"{thread_path(thread)}/messages"
    status, body, _ = await raw(sim, "POST", posted, json={"content": "still here"})
    assert status == 200 and isinstance(body, dict) and body["channel_id"] == thread.id
    await sim.settle()
    assert not thread.archived and thread.archive_timestamp != stamp
    assert isinstance(bot.get_channel(int(thread.id)), discord.Thread)  # seen again
    assert ("join", int(thread.id)) in bot.events
    # locked by a moderator: Discord's 160005 for the bot without MANAGE_THREADS
    sim.archive(thread, locked=True)
    await sim.settle()
    status, refused, _ = await raw(sim, "POST", posted, json={"content": "let me in"})
    assert (status, refused) == (403, {"message": "Thread is locked", "code": 160005})
    assert thread.archived and thread.locked and thread.message_count == 2
    # editing in an archived thread: 50083
    status, body, _ = await raw(sim, "PATCH", f"{posted}/{body['id']}", json={"content": "x"})
    assert (status, body) == (400, {"message": "Thread is archived", "code": 50083})
    # with MANAGE_THREADS in the parent channel the post goes in and unarchives it
    sim.overwrite_bot(sim.channel(thread.parent_id or ""), allow=MANAGE_THREADS)
    assert (await raw(sim, "POST", posted, json={"content": "moderator"}))[0] == 200
    assert not thread.archived and thread.locked
    assert sim.spec_errors == []


async def test_archive_lock_rename_and_their_permissions(world: World) -> None:
    sim, channel, thread, bot = await opened(world)
    path = thread_path(thread)
    # the creator may archive its own thread; locking needs MANAGE_THREADS
    status, body, _ = await raw(sim, "PATCH", path, json={"locked": True})
    assert (status, body) == (403, {"message": "Missing Permissions", "code": 50013})
    status, body, _ = await raw(sim, "PATCH", path, json={"archived": True})
    assert status == 200 and isinstance(body, dict) and body["thread_metadata"]["archived"]
    await sim.settle()
    assert ("update", int(thread.id)) in bot.events and bot.get_channel(int(thread.id)) is None
    # an archived thread takes nothing but being unarchived
    status, body, _ = await raw(sim, "PATCH", path, json={"name": "Renamed"})
    assert (status, body) == (400, {"message": "Thread is archived", "code": 50083})
    status, body, _ = await raw(sim, "PATCH", path, json={"archived": False, "name": "Table 2",
                                                           "auto_archive_duration": 4320})
    assert status == 200 and isinstance(body, dict) and body["name"] == "Table 2"
    assert body["thread_metadata"] == dict(body["thread_metadata"], archived=False,
                                           auto_archive_duration=4320, locked=False)
    status, body, _ = await raw(sim, "PATCH", path, json={"auto_archive_duration": 45})
    assert status == 400 and isinstance(body, dict) and body["code"] == 50035
    status, body, _ = await raw(sim, "PATCH", path, json={"name": ""})
    assert status == 400 and isinstance(body, dict) and "name" in body["errors"]
    # another channel: the bot has no MANAGE_CHANNELS
    status, body, _ = await raw(sim, "PATCH", f"/channels/{channel.id}", json={"name": "x"})
    assert (status, body) == (403, {"message": "Missing Permissions", "code": 50013})
    # locked (not archived) by the bot as a moderator: without MANAGE_THREADS it may no
    # longer post there, though an interaction's answer may
    sim.overwrite_bot(channel, allow=MANAGE_THREADS)
    assert (await raw(sim, "PATCH", path, json={"locked": True}))[0] == 200
    sim.overwrite_bot(channel)
    status, body, _ = await raw(sim, "POST", f"{path}/messages", json={"content": "x"})
    assert (status, body) == (403, {"message": "Thread is locked", "code": 160005})
    _, welcome = sim.messages(thread)
    status, body, _ = await raw(sim, "PATCH", f"{path}/messages/{welcome.id}",
                                json={"content": "x"})
    assert (status, body) == (403, {"message": "Thread is locked", "code": 160005})
    said = await sim.click(world[3], welcome, label="Say")
    assert said.status == "ok" and said.message is not None
    assert said.message.channel_id == thread.id and not thread.archived
    # a moderator's lock: the bot, its creator, may still unarchive it (threads topic)
    sim.archive(thread, locked=True)
    status, body, _ = await raw(sim, "PATCH", path, json={"archived": False})
    assert status == 200 and not thread.archived and thread.locked
    # but not rename it while it is locked
    status, body, _ = await raw(sim, "PATCH", path, json={"name": "Mine"})
    assert (status, body) == (403, {"message": "Thread is locked", "code": 160005})
    assert sim.spec_errors == []


async def test_deleted_threads_are_unknown_channels(world: World) -> None:
    sim, channel, thread, bot = await opened(world)
    path = thread_path(thread)
    status, body, _ = await raw(sim, "DELETE", path)
    assert (status, body) == (403, {"message": "Missing Permissions", "code": 50013})
    sim.overwrite_bot(channel, allow=MANAGE_THREADS)
    status, body, _ = await raw(sim, "DELETE", path)
    assert status == 200 and isinstance(body, dict) and body["id"] == thread.id
    await sim.settle()
    assert thread.deleted and sim.threads_in(channel) == []
    assert ("delete", int(thread.id)) in bot.events and bot.get_channel(int(thread.id)) is None
    unknown = {"message": "Unknown Channel", "code": 10003}
    for method, where, body in (("GET", path, None), ("PATCH", path, {"archived": False}),
                                ("POST", f"{path}/messages", {"content": "x"}),
                                ("GET", f"{path}/messages", None),
                                ("DELETE", path, None)):
        status, answer, _ = await raw(sim, method, where, json=body)
        assert (status, answer) == (404, unknown), (method, where)
    # the table message no longer carries it, and a new thread may start from it
    table = sim.messages(channel)[0]
    status, answer, _ = await raw(sim, "GET", f"/channels/{channel.id}/messages/{table.id}")
    assert status == 200 and isinstance(answer, dict) and "thread" not in answer
    assert sim.spec_errors == []


async def test_a_moderator_deletes_a_thread_and_clicks_in_it_are_gone(world: World) -> None:
    sim, _, thread, bot = await opened(world)
    _, welcome = sim.messages(thread)
    alice = world[3]
    sim.delete_channel(thread)
    await sim.settle()
    assert ("delete", int(thread.id)) in bot.events and bot.get_channel(int(thread.id)) is None
    with pytest.raises(AssertionError, match="deleted"):
        await sim.click(alice, welcome, label="Join")
    with pytest.raises(AssertionError, match="deleted"):
        await sim.slash(alice, thread, "where")
    with pytest.raises(AssertionError, match="not a thread that exists"):
        sim.archive(thread)


async def test_missing_thread_permissions_answer_50013_and_show_in_the_payloads(
    world: World,
) -> None:
    sim, guild, channel, alice = world
    bot = ThreadBot()
    await sim.start(bot)
    sim.overwrite_bot(channel, deny=CREATE_PUBLIC_THREADS)
    await sim.settle()
    # discord.py sees the overwrite (CHANNEL_UPDATE) ...
    cached = bot.get_channel(int(channel.id))
    assert isinstance(cached, discord.TextChannel)
    overwrite = cached.overwrites_for(cached.guild.me)
    assert overwrite.create_public_threads is False
    # ... and the interaction's app_permissions say so
    r = await sim.slash(alice, channel, "where")
    assert r.status == "ok" and not bot.where[-1].app_permissions.create_public_threads
    assert bot.where[-1].app_permissions.send_messages
    r = await sim.slash(alice, channel, "table")
    await sim.settle()
    assert r.status == "ok" and sim.threads_in(channel) == []
    assert [(e.status, e.code, e.text) for e in bot.refused] == [
        (403, 50013, "Missing Permissions")]
    # the channel's own payload lists the overwrite
    status, body, _ = await raw(sim, "GET", f"/channels/{channel.id}")
    assert status == 200 and isinstance(body, dict)
    assert body["permission_overwrites"] == [{"id": sim.bot_user.id, "type": 1, "allow": "0",
                                              "deny": str(CREATE_PUBLIC_THREADS)}]
    # SEND_MESSAGES_IN_THREADS taken away: the thread is there, talking in it is not
    sim.overwrite_bot(channel, deny=SEND_MESSAGES_IN_THREADS)
    status, thread, _ = await raw(sim, "POST", f"/channels/{channel.id}/threads",
                                  json={"name": "Quiet", "type": 11})
    assert status == 201 and isinstance(thread, dict)
    status, body, _ = await raw(sim, "POST", f"/channels/{thread['id']}/messages",
                                json={"content": "hello"})
    assert (status, body) == (403, {"message": "Missing Permissions", "code": 50013})
    # SEND_MESSAGES has no effect in threads, but it does in the channel
    sim.overwrite_bot(channel, deny=SEND_MESSAGES)
    assert (await raw(sim, "POST", f"/channels/{thread['id']}/messages",
                      json={"content": "hello"}))[0] == 200
    status, body, _ = await raw(sim, "POST", f"/channels/{channel.id}/messages",
                                json={"content": "hello"})
    assert status == 403
    # an interaction's answer needs neither
    r = await sim.slash(alice, channel, "where")
    assert r.status == "ok" and r.message is not None
    sim.overwrite_bot(channel)  # removed
    assert channel.overwrites == {} and sim.bot_permissions(channel) & SEND_MESSAGES
    with pytest.raises(AssertionError, match="guild channel"):
        sim.overwrite_bot(sim.channel(thread["id"]), deny=SEND_MESSAGES)
    assert sim.spec_errors == [] and guild.id == channel.guild_id


async def test_slash_and_clicks_from_inside_a_thread(world: World) -> None:
    sim, channel, thread, bot = await opened(world)
    alice = world[3]
    r = await sim.slash(alice, thread, "where")
    assert r.status == "ok" and r.message is not None and r.message.channel_id == thread.id
    payload: dict[str, Any] = next(
        q for q in sim.requests if q.interaction_id == r.id).json  # the callback's body
    assert payload["data"]["content"] == f"in {thread.id}"
    interaction = bot.where[-1]
    assert isinstance(interaction.channel, discord.Thread)
    assert interaction.channel.parent_id == int(channel.id)
    assert interaction.channel.type == discord.ChannelType.public_thread
    assert interaction.app_permissions.send_messages_in_threads
    assert thread.message_count == 2  # the welcome and the answer
    _, welcome, _ = sim.messages(thread)
    clicked = await sim.click(alice, welcome, label="Join")
    assert clicked.status == "ok" and welcome.content == "Alice joined"
    # archived: no commands (Discord's threads topic); a click still goes, and its answer
    # (here an edit of an archived thread's message) is refused with 50083
    sim.archive(thread)
    await sim.settle()
    with pytest.raises(AssertionError, match="archived thread"):
        await sim.slash(alice, thread, "where")
    clicked = await sim.click(alice, welcome, label="Join")
    assert clicked.status == "rejected"
    assert clicked.responses[0].response == {"message": "Thread is archived", "code": 50083}
    # an answer with a new message unarchives it, as any post does
    said = await sim.click(alice, welcome, label="Say")
    assert said.status == "ok" and said.content == "Alice says hi" and not thread.archived
    # locked and archived: the answer is refused
    sim.archive(thread, locked=True)
    said = await sim.click(alice, welcome, label="Say")
    assert said.status == "rejected" and thread.archived
    assert said.responses[0].response == {"message": "Thread is archived", "code": 50083}
    await sim.settle()
    assert len([e for e in sim.client_errors if "50083" in e]) == len(sim.client_errors) == 2
    sim.client_errors.clear()  # the view's two refused answers, asked for above
    assert sim.spec_errors == []


async def test_messages_count_and_deleting_one(world: World) -> None:
    sim, _, thread, _ = await opened(world)
    posted = f"{thread_path(thread)}/messages"
    ids = []
    for text in ("one", "two"):
        status, body, _ = await raw(sim, "POST", posted, json={"content": text})
        assert status == 200 and isinstance(body, dict)
        ids.append(body["id"])
    status, body, _ = await raw(sim, "GET", posted)
    assert status == 200 and isinstance(body, list)
    assert [m["content"] for m in body] == ["two", "one", "welcome to the table", ""]
    assert body[-1]["type"] == 21
    assert (await raw(sim, "DELETE", f"{posted}/{ids[0]}"))[0] == 204
    assert thread.message_count == 2 and thread.total_message_sent == 3
    status, body, _ = await raw(sim, "GET", thread_path(thread))
    assert isinstance(body, dict) and (body["message_count"], body["total_message_sent"]) == (
        2, 3)


async def test_joining_and_leaving_a_thread(world: World) -> None:
    sim, guild, thread, bot = await opened(world)
    alice = world[3]
    members = f"{thread_path(thread)}/thread-members"
    cached = bot.get_channel(int(thread.id))
    assert isinstance(cached, discord.Thread)
    await cached.leave()
    await sim.settle()
    assert sim.bot_user.id not in thread.members and ("remove", cached.id) in bot.events
    joins = bot.events.count(("join", cached.id))
    await cached.join()
    await sim.settle()
    assert sim.bot_user.id in thread.members and cached.me is not None
    assert bot.events.count(("join", cached.id)) == joins + 1
    assert (await raw(sim, "PUT", f"{members}/{alice.id}"))[0] == 204
    assert list(thread.members) == [sim.bot_user.id, alice.id]
    status, body, _ = await raw(sim, "PUT", f"{members}/{guild.owner_id}1")
    assert (status, body) == (404, {"message": "Unknown Member", "code": 10007})
    # removing someone else needs MANAGE_THREADS
    status, body, _ = await raw(sim, "DELETE", f"{members}/{alice.id}")
    assert status == 403 and alice.id in thread.members
    sim.archive(thread)
    status, body, _ = await raw(sim, "PUT", f"{members}/@me")
    assert (status, body) == (400, {"message": "Thread is archived", "code": 50083})
    status, body, _ = await raw(sim, "PUT", f"/channels/{thread.parent_id}/thread-members/@me")
    assert status == 400 and isinstance(body, dict) and body["code"] == 50024
    assert sim.spec_errors == []


async def test_guild_create_lists_the_active_threads_on_connect(world: World) -> None:
    sim, channel, thread, _ = await opened(world)
    status, other, _ = await raw(sim, "POST", f"/channels/{channel.id}/threads",
                                 json={"name": "Old table", "type": 11})
    assert status == 201 and isinstance(other, dict)
    sim.archive(sim.channel(other["id"]))
    await sim.stop_bot()
    again = ThreadBot()
    await sim.start(again)
    found = again.get_guild(int(channel.guild_id or 0))
    assert found is not None
    assert [t.id for t in found.threads] == [int(thread.id)]  # archived ones are not synced
    assert found.threads[0].me is not None and found.threads[0].parent_id == int(channel.id)
    assert found.get_channel(int(thread.id)) is None  # a thread is not a guild channel
    status, listed, _ = await raw(sim, "GET", f"/guilds/{channel.guild_id}/channels")
    assert status == 200 and isinstance(listed, list) and [c["id"] for c in listed] == [
        channel.id]


async def test_thread_events_need_the_guilds_intent(world: World) -> None:
    sim, _, channel, alice = world
    bot = ThreadBot()
    bot._connection._intents = discord.Intents(guild_messages=True)  # no GUILDS
    await sim.start(bot)
    assert [s.intents & 1 for s in sim._gateways] == [0]
    await raw(sim, "POST", f"/channels/{channel.id}/threads", json={"name": "T", "type": 11})
    await sim.settle()
    assert bot.events == [] and len(sim.threads_in(channel)) == 1
    assert sim.spec_errors == [] and alice.name == "Alice"


def test_answers_are_checked_against_the_spec() -> None:
    validator = spec_validator()
    thread = SimChannel("1", "2", "T", type=11, parent_id="3", owner_id="4",
                        archive_timestamp="2026-01-01T00:00:00+00:00",
                        create_timestamp="2026-01-01T00:00:00+00:00", members={"4": "x"})
    good = thread.payload()
    assert validator.validate_response("POST", FROM_MESSAGE, 201, good) == []
    assert validator.validate_response("GET", "/channels/{channel_id}", 200, good) == []
    broken = dict(good)
    del broken["thread_metadata"]
    assert validator.validate_response("POST", FROM_MESSAGE, 201, broken)
    # the 4XX answers are Discord's error object, field errors with their string codes
    error = {"message": "Invalid Form Body", "code": 50035,
             "errors": {"name": {"_errors": [{"code": "BASE_TYPE_REQUIRED",
                                              "message": "This field is required"}]}}}
    assert validator.validate_response("POST", FROM_MESSAGE, 400, error) == []
    assert validator.validate_response("POST", FROM_MESSAGE, 403, {"message": "x"})
