"""Tests of the simulated Discord, driven by a small real discord.py client."""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import AsyncIterator

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
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button[Board]) -> None:
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
    async def cards(self, interaction: discord.Interaction, select: discord.ui.Select[Board]) -> None:
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
        self._define()

    async def setup_hook(self) -> None:
        """Register the persistent view and sync commands globally."""
        self.add_view(Board())
        await self.tree.sync()

    def _define(self) -> None:
        tree = self.tree

        @tree.command(name="play", description="Open a table")
        @app_commands.describe(game="Which game")
        @app_commands.choices(
            game=[app_commands.Choice(name="1234", value="1234"), app_commands.Choice(name="22", value="twenty-two")]
        )
        async def play(interaction: discord.Interaction, game: str, seats: int = 4) -> None:
            await interaction.response.send_message(f"{game} for {seats}", view=Board())

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


async def test_start_syncs_and_slash_round_trips(world: tuple[SimulatedDiscord, SimGuild, SimChannel, SimUser]) -> None:
    sim, guild, channel, alice = world
    bot = SampleBot()
    started = time.perf_counter()
    await sim.start(bot)
    r = await sim.slash(alice, channel, "play", {"game": "1234"})
    elapsed = time.perf_counter() - started
    assert r.status == "ok"
    assert r.content == "1234 for 4"
    assert r.message is not None and [b["custom_id"] for b in r.message.buttons()] == ["board:join", "board:closed"]
    assert sim.last_message(channel) == r.message
    assert {c["name"] for c in sim.commands()} >= {"play", "hand", "settings"}
    assert sim.spec_errors == []
    print(f"start + one command: {elapsed:.3f} s")
    assert elapsed < 1.0, elapsed
    await sim.stop_bot()
