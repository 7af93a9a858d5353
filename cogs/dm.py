"""Direct-message turns: a player who chose DMs (``/settings dm``) gets their hand there
whenever they may act, their turn or a move offered out of turn (Getaway's take)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot import tasks
from bot.i18n import lang_of, t
from bot.tables import PLAYING, Position
from cogs.hands import Hands
from cogs.prefs import Preferences
from cogs.views import game_name

if TYPE_CHECKING:
    from bot.client.deckhand import Deckhand

log = logging.getLogger(__name__)


class DirectTurns:
    """Sends hands by direct message, once per seat and position."""

    def __init__(self, bot: Deckhand, hands: Hands, prefs: Preferences) -> None:
        self.bot = bot
        self.hands = hands
        self.prefs = prefs
        #: per table in play: each seat and the position (version) last sent to it
        self.sent: dict[int, dict[int, int]] = {}

    def changed(self, position: Position) -> None:
        """The service's news (quick): the table's public position now; a DM for each person
        who may act at a position not sent to them yet (each in a task of its own)."""
        if position.status != PLAYING or not position.started:
            self.sent.pop(position.table_id, None)
            return
        sent = self.sent.setdefault(position.table_id, {})
        due = [(seat, False) for seat in position.to_act]
        due += [(seat, True) for seat in position.optional]
        for seat, out_of_turn in due:
            info = position.seats[seat]
            if info.auto or info.user_id is None:
                continue
            if sent.get(seat) == position.version:
                continue
            sent[seat] = position.version
            tasks.background(self._send(position, seat, position.version, out_of_turn))

    async def _send(self, table: Position, seat: int, version: int,
                    out_of_turn: bool = False) -> None:
        """Send a player who chose DMs their hand, if the table is still at that position."""
        user_id = table.seats[seat].user_id
        if user_id is None or not await self.prefs.wants_dm(user_id):
            return
        if table.version != version or table.status != PLAYING:
            return
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            lang = lang_of(user and (await self.prefs.of(user_id)).locale)
            guild = self.bot.get_guild(table.guild_id)
            channel = self.bot.get_channel(table.channel_id)
            where = {"guild": guild.name if guild else "?",
                     "channel": getattr(channel, "name", "?")}
            note = t("dm-may-act" if out_of_turn else "dm-turn", lang,
                     game=game_name(table, lang), **where)
            payload, seen = await self.hands.hand_for(
                table, seat, lang, user_id, dm=True, note=note, guild=where["guild"],
                channel=where["channel"])
            if seen.version != version:  # moved on while it was made: a later DM shows it
                return
            files = await payload.files()
            await user.send(**payload.send(picture=bool(files)), files=files)
        except discord.HTTPException:
            log.info("table %s: could not DM seat %s", table.table_id, seat)
