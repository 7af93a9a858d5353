"""The table service's door (#49): real methods handing each call to a part, the parts private,
and what a front end reads of it as positions and frozen values, never a live table."""

from __future__ import annotations

import asyncio
import dataclasses
import inspect

import pytest

from bot.tables import PLAYING, Refusal, ServiceStatus, TableManager
from bot.tables.model import Table
from bot.tables.position import Position
from tests.bot.conftest import Recorder

Manager = tuple[TableManager, Recorder]
HOST, BOB = 1, 2
#: every call the front ends and tests make of the service
CALLS = ("open", "join", "leave", "add_computer", "remove_computer", "set_option", "set_level",
         "set_timer", "swap_seats", "set_hints", "start", "cancel", "set_message", "act", "back",
         "hand_to_computer", "hint", "position", "position_for", "latest", "settled",
         "open_tables", "table_in", "tables_in", "is_open", "is_seated", "status", "at",
         "subscribe", "unsubscribe", "resume", "close", "live", "live_in", "set_thread",
         "tables_of", "limits", "set_limits", "set_on_deadline", "set_away", "end_away",
         "refresh_person", "subscribe_person", "unsubscribe_person", "table_of_thread")


def test_every_call_is_a_real_method_with_a_docstring(manager: Manager) -> None:
    """``manager.act`` leads a reader (and a tool) to a ``def`` with its signature and
    words, not to an attribute set in the constructor."""
    m, _ = manager
    for name in CALLS:
        member = inspect.getattr_static(TableManager, name, None)
        assert inspect.isfunction(member), name
        assert inspect.getdoc(member), name
        assert name not in vars(m), f"{name} is set on the instance"
    # nothing public on the instance is a part of the service, nor a part's bound method
    public = {name: value for name, value in vars(m).items() if not name.startswith("_")}
    # (values given to it, and down_since: a number its resume found, the last heartbeat)
    assert set(public) <= {"store", "rules_for", "ai_level", "down_since"}, sorted(public)
    assert m.down_since is None or isinstance(m.down_since, float)


async def test_open_tables_and_table_in_answer_with_frozen_positions(manager: Manager) -> None:
    m, _ = manager
    assert await m.open_tables() == () and await m.table_in(10) is None
    first = await m.open(100, 10, "high-card", HOST, "Host", seed=5)
    second = await m.open(100, 11, "high-card", BOB, "Bob", seed=6)
    await m.set_message(first.table_id, 555)
    found = await m.open_tables()
    assert [p.table_id for p in found] == [first.table_id, second.table_id]
    assert all(isinstance(p, Position) and p.seat is None for p in found)
    here = await m.table_in(10)
    assert here is not None
    assert (here.table_id, here.channel_id, here.guild_id, here.host_id, here.message_id) == (
        first.table_id, 10, 100, HOST, 555)
    with pytest.raises(dataclasses.FrozenInstanceError):
        here.status = "cancelled"  # type: ignore[misc]
    await m.cancel(first.table_id, HOST)
    assert await m.table_in(10) is None
    assert [p.table_id for p in await m.open_tables()] == [second.table_id]


async def test_no_live_table_comes_out_of_the_door(manager: Manager) -> None:
    """Every lobby call, the restart and the events hand out positions, never the table."""
    m, recorder = manager
    answers = [await m.open(100, 10, "high-card", HOST, "Host", seed=5)]
    table_id = answers[0].table_id
    answers.append(await m.join(table_id, BOB, "Bob"))
    answers.append(await m.add_computer(table_id, HOST))
    answers.append(await m.remove_computer(table_id, HOST))
    answers.append(await m.start(table_id, HOST))
    assert all(isinstance(a, Position) and a.seat is None for a in answers)
    assert [a.status for a in answers][-1] == PLAYING
    assert recorder.updates
    for event in recorder.updates:
        values = [getattr(event, f.name) for f in dataclasses.fields(event)]
        assert not any(isinstance(v, Table) for v in values), event
        assert isinstance(event.position, Position)


async def test_where_a_click_comes_from_is_checked_without_waiting_for_a_move(
        manager: Manager) -> None:
    """``at`` (a click's check of its table's server and channel) answers while a move is
    being stored, so a click takes the table's lock once, in its one service call."""
    m, _ = manager
    table = await m.open(100, 10, "high-card", HOST, "Host", seed=5)
    live = m.live(table.table_id)
    assert live is not None
    async with live.lock:  # a move being applied and stored
        # (a guard, not a timing: waiting for the lock held here would never end)
        found = await asyncio.wait_for(m.at(table.table_id, 100, 10, HOST), 5)
    assert (found.table_id, found.seat) == (table.table_id, 0)
    with pytest.raises(Refusal) as refused:
        await m.at(table.table_id, 100, 11)
    assert refused.value.key == "foreign-table"


async def test_is_open_and_is_seated(manager: Manager) -> None:
    m, _ = manager
    table = await m.open(100, 10, "high-card", HOST, "Host", seed=5)
    assert m.is_open(table.table_id) and not m.is_open(table.table_id + 1)
    assert m.is_seated(HOST) and not m.is_seated(BOB)
    await m.join(table.table_id, BOB, "Bob")
    assert m.is_seated(BOB)
    await m.cancel(table.table_id, HOST)
    assert not m.is_open(table.table_id) and not m.is_seated(HOST)
    with pytest.raises(Refusal):
        await m.position(table.table_id)


async def test_status_counts_the_tables_of_the_process_and_of_a_server(
        manager: Manager) -> None:
    m, _ = manager
    assert m.status(100) == ServiceStatus(0, 0, 0, 0, m.status().computers)
    playing = await m.open(100, 10, "high-card", HOST, "Host", seed=5)
    await m.add_computer(playing.table_id, HOST)
    playing = await m.start(playing.table_id, HOST)
    await m.open(100, 11, "high-card", HOST, "Host", seed=6)
    await m.open(200, 20, "high-card", BOB, "Bob", seed=7)
    figures = m.status(100)
    assert playing.status == PLAYING
    assert (figures.tables, figures.playing, figures.here, figures.here_playing) == (3, 1, 2, 1)
    assert (m.status(200).here, m.status(200).here_playing) == (1, 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        figures.tables = 0  # type: ignore[misc]


def test_the_live_tables_are_read_only_to_the_tests(manager: Manager) -> None:
    m, _ = manager
    with pytest.raises(TypeError):
        m.tables[1] = None  # type: ignore[index]
