"""One scheduler for every correspondence deadline: a heap of :class:`Due` entries and one
asyncio task that sleeps until the earliest of them.

Thousands of tables that wait days for a move cost nothing while they wait: no task, timer or
handle per table, one sleeping task for all (a benchmark holds 10,000 idle tables in one
process). The task sleeps until the earliest instant in the heap and nothing else; scheduling an
earlier one wakes it to sleep again until that one.

What is scheduled (:data:`KINDS`), keyed by ``(kind, subject)``:

* ``"remind"`` and ``"expire"`` (:data:`TABLE_KINDS`): ``subject`` is a table id, ``version``
  the table's state version when the turn began. A table has at most one of each live.
  Scheduling either at a version drops both of the table's entries of older versions (a move
  made the old turn's reminder pointless, even when the new turn has none); an entry of an
  older version than a live one is refused (a late caller), as ``None``.
* ``"away-ends"`` and ``"digest"`` (:data:`PERSON_KINDS`): ``subject`` is a user id; a person
  has at most one of each live (``version`` as the caller likes: 0 will do). The same rule of
  versions applies per kind.

Superseded and cancelled entries stay in the heap and are skipped when they come up (lazy
deletion); the heap is rebuilt without them once they outnumber the live ones, so memory stays
proportional to what is live. Scheduling and cancelling are O(log n) and O(1).

When an entry's instant comes, it stops being live and ``on_due(due)`` runs as a task of its
own, so that a slow callback (a store waiting for the database) delays no other: at most
:data:`MOST_RUNNING` run at once (ten thousand deadlines falling together after a long
downtime do not all open a database transaction at the same moment), the others start as
those end. A callback's exception is logged and the scheduler goes on. The callback decides
what an entry still means (the table may have moved on without cancelling): the scheduler
knows instants, not tables.

Time comes from a :class:`bot.tables.clock.Clock`; the timer scale is the clock's
(:class:`bot.tables.clock.SystemClock`), nothing here scales. The sleep is cut to
:data:`WALL_CHECK` seconds at most, so a wall clock that jumps forward (a suspended machine
resumed, a stepped clock) is noticed within that long.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import math
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

from bot.tables.clock import Clock

log = logging.getLogger(__name__)

#: kinds whose subject is a table id
TABLE_KINDS = ("remind", "expire")
#: kinds whose subject is a user id
PERSON_KINDS = ("away-ends", "digest")
KINDS = TABLE_KINDS + PERSON_KINDS
#: callbacks running at once, at most
MOST_RUNNING = 32
#: the longest the scheduler sleeps before looking at the clock again (clock seconds)
WALL_CHECK = 300.0


@dataclass(frozen=True, order=True)
class Due:
    """One scheduled instant: ``kind`` of ``subject`` (a table id or a user id, see the
    module's docstring) at ``instant`` (epoch seconds on the scheduler's clock), scheduled for
    the subject's ``version``."""

    instant: float
    subject: int
    version: int
    kind: str


OnDue = Callable[[Due], Awaitable[None]]


class Deadlines:
    """The scheduler: ``Deadlines(clock, on_due)``, then :meth:`start`; :meth:`close` ends it."""

    def __init__(self, clock: Clock, on_due: OnDue, *, most_running: int = MOST_RUNNING) -> None:
        self.clock = clock
        self.on_due = on_due
        self._heap: list[tuple[float, int, Due]] = []
        self._order = itertools.count()  # ties in instant go in the order scheduled
        self._live: dict[tuple[str, int], Due] = {}
        self._slots = asyncio.Semaphore(most_running)
        self._running: set[asyncio.Task[None]] = set()
        self._task: asyncio.Task[None] | None = None
        #: the instant the task sleeps until (inf: until something is scheduled)
        self._armed = math.inf
        self._rearm: asyncio.Future[None] | None = None
        self._closed = False

    # -- scheduling -------------------------------------------------------------------------
    def schedule(self, kind: str, subject: int, instant: float, version: int = 0) -> Due | None:
        """Schedule ``kind`` of ``subject`` at ``instant``, in place of the live one of the
        same kind and subject; the entry, or None when a newer version is live (refused)."""
        if kind not in KINDS:
            raise ValueError(f"unknown kind of deadline {kind!r}; one of {KINDS}")
        if not math.isfinite(instant):
            raise ValueError(f"a deadline needs a finite instant, not {instant!r}")
        kinds = TABLE_KINDS if kind in TABLE_KINDS else (kind,)
        for other in kinds:
            live = self._live.get((other, subject))
            if live is not None and live.version > version:
                return None
        for other in kinds:
            live = self._live.get((other, subject))
            if live is not None and live.version < version:
                del self._live[(other, subject)]
        due = Due(float(instant), subject, version, kind)
        self._live[(kind, subject)] = due
        heapq.heappush(self._heap, (due.instant, next(self._order), due))
        self._compact()
        if due.instant < self._armed and self._rearm is not None and not self._rearm.done():
            self._rearm.set_result(None)  # the task sleeps too long now: wake it
        return due

    def cancel(self, subject: int, kinds: Iterable[str] = TABLE_KINDS) -> int:
        """Cancel ``subject``'s live entries of ``kinds`` (by default a table's reminder and
        deadline); how many there were."""
        gone = 0
        for kind in kinds:
            if self._live.pop((kind, subject), None) is not None:
                gone += 1
        self._compact()
        return gone

    def get(self, kind: str, subject: int) -> Due | None:
        """The live entry of ``kind`` for ``subject``, or None."""
        return self._live.get((kind, subject))

    def pending(self) -> list[Due]:
        """Every live entry, earliest first (tests, /status)."""
        return sorted(self._live.values())

    def __len__(self) -> int:
        """How many entries are live."""
        return len(self._live)

    @property
    def running(self) -> int:
        """How many callbacks are running now."""
        return len(self._running)

    def _compact(self) -> None:
        # lazy deletion's garbage kept below the live entries' number (plus a little)
        if len(self._heap) > 2 * len(self._live) + 64:
            self._heap = [entry for entry in self._heap if self._is_live(entry[2])]
            heapq.heapify(self._heap)

    def _is_live(self, due: Due) -> bool:
        return self._live.get((due.kind, due.subject)) is due

    # -- the task ---------------------------------------------------------------------------
    def start(self) -> None:
        """Start the one task (in the running event loop); entries scheduled before count."""
        if self._closed:
            raise RuntimeError("the deadline scheduler is closed")
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(),
                                                                name="deadlines")

    async def close(self) -> None:
        """Stop the task and cancel the callbacks still running (waited for); the entries
        stay, for :meth:`pending`, and fire no more."""
        self._closed = True
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        running = list(self._running)
        for call in running:
            call.cancel()
        if running:
            await asyncio.gather(*running, return_exceptions=True)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await self._fire_due()
            earliest = self._earliest()
            self._rearm = loop.create_future()
            if earliest is None:
                self._armed = math.inf
                await self._rearm
                continue
            self._armed = earliest
            target = min(earliest, self.clock.now() + WALL_CHECK)
            sleeper = loop.create_task(self.clock.sleep_until(target))
            try:
                await asyncio.wait((sleeper, self._rearm), return_when=asyncio.FIRST_COMPLETED)
            finally:
                if not sleeper.done():
                    sleeper.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await sleeper

    def _earliest(self) -> float | None:
        """The earliest live instant, dropping the dead entries above it."""
        while self._heap and not self._is_live(self._heap[0][2]):
            heapq.heappop(self._heap)
        return self._heap[0][0] if self._heap else None

    async def _fire_due(self) -> None:
        while True:
            earliest = self._earliest()
            if earliest is None or earliest > self.clock.now():
                return
            await self._slots.acquire()
            # the wait for a slot may have let the entry be replaced or cancelled
            earliest = self._earliest()
            if earliest is None or earliest > self.clock.now():
                self._slots.release()
                return
            _, _, due = heapq.heappop(self._heap)
            del self._live[(due.kind, due.subject)]
            call = asyncio.get_running_loop().create_task(self._call(due))
            self._running.add(call)
            call.add_done_callback(self._running.discard)

    async def _call(self, due: Due) -> None:
        try:
            await self.on_due(due)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("a deadline's callback failed: %s of %s at version %s", due.kind,
                          due.subject, due.version)
        finally:
            self._slots.release()
