"""The one deadline scheduler: a heap of instants, one task, callbacks as tasks of their own.
Time is a manual clock: nothing sleeps."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator

import pytest

from bot.tables.clock import ManualClock
from bot.tables.deadlines import KINDS, WALL_CHECK, Deadlines, Due

T0 = 1_800_000_000.0


async def settle() -> None:
    """Let the scheduler's task and the callbacks it started run as far as they can."""
    for _ in range(30):
        await asyncio.sleep(0)


class Calls:
    """An ``on_due`` that keeps what it was called with."""

    def __init__(self) -> None:
        self.seen: list[Due] = []

    async def __call__(self, due: Due) -> None:
        self.seen.append(due)

    def names(self) -> list[tuple[str, int]]:
        return [(d.kind, d.subject) for d in self.seen]


World = tuple[ManualClock, Calls, Deadlines]


@pytest.fixture
async def world() -> AsyncIterator[World]:
    clock = ManualClock(T0)
    calls = Calls()
    deadlines = Deadlines(clock, calls)
    deadlines.start()
    yield clock, calls, deadlines
    await deadlines.close()


async def test_entries_fire_at_their_instants_in_order_and_not_before(world: World) -> None:
    clock, calls, deadlines = world
    deadlines.schedule("expire", 3, T0 + 300, version=5)
    deadlines.schedule("remind", 3, T0 + 240, version=5)
    deadlines.schedule("digest", 77, T0 + 100)
    await settle()
    assert [d.instant for d in deadlines.pending()] == [T0 + 100, T0 + 240, T0 + 300]
    clock.advance(99.9)
    await settle()
    assert calls.seen == []
    clock.advance(0.1)
    await settle()
    assert calls.seen == [Due(T0 + 100, 77, 0, "digest")]
    clock.advance(500)  # both of the table's at once, earliest first
    await settle()
    assert calls.names() == [("digest", 77), ("remind", 3), ("expire", 3)]
    assert len(deadlines) == 0 and deadlines.pending() == []


async def test_an_earlier_entry_wakes_the_sleeping_task(world: World) -> None:
    clock, calls, deadlines = world
    deadlines.schedule("expire", 1, T0 + 3 * 86_400)
    await settle()  # asleep until three days from now (or the wall check)
    deadlines.schedule("expire", 2, T0 + 10)
    await settle()
    clock.advance(10)
    await settle()
    assert calls.names() == [("expire", 2)]


async def test_the_task_sleeps_on_the_earliest_instant_alone(world: World) -> None:
    clock, calls, deadlines = world
    for table in range(10_000):
        deadlines.schedule("expire", table, T0 + 3600 + table)
    await settle()
    assert clock.sleepers() == 1  # one sleep for ten thousand tables
    clock.advance(WALL_CHECK)  # the wall check: it looks, finds nothing due, sleeps again
    await settle()
    assert calls.seen == [] and clock.sleepers() == 1


async def test_a_newer_version_replaces_an_older_one_and_an_older_is_refused(world: World) -> None:
    clock, calls, deadlines = world
    deadlines.schedule("remind", 9, T0 + 80, version=1)
    deadlines.schedule("expire", 9, T0 + 100, version=1)
    # the next turn: a deadline alone (no time for a reminder) drops the old turn's reminder
    assert deadlines.schedule("expire", 9, T0 + 200, version=2) == Due(T0 + 200, 9, 2, "expire")
    assert deadlines.get("remind", 9) is None
    # a late caller of the old turn is refused
    assert deadlines.schedule("remind", 9, T0 + 150, version=1) is None
    assert deadlines.pending() == [Due(T0 + 200, 9, 2, "expire")]
    # the same version may move its instant (a pause)
    deadlines.schedule("expire", 9, T0 + 250, version=2)
    clock.advance(1000)
    await settle()
    assert calls.seen == [Due(T0 + 250, 9, 2, "expire")]


async def test_cancel_drops_a_tables_entries_and_leaves_people_alone(world: World) -> None:
    clock, calls, deadlines = world
    deadlines.schedule("remind", 4, T0 + 10, version=3)
    deadlines.schedule("expire", 4, T0 + 20, version=3)
    deadlines.schedule("digest", 4, T0 + 30)  # a person whose id happens to be 4
    assert deadlines.cancel(4) == 2
    assert deadlines.cancel(4) == 0
    clock.advance(100)
    await settle()
    assert calls.names() == [("digest", 4)]
    deadlines.schedule("away-ends", 8, T0 + 200)
    assert deadlines.cancel(8, kinds=("away-ends",)) == 1
    clock.advance(200)
    await settle()
    assert calls.names() == [("digest", 4)]


async def test_a_failing_callback_is_logged_and_the_others_still_run(
        caplog: pytest.LogCaptureFixture) -> None:
    clock = ManualClock(T0)
    seen: list[int] = []

    async def on_due(due: Due) -> None:
        if due.subject == 1:
            raise RuntimeError("the database is away")
        seen.append(due.subject)

    deadlines = Deadlines(clock, on_due)
    deadlines.start()
    deadlines.schedule("expire", 1, T0 + 1)
    deadlines.schedule("expire", 2, T0 + 2)
    with caplog.at_level(logging.ERROR, logger="bot.tables.deadlines"):
        clock.advance(5)
        await settle()
        deadlines.schedule("expire", 3, T0 + 10)
        clock.advance(5)
        await settle()
    assert seen == [2, 3]
    assert "expire of 1 at version 0" in caplog.text and "the database is away" in caplog.text
    await deadlines.close()


async def test_a_slow_callback_delays_no_other_and_close_cancels_it() -> None:
    clock = ManualClock(T0)
    seen: list[int] = []
    stuck = asyncio.Event()
    cancelled: list[int] = []

    async def on_due(due: Due) -> None:
        if due.subject == 1:
            try:
                await stuck.wait()  # a store that never answers
            except asyncio.CancelledError:
                cancelled.append(due.subject)
                raise
        seen.append(due.subject)

    deadlines = Deadlines(clock, on_due)
    deadlines.start()
    deadlines.schedule("expire", 1, T0 + 1)
    deadlines.schedule("expire", 2, T0 + 2)
    clock.advance(1)
    await settle()
    clock.advance(1)
    await settle()
    assert seen == [2] and deadlines.running == 1
    await deadlines.close()
    assert cancelled == [1] and deadlines.running == 0
    deadlines.schedule("expire", 5, T0 + 3)  # closed: kept, fired no more
    clock.advance(10)
    await settle()
    assert seen == [2] and [d.subject for d in deadlines.pending()] == [5]
    with pytest.raises(RuntimeError):
        deadlines.start()


async def test_at_most_so_many_callbacks_run_at_once() -> None:
    clock = ManualClock(T0)
    gate = asyncio.Event()
    started: list[int] = []

    async def on_due(due: Due) -> None:
        started.append(due.subject)
        await gate.wait()

    deadlines = Deadlines(clock, on_due, most_running=2)
    deadlines.start()
    for table in range(5):
        deadlines.schedule("expire", table, T0 + 1)
    clock.advance(1)
    await settle()
    assert started == [0, 1] and deadlines.running == 2
    gate.set()
    await settle()
    assert started == [0, 1, 2, 3, 4]
    await settle()
    assert deadlines.running == 0
    await deadlines.close()


async def test_a_callback_may_schedule_its_own_next_entry() -> None:
    clock = ManualClock(T0)
    days: list[float] = []
    deadlines: Deadlines

    async def on_due(due: Due) -> None:  # the digest, every day at the same time
        days.append(due.instant)
        deadlines.schedule("digest", due.subject, due.instant + 86_400)

    deadlines = Deadlines(clock, on_due)
    deadlines.start()
    deadlines.schedule("digest", 42, T0 + 3600)
    for _ in range(7):
        clock.advance(86_400)
        await settle()
    assert days == [T0 + 3600 + day * 86_400 for day in range(7)]
    await deadlines.close()


async def test_entries_scheduled_before_start_fire_once_started() -> None:
    clock = ManualClock(T0)
    calls = Calls()
    deadlines = Deadlines(clock, calls)
    deadlines.schedule("expire", 1, T0 - 5)  # already due (after a long downtime)
    deadlines.start()
    await settle()
    assert calls.names() == [("expire", 1)]
    await deadlines.close()


def test_an_unknown_kind_or_an_instant_that_is_not_one_is_refused() -> None:
    deadlines = Deadlines(ManualClock(T0), Calls())
    with pytest.raises(ValueError, match="unknown kind"):
        deadlines.schedule("explode", 1, T0)
    with pytest.raises(ValueError, match="finite"):
        deadlines.schedule("expire", 1, float("nan"))
    assert set(KINDS) == {"remind", "expire", "away-ends", "digest"}


def test_a_hundred_thousand_entries_are_cheap_and_replacing_them_keeps_memory_bounded() -> None:
    deadlines = Deadlines(ManualClock(T0), Calls())
    began = time.process_time()
    for table in range(100_000):
        deadlines.schedule("expire", table, T0 + 86_400 + (table * 7919) % 100_000, version=1)
    for table in range(100_000):  # every table moves once: a new turn, a new deadline
        deadlines.schedule("expire", table, T0 + 2 * 86_400 + table, version=2)
    took = time.process_time() - began
    assert len(deadlines) == 100_000
    assert len(deadlines._heap) <= 2 * 100_000 + 64  # superseded entries swept
    assert deadlines.pending()[0] == Due(T0 + 2 * 86_400, 0, 2, "expire")
    assert took < 5.0, took  # about a second on a busy shared core
