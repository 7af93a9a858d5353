"""Sharing the computer players' thinking time among the tables waiting for it.

A search move (the ``hard`` level) takes a worker for up to its budget. With more tables
waiting than workers, the moves queue, and a fixed budget makes each person wait longer the
more tables there are, without limit. The :class:`Scheduler` keeps that wait bounded:

- **Order.** Moves are served in the order their turns began (then in the order they asked):
  no table waits behind a table that came later, so none starves.
- **Budget.** A move's search time is decided when a worker takes it: ``slack × slots /
  waiting`` seconds (the moves waiting share ``slack`` seconds of every worker), at most the
  full budget, at least the floor, and never more than the move's own time left.
- **Stale moves.** A move whose table was cancelled or moved on while it waited (its
  ``current`` callable says False) is dropped before it is searched: :class:`Dropped`.
- **Deadline.** A move is to be applied within ``patience`` seconds of the end of its
  computer's pause, counted from when the turn began (``started`` + ``pause``): time the event
  loop lost before asking (a late wake-up on a busy process) counts against it, not on top of
  it. The search must end early enough to leave the time that applying a move takes: the
  *store* margin, learnt from the moves applied (:meth:`Scheduler.applied`) as a high estimate
  (mean + 3 deviations), as is the *overhead* (a search's hand-over to the worker and back
  beyond its budget). A move's budget never reaches past its deadline.
- **Fallback.** A move that could not finish by its deadline even at the floor budget (the
  queue ahead of it, at the floor, would take longer) is not searched: its caller plays it at
  once by the cheap level instead. Such moves are counted, logged (once a minute at most) and
  shown by ``/status`` (:meth:`Scheduler.behind`), so the bot says when its workers cannot keep
  up rather than going quiet.

- **Spare time.** Background work nobody waits on move by move (a review after a game) asks
  for a slot with :meth:`Scheduler.spare`: it gets one only when no move waits, and never the
  last free slot of several, so a move asking meanwhile finds a slot; it comes in short parts,
  whose expected end the moves in line count with.

The scheduler only grants slots; the caller searches (in a worker process or a thread) while
holding one. Its clock is injectable, so its decisions are tested without waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

#: the shortest search a move gets (seconds) before the scheduler plays it cheaply instead;
#: measured not clearly weaker than 0.1 s in any game (docs/ai.md, "Strength against budget")
FLOOR = 0.05
#: the seconds of every worker the moves waiting share (a queue of n moves on one worker
#: gets ``SLACK / n`` seconds each)
SLACK = 1.0
#: the longest a move may take to be applied, counted from the end of its computer's pause
#: (seconds): the target is a move applied within the pause + 1.5 s
PATIENCE = 1.5
#: what a search is expected to take beyond its budget (hand-over to the worker and back);
#: learnt from the searches as they end
OVERHEAD = 0.05
#: the most one search's hand-over counts for in that estimate (seconds)
MOST_OVERHEAD = 0.3
#: what applying a searched move is expected to take (the table's lock, storing it, telling
#: the listeners); learnt from the moves applied
STORE = 0.1
#: the most one move's applying counts for in that estimate (seconds)
MOST_STORE = 0.4
#: how long (seconds) a fallback keeps ``/status`` saying the computers are behind
BEHIND_FOR = 60.0
#: the least seconds between two log lines about fallbacks
LOG_EVERY = 60.0


class Dropped(Exception):
    """The move's table moved on (or was cancelled) before its search began."""


@dataclass(eq=False)
class Request:
    """One move waiting for a worker."""

    started: float  # when the turn began (the order)
    asked: float  # when the move was asked for
    since: float  # when ``patience`` starts counting: the end of the computer's pause
    seq: int
    current: Callable[[], bool]
    label: str
    #: resolved with the budget granted, or None for "play it cheaply"; Dropped when stale
    grant: asyncio.Future[float | None] = field(repr=False)

    def key(self) -> tuple[float, int]:
        """The queue's order: turn start, then arrival."""
        return (self.started, self.seq)


def _always() -> bool:
    return True


class Tail:
    """A running high estimate of a delay: the mean plus ``spread`` mean deviations, each
    following new values by ``1 / weight`` (a value counts for at most ``most`` seconds)."""

    def __init__(self, first: float, most: float, spread: float = 3.0,
                 weight: float = 8.0) -> None:
        self.mean = first
        self.deviation = 0.0
        self.most = most
        self.spread = spread
        self.weight = weight

    @property
    def value(self) -> float:
        """The estimate (seconds)."""
        return min(self.most, self.mean + self.spread * self.deviation)

    def add(self, seconds: float) -> None:
        """Learn one more delay."""
        seconds = min(max(seconds, 0.0), self.most)
        self.deviation += (abs(seconds - self.mean) - self.deviation) / self.weight
        self.mean += (seconds - self.mean) / self.weight


class Scheduler:
    """Grants ``slots`` search slots to waiting moves; see the module's description."""

    def __init__(self, slots: int, full: float, *, floor: float = FLOOR, slack: float = SLACK,
                 patience: float = PATIENCE, overhead: float = OVERHEAD, store: float = STORE,
                 clock: Callable[[], float] = time.monotonic, wake: bool = True) -> None:
        self.slots = max(1, slots)
        self.full = full
        self.floor = min(floor, full)
        self.slack = slack
        self.patience = patience
        #: seconds a search takes beyond its budget, and seconds applying a move takes
        self._overhead = Tail(overhead, MOST_OVERHEAD)
        self._store = Tail(store, MOST_STORE)
        self.clock = clock
        self.wake = wake
        self._queue: list[tuple[tuple[float, int], Request]] = []
        #: the moves being searched and when each is expected to end
        self._running: dict[Request, float] = {}
        self._seq = itertools.count()
        self._timer: asyncio.TimerHandle | None = None
        #: searched, dropped as stale, played cheaply for want of time
        self.searched = 0
        self.dropped = 0
        self.fallbacks = 0
        #: when the recent fallbacks happened (for ``behind``)
        self._recent: deque[float] = deque()
        self._logged_at: float | None = None
        self._unlogged = 0
        #: background work waiting for a spare slot (with its expected seconds), and running
        self._spare: deque[tuple[Request, float]] = deque()
        self._spare_running: set[Request] = set()
        #: (clock, moves waiting) at each change, for the benchmarks' queue over time
        self.on_change: Callable[[float, int], None] | None = None

    # -- what /status and the benchmarks read ---------------------------------------------
    @property
    def waiting(self) -> int:
        """Moves waiting for a slot."""
        return len(self._queue)

    @property
    def running(self) -> int:
        """Moves being searched."""
        return len(self._running)

    def behind(self) -> int:
        """Moves played cheaply for want of time in the last ``BEHIND_FOR`` seconds."""
        now = self.clock()
        while self._recent and self._recent[0] < now - BEHIND_FOR:
            self._recent.popleft()
        return len(self._recent)

    @property
    def overhead(self) -> float:
        """Seconds a search is expected to take beyond its budget (a high estimate)."""
        return self._overhead.value

    @property
    def store(self) -> float:
        """Seconds applying a searched move is expected to take (a high estimate)."""
        return self._store.value

    def deadline(self, request: Request) -> float:
        """When a move's search must have ended (its worker's answer back in this process)
        for the move to be applied within ``patience`` of the end of its pause."""
        return request.since + self.patience - self.store

    def budget(self, waiting: int) -> float:
        """The search time of a move taken while ``waiting`` moves (itself included) wait."""
        share = self.slack * self.slots / max(1, waiting)
        return max(self.floor, min(self.full, share))

    @property
    def spare_slots(self) -> int:
        """The most slots background work holds at once: all but one (one when there is one)."""
        return max(1, self.slots - 1)

    def spare_free(self) -> bool:
        """Whether background work asking now would start at once."""
        return (not self._queue and not self._spare and len(self._running) < self.slots
                and len(self._spare_running) < self.spare_slots)

    # -- the caller's side ----------------------------------------------------------------
    async def spare(self, work: Callable[[float], Awaitable[T]], *, expect: float,
                    label: str = "") -> T:
        """``work(expect)`` in spare time: once no move waits and a spare slot is free (in the
        order asked). ``expect``: its seconds, counted as the slot's busy time meanwhile."""
        now = self.clock()
        request = Request(now, now, now, next(self._seq), _always, label,
                          asyncio.get_running_loop().create_future())
        self._spare.append((request, expect))
        self.pump()
        try:
            await request.grant
            return await work(expect)
        finally:
            if not request.grant.done():
                request.grant.cancel()
            self._running.pop(request, None)
            self._spare_running.discard(request)
            self.pump()

    async def think(self, search: Callable[[float], Awaitable[T]], cheap: Callable[[], T], *,
                    current: Callable[[], bool] | None = None, started: float | None = None,
                    pause: float = 0.0, label: str = "") -> T:
        """``search(budget)`` once a slot is free, or ``cheap()`` when the move would wait too
        long; Dropped when ``current()`` turns False before the search begins. ``started``:
        when the turn began (this scheduler's clock; default now), ``pause``: the computer's
        pause from then before asking (``patience`` counts from their sum)."""
        now = self.clock()
        loop = asyncio.get_running_loop()
        since = now if started is None else min(now, started + pause)
        request = Request(now if started is None else started, now, since, next(self._seq),
                          current or _always, label, loop.create_future())
        heapq.heappush(self._queue, (request.key(), request))
        self.pump()
        try:
            budget = await request.grant
        except asyncio.CancelledError:
            # its caller went away: out of the line, or its slot back if it was granted one
            self._running.pop(request, None)
            self.pump()
            raise
        if budget is None:
            return cheap()
        began = self.clock()
        try:
            return await search(budget)
        finally:
            took = self.clock() - began
            if took >= budget:  # a search ending early says nothing about the overhead
                # (one slow hand-over, such as the workers' first start, counts for little)
                self._overhead.add(took - budget)
            del self._running[request]
            self.searched += 1
            self.pump()

    def applied(self, seconds: float) -> None:
        """A searched move took ``seconds`` from its search's end to being applied (the
        caller's lock, storing, telling): learnt for the deadlines of the moves to come."""
        self._store.add(seconds)

    # -- deciding ---------------------------------------------------------------------------
    def pump(self) -> None:
        """Drop stale moves, let go the ones that cannot be searched in time, and grant the
        free slots in order."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        now = self.clock()
        waiting: list[Request] = []
        for _, request in sorted(self._queue, key=lambda item: item[0]):
            if request.grant.done():  # its caller was cancelled
                continue
            if not self._still_current(request):
                self.dropped += 1
                request.grant.set_exception(Dropped())
                continue
            waiting.append(request)
        # when each slot frees up, and whether each move in line could still end in time at
        # the floor budget if all before it took the floor too
        free = sorted(max(now, end) for end in self._running.values())
        free += [now] * (self.slots - len(free))
        heapq.heapify(free)
        kept: list[Request] = []
        for request in waiting:
            start = heapq.heappop(free)
            end = start + self.floor + self.overhead
            if end > self.deadline(request) + 1e-9:  # rounding of the sums
                heapq.heappush(free, start)
                self._fall_back(request, now, len(waiting))
            else:
                heapq.heappush(free, end)
                kept.append(request)
        while kept and len(self._running) < self.slots:
            request = kept.pop(0)
            left = self.deadline(request) - now - self.overhead
            budget = max(self.floor, min(self.budget(len(kept) + 1), left))
            self._running[request] = now + budget + self.overhead
            request.grant.set_result(budget)
        self._queue = [(r.key(), r) for r in kept]
        heapq.heapify(self._queue)
        self._grant_spare(now)
        if self.on_change is not None:
            self.on_change(now, len(self._queue))
        if kept and self.wake:
            self._arm(now, kept)

    def _grant_spare(self, now: float) -> None:
        """Background work into the free spare slots, when no move waits."""
        self._spare = deque(item for item in self._spare if not item[0].grant.done())
        while self._spare and not self._queue and len(self._running) < self.slots \
                and len(self._spare_running) < self.spare_slots:
            request, expect = self._spare.popleft()
            if request.grant.done():  # its caller went away
                continue
            self._running[request] = now + expect
            self._spare_running.add(request)
            request.grant.set_result(expect)

    def _still_current(self, request: Request) -> bool:
        try:
            return bool(request.current())
        except Exception:  # a table gone from under it
            return False

    def _arm(self, now: float, kept: list[Request]) -> None:
        """Look again when the first move in line could no longer end in time even if a slot
        freed up at once (a search running over its budget)."""
        due = min(self.deadline(r) - self.floor - self.overhead for r in kept)
        with contextlib.suppress(RuntimeError):  # no running loop: the next call looks
            loop = asyncio.get_running_loop()
            self._timer = loop.call_later(max(0.01, due - now), self.pump)

    def _fall_back(self, request: Request, now: float, waiting: int) -> None:
        self.fallbacks += 1
        self._recent.append(now)
        self._unlogged += 1
        if self._logged_at is None or now - self._logged_at >= LOG_EVERY:
            log.warning("the computer players cannot keep up: moves played at the normal "
                        "level instead of searching: %d (waiting: %d, slots: %d, floor: %.2f s)",
                        self._unlogged, waiting, self.slots, self.floor)
            self._logged_at = now
            self._unlogged = 0
        request.grant.set_result(None)

    def close(self) -> None:
        """Stop looking again later (the moves still waiting are their callers' to cancel)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
