"""The time the correspondence tables run on: a :class:`Clock` gives the present instant and
sleeps until a later one.

Instants are epoch seconds (floats, UTC), the form the database keeps deadlines in, so a
deadline survives a restart. Two clocks:

* :class:`SystemClock` — the service's. With ``scale`` 1 (the default) its instants are the wall
  clock's. ``DECKHAND_TIMER_SCALE`` applies HERE and nowhere else for correspondence: the
  clock's time runs ``1/scale`` times as fast as the wall clock's from the instant it was made
  (``scale`` 0.001: a simulated week passes in about ten minutes). Everything measured on the
  clock — a deadline, its 80 % reminder, quiet hours, the 09:00 digest, away periods and their
  yearly budget, the downtime rule — is then simulated together and stays consistent, whereas
  scaling the durations alone would leave quiet hours and digests at wall-clock length and the
  reminders of a simulated day would fall in real nights. :meth:`SystemClock.wall` turns a
  clock instant into a wall-clock one for what a person is shown (a Discord timestamp).
* :class:`ManualClock` — the tests' and benchmarks': time moves only when told
  (:meth:`ManualClock.advance`, :meth:`ManualClock.set`), and every sleeper then due is woken
  at once, in the order of its instant; nothing really sleeps.

Every turn timer, live and correspondence, runs on the service's clock
(:mod:`bot.tables.timing`).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from typing import Protocol


class Clock(Protocol):
    """What the deadline scheduler needs of time."""

    def now(self) -> float:
        """The present instant, epoch seconds."""
        ...

    async def sleep_until(self, instant: float) -> None:
        """Return at ``instant`` or a little after (at once if it has passed). May return
        early (a wall clock that jumps); the caller checks :meth:`now` again."""
        ...

    def wall(self, instant: float) -> float:
        """The wall-clock instant (epoch seconds) a person should be shown for ``instant``."""
        ...


class SystemClock:
    """The wall clock, optionally running faster or slower (``scale``, the timer scale).

    ``start``: the clock's instant at its making (default: the wall clock's). A service that
    restarts under a scale other than 1 passes its stored last-alive instant here when that is
    later than the wall clock, so that simulated time does not run backwards across a restart.
    """

    def __init__(self, scale: float = 1.0, start: float | None = None) -> None:
        if not scale > 0:
            raise ValueError(f"a clock's scale must be more than 0, not {scale!r}")
        self.scale = scale
        self._real0 = time.time()
        self._start = self._real0 if start is None else start
        self._plain = scale == 1.0 and start is None

    def now(self) -> float:
        """The present instant on this clock."""
        real = time.time()
        if self._plain:
            return real
        return self._start + (real - self._real0) / self.scale

    async def sleep_until(self, instant: float) -> None:
        """Sleep until ``instant`` on this clock (asyncio's monotonic timer underneath)."""
        wait = (instant - self.now()) * self.scale
        if wait > 0:
            await asyncio.sleep(wait)

    def wall(self, instant: float) -> float:
        """The wall-clock instant at which this clock shows ``instant``."""
        if self._plain:
            return instant
        return self._real0 + (instant - self._start) * self.scale

    def carry_on(self, last: float) -> None:
        """At a restart, before anything is scheduled: a scaled clock that shows an instant
        before ``last`` (the last one the service was alive at) moves on to it, so simulated
        time does not run backwards across a restart. A clock of scale 1 is the wall
        clock's and is left as it is."""
        if self.scale == 1.0:
            return
        now = self.now()
        if last > now:
            self._start += last - now
            self._plain = False


class ManualClock:
    """A clock for tests and benchmarks: time stands still until advanced.

    :meth:`advance` and :meth:`set` wake every sleeper whose instant has come (their futures
    resolved; each resumes at the event loop's next turns), earliest first. Time never runs
    backwards: :meth:`set` to an earlier instant is refused.
    """

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = float(start)
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._cancelled = 0  # sleepers given up on still in the heap

    def now(self) -> float:
        """The instant the clock was last set to."""
        return self._now

    def wall(self, instant: float) -> float:
        """The same instant: a manual clock is its own wall clock."""
        return instant

    async def sleep_until(self, instant: float) -> None:
        """Wait until the clock is moved to ``instant`` or past it."""
        if instant <= self._now:
            await asyncio.sleep(0)  # a turn of the loop, as a real sleep of 0 would give
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (instant, next(self._order), future))
        try:
            await future
        except asyncio.CancelledError:
            # a scheduler re-armed for an earlier instant gives up its sleep: the heap is
            # swept now and then, so a long run of re-arming does not grow it without end
            self._cancelled += 1
            if self._cancelled > 64 and self._cancelled * 2 > len(self._sleepers):
                self._sleepers = [s for s in self._sleepers if not s[2].done()]
                heapq.heapify(self._sleepers)
                self._cancelled = 0
            raise

    def advance(self, seconds: float) -> None:
        """Move the clock forward by ``seconds`` (0 or more)."""
        if seconds < 0:
            raise ValueError(f"a clock does not run backwards ({seconds!r} seconds)")
        self.set(self._now + seconds)

    def set(self, instant: float) -> None:
        """Move the clock to ``instant`` (not earlier than now)."""
        if instant < self._now:
            raise ValueError(f"a clock does not run backwards (from {self._now!r} to "
                             f"{instant!r})")
        self._now = float(instant)
        while self._sleepers and self._sleepers[0][0] <= self._now:
            _, _, future = heapq.heappop(self._sleepers)
            if future.done():  # a cancelled sleeper's future is done already
                self._cancelled = max(0, self._cancelled - 1)
            else:
                future.set_result(None)

    def sleepers(self) -> int:
        """How many sleepers are waiting (cancelled ones included until their time comes)."""
        return sum(1 for _, _, future in self._sleepers if not future.done())
