"""The table message is edited at most once per ``edit_gap``: news in between is shown
together in the next edit, and the message always ends on the latest position."""

from __future__ import annotations

import asyncio
import itertools
import re
from pathlib import Path

from tests.bot.sim_helpers import world
from tests.bot.test_e2e_games import open_table
from tests.bot.test_e2e_safety import first_move, open_hand, use

VERSION = re.compile(r"dh:hand:\d+:(\d+):")
GAP = 0.4


async def test_edits_of_the_table_message_keep_the_gap_and_end_on_the_latest_position(
        tmp_path: Path) -> None:
    async with world(tmp_path, people=1, edit_gap=GAP) as w:
        alice = w.users[0]
        table = await open_table(w, "high-card", [alice], 2, {"hand": "6"})
        start = len(w.sim.requests)
        moves = 0
        while True:
            current = w.bot.manager.tables.get(1)
            if current is None or current.state is None or current.state.over:
                break
            if 0 not in current.state.to_act:
                await w.sim.settle()
                continue
            hand = await open_hand(w, alice)
            r = await use(w, alice, hand, first_move(hand))
            assert r.status == "ok" and r.callback_type == 7, r
            moves += 1
        await w.sim.settle(idle=GAP + 0.3)
        edits = [q for q in w.sim.requests[start:]
                 if q.method == "PATCH" and q.path.endswith(f"/messages/{table.id}")]
        times = [q.time for q in edits]
        # Alice's moves and the computer's answers (two positions each) came faster than the
        # gap allows edits: several positions were shown together
        assert moves >= 5
        assert len(edits) < 2 * moves, (len(edits), moves)
        finished = w.table_message()
        assert "The game is over" in finished.content, finished.content
        # every edit but the one showing the end kept the gap after the one before
        for before, after in itertools.pairwise(times[:-1]):
            assert after - before >= GAP - 0.05, times
        assert await w.bot.store.result(1) is not None
        assert w.sim.spec_errors == []


async def test_with_no_gap_every_position_is_edited_in(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        alice, bob = w.users[:2]
        table = await open_table(w, "high-card", [alice, bob], 2, {"hand": "4"})
        for _ in range(3):
            # (an edit whose connection broke is sent again a second later: waited for)
            await w.sim.settle()
            for _wait in range(40):
                shown = VERSION.search(str(w.table_message().components))
                assert shown is not None
                if int(shown.group(1)) == w.bot.manager.tables[1].version:
                    break
                await asyncio.sleep(0.1)
            assert int(shown.group(1)) == w.bot.manager.tables[1].version
            mover = alice if f"<@{alice.id}>" in w.table_message().content else bob
            hand = await open_hand(w, mover)
            r = await use(w, mover, hand, first_move(hand))
            assert r.status == "ok", r
            await w.sim.settle()
        assert table.id == w.table_message().id
