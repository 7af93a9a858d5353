"""Getaway's take window: Take on the live panel of every person who may take while it is
open, and computers that weigh a take at once, so nobody waits for them."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import pytest

import games
from games.ai import bhabhi as bhabhi_ai
from games.ai import observe, out_of_turn
from games.cards import parse
from games.core import Action
from tests.bot.sim_helpers import button, world
from tests.bot.test_e2e_games import open_table
from tests.bot.test_e2e_panel import Clicks, move_controls, move_on_panel
from tests.discord_sim import SimMessage

GETAWAY = games.get("bhabhi")


def labels(panel: SimMessage) -> set[str]:
    """Every move a panel offers, as its person reads it (buttons and menu options)."""
    found = {str(b["label"]) for b in panel.buttons()}
    for menu in panel.selects():
        found |= {str(o["label"]) for o in menu["options"]}
    return found


async def test_take_comes_to_every_live_panel_while_the_window_is_open(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # one deal, the same every run: a random one sometimes opened no take window to a person
    # within the test's 400 rounds (it failed so twice in full runs), and then said nothing
    monkeypatch.setattr("bot.tables.lobby.secrets.randbits", lambda bits: 20261202)
    async with world(tmp_path, people=2) as w:
        humans = w.users[:2]
        await open_table(w, "bhabhi", humans, 4, {"take_hand": "any"})
        # the computers let the window pass (their rule of thumb declines hands of 13 cards)
        panels: dict[int, SimMessage] = {}
        for user in humans:
            table = w.table_message()
            r = await w.sim.click(user, table, button(table, "hand")["custom_id"])
            assert r.message is not None
            panels[int(user.id)] = r.message
        rng = random.Random(5)
        checked_open = checked_closed = 0
        for _ in range(400):
            await w.sim.settle(idle=0.02)
            table = w.bot.manager.tables.get(1)
            if table is None or table.state is None or table.state.over:
                break
            state = table.state
            for seat, info in enumerate(table.seats):
                if info.computer or info.user_id is None:
                    continue
                shown = labels(w.sim.message(panels[info.user_id].id))
                takes = {GETAWAY.action_text(a, "en") for a in state.legal_actions(seat)
                         if a.kind == "take"}
                if takes:  # the window is open to this person: Take is on their panel
                    assert takes <= shown, (takes, shown)
                    checked_open += seat not in state.to_act
                else:  # closed: no Take left on it
                    assert not any(label.startswith("Take the hand") for label in shown)
                    checked_closed += 1
            ready = [u for u in humans
                     if seat_due(table, int(u.id))
                     and move_controls(w.sim.message(panels[int(u.id)].id))]
            if ready:
                user = rng.choice(ready)
                await move_on_panel(w, user, w.sim.message(panels[int(user.id)].id), rng,
                                    Clicks())
        assert checked_open > 0 and checked_closed > 0, (checked_open, checked_closed)
        assert w.sim.spec_errors == []


def seat_due(table: Any, user_id: int) -> bool:
    """Whether the table waits for that person (their turn, not an optional take)."""
    seat = table.seat_of(user_id)
    return seat is not None and table.state is not None and seat in table.state.to_act


def test_the_rule_of_thumb_takes_only_one_low_card_of_a_suit_it_holds() -> None:
    state: Any = GETAWAY.new_game(3, seed=1, options={"take_hand": "any"})
    obs = observe(state, 1)
    assert out_of_turn(obs, random.Random(0)) is None  # hands of many cards: no
    # seat 0 is down to one card everyone saw it pick up: a 3 of a suit seat 1 holds
    low = next(c for c in state.hands[1] if c.rank > 3)
    three = parse("3" + str(low)[-1])
    for hand in state.hands:
        if three in hand:
            hand.remove(three)
    state.hands[0] = [three]
    state.known[0] = [three]
    obs = observe(state, 1)
    assert out_of_turn(obs, random.Random(0)) == Action("take", "0")
    # the same hand with a high card instead: let it pass
    state.hands[0] = state.known[0] = [parse("K" + str(low)[-1])]
    assert out_of_turn(observe(state, 1), random.Random(0)) is None
    assert bhabhi_ai.TAKE_AT_MOST < 13


@pytest.mark.parametrize("takes", [False, True])
async def test_computers_weigh_a_take_without_the_table_waiting(
        manager: Any, monkeypatch: pytest.MonkeyPatch, takes: bool) -> None:
    m, _ = manager
    m.ai_delay = 5.0  # a computer due to move would pause this long; a take must not
    if takes:
        def first_take(obs: Any, rng: random.Random) -> Action | None:
            return next((a for a in obs.legal if a.kind == "take"), None)
        monkeypatch.setattr(bhabhi_ai, "out_of_turn", first_take)
    table_id = (await m.open(1, 1, "bhabhi", 10, "Ann")).table_id
    table = m.tables[table_id]  # the live table: its computers' weighing and state, inside
    await m.set_option(table_id, 10, "take_hand", "any")
    for _ in range(3):
        await m.add_computer(table_id, 10)
    started = time.monotonic()
    await m.start(table_id, 10)
    await asyncio.sleep(0.2)
    assert table.weighed >= 0  # the computers looked when the window opened
    state = table.state
    assert state is not None
    if takes:
        # a computer took a hand at once, long before any computer's pause would end
        assert table.version >= 1 and time.monotonic() - started < 2.0
        assert any(not state.live[s] for s in range(4))
    else:
        assert table.version == 0 and all(state.live)
        if 0 in state.to_act:  # Ann leads: she may play now, nobody to wait for
            action = state.legal_actions(0)[0]
            await m.act(table_id, 10, 0, action)
            assert table.version == 1
