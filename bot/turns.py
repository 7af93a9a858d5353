"""Turns: a person's move, the computer players, the turn timer, away and back."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable

from bot import logs, tasks
from bot.config import TIMER_SECONDS
from bot.finish import Finishing
from bot.model import AWAY_AFTER, FINISHED, PLAYING, Move, Refusal, Table, Update
from games import ai
from games.core import Action, IllegalAction

log = logging.getLogger("bot.tables")  # the table manager's log, whichever layer writes


class Turns(Finishing):
    """Moves of people and computers, applied and stored one at a time under a table's lock."""

    async def act(self, table_id: int, user_id: int, version: int | None,
                  action: Action | str, then: Callable[[Table], None] | None = None) -> Move:
        """A seated person's move at a state version; Refusal saying why when it cannot apply.

        ``then`` is called with the table once the move is stored and announced, before the
        table's lock is let go: what the mover is answered with is taken there, so the answer
        never waits for the lock again (a computer's move may take it first).
        """
        table = self._playing(table_id, version)
        async with table.lock:
            table = self._playing(table_id, version)
            seat = table.seat_of(user_id)
            if seat is None:
                raise Refusal("not-seated")
            if table.seats[seat].away:
                raise Refusal("away")
            try:
                parsed = Action.parse(action) if isinstance(action, str) else action
            except IllegalAction as exc:
                raise Refusal("illegal", reason=exc.message) from None
            state = table.state
            assert state is not None
            if seat not in state.to_act and not any(
                    parsed.same_as(a) for a in state.legal_actions(seat)):
                raise Refusal("not-your-turn")
            table.seats[seat].timeouts = 0
            move = await self._apply(table, seat, parsed, user_id, "player")
            await self._after(table, move)
            if then is not None:
                then(table)
        return move

    async def _apply(self, table: Table, seat: int, action: Action, user_id: int | None,
                     how: str) -> Move:
        """Apply, store, bump the version; called with the table's lock held."""
        state = table.state
        assert state is not None
        try:
            events = state.apply(seat, action)
        except IllegalAction as exc:
            raise Refusal("illegal", reason=exc.message) from None
        try:
            await self._writer.add(table.id, table.version, seat, str(action), user_id, how)
        except Exception:
            # the move is not on disk, so it did not happen: rebuild from what is stored (and
            # should it be there after all, a game it ended is concluded)
            await self._rebuild(table)
            if table.state is not None and table.state.over:
                self._conclude_later(table)
            raise
        table.version += 1
        if state.over and not await self._conclude(table):
            self._conclude_later(table)
        return Move(seat, action, how, tuple(events))
    async def _after(self, table: Table, move: Move) -> None:
        kind = "finish" if table.status == FINISHED else "move"
        await self._notify(Update(table, kind, (move,), move.seat))
        self._kick(table)

    async def back(self, table_id: int, user_id: int) -> Table:
        """"I'm back": the person takes their seat back from the computer."""
        table = self._playing(table_id, None)
        async with table.lock:
            seat = table.seat_of(user_id)
            if seat is None:
                raise Refusal("not-seated")
            if not table.seats[seat].away:
                raise Refusal("not-away")
            table.seats[seat].away = False
            table.seats[seat].timeouts = 0
            await self._save(table)
            await self._notify(Update(table, "back", seat=seat))
        self._kick(table)
        return table

    async def hand_to_computer(self, table_id: int, user_id: int, seat: int,
                               can_manage: bool = False) -> Table:
        """The host or a manager lets the computer keep a person's seat."""
        table = self._playing(table_id, None)
        async with table.lock:
            if user_id != table.host_id and not can_manage:
                raise Refusal("host-or-manager")
            if not 0 <= seat < len(table.seats) or table.seats[seat].auto:
                raise Refusal("bad-seat")
            table.seats[seat].away = True
            await self._save(table)
            await self._notify(Update(table, "away", seat=seat))
        self._kick(table)
        return table

    # -- computer players and timers --------------------------------------------------------
    async def _computer_move(self, table: Table, seat: int, how: str,
                             started: float | None = None) -> Move | None:
        """Think without the lock, then apply if the table has not moved on meanwhile.

        Called with the lock NOT held; returns the move applied, or None when the position
        changed while the computer was thinking (the caller looks again). ``started``: when
        the computer's turn began (``time.monotonic``), its pause following.
        """
        state = table.state
        if state is None or table.status != PLAYING:
            return None
        version = table.version
        action = await self.thinker.choose(
            state, seat, f"{table.seed}:{version}:{seat}", table.level,
            current=lambda: table.version == version and table.status == PLAYING,
            started=started, pause=self.ai_delay if started is not None else 0.0)
        chosen = time.monotonic()
        try:
            return await self._apply_computer_move(table, seat, how, action, version)
        finally:
            self.thinker.applied(time.monotonic() - chosen)

    async def _apply_computer_move(self, table: Table, seat: int, how: str, action: Action,
                                   version: int) -> Move | None:
        """Apply a computer's chosen move if the table is still where it was chosen."""
        async with table.lock:
            if table.version != version or table.status != PLAYING:
                return None
            if how == "timeout":
                info = table.seats[seat]
                if info.auto or seat not in table.waiting_for():
                    return None
                info.timeouts += 1
                if info.timeouts >= AWAY_AFTER:
                    info.away = True
                await self._save(table)
            move = await self._apply(table, seat, action, None, how)
            kind = "finish" if table.status == FINISHED else "move"
            await self._notify(Update(table, kind, (move,), seat))
            self._kick(table)  # its timer, and the computers' look at a window it opened
        return move

    def _kick(self, table: Table) -> None:
        """Start the computer players and the turn timer if the game waits for them."""
        if self._closed or table.status != PLAYING or table.state is None:
            return
        if any(table.seats[s].auto for s in table.state.to_act) and (
                table.drive_task is None or table.drive_task.done()):
            table.drive_task = tasks.background(
                self._drive(table, time.monotonic()))
        if table.weighed != table.version and self._offered(table):
            table.weighed = table.version
            tasks.background(self._weigh(table, table.version))
        self._arm_timer(table)

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
        async with table.lock:
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
                move = await self._apply(table, seat, action, None, "computer")
                kind = "finish" if table.status == FINISHED else "move"
                await self._notify(Update(table, kind, (move,), seat))
                break  # a new position: weighed again from there
        self._kick(table)

    async def _drive(self, table: Table, began: float) -> None:
        """Let the computer move for its seats, one move at a time, pausing between moves
        (``began``: when the first of them was due)."""
        while not self._closed:
            await asyncio.sleep(max(0.0, began + self.ai_delay - time.monotonic()))
            state = table.state
            if table.status != PLAYING or state is None:
                return
            due = [s for s in state.to_act if table.seats[s].auto]
            if not due:
                return
            await self._computer_move(table, due[0], "computer", began)
            began = time.monotonic()

    def _arm_timer(self, table: Table) -> None:
        if table.timer_task is not None and table.timer_task is not asyncio.current_task():
            table.timer_task.cancel()
        table.timer_task = None
        table.deadline = None
        seconds = TIMER_SECONDS.get(table.timer)
        if seconds is None or table.status != PLAYING or table.state is None:
            return
        if not any(not table.seats[s].auto for s in table.state.to_act):
            return
        table.deadline = (table.version, time.time() + seconds * self.timer_scale)
        table.timer_task = tasks.background(
            self._expire(table, table.version, seconds * self.timer_scale))

    async def _expire(self, table: Table, version: int, seconds: float) -> None:
        """When a person's time runs out the computer moves for them; twice, it keeps the seat."""
        await asyncio.sleep(seconds)
        state = table.state
        if table.version != version or table.status != PLAYING or state is None:
            return
        late = [s for s in state.to_act if not table.seats[s].auto]
        if late:
            await self._computer_move(table, late[0], "timeout")
        self._kick(table)

