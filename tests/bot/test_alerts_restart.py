"""A restart pings nobody again: the turn alert posted before it (which Discord kept) stays
when it still names the people the table waits for, its deadline brought up to date by an
edit; when they changed while the bot was down, the alert is replaced. Through the simulated
Discord, on a manual clock."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.tables import Position
from tests.bot.sim_helpers import alerts_in, button
from tests.bot.test_e2e_long_games import HOUR, Week, make_bot, open_table, settle, week
from tests.bot.test_faults_discord import ALERT_DELETE
from tests.discord_sim import SimChannel, SimMessage


async def table_and_alert(w: Week, pace: str) -> tuple[Position, SimChannel, SimMessage]:
    """A table of High Card for Alice and Bob at that pace, its thread and its one alert."""
    table_id = await open_table(w, w.alice, [w.bob], "high-card", pace)
    await settle(w)
    position = await w.bot.manager.position(table_id)
    assert position.thread_id is not None
    thread = w.sim.channel(str(position.thread_id))
    [alert] = alerts_in(w.sim, thread)
    [due] = position.people_due
    assert f"<@{due}>" in alert.content
    return position, thread, alert


def posted_in(w: Week, channel: SimChannel, since: int) -> list[str]:
    """The messages posted in a channel by the requests from ``since`` on (by the bot's token,
    or as an interaction's follow-up)."""
    return [q.path for q in w.sim.requests[since:]
            if q.method == "POST" and isinstance(q.response, dict)
            and str(q.response.get("channel_id")) == str(channel.id)]


async def test_a_restart_keeps_the_alert_that_still_names_who_is_due(tmp_path: Path) -> None:
    async with week(tmp_path, "en-US") as w:
        before, thread, alert = await table_and_alert(w, "24h")
        assert before.deadline is not None
        assert f"<t:{int(before.deadline[1])}:R>" in alert.content
        for restart in (1, 2):
            since = len(w.sim.requests)
            await w.restart()  # down two hours
            await settle(w)
            assert posted_in(w, thread, since) == [], restart  # nobody pinged again
            assert [a.id for a in alerts_in(w.sim, thread)] == [alert.id], restart
            kept = w.sim.message(alert.id)
            assert not kept.deleted
            # the downtime was added to the deadline: the alert's words say so (an edit)
            now = await w.bot.manager.position(before.table_id)
            assert now.people_due == before.people_due and now.deadline is not None
            assert now.deadline[1] == before.deadline[1] + restart * 2 * HOUR
            assert f"<t:{int(now.deadline[1])}:R>" in kept.content, kept.content
        # its Hand button opens the hand of the person it names
        [due] = before.people_due
        person = w.alice if int(w.alice.id) == due else w.bob
        r = await w.sim.click(person, kept, button(kept, "hand")["custom_id"])
        assert r.status == "ok" and r.ephemeral, r
        assert w.sim.spec_errors == []


async def test_an_alert_whose_people_changed_while_the_bot_was_down_is_replaced(
        tmp_path: Path) -> None:
    """Discord refusing the old alert's deletion for now (503) only puts it off."""
    async with week(tmp_path, "en-US") as w:
        before, thread, alert = await table_and_alert(w, "1h")
        assert before.deadline is not None
        deadline = before.deadline[1]
        # the bot was still alive when the deadline passed, and stopped before acting on it:
        # the deadline is not moved by the downtime, and is applied at the start
        await w.sim.stop_bot()
        await w.bot.manager.close()
        await w.bot.store.mark_alive(deadline + 30)
        await w.bot.store.close()
        w.clock.set(deadline + 2 * HOUR)
        since = len(w.sim.requests)
        deletes = w.sim.faults.fail(503, routes=[*ALERT_DELETE], count=1)
        w.bot = await make_bot(w.db, w.clock)
        await w.sim.start(w.bot)
        await settle(w)
        for _ in range(200):  # the deletion tried again (a real second or so later)
            if w.sim.message(alert.id).deleted:
                break
            await asyncio.sleep(0.05)
        assert len(deletes.refused) == 1
        now = await w.bot.manager.position(before.table_id)
        assert now.people_due and now.people_due != before.people_due  # the computer moved
        [due] = now.people_due
        assert w.sim.message(alert.id).deleted
        [fresh] = alerts_in(w.sim, thread)
        assert fresh.id != alert.id and f"<@{due}>" in fresh.content
        assert len(posted_in(w, thread, since)) >= 1
        assert w.sim.spec_errors == []
