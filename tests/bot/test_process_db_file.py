"""The SQLite file at the real ``python -m bot``'s start (#48): a damaged file is reported as
a damaged file, with what to do; a second bot process on a file another one serves is refused
with a sentence, and the file is free again once the first has ended."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from bot.storage.store import Storage
from tests.bot.realbot import RealBot
from tests.bot.test_process_start import PROMPT, one_sentence
from tests.discord_sim import SimulatedDiscord


async def damaged_database(path: Path) -> None:
    """A real database of the bot whose pages after the first are overwritten: the file
    still opens as SQLite, and its tables are garbage."""
    store = await Storage.open(str(path))
    await store.close()
    data = bytearray(path.read_bytes())
    page = 4096
    data[page:] = bytes((i * 7 + 3) % 256 for i in range(len(data) - page))
    path.write_bytes(bytes(data))
    with sqlite3.connect(path) as check:  # as the bot finds it: malformed, not "no database"
        try:
            check.execute("SELECT COUNT(*) FROM tables").fetchone()
        except sqlite3.DatabaseError as error:
            assert "malformed" in str(error)
        else:
            raise AssertionError("the file is not damaged")


async def test_a_damaged_database_file_is_reported_as_damaged(tmp_path: Path) -> None:
    db = tmp_path / "deckhand.sqlite3"
    await damaged_database(db)
    bot = RealBot(tmp_path, None, DECKHAND_DB=str(db))
    status, seconds = await bot.run(PROMPT)
    assert status == 2, bot.stderr
    assert seconds < PROMPT
    event = one_sentence(bot, f"The database file {db} is damaged", "backup", ".recover",
                         "DECKHAND_DB")
    assert "folder" not in event, event


async def test_a_second_process_cannot_serve_the_same_sqlite_file(tmp_path: Path) -> None:
    async with SimulatedDiscord() as sim:
        first = RealBot(tmp_path, sim)
        try:
            await first.start()
            second = RealBot(tmp_path, sim)
            status, seconds = await second.run(PROMPT)
            assert status == 2, second.stderr
            assert seconds < PROMPT
            assert first.proc is not None
            one_sentence(second, "Another Deckhand process", f"process {first.proc.pid}",
                         str(tmp_path / "deckhand.sqlite3"), "DECKHAND_DB")
            assert first.proc.returncode is None  # the first serves on, untouched
            status, _ = await first.stop()
            assert status == 0, first.stderr
            # the file is free again once the first has ended
            third = RealBot(tmp_path, sim)
            try:
                await third.start()
                status, _ = await third.stop()
                assert status == 0, third.stderr
            finally:
                third.kill()
        finally:
            first.kill()


async def test_a_killed_process_leaves_the_file_free(tmp_path: Path) -> None:
    """The lock goes with the process, however it ends: no stale lock file blocks a start
    after a SIGKILL."""
    async with SimulatedDiscord() as sim:
        first = RealBot(tmp_path, sim)
        try:
            await first.start()
            first.kill()
            await first.wait()
        finally:
            first.kill()
        assert (tmp_path / "deckhand.sqlite3.lock").exists()
        second = RealBot(tmp_path, sim)
        try:
            await asyncio.wait_for(second.start(), 60)
            status, _ = await second.stop()
            assert status == 0, second.stderr
        finally:
            second.kill()
