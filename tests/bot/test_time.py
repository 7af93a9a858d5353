"""Time at the tables on a manual clock: live turn timers, correspondence deadlines and their
reminders, quiet hours, away, the daily digest, and restarts with the downtime added."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from bot.storage.store import Storage
from bot.tables import (
    FINISHED,
    PLAYING,
    AwayEnded,
    DeadlineMissed,
    DigestDue,
    ManualClock,
    PersonEvent,
    Refusal,
    SeatAwayUntil,
    TableEvent,
    TableManager,
    TurnReminder,
    pace,
)
from bot.tables.model import Table
from tests.bot.fakegame import lookup

HOST, BOB, CAROL = 1, 2, 3
HOUR, DAY = 3600.0, pace.DAY


class Heard:
    """Every table event and person event, with the clock's instant it came at."""

    def __init__(self, clock: ManualClock) -> None:
        self.clock = clock
        self.events: list[tuple[float, TableEvent]] = []
        self.people: list[tuple[float, PersonEvent]] = []

    async def table(self, event: TableEvent) -> None:
        self.events.append((self.clock.now(), event))

    async def person(self, event: PersonEvent) -> None:
        self.people.append((self.clock.now(), event))

    def of(self, kind: type[TableEvent]) -> list[tuple[float, TableEvent]]:
        return [(at, e) for at, e in self.events if isinstance(e, kind)]


def made(store: Storage, clock: ManualClock, heard: Heard) -> TableManager:
    manager = TableManager(store, rules_for=lookup, ai_delay=0.0, ai_level="random",
                           clock=clock)
    manager.subscribe(heard.table)
    manager.subscribe_person(heard.person)
    return manager


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def world(store: Storage, clock: ManualClock) -> AsyncIterator[tuple[TableManager, Heard]]:
    heard = Heard(clock)
    manager = made(store, clock, heard)
    await manager.resume()
    yield manager, heard
    await manager.close()


def table_of(m: TableManager, table_id: int) -> Table:
    table = m.live(table_id)
    assert table is not None
    return table


async def settle(m: TableManager, table_id: int) -> None:
    """Let what the clock made due run: the scheduler's callbacks, the computers' moves."""
    for _ in range(20):  # the scheduler wakes and starts what is due
        await asyncio.sleep(0)
    for _ in range(2000):
        await asyncio.sleep(0)
        table = m.live(table_id)
        if table is None or table.status != PLAYING or table.state is None:
            return
        busy = m._time.deadlines.running or any(
            t is not None and not t.done() for t in (table.drive_task,))
        computers_due = any(table.seats[s].auto for s in table.state.to_act)
        if not busy and not computers_due:
            return
        await asyncio.sleep(0.001)
    raise AssertionError("the table did not settle")


async def game(m: TableManager, people: list[int], timer: str, hand: int = 10) -> Table:
    position = await m.open(100, 10, "high-card", HOST, "Host", seed=7)
    for user in people[1:]:
        await m.join(position.table_id, user, f"P{user}")
    await m.set_timer(position.table_id, HOST, timer)
    await m.set_option(position.table_id, HOST, "hand", hand)
    await m.start(position.table_id, HOST)
    return table_of(m, position.table_id)


async def test_a_live_timeout_moves_for_the_person_and_twice_keeps_the_seat(
        world: tuple[TableManager, Heard], clock: ManualClock) -> None:
    m, heard = world
    table = await game(m, [HOST, BOB], "fast", hand=6)
    started = clock.now()
    shown = (await m.position(table.id)).deadline
    assert shown == (0, started + 30.0)  # a live timer: 30 s on the clock
    clock.advance(29.9)
    await settle(m, table.id)
    assert table.version == 0  # not yet
    clock.advance(0.1)
    await settle(m, table.id)
    assert table.version == 1
    hows = [mv.how for _, e in heard.events for mv in e.moves]
    assert hows == ["timeout"]
    assert not heard.of(DeadlineMissed)  # a live timeout shows as its move only
    for _ in range(3):
        clock.advance(30.0)
        await settle(m, table.id)
    hows = [mv.how for _, e in heard.events for mv in e.moves]
    assert hows[:4] == ["timeout"] * 4  # each seat timed out twice in a row
    assert all(s.away for s in table.seats)  # then the computer keeps both seats
    for _ in range(200):
        if table.status == FINISHED:
            break
        await asyncio.sleep(0.005)
    assert table.status == FINISHED
    assert len(m._time.deadlines) == 0  # nothing left scheduled for a finished table


async def test_a_live_deadline_is_stored_and_resumed_with_the_downtime_added(
        store: Storage, clock: ManualClock) -> None:
    heard = Heard(clock)
    first = made(store, clock, heard)
    await first.resume()
    table = await game(first, [HOST, BOB], "relaxed")
    deadline = table.deadline_at
    assert deadline == clock.now() + 300.0
    assert (await store.table(table.id)).deadline_at == deadline  # type: ignore[union-attr]
    clock.advance(100.0)
    await first.close()
    clock.advance(1000.0)  # down for 1000 s
    second = made(store, clock, heard)
    await second.resume()
    again = table_of(second, table.id)
    assert again.deadline_at == deadline + 1000.0
    clock.advance(199.0)
    await settle(second, table.id)
    assert again.version == 0  # 200 s were left: not yet
    clock.advance(1.0)
    await settle(second, table.id)
    assert again.version == 1 and [mv.how for _, e in heard.events for mv in e.moves] == [
        "timeout"]
    await second.close()


async def test_a_stop_between_a_move_and_its_deadline_never_applies_the_old_turns(
        store: Storage, clock: ManualClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """The move is stored, its turn's deadline is not (the bot stops in between): after the
    restart the new turn's clock starts afresh, never at the turn before's deadline."""
    heard = Heard(clock)
    first = made(store, clock, heard)
    await first.resume()
    table = await game(first, [HOST, BOB], "24h")
    old = table.deadline_at
    assert old == clock.now() + DAY
    clock.advance(20 * HOUR)
    seat = table.state.to_act[0]  # type: ignore[union-attr]
    person = table.seats[seat].user_id
    assert person is not None
    position = await first.position_for(table.id, person)

    async def stopped(*args: object, **kwargs: object) -> None:
        raise OSError("the bot stopped here")

    monkeypatch.setattr(store, "set_deadline", stopped)
    await first.act(table.id, person, position.version, position.moves[0].index)
    assert (await store.table(table.id)).deadline_at == old  # type: ignore[union-attr]
    await first.close()
    monkeypatch.undo()
    clock.advance(60.0)
    second = made(store, clock, heard)
    await second.resume()
    again = table_of(second, table.id)
    assert again.version == 1
    # a fresh day from the restart, not the 4 h (plus the minute down) left of the old turn
    assert again.deadline_at == clock.now() + DAY
    await second.close()


async def test_bad_pace_on_deadline_and_away_are_refused_with_clear_keys(
        world: tuple[TableManager, Heard]) -> None:
    m, _ = world
    position = await m.open(100, 10, "high-card", HOST, "Host")
    with pytest.raises(Refusal) as bad:
        await m.set_timer(position.table_id, HOST, "2d")
    assert bad.value.key == "bad-pace" and "7d" in bad.value.text("en")
    assert "7d" in bad.value.text("ja")
    with pytest.raises(Refusal) as bad:
        await m.set_on_deadline(position.table_id, HOST, "shrug")
    assert bad.value.key == "bad-on-deadline" and "drop" in bad.value.text("en")
    with pytest.raises(Refusal) as bad:
        await m.set_on_deadline(position.table_id, BOB, "drop")
    assert bad.value.key == "host-only"
    shown = await m.set_on_deadline(position.table_id, HOST, "drop")
    assert shown.on_deadline == "drop"
    assert (await m.set_timer(position.table_id, HOST, "3d")).timer == "3d"
    for days in (0, -1, 8, True):  # 7 days in January (the manual clock's month)
        with pytest.raises(Refusal) as bad:
            await m.set_away(BOB, days)
        assert bad.value.key == "bad-away" and bad.value.params == {"left": 7}
        assert "7" in bad.value.text("en") and "7" in bad.value.text("ja")


async def test_drop_after_the_second_missed_deadline(
        world: tuple[TableManager, Heard], clock: ManualClock) -> None:
    m, heard = world
    position = await m.open(100, 10, "high-card", HOST, "Host", seed=7)
    await m.join(position.table_id, BOB, "Bob")
    await m.set_timer(position.table_id, HOST, "1h")
    await m.set_on_deadline(position.table_id, HOST, "drop")
    await m.start(position.table_id, HOST)
    table = table_of(m, position.table_id)
    for _ in range(2):  # the host moves at once; Bob never does
        due = table.state.to_act[0]  # type: ignore[union-attr]
        if table.seats[due].user_id == HOST:
            await m.act(table.id, HOST, table.version, 0)
        clock.advance(HOUR)
        await settle(m, table.id)
    missed = [e for _, e in heard.of(DeadlineMissed)]
    assert [(e.seat, e.dropped) for e in missed] == [(1, False), (1, True)]  # type: ignore[attr-defined]
    assert table.seats[1].dropped and table.seats[1].away
    with pytest.raises(Refusal) as gone:
        await m.back(table.id, BOB)
    assert gone.value.key == "dropped"
    assert "computer" in gone.value.text("en")


async def test_a_week_of_correspondence_with_three_people(
        store: Storage, clock: ManualClock) -> None:
    """Three people at a 24 h table for seven simulated days: the host moves 23.5 h into a turn,
    Carol 23 h in (she has quiet hours 22–07), Bob never (the computer moves for him at his
    deadlines, then keeps his seat). Carol is away two days; the bot restarts three times,
    down two hours each time. The host reads the digest."""
    day0 = clock.now() - clock.now() % DAY  # midnight UTC
    clock.set(day0 + 10 * HOUR)
    await store.set_user_settings(CAROL, replace(await store.user_settings(CAROL),
                                                 quiet_from=22, quiet_to=7))
    await store.set_user_settings(HOST, replace(await store.user_settings(HOST), digest=True))
    quiet = pace.Quiet.of("UTC", 22, 7)
    heard = Heard(clock)
    m = made(store, clock, heard)
    await m.resume()
    table = await game(m, [HOST, BOB, CAROL], "24h", hand=17)
    table_id = table.id
    began: dict[int, float] = {}  # a version's turn: when it began (for the people's pace)
    restarts = [day0 + d * DAY + 12 * HOUR for d in (1, 3, 5)]
    away_at = day0 + 3 * DAY + 15 * HOUR
    away_until = None
    shifted: list[tuple[float, float]] = []
    due_at_nine: set[float] = set()
    end = day0 + 7 * DAY
    while clock.now() < end:
        table = table_of(m, table_id)
        assert table.status == PLAYING and table.state is not None
        version = table.version
        began.setdefault(version, clock.now())
        [seat] = table.state.to_act
        person = table.seats[seat]
        now = clock.now()
        if now % DAY == 9 * HOUR and HOST in table.people_due():
            due_at_nine.add(now)
        wants = None
        if not person.auto and person.user_id == HOST:
            wants = began[version] + 23.5 * HOUR
        elif not person.auto and person.user_id == CAROL and (
                away_until is None or now >= away_until):
            wants = max(began[version], away_until or 0.0) + 23 * HOUR
        if wants is not None and wants <= now:
            assert person.user_id is not None
            await m.act(table_id, person.user_id, version, 0)
            await settle(m, table_id)
            continue
        if restarts and restarts[0] <= now:
            restarts.pop(0)
            before = table.deadline_at
            await m.close()
            clock.advance(2 * HOUR)
            m = made(store, clock, heard)
            await m.resume()
            after = table_of(m, table_id).deadline_at
            assert before is not None and after == before + 2 * HOUR  # the downtime added
            shifted.append((before, after))
            began = {v: at + 2 * HOUR for v, at in began.items()}
            continue
        if away_until is None and away_at <= now:
            before = table.deadline_at
            carol_due = CAROL in table.people_due()
            away_until = await m.set_away(CAROL, 2)
            assert away_until == now + 2 * DAY
            shown = await m.position(table_id)
            assert shown.seats[2].away_until == away_until
            if carol_due:
                assert table.deadline_at == before + 2 * DAY  # type: ignore[operator]
        # the next instant something happens
        upcoming = [end, *(d.instant for d in m._time.deadlines.pending())]
        if wants is not None:
            upcoming.append(wants)
        if restarts:
            upcoming.append(restarts[0])
        if away_until is None:
            upcoming.append(away_at)
        upcoming.append(now - now % DAY + 9 * HOUR + (DAY if now % DAY >= 9 * HOUR else 0))
        clock.set(max(now, min(u for u in upcoming if u > now)))
        await settle(m, table_id)
    with pytest.raises(Refusal) as over:  # January's 7 days, 2 of them spent
        await m.set_away(CAROL, 6)
    assert over.value.params == {"left": 5}
    await m.close()
    assert len(shifted) == 3

    # every deadline applied once, at its instant: one timeout per version, each said
    timeouts = [(at, e) for at, e in heard.of(TableEvent) for mv in e.moves
                if mv.how == "timeout"]
    missed = heard.of(DeadlineMissed)
    assert timeouts and len(missed) == len(timeouts)
    versions = [e.position.version for _, e in timeouts]
    assert len(versions) == len(set(versions))
    assert all(e.position.seats[e.seat].user_id == BOB for _, e in missed)  # type: ignore[index]
    # Bob missed twice, then the computer kept his seat (the live rule, unchanged)
    assert len(missed) == 2 and table_of(m, table_id).seats[1].away

    # reminders: at 80 % of the turn, out of Carol's quiet hours, one per turn
    reminders = heard.of(TurnReminder)
    assert reminders
    turns = set()
    for at, event in reminders:
        assert isinstance(event, TurnReminder)
        deadline = event.position.deadline
        assert deadline is not None
        turns.add(deadline[0])
        start = deadline[1] - DAY
        expected = pace.remind_at(start, deadline[1], quiet if event.user_id == CAROL else None)
        assert at == expected
        if event.user_id == CAROL:
            assert not quiet.contains(at)
    assert len(turns) == len(reminders)
    assert any(e.user_id == CAROL for _, e in reminders)  # type: ignore[attr-defined]

    # Carol's away: her clock stood still, she missed nothing, and it ended in two days
    ended = [(at, e) for at, e in heard.people if isinstance(e, AwayEnded)]
    assert [(at, e.user_id) for at, e in ended] == [(away_until, CAROL)]
    assert [e.until for _, e in heard.of(SeatAwayUntil)][-1] is None  # type: ignore[attr-defined]

    # the digest: at 09:00 on each day the host had a table waiting, once
    digests = [(at, e) for at, e in heard.people if isinstance(e, DigestDue)]
    assert digests and sorted(at for at, _ in digests) == sorted(due_at_nine)
    assert all(at % DAY == 9 * HOUR for at, _ in digests)
    assert all(len(e.positions) == 1 and e.positions[0].seat == 0 for _, e in digests)
