"""Tournaments through the simulated Discord with the real bot (#51): a 13-person Swiss of 22 at
tables of four over three rounds with a no-show and a restart mid-round, standings checked by
hand and shown in English and Japanese; a 10-person Spar elimination, two of each table through,
its bracket shown; a duplicate round of Finesse whose tables hold the same deals; and the bad
inputs. On a manual clock (a deadline passes when the test moves the clock): a seated player
who never moves, timed out and dropped across a restart, and a round's table half-made by a
crash, finished and announced at the restart. Sign-ups, check-ins and the organiser's
commands are clicks and slash commands; the players' moves go through the table door (to keep
the test fast), and every message the players read is checked through the simulated
Discord."""

from __future__ import annotations

import asyncio
import io
import os
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.tables import ManualClock, Refusal
from bot.tournaments import place_points
from bot.tournaments.model import Seating, TableResult
from bot.tournaments.pairing import advancing
from bot.tournaments.store import RoundTableRow
from cogs import ids
from tests.bot.sim_helpers import World, button, world
from tests.discord_sim import SimChannel, SimMessage, SimUser

NAMES = ["Gina", "Hugo", "Ines", "Jack", "Kate", "Liam", "Mona", "Nils", "Olga", "Pete"]
#: where the standings pictures are saved to be looked at (DECKHAND_PICTURES=<folder>)
PICTURES = os.environ.get("DECKHAND_PICTURES")


def people(w: World, count: int) -> list[SimUser]:
    """The world's six people and as many more as needed, all members of its server."""
    found = list(w.users)
    for name in NAMES[:max(0, count - len(found))]:
        user = w.sim.add_user(name)
        w.sim.add_member(w.guild, user)
        found.append(user)
    return found[:count]


def minutes_ahead(minutes: float) -> str:
    """A start as the command takes it (UTC, to the minute)."""
    return datetime.fromtimestamp(time.time() + 60 * minutes, UTC).strftime("%Y-%m-%d %H:%M")


async def create(w: World, who: SimUser, channel: SimChannel, **options: Any) -> Any:
    settings: dict[str, Any] = {"start": minutes_ahead(30), "checkin": 60, "pace": "relaxed"}
    settings.update(options)
    r = await w.sim.slash(who, channel, "tournament create", settings)
    await w.sim.settle()
    return r


def signup_message(w: World, channel: SimChannel) -> SimMessage:
    found = [m for m in w.sim.messages(channel)
             if any(ids.parse(str(b.get("custom_id"))) is not None
                    and str(b.get("custom_id")).startswith("dh:tjoin") for b in m.buttons())]
    assert found, "no sign-up message"
    return w.sim.message(found[-1].id)


async def sign_up(w: World, channel: SimChannel, who: list[SimUser],
                  check_in: list[SimUser]) -> SimMessage:
    for user in who:
        message = signup_message(w, channel)
        r = await w.sim.click(user, message, button(message, "tjoin")["custom_id"])
        assert r.status == "ok", r
    for user in check_in:
        message = signup_message(w, channel)
        r = await w.sim.click(user, message, button(message, "tcheck")["custom_id"])
        assert r.status == "ok", r
    await w.sim.settle()
    return signup_message(w, channel)


def texts(w: World, channel: SimChannel) -> list[str]:
    return [m.text for m in w.sim.messages(channel)]


async def wait_for(w: World, channel: SimChannel, words: str, count: int = 1) -> None:
    """Until the channel shows ``words`` in ``count`` messages (news is shown in the
    background, one tournament's in order)."""
    # (a guard, not a timing: a round of computers' games takes a while on a busy machine)
    give_up = time.monotonic() + 120
    while time.monotonic() < give_up:
        # a turn of the loop first: the simulated Discord's settle returns at once, without
        # one, when its wire has been quiet, and a wait made of settles alone would then hold
        # the loop so that nothing it waits for (a picture drawn in a thread, a computer's
        # move, a deadline the clock made due) could run
        await asyncio.sleep(0.005)
        await w.sim.settle(idle=0.02)
        if sum(words in text for text in texts(w, channel)) >= count:
            return
    raise AssertionError(f"{words!r} not shown {count} times: {texts(w, channel)[-3:]}")


async def stored_tables(w: World, tid: int) -> list[RoundTableRow]:
    return await w.bot.tournaments.rows.tables(tid)


async def play_round(w: World, tid: int, number: int, moves: int | None = None) -> None:
    """Each person's first legal move through the door until round ``number`` is in (or
    ``moves`` moves were made)."""
    made = 0
    for _ in range(5000):
        view = await w.bot.tournaments.view(tid)
        if view.status != "running" or view.round > number:
            return
        acted = False
        manager = w.bot.manager
        for table in view.tables:
            if table.table_id is None or not manager.is_open(table.table_id):
                continue
            public = await manager.position(table.table_id)
            for user in sorted(public.people_due):
                seen = await manager.position_for(table.table_id, user)
                if not seen.moves:
                    continue
                try:
                    await manager.act(table.table_id, user, seen.version, seen.moves[0].index)
                except Refusal:
                    continue
                made += 1
                acted = True
                if moves is not None and made >= moves:
                    return
        if not acted:
            await w.sim.settle(idle=0.01)
    raise AssertionError(f"round {number} did not end")


def by_hand(tables: list[RoundTableRow], rounds: int) -> dict[int, float]:
    """Each player's place points over the first ``rounds`` rounds (absent: none)."""
    found: dict[int, float] = {}
    for row in tables:
        if row.round > rounds:
            continue
        for seat, player in enumerate(row.seats):
            if player is None:
                continue
            gained = 0.0
            if row.places is not None and player not in row.absent:
                gained = place_points(row.places)[seat]
            found[player] = found.get(player, 0.0) + gained
    return found


def shown_points(points: float) -> str:
    rounded = round(points, 1)
    return str(int(rounded)) if rounded == int(rounded) else f"{rounded:.1f}"


def look_at(message: SimMessage, name: str) -> Image.Image:
    """A picture of a message, opened (and saved where DECKHAND_PICTURES says)."""
    found = [a for a in message.attachments if a["filename"] == name]
    assert found, [a["filename"] for a in message.attachments]
    data = found[0]["bytes"]
    if PICTURES:
        Path(PICTURES).mkdir(parents=True, exist_ok=True)
        Path(PICTURES, f"{message.id}-{name}").write_bytes(data)
    picture = Image.open(io.BytesIO(data))
    assert picture.width == 900 and picture.height > 100
    return picture


async def test_a_swiss_of_thirteen_with_a_no_show_and_a_restart(tmp_path: Path) -> None:
    async with world(tmp_path, people=6) as w:
        players = people(w, 13)
        alice, frank = players[0], players[5]
        japanese = w.sim.add_user("Yuki", locale="ja")
        w.sim.add_member(w.guild, japanese)
        r = await create(w, alice, w.channel, game="twenty-two", format="swiss", rounds=3,
                         size=4)
        assert r.status == "ok" and not r.ephemeral, r
        first = signup_message(w, w.channel)
        assert "Twenty-two" in first.text or "22" in first.text
        assert "3 rounds at tables of 4" in first.text and "Check-in is open" in first.text
        message = await sign_up(w, w.channel, players, players[:12])  # the 13th never checks in
        assert "Entrants (13)" in message.text
        assert message.text.count("✅") == 12
        tid = (await w.bot.tournaments.in_channel(int(w.channel.id))).id  # type: ignore[union-attr]

        r = await w.sim.slash(frank, w.channel, "tournament start")  # a manager, not the organiser
        assert r.status == "ok" and r.ephemeral and "Started." in str(r.content), r
        await wait_for(w, w.channel, "Round 1 has begun")
        shown = "\n".join(texts(w, w.channel))
        assert f"{players[12].name} did not check in" in shown
        announcement = next(m for m in w.sim.messages(w.channel)
                            if "Round 1 has begun" in m.text)
        assert announcement.text.count("Table ") == 3
        view = await w.bot.tournaments.view(tid)
        for table in view.tables:  # each table in a thread of its own, linked
            assert table.table_id is not None
            thread_id = w.bot.manager.tables[table.table_id].thread_id
            assert thread_id is not None and f"<#{thread_id}>" in announcement.text
        # Buttons gone once it began
        assert signup_message is not None and not [
            b for b in w.sim.message(first.id).buttons()]

        await play_round(w, tid, 1)
        await wait_for(w, w.channel, "standings after round 1")
        tables = await stored_tables(w, tid)
        points = by_hand(tables, 1)
        after_one = next(m for m in w.sim.messages(w.channel)
                         if "standings after round 1" in m.text)
        names = {int(u.id): u.name for u in players}
        for player, value in points.items():
            assert f"{names[player]} — {shown_points(value)} pts" in after_one.text
        look_at(after_one, "standings.png")
        # the same standings in Japanese, asked for privately
        r = await w.sim.slash(japanese, w.channel, "tournament standings", locale="ja")
        await w.sim.settle()
        assert r.status == "ok", r
        private = r.message
        assert private is not None and private.ephemeral
        assert "順位" in private.text and "同点の決め方" in private.text, private.text
        for player, value in points.items():
            assert f"{names[player]} — {shown_points(value)}点" in private.text
        look_at(private, "standings.png")

        await wait_for(w, w.channel, "Round 2 has begun")
        await play_round(w, tid, 2, moves=6)
        before = await w.bot.tournaments.view(tid)
        assert before.round == 2
        await w.restart()
        after = await w.bot.tournaments.view(tid)
        assert after.round == 2 and after.tables == before.tables
        await play_round(w, tid, 3)
        await wait_for(w, w.channel, "final standings")
        view = await w.bot.tournaments.view(tid)
        assert view.status == "finished"

        tables = await stored_tables(w, tid)
        assert [t.round for t in tables] == [1, 1, 1, 2, 2, 2, 3, 3, 3]
        points = by_hand(tables, 3)
        assert int(players[12].id) not in points  # never started
        assert sum(points.values()) == 9 * (3 + 2 + 1 + 0)
        final_message = next(m for m in w.sim.messages(w.channel)
                             if "final standings" in m.text)
        lines = [line for line in final_message.text.splitlines() if " pts (" in line]
        assert len(lines) == 12
        ranked = sorted(points.items(), key=lambda kv: -kv[1])
        for line, (_, value) in zip(lines, ranked, strict=True):
            assert f"— {shown_points(value)} pts" in line  # ordered by points, by hand
        for player, value in points.items():
            assert f"{names[player]} — {shown_points(value)} pts" in final_message.text
        assert "Tie-breaks" in final_message.text and "opponents" in final_message.text
        look_at(final_message, "standings.png")
        for n in (1, 2):  # each round told once, the restart's included
            assert sum(f"standings after round {n}" in x for x in texts(w, w.channel)) == 1
        assert sum("final standings" in x for x in texts(w, w.channel)) == 1
        assert w.sim.spec_errors == [] and w.sim.client_errors == []


async def test_a_spar_elimination_takes_two_of_each_table_through(tmp_path: Path) -> None:
    async with world(tmp_path, people=6, locale="ja") as w:
        players = people(w, 10)
        alice = players[0]
        r = await create(w, alice, w.channel, game="spar", format="elimination", size=4,
                         advance=2, checkin=0)
        assert r.status == "ok", r
        await sign_up(w, w.channel, players, [])
        tid = (await w.bot.tournaments.in_channel(int(w.channel.id))).id  # type: ignore[union-attr]
        r = await w.sim.slash(alice, w.channel, "tournament start")
        assert r.status == "ok", r
        for number in (1, 2, 3):
            await play_round(w, tid, number)
        await wait_for(w, w.channel, "最終順位")  # the title (a card game says 最終 too)
        view = await w.bot.tournaments.view(tid)
        assert view.status == "finished" and view.rounds == 3
        tables = await stored_tables(w, tid)
        seeded = [int(u.id) for u in players]
        field = tuple(seeded)
        for number in (1, 2):
            played = [TableResult(Seating(t.number, t.seats), t.places, t.absent)
                      for t in tables if t.round == number]
            field = advancing(played, 2, field)
            nxt = {p for t in tables if t.round == number + 1 for p in t.seats if p is not None}
            assert nxt == set(field)
        final = [m for m in w.sim.messages(w.channel) if "bracket.png" in
                 [a["filename"] for a in m.attachments]]
        # after rounds 1 and 2, and with the final standings (the champion's)
        assert [m.text.splitlines()[0] for m in final] == [
            "スパー：第1ラウンド後の順位", "スパー：第2ラウンド後の順位", "スパー：最終順位"]
        look_at(final[-1], "bracket.png")
        look_at(final[-1], "standings.png")


async def test_a_duplicate_round_of_finesse_deals_every_table_alike(tmp_path: Path) -> None:
    async with world(tmp_path, people=6) as w:
        players = people(w, 8)
        r = await create(w, players[0], w.channel, game="finesse", format="swiss", rounds=1,
                         size=4, duplicate=True, checkin=0)
        assert r.status == "ok", r
        assert "same deals" in signup_message(w, w.channel).text
        await sign_up(w, w.channel, players, [])
        tid = (await w.bot.tournaments.in_channel(int(w.channel.id))).id  # type: ignore[union-attr]
        await w.sim.slash(players[0], w.channel, "tournament start")
        await wait_for(w, w.channel, "Round 1 has begun")
        view = await w.bot.tournaments.view(tid)
        hands = []
        for table in view.tables:
            assert table.table_id is not None
            live = w.bot.manager.live(table.table_id)
            assert live is not None
            # the deal each table was dealt (its computers may have played on since): made
            # again from the table's own seed and options, as the table made it
            dealt = live.rules.new_game(len(live.seats), seed=live.seed, options=live.options)
            hands.append({zone: sorted(str(c) for c in cards)
                          for zone, cards in dealt.zones().items()})
        assert len(hands) == 2 and hands[0] == hands[1] and any(hands[0].values())
        await play_round(w, tid, 1)
        await wait_for(w, w.channel, "final standings")


async def test_bad_inputs_are_answered_and_leave_nothing_half_made(tmp_path: Path) -> None:
    async with world(tmp_path, people=6) as w:
        alice, bob = w.users[0], w.users[1]
        past = await create(w, alice, w.channel, game="twenty-two", format="swiss",
                            start=minutes_ahead(-60))
        assert past.ephemeral and "start time has passed" in str(past.content), past
        assert await w.bot.tournaments.in_channel(int(w.channel.id)) is None
        r = await create(w, alice, w.channel, game="twenty-two", format="swiss", size=4,
                         checkin=0)
        assert not r.ephemeral, r
        again = await create(w, bob, w.channel, game="spar", format="swiss")
        assert again.ephemeral and "already has a tournament" in str(again.content), again
        await sign_up(w, w.channel, [alice], [])
        other = await w.sim.slash(bob, w.channel, "tournament cancel")
        assert other.ephemeral and "Only the organiser" in str(other.content), other
        few = await w.sim.slash(alice, w.channel, "tournament start")
        assert few.ephemeral and "at least 2 players" in str(few.content), few
        view = await w.bot.tournaments.in_channel(int(w.channel.id))
        assert view is not None and view.status == "signup" and len(view.entrants) == 1
        # a forged Join naming this tournament, from another server
        elsewhere = w.sim.add_guild("Elsewhere")
        far = w.sim.add_channel(elsewhere, "cards-b")
        mallory = w.sim.add_user("Mallory")
        w.sim.add_member(elsewhere, mallory, manage_guild=True)
        await w.sim.settle()
        r = await w.sim.slash(mallory, far, "help")
        assert r.message is not None
        forged = await w.sim._interact(3, mallory, far, {
            "custom_id": ids.make("tjoin", view.id), "component_type": 2}, message=r.message)
        await w.sim.settle()
        assert forged.ephemeral and "another server or channel" in str(forged.content), forged
        assert len((await w.bot.tournaments.view(view.id)).entrants) == 1
        message = signup_message(w, w.channel)
        assert "Entrants (1)" in message.text
        assert button(message, "tjoin")


async def test_the_organisers_drop_pause_resume_and_cancel(tmp_path: Path) -> None:
    async with world(tmp_path, people=6) as w:
        players = people(w, 8)
        alice, bob, carol = players[0], players[1], players[2]
        japanese = w.sim.add_user("Yuki", locale="ja")
        w.sim.add_member(w.guild, japanese)
        r = await create(w, alice, w.channel, game="twenty-two", format="swiss", rounds=3,
                         size=4, checkin=0)
        assert r.status == "ok", r
        await sign_up(w, w.channel, players, [])
        tid = (await w.bot.tournaments.in_channel(int(w.channel.id))).id  # type: ignore[union-attr]
        await w.sim.slash(alice, w.channel, "tournament start")
        await wait_for(w, w.channel, "Round 1 has begun")

        r = await w.sim.slash(alice, w.channel, "tournament drop", {"user": bob})
        assert r.ephemeral and "Dropped." in str(r.content), r
        await wait_for(w, w.channel, "Bob was dropped by the organiser.")
        r = await w.sim.slash(carol, w.channel, "tournament drop", {"user": carol})
        assert r.ephemeral and "Dropped." in str(r.content), r
        await wait_for(w, w.channel, "Carol withdrew from the tournament")
        assert not any("Carol left the server" in x for x in texts(w, w.channel))
        other = await w.sim.slash(carol, w.channel, "tournament drop", {"user": players[3]})
        assert other.ephemeral and "Only the organiser" in str(other.content), other

        r = await w.sim.slash(alice, w.channel, "tournament pause")
        assert r.ephemeral and "the tables playing go on" in str(r.content), r
        await w.sim.settle()
        signup = next(m for m in w.sim.messages(w.channel) if "Entrants (8)" in m.text)
        assert "Paused by the organiser" in w.sim.message(signup.id).text
        # the round in progress plays on and is counted; the next one waits
        await play_round(w, tid, 1)
        await wait_for(w, w.channel, "standings after round 1")
        for _ in range(10):
            await w.sim.settle(idle=0.02)
        assert not any("Round 2 has begun" in x for x in texts(w, w.channel))
        view = await w.bot.tournaments.view(tid)
        assert view.round == 2 and all(t.table_id is None for t in view.tables)
        after_one = next(m for m in w.sim.messages(w.channel)
                         if "standings after round 1" in m.text)
        assert "Bob — 0 pts" in after_one.text and "dropped" in after_one.text

        r = await w.sim.slash(alice, w.channel, "tournament resume")
        assert r.ephemeral and "Resumed." in str(r.content), r
        await wait_for(w, w.channel, "Round 2 has begun")
        second = next(m for m in w.sim.messages(w.channel) if "Round 2 has begun" in m.text)
        assert "Bob" not in second.text and "Carol" not in second.text
        assert f"<@{players[3].id}>" in second.text
        view = await w.bot.tournaments.view(tid)
        open_ids = [t.table_id for t in view.tables if t.table_id is not None]
        assert open_ids and all(w.bot.manager.is_open(i) for i in open_ids)

        r = await w.sim.slash(alice, w.channel, "tournament cancel")
        assert r.ephemeral and "the tables still playing are closed" in str(r.content), r
        await wait_for(w, w.channel, "Cancelled by the organiser: the tables still playing")
        assert not any(w.bot.manager.is_open(i) for i in open_ids)
        assert "Cancelled by the organiser" in w.sim.message(signup.id).text
        # the ended event still answers its standings, in each reader's language
        r = await w.sim.slash(bob, w.channel, "tournament standings")
        await w.sim.settle()
        assert r.status == "ok" and r.message is not None, r
        assert "standings" in r.message.text and "Alice" in r.message.text, r.message.text
        look_at(r.message, "standings.png")
        r = await w.sim.slash(japanese, w.channel, "tournament standings", locale="ja")
        await w.sim.settle()
        assert r.message is not None and "順位" in r.message.text, r
        # until a new one is created: then the new one's (nobody yet)
        r = await create(w, alice, w.channel, game="spar", format="swiss", size=4, checkin=0)
        assert r.status == "ok" and not r.ephemeral, r
        r = await w.sim.slash(bob, w.channel, "tournament standings")
        await w.sim.settle()
        assert r.message is not None and "Alice" not in r.message.text, r
        assert w.sim.spec_errors == [] and w.sim.client_errors == []


# -- a seated player who never moves, on a manual clock ----------------------------------------

#: how long the clocked bot is down at its restart (clock seconds)
DOWN = 120.0


async def play_without(w: World, tid: int, number: int, idle: int,
                       made: Counter[tuple[int, int]],
                       restart_when_due: bool = False) -> None:
    """Everyone's first legal move but ``idle``'s through the door until round ``number`` is
    in; whenever ``idle`` alone is due anywhere, the clock is moved to their deadline (no one
    else's runs then). ``made`` counts each move made by (table, seat). With
    ``restart_when_due``, the bot restarts the first time ``idle``'s deadline runs."""
    clock = w.clock
    assert clock is not None
    for _ in range(5000):
        view = await w.bot.tournaments.view(tid)
        if view.status != "running" or view.round > number:
            return
        manager = w.bot.manager
        acted = False
        due: set[int] = set()
        deadlines = []
        for table in view.tables:
            if table.table_id is None or not manager.is_open(table.table_id):
                continue
            public = await manager.position(table.table_id)
            due |= public.people_due
            if idle in public.people_due and public.deadline is not None:
                deadlines.append(public.deadline[1])
            for user in sorted(public.people_due - {idle}):
                seen = await manager.position_for(table.table_id, user)
                if not seen.moves or seen.seat is None:
                    continue
                try:
                    await manager.act(table.table_id, user, seen.version, seen.moves[0].index)
                except Refusal:
                    continue  # a computer moved first: looked at again
                made[table.table_id, seen.seat] += 1
                acted = True
        if not acted and due == {idle} and deadlines:
            if restart_when_due:
                restart_when_due = False
                await w.restart(DOWN)
                # the time the bot was down is added to the deadline: it has not passed
                again = await w.bot.tournaments.view(tid)
                shown = [(await w.bot.manager.position(t.table_id)).deadline
                         for t in again.tables if idle in t.seating.seats
                         and t.table_id is not None]
                assert [d[1] if d else None for d in shown] == [min(deadlines) + DOWN], shown
                continue
            clock.set(max(clock.now(), min(deadlines)))
        if not acted:
            await asyncio.sleep(0.005)  # (a turn of the loop: see wait_for)
            await w.sim.settle(idle=0.01)
    raise AssertionError(f"round {number} did not end")


async def test_a_seated_player_who_never_moves_is_timed_out_and_dropped(
        tmp_path: Path) -> None:
    """The no-show of a round (#51): seated at a round's table, Hugo never moves. Each time
    his turn's deadline passes (the test moves the clock; the bot restarts once while it
    runs, and the downtime is added to it) the computer moves for him, then keeps his seat;
    at the round's end he is dropped and this is said in the channel, his 0 points shown in
    the standings (checked by hand), and round 2 seats the others without him. Every move the
    others made is stored as theirs."""
    clock = ManualClock()  # a deadline passes when the test moves it, never by waiting
    async with world(tmp_path, people=6, clock=clock, ai_level="random") as w:
        players = people(w, 8)
        hugo = players[7]
        idle = int(hugo.id)
        start = datetime.fromtimestamp(clock.now() + 30 * 60, UTC).strftime(
            "%Y-%m-%d %H:%M")
        r = await create(w, players[0], w.channel, game="twenty-two", format="swiss",
                         rounds=2, size=4, checkin=0, pace="fast", start=start)
        assert r.status == "ok", r
        await sign_up(w, w.channel, players, [])
        tid = (await w.bot.tournaments.in_channel(int(w.channel.id))).id  # type: ignore[union-attr]
        r = await w.sim.slash(players[0], w.channel, "tournament start")
        assert r.status == "ok", r
        await wait_for(w, w.channel, "Round 1 has begun")
        made: Counter[tuple[int, int]] = Counter()

        await play_without(w, tid, 1, idle, made, restart_when_due=True)
        assert len(w.bots) == 2  # it restarted while Hugo's deadline ran
        await wait_for(w, w.channel, f"{hugo.name} did not check in, or did not play at their"
                                     " table")
        await wait_for(w, w.channel, "standings after round 1")
        tables = await stored_tables(w, tid)
        [his] = [t for t in tables if idle in t.seats]
        assert his.absent == frozenset({idle}) and his.places is not None
        assert his.table_id is not None
        hows = [a.how for a in await w.bot.store.actions(his.table_id)
                if a.seat == his.seats.index(idle)]
        assert "timeout" in hows and "player" not in hows, hows
        after_one = next(m for m in w.sim.messages(w.channel)
                         if "standings after round 1" in m.text)
        names = {int(u.id): u.name for u in players}
        points = by_hand(tables, 1)
        assert points[idle] == 0
        for player, value in points.items():
            assert f"{names[player]} — {shown_points(value)} pts" in after_one.text
        [line] = [x for x in after_one.text.splitlines() if f"{hugo.name} — " in x]
        assert line.endswith("; dropped)"), line

        await wait_for(w, w.channel, "Round 2 has begun")
        view = await w.bot.tournaments.view(tid)
        assert view.round == 2 and all(idle not in t.seating.seats for t in view.tables)
        await play_without(w, tid, 2, idle, made)
        await wait_for(w, w.channel, "final standings")
        tables = await stored_tables(w, tid)
        points = by_hand(tables, 2)
        final = next(m for m in w.sim.messages(w.channel) if "final standings" in m.text)
        for player, value in points.items():
            assert f"{names[player]} — {shown_points(value)} pts" in final.text
        assert points[idle] == 0 and sum(points.values()) > 0
        # no move lost: each one the others made, the restart's round included, is stored as
        # theirs, at the seat they made it from
        stored: Counter[tuple[int, int]] = Counter()
        for table in tables:
            assert table.table_id is not None
            for action in await w.bot.store.actions(table.table_id):
                if action.how == "player":
                    stored[table.table_id, action.seat] += 1
        assert stored == made and sum(made.values()) > 0
        told = [x for x in texts(w, w.channel) if "did not play at their table" in x]
        assert len(told) == 1 and hugo.name in told[0]
        assert w.sim.spec_errors == [] and w.sim.client_errors == []


class Crash(Exception):
    """The bot dying at that instant (the test then restarts it)."""


async def test_a_table_half_made_by_a_crash_is_finished_and_announced_at_the_restart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """#51: the bot dies while seating round 1's second table (its lobby open and its id
    stored, one of its people not seated yet), before the round was announced. At the
    restart the lobby is seated and started (not left behind, not opened twice) and the round
    is announced once, each table in its own thread, before it is played to its end."""
    clock = ManualClock()  # a deadline passes when the test moves it, never by waiting
    async with world(tmp_path, people=6, clock=clock, ai_level="random") as w:
        players = people(w, 8)
        start = datetime.fromtimestamp(clock.now() + 30 * 60, UTC).strftime(
            "%Y-%m-%d %H:%M")
        r = await create(w, players[0], w.channel, game="twenty-two", format="swiss",
                         rounds=1, size=4, checkin=0, pace="fast", start=start)
        assert r.status == "ok", r
        await sign_up(w, w.channel, players, [])
        tid = (await w.bot.tournaments.in_channel(int(w.channel.id))).id  # type: ignore[union-attr]
        joins = 0
        real_join = w.bot.manager.join

        async def join(*args: Any) -> Any:
            nonlocal joins
            joins += 1
            if joins == 5:  # three joined table 1, one table 2
                raise Crash
            return await real_join(*args)

        monkeypatch.setattr(w.bot.manager, "join", join)
        await w.sim.slash(players[0], w.channel, "tournament start")
        await w.sim.settle()
        assert joins == 5
        [lobby] = [p.table_id for p in await w.bot.manager.tables_in(int(w.channel.id))
                   if p.status == "lobby"]
        assert not any("has begun" in x for x in texts(w, w.channel))
        await w.restart(DOWN)

        await wait_for(w, w.channel, "Round 1 has begun")
        view = await w.bot.tournaments.view(tid)
        assert lobby in {t.table_id for t in view.tables}
        shown = await w.bot.manager.tables_in(int(w.channel.id))
        assert sorted(p.table_id for p in shown) == sorted(
            t.table_id for t in view.tables if t.table_id is not None)
        assert all(p.status == "playing" for p in shown)
        announcement = next(m for m in w.sim.messages(w.channel)
                            if "Round 1 has begun" in m.text)
        for table in view.tables:
            assert table.table_id is not None
            position = await w.bot.manager.position(table.table_id)
            assert tuple(s.user_id for s in position.seats) == table.seating.seats
            assert position.thread_id is not None
            assert f"<#{position.thread_id}>" in announcement.text
        made: Counter[tuple[int, int]] = Counter()
        await play_without(w, tid, 1, 0, made)
        await wait_for(w, w.channel, "final standings")
        assert sum("has begun" in x for x in texts(w, w.channel)) == 1
        assert w.sim.spec_errors == []
