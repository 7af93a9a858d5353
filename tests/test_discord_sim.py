"""Tests of the simulated Discord, driven by a small real discord.py client."""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import AsyncIterator

import aiohttp
import discord
import discord.gateway
import discord.http
import pytest
from discord import app_commands

from tests.discord_sim import SimulatedDiscord, SimUser
from tests.discord_sim.models import SimChannel, SimGuild


class Board(discord.ui.View):
    """A message with a Join button, a Close button and a card select."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", custom_id="board:join", style=discord.ButtonStyle.primary)
    async def join(
        self, interaction: discord.Interaction, button: discord.ui.Button[Board]
    ) -> None:
        """Edit the message to show who joined."""
        await interaction.response.edit_message(content=f"{interaction.user.display_name} joined")

    @discord.ui.button(label="Closed", custom_id="board:closed", disabled=True)
    async def closed(
        self, interaction: discord.Interaction, button: discord.ui.Button[Board]
    ) -> None:
        """Never clickable."""
        await interaction.response.send_message("unreachable")

    @discord.ui.select(
        custom_id="board:cards",
        min_values=1,
        max_values=2,
        options=[discord.SelectOption(label=c, value=c) for c in ("TS", "TH", "9C")],
    )
    async def cards(
        self, interaction: discord.Interaction, select: discord.ui.Select[Board]
    ) -> None:
        """Answer privately with the chosen cards."""
        await interaction.response.send_message(f"played {' '.join(select.values)}", ephemeral=True)


class NameModal(discord.ui.Modal, title="Your name"):
    """A modal asking for a table name."""

    name: discord.ui.TextInput[NameModal] = discord.ui.TextInput(label="Name", custom_id="name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Echo the submitted name."""
        await interaction.response.send_message(f"table {self.name.value}")


class SampleBot(discord.Client):
    """A small bot exercising every interaction kind the simulation supports."""

    def __init__(self, *, late: float = 0.0) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.late = late
        self.errors: list[BaseException] = []
        self.callbacks: list[discord.InteractionCallbackResponse[discord.Client]] = []
        self.seen: list[discord.Message] = []
        self._define()

    async def on_message(self, message: discord.Message) -> None:
        """Remember every MESSAGE_CREATE the gateway delivers."""
        self.seen.append(message)

    async def setup_hook(self) -> None:
        """Register the persistent view and sync commands globally."""
        self.add_view(Board())
        await self.tree.sync()

    def _define(self) -> None:
        tree = self.tree

        @tree.command(name="play", description="Open a table")
        @app_commands.describe(game="Which game")
        @app_commands.choices(
            game=[
                app_commands.Choice(name="1234", value="1234"),
                app_commands.Choice(name="22", value="twenty-two"),
            ]
        )
        async def play(interaction: discord.Interaction, game: str, seats: int = 4) -> None:
            sent = await interaction.response.send_message(f"{game} for {seats}", view=Board())
            self.callbacks.append(sent)

        @tree.command(name="hand", description="Show your hand")
        async def hand(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("your hand", ephemeral=True, view=Board())
            await interaction.followup.send("second thought", ephemeral=True)

        @tree.command(name="slow", description="Defer, then answer")
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await asyncio.sleep(0.01)
            await interaction.edit_original_response(content="done thinking")

        @tree.command(name="twice", description="Answer twice")
        async def twice(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("once")
            try:
                await interaction.response.send_message("twice")
            except discord.InteractionResponded as error:
                self.errors.append(error)
            # Bypass discord.py's guard to reach the API itself.
            adapter = discord.webhook.async_.async_context.get()
            params = discord.webhook.async_.interaction_response_params(4, {"content": "again"})
            try:
                await adapter.create_interaction_response(
                    interaction.id, interaction.token, session=interaction._session, params=params
                )
            except discord.HTTPException as error:
                self.errors.append(error)

        @tree.command(name="late", description="Answer after the deadline")
        async def late(interaction: discord.Interaction) -> None:
            await asyncio.sleep(self.late)
            try:
                await interaction.response.send_message("too late")
            except discord.HTTPException as error:
                self.errors.append(error)

        @tree.command(name="dm", description="Send me a DM")
        async def dm(interaction: discord.Interaction) -> None:
            try:
                await interaction.user.send("psst", view=Board())
            except discord.Forbidden as error:
                self.errors.append(error)
                await interaction.response.send_message("cannot DM you", ephemeral=True)
                return
            await interaction.response.send_message("sent", ephemeral=True)

        @tree.command(name="picture", description="Upload a file")
        async def picture(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(
                "the table", file=discord.File(io.BytesIO(b"PNG-bytes"), filename="table.png")
            )

        @tree.command(name="name", description="Open a modal")
        async def name(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(NameModal())

        settings = app_commands.Group(name="settings", description="Settings")

        @settings.command(name="dm", description="DM preference")
        async def settings_dm(interaction: discord.Interaction, on: bool) -> None:
            await interaction.response.send_message(f"dm {'on' if on else 'off'}", ephemeral=True)

        tree.add_command(settings)

        @tree.command(name="invite", description="Invite a member")
        async def invite(interaction: discord.Interaction, who: discord.Member) -> None:
            where = interaction.guild.name if interaction.guild else "?"
            await interaction.response.send_message(f"invited {who.display_name} to {where}")

        async def cards(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=c, value=c) for c in ("TS", "TH") if current in c]

        @tree.command(name="pick", description="Pick a card")
        @app_commands.autocomplete(card=cards)
        async def pick(interaction: discord.Interaction, card: str) -> None:
            await interaction.response.send_message(f"picked {card}")

        @tree.command(name="admin", description="Server settings")
        @app_commands.default_permissions(manage_guild=True)
        @app_commands.guild_only()
        async def admin(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("admin", ephemeral=True)

        @tree.command(name="boom", description="Fail")
        async def boom(interaction: discord.Interaction) -> None:
            raise RuntimeError("boom")

        @tree.command(name="where", description="Say where")
        async def where(interaction: discord.Interaction) -> None:
            kind = "dm" if interaction.guild_id is None else "guild"
            await interaction.response.send_message(f"{kind} {interaction.locale.value}")

        @tree.command(name="bad", description="Send a body Discord rejects")
        async def bad(interaction: discord.Interaction) -> None:
            await interaction.response.defer()
            route = discord.http.Route(
                "POST", "/channels/{channel_id}/messages", channel_id=interaction.channel_id
            )
            try:
                await self.http.request(route, json={"content": "x", "embeds": [{"title": 5}]})
            except discord.HTTPException as error:
                self.errors.append(error)
            await interaction.followup.send("after")


@pytest.fixture
async def world() -> AsyncIterator[tuple[SimulatedDiscord, SimGuild, SimChannel, SimUser]]:
    """A running simulation with one guild, one channel and Alice."""
    async with SimulatedDiscord(interaction_deadline=0.5) as sim:
        guild = sim.add_guild("Test Server", locale="en-US")
        channel = sim.add_channel(guild, "cards")
        alice = sim.add_user("Alice", locale="en-US")
        sim.add_member(guild, alice)
        yield sim, guild, channel, alice
        await sim.settle()
        assert sim.client_errors == [] and sim.client_warnings == []


async def test_start_syncs_and_slash_round_trips(
    world: tuple[SimulatedDiscord, SimGuild, SimChannel, SimUser],
) -> None:
    sim, _, channel, alice = world
    bot = SampleBot()
    started = time.perf_counter()
    await sim.start(bot)
    r = await sim.slash(alice, channel, "play", {"game": "1234"})
    elapsed = time.perf_counter() - started
    assert r.status == "ok"
    assert r.content == "1234 for 4"
    assert r.message is not None and [b["custom_id"] for b in r.message.buttons()] == [
        "board:join",
        "board:closed",
    ]
    assert sim.last_message(channel) == r.message
    assert {c["name"] for c in sim.commands()} >= {"play", "hand", "settings"}
    assert sim.spec_errors == []
    print(f"start + one command: {elapsed:.3f} s")
    assert elapsed < 1.0, elapsed
    await sim.stop_bot()


World = tuple[SimulatedDiscord, SimGuild, SimChannel, SimUser]


async def raw(
    sim: SimulatedDiscord, method: str, path: str, **kwargs: object
) -> tuple[int, object, dict[str, str]]:
    """Send one request to the simulation as the bot would, returning status, body, headers."""
    kwargs.setdefault("headers", {"Authorization": f"Bot {sim.token}"})
    async with (
        aiohttp.ClientSession() as session,
        session.request(
            method,
            sim.base_url + "/api/v10" + path,
            **kwargs,  # type: ignore[arg-type]
        ) as response,
    ):
        body = await response.json() if response.content_type == "application/json" else None
        return response.status, body, dict(response.headers)


async def started(world: World) -> tuple[SimulatedDiscord, SimChannel, SimUser, SampleBot]:
    """Start a SampleBot on the world's simulation."""
    sim, _, channel, alice = world
    bot = SampleBot()
    await sim.start(bot)
    return sim, channel, alice, bot


async def test_with_response_returns_the_created_message(world: World) -> None:
    sim, channel, alice, bot = await started(world)
    r = await sim.slash(alice, channel, "play", {"game": "twenty-two", "seats": 3})
    assert r.content == "twenty-two for 3"
    callback = r.responses[0]
    assert callback.route == "/interactions/{interaction_id}/{interaction_token}/callback"
    assert callback.query["with_response"] in ("1", "true")
    assert bot.callbacks[0].message_id == int(r.message.id)  # type: ignore[union-attr]
    assert callback.headers["Content-Type"] == "application/json"


async def test_button_click_edits_the_message(world: World) -> None:
    sim, channel, alice, _ = await started(world)
    r = await sim.slash(alice, channel, "play", {"game": "1234"})
    assert r.message is not None
    clicked = await sim.click(alice, r.message, label="Join")
    assert clicked.status == "ok" and clicked.callback_type == 7
    assert clicked.message is not None and clicked.message.id == r.message.id
    assert sim.last_message(channel).content == "Alice joined"  # type: ignore[union-attr]
    assert len(sim.messages(channel)) == 1
    assert sim.spec_errors == []


async def test_disabled_and_unknown_buttons_are_refused(world: World) -> None:
    sim, channel, alice, _ = await started(world)
    r = await sim.slash(alice, channel, "play", {"game": "1234"})
    assert r.message is not None
    with pytest.raises(AssertionError, match="disabled"):
        await sim.click(alice, r.message, custom_id="board:closed")
    with pytest.raises(AssertionError, match="no button"):
        await sim.click(alice, r.message, custom_id="board:nothing")
    with pytest.raises(AssertionError, match="no select"):
        await sim.select(alice, r.message, "board:other", ["TS"])


async def test_select_values_are_checked_and_answered_ephemerally(world: World) -> None:
    sim, channel, alice, _ = await started(world)
    r = await sim.slash(alice, channel, "play", {"game": "1234"})
    assert r.message is not None
    with pytest.raises(AssertionError, match="not an option"):
        await sim.select(alice, r.message, "board:cards", ["AS"])
    with pytest.raises(AssertionError, match="1 to 2 values"):
        await sim.select(alice, r.message, "board:cards", ["TS", "TH", "9C"])
    chosen = await sim.select(alice, r.message, "board:cards", ["TS", "TH"])
    assert chosen.ephemeral and chosen.content == "played TS TH"
    assert sim.ephemerals(alice)[-1].content == "played TS TH"
    assert sim.last_message(channel) == r.message


async def test_ephemeral_reply_followup_and_clicks_on_it(world: World) -> None:
    sim, guild, channel, alice = world
    bob = sim.add_user("Bob")
    sim.add_member(guild, bob)
    _, _, _, _ = await started(world)
    r = await sim.slash(alice, channel, "hand")
    assert r.ephemeral and r.content == "your hand"
    assert [m.content for m in r.followups] == ["second thought"]
    assert r.followups[0].ephemeral
    assert [m.content for m in sim.ephemerals(alice)] == ["your hand", "second thought"]
    assert sim.ephemerals(bob) == [] and sim.messages(channel) == []
    assert r.message is not None
    with pytest.raises(AssertionError, match="cannot see"):
        await sim.click(bob, r.message, label="Join")
    clicked = await sim.click(alice, r.message, label="Join")
    assert clicked.status == "ok"
    assert sim.ephemerals(alice)[0].content == "Alice joined"


async def test_deferred_response_then_edit_of_original(world: World) -> None:
    sim, channel, alice, _ = await started(world)
    r = await sim.slash(alice, channel, "slow")
    assert r.callback_type == 5
    assert r.message is not None and r.content == "done thinking"
    assert [q.method for q in r.responses] == ["POST", "PATCH"]
    assert r.responses[1].route.endswith("/messages/@original")


async def test_dm_is_sent_and_clickable(world: World) -> None:
    sim, channel, alice, _ = await started(world)
    r = await sim.slash(alice, channel, "dm")
    assert r.content == "sent"
    [dm] = sim.dms(alice)
    assert dm.content == "psst" and dm.buttons()[0]["label"] == "Join"
    clicked = await sim.dm_click(alice, dm, label="Join")
    assert clicked.status == "ok"
    assert sim.dms(alice)[0].content == "Alice joined"
    assert any(q.route == "/users/@me/channels" for q in sim.requests)


async def test_dm_refused_by_user_answers_50007(world: World) -> None:
    sim, guild, channel, _ = world
    carol = sim.add_user("Carol", accepts_dms=False)
    sim.add_member(guild, carol)
    _, _, _, bot = await started(world)
    r = await sim.slash(carol, channel, "dm")
    assert r.content == "cannot DM you"
    [error] = bot.errors
    assert isinstance(error, discord.Forbidden) and error.code == 50007
    assert sim.dms(carol) == []


async def test_file_upload_is_stored_with_its_bytes(world: World) -> None:
    sim, channel, alice, _ = await started(world)
    r = await sim.slash(alice, channel, "picture")
    assert r.message is not None
    [attachment] = r.message.attachments
    assert attachment["filename"] == "table.png" and attachment["bytes"] == b"PNG-bytes"
    assert r.responses[0].files[0]["field"] == "files[0]"
    assert sim.spec_errors == []


async def test_modal_round_trip(world: World) -> None:
    sim, channel, alice, _ = await started(world)
    r = await sim.slash(alice, channel, "name")
    assert r.modal is not None and r.modal.title == "Your name"
    with pytest.raises(AssertionError, match="required"):
        await sim.submit_modal(alice, r.modal, {})
    with pytest.raises(AssertionError, match="no field"):
        await sim.submit_modal(alice, r.modal, {"nick": "x"})
    submitted = await sim.submit_modal(alice, r.modal, {"name": "Lucky"})
    assert submitted.content == "table Lucky"
    with pytest.raises(AssertionError, match="already submitted"):
        await sim.submit_modal(alice, r.modal, {"name": "Again"})


async def test_sub_command_and_option_checks(world: World) -> None:
    sim, channel, alice, _ = await started(world)
    r = await sim.slash(alice, channel, "settings dm", {"on": True}, locale="ja")
    assert r.content == "dm on" and r.ephemeral
    payload = sim._interactions[r.id].payload
    assert payload["locale"] == "ja" and payload["guild_locale"] == "en-US"
    assert payload["data"]["options"] == [
        {"name": "dm", "type": 1, "options": [{"name": "on", "type": 5, "value": True}]}
    ]
    with pytest.raises(AssertionError, match="needs a sub-command"):
        await sim.slash(alice, channel, "settings")
    with pytest.raises(AssertionError, match="choices"):
        await sim.slash(alice, channel, "play", {"game": "poker"})
    with pytest.raises(AssertionError, match="required option"):
        await sim.slash(alice, channel, "play", {})
    with pytest.raises(AssertionError, match="no option"):
        await sim.slash(alice, channel, "play", {"game": "1234", "speed": 2})
    with pytest.raises(AssertionError, match="integer"):
        await sim.slash(alice, channel, "play", {"game": "1234", "seats": "four"})
    with pytest.raises(AssertionError, match="no slash command"):
        await sim.slash(alice, channel, "poker")


async def test_second_response_answers_40060(world: World) -> None:
    sim, channel, alice, bot = await started(world)
    r = await sim.slash(alice, channel, "twice")
    assert r.content == "once"
    guard, api = bot.errors
    assert isinstance(guard, discord.InteractionResponded)
    assert isinstance(api, discord.HTTPException) and api.status == 400 and api.code == 40060
    assert [q.status for q in r.responses] == [200, 400]


async def test_response_after_deadline_answers_10062(world: World) -> None:
    sim, _, channel, alice = world
    bot = SampleBot(late=0.6)
    await sim.start(bot)
    r = await sim.slash(alice, channel, "late")
    assert r.status == "no-response"
    await asyncio.sleep(0.2)
    await sim.settle()
    assert r.status == "late"
    [error] = bot.errors
    assert isinstance(error, discord.NotFound) and error.code == 10062
    assert sim.messages(channel) == []


async def test_invalid_bodies_are_listed_in_spec_errors(world: World) -> None:
    sim, channel, alice, _ = await started(world)
    r = await sim.slash(alice, channel, "bad")
    assert [m.content for m in r.followups] == [] and r.content == "after"
    [error] = sim.spec_errors
    assert error.route == "/channels/{channel_id}/messages" and error.method == "POST"
    assert "embeds/0/title" in error.message


async def test_json_bodies_must_be_application_json(world: World) -> None:
    sim, channel, _, _ = await started(world)
    status, body, headers = await raw(
        sim,
        "POST",
        f"/channels/{channel.id}/messages",
        data=b'{"content": "hi"}',
        headers={"Authorization": f"Bot {sim.token}", "Content-Type": "text/plain"},
    )
    assert status == 400 and body["code"] == 50109  # type: ignore[index]
    status, body, headers = await raw(
        sim, "POST", f"/channels/{channel.id}/messages", json={"content": "hi"}
    )
    assert status == 200 and headers["Content-Type"] == "application/json"
    assert headers["X-RateLimit-Remaining"] and headers["X-RateLimit-Bucket"]


async def test_component_limits_are_enforced(world: World) -> None:
    sim, channel, _, _ = await started(world)
    button = {"type": 2, "style": 1, "label": "x"}
    rows = [
        {"type": 1, "components": [dict(button, custom_id=f"b{r}-{i}") for i in range(5)]}
        for r in range(6)
    ]
    status, body, _ = await raw(
        sim, "POST", f"/channels/{channel.id}/messages", json={"content": "x", "components": rows}
    )
    assert status == 400 and body["code"] == 50035  # type: ignore[index]
    wide = [{"type": 1, "components": [dict(button, custom_id=f"w{i}") for i in range(6)]}]
    status, _, _ = await raw(
        sim, "POST", f"/channels/{channel.id}/messages", json={"content": "x", "components": wide}
    )
    assert status == 400
    messages = [e.message for e in sim.spec_errors]
    assert any("6 action rows" in m for m in messages)
    assert any("6 buttons in a row" in m for m in messages)
    assert sim.messages(channel) == []


async def test_components_v2_are_validated_and_read_back(world: World) -> None:
    sim, channel, _, _ = await started(world)
    path = f"/channels/{channel.id}/messages"
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go"}]}
    layout = [{"type": 17, "accent_color": 0x2B6E3F, "components": [
        {"type": 10, "content": "## Your hand"},
        {"type": 14, "divider": True, "spacing": 1},
        {"type": 10, "content": "Choose your move."}, row]}]
    status, body, _ = await raw(sim, "POST", path,
                                json={"flags": 1 << 15, "components": layout})
    assert status == 200, body
    message = sim.message(str(body["id"]))  # type: ignore[index]
    assert message.components_v2 and message.content == ""
    assert message.texts() == ["## Your hand", "Choose your move."]
    assert [b["custom_id"] for b in message.buttons()] == ["go"]
    assert sim.spec_errors == []
    # content beside the flag, a picture not attached, a container in a container, too many
    wrong = [
        {"flags": 1 << 15, "content": "hi", "components": layout},
        {"flags": 1 << 15, "components": [{"type": 12, "items": [
            {"media": {"url": "attachment://hand.png"}}]}], "attachments": []},
        {"flags": 1 << 15, "components": [{"type": 17, "components": layout}]},
        {"flags": 1 << 15, "components": [{"type": 10, "content": str(i)} for i in range(41)]},
        {"flags": 1 << 15, "components": [{"type": 10, "content": "x" * 4001}]},
        {"flags": 1 << 15, "components": [{"type": 17, "components": [{"type": 10,
                                                                       "content": "x"}]}],
         "embeds": [{"title": "x"}]},
    ]
    for bad in wrong:
        status, _, _ = await raw(sim, "POST", path, json=bad)
        assert status == 400, bad
    messages = [e.message for e in sim.spec_errors]
    assert any("content: not allowed" in m for m in messages)
    assert any("attachment://hand.png is not among" in m for m in messages)
    assert any("a container holds" in m for m in messages)
    assert any("at most 40" in m for m in messages)
    assert any("at most 4000" in m for m in messages)
    assert any("embeds: not allowed" in m for m in messages)
    # a V2 message stays one: an edit with content is refused, one with components is fine
    sim.spec_errors.clear()
    edit = f"{path}/{message.id}"
    status, _, _ = await raw(sim, "PATCH", edit, json={"content": "now words"})
    assert status == 400 and sim.spec_errors and sim.message(message.id).texts()[0] == \
        "## Your hand"
    sim.spec_errors.clear()
    status, _, _ = await raw(sim, "PATCH", edit, json={"flags": 1 << 15, "components": [
        {"type": 10, "content": "Moved on."}]})
    assert status == 200 and sim.message(message.id).text == "Moved on."
    assert sim.spec_errors == []


async def test_unknown_messages_and_channels_answer_404(world: World) -> None:
    sim, channel, _, _ = await started(world)
    status, body, _ = await raw(
        sim, "PATCH", f"/channels/{channel.id}/messages/1234", json={"content": "x"}
    )
    assert status == 404 and body["code"] == 10008  # type: ignore[index]
    status, body, _ = await raw(sim, "POST", "/channels/999/messages", json={"content": "x"})
    assert status == 404 and body["code"] == 10003  # type: ignore[index]


async def test_followups_work_for_fifteen_minutes(world: World) -> None:
    sim, channel, alice, _ = await started(world)
    r = await sim.slash(alice, channel, "play", {"game": "1234"})
    hook = f"/webhooks/{sim.application_id}/{r.token}"
    sim.advance_time(14 * 60)
    status, body, _ = await raw(sim, "POST", hook + "?wait=true", json={"content": "still here"})
    assert status == 200 and [m.content for m in r.followups] == ["still here"]
    status, _, _ = await raw(sim, "PATCH", hook + "/messages/@original", json={"content": "edited"})
    assert status == 200 and r.content == "edited"
    sim.advance_time(2 * 60)
    status, body, _ = await raw(sim, "POST", hook + "?wait=true", json={"content": "too late"})
    assert status == 401 and body["code"] == 50027  # type: ignore[index]


async def test_bot_receives_message_create_for_its_messages(world: World) -> None:
    sim, channel, alice, bot = await started(world)
    r = await sim.slash(alice, channel, "play", {"game": "1234"})
    await sim.settle()
    assert [m.id for m in bot.seen] == [int(r.message.id)]  # type: ignore[union-attr]
    r = await sim.slash(alice, channel, "hand")
    await sim.settle()
    assert len(bot.seen) == 1, "ephemeral messages are not dispatched"


async def test_stop_and_start_a_second_client(world: World) -> None:
    sim, channel, alice, first = await started(world)
    r = await sim.slash(alice, channel, "play", {"game": "1234"})
    await sim.stop_bot()
    assert first.is_closed()
    with pytest.raises(AssertionError, match="no bot is connected"):
        await sim.slash(alice, channel, "play", {"game": "1234"})
    second = SampleBot()
    await sim.start(second)
    assert r.message is not None
    clicked = await sim.click(alice, r.message, label="Join")
    assert clicked.status == "ok" and clicked.content == "Alice joined"
    await sim.stop_bot(graceful=True)
    assert second.is_closed()
    assert sim.spec_errors == [] and sim.client_errors == []
    assert discord.http.Route.BASE.startswith("http://127.0.0.1")


async def test_routes_are_restored_on_exit() -> None:
    before = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    async with SimulatedDiscord() as sim:
        assert sim.base_url + "/api/v10" == discord.http.Route.BASE
    assert before == (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)


CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"


def test_spec_validator_accepts_a_full_message_and_names_each_fault() -> None:
    from tests.discord_sim.spec import spec_validator

    validator = spec_validator()
    row = {
        "type": 1,
        "components": [
            {"type": 2, "style": 1, "label": "Play", "custom_id": "p", "emoji": {"name": "🂡"}}
        ],
    }
    select = {
        "type": 1,
        "components": [{"type": 3, "custom_id": "s", "options": [{"label": "TS", "value": "TS"}]}],
    }
    good = {
        "type": 4,
        "data": {
            "content": "table",
            "embeds": [{"title": "t", "fields": [{"name": "a", "value": "b"}]}],
            "components": [row, select],
            "flags": 64,
            "allowed_mentions": {"parse": ["users"]},
        },
    }
    assert validator.validate("POST", CALLBACK, "application/json", good) == []
    assert validator.validate("POST", CALLBACK, "application/json", {"type": 99}) == [
        "type: 99 is not one of [8, 4, 5, 12, 9, 1, 13, 6, 7]"
    ]
    bad_style = {
        "type": 4,
        "data": {
            "components": [
                dict(row, components=[{"type": 2, "style": 9, "label": "x", "custom_id": "x"}])
            ]
        },
    }
    [message] = validator.validate("POST", CALLBACK, "application/json", bad_style)
    assert message.startswith("data/components/0/components/0/style: 9")
    snowflake_int = {"content": "x", "message_reference": {"message_id": 123}}
    route = "/channels/{channel_id}/messages"
    assert validator.validate("POST", route, "application/json", snowflake_int) == []
    negative = {"content": "x", "message_reference": {"message_id": "-1"}}
    assert validator.validate("POST", route, "application/json", negative) != []
    assert validator.validate("POST", validator.match("/nowhere"), None, None) == [
        "no such route in Discord's API description"
    ]


async def test_user_options_arrive_resolved_as_members(world: World) -> None:
    sim, guild, channel, alice = world
    bob = sim.add_user("Bob")
    sim.add_member(guild, bob)
    await started(world)
    r = await sim.slash(alice, channel, "invite", {"who": bob})
    assert r.content == "invited Bob to Test Server"
    data = sim._interactions[r.id].payload["data"]
    assert data["options"] == [{"name": "who", "type": 6, "value": bob.id}]
    assert set(data["resolved"]["members"]) == {bob.id}


async def test_autocomplete_choices(world: World) -> None:
    sim, channel, alice, _ = await started(world)
    r = await sim.autocomplete(alice, channel, "pick", {"card": "H"}, focused="card")
    assert r.choices == [{"name": "TH", "value": "TH"}]
    r = await sim.slash(alice, channel, "pick", {"card": "TS"})
    assert r.content == "picked TS"


async def test_default_permissions_hide_commands_and_dm_contexts(world: World) -> None:
    sim, guild, channel, alice = world
    boss = sim.add_user("Boss")
    sim.add_member(guild, boss, manage_guild=True)
    await started(world)
    with pytest.raises(AssertionError, match="hidden"):
        await sim.slash(alice, channel, "admin")
    r = await sim.slash(boss, channel, "admin")
    assert r.content == "admin"
    with pytest.raises(AssertionError, match="not offered"):
        await sim.slash(alice, sim.dm_channel(alice), "admin")
    r = await sim.slash(alice, sim.dm_channel(alice), "where", locale="ja")
    assert r.content == "dm ja"
    payload = sim._interactions[r.id].payload
    assert payload["context"] == 1 and "member" not in payload and payload["user"]["id"] == alice.id
    assert sim.dms(alice)[0].content == "dm ja"


async def test_gateway_reconnect_resumes_the_session(world: World) -> None:
    sim, channel, alice, bot = await started(world)
    await sim.reconnect()
    resumes = [p for s in sim._gateways for p in s.received if p.get("op") == 6]
    assert len(resumes) == 1
    r = await sim.slash(alice, channel, "play", {"game": "1234"})
    assert r.content == "1234 for 4"
    assert bot.is_ready()


async def test_client_errors_are_collected(world: World) -> None:
    sim, channel, alice, _ = await started(world)
    r = await sim.slash(alice, channel, "boom")
    assert r.status == "no-response"
    assert any("boom" in line for line in sim.client_errors)
    sim.client_errors.clear()


async def test_guilds_and_channels_added_while_running_reach_the_client(world: World) -> None:
    sim, _, alice, bot = await started(world)
    other = sim.add_guild("Second Server", locale="ja")
    sim.add_member(other, alice)
    await sim.settle()
    room = sim.add_channel(other, "tables")
    await sim.settle()
    guild = bot.get_guild(int(other.id))
    assert guild is not None and guild.preferred_locale.value == "ja"
    assert bot.get_channel(int(room.id)) is not None
    r = await sim.slash(alice, room, "play", {"game": "1234"})
    assert r.status == "ok" and sim._interactions[r.id].payload["guild_locale"] == "ja"


def test_query_parameters_are_checked_against_the_operation() -> None:
    from tests.discord_sim.spec import spec_validator

    validator = spec_validator()
    assert validator.validate_query("POST", CALLBACK, {"with_response": "1"}) == []
    assert validator.validate_query("POST", CALLBACK, {"with_response": "yes"}) == [
        "query parameter with_response='yes' is not a boolean"
    ]
    assert validator.validate_query("POST", CALLBACK, {"wait": "true"}) == [
        "query parameter 'wait' is not documented"
    ]


def test_multipart_bodies_are_read_part_by_part() -> None:
    from tests.discord_sim.server import SimHTTPError, header_params, multipart_parts

    boundary = "b0undary"
    png = b"\x89PNG\r\n\r\n--not-the-boundary\r\n"
    raw = (b"--b0undary\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n"
           b"Content-Type: application/json\r\n\r\n{\"content\": \"hi\"}\r\n"
           b"--b0undary\r\nContent-Disposition: form-data; name=\"files[0]\"; "
           b"filename=\"hand.png\"\r\nContent-Type: image/png\r\n\r\n" + png +
           b"\r\n--b0undary--\r\n")
    parts = multipart_parts(raw, boundary)
    assert [data for _, data in parts] == [b'{"content": "hi"}', png]
    kind, params = header_params(parts[1][0]["content-disposition"])
    assert (kind, params) == ("form-data", {"name": "files[0]", "filename": "hand.png"})
    assert header_params("multipart/form-data; boundary=b0undary") == (
        "multipart/form-data", {"boundary": "b0undary"})
    for broken, where in [(raw, None), (raw[:-14], boundary),
                          (b"--b0undary\r\nno blank line--b0undary--", boundary)]:
        with pytest.raises(SimHTTPError):
            multipart_parts(broken, where)
