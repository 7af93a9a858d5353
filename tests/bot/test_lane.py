"""The background lane (bot.lane): at most ``width`` jobs at a time, the waiting ones by
priority and then in the order they asked; a cancelled job never keeps or loses a slot."""

from __future__ import annotations

import asyncio

import pytest

from bot.lane import ALERT, CLICK_WAIT, PICTURE, TABLE, Lane


async def test_at_most_width_jobs_run_at_once() -> None:
    lane = Lane(2)
    running = most = 0
    gate = asyncio.Event()

    async def job() -> None:
        nonlocal running, most
        async with lane.slot():
            running += 1
            most = max(most, running)
            await gate.wait()
            running -= 1

    tasks = [asyncio.create_task(job()) for _ in range(5)]
    await asyncio.sleep(0)
    assert (running, lane.busy, lane.waiting) == (2, 2, 3)
    gate.set()
    await asyncio.gather(*tasks)
    assert most == 2 and lane.busy == 0 and lane.waiting == 0 and lane.served == 5
    assert lane.most_waiting == 3


async def test_waiting_jobs_go_by_priority_then_in_turn() -> None:
    lane = Lane(1)
    order: list[str] = []
    hold = asyncio.Event()

    async def first() -> None:
        async with lane.slot(TABLE):
            await hold.wait()

    async def job(name: str, priority: int) -> None:
        async with lane.slot(priority):
            order.append(name)
            await asyncio.sleep(0)

    holder = asyncio.create_task(first())
    await asyncio.sleep(0)
    jobs = [asyncio.create_task(job(name, priority)) for name, priority in
            [("table-1", TABLE), ("picture", PICTURE), ("alert-1", ALERT),
             ("table-2", TABLE), ("alert-2", ALERT)]]
    await asyncio.sleep(0)
    hold.set()
    await asyncio.gather(holder, *jobs)
    assert order == ["alert-1", "alert-2", "picture", "table-1", "table-2"]


async def test_a_job_cancelled_while_waiting_takes_no_slot() -> None:
    lane = Lane(1)
    hold = asyncio.Event()
    ran: list[str] = []

    async def job(name: str) -> None:
        async with lane.slot():
            ran.append(name)
            await hold.wait()

    first = asyncio.create_task(job("first"))
    await asyncio.sleep(0)
    cancelled = asyncio.create_task(job("cancelled"))
    last = asyncio.create_task(job("last"))
    await asyncio.sleep(0)
    cancelled.cancel()
    with pytest.raises(asyncio.CancelledError):
        await cancelled
    hold.set()
    await asyncio.gather(first, last)
    assert ran == ["first", "last"] and lane.busy == 0


async def test_a_slot_handed_to_a_job_cancelled_before_it_ran_goes_on() -> None:
    lane = Lane(1)
    ran: list[str] = []
    release = asyncio.Event()

    async def job(name: str) -> None:
        async with lane.slot():
            ran.append(name)
            if name == "first":
                await release.wait()

    first = asyncio.create_task(job("first"))
    await asyncio.sleep(0)
    second = asyncio.create_task(job("second"))
    third = asyncio.create_task(job("third"))
    await asyncio.sleep(0)
    release.set()
    await asyncio.sleep(0)  # "first" leaves: its slot is handed to "second", not yet resumed
    second.cancel()
    with pytest.raises(asyncio.CancelledError):
        await second
    await asyncio.gather(first, third)
    assert ran == ["first", "third"] and lane.busy == 0 and lane.waiting == 0


async def test_a_job_that_fails_gives_its_slot_back() -> None:
    lane = Lane(1)

    async def broken() -> None:
        async with lane.slot():
            raise RuntimeError("edit failed")

    with pytest.raises(RuntimeError):
        await broken()
    async with lane.slot():
        assert lane.busy == 1
    assert lane.busy == 0


def test_a_lane_needs_room() -> None:
    with pytest.raises(ValueError):
        Lane(0)


async def test_widened_at_a_stop_every_waiting_job_starts() -> None:
    lane = Lane(1)
    hold = asyncio.Event()
    started: list[int] = []

    async def job(n: int) -> None:
        async with lane.slot():
            started.append(n)
            await hold.wait()

    tasks = [asyncio.create_task(job(n)) for n in range(4)]
    await asyncio.sleep(0)
    assert started == [0]
    lane.widen(10)
    await asyncio.sleep(0)
    assert sorted(started) == [0, 1, 2, 3] and lane.busy == 4
    hold.set()
    await asyncio.gather(*tasks)
    assert lane.busy == 0 and lane.waiting == 0


async def test_a_job_waits_for_the_clicks_being_answered() -> None:
    lane = Lane(4)
    started: list[str] = []

    async def job(name: str) -> None:
        async with lane.slot(TABLE):
            started.append(name)

    lane.click_began()
    waiting = asyncio.create_task(job("edit"))
    await asyncio.sleep(0.01)
    assert started == []  # a click is being answered: the job has not started
    lane.click_ended()
    await waiting
    assert started == ["edit"] and lane.quiet.is_set()


async def test_a_job_starts_anyway_after_the_clicks_longest_wait() -> None:
    # a steady stream of clicks never holds background work back for more than CLICK_WAIT
    lane = Lane(4)
    lane.click_began()
    loop = asyncio.get_running_loop()
    began = loop.time()
    async with lane.slot(TABLE):
        waited = loop.time() - began
    assert CLICK_WAIT * 0.8 <= waited < CLICK_WAIT + 1.0
    assert lane.clicks == 1  # the click is still being answered
