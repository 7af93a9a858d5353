"""The host chooses a table's pace in the lobby: live timers or a deadline per move over days,
and, over days, what a missed deadline does (#50 item 2), in English and Japanese."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.sim_helpers import World, button, world
from tests.discord_sim import SimMessage

CASES = [
    ("en-US", "1 day a move", "When a deadline is missed: dropped at the second miss"),
    ("ja", "1手1日", "期限を過ぎたとき：2回続けて過ぎたら退席"),
]


async def host_options(w: World) -> SimMessage:
    """Alice opens a table of the test game, Bob joins, and Alice opens her options: the menu."""
    alice, bob = w.users[:2]
    r = await w.sim.slash(alice, w.channel, "play", {"game": "high-card"})
    assert r.status == "ok", r
    await w.sim.settle()
    message = w.table_message()
    r = await w.sim.click(bob, message, button(message, "join")["custom_id"])
    assert r.status == "ok", r
    r = await w.sim.click(alice, message, button(message, "opts")["custom_id"])
    assert r.message is not None, r
    return r.message


@pytest.mark.parametrize(("locale", "pace_words", "deadline_words"), CASES)
async def test_the_host_chooses_a_pace_over_days_and_what_a_missed_deadline_does(
        tmp_path: Path, locale: str, pace_words: str, deadline_words: str) -> None:
    async with world(tmp_path, people=2, locale=locale) as w:
        alice = w.users[0]
        menu = await host_options(w)
        [timer] = [s for s in menu.selects() if ":timer:" in s["custom_id"]]
        offered = [o["value"] for o in timer["options"]]
        assert offered == ["off", "relaxed", "normal", "fast", "1h", "8h", "24h", "3d", "7d"]
        # the choice of what a missed deadline does shows only for a pace over days
        assert not [s for s in menu.selects() if ":ondl:" in s["custom_id"]]
        r = await w.sim.select(alice, menu, timer["custom_id"], ["24h"])
        assert r.status == "ok" and r.message is not None, r
        [missed] = [s for s in r.message.selects() if ":ondl:" in s["custom_id"]]
        assert [o["value"] for o in missed["options"]] == ["computer", "drop"]
        assert [o["value"] for o in missed["options"] if o.get("default")] == ["computer"]
        r = await w.sim.select(alice, r.message, missed["custom_id"], ["drop"])
        assert r.status == "ok", r
        await w.sim.settle()
        shown = str(w.table_message().embeds)
        assert pace_words in shown and deadline_words in shown, shown
        live = w.bot.manager.live_in(int(w.channel.id))
        assert live is not None and (live.timer, live.on_deadline) == ("24h", "drop")


@pytest.mark.parametrize(("locale", "mark"), [("en-US", "(away until <t:"), ("ja", "まで不在）")])
async def test_the_others_see_who_is_away_and_until_when(
        tmp_path: Path, locale: str, mark: str) -> None:
    """Away for a while (/settings away) shows on the table message: "away until …" (#50 item
    3), as a Discord timestamp each reader sees in their own time."""
    async with world(tmp_path, people=2, locale=locale) as w:
        alice, bob = w.users[:2]
        menu = await host_options(w)
        [timer] = [s for s in menu.selects() if ":timer:" in s["custom_id"]]
        r = await w.sim.select(alice, menu, timer["custom_id"], ["24h"])
        assert r.status == "ok", r
        message = w.table_message()
        r = await w.sim.click(alice, message, button(message, "start")["custom_id"])
        assert r.status == "ok", r
        await w.sim.settle()
        assert mark not in str(w.table_message().embeds)
        r = await w.sim.slash(bob, w.channel, "settings away", {"days": 2})
        assert r.status == "ok", r
        shown = await w.table_showing(mark)
        assert mark in shown, shown
        until = w.bot.manager.live_in(int(w.channel.id)).seats[1].away_until  # type: ignore[union-attr]
        assert until is not None and f"<t:{int(until)}:f>" in shown
