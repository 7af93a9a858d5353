"""The chat's panel hands a move's click to the service as it is (issue #49, item 3): the
service alone matches it against the position, and a bad choice is answered with its real
reason. A forged menu choice (cards the person does not hold: Discord's own menus would not
send it, a modified client may) is told so, not 'no longer on offer'."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import t
from games.cards import parse
from tests.bot.sim_helpers import button, verb_of, world
from tests.bot.test_e2e_games import open_table
from tests.bot.test_e2e_panel import Clicks, move_on_panel
from tests.bot.test_e2e_panel_sets import set_menu
from tests.discord_sim import SimMessage
from tests.discord_sim.interactions import MESSAGE_COMPONENT


async def test_a_set_of_cards_not_held_is_refused_naming_them(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        humans = w.users[:2]
        await open_table(w, "twenty-two", humans, 4, {})
        panels: dict[int, SimMessage] = {}
        for user in humans:
            table_message = w.table_message()
            r = await w.sim.click(user, table_message, button(table_message, "hand")["custom_id"])
            assert r.message is not None
            panels[int(user.id)] = r.message
        rng, clicks, tried = random.Random(3), Clicks(), False
        for _ in range(2000):
            await w.sim.settle(idle=0.01)
            table = w.bot.manager.tables.get(1)
            if tried or table is None or table.state is None or table.state.over:
                break
            for user in humans:
                panel = w.sim.message(panels[int(user.id)].id)
                seat = next(s for s, i in enumerate(table.seats) if i.user_id == int(user.id))
                menu = set_menu(panel, "play") or set_menu(panel, "exchange")
                if menu is not None:
                    hand = {str(c) for c in table.state.view(seat)["hand"]}
                    absent = [c for c in ("AS", "KS", "QS", "JS", "TS", "AH", "KH", "QH",
                                          "JH", "TH", "AC", "KC") if c not in hand]
                    absent = absent[:menu["min_values"]]
                    version = table.version
                    data = {"custom_id": menu["custom_id"], "component_type": menu["type"],
                            "values": absent}
                    channel = w.sim._channels[panel.channel_id]
                    r = await w.sim._interact(MESSAGE_COMPONENT, user, channel, data,
                                              message=panel)
                    assert r.status == "ok", r
                    # the cards named in the order a set is kept in (sorted codes)
                    named = tuple(parse(c) for c in sorted(absent))
                    assert r.text == t("not-in-hand", "en", cards=named), r
                    assert table.version == version
                    tried = True
                    break
                if [s for s in panel.selects() + panel.buttons()
                        if verb_of(s["custom_id"]) in ("act", "pick", "part", "set")]:
                    await move_on_panel(w, user, panel, rng, clicks)
                    break
            else:  # nobody may act: the computers are thinking
                await asyncio.sleep(0.01)
        assert tried, "no menu of cards came up"


async def test_a_card_click_is_one_service_call_with_no_position_taken_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The click's task hands the move to the service's act once; it takes no position of its
    own before (the panel used to, to re-check the move): one lock for the move."""
    async with world(tmp_path, people=2) as w:
        humans = w.users[:2]
        await open_table(w, "spar", humans, 2, {})
        panels = []
        for user in humans:
            table_message = w.table_message()
            r = await w.sim.click(user, table_message, button(table_message, "hand")["custom_id"])
            assert r.message is not None
            panels.append((user, r.message))
        await w.sim.settle(idle=0.01)
        # the person to act: their panel offers the moves, on buttons or in a menu
        user, panel, control = next(
            (u, w.sim.message(p.id), c) for u, p in panels
            for c in w.sim.message(p.id).buttons() + w.sim.message(p.id).selects()
            if verb_of(c["custom_id"]) in ("act", "pick"))
        calls: list[tuple[str, asyncio.Task[Any] | None]] = []
        manager = w.bot.manager

        def counted(name: str) -> Any:
            real = getattr(manager, name)

            async def call(*args: Any, **kwargs: Any) -> Any:
                calls.append((name, asyncio.current_task()))
                return await real(*args, **kwargs)

            return call

        # the move itself, and every door call that takes a position under the table's lock
        # (``at``, the click's check of where it comes from, takes none: see
        # tests/bot/test_table_door.py)
        for name in ("act", "position", "position_for", "latest", "table_in",
                     "tables_in", "open_tables"):
            monkeypatch.setattr(manager, name, counted(name))
        version = manager.tables[1].version
        if verb_of(control["custom_id"]) == "act":
            r = await w.sim.click(user, panel, control["custom_id"])
        else:
            r = await w.sim.select(user, panel, control["custom_id"],
                                   [control["options"][0]["value"]])
        assert r.status == "ok", r
        assert manager.tables[1].version > version
        acts = [task for name, task in calls if name == "act"]
        assert len(acts) == 1
        before = calls[:calls.index(("act", acts[0]))]
        assert [name for name, task in before if task is acts[0]] == []
