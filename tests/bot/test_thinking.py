"""Computer players thinking in worker processes: legal moves, a dead worker, shutdown."""

from __future__ import annotations

import asyncio
import os
import random
import signal
from pathlib import Path

import pytest

import games
from bot.config import ConfigError, load
from bot.orphans import alive
from bot.storage.store import Storage
from bot.tables import FINISHED, PLAYING, Refusal, TableManager
from bot.tables.model import Table
from bot.tables.thinking import Thinker
from games import ai
from tests.bot.fakegame import lookup
from tests.bot.test_tables import live

HOST = 1
BUDGET = 0.02  # seconds a search move takes here (1 s in the bot)


async def gone(pid: int) -> bool:
    """Wait (up to 5 s) for a process to end."""
    for _ in range(500):
        if not alive(pid):
            return True
        await asyncio.sleep(0.01)
    return False


async def play_to_the_end(m: TableManager, table: Table) -> None:
    """The host plays its first legal move whenever it is its turn, until the game ends."""
    for _ in range(5000):
        if table.status != PLAYING:
            return
        state = table.state
        assert state is not None
        if 0 not in state.to_act:
            await asyncio.sleep(0.005)
            continue
        try:
            await m.act(table.id, HOST, table.version, state.legal_actions(0)[0])
        except Refusal as refused:
            assert refused.key in ("stale", "not-your-turn")
    raise AssertionError("the game did not end")


async def short_game(m: TableManager, channel: int, seed: int) -> Table:
    """A started one-deal game of Agram: the host against a computer."""
    table = live(m, await m.open(100, channel, "spar", HOST, "Host", seed=seed))
    await m.add_computer(table.id, HOST)
    await m.set_option(table.id, HOST, "variant", "agram")
    await m.set_option(table.id, HOST, "deals", 1)
    await m.start(table.id, HOST)
    return table


async def test_a_hard_move_is_thought_in_a_worker_and_is_legal() -> None:
    thinker = Thinker("hard", workers=1, budget=BUDGET)
    try:
        rules = games.get("spar")
        state = rules.new_game(4, seed=11)
        seat = state.to_act[0]
        before = state.clone()
        action = await thinker.choose(state, seat, "11:0:0")
        assert any(action.same_as(a) for a in state.legal_actions(seat))
        assert thinker.pooled_moves == 1
        pids = thinker.worker_pids()
        assert pids and os.getpid() not in pids
        assert state.view(None) == before.view(None)  # the real state is untouched
        state.apply(seat, action)
    finally:
        await thinker.close()


async def test_cheap_levels_choose_inline_without_workers() -> None:
    thinker = Thinker("normal", workers=1)
    rules = games.get("bear")
    state = rules.new_game(3, seed=2)
    seat = state.to_act[0]
    action = await thinker.choose(state, seat, "x")
    assert any(action.same_as(a) for a in state.legal_actions(seat))
    assert thinker.pooled_moves == 0 and thinker.worker_pids() == []
    await thinker.close()


async def test_a_move_names_its_level_and_a_table_of_the_bot_plays_at_it() -> None:
    # the bot's level is normal; a table that chose hard thinks in a worker, easy inline
    thinker = Thinker("normal", workers=1, budget=BUDGET)
    try:
        rules = games.get("spar")
        state = rules.new_game(4, seed=11)
        seat = state.to_act[0]
        action = await thinker.choose(state, seat, "11:0:0", "hard")
        assert any(action.same_as(a) for a in state.legal_actions(seat))
        assert thinker.pooled_moves == 1 and thinker.worker_pids()
        assert thinker.pooled("spar", "hard") and not thinker.pooled("spar")
        # the normal level is the game's rule of thumb, the same move for the same dice
        expected = ai.get_player("normal", "spar").choose(ai.observe(state, seat),
                                                         random.Random("11:0:1"))
        assert (await thinker.choose(state, seat, "11:0:1")).same_as(expected)
        assert (await thinker.choose(state, seat, "11:0:1", "normal")).same_as(expected)
        await thinker.choose(state, seat, "11:0:2", "easy")
        assert thinker.pooled_moves == 1  # the cheap levels never reach the workers
        assert {level for (_game, level) in thinker.players} == {"hard", "normal", "easy"}
    finally:
        await thinker.close()


async def test_a_killed_worker_is_replaced_and_the_game_goes_on(tmp_path: Path) -> None:
    store = await Storage.open(str(tmp_path / "deckhand.sqlite3"))
    m = TableManager(store, rules_for=lookup, ai_delay=0.0, ai_level="hard", ai_workers=1,
                     ai_budget=BUDGET)
    try:
        await m.resume()  # starts and warms the workers
        first = m.thinker.worker_pids()
        assert len(first) == 1
        os.kill(first[0], signal.SIGKILL)
        assert await gone(first[0])
        table = await short_game(m, 10, seed=7)
        await play_to_the_end(m, table)
        assert table.status == FINISHED
        assert m.thinker.restarts == 1
        for channel in range(11, 111):  # the replacement pool is warmed in the background
            if m.thinker.pooled_moves:
                break
            await play_to_the_end(m, await short_game(m, channel, seed=channel))
        assert m.thinker.pooled_moves > 0
        second = m.thinker.worker_pids()
        assert second and first[0] not in second
    finally:
        await m.close()
        await store.close()


async def test_close_leaves_no_worker_process() -> None:
    thinker = Thinker("hard", workers=2, budget=BUDGET)
    await thinker.start()
    pids = thinker.worker_pids()
    assert len(pids) == 2 and all(alive(pid) for pid in pids)
    state = games.get("spar").new_game(4, seed=3)
    busy = asyncio.ensure_future(thinker.choose(state, state.to_act[0], "3:0:0"))
    await asyncio.sleep(0)
    await thinker.close()
    await asyncio.wait_for(asyncio.gather(busy, return_exceptions=True), 5)  # done or cancelled
    for pid in pids:
        assert await gone(pid)


@pytest.mark.parametrize(("name", "field"), [("DECKHAND_AI_WORKERS", "ai_workers"),
                                            ("DECKHAND_RENDER_WORKERS", "render_workers")])
def test_the_number_of_workers_is_a_setting(name: str, field: str) -> None:
    assert getattr(load({"DISCORD_TOKEN": "x", name: "0"}), field) == 0
    assert getattr(load({"DISCORD_TOKEN": "x", name: "3"}), field) == 3
    assert getattr(load({"DISCORD_TOKEN": "x"}), field) >= 1
    for malformed in ("many", "-1"):
        try:
            load({"DISCORD_TOKEN": "x", name: malformed})
        except ConfigError as error:
            assert name in str(error)
        else:
            raise AssertionError("a malformed worker count was accepted")
