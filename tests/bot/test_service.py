"""The table service's API for front ends: a person's choice resolved against the rules, the
outcome of a move, typed events delivered with no lock held, and positions."""

from __future__ import annotations

import asyncio
import json
import logging

import discord
import pytest

from bot.tables import PLAYING, Refusal, TableManager
from bot.tables.events import DealEnded, GameEnded, MoveApplied, TableEvent
from bot.tables.model import Table
from bot.tables.position import position_of
from bot.tables.results import add_results, position_results
from tests.bot.conftest import Recorder
from tests.bot.test_tables import BOB, HOST, STRANGER, live, lobby

Manager = tuple[TableManager, Recorder]


async def two_people(m: TableManager, **options: object) -> Table:
    table = await lobby(m)
    await m.join(table.id, BOB, "Bob")
    for name, value in options.items():
        await m.set_option(table.id, HOST, name, value)
    await m.start(table.id, HOST)
    assert table.state is not None
    return table


def mover(table: Table) -> tuple[int, int]:
    """The seat to act and its person."""
    assert table.state is not None
    seat = table.state.to_act[0]
    user = table.seats[seat].user_id
    assert user is not None
    return seat, user


async def test_a_choice_by_index_is_the_seats_legal_move_of_that_index(manager: Manager) -> None:
    m, rec = manager
    table = await two_people(m)
    seat, user = mover(table)
    before = await m.position(table.id, seat)
    assert table.state is not None
    legal = table.state.legal_actions(seat)
    assert [(lm.index, lm.action, lm.text) for lm in before.moves] == [
        (i, a, str(a)) for i, a in enumerate(legal)]
    chosen = before.moves[-1]
    outcome = await m.act(table.id, user, 0, chosen.index)
    assert outcome.version == table.version == 1
    assert [(mv.seat, mv.action, mv.how) for mv in outcome.moves] == [
        (seat, chosen.action, "player")]
    assert isinstance(outcome.events[0], MoveApplied)
    assert outcome.events[0].position.version == 1
    after = outcome.position
    assert after.seat == seat and after.version == 1 and after.own is not None
    assert chosen.action.cards and str(chosen.action.cards[0]) not in after.own["hand"]
    assert rec.updates[-1] is outcome.events[-1]  # the subscribers saw the same events


@pytest.mark.parametrize("choice", [-1, 99, True, []])
async def test_a_choice_that_names_no_legal_move_is_refused(manager: Manager,
                                                           choice: object) -> None:
    m, _ = manager
    table = await two_people(m)
    _, user = mover(table)
    with pytest.raises(Refusal) as refused:
        await m.act(table.id, user, 0, choice)  # type: ignore[arg-type]
    assert refused.value.key == "no-such-choice"
    assert table.version == 0


async def test_a_choice_by_its_cards_or_its_text(manager: Manager) -> None:
    m, _ = manager
    table = await two_people(m)
    seat, user = mover(table)
    assert table.state is not None
    first = table.state.legal_actions(seat)[0]
    outcome = await m.act(table.id, user, 0, [str(c) for c in first.cards])
    assert outcome.moves[0].action == first
    seat, user = mover(table)
    text = str(table.state.legal_actions(seat)[0])
    outcome = await m.act(table.id, user, 1, text)
    assert str(outcome.moves[0].action) == text and table.version == 2
    with pytest.raises(Refusal) as refused:  # a text that is no move at all
        await m.act(table.id, mover(table)[1], 2, "play:")
    assert refused.value.key in ("illegal", "no-such-choice")


async def test_subscribers_are_called_with_no_lock_held_and_may_call_back(
        manager: Manager) -> None:
    m, _ = manager
    seen: list[tuple[str, bool, int]] = []

    async def looks(event: TableEvent) -> None:
        table = m.tables.get(event.table_id)
        locked = table is not None and table.lock.locked()
        # calling the service back from a subscriber: a position (takes the lock)
        version = (await m.position(event.table_id)).version if table is not None else -1
        seen.append((event.kind, locked, version))

    m.subscribe(looks)
    table = await two_people(m)
    _, user = mover(table)
    await m.act(table.id, user, 0, 0)
    assert seen == [("lobby", False, 0), ("start", False, 0), ("move", False, 1)]
    m.unsubscribe(looks)
    m.unsubscribe(looks)  # twice: no error


async def test_a_failing_subscriber_is_logged_and_breaks_nothing(
        manager: Manager, caplog: pytest.LogCaptureFixture) -> None:
    m, rec = manager

    async def broken(event: TableEvent) -> None:
        raise RuntimeError("a front end's bug")

    m.listeners.insert(0, broken)
    table = await two_people(m)
    _, user = mover(table)
    with caplog.at_level(logging.ERROR, logger="bot.tables"):
        outcome = await m.act(table.id, user, 0, 0)
    assert outcome.version == 1 and table.version == 1
    assert rec.kinds() == ["lobby", "start", "move"]  # the next subscriber still heard all
    assert any("a subscriber failed on move" in r.getMessage() for r in caplog.records)


async def test_events_of_a_table_arrive_in_order_while_a_slow_subscriber_runs(
        manager: Manager) -> None:
    m, rec = manager
    gate = asyncio.Event()
    order: list[int] = []

    async def slow(event: TableEvent) -> None:
        if event.kind == "move" and not gate.is_set():
            await gate.wait()  # the first move's delivery waits; the next move is applied
        order.append(event.position.version)

    m.listeners.insert(0, slow)
    table = await two_people(m)
    _, user = mover(table)
    first = asyncio.create_task(m.act(table.id, user, 0, 0))
    while table.version < 1:
        await asyncio.sleep(0)
    _, user = mover(table)
    second = await m.act(table.id, user, 1, 0)  # applied while the first is being delivered
    assert second.version == 2 and not first.done()
    gate.set()
    await first
    assert order == [0, 0, 1, 2]  # lobby, start, then the moves in the order they happened
    assert [u.position.version for u in rec.updates if u.kind == "move"] == [1, 2]


async def test_a_positions_hidden_cards_are_of_its_own_version_when_read_later(
        manager: Manager) -> None:
    # the hidden cards are worked out when first asked, maybe after more moves: still from
    # the position's own version (a card played since is public now, not then)
    m, _ = manager
    table = await two_people(m)
    assert table.state is not None
    before = await m.position(table.id)
    held = {str(c) for s in range(2) for c in table.state.view(s)["hand"]}
    seat, user = mover(table)
    chosen = (await m.position(table.id, seat)).moves[0]
    await m.act(table.id, user, 0, chosen.index)
    played = {str(c) for c in chosen.action.cards}
    after = await m.position(table.id)
    assert played and played <= held
    assert before.hidden == frozenset(held)
    assert not played & after.hidden


async def test_a_spectators_position_shows_no_hand_and_no_moves(manager: Manager) -> None:
    m, _ = manager
    table = await two_people(m)
    seat, _ = mover(table)
    assert table.state is not None
    public = await m.position(table.id)
    mine = await m.position(table.id, seat)
    assert public.seat is None and public.own is None and public.moves == ()
    assert public.public == table.state.view(None).to_dict()
    assert mine.own == table.state.view(seat).to_dict()
    assert mine.own_view == table.state.view(seat) and public.own_view is None
    assert public.public_view == table.state.view(None)
    hands = {str(c) for s in range(2) for c in table.state.view(s)["hand"]}
    assert hands and not hands & set(json.dumps(public.public).split('"'))
    assert public.hidden == frozenset(hands)
    assert public.to_act == table.state.to_act and public.status == PLAYING
    assert [s.name for s in public.seats] == ["Host", "Bob"]
    assert public.people_due == frozenset({table.seats[seat].user_id})
    assert public.game_id == "high-card" and public.players == 2 and not public.over
    assert mine.may_act and not public.may_act
    assert public.seat_of(BOB) == 1 and public.seat_of(STRANGER) is None
    assert (await m.position_for(table.id, BOB)).seat == 1
    assert (await m.position_for(table.id, STRANGER)).seat is None
    with pytest.raises(Refusal):
        await m.position(12345)


async def test_the_game_ends_with_its_move_then_game_ended_and_the_outcome(
        manager: Manager) -> None:
    m, rec = manager
    table = await two_people(m, hand=1)
    events: list[TableEvent] = []
    while table.status == PLAYING:
        _, user = mover(table)
        events += (await m.act(table.id, user, table.version, 0)).events
    assert [type(e) for e in events[-2:]] == [MoveApplied, GameEnded]
    ended = events[-1].position
    assert ended.over and ended.outcome is not None and ended.status == "finished"
    assert rec.updates[-1] is events[-1]


async def test_a_deal_that_ends_is_told_after_its_move(manager: Manager) -> None:
    m, rec = manager
    table = live(m, await m.open(100, 10, "twenty-two", HOST, "Host", seed=3))
    await m.join(table.id, BOB, "Bob")
    await m.start(table.id, HOST)
    for _ in range(400):
        if any(isinstance(u, DealEnded) for u in rec.updates) or table.status != PLAYING:
            break
        _, user = mover(table)
        await m.act(table.id, user, table.version, 0)
    ends = [i for i, u in enumerate(rec.updates) if isinstance(u, DealEnded)]
    assert ends, "no deal ended"
    deal = rec.updates[ends[0]]
    before = rec.updates[ends[0] - 1]
    assert isinstance(deal, DealEnded) and isinstance(before, MoveApplied)
    assert deal.position is before.position  # the same moment: the deal's last move
    assert deal.deal == deal.position.tallies[-1].deal == 1
    assert all(not u.position.tallies for u in rec.updates[:ends[0] - 1])


async def test_a_positions_results_read_as_the_tables(manager: Manager) -> None:
    m, _ = manager
    table = live(m, await m.open(100, 10, "twenty-two", HOST, "Host", seed=3))
    await m.join(table.id, BOB, "Bob")
    await m.add_computer(table.id, HOST)
    await m.start(table.id, HOST)
    compared = 0
    for _ in range(600):
        if table.status != PLAYING or compared >= 2:
            break
        await asyncio.sleep(0)
        seats = [s for s in table.state.to_act if not table.seats[s].auto]  # type: ignore[union-attr]
        if not seats:
            await asyncio.sleep(0.001)
            continue
        user = table.seats[seats[0]].user_id
        assert user is not None
        try:
            await m.act(table.id, user, table.version, 0)
        except Refusal as refused:
            assert refused.key == "stale"
            continue
        async with table.lock:  # the table and its position at the same moment
            if not table.state or not table.state.breakdown():  # type: ignore[union-attr]
                continue
            position = position_of(table)
            for lang in ("en", "ja"):
                by_table, by_position = discord.Embed(), discord.Embed()
                add_results(by_table, table, lang)
                position_results(by_position, position, lang)
                assert by_position.to_dict() == by_table.to_dict()
                assert by_table.fields
            compared += 1
    assert compared >= 1


async def test_a_move_without_cards_is_not_chosen_by_no_cards(manager: Manager) -> None:
    m, _ = manager
    table = await two_people(m)
    seat, _ = mover(table)
    other = table.seats[1 - seat].user_id
    assert other is not None and table.state is not None
    assert [str(a) for a in table.state.legal_actions(1 - seat)] == ["knock"]
    with pytest.raises(Refusal) as refused:
        await m.act(table.id, other, 0, [])
    assert refused.value.key == "no-such-choice" and table.version == 0
    outcome = await m.act(table.id, other, 0, 0)  # by its index, out of turn
    assert str(outcome.moves[0].action) == "knock" and outcome.position.seat == 1 - seat
