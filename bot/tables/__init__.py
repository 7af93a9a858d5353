"""The table service: its one door.

Front ends (the Discord cogs, the web server, the terminal) call :class:`TableManager` and
read what it hands back: :class:`Position` snapshots, typed events, :class:`Played` results
and :class:`Refusal` reasons. Its parts (registry, turns, computers, lobby, hints, results,
writer, …) are modules of this package that only the service itself imports.
"""

from bot.tables.clock import Clock, ManualClock, SystemClock
from bot.tables.events import (
    AwayEnded,
    Cancelled,
    DeadlineMissed,
    DealEnded,
    DigestDue,
    GameEnded,
    GameStarted,
    LevelChanged,
    LobbyChanged,
    MoveApplied,
    PersonEvent,
    SeatAway,
    SeatAwayUntil,
    SeatBack,
    Subscriber,
    TableEvent,
    TableOpened,
    TurnReminder,
)
from bot.tables.limits import TABLES_PER_CHANNEL_MOST, TABLES_PER_PERSON_MOST
from bot.tables.manager import ComputersStatus, ServiceStatus, TableManager
from bot.tables.model import (
    AWAY_AFTER,
    CANCELLED,
    COMPUTER_LEVELS,
    FINISHED,
    LOBBY,
    PLAYING,
    Move,
    Refusal,
)
from bot.tables.position import LegalMove, Position, SeatShown
from bot.tables.timing import PersonSubscriber
from bot.tables.turns import Cards, Choice, Played

__all__ = [
    "AWAY_AFTER",
    "CANCELLED",
    "COMPUTER_LEVELS",
    "FINISHED",
    "LOBBY",
    "PLAYING",
    "TABLES_PER_CHANNEL_MOST",
    "TABLES_PER_PERSON_MOST",
    "AwayEnded",
    "Cancelled",
    "Cards",
    "Choice",
    "Clock",
    "ComputersStatus",
    "DeadlineMissed",
    "DealEnded",
    "DigestDue",
    "GameEnded",
    "GameStarted",
    "LegalMove",
    "LevelChanged",
    "LobbyChanged",
    "ManualClock",
    "Move",
    "MoveApplied",
    "PersonEvent",
    "PersonSubscriber",
    "Played",
    "Position",
    "Refusal",
    "SeatAway",
    "SeatAwayUntil",
    "SeatBack",
    "SeatShown",
    "ServiceStatus",
    "Subscriber",
    "SystemClock",
    "TableEvent",
    "TableManager",
    "TableOpened",
    "TurnReminder",
]
