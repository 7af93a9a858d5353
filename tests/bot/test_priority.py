"""The event loop that runs a click's steps before background work (bot/priority.py)."""

from __future__ import annotations

import asyncio
import contextvars
import socket
from collections.abc import Callable
from pathlib import Path

import pytest

from bot import lane, priority
from bot.priority import PriorityLoop


def on_priority_loop(main: object) -> object:
    return priority.run(main)  # type: ignore[arg-type]


def test_urgent_callbacks_run_before_those_queued_earlier_each_in_their_order() -> None:
    ran: list[str] = []

    async def main() -> None:
        loop = asyncio.get_running_loop()
        assert isinstance(loop, PriorityLoop)
        for i in range(3):
            loop.call_soon(ran.append, f"calm{i}")
        priority.mark_urgent()
        for i in range(3):
            loop.call_soon(ran.append, f"urgent{i}")
        await asyncio.sleep(0)
        await asyncio.sleep(0)

    on_priority_loop(main())
    assert ran == ["urgent0", "urgent1", "urgent2", "calm0", "calm1", "calm2"]


def test_a_cancelled_urgent_callback_does_not_run() -> None:
    ran: list[str] = []

    async def main() -> None:
        loop = asyncio.get_running_loop()
        priority.mark_urgent()
        loop.call_soon(ran.append, "a")
        loop.call_soon(ran.append, "b").cancel()
        loop.call_soon(ran.append, "c")
        await asyncio.sleep(0)

    on_priority_loop(main())
    assert ran == ["a", "c"]


def test_an_urgent_tasks_steps_go_before_background_steps_ready_earlier() -> None:
    """A click that becomes ready while a hundred background steps are queued runs before
    any of them; the tasks it starts are urgent too, and background() ones are not."""
    order: list[str] = []

    async def chore(i: int) -> None:
        for step in range(3):
            order.append(f"chore{i}.{step}")
            await asyncio.sleep(0)

    async def helper() -> None:
        order.append("helper")
        await asyncio.sleep(0)
        order.append("helper again")

    async def click() -> None:
        order.append("click")
        await asyncio.sleep(0)  # (a step of its own: it goes before the chores too)
        order.append("click again")
        await asyncio.create_task(helper())  # started by the click: urgent as well
        order.append("click answered")
        priority.background(chore(99))  # background work the click starts: not urgent

    async def main() -> None:
        chores = [priority.background(chore(i)) for i in range(100)]
        await asyncio.sleep(0)  # every chore has taken its first step
        assert sum(o.endswith(".0") for o in order) == 100
        order.clear()

        async def gateway() -> None:  # the reader that has read an interaction
            priority.mark_urgent()
            await asyncio.create_task(click())

        await gateway()
        await asyncio.gather(*chores)
        await asyncio.sleep(0.01)

    on_priority_loop(main())
    assert order[:5] == ["click", "click again", "helper", "helper again", "click answered"]
    assert sorted(order[5:]) == sorted([f"chore{i}.{s}" for i in range(100) for s in (1, 2)]
                                       + [f"chore99.{s}" for s in range(3)])


def test_without_it_the_click_waits_behind_every_queued_step() -> None:
    """The same on asyncio's own loop: what the priority loop changes."""
    order: list[str] = []

    async def chore(i: int) -> None:
        for _ in range(3):
            order.append("chore")
            await asyncio.sleep(0)

    async def click() -> None:
        order.append("click")

    async def main() -> None:
        chores = [priority.background(chore(i)) for i in range(100)]
        await asyncio.sleep(0)
        order.clear()
        priority.mark_urgent()  # ignored by asyncio's own loop
        await asyncio.create_task(click())
        await asyncio.gather(*chores)

    asyncio.run(main())
    assert order.index("click") >= 100


async def _read_after(ran: list[str], queue: Callable[[socket.socket], None]) -> None:
    """A socket read by the loop; ``queue`` queues callbacks and makes a frame arrive on it
    (its argument: the socket's other end). Where the frame's read runs among them."""
    loop = asyncio.get_running_loop()
    here, there = socket.socketpair()
    here.setblocking(False)
    try:
        read = asyncio.Event()

        def readable() -> None:
            ran.append("read " + here.recv(16).decode())
            read.set()

        loop.add_reader(here.fileno(), readable)
        await asyncio.sleep(0.01)
        queue(there)
        await asyncio.wait_for(read.wait(), 5)
        loop.remove_reader(here.fileno())
    finally:
        here.close()
        there.close()


async def _read_behind_a_queue(ran: list[str]) -> None:
    """Fifty callbacks queued, then a frame arrives."""
    loop = asyncio.get_running_loop()

    def queue(there: socket.socket) -> None:
        for n in range(50):
            loop.call_soon(ran.append, f"queued{n}")
        there.send(b"click")

    await _read_after(ran, queue)


@pytest.mark.parametrize("loop", ["priority", "asyncio"])
def test_a_socket_read_goes_before_callbacks_queued_earlier(loop: str) -> None:
    ran: list[str] = []
    if loop == "priority":
        on_priority_loop(_read_behind_a_queue(ran))
        assert ran[0] == "read click", ran[:5]
    else:  # asyncio's own loop reads it after the queue
        asyncio.run(_read_behind_a_queue(ran))
        assert ran.index("read click") == 50


async def _read_amid_a_long_queue(ran: list[str]) -> None:
    """Two hundred callbacks queued at once; the tenth makes a frame arrive."""
    loop = asyncio.get_running_loop()

    def queue(there: socket.socket) -> None:
        def queued(n: int) -> None:
            ran.append(f"queued{n}")
            if n == 10:
                there.send(b"click")

        for n in range(200):
            loop.call_soon(queued, n)

    await _read_after(ran, queue)


@pytest.mark.parametrize("loop", ["priority", "asyncio"])
def test_a_frame_arriving_amid_a_long_queue_is_read_after_a_batch_of_it(loop: str) -> None:
    ran: list[str] = []
    if loop == "priority":
        on_priority_loop(_read_amid_a_long_queue(ran))
        assert 10 < ran.index("read click") <= priority.BATCH + 1, ran.index("read click")
        assert [r for r in ran if r != "read click"] == [f"queued{n}" for n in range(200)]
    else:  # asyncio's own loop runs the whole queue first
        asyncio.run(_read_amid_a_long_queue(ran))
        assert ran.index("read click") == 200


@pytest.mark.parametrize("by", [0, 5, 15, 16, 60])
def test_an_urgent_callback_runs_right_after_the_callback_that_queued_it(by: int) -> None:
    """Wherever in a long queue (the end of a batch of it included) a callback queues an
    urgent one, the urgent one runs next."""
    ran: list[str] = []

    async def main() -> None:
        loop = asyncio.get_running_loop()
        urgent = contextvars.copy_context()
        urgent.run(priority.URGENT.set, True)

        def calm(n: int) -> None:
            ran.append(f"calm{n}")
            if n == by:
                loop.call_soon(ran.append, "urgent", context=urgent)

        for n in range(100):
            loop.call_soon(calm, n)
        await asyncio.sleep(0.05)

    on_priority_loop(main())
    assert ran.index("urgent") == ran.index(f"calm{by}") + 1
    assert [r for r in ran if r != "urgent"] == [f"calm{n}" for n in range(100)]


def test_a_first_lock_holder_goes_first_while_it_holds_the_lock() -> None:
    """Background work holding a lock that a click waits for runs before other background
    work while it holds it (and only then), so the click waits for the holder's work alone."""
    order: list[str] = []

    async def main() -> None:
        lock = priority.FirstLock()
        holding = asyncio.Event()
        seen: list[bool] = []

        async def holder() -> None:
            seen.append(priority.URGENT.get())
            async with lock:
                seen.append(priority.URGENT.get())
                holding.set()
                for step in range(3):
                    await asyncio.sleep(0)
                    order.append(f"holder{step}")
            seen.append(priority.URGENT.get())
            await asyncio.sleep(0)
            order.append("holder after")

        async def chore(i: int) -> None:
            for _ in range(3):
                await asyncio.sleep(0)
                order.append(f"chore{i}")

        chores = [priority.background(chore(i)) for i in range(50)]
        held = priority.background(holder())
        await asyncio.gather(held, *chores)
        assert holding.is_set() and seen == [False, True, False]

    on_priority_loop(main())
    first = order.index("holder0")
    assert order[first:first + 3] == ["holder0", "holder1", "holder2"]  # nothing in between
    assert order.index("holder after") > first + 3 + 10  # behind the queue once it let go


def test_a_first_lock_left_by_an_error_or_a_cancel_puts_the_mark_back() -> None:
    async def main() -> None:
        lock = priority.FirstLock()
        with pytest.raises(RuntimeError):
            async with lock:
                raise RuntimeError("no")
        assert not lock.locked() and priority.URGENT.get() is False
        async with lock:
            waiter = asyncio.create_task(lock.__aenter__())
            await asyncio.sleep(0)
            waiter.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiter
        assert not lock.locked() and priority.URGENT.get() is False

    on_priority_loop(main())


@pytest.mark.parametrize("urgent", [False, True])
def test_a_task_started_in_the_background_from_an_urgent_one_is_not_urgent(
        urgent: bool) -> None:
    seen: list[bool] = []

    async def look() -> None:
        seen.append(priority.URGENT.get())

    async def main() -> None:
        if urgent:
            priority.mark_urgent()
        await asyncio.create_task(look())
        await priority.background(look())

    on_priority_loop(main())
    assert seen == [urgent, False]


async def test_the_bots_tests_run_on_the_bots_event_loop() -> None:
    assert isinstance(asyncio.get_running_loop(), PriorityLoop)


async def test_in_the_bot_clicks_are_urgent_computers_table_edits_and_alerts_are_not(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Which of the bot's work goes first: a click's handling (and whatever holds a table's
    lock, :class:`FirstLock`), not a computer's thinking, the table message's edit, the turn
    alert or the picture that follows an answer."""
    from cogs.alerts import Alerts
    from cogs.board import TableBoard
    from cogs.panels import Panels
    from cogs.play import PlayCog
    from tests.bot.fakegame import lookup
    from tests.bot.sim_helpers import button, world
    from tests.bot.test_e2e_games import open_table, quick_options
    from tests.bot.test_e2e_panel import move_controls

    seen: dict[str, set[bool]] = {}

    def watch(cls: type, name: str, label: str) -> None:
        original = getattr(cls, name)

        async def watched(*args: object, **kwargs: object) -> object:
            seen.setdefault(label, set()).add(priority.URGENT.get())
            return await original(*args, **kwargs)

        monkeypatch.setattr(cls, name, watched)

    watch(PlayCog, "component", "click")
    watch(TableBoard, "_flush", "table message")
    watch(Alerts, "_run", "alert")
    watch(Panels, "_edit", "panel's turn edit")
    from bot.turns import Turns
    watch(Turns, "_computer_move", "computer")
    original_slot = lane.Lane.slot
    kinds = {lane.ALERT: "alert (its slot)", lane.PICTURE: "picture",
             lane.TABLE: "table (its slot)"}

    def slot(self: lane.Lane, kind: int = lane.TABLE) -> object:
        seen.setdefault(kinds[kind], set()).add(priority.URGENT.get())
        return original_slot(self, kind)

    monkeypatch.setattr(lane.Lane, "slot", slot)

    game = "twenty-two"
    rules = lookup(game)
    async with world(tmp_path, people=2) as w:
        humans = w.users[:2]
        await open_table(w, game, humans, rules.usual_players, quick_options(game))
        table = next(iter(w.bot.manager.tables.values()))
        moved = 0
        for _ in range(400):
            await w.sim.settle()
            assert table.state is not None
            due = [s for s in table.state.to_act if not table.seats[s].auto]
            if not due:
                await asyncio.sleep(0.02)
                continue
            user = next(u for u in humans if int(u.id) == table.seats[due[0]].user_id)
            r = await w.sim.click(user, w.table_message(),
                                  button(w.table_message(), "hand")["custom_id"])
            assert r.status == "ok" and r.message is not None
            kind, control = move_controls(w.sim.message(r.message.id))[0]
            if kind == "act":
                r = await w.sim.click(user, w.sim.message(r.message.id), control["custom_id"])
            else:
                least = int(control.get("min_values", 1))  # a set of 22 takes two or more
                r = await w.sim.select(user, w.sim.message(r.message.id), control["custom_id"],
                                       [o["value"] for o in control["options"][:least]])
            assert r.status == "ok", r
            moved += 1
            if moved == 3:
                break
        await asyncio.sleep(0.5)
        await w.sim.settle()

    assert seen["click"] == {True}
    assert seen["computer"] == {False}  # its thinking; the table's lock then makes it first
    assert seen["table message"] == {False}
    assert seen["alert"] == {False}
    assert seen["panel's turn edit"] == {False}
    assert seen["picture"] == {False}
    assert seen["alert (its slot)"] == seen["table (its slot)"] == {False}


def test_a_tables_lock_and_the_databases_are_first_locks(tmp_path: Path) -> None:
    from bot.db.sqlite import AsyncSqlite
    from bot.model import Table

    assert isinstance(Table.__dataclass_fields__["lock"].default_factory(), priority.FirstLock)  # type: ignore[misc]

    async def main() -> None:
        db = await AsyncSqlite.open(str(tmp_path / "x.sqlite3"))
        try:
            assert isinstance(db.lock, priority.FirstLock)
            assert isinstance(db.writing, priority.FirstLock)
        finally:
            await db.close()

    on_priority_loop(main())


def test_discord_py_reads_and_writes_its_json_with_orjson() -> None:
    """Every gateway frame and every answer's body goes through discord.py's JSON functions,
    on the event loop: with orjson (a dependency) they take a fraction of the standard
    library's time."""
    import discord.utils

    assert discord.utils.HAS_ORJSON
