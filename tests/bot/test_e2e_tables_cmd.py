"""/tables, the settings of long games, and the buttons that open a person's own hand from a
list, a reminder or the digest, through the simulated Discord (#50 items 2-5)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.tables import DeadlineMissed, DigestDue, TurnReminder, pace
from tests.bot.sim_helpers import World, verb_of, world
from tests.discord_sim import SimMessage, SimUser


def mine_buttons(message: SimMessage) -> list[dict[str, Any]]:
    return [b for b in message.buttons() if verb_of(b.get("custom_id")) == "mine"]


async def posted(w: World, messages: Callable[[], list[SimMessage]], words: str
                 ) -> SimMessage:
    """The message with those words, once the bot has posted it (sent from a task)."""
    for _ in range(200):
        found = [m for m in messages() if words in m.content]
        if found:
            return found[-1]
        await asyncio.sleep(0.025)  # (a poll: no deadline waited through)
    raise AssertionError(f"no message saying {words!r}")


async def lobby(w: World, host: SimUser, guest: SimUser, channel: Any = None) -> int:
    """A table of High Card for two people, started; its id."""
    before = set(w.bot.manager.tables)
    r = await w.sim.slash(host, channel or w.channel, "play", {"game": "high-card"})
    assert r.status == "ok", r
    await w.sim.settle()
    [table_id] = set(w.bot.manager.tables) - before
    await w.bot.manager.join(table_id, int(guest.id), guest.name)
    await w.bot.manager.start(table_id, int(host.id))
    await w.sim.settle()
    return table_id


async def test_tables_with_none_says_so_and_how_to_start_one(tmp_path: Path) -> None:
    async with world(tmp_path, people=1) as w:
        alice = w.users[0]
        r = await w.sim.slash(alice, w.channel, "tables")
        assert r.ephemeral and "don't sit at any open table" in (r.content or ""), r
        assert "/play" in (r.content or "")
        r = await w.sim.slash(alice, w.channel, "tables", locale="ja")
        assert r.ephemeral and "参加中の卓はありません" in (r.content or ""), r
        commands = {c["name"]: c for c in w.sim.commands()}
        assert commands["tables"]["description_localizations"]["ja"].startswith("このサーバー")
        assert w.sim.spec_errors == []


async def test_tables_lists_both_tables_with_links_and_hand_buttons(tmp_path: Path) -> None:
    async with world(tmp_path, people=3) as w:
        alice, bob, carol = w.users
        first = await lobby(w, alice, bob)
        second = await lobby(w, carol, alice)
        elsewhere = w.sim.add_channel(w.guild, "chat")
        r = await w.sim.slash(alice, elsewhere, "tables")
        assert r.status == "ok" and r.ephemeral and r.message is not None, r
        text = r.message.embeds[0]["description"]
        for table_id in (first, second):
            position = await w.bot.manager.position(table_id)
            [line] = [x for x in text.splitlines() if f"#{table_id} " in x]
            thread = position.thread_id
            where = (f"/{thread}" if thread is not None
                     else f"/{position.channel_id}/{position.message_id}")
            assert f"https://discord.com/channels/{w.guild.id}{where})" in line, line
            assert ("your move" in line) == (int(alice.id) in position.people_due), line
        buttons = mine_buttons(r.message)
        assert [int(b["custom_id"].split(":")[2]) for b in buttons] == [first, second]
        # a hand button opens Alice's own live panel, from this other channel
        r = await w.sim.click(alice, r.message, buttons[1]["custom_id"])
        assert r.status == "ok" and r.message is not None and r.message.ephemeral, r
        assert "High Card" in r.message.text
        # Bob sits at the first table alone: his list has that one
        r2 = await w.sim.slash(bob, elsewhere, "tables")
        assert r2.message is not None and [
            int(b["custom_id"].split(":")[2]) for b in mine_buttons(r2.message)] == [first]
        r = await w.sim.slash(alice, elsewhere, "tables", locale="ja")
        assert r.message is not None and "卓へ移動" in json.dumps(r.message.embeds,
                                                               ensure_ascii=False)
        assert w.sim.spec_errors == []


async def test_a_reminders_hand_button_works_and_an_old_one_says_the_game_ended(
        tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        alice, bob = w.users
        table_id = await lobby(w, alice, bob)
        cog: Any = w.bot.get_cog("PlayCog")
        position = await w.bot.manager.position(table_id)
        seat = position.to_act[0]
        due = next(u for u in (alice, bob) if int(u.id) == position.seats[seat].user_id)
        await cog.reminders.on_event(TurnReminder(position, seat=seat, user_id=int(due.id)))
        await w.sim.settle()
        where = w.sim.channel(str(position.thread_id)) if position.thread_id else w.channel
        reminder = await posted(w, lambda: w.sim.messages(where), "still waiting")
        assert f"<@{due.id}>" in reminder.content
        [hand] = mine_buttons(reminder)
        r = await w.sim.click(due, reminder, hand["custom_id"])
        assert r.status == "ok" and r.message is not None and r.message.ephemeral, r
        # a missed deadline is said where the table plays, with the hand button
        await cog.reminders.on_event(DeadlineMissed(position, seat=seat, dropped=False))
        await w.sim.settle()
        notice = await posted(w, lambda: w.sim.messages(where), "missed the deadline")
        assert mine_buttons(notice)
        # the digest: a DM with a button per table
        await cog.prefs.change(int(due.id), dm=False, locale="ja")
        await cog.reminders.on_person(DigestDue(int(due.id), (position,)))
        await w.sim.settle()
        digest = await posted(w, lambda: w.sim.dms(due), "あなたの番を待っている卓")
        [from_dm] = mine_buttons(digest)
        r = await w.sim.click(due, digest, from_dm["custom_id"], locale="ja")
        assert r.status == "ok" and r.message is not None, r
        assert "High Card" in r.message.text or "ハイカード" in r.message.text
        # the game ends: the old reminder's button says so
        await w.bot.manager.cancel(table_id, int(alice.id))
        await w.sim.settle()
        r = await w.sim.click(due, reminder, hand["custom_id"])
        assert r.ephemeral and "That game has ended" in (r.content or ""), r
        r = await w.sim.click(due, digest, from_dm["custom_id"], locale="ja")
        assert "そのゲームは終了しました" in (r.content or ""), r
        assert w.sim.spec_errors == []


async def test_quiet_hours_and_time_zone_set_and_refused(tmp_path: Path) -> None:
    async with world(tmp_path, people=1) as w:
        alice = w.users[0]
        sim = w.sim
        r = await sim.slash(alice, w.channel, "settings timezone", {"name": "Mars/Olympus"})
        assert "don't know the time zone" in (r.content or ""), r
        r = await sim.slash(alice, w.channel, "settings timezone", {"name": "Asia/Tokyo"})
        assert "Asia/Tokyo" in (r.content or "") and "now" in (r.content or ""), r
        r = await sim.slash(alice, w.channel, "settings quiet", {"from": 22, "to": 7})
        assert "22:00 to 07:00 (Asia/Tokyo)" in (r.content or ""), r
        stored = await w.bot.store.user_settings(int(alice.id))
        assert (stored.tz, stored.quiet_from, stored.quiet_to) == ("Asia/Tokyo", 22, 7)
        r = await sim.slash(alice, w.channel, "settings quiet", {"from": 22})
        assert "both hours" in (r.content or ""), r
        r = await sim.slash(alice, w.channel, "settings quiet", {"from": 5, "to": 5})
        assert "different hours" in (r.content or ""), r
        r = await sim.slash(alice, w.channel, "settings quiet", {}, locale="ja")
        assert "静かな時間はオフ" in (r.content or ""), r
        stored = await w.bot.store.user_settings(int(alice.id))
        assert (stored.quiet_from, stored.quiet_to) == (None, None)
        r = await sim.slash(alice, w.channel, "settings timezone", {"name": "Nowhere"},
                            locale="ja")
        assert "「Nowhere」というタイムゾーンはありません" in (r.content or ""), r
        r = await sim.slash(alice, w.channel, "settings digest", {"on": True})
        assert "09:00 (Asia/Tokyo)" in (r.content or ""), r
        assert (await w.bot.store.user_settings(int(alice.id))).digest
        commands = {c["name"]: c for c in sim.commands()}
        settings = {o["name"]: o for o in commands["settings"]["options"]}
        assert {"away", "back", "quiet", "timezone", "digest"} <= set(settings)
        assert settings["away"]["description_localizations"]["ja"]
        assert w.sim.spec_errors == []


async def test_time_zone_autocomplete_offers_common_and_matching_zones(tmp_path: Path) -> None:
    async with world(tmp_path, people=1) as w:
        alice = w.users[0]
        r = await w.sim.autocomplete(alice, w.channel, "settings timezone", {"name": ""},
                                     "name")
        assert r.choices is not None and "UTC" in [c["value"] for c in r.choices]
        r = await w.sim.autocomplete(alice, w.channel, "settings timezone",
                                     {"name": "tokyo"}, "name")
        assert r.choices is not None and [c["value"] for c in r.choices] == ["Asia/Tokyo"]


async def test_away_within_and_over_the_budget(tmp_path: Path) -> None:
    async with world(tmp_path, people=1) as w:
        alice = w.users[0]
        r = await w.sim.slash(alice, w.channel, "settings away", {"days": 2})
        assert "away for 2 days" in (r.content or ""), r
        until = (await w.bot.store.user_settings(int(alice.id))).away_until
        assert until is not None and f"<t:{int(until)}:F>" in (r.content or "")
        r = await w.sim.slash(alice, w.channel, "settings back")
        assert "no longer away" in (r.content or ""), r
        assert (await w.bot.store.user_settings(int(alice.id))).away_until is None
        # more than the year's budget: how many days are left
        now = time.time()
        spent = pace.away_accrued(now) - 3 * pace.DAY  # three days left this year
        stored = await w.bot.store.user_settings(int(alice.id))
        await w.bot.store.set_user_settings(int(alice.id), dataclasses.replace(
            stored, away_used=spent, away_year=datetime.fromtimestamp(now, UTC).year))
        r = await w.sim.slash(alice, w.channel, "settings away", {"days": 14}, locale="ja")
        assert "残りの不在日数は 3 日" in (r.content or ""), r
        assert "14日間の不在は設定できません" in (r.content or ""), r
        assert w.sim.spec_errors == []
