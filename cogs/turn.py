"""The turn's controls: a player's live panel and its moves, I'm back, and the host's menu in
play (the panels' edits are in :mod:`cogs.panels`, the alerts in :mod:`cogs.alerts`, the DM
turns in :mod:`cogs.dm`; the manager's timers and computers in :mod:`bot.tables.turns`)."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.client.tree import refusal_text, reply
from bot.i18n import t
from bot.names import plain
from bot.tables import LOBBY, PLAYING, Cards, Choice, Position, Refusal, TableManager
from cogs import ids
from cogs.board import Interaction
from cogs.guards import can_manage, playing, private_only, seat_of
from cogs.hands import Hands, Shown
from cogs.panel_views import value_codes
from cogs.panels import Panel, Panels
from cogs.prefs import Preferences
from cogs.views import (
    Payload,
    manage_payload,
)

log = logging.getLogger(__name__)

#: a panel's clicks that are moves (the others turn its pages or choose a move's first part)
MOVES = frozenset(("act", "pick", "set"))


class TurnControls:
    """The turn's part of the table front end: a person's live panel and their moves, and the
    host's menu in play."""

    def __init__(self, manager: TableManager, hands: Hands, panels: Panels,
                 prefs: Preferences) -> None:
        self.manager = manager
        self.hands = hands
        self.panels = panels
        self.prefs = prefs

    async def on_hand(self, interaction: Interaction, table: Position, cid: ids.ComponentId,
                      values: list[str], lang: str) -> None:
        """Hand (on the table message or an alert): a new live panel."""
        seat = seat_of(table, interaction.user.id)
        playing(table)
        panel = self.panels.get(table, interaction.user.id, seat)
        async with panel.lock:
            panel.answers += 1
            ticket = panel.answers
            payload, shown = await self.hands.panel_for(table, seat, lang, interaction.user.id)
        # the words and controls at once (the picture follows, drawn off the event loop); the
        # request's round trip holds no lock, so a click meanwhile is not held up by it
        await interaction.response.send_message(**payload.send(), ephemeral=True)
        self.panels.answered(panel, interaction, lang, shown, ticket)
        self.panels.picture_later(panel, interaction, payload, shown)

    async def on_panel(self, interaction: Interaction, table: Position, cid: ids.ComponentId,
                       values: list[str], lang: str) -> None:
        """Moves and navigation on a player's panel (or a hand sent by direct message)."""
        private_only(interaction, table)
        seat = seat_of(table, interaction.user.id)
        if table.status == LOBBY:
            raise Refusal("not-started")
        panel = self.panels.get(table, interaction.user.id, seat)
        async with panel.lock:  # one click of a panel at a time is worked out
            panel.answers += 1
            ticket = panel.answers
            answer = await self._panel_click(interaction, table, seat, cid, values, lang)
        # its answer goes out without the lock: a click meanwhile is not held up by the
        # request's round trip (an answer that lands after a later one is made good)
        await self._answer_panel(interaction, panel, lang, answer, ticket)

    async def _position(self, interaction: Interaction, table: Position, seat: int, lang: str,
                        **more: Any) -> tuple[Payload, Shown]:
        """What a click on a panel is answered with: the position now."""
        return await self.hands.panel_for(table, seat, lang, interaction.user.id, **more)

    async def _answer_panel(self, interaction: Interaction, panel: Panel, lang: str,
                            answer: tuple[Payload, Shown], ticket: int) -> None:
        """Answer a click on a panel by editing it to ``answer`` (taken under the panel's
        lock, and for a move under the lock of the move it answers); it is the live one."""
        payload, shown = answer
        try:
            if interaction.guild_id is None:  # a hand sent by DM: with its picture, as always
                files = await payload.files()
                await interaction.response.edit_message(**payload.edit(picture=bool(files)),
                                                        attachments=files)
                return
            # the words and controls at once; the picture follows (drawn off the event loop)
            await interaction.response.edit_message(**payload.edit(), attachments=[])
        except discord.NotFound:
            # the clicked message is gone (or never was one of ours): the position goes out as
            # a fresh private panel instead, so the click is still answered with it
            if interaction.response.is_done():
                raise
            await interaction.response.send_message(**payload.send(), ephemeral=True)
            if interaction.guild_id is None:
                return
        self.panels.answered(panel, interaction, lang, shown, ticket)
        self.panels.picture_later(panel, interaction, payload, shown)

    async def _panel_click(self, interaction: Interaction, table: Position, seat: int,
                           cid: ids.ComponentId, values: list[str], lang: str
                           ) -> tuple[Payload, Shown]:
        """Work out a click on a panel (with the panel's lock held): the move applied, if it
        is one; what the panel is to show."""
        if cid.verb in MOVES:
            return await self._move(interaction, table, seat, cid, values, lang)
        moved = t("panel-moved", lang)
        if cid.version != table.version or table.status != PLAYING:
            # an old or doubled click: the position now, nothing applied
            note = "" if cid.verb == "view" else moved
            return await self._position(interaction, table, seat, lang, note=note)
        now = await self.hands.position(table, seat)
        four_colour = await self._four_colour(interaction)
        if now.version != cid.version:  # moved on while the position was taken
            return self.hands.panel(now, lang, four_colour,
                                    note="" if cid.verb == "view" else moved)
        if not now.moves and seat not in now.to_act:
            raise Refusal("not-your-turn")
        if cid.verb == "part":  # the first part of a move with parts: now its second
            if not values or not cid.arg.isdigit():
                raise Refusal("no-such-choice")
            return self.hands.panel(now, lang, four_colour, part=(int(cid.arg), values[0]))
        # 'page' and 'view': another page of the panel's lists
        group, _, page = cid.arg.partition(".")
        where = (int(group), int(page)) if group.isdigit() and page.isdigit() else (0, 0)
        return self.hands.panel(now, lang, four_colour, group_page=where)

    async def _move(self, interaction: Interaction, table: Position, seat: int,
                    cid: ids.ComponentId, values: list[str], lang: str
                    ) -> tuple[Payload, Shown]:
        """A move's click, parsed into a choice and handed to the service once (which
        matches it against the position and says why when it names no move now): a
        button's or a menu's move index, or the cards ticked in a menu of one kind of move."""
        choice: Choice
        if cid.verb == "set":  # the ticked cards name the move (no Confirm: the control
            # alone tells it, and the menu's least count keeps too small a set from being sent)
            choice = Cards(value_codes(values), kind=cid.arg)
        else:
            raw = cid.arg if cid.verb == "act" else (values[0] if values else "")
            if not raw.isdigit():
                raise Refusal("no-such-choice")
            choice = int(raw)
        try:
            outcome = await self.manager.act(table.table_id, interaction.user.id, cid.version,
                                             choice)
        except Refusal as refusal:
            if refusal.key in ("stale", "not-started", "no-table"):  # an old or doubled click
                note = t("panel-moved", lang)
            elif refusal.key == "not-a-set":  # said on the panel, nothing applied
                note = refusal_text(refusal, lang)
            else:
                raise
            return await self._position(interaction, table, seat, lang, note=note)
        # answered with the seat's position right after the move (the service's outcome)
        return self.hands.panel(outcome.position, lang, await self._four_colour(interaction))

    async def _four_colour(self, interaction: Interaction) -> bool:
        """Whether the clicking person's hand pictures are in four suit colours."""
        return (await self.prefs.of(interaction.user.id)).four_colour

    async def on_back(self, interaction: Interaction, table: Position, cid: ids.ComponentId,
                      values: list[str], lang: str) -> None:
        """I'm back: the person takes their seat back from the computer."""
        await self.manager.back(table.table_id, interaction.user.id)
        await reply(interaction, t("returned", lang, name=plain(interaction.user.display_name)))

    async def on_manage(self, interaction: Interaction, table: Position, cid: ids.ComponentId,
                        values: list[str], lang: str) -> None:
        """The host's (or a manager's) menu in play."""
        if interaction.user.id != table.host_id and not can_manage(interaction):
            raise Refusal("host-or-manager")
        payload = manage_payload(await self.manager.position(table.table_id), lang)
        await interaction.response.send_message(**payload.send(), ephemeral=True)

    async def on_over(self, interaction: Interaction, table: Position, cid: ids.ComponentId,
                      values: list[str], lang: str) -> None:
        """The host lets the computer keep a person's seat."""
        private_only(interaction, table)
        if not values or not values[0].isdigit():
            raise Refusal("bad-seat")
        await self.manager.hand_to_computer(table.table_id, interaction.user.id, int(values[0]),
                                            can_manage(interaction))
        await interaction.response.edit_message(content=t("done", lang), view=None)
