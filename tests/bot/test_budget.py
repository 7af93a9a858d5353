"""The request budget (bot/budget.py): at most its share in any second, the waiting requests
by priority, table edits last; on a clock the test moves."""

from __future__ import annotations

import asyncio
import itertools
from types import SimpleNamespace

import pytest
from yarl import URL

from bot import budget, lane
from bot.budget import Budget, counted


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def started(coroutine: object) -> asyncio.Task[None]:
    task: asyncio.Task[None] = asyncio.ensure_future(coroutine)  # type: ignore[arg-type]
    await asyncio.sleep(0)  # it runs to its wait
    return task


async def test_requests_go_one_gap_apart_never_more_than_the_share_in_a_second() -> None:
    clock = Clock()
    kept = Budget(4, clock)  # a gap of a quarter second
    gone: list[tuple[int, float]] = []

    async def request(n: int) -> None:
        await kept.take()
        gone.append((n, clock.now))

    tasks = [await started(request(n)) for n in range(7)]
    assert gone == [(0, 100.0)] and kept.waiting == 6  # no burst, even of the share
    for step in range(1, 7):
        clock.now += 0.125
        kept.wake()
        await asyncio.sleep(0)
        assert len(gone) == step  # half a gap: nothing more
        clock.now += 0.125
        kept.wake()
        await asyncio.sleep(0)
        assert [n for n, _ in gone] == list(range(step + 1))  # in the order asked
    await asyncio.gather(*tasks)
    times = [at for _, at in gone]
    assert all(b - a >= kept.gap for a, b in itertools.pairwise(times))
    assert all(sum(1 for t in times if at - 1.0 < t <= at) <= 4 for at in times)
    assert kept.taken == 7 and kept.held == 6
    kept.close()


async def test_waiting_requests_go_by_priority_table_edits_last() -> None:
    clock = Clock()
    kept = Budget(1, clock)
    await kept.take()
    order: list[str] = []

    async def request(name: str, level: int) -> None:
        await kept.take(level)
        order.append(name)

    tasks = [await started(request("table edit", lane.TABLE)),
             await started(request("panel", lane.PANEL)),
             await started(request("alert", lane.ALERT)),
             await started(request("a click's", budget.URGENT))]
    for _ in tasks:
        clock.now += 1.0
        kept.wake()
        await asyncio.sleep(0)
    await asyncio.gather(*tasks)
    assert order == ["a click's", "alert", "panel", "table edit"]
    kept.close()


async def test_a_job_paid_before_its_lane_slot_sends_its_first_request_at_once() -> None:
    clock = Clock()
    kept = Budget(2, clock)
    starting = kept.trace().on_request_start[0]
    edit = SimpleNamespace(url=URL("https://discord.com/api/v10/channels/1/messages/2"))
    callback = SimpleNamespace(url=URL("https://discord.com/api/v10/interactions/1/t/callback"))
    async with kept.prepaid(lane.TABLE):
        assert kept.taken == 1
        await starting(None, None, edit)  # the one paid for: nothing more taken
        await starting(None, None, callback)  # an interaction's: never counted
        assert kept.taken == 1
        second = await started(starting(None, None, edit))  # a second request of the job:
        assert not second.done() and kept.waiting == 1  # taken, half a second after the first
        clock.now += 0.5
        kept.wake()
        await second
        assert kept.taken == 2
    third = await started(starting(None, None, edit))
    clock.now += 0.25
    kept.wake()
    await asyncio.sleep(0)
    assert not third.done()  # the last second is full
    clock.now += 0.25
    kept.wake()
    await third
    assert kept.taken == 3
    kept.close()


async def test_a_cancelled_wait_is_skipped() -> None:
    clock = Clock()
    kept = Budget(1, clock)
    await kept.take()
    given_up = await started(kept.take(budget.URGENT))
    waiting = await started(kept.take(lane.TABLE))
    given_up.cancel()
    await asyncio.sleep(0)
    clock.now += 1.0
    kept.wake()
    await waiting
    assert kept.taken == 2 and len(kept.sent) == 1  # the cancelled wait took nothing
    kept.close()


async def test_a_share_below_one_still_sends_one_a_second() -> None:
    assert Budget(0.25).limit == 1


@pytest.mark.parametrize(("path", "is_counted"), [
    ("/api/v10/channels/1/messages", True),
    ("/api/v10/channels/1/messages/2", True),
    ("/api/v10/guilds/1/channels", True),
    ("/api/v10/interactions/1/tok/callback", False),
    ("/api/v10/webhooks/1/tok", False),
    ("/api/v10/webhooks/1/tok/messages/@original", False),
])
def test_interaction_routes_are_not_counted(path: str, is_counted: bool) -> None:
    assert counted(path) is is_counted


async def test_the_lane_gives_its_jobs_requests_their_priority() -> None:
    seen: list[int] = []
    road = lane.Lane()
    async with road.slot(lane.ALERT):
        seen.append(budget.PRIORITY.get())
    async with road.slot(lane.TABLE):
        seen.append(budget.PRIORITY.get())
    seen.append(budget.PRIORITY.get())  # outside the lane: a click's
    assert seen == [lane.ALERT, lane.TABLE, budget.URGENT]


async def test_a_job_waiting_for_the_budget_steps_out_of_its_lane_slot() -> None:
    """An alert whose request waits for room leaves its slot to a panel's edit (which sends
    nothing counted), and takes a slot again before the jobs still waiting for their first."""
    clock = Clock()
    kept = Budget(1, clock)
    await kept.take()  # the second's one request is gone
    road = lane.Lane(width=1)
    order: list[str] = []

    async def alert() -> None:
        async with road.slot(lane.ALERT):
            order.append("alert waits")
            await kept.take(budget.PRIORITY.get())
            order.append(f"alert sent, {road.busy} slot held")

    async def panel() -> None:
        async with road.slot(lane.PANEL):
            order.append("panel edited")

    async def table() -> None:
        async with road.slot(lane.TABLE):
            order.append("table edited")

    first = await started(alert())
    assert order == ["alert waits"] and road.busy == 0  # stepped out while it waits
    second = await started(panel())
    assert order == ["alert waits", "panel edited"]  # the panel did not wait for the alert
    async with road.slot(lane.PICTURE):  # a job holds the slot as the budget frees
        clock.now += 1.0
        kept.wake()
        await asyncio.sleep(0)
        late = await started(table())  # waiting for its first slot before the alert is back
    await asyncio.gather(first, second, late)
    assert order == ["alert waits", "panel edited", "alert sent, 1 slot held", "table edited"]
    assert road.busy == 0
    kept.close()


async def test_a_job_cancelled_while_out_of_its_slot_gives_back_nothing_twice() -> None:
    clock = Clock()
    kept = Budget(1, clock)
    await kept.take()
    road = lane.Lane(width=1)

    async def alert() -> None:
        async with road.slot(lane.ALERT):
            await kept.take(budget.PRIORITY.get())

    job = await started(alert())
    assert road.busy == 0
    job.cancel()
    with pytest.raises(asyncio.CancelledError):
        await job
    assert road.busy == 0
    async with road.slot(lane.TABLE):  # the lane still has its one slot, and only one
        assert road.busy == 1
    assert road.busy == 0
    kept.close()


async def test_a_request_paid_for_long_before_it_goes_takes_room_again() -> None:
    """A table edit paid for, then held up (a lane slot, a picture), gives its place in the
    last second back and waits for a new one: requests paid for over a second and sent
    together would reach Discord as a burst beyond the process's share."""
    clock = Clock()
    kept = Budget(2, clock)  # a gap of half a second
    starting = kept.trace().on_request_start[0]
    edit = SimpleNamespace(url=URL("https://discord.com/api/v10/channels/1/messages/2"))
    async with kept.prepaid(lane.TABLE):
        assert list(kept.sent) == [100.0]
        clock.now += 0.25  # within the gap: sent at once on what it paid
        await starting(None, None, edit)
        assert kept.late == 0 and list(kept.sent) == [100.0] and kept.taken == 1
    clock.now = 100.5
    async with kept.prepaid(lane.TABLE):  # paid at 100.5, the gap after the first
        assert list(kept.sent) == [100.0, 100.5]
        clock.now = 101.2  # held up 0.7 s: the first request left the window meanwhile
        late = await started(starting(None, None, edit))
        assert late.done() and kept.late == 1
        # its place at 100.5 given back, taken again now: what Discord sees
        assert list(kept.sent) == [101.2] and kept.taken == 2
    clock.now = 101.7  # the gap after the request as sent (not as paid): room again
    async with kept.prepaid(lane.TABLE):
        paid = kept.sent[-1]
        assert paid == 101.7
        clock.now = 102.3  # 0.6 s later: past the gap, and the last second is full
        kept.sent.extend([102.0, 102.1])  # (the process's other requests went meanwhile)
        waiting = await started(starting(None, None, edit))
        assert not waiting.done() and kept.waiting == 1 and paid not in kept.sent
        clock.now = 103.05  # the one of 102.0 has left the window
        kept.wake()
        await waiting
        assert kept.late == 2 and list(kept.sent) == [102.1, 103.05]
    kept.close()


async def test_a_job_paid_ahead_takes_its_lane_slot_before_the_waiting_ones() -> None:
    road = lane.Lane(width=1)
    order: list[str] = []

    async def job(name: str, priority: int, ahead: bool = False) -> None:
        async with road.slot(priority, ahead=ahead):
            order.append(f"{name} {budget.PRIORITY.get()}")

    async with road.slot(lane.PICTURE):
        alert = await started(job("alert", lane.ALERT))
        table = await started(job("table", lane.TABLE, ahead=True))
    await asyncio.gather(alert, table)
    # first, its requests still waiting in the budget as a table edit's
    assert order == [f"table {lane.TABLE}", f"alert {lane.ALERT}"]


async def test_a_request_paid_for_and_not_sent_gives_its_place_back() -> None:
    """A table's job that sends nothing counted (the channel's message edited through /play's
    token, or no change to show) leaves the last second as it found it."""
    clock = Clock()
    kept = Budget(2, clock)
    async with kept.prepaid(lane.TABLE):
        assert list(kept.sent) == [100.0]
    assert not kept.sent and kept.taken == 0
    clock.now += kept.gap
    await kept.take()
    assert list(kept.sent) == [100.5]  # the second's one request, not two
    kept.close()
