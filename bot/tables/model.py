"""What a table is: its seats, its state and the moves applied.

Plain data shared by the table service's parts (see :mod:`bot.tables`); the front ends read
tables as :class:`bot.tables.position.Position` snapshots made from it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import t
from bot.storage.store import TableRow
from games.core import Action, Event, OptionError, Rules, State
from games.wording import Msg

LOBBY, PLAYING, FINISHED, CANCELLED = "lobby", "playing", "finished", "cancelled"
#: the levels a host may choose for a table's computer players (of ``games.ai.LEVELS``; a
#: table may also hold the bot's own level, ``random`` included)
COMPUTER_LEVELS = ("easy", "normal", "hard")
#: timeouts in a row after which the computer keeps the seat until "I'm back"
AWAY_AFTER = 2
#: the longest wait between tries to store a finished game's result (seconds)
CONCLUDE_RETRY_MOST = 30.0


class Refusal(Exception):
    """A request the table cannot honour; ``key`` names the sentence in :mod:`bot.i18n`."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key, params)
        self.key = key
        self.params = params

    def text(self, lang: str) -> str:
        """The refusal's sentence in a language. A game's refusal carries data (a
        :class:`games.wording.Msg`, an :class:`games.core.OptionError`), worded here in the
        reader's language too."""
        params = {name: value.text(lang) if isinstance(value, (OptionError, Msg)) else value
                  for name, value in self.params.items()}
        return t(self.key, lang, **params)


@dataclass
class Seat:
    """One seat: a person (``user_id``) or a computer player (``computer``)."""

    user_id: int | None
    name: str
    computer: bool = False
    away: bool = False  # a person's seat the computer keeps until "I'm back"
    timeouts: int = 0
    hints: int = 0  # hints this seat's person was shown in this game (bot.tables.hints)
    #: the person missed a second correspondence deadline at a table whose host chose
    #: ``drop``: the computer keeps the seat to the end (no "I'm back")
    dropped: bool = False
    #: the (wall-clock) instant the person's away period ends (bot.tables.timing), None when
    #: they are not away; not stored with the seat (it is the person's setting)
    away_until: float | None = field(default=None, compare=False)

    @property
    def auto(self) -> bool:
        """True when the computer moves for this seat."""
        return self.computer or self.away

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict for storage."""
        found: dict[str, Any] = {"user_id": self.user_id, "name": self.name,
                                 "computer": self.computer, "away": self.away,
                                 "timeouts": self.timeouts}
        if self.hints:
            found["hints"] = self.hints  # with the game: a game with hints is unrated
        if self.dropped:
            found["dropped"] = True
        return found

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        """The seat stored by :meth:`to_dict`."""
        return cls(data.get("user_id"), str(data.get("name", "")), bool(data.get("computer")),
                   bool(data.get("away")), int(data.get("timeouts", 0)),
                   int(data.get("hints", 0)), bool(data.get("dropped")))


@dataclass(eq=False)
class Table:
    """One table in one channel: its lobby, seats and, once started, the game state."""

    id: int
    guild_id: int
    channel_id: int
    rules: Rules
    host_id: int
    status: str
    seats: list[Seat]
    options: dict[str, Any]
    seed: int
    timer: str
    message_id: int | None = None
    state: State | None = None
    version: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    #: no longer used: every turn timer is an entry of the one scheduler (bot.tables.timing)
    timer_task: asyncio.Task[None] | None = field(default=None, repr=False)
    #: (version, wall-clock time) when the running turn timer runs out, for the table message
    #: (its instant on the service's clock is ``deadline_at``; bot.tables.timing)
    deadline: tuple[int, float] | None = field(default=None, repr=False)
    drive_task: asyncio.Task[None] | None = field(default=None, repr=False)
    #: trying again to store the result of a game that is over (see ``_conclude_later``)
    conclude_task: asyncio.Task[None] | None = field(default=None, repr=False)
    #: the level the computer players here play at (one of ``COMPUTER_LEVELS``, or the bot's
    #: ``random``); the computer keeping an away person's seat plays at it too
    level: str = "hard"
    #: whether the host allows hints: a Hint button on the players' panels (bot.tables.hints)
    hints: bool = False
    #: the last position at which the computers weighed a move open to them out of turn
    weighed: int = field(default=-1, repr=False)
    #: why the table was ended without a result (a message key), for its public message
    ended: str | None = None
    #: what every snapshot of the last position taken shares (bot.tables.position.Seen), with the
    #: (version, state) it was taken at
    seen: object = field(default=None, repr=False)
    #: correspondence (bot.tables.pace): the instant the person due must move by (None: no
    #: deadline running), whether they were reminded of it, and what a miss does
    deadline_at: float | None = None
    reminded: bool = False
    on_deadline: str = "computer"
    #: the thread the table plays in (None: in its channel, ``channel_id``, where its message
    #: is either way)
    thread_id: int | None = None

    @property
    def game_id(self) -> str:
        """The game's registry id."""
        return self.rules.id

    def seat_of(self, user_id: int) -> int | None:
        """The seat a person holds here, or None."""
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id and not seat.computer:
                return index
        return None

    def humans(self) -> list[int]:
        """User ids of the people seated."""
        return [s.user_id for s in self.seats if s.user_id is not None and not s.computer]

    def row(self) -> TableRow:
        """The table as stored."""
        return TableRow(self.id, self.guild_id, self.channel_id, self.rules.id, self.host_id,
                        self.status, [s.to_dict() for s in self.seats], dict(self.options),
                        self.seed, self.timer, self.message_id, self.level, self.hints,
                        self.deadline_at, self.reminded, self.on_deadline, self.thread_id)

    def waiting_for(self) -> list[int]:
        """Seats the game waits for (empty outside play)."""
        if self.status != PLAYING or self.state is None:
            return []
        return list(self.state.to_act)

    def people_due(self) -> frozenset[int]:
        """The people the game waits for now: user ids of the seats to act that no computer
        plays or keeps (none outside play, none once the game is over)."""
        if self.state is not None and self.state.over:
            return frozenset()
        due = set()
        for index in self.waiting_for():
            seat = self.seats[index]
            if not seat.auto and seat.user_id is not None:
                due.add(seat.user_id)
        return frozenset(due)


@dataclass(frozen=True)
class Move:
    """One applied action: who, what, how (player, computer, timeout) and what happened."""

    seat: int
    action: Action
    how: str
    events: tuple[Event, ...]


RulesLookup = Callable[[str], Rules]
