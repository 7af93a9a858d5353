"""The request budget: Discord's global limit, kept by each process for its share.

Discord lets a bot token make 50 requests a second in all, across every process that runs it;
interaction routes (a click's callback, and follow-ups and edits through an interaction's token)
do not count. Past the limit Discord answers 429 to every route of the bot for a while, and
10,000 such invalid requests in 10 minutes ban the address.

Each process keeps to a fixed share: ``DECKHAND_GLOBAL_RATE`` (requests a second for the whole
bot, 40 by default: Discord's 50 less a fifth, since requests bunch up on their way, and Discord
counts them as they arrive; at 45, four processes on a loaded machine met a few global 429s in
3,000 requests: docs/benchmarks.md) times the part of the bot's shards the process runs
(``DECKHAND_SHARDS``): four processes of a quarter of the shards each send at most 10 a second.
A share is simple and needs nothing shared; what it costs is that a busy process cannot borrow
an idle one's share (docs/deploy.md).

The budget counts the requests of the last second, as Discord does, and holds back a request
that would go over until the oldest one leaves the window; and it spreads them evenly, one per
``1/share`` seconds, since Discord counts requests as they arrive: bursts from several
processes, bunched by the time requests take on the way, went over the limit (the
global-limit benchmark, docs/benchmarks.md). Held-back requests go by priority:
a request made while answering a click (creating a table's thread, a direct message) first,
then the background lane's order (:mod:`bot.lane`: turn alerts, panels, pictures), the public
table message's edit last; a table edit that waits is coalesced with the moves made meanwhile
(:mod:`cogs.board` pays before it takes its lane slot and draws: :meth:`Budget.prepaid`), so
under a short budget a table is late by a second rather than a request refused. Any other job
of the lane whose request waits here steps out of its slot meanwhile (:data:`SLOT`), so the
jobs that send nothing counted (a panel's edit through its click's token) never queue behind
the budget.

Every request of discord.py passes here: discord.py offers aiohttp's request tracing
(``http_trace``), whose ``on_request_start`` aiohttp awaits before it sends.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import heapq
import itertools
import math
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterator
from types import SimpleNamespace
from typing import Protocol

import aiohttp

#: Discord's global limit counts requests over a second
WINDOW = 1.0
#: the priority of a request made outside the background lane: a click is waiting on it
URGENT = -1
#: the priority of the request being made now (the lane sets it for its jobs)
PRIORITY: contextvars.ContextVar[int] = contextvars.ContextVar("request_priority",
                                                               default=URGENT)
#: the lane slot the job running now holds (:mod:`bot.lane`), which it gives up while it waits
#: for room: a job waiting here would otherwise keep the jobs that send nothing counted (a
#: panel's edit through its click's token) out of the lane
SLOT: contextvars.ContextVar[Slot | None] = contextvars.ContextVar("lane_slot", default=None)
#: the request already paid for by the job running now (:meth:`Budget.prepaid`): a list of
#: when it was, which its first counted request empties
_CREDIT: contextvars.ContextVar[list[float] | None] = contextvars.ContextVar("request_credit",
                                                                           default=None)


def counted(path: str) -> bool:
    """Whether a request to this path counts against the global limit: every route but an
    interaction's callback and the webhook routes an interaction's token opens."""
    return "/interactions/" not in path and "/webhooks/" not in path


def share(rate: float, shard_ids: tuple[int, ...] | None, shard_count: int | None) -> float:
    """The requests a second this process may make: its shards' part of the bot's rate."""
    if shard_ids is None or not shard_count:
        return rate
    return rate * len(shard_ids) / shard_count


class Slot(Protocol):
    """A lane slot a waiting request steps out of (:class:`bot.lane.Lane` makes them)."""

    def leave(self) -> None:
        """Give the slot up (nothing if it is not held)."""

    async def back(self) -> None:
        """Hold a slot again, ahead of the jobs still waiting for their first."""


class Budget:
    """At most ``per_second`` counted requests in any second; the others wait, by priority."""

    def __init__(self, per_second: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = max(1, int(per_second))  # a share below one still sends one a second
        self.clock = clock
        self.sent: deque[float] = deque()  # when the requests of the last second went
        # (priority, order, its future)
        self._waiting: list[tuple[int, int, asyncio.Future[float]]] = []
        self._order = itertools.count()
        self._timer: asyncio.TimerHandle | None = None
        #: the least time between two requests: spread evenly, a process never sends its
        #: second's share in one burst, which the time requests take on the way would bunch
        #: with the other processes' bursts into more than Discord's 50 in a second
        self.gap = WINDOW / self.limit
        self.next_at = -math.inf  # when the next request may go
        self.taken = 0  # counted requests sent
        self.held = 0  # of those, how many waited for room
        self.late = 0  # requests paid for in advance and sent too late, which took room again

    def _room(self, now: float) -> bool:
        while self.sent and self.sent[0] <= now - WINDOW:
            self.sent.popleft()
        return len(self.sent) < self.limit and now >= self.next_at

    def _send(self, now: float) -> None:
        self.sent.append(now)
        self.next_at = now + self.gap

    async def take(self, priority: int = URGENT) -> float:
        """Wait until a request fits in the last second and its gap after the one before
        (first among those waiting by priority), and count it; when it was counted."""
        now = self.clock()
        if not self._waiting and self._room(now):
            self._send(now)
            self.taken += 1
            return now
        self.held += 1
        slot = SLOT.get()
        if slot is not None:
            slot.leave()
        now = await self._wait(priority)  # (cancelled: the job ends holding no slot)
        self.taken += 1
        if slot is not None:
            await slot.back()
        return now

    @contextlib.asynccontextmanager
    async def prepaid(self, priority: int) -> AsyncIterator[None]:
        """Take a request's place first, then run the block, whose first counted request is
        then sent at once: a job that waited for the budget while holding a lane slot would
        keep the jobs that send nothing counted (the panels' edits) out of the lane. Sent
        more than a gap after it was paid for, the request gives its place back and takes
        one again (:meth:`spend`); not sent at all, its place goes back."""
        credit = [await self.take(priority)]
        token = _CREDIT.set(credit)
        try:
            yield
        finally:
            _CREDIT.reset(token)
            if credit:  # nothing counted was sent (an edit through a click's token, or
                # none due): its place goes back to the others waiting
                self._give_back(credit.pop())
                self.wake()

    def _give_back(self, paid: float) -> None:
        """Take a request counted at ``paid`` but not sent out of the last second."""
        with contextlib.suppress(ValueError):  # (already out of the window)
            self.sent.remove(paid)
        self.taken -= 1

    async def spend(self, paid: float) -> None:
        """Send a request paid for at ``paid``: at once, unless that was more than a gap ago
        (the job waited for a lane slot or drew a picture meanwhile). Then its place in the
        last second goes back and the request waits for a new one, first of those waiting:
        requests paid for over a second and sent together reached Discord as a burst beyond
        the process's share (the global-limit benchmark's global 429s)."""
        if self.clock() - paid <= self.gap:
            return
        self.late += 1
        self._give_back(paid)
        await self.take(URGENT)

    async def _wait(self, priority: int) -> float:
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (priority, next(self._order), future))
        self.wake()
        return await future

    def wake(self) -> None:
        """Let through the waiting requests that fit now, and set a timer for the rest."""
        now = self.clock()
        while self._waiting and self._room(now):
            _, _, future = heapq.heappop(self._waiting)
            if future.done():  # (cancelled while waiting)
                continue
            self._send(now)
            future.set_result(now)
        if self._waiting and self._timer is None:
            later = self.next_at - now
            if len(self.sent) >= self.limit:
                later = max(later, self.sent[0] + WINDOW - now)
            self._timer = asyncio.get_running_loop().call_later(max(later, 0.001), self._due)

    def _due(self) -> None:
        self._timer = None
        self.wake()

    @property
    def waiting(self) -> int:
        """Requests waiting for room now."""
        return sum(1 for *_, future in self._waiting if not future.done())

    def trace(self) -> aiohttp.TraceConfig:
        """The tracing that makes each counted request of discord.py's session take its
        place in the budget before it is sent (``discord.Client(http_trace=...)``)."""
        config = aiohttp.TraceConfig()

        async def starting(session: aiohttp.ClientSession, context: SimpleNamespace,
                           params: aiohttp.TraceRequestStartParams) -> None:
            if not counted(params.url.path):
                return
            credit = _CREDIT.get()
            if credit:  # paid for before the job took its lane slot
                await self.spend(credit.pop())
                return
            await self.take(PRIORITY.get())

        config.on_request_start.append(starting)
        return config

    def close(self) -> None:
        """Stop the timer (the bot is stopping)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


@contextlib.contextmanager
def priority(level: int) -> Iterator[None]:
    """The requests made in the block wait in the budget at this priority."""
    token = PRIORITY.set(level)
    try:
        yield
    finally:
        PRIORITY.reset(token)
