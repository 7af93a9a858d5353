"""The clocks: the manual one wakes exactly the sleepers due, in order, without sleeping; the
system one runs at the timer scale and tells the wall-clock instant to show."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.tables.clock import ManualClock, SystemClock


async def test_a_manual_clock_wakes_the_sleepers_due_in_the_order_of_their_instants() -> None:
    clock = ManualClock(1000.0)
    woke: list[str] = []

    async def sleeper(name: str, instant: float) -> None:
        await clock.sleep_until(instant)
        woke.append(name)

    tasks = [asyncio.create_task(sleeper(n, i)) for n, i in
             (("late", 1030.0), ("early", 1010.0), ("middle", 1020.0))]
    await asyncio.sleep(0)
    assert clock.sleepers() == 3
    clock.advance(9.5)
    for _ in range(3):
        await asyncio.sleep(0)
    assert woke == []  # none due yet
    clock.advance(10.5)  # 1020: two are due
    await asyncio.gather(*tasks[1:])
    assert woke == ["early", "middle"]
    assert clock.now() == 1020.0 and clock.sleepers() == 1
    clock.set(1030.0)
    await tasks[0]
    assert woke == ["early", "middle", "late"]


async def test_a_manual_clock_returns_at_once_for_a_past_instant_and_never_runs_back() -> None:
    clock = ManualClock(50.0)
    await asyncio.wait_for(clock.sleep_until(49.0), 1.0)
    await asyncio.wait_for(clock.sleep_until(50.0), 1.0)
    with pytest.raises(ValueError):
        clock.set(49.0)
    with pytest.raises(ValueError):
        clock.advance(-1.0)
    assert clock.now() == 50.0 and clock.wall(70.0) == 70.0


async def test_cancelled_sleepers_do_not_pile_up_in_a_manual_clock() -> None:
    clock = ManualClock(0.0)
    for round_ in range(300):
        task = asyncio.create_task(clock.sleep_until(1e9 + round_))
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    assert clock.sleepers() == 0
    assert len(clock._sleepers) < 200  # swept as it went


def test_the_system_clock_at_scale_one_is_the_wall_clock() -> None:
    clock = SystemClock()
    before = time.time()
    now = clock.now()
    assert before <= now <= time.time()
    assert clock.wall(12345.0) == 12345.0


def test_a_scaled_system_clock_runs_faster_and_maps_back_to_the_wall_clock(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real = [1_000_000.0]
    monkeypatch.setattr(time, "time", lambda: real[0])
    clock = SystemClock(scale=0.001, start=2_000_000.0)
    assert clock.now() == 2_000_000.0
    real[0] += 604.8  # ten minutes or so of the wall clock...
    assert clock.now() == pytest.approx(2_000_000.0 + 7 * 86_400)  # ...are a week
    assert clock.wall(2_000_000.0 + 7 * 86_400) == pytest.approx(1_000_604.8)
    with pytest.raises(ValueError):
        SystemClock(scale=0)


async def test_a_scaled_system_clock_sleeps_the_scaled_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    slept: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        slept.append(seconds)

    monkeypatch.setattr(time, "time", lambda: 500.0)
    monkeypatch.setattr(asyncio, "sleep", fake_sleep)
    clock = SystemClock(scale=0.01)
    await clock.sleep_until(500.0 + 3600.0)  # an hour of the clock: 36 s of the wall's
    await clock.sleep_until(400.0)  # past: no sleep
    assert slept == [pytest.approx(36.0)]
