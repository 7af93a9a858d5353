"""Turns: a move resolved against the rules, applied, stored, then announced.

Every move — a person's, a computer's, a timeout's — goes through :meth:`Turns.apply` with the
table's lock held: applied to the state, stored (committed) before anyone is told, the version
bumped, a game that ended concluded (:class:`bot.finish.Results`), and its events queued for
delivery once the lock is let go.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot import logs, tasks
from bot.events import DealEnded, MoveApplied, TableEvent
from bot.finish import Results
from bot.model import CONCLUDE_RETRY_MOST, Move, Refusal, Table
from bot.position import Position, position_of
from bot.registry import Registry
from bot.writer import ActionWriter
from games.cards import Card
from games.core import Action, IllegalAction, State

#: what a person picked: a move's index in the seat's legal moves (as a panel lists them),
#: a move, its text form ('play:TS'), or its cards (the one legal move made of them)
Choice = int | Action | str | Sequence[Card | str]

log = logging.getLogger("bot.tables")  # the table service's log, whichever part writes


@dataclass(frozen=True)
class Outcome:
    """What a person's move did: the version stored, the events it made (its move first),
    and the seat's position right after it (the answer to the click)."""

    version: int
    events: tuple[TableEvent, ...]
    position: Position

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves applied (the person's)."""
        return tuple(m for e in self.events for m in e.moves)


def resolve(state: State, seat: int, choice: Choice) -> Action:
    """The move a choice names for a seat, against the rules: Refusal 'no-such-choice' for an
    index or cards that name no legal move, 'illegal' for a text that is no move."""
    if isinstance(choice, bool):
        raise Refusal("no-such-choice")
    if isinstance(choice, int):
        legal = state.legal_actions(seat)
        if not 0 <= choice < len(legal):
            raise Refusal("no-such-choice")
        return legal[choice]
    if isinstance(choice, Action):
        return choice
    if isinstance(choice, str):
        try:
            return Action.parse(choice)
        except IllegalAction as exc:
            raise Refusal("illegal", reason=exc.message) from None
    try:
        wanted = sorted(str(c) for c in choice)
    except TypeError:
        raise Refusal("no-such-choice") from None
    if not wanted:  # a move without cards (a pass, a knock) is chosen by index or text
        raise Refusal("no-such-choice")
    found = [a for a in state.legal_actions(seat) if sorted(str(c) for c in a.cards) == wanted]
    if len(found) != 1:  # none, or several kinds of move with those cards
        raise Refusal("no-such-choice")
    return found[0]


class Turns:
    """A person's move, and the one way every move is applied; depends on the registry, the
    action writer and the results."""

    def __init__(self, registry: Registry, writer: ActionWriter, results: Results) -> None:
        self.registry = registry
        self.writer = writer
        self.results = results
        #: called after every move, the lock held, before its events are taken: what the
        #: new position needs starts there (the computers, the turn timer shown with it)
        self.after: list[Callable[[Table], None]] = []
        #: per table, the task deleting a move that failed to store should it be on disk after
        #: all (:meth:`bot.writer.ActionWriter.mend`), tried again until the database answers
        self.mending: dict[int, asyncio.Task[None]] = {}
        #: the first wait before that task tries (doubling each time, to CONCLUDE_RETRY_MOST)
        self.retry = 0.5

    async def act(self, table_id: int, user_id: int, version: int | None,
                  choice: Choice) -> Outcome:
        """A seated person's move at a state version; Refusal saying why when it cannot
        apply ('no-table', 'not-started', 'stale', 'not-seated', 'away', 'not-your-turn',
        'no-such-choice', 'illegal').

        The move is stored before anyone hears of it; its events reach the subscribers
        before this returns, unless another delivery of the table's events is under way
        (that one delivers them too, in order)."""
        registry = self.registry
        table = registry.playing(table_id, version)
        async with registry.locked(table):
            table = registry.playing(table_id, version)
            seat = table.seat_of(user_id)
            if seat is None:
                raise Refusal("not-seated")
            if table.seats[seat].away:
                raise Refusal("away")
            state = table.state
            assert state is not None
            action = resolve(state, seat, choice)
            if seat not in state.to_act and not any(
                    action.same_as(a) for a in state.legal_actions(seat)):
                raise Refusal("not-your-turn")
            table.seats[seat].timeouts = 0
            events = await self.apply(table, seat, action, user_id, "player")
            return Outcome(table.version, events, position_of(table, seat))

    async def apply(self, table: Table, seat: int, action: Action, user_id: int | None,
                    how: str) -> tuple[TableEvent, ...]:
        """Apply, store, bump the version, conclude a game that ended, and queue the events
        (called with the table's lock held); the events queued, in order.

        The move is applied to a copy of the state, which becomes the table's only once the
        move is stored: when storing fails the table is exactly as it was (Refusal
        'not-stored': the move did not count and may be played again), never rebuilt from the
        database that just failed."""
        state = table.state
        assert state is not None
        deals = len(state.breakdown())
        after = state.clone()
        try:
            happened = after.apply(seat, action)
        except IllegalAction as exc:
            raise Refusal("illegal", reason=exc.message) from None
        try:
            await self.writer.add(table.id, table.version, seat, str(action), user_id, how)
        except Exception as exc:
            log.error("table %s: a move could not be stored (%s); it did not count",
                      table.id, type(exc).__name__, extra=logs.failure(exc))
            self._mend_later(table)
            raise Refusal("not-stored") from exc
        table.state = state = after
        table.version += 1
        for hook in self.after:
            hook(table)
        move = Move(seat, action, how, tuple(happened))
        events: list[TableEvent] = [MoveApplied(position_of(table), table, (move,))]
        tallies = state.breakdown()
        if len(tallies) > deals:
            events.append(DealEnded(events[0].position, table, tallies[-1].deal))
        for event in events:
            self.registry.bus.add(event)
        if state.over:
            ended = await self.results.conclude(table)
            if ended is None:
                self.results.later(table)
            else:
                events.append(ended)
        return tuple(events)

    def _mend_later(self, table: Table) -> None:
        """Until the database answers again, keep trying to delete what may be on disk of a
        move that failed to store (its person was told it did not count): a restart before
        the table's next move must not bring it back. The table's next move does it too."""
        running = self.mending.get(table.id)
        if self.registry.closed or (running is not None and not running.done()):
            return

        async def mend() -> None:
            delay = self.retry
            while not self.registry.closed and table.id in self.writer.unsure:
                await asyncio.sleep(delay)
                async with table.lock:
                    try:
                        await self.writer.mend(table.id)
                    except Exception as exc:
                        log.warning("table %s: the database still fails (%s); trying again",
                                    table.id, type(exc).__name__)
                    else:
                        return
                delay = min(delay * 2, CONCLUDE_RETRY_MOST)

        self.mending[table.id] = tasks.background(mend())
