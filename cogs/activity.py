"""Open table: the public table message's button that opens the Activity, the live web table,
in the table's channel (docs/activity.md).

Discord opens the Activity when the click is answered with LAUNCH_ACTIVITY (interaction
callback type 12); the page then lists that channel's tables, one table per channel, and shows
this one. Anyone may open it: a spectator sees the table, a player their own hand too.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot import logs
from bot.tables import CANCELLED, FINISHED, Position, Refusal
from cogs import ids
from cogs.board import Interaction

if TYPE_CHECKING:
    from bot.client.deckhand import Deckhand

log = logging.getLogger(__name__)


class ActivityControls:
    """The Open table button's part of the table front end."""

    def __init__(self, bot: Deckhand) -> None:
        self.bot = bot

    async def on_open(self, interaction: Interaction, table: Position, cid: ids.ComponentId,
                      values: list[str], lang: str) -> None:
        """Open table: launch the Activity in this channel, where the page shows this table."""
        if not self.bot.activity_configured:  # a button left from when the Activity was configured
            raise Refusal("open-off")
        if table.status in (FINISHED, CANCELLED):
            raise Refusal("open-gone")
        try:
            await interaction.response.launch_activity()
        except discord.HTTPException as exc:
            # Discord refused (Activities turned off in the Developer Portal, say): told as
            # a sentence; the operator finds why in the log
            log.warning("table %s: Discord did not launch the Activity (%s)", table.table_id,
                        type(exc).__name__, extra=logs.failure(exc))
            raise Refusal("open-failed") from None
