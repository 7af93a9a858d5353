"""The background lane: work nobody is waiting on goes a few jobs at a time.

A click waits for its answer; the table message's edit, the turn alert and the picture that
follows an answer do not wait on anyone's click (the table message is edited at most once a
second anyway). All of them run on the one event loop. Under a burst of clicks (a hundred
tables whose people all move within a few seconds) every move started three or four such jobs
at once, and the loop ran their steps, one after another, between a click's arrival and its
answer: a new click's frame waited in the bot's socket behind all of them.

A :class:`Lane` lets at most ``width`` of those jobs run at the same time; the others wait for
a slot without using the loop at all. Clicks are never in the lane, so a click waits behind a
few steps of background work instead of hundreds. Waiting jobs coalesce (a table message shows
the latest position when its edit finally runs, a table has one alert at a time), so a burst
does not pile work up. Slots go by priority, then in the order asked: a turn alert (someone is
to be told it is their turn) before a panel's picture, before the public table message.

The lane also bounds how many requests such jobs have in flight at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
from collections.abc import AsyncIterator

from bot import budget

#: background jobs that may run at the same time (each holds its slot over its request)
DEFAULT_WIDTH = 6

#: priorities, most urgent first
BACK = -1  # a job whose request waited for the request budget, taking its slot again
ALERT = 0  # a turn alert posted or deleted
PANEL = 1  # a live panel edited to show its person's turn
PICTURE = 2  # the hand's picture added to a panel already answered with words
TABLE = 3  # the public table message edited
#: the longest a job waits for the clicks being answered before it starts anyway (seconds):
#: clicks go first, but a steady stream of them never holds the table messages back for long
CLICK_WAIT = 0.05


class Held:
    """A job's slot, which it gives up while its request waits for the request budget
    (:mod:`bot.budget`) and takes again, before the jobs still waiting for theirs, once the
    request may go: the panels' edits, which send nothing counted, go meanwhile."""

    def __init__(self, lane: Lane) -> None:
        self.lane = lane
        self.held = True
        # (a task started inside the block inherits the context, not the slot)
        self.task = asyncio.current_task()

    def leave(self) -> None:
        if self.held and asyncio.current_task() is self.task:
            self.held = False
            self.lane._release()

    async def back(self) -> None:
        if not self.held and asyncio.current_task() is self.task:
            await self.lane._take(BACK)
            self.held = True


class Lane:
    """At most ``width`` background jobs at a time; waiting ones by priority, then in turn."""

    def __init__(self, width: int = DEFAULT_WIDTH) -> None:
        if width < 1:
            raise ValueError("a lane needs room for at least one job")
        self.width = width
        self.busy = 0  # slots held now
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self.most_waiting = 0  # the most jobs that ever waited at once
        self.served = 0
        self.clicks = 0  # people's clicks being answered now
        self.quiet = asyncio.Event()  # set while no click is being answered
        self.quiet.set()

    def click_began(self) -> None:
        """A click is being answered: jobs about to start wait for it (clicks first)."""
        self.clicks += 1
        self.quiet.clear()

    def click_ended(self) -> None:
        """A click was answered (or failed)."""
        self.clicks = max(0, self.clicks - 1)
        if not self.clicks:
            self.quiet.set()

    async def after_clicks(self) -> None:
        """Wait, up to :data:`CLICK_WAIT`, until no click is being answered: a job started
        now would put its steps on the event loop ahead of the steps of the clicks that
        arrive meanwhile, and a person waits on those."""
        if self.clicks:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(CLICK_WAIT):
                    await self.quiet.wait()

    @property
    def waiting(self) -> int:
        """Jobs waiting for a slot now."""
        return sum(1 for _, _, future in self._waiting if not future.done())

    @contextlib.asynccontextmanager
    async def slot(self, priority: int = TABLE, ahead: bool = False) -> AsyncIterator[None]:
        """Hold one of the lane's slots while the block runs (``priority``: lower goes
        first), once the clicks being answered are (see :meth:`after_clicks`). A request of
        the block that waits for the request budget steps out of the slot meanwhile
        (:class:`Held`). ``ahead``: the job has waited its turn already (its request paid
        for in the budget, :meth:`bot.budget.Budget.prepaid`), so it takes a slot before the
        jobs waiting for their first, its requests keeping ``priority``: paid for long before
        they go, requests of several such jobs would reach Discord together."""
        await self.after_clicks()
        await self._take(BACK if ahead else priority)
        self.served += 1
        held = Held(self)
        token = budget.SLOT.set(held)
        try:
            with budget.priority(priority):  # its requests wait in the budget in this order
                yield
        finally:
            budget.SLOT.reset(token)
            if held.held:
                self._release()

    async def _take(self, priority: int) -> None:
        """Hold a slot, waiting for one in ``priority``'s turn."""
        if self.busy < self.width and not self._waiting:
            self.busy += 1
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (priority, next(self._order), future))
        self.most_waiting = max(self.most_waiting, len(self._waiting))
        try:
            await future  # a slot handed over: ``busy`` already counts it
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self._release()  # handed over as the job was cancelled: pass it on
            else:
                future.cancel()  # skipped when a slot frees
            raise

    def widen(self, width: int) -> None:
        """Let up to ``width`` jobs run from now on (at a stop: no click is coming, and every
        table message should show its last position at once); jobs waiting start now."""
        self.width = max(self.width, width)
        while self.busy < self.width and self._hand_over():
            self.busy += 1

    def _release(self) -> None:
        """A slot is free: hand it to the first job still waiting, or keep it free."""
        if not self._hand_over():
            self.busy -= 1

    def _hand_over(self) -> bool:
        """Give a slot to the first job still waiting (whether there was one)."""
        while self._waiting:
            _, _, future = heapq.heappop(self._waiting)
            if not future.done():
                future.set_result(None)
                return True
        return False
