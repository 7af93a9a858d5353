"""The thinking scheduler's decisions, on a clock the tests move by hand (no waiting), and
two tables' computers on the simulated Discord, one searching while the other moves."""

from __future__ import annotations

import asyncio
import logging
import random
import threading
from pathlib import Path
from typing import Any

import pytest

from bot.tables.model import Table
from bot.tables.scheduler import Dropped, Scheduler
from games import ai
from games.core import Action
from tests.bot.sim_helpers import World, button, table_of, verb_of, world
from tests.discord_sim import SimChannel, SimUser


class Clock:
    """A clock that stands still until a test moves it."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def scheduler(clock: Clock, slots: int = 1, **kwargs: float) -> Scheduler:
    settings = {"floor": 0.1, "slack": 1.0, "patience": 100.0, "overhead": 0.0, "store": 0.0,
                **kwargs}
    return Scheduler(slots, 1.0, clock=clock, wake=False, **settings)


class Moves:
    """Moves asked of a scheduler: what each was granted, in the order the grants came."""

    def __init__(self, s: Scheduler) -> None:
        self.s = s
        self.granted: list[tuple[str, float | str]] = []
        self.release: dict[str, asyncio.Event] = {}
        self.tasks: dict[str, asyncio.Task[str]] = {}

    def ask(self, name: str, started: float | None = None, current: object = None,
            pause: float = 0.0) -> None:
        release = self.release[name] = asyncio.Event()

        async def search(budget: float) -> str:
            self.granted.append((name, budget))
            await release.wait()
            return f"{name} searched"

        def cheap() -> str:
            self.granted.append((name, "cheap"))
            return f"{name} cheap"

        self.tasks[name] = asyncio.create_task(self.s.think(
            search, cheap, started=started, pause=pause, label=name,
            current=current if callable(current) else None))

    async def finish(self, name: str) -> str:
        self.release[name].set()
        return await self.tasks[name]


async def turn() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_moves_are_served_in_the_order_their_turns_began() -> None:
    clock = Clock()
    moves = Moves(scheduler(clock))
    moves.ask("first", started=0.0)  # takes the only slot
    await turn()
    for name, began in (("late", 3.0), ("early", 1.0), ("middle", 2.0)):
        moves.ask(name, started=began)  # asked in another order than their turns began
    await turn()
    assert [name for name, _ in moves.granted] == ["first"]
    assert moves.s.waiting == 3 and moves.s.running == 1
    for name in ("first", "early", "middle"):
        assert await moves.finish(name) == f"{name} searched"
        await turn()
    assert [name for name, _ in moves.granted] == ["first", "early", "middle", "late"]
    assert await moves.finish("late") == "late searched"
    assert moves.s.searched == 4 and moves.s.fallbacks == 0


async def test_a_table_that_asked_again_does_not_pass_the_others() -> None:
    clock = Clock()
    moves = Moves(scheduler(clock))
    moves.ask("busy table, move 1")
    await turn()
    clock.now = 1.0
    moves.ask("other table")
    await turn()
    await moves.finish("busy table, move 1")
    clock.now = 2.0
    moves.ask("busy table, move 2")  # its next turn began after the other table's
    await turn()
    await moves.finish("other table")
    await turn()
    await moves.finish("busy table, move 2")
    assert [name for name, _ in moves.granted] == [
        "busy table, move 1", "other table", "busy table, move 2"]


async def test_each_moves_budget_shrinks_as_the_queue_grows_down_to_the_floor() -> None:
    clock = Clock()
    s = scheduler(clock)
    assert [s.budget(n) for n in (1, 2, 4)] == [1.0, 0.5, 0.25]
    assert s.budget(10) == pytest.approx(0.1) and s.budget(50) == pytest.approx(0.1)
    assert scheduler(clock, slots=2).budget(4) == 0.5  # two workers: twice the time to share
    moves = Moves(s)
    moves.ask("alone")
    await turn()
    for k in range(4):
        moves.ask(f"queued {k}")
    await turn()
    await moves.finish("alone")
    for k in range(4):
        await turn()
        await moves.finish(f"queued {k}")
    budgets = [budget for _, budget in moves.granted]
    # alone: the full budget; then four waiting, three, two, one
    assert budgets == [1.0, 0.25, pytest.approx(1 / 3), 0.5, 1.0]


async def test_a_move_gets_no_more_than_its_own_time_left() -> None:
    clock = Clock()
    moves = Moves(scheduler(clock, patience=1.5))
    moves.ask("first")
    await turn()
    moves.ask("second")
    await turn()
    clock.now = 1.0  # the first search took a second: the second has 0.5 s left
    await moves.finish("first")
    await turn()
    assert moves.granted[-1] == ("second", pytest.approx(0.5))
    await moves.finish("second")


async def test_a_move_whose_table_moved_on_is_dropped_before_its_search() -> None:
    clock = Clock()
    moves = Moves(scheduler(clock))
    moves.ask("first")
    await turn()
    version = {"table": 7}
    moves.ask("stale", current=lambda: version["table"] == 7)
    moves.ask("gone", current=lambda: 1 / 0)  # a table whose lookup fails is not current
    moves.ask("fresh")
    await turn()
    version["table"] = 8  # the table moved on while its move waited
    await moves.finish("first")
    await turn()
    with pytest.raises(Dropped):
        await moves.tasks["stale"]
    with pytest.raises(Dropped):
        await moves.tasks["gone"]
    assert await moves.finish("fresh") == "fresh searched"
    assert [name for name, _ in moves.granted] == ["first", "fresh"]
    assert moves.s.dropped == 2 and moves.s.searched == 2


async def test_moves_that_cannot_be_searched_in_time_are_played_cheaply_and_said(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="bot.tables.scheduler")
    clock = Clock()
    moves = Moves(scheduler(clock, patience=1.5))
    moves.ask("searching")  # the full second: the slot is free again at 1.0
    await turn()
    for k in range(6):
        moves.ask(f"queued {k}")
        await turn()
    # at the floor (0.1 s each) the first five end by 1.5 s; the sixth could not
    assert moves.granted == [("searching", 1.0), ("queued 5", "cheap")]
    assert await moves.tasks["queued 5"] == "queued 5 cheap"
    assert moves.s.fallbacks == 1 and moves.s.behind() == 1 and moves.s.waiting == 5
    assert "cannot keep up" in caplog.text and "normal level" in caplog.text
    # the search runs over its budget: at 1.45 s not one waiting move can end by 1.5 s
    clock.now = 1.45
    moves.s.pump()
    await turn()
    assert [name for name, how in moves.granted if how == "cheap"] == [
        "queued 5", "queued 0", "queued 1", "queued 2", "queued 3", "queued 4"]
    assert moves.s.waiting == 0 and moves.s.fallbacks == 6
    assert caplog.text.count("cannot keep up") == 1  # once a minute at most
    assert await moves.finish("searching") == "searching searched"
    clock.now = 100.0  # a minute later /status stops saying so
    assert moves.s.behind() == 0


async def test_a_cancelled_caller_gives_its_slot_back() -> None:
    clock = Clock()
    moves = Moves(scheduler(clock))
    moves.ask("first")
    moves.ask("second")
    await turn()
    moves.tasks["first"].cancel()  # e.g. the bot stopping while it searched
    await turn()
    assert moves.granted[-1][0] == "second" and moves.s.running == 1
    moves.ask("third")
    moves.ask("fourth")
    await turn()
    moves.tasks["third"].cancel()  # gone while it waited: out of the line at once
    await turn()
    assert moves.s.waiting == 1
    await moves.finish("second")
    await turn()
    assert moves.granted[-1][0] == "fourth"
    await moves.finish("fourth")
    assert moves.s.running == 0 and moves.s.waiting == 0


# -- on the simulated Discord ------------------------------------------------------------------
class Pondering:
    """A search player that thinks until the test lets it go (in the thinking thread)."""

    def __init__(self) -> None:
        self.began = threading.Event()
        self.release = threading.Event()
        self.seats: list[int] = []

    def choose(self, obs: ai.Observation, rng: random.Random) -> Action:
        self.seats.append(obs.seat)
        self.began.set()
        self.release.wait(10)
        return obs.legal[0]


async def hard_table(w: World, host: SimUser, channel: SimChannel) -> Table:
    """The host opens a table of the test game with one computer at the hard level, starts
    it and plays the first card; the table (the computer is to act)."""
    sim = w.sim
    await sim.slash(host, channel, "play", {"game": "high-card"})
    await sim.settle()
    lobby = table_of(sim, channel)
    assert lobby is not None
    await sim.click(host, lobby, button(lobby, "addc")["custom_id"])
    lobby = table_of(sim, channel)
    assert lobby is not None
    r = await sim.click(host, lobby, button(lobby, "opts")["custom_id"])
    assert r.message is not None
    [level] = [s for s in r.message.selects() if verb_of(s["custom_id"]) == "level"]
    await sim.select(host, r.message, level["custom_id"], ["hard"])
    lobby = table_of(sim, channel)
    assert lobby is not None
    await sim.click(host, lobby, button(lobby, "start")["custom_id"])
    await sim.settle()
    [table] = [t for t in w.bot.manager.tables.values() if t.channel_id == int(channel.id)]
    assert table.level == "hard" and table.waiting_for() == [0]
    shown = table_of(sim, channel)
    assert shown is not None
    r = await sim.click(host, shown, button(shown, "hand")["custom_id"])
    assert r.message is not None
    [play, *_] = [b for b in r.message.buttons() if verb_of(b["custom_id"]) == "act"]
    r = await sim.click(host, r.message, play["custom_id"])
    assert r.status == "ok"
    return table


async def test_a_tables_computer_moves_while_another_tables_search_is_under_way(
        tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        alice, bob = w.users  # Bob may manage the server
        thinker = w.bot.manager.thinker
        queue = thinker.scheduler
        assert queue is not None and queue.slots == 1  # these tests think in one thread
        clock = Clock()
        queue.clock = clock
        pondering = Pondering()
        thinker.players["high-card", "hard"] = pondering
        # what the tables tell the scheduler: when each turn began and the pause, and how
        # long applying each move took
        asked: list[dict[str, Any]] = []
        applied: list[float] = []
        real_think, real_applied = queue.think, queue.applied

        async def think(*args: Any, **kwargs: Any) -> Any:
            asked.append(kwargs)
            return await real_think(*args, **kwargs)

        def note(seconds: float) -> None:
            applied.append(seconds)
            real_applied(seconds)

        queue.think = think  # type: ignore[method-assign]
        queue.applied = note  # type: ignore[method-assign]
        try:
            first = await hard_table(w, alice, w.channel)
            assert await asyncio.to_thread(pondering.began.wait, 10)
            assert queue.running == 1 and first.version == 1  # its computer is searching

            second_channel = w.sim.add_channel(w.guild, "second")
            second = await hard_table(w, bob, second_channel)
            await w.sim.settle()
            assert second.version == 1 and queue.waiting == 1  # in line behind the first

            # the first table answers a click while its computer thinks
            shown = w.table_message()
            r = await w.sim.click(alice, shown, button(shown, "hand")["custom_id"])
            assert r.status == "ok" and r.message is not None and r.message.ephemeral

            # the second table's move cannot be searched in time: it is played at once at
            # the normal level, while the first table's search is still under way
            clock.now += 2.0
            queue.pump()
            await turn()
            await w.sim.settle(idle=0.3)
            assert second.version == 2  # its computer's move is applied ...
            # (each table asked for its computer's move; the second table may already be
            # asking for its next one)
            assert len(asked) >= 2 and all(k["started"] is not None for k in asked)
            assert sum(k["pause"] == w.bot.manager.ai_delay for k in asked) >= 2
            assert len(applied) >= 1 and applied[0] >= 0.0
            second_shown = table_of(w.sim, second_channel)
            assert second_shown is not None  # ... and shown
            assert f"dh:hand:{second.id}:2:" in button(second_shown, "hand")["custom_id"]
            assert first.version == 1 and queue.running == 1 and pondering.seats == [1]
            r = await w.sim.slash(bob, w.channel, "status", {})
            assert r.status == "ok" and r.message is not None
            [computers] = [f["value"] for f in r.message.embeds[0]["fields"]
                           if f["name"] == "Computer players"]
            assert computers.startswith("moves being searched: 1, waiting: ")
            assert computers.endswith("; played at the normal level in the last minute "
                                      "because the search could not keep up: 1")
        finally:
            pondering.release.set()
        for _ in range(1000):  # the search's thread hands its move back
            if first.version >= 2:
                break
            await asyncio.sleep(0.01)
        await w.sim.settle()
        assert first.version >= 2  # its computer moved then, as searched
        assert pondering.seats[0] == 1 and queue.searched >= 1
        assert w.sim.spec_errors == [] and w.sim.client_errors == []


def test_each_search_move_carries_its_own_budget_to_the_worker() -> None:
    import pickle

    import games
    from bot.tables import thinking
    from games.ai.search import SearchPlayer

    thinking._init_worker("best", None)  # as a worker starts: the level's own budget
    state = games.get("spar").new_game(4, seed=3)
    seat = state.to_act[0]
    blob = pickle.dumps(state)
    for budget in (0.01, 0.02):
        text = thinking._think_in_worker(blob, seat, "seed", "hard", budget)
        assert any(str(a) == text for a in state.legal_actions(seat))
        player = thinking._worker_players["spar", "hard"]
        assert isinstance(player, SearchPlayer) and player.budget == budget
    # in a thread the player is copied, so two tables' budgets never mix
    shared = thinking.best_player("spar", "hard")
    assert isinstance(shared, SearchPlayer)
    mine = thinking._with_budget(shared, 0.05)
    assert isinstance(mine, SearchPlayer) and mine.budget == 0.05 and mine is not shared
    assert shared.budget == ai.HARD_BUDGET


async def test_the_overhead_is_learnt_from_searches_that_ran_their_budget() -> None:
    clock = Clock()
    s = scheduler(clock, overhead=0.05)

    async def search(budget: float) -> str:
        clock.now += budget + took_over
        return "searched"

    took_over = 0.13  # a busy machine: every hand-over takes 0.13 s beyond the budget
    for _ in range(40):
        assert await s.think(search, lambda: "cheap") == "searched"
    assert s.overhead == pytest.approx(0.13, abs=0.01)
    took_over = 10.0  # the workers' first start: it counts as 0.3 s at most, for a while
    await s.think(search, lambda: "cheap")
    assert 0.13 < s.overhead < 0.25
    took_over = 0.13
    for _ in range(40):
        await s.think(search, lambda: "cheap")
    assert s.overhead == pytest.approx(0.13, abs=0.01)


async def test_the_time_lost_before_asking_counts_against_the_move() -> None:
    clock = Clock()
    moves = Moves(scheduler(clock, patience=1.5))
    # the turn began at 0 with a 1 s pause; the busy event loop asked only at 1.8 s
    clock.now = 1.8
    moves.ask("late", started=0.0, pause=1.0)
    await turn()
    assert moves.granted == [("late", pytest.approx(0.7))]  # to 2.5 s, not 1.0 s to 2.8 s
    await moves.finish("late")
    # asked so late that not even the floor fits before 2.5 s: played cheaply at once
    clock.now = 12.45
    moves.ask("too late", started=10.0, pause=1.0)
    await turn()
    assert moves.granted[-1] == ("too late", "cheap")
    # a pause that has not run out yet (asked early) counts from the asking
    clock.now = 20.0
    moves.ask("early", started=19.5, pause=1.0)
    await turn()
    assert moves.granted[-1] == ("early", pytest.approx(1.0))  # the full budget, 1.5 s left
    await moves.finish("early")


async def test_the_time_applying_takes_is_learnt_and_kept_free() -> None:
    clock = Clock()
    s = scheduler(clock, patience=1.5, store=0.1)
    moves = Moves(s)
    assert s.store == pytest.approx(0.1)
    for _ in range(80):
        s.applied(0.3)  # a busy process: storing and telling takes 0.3 s
    assert s.store == pytest.approx(0.3, abs=0.01)
    clock.now = 1.5
    moves.ask("move", started=0.0, pause=1.0)
    await turn()
    assert moves.granted == [("move", pytest.approx(0.7, abs=0.01))]  # ends by 2.2, applied by 2.5
    await moves.finish("move")
    # unsteady delays count at more than their mean, and one huge one for little
    for seconds in (0.1, 0.3) * 20:
        s.applied(seconds)
    assert s.store > 0.3
    s.applied(60.0)
    assert s.store <= 0.4


def test_a_search_reaching_its_worker_late_still_ends_by_its_time() -> None:
    import pickle
    import time

    import games
    from bot.tables import thinking
    from games.ai.search import SearchPlayer

    thinking._init_worker("best", None)
    state = games.get("spar").new_game(4, seed=3)
    seat = state.to_act[0]
    blob = pickle.dumps(state)
    # granted 0.5 s, but its time was up before the worker took it: no search, a legal move
    text = thinking._think_in_worker(blob, seat, "seed", "hard", 0.5, time.monotonic() - 1.0)
    assert any(str(a) == text for a in state.legal_actions(seat))
    player = thinking._worker_players["spar", "hard"]
    assert isinstance(player, SearchPlayer) and player.budget == 0.0
    text = thinking._think_in_worker(blob, seat, "seed", "hard", 0.02, time.monotonic() + 60)
    assert player.budget == 0.02  # the budget when the time left is longer


def test_a_worker_warms_each_search_and_leaves_its_players_as_they_were() -> None:
    import games
    from bot.tables import thinking
    from games.ai.one_two_three_four import _three_passes
    from games.ai.search import SearchPlayer

    _three_passes.cache_clear()
    thinking._init_worker("best", None)
    thinking._warm()
    # 1234's table of passes is built at start-up, not on a table's first move
    assert _three_passes.cache_info().currsize == 1
    for game_id in games.ids():
        player = thinking._worker_players[game_id, "best"]
        assert isinstance(player, SearchPlayer)
        assert player.iterations is None and player.budget == ai.HARD_BUDGET
