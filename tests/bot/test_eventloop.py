"""The bot runs on uvloop where it is installed and on asyncio's own loop when asked
(``DECKHAND_EVENT_LOOP``): the same real ``python -m bot`` starts, answers a move and stops
cleanly on either; a value it cannot be stops the start with a sentence."""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

import pytest

from bot import eventloop
from bot.config import ConfigError
from tests.bot.realbot import RealBot
from tests.bot.test_e2e_games import open_table
from tests.bot.test_e2e_safety import first_move, mover, open_hand, use
from tests.bot.test_process_stop import GAME, quiet_stop, room
from tests.discord_sim import SimulatedDiscord


@pytest.mark.skipif(sys.platform == "win32", reason="uvloop has no build for Windows")
def test_the_default_is_uvloop_where_it_is_installed() -> None:
    assert eventloop.name(eventloop.runner({})) == "uvloop"
    assert eventloop.name(eventloop.runner({"DECKHAND_EVENT_LOOP": "uvloop"})) == "uvloop"


def test_asyncio_when_asked() -> None:
    run = eventloop.runner({"DECKHAND_EVENT_LOOP": " Asyncio "})
    assert run is asyncio.run and eventloop.name(run) == "asyncio"


@pytest.mark.parametrize("raw", ["fast", "trio", "0"])
def test_a_loop_it_cannot_be_is_refused_by_name(raw: str) -> None:
    with pytest.raises(ConfigError) as refused:
        eventloop.runner({"DECKHAND_EVENT_LOOP": raw})
    assert str(refused.value) == (
        f"DECKHAND_EVENT_LOOP must be auto, uvloop or asyncio, not {raw!r}.")


@pytest.mark.parametrize("loop", ["uvloop", "asyncio"])
async def test_the_real_bot_plays_and_stops_cleanly_on_either_loop(
        tmp_path: Path, loop: str) -> None:
    async with SimulatedDiscord() as sim:
        here = room(sim)
        bot = RealBot(tmp_path, sim, DECKHAND_EVENT_LOOP=loop)
        try:
            await bot.start()
            table = await open_table(here, GAME, here.users, 2, {})  # type: ignore[arg-type]
            user, _ = mover(here, table)  # type: ignore[arg-type]
            hand = await open_hand(here, user)  # type: ignore[arg-type]
            answer = await use(here, user, hand, first_move(hand))  # type: ignore[arg-type]
            status, seconds = await bot.stop(signal.SIGTERM)
        finally:
            bot.kill()
        assert answer.status == "ok" and answer.callback_type == 7, answer
        assert sim.spec_errors == []
    quiet_stop(bot, status, seconds, tmp_path)
    assert any(str(line.get("event", "")).endswith(f" on {loop}") for line in bot.lines), \
        bot.stderr[:3]


def test_the_bot_names_no_part_of_an_event_loop_s_insides() -> None:
    """The bot runs the loops as they ship: no file of ``bot/`` names the private parts of
    asyncio's loop (``_run_once``, ``_ready``) or subclasses its ``SelectorEventLoop``. The
    check is a plain text search, so that any such name, even in a comment, is looked at."""
    root = Path(__file__).resolve().parents[2] / "bot"
    found = [f"{path.relative_to(root.parent)}:{number}: {line.strip()}"
             for path in sorted(root.rglob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if any(name in line for name in ("_run_once", "_ready", "SelectorEventLoop"))]
    assert found == []
