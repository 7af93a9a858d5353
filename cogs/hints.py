"""The panel's Hint button: answered at once ("thinking…"), the hint follows privately.

A thin adapter over :mod:`bot.tables.hints`: the manager checks the table allows hints, that it is
the
person's turn at the position the button was drawn for, thinks it off the event loop and
counts it; this part only answers the click and words the answer.
"""

from __future__ import annotations

from bot.tables import Position, Refusal, TableManager
from bot.tables.hints import hint_text
from cogs import ids
from cogs.guards import Interaction, playing, private_only, seat_of


class HintControls:
    """The Hint button's part of the table front end."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager

    async def on_hint(self, interaction: Interaction, table: Position, cid: ids.ComponentId,
                      values: list[str], lang: str) -> None:
        """Hint: a private answer naming the move the strong computer would make from the
        person's own view, and why (refused with a sentence where hints are off, or it is
        not their turn, or the turn moved on)."""
        private_only(interaction, table)
        seat = seat_of(table, interaction.user.id)
        if not table.hints:
            raise Refusal("hints-off")
        playing(table)
        now = await self.manager.position(table.table_id, seat)
        playing(now)
        if cid.version != now.version:
            raise Refusal("hint-stale")
        if seat not in now.to_act:
            raise Refusal("hint-not-your-turn")
        # the search takes up to a second: the click is answered now, the hint follows
        await interaction.response.defer(ephemeral=True, thinking=True)
        hint = await self.manager.hint(table.table_id, interaction.user.id, cid.version)
        text = hint_text(now.rules, now.players, dict(now.options), hint, lang)
        await interaction.followup.send(text[:2000], ephemeral=True)
