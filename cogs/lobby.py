"""The lobby's controls: /play, joining and leaving, computers, the host's options, start and
cancel."""

from __future__ import annotations

import discord

from bot.client.tree import reply
from bot.i18n import lang_of, t
from bot.tables import LOBBY, Position, Refusal, TableManager
from cogs import ids
from cogs.board import Interaction, TableMessages
from cogs.guards import can_manage, is_private, own_message, private_only
from cogs.prefs import Preferences
from cogs.threads import TableThreads
from cogs.views import game_name, lobby_payload, manage_payload, options_payload


class LobbyControls:
    """The lobby's part of the table front end."""

    def __init__(self, manager: TableManager, messages: TableMessages,
                 prefs: Preferences, threads: TableThreads | None = None) -> None:
        self.manager = manager
        self.messages = messages
        self.prefs = prefs
        self.threads = threads  # None: tables play in their channel

    async def play(self, interaction: Interaction, game: str) -> None:
        """/play: open a lobby in this channel, and its thread from its message."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise Refusal("guild-only")
        table = await self.manager.open(interaction.guild_id, interaction.channel_id, game,
                                        interaction.user.id, interaction.user.display_name)
        lang = lang_of(interaction.guild_locale)
        payload = lobby_payload(await self.manager.position(table.table_id), lang,
                                self.messages.activity)
        await interaction.response.send_message(**payload.send())
        message = await interaction.original_response()
        if self.messages.tokens is not None:  # its token edits the message for a while
            self.messages.tokens.seen(table.table_id, interaction, original=message.id)
        self.messages.board(table.table_id).sent = payload.key()
        await self.manager.set_message(table.table_id, message.id)
        if self.threads is not None:
            await self.threads.open(interaction, table, message)
        await self._check_dm(interaction, table)

    async def _check_dm(self, interaction: Interaction, table: Position) -> None:
        """At join time: a player who chose DMs gets one now, or is told it cannot reach them."""
        if not await self.prefs.wants_dm(interaction.user.id):
            return
        lang = lang_of(interaction.locale)
        guild = interaction.guild.name if interaction.guild else "?"
        channel = getattr(interaction.channel, "name", "?")
        try:
            await interaction.user.send(t("dm-check", lang, game=game_name(table, lang),
                                          guild=guild, channel=channel))
        except discord.HTTPException:
            await reply(interaction, t("no-dm", lang))

    async def on_seats(self, interaction: Interaction, table: Position, cid: ids.ComponentId,
                       values: list[str], lang: str) -> None:
        """Join, Leave, Add/Remove computer and Start, on the lobby's own message."""
        m, user, verb = self.manager, interaction.user, cid.verb
        own_message(interaction, table)
        if verb == "join":
            await m.join(table.table_id, user.id, user.display_name)
        elif verb == "leave":
            await m.leave(table.table_id, user.id)
        elif verb == "addc":
            await m.add_computer(table.table_id, user.id)
        elif verb == "remc":
            await m.remove_computer(table.table_id, user.id)
        else:
            await m.start(table.table_id, user.id)
        await self.messages.answer_public(interaction, table)
        if verb == "join":
            await self._check_dm(interaction, table)

    async def on_cancel(self, interaction: Interaction, table: Position, cid: ids.ComponentId,
                        values: list[str], lang: str) -> None:
        """Cancel: from the lobby's message or the host's menu in play."""
        if not is_private(interaction):
            own_message(interaction, table)
        await self.manager.cancel(table.table_id, interaction.user.id, can_manage(interaction))
        if interaction.message is not None and table.is_public_message(interaction.message.id):
            await self.messages.answer_public(interaction, table)
        else:
            await interaction.response.edit_message(content=t("done", lang), embed=None,
                                                    view=None)

    async def on_options(self, interaction: Interaction, table: Position, cid: ids.ComponentId,
                         values: list[str], lang: str) -> None:
        """The host's option menus (their first page, or another page of them)."""
        if interaction.user.id != table.host_id:
            raise Refusal("host-only")
        if table.status != LOBBY:
            raise Refusal("already-started")
        payload = options_payload(await self.manager.position(table.table_id), lang,
                                  int(cid.arg or 0))
        if cid.arg:
            private_only(interaction, table)
            await interaction.response.edit_message(content=payload.content, view=payload.view)
        else:
            await interaction.response.send_message(**payload.send(), ephemeral=True)

    async def on_option(self, interaction: Interaction, table: Position, cid: ids.ComponentId,
                        values: list[str], lang: str) -> None:
        """One of the host's menus: an option, the timer, the computers' level, hints, a seat
        swap."""
        m, user, verb = self.manager, interaction.user, cid.verb
        private_only(interaction, table)
        if not values:
            raise Refusal("no-such-choice")
        if verb == "level" and table.status != LOBBY:
            # the host's menu in play: the computers' level from their next move on
            await m.set_level(table.table_id, user.id, values[0], can_manage(interaction))
            payload = manage_payload(await self.manager.position(table.table_id), lang)
            await interaction.response.edit_message(content=payload.content, view=payload.view)
            return
        if verb == "opt":
            value: object = None if values[0] == "random" else values[0]
            await m.set_option(table.table_id, user.id, cid.arg, value)
        elif verb == "timer":
            await m.set_timer(table.table_id, user.id, values[0])
        elif verb == "ondl":
            await m.set_on_deadline(table.table_id, user.id, values[0])
        elif verb == "level":
            await m.set_level(table.table_id, user.id, values[0])
        elif verb == "hints":
            if values[0] not in ("on", "off"):
                raise Refusal("no-such-choice")
            await m.set_hints(table.table_id, user.id, values[0] == "on")
        else:
            first, _, second = values[0].partition("-")
            if not (first.isdigit() and second.isdigit()):
                raise Refusal("bad-seat")
            await m.swap_seats(table.table_id, user.id, int(first), int(second))
        # the page the host was on stays in front of them
        payload = options_payload(await self.manager.position(table.table_id), lang,
                                  showing=str(cid))
        await interaction.response.edit_message(content=payload.content, view=payload.view)
