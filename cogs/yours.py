"""A person's own tables: /tables, and the button that opens their hand at one of them from
wherever it is shown (the list, a reminder, a deadline's notice, the daily digest).

A hand opened this way is a fresh interaction, so a fresh token: a live panel in a server, a
hand in the DM when the button is in one. Its custom id (``mine``) acts for the clicking
person's seat alone, so it is taken from any channel of the table's server and from a DM
(:data:`cogs.ids.SEAT_VERBS`), unlike a table's public buttons. A click on a table that has
ended is answered with how it ended.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.client.tree import reply
from bot.i18n import lang_of, t
from bot.names import plain
from bot.tables import CANCELLED, LOBBY, Position, Refusal, TableManager
from cogs import ids
from cogs.board import Interaction
from cogs.guards import seat_of
from cogs.hands import Hands
from cogs.turn import TurnControls
from cogs.views import StaticView, button_item, game_name

if TYPE_CHECKING:
    from bot.client.deckhand import Deckhand

log = logging.getLogger(__name__)

#: a message holds at most 25 buttons (5 rows of 5); a person sits at no more than 21 open
#: tables of a server by default, so every table listed gets its button
MOST_BUTTONS = 25


def table_link(position: Position) -> str:
    """Where a table plays: its thread when it has one, else its message in the channel."""
    thread = getattr(position, "thread_id", None)
    if thread is not None:
        return f"https://discord.com/channels/{position.guild_id}/{thread}"
    base = f"https://discord.com/channels/{position.guild_id}/{position.channel_id}"
    return base if position.message_id is None else f"{base}/{position.message_id}"


def time_left(position: Position) -> str | None:
    """The running deadline of a table as Discord's relative time (``in 3 hours``), or None."""
    deadline = position.deadline
    if deadline is None or deadline[0] != position.version:
        return None
    return f"<t:{int(deadline[1])}:R>"


def whose_turn(position: Position, user_id: int, lang: str) -> str:
    """Who the table waits for, as the person sees it."""
    if position.status == LOBBY:
        return t("tables-lobby", lang)
    if user_id in position.people_due:
        return t("tables-yours", lang)
    names = ", ".join(plain(position.seats[s].name) for s in position.to_act)
    return t("tables-theirs", lang, who=names or "?")


def table_line(position: Position, user_id: int, lang: str) -> str:
    """One table of a list: game and number, whose turn, time left, a link to it."""
    parts = [f"**{game_name(position, lang)}** #{position.table_id}",
             whose_turn(position, user_id, lang)]
    left = time_left(position)
    if left is not None:
        parts.append(t("tables-left", lang, when=left))
    parts.append(f"[{t('tables-go', lang)}]({table_link(position)})")
    return " · ".join(parts)


def mine_button(position: Position, lang: str, row: int | None = None,
                label: str | None = None) -> discord.ui.Button[Any]:
    """A button opening the clicker's own hand at a table (version 0: whatever it is now)."""
    return button_item(label or t("hand", lang), ids.make("mine", position.table_id),
                       discord.ButtonStyle.primary, row)


def list_payload(positions: tuple[Position, ...], user_id: int, lang: str
                 ) -> tuple[str, discord.Embed, StaticView]:
    """A list of tables with a Hand button per table under way (the digest's and /tables')."""
    lines = [table_line(p, user_id, lang) for p in positions]
    embed = discord.Embed(description="\n".join(lines)[:4000])
    view = StaticView()
    playing = [p for p in positions if p.status not in (LOBBY, CANCELLED)][:MOST_BUTTONS]
    for number, position in enumerate(playing):
        label = f"{t('hand', lang)}: {game_name(position, lang)} #{position.table_id}"
        view.add_item(mine_button(position, lang, number // 5, label))
    return t("tables-title", lang, count=len(positions)), embed, view


class YourTables:
    """/tables and the ``mine`` button."""

    def __init__(self, bot: Deckhand, manager: TableManager, hands: Hands,
                 turn: TurnControls) -> None:
        self.bot = bot
        self.manager = manager
        self.hands = hands
        self.turn = turn

    async def tables(self, interaction: Interaction) -> None:
        """/tables: the open tables the person sits at in this server."""
        lang = lang_of(interaction.locale)
        found = await self.manager.tables_of(interaction.user.id, interaction.guild_id)
        if not found:
            await reply(interaction, t("tables-none", lang))
            return
        content, embed, view = list_payload(tuple(found), interaction.user.id, lang)
        await interaction.response.send_message(content, embed=embed, view=view,
                                                ephemeral=True)

    async def on_mine(self, interaction: Interaction, table: Position, cid: ids.ComponentId,
                      values: list[str], lang: str) -> None:
        """A person's own hand at a table: a live panel in a server, a hand in a DM."""
        seat = seat_of(table, interaction.user.id)
        if table.status == LOBBY:
            raise Refusal("not-started")
        if interaction.guild_id is not None:
            await self.turn.on_hand(interaction, table, cid, values, lang)
            return
        guild = self.bot.get_guild(table.guild_id)
        channel = self.bot.get_channel(table.channel_id)
        payload, _ = await self.hands.hand_for(
            table, seat, lang, interaction.user.id, dm=True,
            guild=guild.name if guild else "?", channel=getattr(channel, "name", "?"))
        # the words and controls within Discord's 3 s; the picture is drawn after
        await interaction.response.send_message(**payload.send())
        files = await payload.files()
        if files:
            await interaction.edit_original_response(**payload.edit(picture=True),
                                                     attachments=files)

    async def ended(self, table_id: int, lang: str) -> str:
        """What a click on a table that is no longer open is told: how it ended."""
        last = await self.manager.latest(table_id)
        if last is not None and last.status == CANCELLED:
            return t("mine-cancelled", lang)
        result = await self.bot.store.result(table_id)
        if result is None:
            return t("mine-ended-unknown", lang)
        outcome, seats = result.get("outcome") or {}, result.get("seats") or []
        places, scores = outcome.get("places") or [], outcome.get("scores") or []
        order = sorted(range(min(len(places), len(seats))), key=lambda s: places[s])
        text = " · ".join(
            t("place", lang, place=places[s], name=plain(str(seats[s].get("name", "?"))),
              score=_score(scores[s] if s < len(scores) else 0)) for s in order)
        return t("mine-ended", lang, result=text or "?")


def _score(value: object) -> str:
    number = float(value)  # type: ignore[arg-type]
    return str(int(number)) if number.is_integer() else f"{number:g}"
