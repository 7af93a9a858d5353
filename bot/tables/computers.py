"""Computer players and turn timers: who moves when no person does.

After every change at a table, :meth:`Computers.kick` starts what the position needs: the
computer players of the seats due (thinking without the lock, moving under it, pausing
between moves), a quick weighing of a move offered to computer seats out of turn (Getaway's
take), and the turn timer of the people due — whose run-out lets the computer move for them
and, after ``AWAY_AFTER`` in a row, keep the seat until "I'm back". The turn timers themselves
are :mod:`bot.tables.timing`'s (one scheduler for every table): :attr:`Computers.arm` is its.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable

from bot import logs, tasks
from bot.tables import pace
from bot.tables.events import DeadlineMissed, SeatAway, SeatBack, TableEvent
from bot.tables.model import AWAY_AFTER, CONCLUDE_RETRY_MOST, PLAYING, Refusal, Table
from bot.tables.registry import Registry
from bot.tables.thinking import Thinker
from bot.tables.turns import Turns
from games import ai
from games.core import Action

log = logging.getLogger("bot.tables")  # the table service's log, whichever part writes
#: the refusals of a move or change the database could not store: tried again later
NOT_STORED = ("not-stored", "not-saved")


class Computers:
    """Computer moves, out-of-turn weighing, turn timers, away and back; depends on the
    registry, the turns (every move goes through them) and the thinker; the turns call
    :meth:`kick` after every move (``Turns.after``)."""

    def __init__(self, registry: Registry, turns: Turns, thinker: Thinker,
                 ai_delay: float = 1.0) -> None:
        self.registry = registry
        self.turns = turns
        self.thinker = thinker
        self.ai_delay = ai_delay
        #: gives the turn now its deadline (or none), the lock held: the timing's, set by
        #: the service (bot.tables.timing.Timing.arm)
        self.arm: Callable[[Table], None] = lambda table: None
        #: stores what :attr:`arm` changed (the lock held, before the change is told)
        self.flush: Callable[[Table], Awaitable[None]] = _nothing

    # -- away and back ----------------------------------------------------------------------
    async def back(self, table_id: int, user_id: int) -> Table:
        """"I'm back": the person takes their seat back from the computer."""
        registry = self.registry
        table = registry.playing(table_id, None)
        async with registry.locked(table):
            seat = table.seat_of(user_id)
            if seat is None:
                raise Refusal("not-seated")
            if not table.seats[seat].away:
                raise Refusal("not-away")
            if table.seats[seat].dropped:  # dropped after missed deadlines: for good
                raise Refusal("dropped")
            async with registry.saving(table):
                table.seats[seat].away = False
                table.seats[seat].timeouts = 0
            self.kick(table)  # its timer is in the position shown
            await self.flush(table)
            registry.publish(table, SeatBack, back=seat)
        return table

    async def hand_to_computer(self, table_id: int, user_id: int, seat: int,
                               can_manage: bool = False) -> Table:
        """The host or a manager lets the computer keep a person's seat."""
        registry = self.registry
        table = registry.playing(table_id, None)
        async with registry.locked(table):
            if user_id != table.host_id and not can_manage:
                raise Refusal("host-or-manager")
            if not 0 <= seat < len(table.seats) or table.seats[seat].auto:
                raise Refusal("bad-seat")
            async with registry.saving(table):
                table.seats[seat].away = True
            self.kick(table)
            await self.flush(table)
            registry.publish(table, SeatAway, away=seat)
        return table

    # -- what the position needs ------------------------------------------------------------
    def kick(self, table: Table) -> None:
        """Start the computer players and the turn timer if the game waits for them."""
        if self.registry.closed or table.status != PLAYING or table.state is None:
            return
        if any(table.seats[s].auto for s in table.state.to_act) and (
                table.drive_task is None or table.drive_task.done()):
            table.drive_task = tasks.background(self._drive(table, time.monotonic()))
        if table.weighed != table.version and self._offered(table):
            table.weighed = table.version
            tasks.background(self._weigh(table, table.version))
        self.arm(table)

    @staticmethod
    def _offered(table: Table) -> list[int]:
        """Computer seats that are not due but may act now (Getaway's take window)."""
        state = table.state
        if state is None or state.over:
            return []
        return [s for s, info in enumerate(table.seats)
                if info.auto and s not in state.to_act and state.legal_actions(s)]

    async def _weigh(self, table: Table, version: int) -> None:
        """When a move opens to computer seats out of turn, each weighs it by its game's rule
        of thumb at once (a quick look, no thinking time), so nobody waits for a computer
        that lets it pass."""
        async with self.registry.locked(table):
            state = table.state
            if table.version != version or table.status != PLAYING or state is None:
                return
            for seat in self._offered(table):
                rng = random.Random(f"{table.seed}:{version}:{seat}:out-of-turn")
                try:
                    action = ai.out_of_turn(ai.observe(state, seat), rng)
                except Exception as exc:  # a rule of thumb that fails lets the move pass
                    log.warning("table %s: seat %s could not weigh a move out of turn (%s)",
                                table.id, seat, type(exc).__name__, extra=logs.failure(exc))
                    continue
                if action is None:
                    continue
                try:
                    await self.turns.apply(table, seat, action, None, "computer")
                except Refusal as refusal:
                    if refusal.key not in NOT_STORED:
                        raise
                    table.weighed = -1  # not stored: weighed again at the next look
                    tasks.background(self._look_again(table))
                    return
                break  # a new position: weighed again from there
        self.kick(table)

    async def _look_again(self, table: Table) -> None:
        """Look at a table again after a while (a move the database could not store)."""
        await asyncio.sleep(self.turns.retry)
        self.kick(table)

    async def _drive(self, table: Table, began: float) -> None:
        """Let the computer move for its seats, one move at a time, pausing between moves
        (``began``: when the first of them was due); a move the database could not store is
        tried again, more slowly each time."""
        failed = self.turns.retry
        while not self.registry.closed:
            await asyncio.sleep(max(0.0, began + self.ai_delay - time.monotonic()))
            state = table.state
            if table.status != PLAYING or state is None:
                return
            due = [s for s in state.to_act if table.seats[s].auto]
            if not due:
                return
            try:
                await self.computer_move(table, due[0], "computer", began)
            except Refusal as refusal:
                if refusal.key not in NOT_STORED:
                    raise
                # the database failed: the move did not count; thought again after a while
                await asyncio.sleep(failed)
                failed = min(failed * 2, CONCLUDE_RETRY_MOST)
            else:
                failed = self.turns.retry
            began = time.monotonic()

    async def computer_move(self, table: Table, seat: int, how: str,
                             started: float | None = None) -> tuple[TableEvent, ...] | None:
        """Think without the lock, then apply if the table has not moved on meanwhile.

        Called with the lock NOT held; returns the events of the move applied, or None when
        the position changed while the computer was thinking (the caller looks again).
        ``started``: when the computer's turn began (``time.monotonic``), its pause following.
        """
        state = table.state
        if state is None or table.status != PLAYING:
            return None
        version = table.version
        # where the rules say what a person's silence means (Spar's peek: a refusal), that
        action = table.rules.timeout_action(state, seat) if how == "timeout" else None
        if action is None:
            action = await self.thinker.choose(
                state, seat, f"{table.seed}:{version}:{seat}", table.level,
                current=lambda: table.version == version and table.status == PLAYING,
                started=started, pause=self.ai_delay if started is not None else 0.0)
        chosen = time.monotonic()
        try:
            return await self._apply_chosen(table, seat, how, action, version)
        finally:
            self.thinker.applied(time.monotonic() - chosen)

    async def _apply_chosen(self, table: Table, seat: int, how: str, action: Action,
                            version: int) -> tuple[TableEvent, ...] | None:
        """Apply a computer's chosen move if the table is still where it was chosen."""
        async with self.registry.locked(table):
            if table.version != version or table.status != PLAYING:
                return None
            if how != "timeout":
                return await self.turns.apply(table, seat, action, None, how)
            info = table.seats[seat]
            if info.auto or seat not in table.waiting_for():
                return None
            timeouts, away, dropped = info.timeouts, info.away, info.dropped
            correspondence = pace.is_correspondence(table.timer)
            async with self.registry.saving(table):
                info.timeouts += 1
                if info.timeouts >= AWAY_AFTER:
                    info.away = True
                if correspondence and pace.at_deadline(table.on_deadline,
                                                       info.timeouts) == pace.DROP:
                    info.away = info.dropped = True
            try:
                events = await self.turns.apply(table, seat, action, None, how)
            except Refusal:
                # the timeout's move did not count: nor does the timeout (stored again if the
                # database answers; otherwise the seat's row counts one timeout too many)
                info.timeouts, info.away, info.dropped = timeouts, away, dropped
                with contextlib.suppress(Exception):
                    await self.registry.save(table)
                raise
            if correspondence:  # said at the table (a live timeout shows as its move)
                missed = self.registry.publish(table, DeadlineMissed, seat=seat,
                                               dropped=info.dropped and not dropped)
                events = (*events, missed)
            return events


async def _nothing(table: Table) -> None:
    """No deadline to store (a service without timing)."""
