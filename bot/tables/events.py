"""What the table service tells its front ends: typed events, and their delivery.

Each event names its table and carries the table's public :class:`bot.tables.position.Position` as
it
was when the event happened (taken under the table's lock, so it never shows a move before it
is stored). The service collects a table's events while it holds the table's lock and delivers
them only once the lock is let go (:class:`EventBus`): a subscriber may then call the service
back (read a position, make a move) without deadlocking, and a slow subscriber never holds up a
click at that table. Events of one table reach each subscriber in the order they happened.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import ClassVar

from bot import logs
from bot.tables.model import Move
from bot.tables.position import Position

log = logging.getLogger("bot.tables")


@dataclass(frozen=True)
class TableEvent:
    """Something that happened at a table; ``position``: its public position just after."""

    position: Position
    #: the short name of the event's kind (for logs and tests): lobby, start, move, ...
    kind: ClassVar[str] = "event"

    @property
    def table_id(self) -> int:
        """The table's id."""
        return self.position.table_id

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves the event applied (none but for :class:`MoveApplied`)."""
        return ()

    @property
    def seat(self) -> int | None:
        """The seat the event is about, if one."""
        return None


@dataclass(frozen=True)
class TableOpened(TableEvent):
    """A lobby was opened and its public message posted: the channel has a table now (the
    front end that posted the message already shows it; others, a web table's list, learn of
    it here)."""

    kind: ClassVar[str] = "open"


@dataclass(frozen=True)
class LobbyChanged(TableEvent):
    """A lobby changed: a seat, a computer, an option, the timer, the level or hints."""

    kind: ClassVar[str] = "lobby"


@dataclass(frozen=True)
class GameStarted(TableEvent):
    """The host started the game: the first deal is out."""

    kind: ClassVar[str] = "start"


@dataclass(frozen=True)
class MoveApplied(TableEvent):
    """Moves stored and applied, in order (a person's, a computer's, a timeout's)."""

    applied: tuple[Move, ...] = ()
    kind: ClassVar[str] = "move"

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves applied."""
        return self.applied

    @property
    def seat(self) -> int | None:
        """The seat of the last move."""
        return self.applied[-1].seat if self.applied else None


@dataclass(frozen=True)
class DealEnded(TableEvent):
    """A deal ended with the moves just applied: ``deal`` is its number (the position's
    ``tallies`` end with its tally)."""

    deal: int = 0
    kind: ClassVar[str] = "deal"


@dataclass(frozen=True)
class GameEnded(TableEvent):
    """The game is over and its result stored: the table is closed."""

    kind: ClassVar[str] = "finish"


@dataclass(frozen=True)
class Cancelled(TableEvent):
    """The host or a manager cancelled the table: it is closed."""

    kind: ClassVar[str] = "cancel"


@dataclass(frozen=True)
class SeatAway(TableEvent):
    """The computer keeps a person's seat (handed over, or after timeouts in a row)."""

    away: int = 0
    kind: ClassVar[str] = "away"

    @property
    def seat(self) -> int | None:
        """The seat the computer keeps."""
        return self.away


@dataclass(frozen=True)
class SeatBack(TableEvent):
    """A person took their seat back from the computer ("I'm back")."""

    back: int = 0
    kind: ClassVar[str] = "back"

    @property
    def seat(self) -> int | None:
        """The seat taken back."""
        return self.back


@dataclass(frozen=True)
class LevelChanged(TableEvent):
    """The computer players' level changed in play."""

    kind: ClassVar[str] = "level"


@dataclass(frozen=True)
class TurnReminder(TableEvent):
    """80 % of a correspondence turn's time has gone (out of the person's quiet hours):
    ``user_id``, at ``seat``, is reminded that the table waits for them."""

    seat: int = 0
    user_id: int = 0
    kind: ClassVar[str] = "remind"


@dataclass(frozen=True)
class DeadlineMissed(TableEvent):
    """A correspondence deadline passed: the computer moved once for ``seat``; ``dropped``:
    it was the person's second miss in a row at a table whose host chose ``drop``, so the
    computer keeps the seat to the end (no "I'm back") and the game is abandoned for them."""

    seat: int = 0
    dropped: bool = False
    kind: ClassVar[str] = "missed"


@dataclass(frozen=True)
class SeatAwayUntil(TableEvent):
    """The person at ``seat_away`` went away (their correspondence clocks stop until
    ``until``, a wall-clock instant; also ``SeatShown.away_until``) or came back (``until``
    None). Not :class:`SeatAway`, which is the computer keeping a seat."""

    seat_away: int = 0
    user_id: int = 0
    until: float | None = None
    kind: ClassVar[str] = "away-until"

    @property
    def seat(self) -> int | None:
        """The away person's seat."""
        return self.seat_away


@dataclass(frozen=True)
class PersonEvent:
    """News for one person rather than one table (``TableManager.subscribe_person``)."""

    user_id: int
    kind: ClassVar[str] = "person"


@dataclass(frozen=True)
class DigestDue(PersonEvent):
    """The person's daily digest (09:00 in their time zone): the tables waiting for their
    move, each from their seat."""

    positions: tuple[Position, ...] = ()
    kind: ClassVar[str] = "digest"


@dataclass(frozen=True)
class AwayEnded(PersonEvent):
    """The person's away period ended (its time came, or they came back early)."""

    kind: ClassVar[str] = "away-ended"


#: a front end's handler of events; its failure is logged and the service goes on
Subscriber = Callable[[TableEvent], Awaitable[None]]


class EventBus:
    """Events collected per table under its lock, delivered in order after the lock is let go.

    :meth:`add` queues an event (the table's lock held); :meth:`deliver` (called once the lock
    is released) hands the table's queued events to every subscriber. Whoever delivers first
    takes the whole queue, events added meanwhile included, so the order per table holds even
    when several coroutines release the same table's lock in turn.
    """

    def __init__(self) -> None:
        self.subscribers: list[Subscriber] = []
        self._queues: dict[int, deque[TableEvent]] = {}
        self._delivering: set[int] = set()

    def add(self, event: TableEvent) -> None:
        """Queue an event of a table (called with its lock held)."""
        self._queues.setdefault(event.table_id, deque()).append(event)

    async def deliver(self, table_id: int) -> None:
        """Hand a table's queued events to the subscribers, in order (called with no table
        lock held; returns at once when another delivery of that table is under way: that one
        takes these events too)."""
        if table_id in self._delivering:
            return
        queue = self._queues.get(table_id)
        if not queue:
            return
        self._delivering.add(table_id)
        try:
            while queue:
                event = queue.popleft()
                for subscriber in list(self.subscribers):
                    try:
                        await subscriber(event)
                    except Exception as exc:
                        log.error("table %s: a subscriber failed on %s (%s)", table_id,
                                  event.kind, type(exc).__name__, extra=logs.failure(exc))
        finally:
            self._delivering.discard(table_id)
            if not queue:
                self._queues.pop(table_id, None)
