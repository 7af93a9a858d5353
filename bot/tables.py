"""The table service: lobbies, turns, computer players, timers, results, hints, restart.

Pure asyncio, no Discord: the front ends (the cogs) turn interactions into calls here, read
tables as :class:`bot.position.Position` snapshots and show the typed events
(:mod:`bot.events`) it publishes. One table per channel, one lock per table; the state version
is the number of actions applied, and every action is stored (committed) before anyone is told
about it. No subscriber is ever called with a table's lock held: events are collected under
the lock and delivered, in order per table, once it is let go.

The service is made of parts, each a class that receives what it uses in its constructor
(no part inherits another, no module imports one that imports it back)::

    EventBus   (bot.events)    subscribers; per-table queues delivered after the lock.
                               Depends on nothing.
    Registry   (bot.registry)  the open tables: lookup, by channel, the lock + delivery,
                               positions, storing a table, closing, loading from storage.
                               Depends on the storage, the rules lookup and the bus.
    Results    (bot.finish)    a finished game's result stored (tried again until it is),
                               the table closed, the finish hooks (records, ratings).
                               Depends on the registry.
    Turns      (bot.turns)     a person's choice resolved against the rules; every move
                               applied, stored, announced (MoveApplied, DealEnded).
                               Depends on the registry, the action writer and the results;
                               calls its ``after`` hooks (the computers' kick) after a move.
    Computers  (bot.computers) computer players, out-of-turn weighing, turn timers, away
                               and back. Depends on the registry, the turns, the thinker.
    Lobby      (bot.lobby)     open, seats, computers, options, timer, level, start, cancel.
                               Depends on the registry, the results and the computers.
    Hints      (bot.hints)     the host's option and a person's hint.
                               Depends on the registry, the lobby and the thinker.

:class:`TableManager` composes them and is the one API the front ends call; restart
(:meth:`TableManager.resume`) and stop (:meth:`TableManager.close`) are here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

import games
from bot.computers import Computers
from bot.events import (
    Cancelled,
    DealEnded,
    EventBus,
    GameEnded,
    GameStarted,
    LevelChanged,
    LobbyChanged,
    MoveApplied,
    SeatAway,
    SeatBack,
    Subscriber,
    TableEvent,
    TableOpened,
)
from bot.finish import Results
from bot.hints import Hints
from bot.lobby import Lobby
from bot.model import (  # re-exported: the names the cogs and tests know
    AWAY_AFTER,
    CANCELLED,
    COMPUTER_LEVELS,
    FINISHED,
    LOBBY,
    PLAYING,
    Move,
    Refusal,
    RulesLookup,
    Seat,
    Table,
)
from bot.position import LegalMove, Position, SeatShown
from bot.registry import Registry
from bot.storage import Storage
from bot.thinking import Thinker, best_player
from bot.turns import Choice, Outcome, Turns
from bot.writer import ActionWriter
from games.ai import LEVELS

__all__ = [
    "AWAY_AFTER",
    "CANCELLED",
    "COMPUTER_LEVELS",
    "FINISHED",
    "LOBBY",
    "PLAYING",
    "ActionWriter",
    "Cancelled",
    "Choice",
    "DealEnded",
    "GameEnded",
    "GameStarted",
    "LegalMove",
    "LevelChanged",
    "LobbyChanged",
    "Move",
    "MoveApplied",
    "Outcome",
    "Position",
    "Refusal",
    "RulesLookup",
    "Seat",
    "SeatAway",
    "SeatBack",
    "SeatShown",
    "Subscriber",
    "Table",
    "TableEvent",
    "TableManager",
    "TableOpened",
    "best_player",
]

log = logging.getLogger(__name__)


class TableManager:
    """The table service: every table of the process, through its parts."""

    def __init__(
        self,
        store: Storage,
        rules_for: RulesLookup = games.get,
        ai_delay: float = 1.0,
        timer_scale: float = 1.0,
        ai_level: str = "best",
        ai_workers: int = 0,
        ai_budget: float | None = None,
        ai_scheduler: bool = True,
    ) -> None:
        self.store = store
        self.rules_for = rules_for
        self.ai_level = ai_level
        #: computer players' thinking: search in ``ai_workers`` processes (0: in a thread)
        self.thinker = Thinker(ai_level, ai_workers, ai_budget, scheduler=ai_scheduler)
        self.bus = EventBus()
        self.registry = Registry(store, rules_for, self.bus)
        self.results = Results(self.registry)
        self.turns = Turns(self.registry, ActionWriter(store), self.results)
        self.computers = Computers(self.registry, self.turns, self.thinker, ai_delay,
                                   timer_scale)
        self.turns.after.append(self.computers.kick)
        self.lobby = Lobby(self.registry, self.results, self.computers, self.default_level)
        self.hints = Hints(self.registry, self.lobby, self.thinker)

        # -- the API: each call is its part's --------------------------------------------
        # the lobby (each returns the table; Refusal saying why not)
        self.open = self.lobby.open
        self.join = self.lobby.join
        self.leave = self.lobby.leave
        self.add_computer = self.lobby.add_computer
        self.remove_computer = self.lobby.remove_computer
        self.set_option = self.lobby.set_option
        self.set_level = self.lobby.set_level
        self.set_timer = self.lobby.set_timer
        self.swap_seats = self.lobby.swap_seats
        self.set_hints = self.hints.set_hints
        self.start = self.lobby.start
        self.cancel = self.lobby.cancel
        self.set_message = self.lobby.set_message
        # play
        self.act = self.turns.act
        self.back = self.computers.back
        self.hand_to_computer = self.computers.hand_to_computer
        self.hint = self.hints.hint
        # reading
        self.get = self.registry.get
        self.in_channel = self.registry.in_channel
        self.position = self.registry.position
        self.position_for = self.registry.position_for
        self.snapshot = self.registry.snapshot
        self.settled = self.registry.settled

    # -- what the front ends and tests read -------------------------------------------------
    def at(self, table_id: int, guild_id: int | None, channel_id: int | None) -> Table:
        """The open table a request names, when the request comes from where the table is:
        its server and channel. A request from no server (a hand sent by direct message)
        has no place to compare; its person's seat is checked instead, by the caller.

        Every permission a front end passes on (a server manager's, a host's) is its
        server's: without this check, one server's manager could cancel another server's
        table by naming its id. A foreign request is refused (``foreign-table``) and logged.
        """
        table = self.registry.get(table_id)
        if guild_id is not None and (table.guild_id, table.channel_id) != (guild_id, channel_id):
            log.warning("a request from server %s, channel %s named table %s of server %s, "
                        "channel %s: refused", guild_id, channel_id, table_id, table.guild_id,
                        table.channel_id)
            raise Refusal("foreign-table")
        return table

    @property
    def tables(self) -> dict[int, Table]:
        """The open tables by id."""
        return self.registry.tables

    @property
    def listeners(self) -> list[Subscriber]:
        """The subscribers to the service's events (each called with no lock held)."""
        return self.bus.subscribers

    def subscribe(self, subscriber: Subscriber) -> None:
        """Receive every event of every table, in order per table."""
        self.bus.subscribers.append(subscriber)

    def unsubscribe(self, subscriber: Subscriber) -> None:
        """Stop receiving events (no error when not subscribed)."""
        with contextlib.suppress(ValueError):
            self.bus.subscribers.remove(subscriber)

    @property
    def finish_hooks(self) -> list[Callable[[int], Awaitable[None]]]:
        """Awaited with a table's id once its result is stored (records, ratings)."""
        return self.results.finish_hooks

    @property
    def conclude_retry(self) -> float:
        """The first wait before trying again to store a result that could not be stored."""
        return self.results.retry

    @conclude_retry.setter
    def conclude_retry(self, seconds: float) -> None:
        self.results.retry = seconds

    @property
    def ai_delay(self) -> float:
        """The computer players' pause between moves (seconds)."""
        return self.computers.ai_delay

    @ai_delay.setter
    def ai_delay(self, seconds: float) -> None:
        self.computers.ai_delay = seconds

    @property
    def timer_scale(self) -> float:
        """How much of a turn timer's seconds count (tests run them fast)."""
        return self.computers.timer_scale

    @timer_scale.setter
    def timer_scale(self, scale: float) -> None:
        self.computers.timer_scale = scale

    @property
    def default_level(self) -> str:
        """The level a new table's computer players start at: the bot's (``best`` is the
        strongest level, ``hard``)."""
        return "hard" if self.ai_level == "best" else self.ai_level

    def _stored_level(self, level: str) -> str:
        """A stored table's level; the bot's for one stored before tables had levels (or
        one this bot does not know)."""
        return level if level in LEVELS else self.default_level

    # -- restart and stop -------------------------------------------------------------------
    async def resume(self, owns: Callable[[int], bool] | None = None) -> list[Table]:
        """Rebuild every unfinished table from storage and start its computers and timers
        (the computer players' worker processes first, warmed up)."""
        await self.thinker.start()
        resumed = await self.registry.load(owns, self._stored_level)
        for table in resumed:
            state = table.state
            if state is not None and state.over:  # the bot died between move and result
                async with self.registry.locked(table):
                    await self.results.settle(table)
        for table in resumed:
            self.computers.kick(table)
        return resumed

    async def close(self) -> None:
        """Stop every computer player, timer and worker process (the tables stay stored)."""
        self.registry.closed = True
        running = [t for table in self.tables.values()
                   for t in (table.timer_task, table.drive_task, table.conclude_task)
                   if t is not None]
        for task in running:
            task.cancel()
        for task in running:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.thinker.close()
