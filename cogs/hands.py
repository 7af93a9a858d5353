"""A seat's private hand as a message: a live panel (with the table's latest news), or a
hand sent by direct message, made from the seat's position. Shared by the turn's controls,
the live panels and the DM turns, which each receive it."""

from __future__ import annotations

from typing import Any

from bot.i18n import t
from bot.tables import CANCELLED, PLAYING, Position, Refusal, TableManager
from cogs.board import TableMessages
from cogs.prefs import Preferences
from cogs.views import Payload, StaticView, hand_payload

#: what a panel shows of a table: its position (version), whether the seat may act, and
#: whether the table is over (:func:`shows`)
Shown = tuple[int, bool, bool]


def may_act(position: Position, seat: int) -> bool:
    """Whether a person's seat may act at a position (their turn, or a move offered out of
    turn); the position may be anybody's: the public one says who may act out of turn."""
    if position.status != PLAYING or not position.started or position.over \
            or position.seats[seat].auto:
        return False
    if position.seat == seat:
        return position.may_act
    return seat in position.to_act or seat in position.optional


def shows(position: Position, seat: int) -> Shown:
    """What a seat's panel shows at a position: its version, whether the seat may act, and
    whether the table is over (finished or cancelled)."""
    return (position.version, may_act(position, seat), position.status != PLAYING
            or not position.started or position.over)


def closed_payload(lang: str) -> Payload:
    """A panel's last words when its table is cancelled."""
    return Payload(t("cancelled", lang), None, StaticView(), v2=True)


class Hands:
    """Makes private hands, each drawn as its person chose (four colours or two)."""

    def __init__(self, manager: TableManager, messages: TableMessages,
                 prefs: Preferences) -> None:
        self.manager = manager
        self.messages = messages
        self.prefs = prefs

    async def position(self, table: Position, seat: int) -> Position:
        """A seat's position now (never a move applied but not stored yet; a table just
        closed still answers, with its last position)."""
        found = await self.manager.latest(table.table_id, seat)
        if found is None:  # closed long ago
            raise Refusal("no-table")
        return found

    async def panel_for(self, table: Position, seat: int, lang: str, user_id: int,
                        **more: Any) -> tuple[Payload, Shown]:
        """A person's panel now, and what it shows."""
        chosen = await self.prefs.of(user_id)
        return self.panel(await self.position(table, seat), lang, chosen.four_colour, **more)

    def panel(self, position: Position, lang: str, four_colour: bool,
              **more: Any) -> tuple[Payload, Shown]:
        """A seat's panel at a position (the seat's), and what it shows."""
        assert position.seat is not None
        if position.status == CANCELLED:
            return closed_payload(lang), shows(position, position.seat)
        recent = tuple(self.messages.log_lines(position, lang, last=2))
        payload = hand_payload(position, lang, four_colour=four_colour, recent=recent, **more)
        return payload, shows(position, position.seat)

    async def hand_for(self, table: Position, seat: int, lang: str, user_id: int,
                       **more: Any) -> tuple[Payload, Position]:
        """A seat's private hand (a direct message's), and the position it shows."""
        chosen = await self.prefs.of(user_id)
        position = await self.position(table, seat)
        return hand_payload(position, lang, four_colour=chosen.four_colour, **more), position
