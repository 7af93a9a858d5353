"""SIGTERM and SIGINT stop the real ``python -m bot`` cleanly and promptly: what is under way is
answered, the table messages are brought up to date, the workers end, the database is closed,
and the exit status is 0 within the 5 s docs/deploy.md promises; as PID 1 too."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.client.deckhand import STOP_SECONDS
from bot.orphans import alive
from bot.storage.store import Storage
from tests.bot.realbot import RealBot
from tests.bot.sim_helpers import table_of, world
from tests.bot.test_e2e_games import open_table
from tests.bot.test_e2e_safety import first_move, mover, open_hand, use
from tests.bot.test_e2e_shutdown import hold
from tests.discord_sim import SimChannel, SimMessage, SimulatedDiscord, SimUser

GAME = "spar"


def still_alive(pids: list[int], within: float = 5.0) -> list[int]:
    """The processes of ``pids`` still running after up to ``within`` seconds: the forkserver
    and the resource tracker end when they see the bot's end, a moment after it on a busy
    machine (a zombie left to init counts as ended)."""
    deadline = time.monotonic() + within
    while True:
        running = [pid for pid in pids if alive(pid)]
        if not running or time.monotonic() > deadline:
            return running
        time.sleep(0.05)


def quiet_stop(bot: RealBot, status: int, seconds: float, tmp_path: Path) -> None:
    """The checks every clean stop passes."""
    assert status == 0, bot.stderr[-20:]
    assert seconds < STOP_SECONDS, seconds
    assert bot.errors() == [], bot.errors()
    assert not any("Traceback" in line or "KeyboardInterrupt" in line for line in bot.stderr)
    assert any(str(line.get("event", "")).startswith("stopped cleanly in")
               for line in bot.lines), bot.stderr[-10:]
    # the database was closed: SQLite folds the write-ahead log in and removes it then
    assert (tmp_path / "deckhand.sqlite3").exists()
    assert not (tmp_path / "deckhand.sqlite3-wal").exists()


@dataclass
class Room:
    """What the table helpers of the end-to-end tests need: the simulator, a channel and its
    people (the bot runs in another process)."""

    sim: SimulatedDiscord
    channel: SimChannel
    users: list[SimUser]

    def table_message(self) -> SimMessage:
        """The last message in the channel (the table)."""
        found = table_of(self.sim, self.channel)
        assert found is not None
        return found


def room(sim: SimulatedDiscord) -> Room:
    """A server with a channel, Alice and Bob."""
    guild = sim.add_guild("Harbour")
    channel = sim.add_channel(guild, "cards")
    users = [sim.add_user(name) for name in ("Alice", "Bob")]
    for user in users:
        sim.add_member(guild, user)
    return Room(sim, channel, users)


def table_edits(sim: SimulatedDiscord, message_id: str, after: float) -> int:
    """Edits of a message the bot made after ``after`` (simulation time): by its own token, or
    through an interaction's whose original response the message is."""
    return sum(1 for r in sim.requests if r.method == "PATCH" and r.time > after
               and r.status == 200 and isinstance(r.response, dict)
               and str(r.response.get("id")) == message_id)


async def test_sigterm_answers_the_move_under_way_and_leaves_the_table_right(
        tmp_path: Path) -> None:
    async with SimulatedDiscord() as sim:
        here = room(sim)
        # edits of the table at most every 3 s: the table's edit after the move still waits
        # for its turn when the stop comes
        bot = RealBot(tmp_path, sim, DECKHAND_LOG_LEVEL="DEBUG", DECKHAND_EDIT_GAP="3")
        try:
            await bot.start()
            workers = bot.children()
            assert workers  # the picture and computer workers, and their forkserver
            table = await open_table(here, GAME, here.users, 2, {})  # type: ignore[arg-type]
            user, _ = mover(here, table)  # type: ignore[arg-type]
            hand = await open_hand(here, user)  # type: ignore[arg-type]
            seen = len(bot.lines)
            moved_at = sim.now()
            move = asyncio.ensure_future(use(here, user, hand, first_move(hand)))  # type: ignore[arg-type]
            await bot.wait_for(lambda line: line.get("event") == "interaction type 3"
                               and bot.lines.index(line) >= seen, 10)
            status, seconds = await bot.stop(signal.SIGTERM)  # the move is under way
            answer = await move
        finally:
            bot.kill()
        assert answer.status == "ok" and answer.callback_type == 7, answer  # answered
        assert table_edits(sim, table.id, moved_at) >= 1  # the waiting edit was made
        assert sim.spec_errors == []
    quiet_stop(bot, status, seconds, tmp_path)
    assert still_alive(workers) == []  # ended
    assert len(await stored_actions(tmp_path)) == 1  # the move was stored


async def stored_actions(tmp_path: Path) -> list[object]:
    """The actions stored for table 1 (the database opened afresh)."""
    store = await Storage.open(str(tmp_path / "deckhand.sqlite3"))
    try:
        return list(await store.actions(1))
    finally:
        await store.close()


async def test_ctrl_c_stops_the_bot_and_its_workers_without_a_traceback(tmp_path: Path) -> None:
    async with SimulatedDiscord() as sim:
        bot = RealBot(tmp_path, sim)
        try:
            await bot.start()
            workers = bot.children()
            assert workers
            # a terminal's Ctrl-C: SIGINT to every process of the foreground job
            status, seconds = await bot.stop(signal.SIGINT, group=True)
        finally:
            bot.kill()
    quiet_stop(bot, status, seconds, tmp_path)
    assert still_alive(workers) == []


async def test_sigterm_during_the_start_stops_it_cleanly(tmp_path: Path) -> None:
    async with SimulatedDiscord() as sim:
        bot = RealBot(tmp_path, sim)
        try:
            await bot.spawn()
            await bot.wait_for(lambda line: line.get("event") == "logging in using static token")
            status, seconds = await bot.stop(signal.SIGTERM)
        finally:
            bot.kill()
    quiet_stop(bot, status, seconds, tmp_path)


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None,
                    reason="a PID namespace needs root and unshare")
async def test_sigterm_stops_the_bot_running_as_pid_1(tmp_path: Path) -> None:
    async with SimulatedDiscord() as sim:
        bot = RealBot(tmp_path, sim, prefix=["unshare", "--pid", "--fork", "--mount-proc"])
        try:
            await bot.start()
            [python] = [pid for pid in bot.children()
                        if Path(f"/proc/{pid}/status").read_text().count("NSpid:") and
                        _namespace_pid(pid) == 1]
            # as `docker stop` does: SIGTERM to PID 1 from outside its namespace
            status, seconds = await bot.stop(signal.SIGTERM, pid=python)
        finally:
            bot.kill()
    quiet_stop(bot, status, seconds, tmp_path)


def _namespace_pid(pid: int) -> int:
    """A process's id in its own (innermost) PID namespace."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("NSpid:"):
            return int(line.split()[-1])
    return pid


async def test_a_stop_is_bounded_even_when_an_answer_never_comes(tmp_path: Path) -> None:
    async with world(tmp_path, people=1) as w:
        [alice] = w.users
        entered, _ = hold(w.bot.manager, "open")  # never released
        play = asyncio.ensure_future(w.sim.slash(alice, w.channel, "play", {"game": "high-card"}))
        await asyncio.wait_for(entered.wait(), 5.0)
        began = time.monotonic()
        await w.sim.stop_bot(graceful=True)
        assert time.monotonic() - began < STOP_SECONDS
        play.cancel()
        await asyncio.gather(play, return_exceptions=True)


async def test_a_bot_that_loses_discord_keeps_reconnecting_and_still_stops_cleanly(
        tmp_path: Path) -> None:
    async with SimulatedDiscord() as sim:
        here = room(sim)
        bot = RealBot(tmp_path, sim, DECKHAND_AI_WORKERS="0", DECKHAND_RENDER_WORKERS="0")
        try:
            await bot.start()
            for _ in range(2):  # the connection drops, twice
                [session] = [s for s in sim._gateways if not s.closed.is_set()]
                await session.ws.close(code=1011)
                limit = time.monotonic() + 30
                while not [s for s in sim._gateways
                           if s is not session and s.identified and not s.closed.is_set()]:
                    assert time.monotonic() < limit, bot.stderr[-10:]
                    assert bot.proc is not None and bot.proc.returncode is None
                    await asyncio.sleep(0.05)
            await asyncio.sleep(0.3)
            r = await sim.slash(here.users[0], here.channel, "help")  # still answering
            assert r.status == "ok" and r.callback_type == 4, r
            status, seconds = await bot.stop(signal.SIGTERM)
        finally:
            bot.kill()
    quiet_stop(bot, status, seconds, tmp_path)
