"""Pictures drawn in worker processes: the same bytes as in the bot's own process, a dead worker
replaced (its picture drawn in a thread meanwhile), no worker left after closing, and the bot
drawing with its own painters."""

from __future__ import annotations

import asyncio
import os
import select
import signal
import subprocess
import sys
from pathlib import Path

import games
from bot.orphans import alive
from bot.pictures import hand_png, hand_png_async, painter, table_png, table_png_async
from bot.pictures.painter import Painter
from tests.bot.sim_helpers import world
from tests.bot.test_thinking import gone


def spar_views() -> tuple[dict[str, object], dict[str, object]]:
    state = games.get("spar").new_game(4, seed=5)
    return state.view(None).to_dict(), state.view(0).to_dict()


async def test_a_worker_draws_the_same_pictures_as_the_bot_itself() -> None:
    public, mine = spar_views()
    names = ["Aiko", "भारत", "สมชาย", "🦊 Fox"]
    tables, hands = Painter(1), Painter(1)
    await tables.start()
    await hands.start()
    before = painter.use(tables), painter.use(hands, "hand")
    try:
        assert tables.worker_pids() and tables.worker_pids()[0] != os.getpid()
        drawn = await table_png_async(public, names, "ja")
        hand = await hand_png_async(mine, {"AS"}, "Spar · 1")
        assert drawn == table_png(public, names, "ja")
        assert hand == hand_png(mine, {"AS"}, "Spar · 1")
        assert tables.pooled == 1 and hands.pooled == 1
    finally:
        painter.use(before[0])
        painter.use(before[1], "hand")
        await tables.close()
        await hands.close()


async def test_a_killed_worker_is_replaced_and_no_picture_is_lost() -> None:
    public, _ = spar_views()
    names = ["a", "b", "c", "d"]
    chosen = Painter(1)
    await chosen.start()
    try:
        [first] = chosen.worker_pids()
        os.kill(first, signal.SIGKILL)
        assert await gone(first)
        # the pool is found broken: this picture is drawn in a thread, the pool replaced
        assert await chosen.run(table_png, public, names) == table_png(public, names)
        assert chosen.restarts == 1
        for _ in range(500):  # the new pool warms up in the background
            if chosen.worker_pids():
                break
            await asyncio.sleep(0.01)
        assert await chosen.run(table_png, public, names) == table_png(public, names)
        second = chosen.worker_pids()
        assert second and first not in second and chosen.pooled >= 1
    finally:
        await chosen.close()


async def test_closing_leaves_no_worker_and_draws_no_more_in_one() -> None:
    chosen = Painter(2)
    await chosen.start()
    pids = chosen.worker_pids()
    assert len(pids) == 2 and all(alive(pid) for pid in pids)
    await chosen.close()
    for pid in pids:
        assert await gone(pid)
    public, _ = spar_views()
    assert await chosen.run(table_png, public, ["a"] * 4) == table_png(public, ["a"] * 4)
    assert chosen.pooled == 0


async def test_the_bot_draws_with_its_own_painters_and_puts_them_away(tmp_path: Path) -> None:
    async with world(tmp_path, people=1) as w:
        w.bot.painters = {"table": Painter(1), "hand": Painter(1)}
        await w.bot.painters["table"].start()
        await w.bot.painters["hand"].start()
        for kind, chosen in w.bot.painters.items():
            painter.use(chosen, kind)
        pids = [p for chosen in w.bot.painters.values() for p in chosen.worker_pids()]
        assert len(pids) == 2
        await w.sim.stop_bot(graceful=True)  # Deckhand.close
    for pid in pids:
        assert await gone(pid)
    assert painter.current().workers == 0 and painter.current("hand").workers == 0


async def test_workers_run_below_the_bot_pictures_lowest(tmp_path: Path) -> None:
    # the bot's event loop answers clicks: every worker yields a busy core to it; a search
    # (a computer's move someone waits for, within its time budget) goes before the pictures,
    # which follow an answer already given and run at the lowest priority there is
    from bot.client.deckhand import PICTURE_NICE, Deckhand
    from bot.config import Settings
    from bot.storage.store import Storage
    from bot.tables.thinking import SEARCH_NICE, Thinker

    settings = Settings(token="t", db_path=str(tmp_path / "d.sqlite3"), render_workers=1)
    store = await Storage.open(settings.db_path)
    bot = Deckhand(settings, store)
    tables, hands = bot.painters["table"], bot.painters["hand"]
    thinker = Thinker("hard", workers=1, budget=0.01)
    await tables.start()
    await hands.start()
    await thinker.start()
    try:
        mine = os.getpriority(os.PRIO_PROCESS, 0)
        lowest = 19
        assert mine + PICTURE_NICE >= lowest and 0 < SEARCH_NICE < PICTURE_NICE
        for worker in (tables.worker_pids()[0], hands.worker_pids()[0]):
            assert os.getpriority(os.PRIO_PROCESS, worker) == lowest
        (search_worker,) = thinker.pool.pids()
        assert os.getpriority(os.PRIO_PROCESS, search_worker) == min(lowest, mine + SEARCH_NICE)
    finally:
        await tables.close()
        await hands.close()
        await thinker.close()
        await store.close()


KILLED_BOT = """
import asyncio, os, sys, time
from bot.pictures.painter import Painter
from bot.tables.thinking import Thinker

async def main():
    tables, hands = Painter(1), Painter(1)  # as the bot has them
    await tables.start()
    await hands.start()
    thinker = Thinker("hard", workers=1, budget=0.01)
    await thinker.start()
    pids = tables.worker_pids() + hands.worker_pids() + thinker.worker_pids()
    print(" ".join(map(str, pids)), flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""


def test_workers_end_when_the_bot_is_killed() -> None:
    """SIGKILL leaves no worker (nor forkserver) behind holding the bot's output open."""
    root = Path(__file__).resolve().parents[2]
    read_end, write_end = os.pipe()
    proc = subprocess.Popen([sys.executable, "-c", KILLED_BOT], cwd=str(root),
                            stdout=write_end, stderr=subprocess.DEVNULL)
    os.close(write_end)  # the bot (and whatever inherits its output) holds the only one
    try:
        line = b""
        while not line.endswith(b"\n"):
            ready, _, _ = select.select([read_end], [], [], 60)
            assert ready, "the bot did not start its workers"
            line += os.read(read_end, 4096)
        pids = [int(p) for p in line.split()]
        assert len(pids) == 3 and all(alive(pid) for pid in pids)
        proc.kill()
        proc.wait(10)
        # the output is closed (EOF) once every helper process has ended
        ready, _, _ = select.select([read_end], [], [], 10)
        assert ready and os.read(read_end, 4096) == b"", "a helper kept the bot's output open"
        assert not [pid for pid in pids if alive(pid)], "a worker outlived the killed bot"
    finally:
        os.close(read_end)
        if proc.poll() is None:
            proc.kill()
