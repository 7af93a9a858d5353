"""Issue #50's acceptance test of long games, through the simulated Discord with the real bot on
a manual clock (nothing sleeps through a deadline).

Its first part — two tables opened in one channel at once, each in its own thread, both played
to their result with the alerts of each in its own thread, English and Japanese — is
tests/bot/test_e2e_threads.py::test_two_tables_in_one_channel_each_play_in_their_own_thread.

Here: a correspondence table of 22 for three people at 24 h a move, played over a simulated
week. Alice (English) goes away for two days, Bob (Japanese) has quiet hours in Tokyo's time,
Carol (Japanese) reads the daily digest; the bot restarts three times on the same database,
down two hours each time. Every move is made as a person makes it: a click on the Hand
button of the reminder (or of the turn alert) in the table's thread, then a card."""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot import tasks
from bot.client.deckhand import Deckhand
from bot.tables import ManualClock, Position, pace
from bot.tables import lobby as table_lobby
from tests.bot import sim_helpers
from tests.bot.sim_helpers import World, alerts_in, button, thread_of, verb_of
from tests.bot.test_e2e_games import make_a_move
from tests.discord_sim import SimMessage, SimulatedDiscord, SimUser

HOUR, DAY = 3600.0, pace.DAY
DOWN = 2 * HOUR  # how long the bot is down at each restart
#: Bob's quiet hours, 22:00-09:00 in Tokyo: 13:00-24:00 UTC
BOB_QUIET = pace.Quiet.of("Asia/Tokyo", 22, 9)
#: print what the players read (while developing: DECKHAND_SHOW_WORDS=1)
SHOW = bool(os.environ.get("DECKHAND_SHOW_WORDS"))


async def make_bot(db: str, clock: ManualClock) -> Deckhand:
    """The real bot on a database, its service on the test's clock."""
    return await sim_helpers.make_bot(db, clock=clock, ai_level="random")


@dataclass
class Week(World):
    """The server, its people (Alice, Bob and Carol), the running bot and the clock."""

    clock: ManualClock = field(default_factory=ManualClock)
    restarts: list[float] = field(default_factory=list)  # the instants the bot came back

    @property
    def alice(self) -> SimUser:
        return self.users[0]

    @property
    def bob(self) -> SimUser:
        return self.users[1]

    @property
    def carol(self) -> SimUser:
        return self.users[2]

    async def restart(self, down: float = DOWN) -> Deckhand:
        """The bot stops (as the harness stops it: the task cancelled, the socket dropped),
        its service's last heartbeat at the stop; ``down`` (two hours) later a new bot starts
        on the same database and clock."""
        bot = await super().restart(down)
        self.restarts.append(self.clock.now())
        return bot


@asynccontextmanager
async def week(tmp_path: Path, server: str) -> AsyncIterator[Week]:
    async with SimulatedDiscord(interaction_deadline=3.0) as sim:
        guild = sim.add_guild("Test Server", locale=server)
        channel = sim.add_channel(guild, "cards")
        alice = sim.add_user("Alice", locale="en-US")
        bob = sim.add_user("Bob", locale="ja")
        carol = sim.add_user("Carol", locale="ja")
        for user in (alice, bob, carol):
            sim.add_member(guild, user)
        clock = ManualClock()
        day0 = clock.now() - clock.now() % DAY  # midnight UTC
        clock.set(day0 + 10 * HOUR)
        db = sim_helpers.DATABASE or str(tmp_path / "deckhand.sqlite3")
        bot = await make_bot(db, clock)
        await sim.start(bot)
        here = Week(sim, guild, channel, [alice, bob, carol], bot, db, [bot], clock,
                    {"ai_level": "random"})
        try:
            yield here
        finally:
            await sim.stop_bot()
            await here.bot.tournaments.close()
            await here.bot.manager.close()
            await here.bot.store.close()


async def answer(w: Week, user: SimUser, command: str, options: dict[str, object],
                 locale: str) -> str:
    """A slash command's private answer."""
    r = await w.sim.slash(user, w.channel, command, options, locale=locale)
    assert r.status == "ok" and r.ephemeral, r
    if SHOW:
        print(f"[{user.name} /{command}] {r.content}")
    return r.content or ""


async def open_table(w: Week, host: SimUser, guests: list[SimUser], game: str,
                     timer: str | None) -> int:
    """/play, the guests join with Join, the host picks the pace, Start: the table's id."""
    r = await w.sim.slash(host, w.channel, "play", {"game": game})
    assert r.status == "ok" and r.message is not None, r
    await w.sim.settle()
    message_id = r.message.id

    def table() -> SimMessage:
        return w.sim.message(message_id)

    for guest in guests:
        r = await w.sim.click(guest, table(), button(table(), "join")["custom_id"])
        assert r.status == "ok", r
    if timer is not None:
        r = await w.sim.click(host, table(), button(table(), "opts")["custom_id"])
        assert r.message is not None, r
        [menu] = [s for s in r.message.selects() if ":timer:" in s["custom_id"]]
        r = await w.sim.select(host, r.message, menu["custom_id"], [timer])
        assert r.status == "ok", r
    await w.sim.settle()
    table_id = int(button(table(), "start")["custom_id"].split(":")[2])
    r = await w.sim.click(host, table(), button(table(), "start")["custom_id"])
    assert r.status == "ok", r
    await w.sim.settle()
    return table_id


def mine_or_hand(message: SimMessage) -> dict[str, object] | None:
    for b in message.buttons():
        if verb_of(b.get("custom_id")) in ("mine", "hand"):
            return b
    return None


async def settle(w: Week) -> None:
    """Let what the clock made due run to its end: the scheduler's callbacks, a computer's
    move for a missed turn, the database's answers and every message they make. The
    simulated Discord's settle returns at once when its wire has been quiet (without a turn
    of the event loop), so each round first lets the loop run."""
    for _ in range(400):
        await asyncio.sleep(0.005)  # (a turn of the loop: no deadline is waited through)
        await w.sim.settle(idle=0.05)
        busy = w.bot.manager._time.deadlines.running or any(
            t.drive_task is not None and not t.drive_task.done()
            for t in w.bot.manager.tables.values()) or any(
            # a reminder, a notice or a digest being written (a task of its own)
            t.get_coro().__qualname__.startswith("Reminders.")  # type: ignore[union-attr]
            for t in tasks._running if not t.done())
        if not busy:
            return
    raise AssertionError("the bot did not settle")


@dataclass
class Seen:
    """A message the bot posted, and the clock's instant it was first seen at."""

    at: float
    message: SimMessage
    position: Position  # the table as it was when the message was seen


#: what the table's thread says, in the server's language: a reminder, a missed deadline
WORDS = {
    "en-US": ("still waiting", "missed the deadline at 22: the computer made one move"),
    # a card is played, not a shogi piece moved ("指す"): the computer moves on their behalf
    "ja": ("であなたの手番が待っています",
           "期限を過ぎたため、コンピューターが代わりに1手進めました"),
}


@pytest.mark.parametrize("server", ["en-US", "ja"])
async def test_a_week_of_correspondence_with_away_quiet_hours_digest_and_restarts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: str) -> None:
    rng = random.Random(22)
    # the deal fixed, so the week's turns (who leads, hence whose turn when) are the same
    # every run
    monkeypatch.setattr(table_lobby, "secrets", SimpleNamespace(randbits=lambda bits: 2_202_222))
    still_waiting, missed = WORDS[server]
    async with week(tmp_path, server) as w:
        sim, clock = w.sim, w.clock
        alice, bob, carol = w.alice, w.bob, w.carol
        start = clock.now()
        day0 = start - start % DAY
        # each sets what they want, in their own language
        said = await answer(w, bob, "settings timezone", {"name": "Asia/Tokyo"}, "ja")
        assert "Asia/Tokyo" in said
        said = await answer(w, bob, "settings quiet", {"from": 22, "to": 9}, "ja")
        assert "22:00" in said and "09:00" in said and "Asia/Tokyo" in said
        said = await answer(w, carol, "settings digest", {"on": True}, "ja")
        assert "09:00" in said
        # a live table (no timer) and the correspondence one, in the same channel
        live = await open_table(w, bob, [alice], "high-card", None)
        table_id = await open_table(w, alice, [bob, carol], "twenty-two", "24h")
        position = await w.bot.manager.position(table_id)
        assert position.timer == "24h" and position.on_deadline == "computer"
        assert position.thread_id is not None
        thread = sim.channel(str(position.thread_id))
        assert thread.parent_id == w.channel.id and thread_of(sim, sim.message(thread.id))
        assert (await w.bot.manager.position(live)).thread_id != position.thread_id
        people = {int(u.id): u for u in (alice, bob, carol)}
        quiet = {int(bob.id): BOB_QUIET}

        seen: dict[str, Seen] = {}  # message id -> when first seen
        made: list[tuple[int, int, str]] = []  # (version, user, button's message id)
        decided: set[int] = set()  # Carol's turns so far
        skipped: set[int] = set()  # versions whose deadline Carol lets pass
        old_clicks = 0  # hands opened after a restart with a button from before it
        due_at_nine: set[int] = set()  # days Carol's move waited at 09:00 UTC
        away_at, away_until = day0 + 3 * DAY + 15 * HOUR, None
        restart_at = [day0 + d * DAY + 12 * HOUR for d in (1, 3, 5)]
        end = start + 7 * DAY

        async def look() -> Position:
            """Note the new messages of the thread and the DMs, at the clock's instant."""
            shown = await w.bot.manager.position(table_id)
            for m in [*sim.messages(thread), *sim.dms(alice), *sim.dms(bob), *sim.dms(carol)]:
                if m.id not in seen:
                    seen[m.id] = Seen(clock.now(), m, shown)
                    if SHOW:
                        print(f"[{clock.now() - day0:>9.0f}] {m.content} {m.embeds or ''}")
            return shown

        while clock.now() < end:
            now = clock.now()
            shown = await look()
            assert shown.status == "playing", shown
            [seat] = shown.to_act
            due = shown.seats[seat].user_id
            assert due is not None and due in people, shown.seats[seat]
            deadline = shown.deadline
            assert deadline is not None and deadline[0] == shown.version
            if now % DAY == 9 * HOUR and due == int(carol.id):
                due_at_nine.add(int(now // DAY))
            # the reminder of this turn, if it came; the person answers it an hour later
            reminded = [s for s in seen.values() if s.position.version == shown.version
                        and f"<@{due}>" in s.message.content and mine_or_hand(s.message)
                        and still_waiting in s.message.content]
            wants: float | None = None
            away = away_until is not None and now < away_until and due == int(alice.id)
            if due == int(carol.id) and shown.version not in decided:
                decided.add(shown.version)
                if len(decided) % 2 == 1:  # her first turn, third...: she lets time run out
                    skipped.add(shown.version)
            if not away and shown.version not in skipped:
                wants = (reminded[0].at + HOUR) if reminded else deadline[1] - HOUR
            if wants is not None and wants <= now:
                user = people[due]
                where = reminded[-1].message if reminded else [
                    a for a in alerts_in(sim, thread) if f"<@{due}>" in a.content][-1]
                clicked = mine_or_hand(where)
                assert clicked is not None
                r = await sim.click(user, where, str(clicked["custom_id"]), locale=user.locale)
                assert r.status == "ok" and r.message is not None and r.message.ephemeral, r
                assert await make_a_move(w, user, r.message, rng), r.message.text
                await sim.settle()
                assert (await w.bot.manager.position(table_id)).version == shown.version + 1
                made.append((shown.version, due, where.id))
                continue
            if restart_at and restart_at[0] <= now:
                restart_at.pop(0)
                before = shown
                moves = await w.bot.store.actions(table_id)
                await w.restart()
                after = await w.bot.manager.position(table_id)
                # nothing lost, and the time down added to the running deadline
                assert after.version == before.version
                assert await w.bot.store.actions(table_id) == moves
                assert after.deadline == (before.version, deadline[1] + DOWN)
                assert sim.message(str(after.message_id)).content == sim.message(
                    str(before.message_id)).content
                # a Hand button posted before the restart opens the hand after it
                old = [m for m in [*sim.messages(thread), *sim.dms(people[due])]
                       if m.id in seen and seen[m.id].at < w.restarts[-1] and mine_or_hand(m)
                       and (f"<@{due}>" in m.content or verb_of(
                           mine_or_hand(m)["custom_id"]) == "mine")]  # type: ignore[index]
                assert old, "no Hand button from before the restart"
                clicked = mine_or_hand(old[-1])
                assert clicked is not None
                user = people[due]
                r = await sim.click(user, old[-1], str(clicked["custom_id"]), locale=user.locale)
                assert r.status == "ok" and r.message is not None and r.message.ephemeral, r
                assert [b for b in r.message.buttons() if verb_of(b.get("custom_id")) == "act"
                        ] or r.message.selects(), r.message.text  # their cards, to play
                old_clicks += 1
                continue
            if away_until is None and away_at <= now:
                said = await answer(w, alice, "settings away", {"days": 2}, "en-US")
                assert "away for 2 days" in said, said
                away_until = now + 2 * DAY
                if due == int(alice.id):  # her running clock stood still
                    shown = await w.bot.manager.position(table_id)
                    assert shown.deadline == (deadline[0], deadline[1] + 2 * DAY)
                continue
            # the next instant something happens
            upcoming = [end, *(d.instant for d in w.bot.manager._time.deadlines.pending())]
            upcoming += [u for u in (wants, away_until) if u is not None]
            upcoming += restart_at[:1] + ([away_at] if away_until is None else [])
            upcoming.append(now - now % DAY + 9 * HOUR + (DAY if now % DAY >= 9 * HOUR else 0))
            clock.set(max(now, min(u for u in upcoming if u > now)))
            await settle(w)
        await look()
        shown = await w.bot.manager.position(table_id)
        assert shown.status == "playing"
        assert len(w.restarts) == 3 and away_until is not None

        # 0 moves lost: every move a person made is stored, with the deadlines' moves
        stored = await w.bot.store.actions(table_id)
        assert len(stored) == shown.version
        people_moves = [(a.idx, a.user_id) for a in stored if a.how != "timeout"]
        assert [(v, u) for v, u, _ in made] == people_moves
        timeouts = [a.idx for a in stored if a.how == "timeout"]

        # each deadline applied once: a notice in the thread per missed turn, at its instant
        notices = [s for s in seen.values() if missed in s.message.content]
        assert timeouts and sorted(timeouts) == sorted(skipped & set(range(shown.version)))
        assert len(notices) == len(timeouts)
        for s in notices:
            assert "Carol" in s.message.content and mine_or_hand(s.message)
            # (seen at the deadline of the turn the computer moved for)
            assert s.position.version - 1 in timeouts

        # each reminder at 80 % of its turn's time, none in quiet hours, one per turn
        reminders = [s for s in seen.values() if still_waiting in s.message.content]
        assert reminders
        turns = []
        moved = 0  # Bob's reminders moved out of his quiet hours
        for s in reminders:
            [who] = [u for u in people if f"<@{u}>" in s.message.content]
            deadline = s.position.deadline
            assert deadline is not None
            turns.append(deadline[0])
            expected = pace.remind_at(deadline[1] - DAY, deadline[1], quiet.get(who))
            assert s.at == expected, (s.at - day0, deadline[1] - day0, s.message.content)
            if who in quiet:
                assert not quiet[who].contains(s.at)
                moved += s.at > deadline[1] - (1 - pace.REMIND_AT) * DAY
        assert len(turns) == len(set(turns))
        assert moved >= 1
        assert any(f"<@{bob.id}>" in s.message.content for s in reminders)

        # the digest: a DM to Carol at 09:00 on each day her move waited then, in Japanese
        digests = [s for s in seen.values() if s.message in sim.dms(carol)]
        assert digests and sorted(int(s.at // DAY) for s in digests) == sorted(due_at_nine)
        for s in digests:
            assert s.at % DAY == 9 * HOUR
            assert "あなたの番を待っている卓(1)" in s.message.content, s.message.content
        assert not sim.dms(alice) and not sim.dms(bob)
        assert old_clicks == 3  # after each restart, a button from before it opened a hand

        # /tables lists both kinds, the live and the correspondence table
        r = await sim.slash(alice, w.channel, "tables")
        assert r.message is not None and r.message.embeds, r
        listed = r.message.embeds[0]["description"]
        if SHOW:
            print(listed)
        assert f"#{live} " in listed and f"#{table_id} " in listed
        assert sim.spec_errors == [], sim.spec_errors[:3]
        assert sim.client_errors == []
