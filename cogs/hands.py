"""A seat's private hand as a message: a live panel (with the table's latest news), or a
hand sent by direct message. Shared by the turn's controls, the live panels and the DM turns,
which each receive it."""

from __future__ import annotations

from typing import Any

from bot.i18n import t
from bot.tables import CANCELLED, PLAYING, Table
from cogs.board import TableMessages
from cogs.prefs import Preferences
from cogs.views import Payload, StaticView, hand_payload

#: what a panel shows of a table: its position (version), whether the seat may act, and
#: whether the table is over (:func:`shows`)
Shown = tuple[int, bool, bool]


def may_act(table: Table, seat: int) -> bool:
    """Whether a person's seat may act now (their turn, or a move offered out of turn)."""
    state = table.state
    if table.status != PLAYING or state is None or state.over or table.seats[seat].auto:
        return False
    return seat in state.to_act or bool(state.legal_actions(seat))


def shows(table: Table, seat: int) -> Shown:
    """What a panel shows of a table: its position (version), whether the seat may act, and
    whether the table is over (finished or cancelled)."""
    return (table.version, may_act(table, seat), table.status != PLAYING
            or table.state is None or table.state.over)


def closed_payload(lang: str) -> Payload:
    """A panel's last words when its table is cancelled."""
    return Payload(t("cancelled", lang), None, StaticView(), v2=True)


class Hands:
    """Makes private hands, each drawn as its person chose (four colours or two)."""

    def __init__(self, messages: TableMessages, prefs: Preferences) -> None:
        self.messages = messages
        self.prefs = prefs

    async def panel_for(self, table: Table, seat: int, lang: str, user_id: int,
                        **more: Any) -> tuple[Payload, Shown]:
        """A person's panel now, and what it shows (taken together under the table's lock:
        never a position half applied)."""
        chosen = await self.prefs.of(user_id)
        async with table.lock:
            return self.panel_now(table, seat, lang, chosen.four_colour, **more)

    def panel_now(self, table: Table, seat: int, lang: str, four_colour: bool,
                  **more: Any) -> tuple[Payload, Shown]:
        """:meth:`panel_for` with the table's lock already held."""
        if table.status == CANCELLED:
            return closed_payload(lang), shows(table, seat)
        recent = tuple(self.messages.log_lines(table, lang)[-2:])
        payload = hand_payload(table, seat, lang, four_colour=four_colour, recent=recent,
                               **more)
        return payload, shows(table, seat)

    async def hand_for(self, table: Table, seat: int, lang: str, user_id: int,
                       **more: Any) -> Payload:
        """A seat's private hand (a direct message's)."""
        chosen = await self.prefs.of(user_id)
        async with table.lock:  # never a position half applied (shown before it is stored)
            return hand_payload(table, seat, lang, four_colour=chosen.four_colour, **more)
