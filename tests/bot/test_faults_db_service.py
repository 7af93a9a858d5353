"""Database faults at the table service, without Discord: moves nobody clicked (timeouts,
computers) that cannot be stored are tried again, and what the table showed is what is stored.
(The faults through the real bot and a real database: tests/bot/test_faults_db.py.)"""

from __future__ import annotations

import asyncio
from typing import Any

from bot.storage.store import Storage
from bot.tables import FINISHED, PLAYING, TableManager
from tests.bot.conftest import Recorder
from tests.bot.test_tables import live

HOST, BOB = 1, 2
Manager = tuple[TableManager, Recorder]


def failing_first(store: Storage, count: int) -> list[int]:
    """Make the store's next ``count`` moves fail (as a database that is down does); the list
    counts the failures."""
    real = store.add_action
    failed: list[int] = []

    async def flaky(*row: Any) -> None:
        if len(failed) < count:
            failed.append(row[1])
            raise OSError("the database is down")
        await real(*row)

    store.add_action = flaky  # type: ignore[method-assign]
    return failed


async def until_over(table: Any) -> None:
    """Wait (up to 4 s) for a table's game to end."""
    for _ in range(800):
        if table.status != PLAYING:
            return
        await asyncio.sleep(0.005)


async def test_timeout_and_computer_moves_that_cannot_be_stored_are_tried_again(
        manager: Manager, store: Storage) -> None:
    """Both people time out, twice, then the computer keeps their seats; the first stores fail.
    The timers and the computers try again until the moves are stored, the game ends, and the
    stored moves are exactly the moves the table showed, each timeout counted once."""
    m, rec = manager
    m._turns.retry = 0.005
    table = live(m, await m.open(100, 10, "high-card", HOST, "Host", seed=5))
    await m.join(table.id, BOB, "Bob")
    await m.set_timer(table.id, HOST, "fast")
    await m.set_option(table.id, HOST, "hand", 6)
    await m.start(table.id, HOST)
    failed = failing_first(store, 3)
    await until_over(table)
    assert len(failed) == 3 and table.status == FINISHED
    shown = [(mv.seat, str(mv.action), mv.how) for u in rec.updates for mv in u.moves]
    stored = [(r.seat, r.action, r.how) for r in await store.actions(table.id)]
    assert stored == shown
    assert [how for _, _, how in shown][:4] == ["timeout"] * 4
    assert all(s.away for s in table.seats)


async def test_a_computer_move_that_cannot_be_stored_is_tried_again(
        manager: Manager, store: Storage) -> None:
    """A computer's move fails to store: the computer moves again later (its table does not
    stall), and the stored moves are those the table showed."""
    m, rec = manager
    m._turns.retry = 0.005
    table = live(m, await m.open(100, 10, "high-card", HOST, "Host", seed=5))
    await m.add_computer(table.id, HOST)
    await m.set_option(table.id, HOST, "hand", 3)
    await m.start(table.id, HOST)
    failed = failing_first(store, 2)
    await m.hand_to_computer(table.id, HOST, 0)
    await until_over(table)
    assert len(failed) == 2 and table.status == FINISHED
    shown = [(mv.seat, str(mv.action)) for u in rec.updates for mv in u.moves]
    assert [(r.seat, r.action) for r in await store.actions(table.id)] == shown


async def test_a_deal_ending_move_that_cannot_be_stored_leaves_the_game_as_stored(
        manager: Manager, store: Storage) -> None:
    """The move that ends a deal fails to store: the table's state is exactly what its
    stored moves replay to, random generator included, so the deal dealt when the move is
    played again is the one a restart deals. (The move was applied to a copy: this holds
    while each game's hand-written fast copy is independent of the state it copies.)"""
    m, _ = manager
    m._turns.retry = 60.0
    for game in ("1234", "spar", "twenty-two"):
        table = live(m, await m.open(100, 10, game, HOST, "Host", seed=7))
        await m.join(table.id, BOB, "Bob")
        await m.start(table.id, HOST)
        state = table.state
        assert state is not None
        for _ in range(2000):  # the first legal moves until the next one ends a deal
            seat = state.to_act[0]
            move = state.legal_actions(seat)[0]
            trial = state.clone()
            before = len(trial.breakdown())
            trial.apply(seat, move)
            if len(trial.breakdown()) > before and not trial.over:
                break
            user = table.seats[seat].user_id
            assert user is not None
            await m.act(table.id, user, table.version, move)
            state = table.state
            assert state is not None
        else:
            raise AssertionError(f"{game}: no deal ended")
        real = store.add_action

        async def down(*row: Any) -> None:
            raise OSError("the database is down")

        store.add_action = down  # type: ignore[method-assign]
        user = table.seats[seat].user_id
        assert user is not None
        try:
            await m.act(table.id, user, table.version, move)
        except Exception as refused:
            assert getattr(refused, "key", None) == "not-stored"
        store.add_action = real  # type: ignore[method-assign]
        replayed = table.rules.new_game(2, seed=table.seed, options=table.options)
        for row in await store.actions(table.id):
            replayed.apply(row.seat, row.action)
        assert table.state is not None
        assert table.state.rng.getstate() == replayed.rng.getstate(), game
        for who in (None, 0, 1):
            assert table.state.view(who).to_dict() == replayed.view(who).to_dict(), game
        await m.act(table.id, user, table.version, move)  # played again: the deal of a restart
        replayed.apply(seat, move)
        assert table.state.rng.getstate() == replayed.rng.getstate(), game
        assert table.state.view(0).to_dict() == replayed.view(0).to_dict(), game
        await m.cancel(table.id, HOST)


async def test_a_store_given_up_on_cannot_commit_after_its_move_is_undone(tmp_path: Any) -> None:
    """A frozen PostgreSQL that is continued still runs what it had received: the dropped
    connection's INSERT can commit after the delete that undoes its move, bringing back a
    move its person was told did not count. The delete first ends that connection's server
    process and waits it out (``Postgres.settle``); here its transaction is still open when
    the move is undone, and can no longer commit afterwards."""
    import os

    import asyncpg
    import pytest

    from bot.storage.db.postgres import Postgres
    from tests.bot.conftest import PG_ENV, with_schema

    server = os.environ.get(PG_ENV, "").strip()
    if not server:
        pytest.skip(f"set {PG_ENV} (bash scripts/test starts a server)")
    schema = f"test_settle_{os.getpid()}"
    admin = await asyncpg.connect(server)
    await admin.execute(f"CREATE SCHEMA {schema}")
    url = with_schema(server, schema)
    store = await Storage.open(url)
    try:
        table_id = await store.create_table(1, 77, "high-card", 5, [], {}, 1, "off")
        await store.add_action(table_id, 0, 0, "play:AS", 5, "player")
        late = await asyncpg.connect(server, server_settings={"search_path": schema})
        try:
            await late.execute("BEGIN")
            await late.execute(
                "INSERT INTO actions (table_id, idx, seat, action, user_id, how, at)"
                " VALUES ($1, 1, 0, 'knock', 5, 'player', 0)", table_id)
            assert isinstance(store.db, Postgres)
            store.db.dropped.add(late.get_server_pid())  # as a store that timed out
            assert await store.drop_actions(table_id, 1) == 0
            with pytest.raises((asyncpg.PostgresError, asyncpg.InterfaceError, OSError)):
                await late.execute("COMMIT")  # its server process is gone
        finally:
            late.terminate()
        assert [r.action for r in await store.actions(table_id)] == ["play:AS"]
        assert not store.db.dropped
    finally:
        await store.close()
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        await admin.close()
