"""Moves of several cards on the simulated Discord: chosen by ticking their cards in a
multi-select of the live panel, in every game that has them; a set that is no legal move is
answered on the panel in words and nothing is applied."""

from __future__ import annotations

import asyncio
import itertools
import random
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import t
from cogs import ids
from cogs.panel_views import set_key, value_codes
from tests.bot.sim_helpers import World, button, verb_of, world
from tests.bot.test_e2e_games import open_table
from tests.bot.test_e2e_panel import Clicks, move_on_panel
from tests.discord_sim import SimMessage

#: (game, options, kind of move, whether some ticked set of that kind is no legal move)
CASES = [
    ("twenty-two", {}, "exchange", False),
    ("twenty-two", {}, "play", True),
    ("1234", {}, "play", True),
    ("bear", {}, "discard", False),
    ("sugekari-21", {"exchange": "rotate"}, "exchange", False),
]


def set_menu(panel: SimMessage, kind: str) -> dict[str, Any] | None:
    found = [s for s in panel.selects() if verb_of(s["custom_id"]) == "set"
             and s["custom_id"].rsplit(":", 1)[-1] == kind]
    return found[0] if found else None


def wrong_set(menu: dict[str, Any], named: set[tuple[str, ...]]) -> list[str] | None:
    """Values to tick that name no legal move (within the menu's bounds), if there are any."""
    values = [o["value"] for o in menu["options"]]
    for size in range(menu["min_values"], menu["max_values"] + 1):
        for chosen in itertools.islice(itertools.combinations(values, size), 5000):
            if value_codes(chosen) not in named:
                return list(chosen)
    return None


def _version(menu: dict[str, Any]) -> int:
    parsed = ids.parse(menu["custom_id"])
    assert parsed is not None, menu["custom_id"]
    return parsed.version


def overtaken(answer: SimMessage, menu: dict[str, Any], version_now: int) -> bool:
    """Whether a click was overtaken by a computer's move: the panel says the table moved on
    (the position now, nothing of the click applied), which only a move past the menu's
    version may make it say."""
    if t("panel-moved", "en") not in answer.text:
        return False
    assert version_now > _version(menu), answer.text
    return True


async def check_sets(w: World, user: Any, seat: int, panel: SimMessage, kind: str,
                     seen: dict[str, int]) -> SimMessage:
    """On a panel with a menu of cards: a wrong set (if one exists), then a legal one.

    The computers choose in the same phase (an exchange) while the test reads the panel, so a
    panel older than the table is left for its refresh, and a click overtaken on its way by a
    computer's move must be answered "moved on" with nothing applied."""
    table = w.bot.manager.tables[1]
    assert table.state is not None
    menu = set_menu(panel, kind)
    assert menu is not None and menu["max_values"] >= menu["min_values"] >= 1
    if _version(menu) != table.version:  # the live panel is about to be edited
        return panel
    assert menu["max_values"] > 1  # a multi-select
    legal = [a for a in table.state.legal_actions(seat) if a.kind == kind]
    named = {set_key(str(c) for c in a.cards) for a in legal}
    wrong = wrong_set(menu, named)
    if wrong is not None and not seen.get("wrong"):
        before, hands = table.version, str(table.state.view(seat)["hand"])
        r = await w.sim.select(user, panel, menu["custom_id"], wrong)
        assert r.status == "ok" and r.message is not None and r.message.id == panel.id, r
        if overtaken(r.message, menu, table.version):
            return r.message
        assert "nothing happened" in r.message.text, r.message.text
        assert table.version == before and str(table.state.view(seat)["hand"]) == hands
        assert set_menu(r.message, kind) is not None  # the choice is offered again
        seen["wrong"] = seen.get("wrong", 0) + 1
        panel = r.message
        menu = set_menu(panel, kind)
        assert menu is not None
    offered = {o["value"].split("~")[0] for o in menu["options"]}
    several = [a for a in legal if menu["min_values"] <= len(a.cards) <= menu["max_values"]
               and {str(c) for c in a.cards} <= offered and len(a.cards) > 1]
    if not several:
        return panel
    action = random.Random(len(several)).choice(several)
    codes = [str(c) for c in action.cards]
    values = []
    for option in menu["options"]:
        code = option["value"].split("~")[0]
        if code in codes:
            codes.remove(code)
            values.append(option["value"])
    before = table.version
    r = await w.sim.select(user, panel, menu["custom_id"], values)
    assert r.status == "ok" and r.message is not None and r.message.id == panel.id, r
    if overtaken(r.message, menu, table.version):
        return r.message
    assert table.version > before, "the ticked set was not played"  # at once: no Confirm
    assert "nothing happened" not in r.message.text
    seen["applied"] = seen.get("applied", 0) + 1
    assert r.message is not None
    return r.message


async def bid_high(w: World, user: Any, panel: SimMessage, menu: dict[str, Any]) -> None:
    """Bear's bid in its two parts: the highest amount, then its first game."""
    amounts = [o["value"] for o in menu["options"] if o["value"].isdigit()]
    r = await w.sim.select(user, panel, menu["custom_id"], [max(amounts, key=int)])
    assert r.status == "ok" and r.message is not None, r
    second = [m for m in r.message.selects() if verb_of(m["custom_id"]) == "pick"]
    assert second, r.message.selects()
    r = await w.sim.select(user, r.message, second[0]["custom_id"],
                           [second[0]["options"][0]["value"]])
    assert r.status == "ok", r


@pytest.mark.parametrize(("game_id", "options", "kind", "has_wrong"), CASES,
                         ids=[f"{c[0]}-{c[2]}" for c in CASES])
async def test_a_set_of_cards_is_ticked_in_a_multi_select(
        tmp_path: Path, game_id: str, options: dict[str, str], kind: str,
        has_wrong: bool) -> None:
    async with world(tmp_path, people=2) as w:
        humans = w.users[:2]
        seats = 3 if game_id == "bear" else 4 if game_id != "1234" else 3
        # the games' own lengths, so that sets come up often enough (the test stops early)
        await open_table(w, game_id, humans, seats, options)
        panels: dict[int, SimMessage] = {}
        for user in humans:
            table_message = w.table_message()
            r = await w.sim.click(user, table_message, button(table_message, "hand")["custom_id"])
            assert r.message is not None
            panels[int(user.id)] = r.message
        rng, clicks, seen = random.Random(3), Clicks(), {}
        for _ in range(4000):
            await w.sim.settle(idle=0.01)
            table = w.bot.manager.tables.get(1)
            if table is None or table.state is None or table.state.over \
                    or (seen.get("applied", 0) >= 2 and (seen.get("wrong") or not has_wrong)):
                break
            for user in humans:
                panel = w.sim.message(panels[int(user.id)].id)
                seat = next(s for s, i in enumerate(table.seats) if i.user_id == int(user.id))
                if set_menu(panel, kind) is not None:
                    await check_sets(w, user, seat, panel, kind, seen)
                    break
                parts = [s for s in panel.selects() if verb_of(s["custom_id"]) == "part"]
                if parts and kind == "discard":  # bid high, so that a person wins the kitty
                    await bid_high(w, user, panel, parts[0])
                    break
                if [s for s in panel.selects() + panel.buttons()
                        if verb_of(s["custom_id"]) in ("act", "pick", "part", "set")]:
                    await move_on_panel(w, user, panel, rng, clicks)
                    break
            else:  # nobody may act: the computers are thinking
                await asyncio.sleep(0.01)
        assert seen.get("applied", 0) >= 1, f"no {kind} of several cards came up"
        if has_wrong:
            assert seen.get("wrong", 0) >= 1, "no wrong set was tried"
        assert w.sim.spec_errors == [], w.sim.spec_errors[:3]
        assert w.sim.client_errors == []
