"""The table manager without Discord: lobby, turns, computers, timers, storage, resume."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.client.tree import refusal_text
from bot.storage.store import Storage
from bot.tables import CANCELLED, FINISHED, LOBBY, PLAYING, Position, Refusal, TableManager
from bot.tables.model import Table
from tests.bot.conftest import Recorder
from tests.bot.fakegame import lookup

Manager = tuple[TableManager, Recorder]
HOST, BOB, CAROL, STRANGER = 1, 2, 3, 99


def live(m: TableManager, position: Position) -> Table:
    """The live table behind a position the service answered with: these tests look inside
    the service (its state, timeouts, stored row)."""
    table = m.live(position.table_id)
    assert table is not None and table.id == position.table_id
    return table


async def lobby(m: TableManager, channel: int = 10, seed: int = 5) -> Table:
    return live(m, await m.open(100, channel, "high-card", HOST, "Host", seed=seed))


async def play_one(m: TableManager, table: Table) -> None:
    """The person to act plays their first legal move (or the computers get a moment)."""
    await asyncio.sleep(0)
    state = table.state
    assert state is not None
    humans = [s for s in state.to_act if not table.seats[s].auto]
    if not humans:
        await asyncio.sleep(0.001)
        return
    user = table.seats[humans[0]].user_id
    assert user is not None
    try:
        await m.act(table.id, user, table.version, state.legal_actions(humans[0])[0])
    except Refusal as refused:  # a computer moved first: look again
        assert refused.key == "stale"


async def play_all(m: TableManager, table: Table) -> None:
    """Humans play their first legal move until the game ends."""
    for _ in range(500):
        if table.status != PLAYING:
            return
        await play_one(m, table)
    raise AssertionError("the game did not end")


async def test_lobby_join_leave_and_computers(manager: Manager) -> None:
    m, rec = manager
    table = await lobby(m)
    await m.join(table.id, BOB, "Bob")
    with pytest.raises(Refusal) as again:
        await m.join(table.id, BOB, "Bob")
    assert again.value.key == "already-seated"
    await m.leave(table.id, BOB)
    assert [s.user_id for s in table.seats] == [HOST]
    await m.add_computer(table.id, HOST)
    await m.add_computer(table.id, HOST)
    await m.add_computer(table.id, HOST)
    with pytest.raises(Refusal) as full:
        await m.join(table.id, BOB, "Bob")
    assert full.value.key == "table-full"
    await m.remove_computer(table.id, HOST)
    assert sum(s.computer for s in table.seats) == 2
    assert rec.kinds() == ["lobby"] * 6


async def test_only_the_host_manages_the_lobby(manager: Manager) -> None:
    m, _ = manager
    table = await lobby(m)
    await m.join(table.id, BOB, "Bob")
    for call in (m.add_computer(table.id, BOB), m.start(table.id, BOB),
                 m.set_option(table.id, BOB, "hand", 2), m.set_timer(table.id, BOB, "fast"),
                 m.set_level(table.id, BOB, "easy")):
        with pytest.raises(Refusal) as refused:
            await call
        assert refused.value.key == "host-only"
    with pytest.raises(Refusal) as host_leaves:
        await m.leave(table.id, HOST)
    assert host_leaves.value.key == "host-cannot-leave"


async def test_a_channel_holds_many_tables(manager: Manager) -> None:
    m, _ = manager
    first = await lobby(m, channel=10)
    second = await lobby(m, channel=10)  # (tests/bot/test_channels.py: the caps)
    assert first.id != second.id and m.live_in(10) is first
    other = await lobby(m, channel=11)
    assert m.live_in(11) is other


async def test_unknown_game_is_refused(manager: Manager) -> None:
    m, _ = manager
    with pytest.raises(Refusal) as refused:
        await m.open(1, 1, "no-such-game", HOST, "Host")
    assert refused.value.key == "unknown-game"


async def test_start_needs_an_allowed_player_count(manager: Manager) -> None:
    m, _ = manager
    table = await lobby(m)
    with pytest.raises(Refusal) as refused:
        await m.start(table.id, HOST)
    assert refused.value.key == "player-count"
    assert refused.value.params["least"] == 2
    await m.join(table.id, BOB, "Bob")
    await m.start(table.id, HOST)
    assert table.status == PLAYING and table.state is not None


async def test_a_refused_option_combination_reads_in_the_players_language(
        manager: Manager) -> None:
    m, _ = manager
    table = live(m, await m.open(100, 10, "twenty-two", HOST, "Host", seed=5))
    await m.join(table.id, BOB, "Bob")
    await m.set_option(table.id, HOST, "rebuy", True)
    with pytest.raises(Refusal) as refused:
        await m.start(table.id, HOST)
    assert refused.value.key == "bad-option" and table.status == LOBBY
    assert refusal_text(refused.value, "en-US") == (
        "That option can't be used: option 'rebuy' needs 3 to 8 players.")
    assert refusal_text(refused.value, "ja") == (
        "その設定は使えません：オプション「rebuy」は 3〜8 人で使えます。")


async def test_a_refused_move_reads_in_the_players_language(manager: Manager) -> None:
    """The game's refusal travels as data (a Msg): each person reads it in their language."""
    m, _ = manager
    table = live(m, await m.open(100, 10, "twenty-two", HOST, "Host", seed=5))
    await m.join(table.id, BOB, "Bob")
    await m.start(table.id, HOST)
    state = table.state
    assert state is not None
    mover = table.seats[state.to_act[0]].user_id
    assert mover is not None
    with pytest.raises(Refusal) as refused:  # it is the exchange, not the play
        await m.act(table.id, mover, 0, "play:" + state.view(state.to_act[0])["hand"][0])
    assert refused.value.key == "illegal" and table.version == 0
    assert refusal_text(refused.value, "en-US") == (
        "You can't do that: It is the exchange: write 'exchange' to keep your hand, or "
        "'exchange:<cards>' to swap those cards.")
    assert refusal_text(refused.value, "ja") == (
        "それはできません：交換の番です：手札をそのままにするなら 'exchange'、カードを替えるなら "
        "'exchange:<カード>' と書いてください。")
    with pytest.raises(Refusal) as malformed:  # a card the move cannot name
        await m.act(table.id, mover, 0, "play:ZZ")
    assert refusal_text(malformed.value, "ja") == (
        "それはできません：「ZZ」はカードではありません（TS や 7H のように、ランク、スートの順に"
        "書いてください）")


async def test_options_are_checked_against_their_description(manager: Manager) -> None:
    m, _ = manager
    table = await lobby(m)
    await m.join(table.id, BOB, "Bob")
    with pytest.raises(Refusal) as bad:
        await m.set_option(table.id, HOST, "hand", 99)
    assert bad.value.key == "bad-option" and "hand" in str(bad.value.params["reason"])
    assert refusal_text(bad.value, "ja") == (  # a value refused in the host's language
        "その設定は使えません：オプション「hand」は 1〜26 です（99 ではありません）。")
    with pytest.raises(Refusal):
        await m.set_option(table.id, HOST, "no-such", 1)
    await m.set_option(table.id, HOST, "hand", "5")
    await m.set_option(table.id, HOST, "mode", "double")
    assert table.options == {"hand": 5, "mode": "double"}
    await m.set_option(table.id, HOST, "teams", True)
    with pytest.raises(Refusal) as combo:
        await m.start(table.id, HOST)
    assert "teams" in combo.value.params["reason"]
    await m.set_option(table.id, HOST, "teams", False)
    assert "teams" not in table.options
    await m.start(table.id, HOST)
    assert table.state is not None and table.state.options["hand"] == 5


async def test_host_swaps_seats_for_partners(manager: Manager) -> None:
    m, _ = manager
    table = await lobby(m)
    await m.join(table.id, BOB, "Bob")
    await m.join(table.id, CAROL, "Carol")
    await m.swap_seats(table.id, HOST, 1, 2)
    assert [s.user_id for s in table.seats] == [HOST, CAROL, BOB]
    with pytest.raises(Refusal):
        await m.swap_seats(table.id, HOST, 0, 7)


async def test_a_whole_game_with_a_computer_ends_and_keeps_its_result(
        manager: Manager, store: Storage) -> None:
    m, rec = manager
    table = await lobby(m)
    await m.join(table.id, BOB, "Bob")
    await m.add_computer(table.id, HOST)
    await m.set_option(table.id, HOST, "discard", True)
    await m.start(table.id, HOST)
    await play_all(m, table)
    assert table.status == FINISHED
    assert rec.kinds()[-1] == "finish"
    assert any(mv.how == "computer" for u in rec.updates for mv in u.moves)
    result = await store.result(table.id)
    assert result is not None and result["game"] == "high-card"
    assert len(result["outcome"]["places"]) == 3
    assert m.live_in(10) is None
    actions = await store.actions(table.id)
    assert len(actions) == table.version and [a.idx for a in actions] == list(range(len(actions)))


async def test_moves_are_refused_politely(manager: Manager) -> None:
    m, _ = manager
    table = await lobby(m)
    await m.join(table.id, BOB, "Bob")
    await m.start(table.id, HOST)
    state = table.state
    assert state is not None
    seat = state.to_act[0]
    mover = table.seats[seat].user_id
    other = table.seats[1 - seat].user_id
    assert mover is not None and other is not None
    legal = str(state.legal_actions(seat)[0])
    cases = [
        (STRANGER, 0, legal, "not-seated"),
        (mover, 7, legal, "stale"),
        (other, 0, "play:" + str(state.view(1 - seat)["hand"][0]), "not-your-turn"),
        (mover, 0, "play:ZZ", "illegal"),
        (mover, 0, "knock", "illegal"),
    ]
    for user, version, action, key in cases:
        with pytest.raises(Refusal) as refused:
            await m.act(table.id, user, version, action)
        assert refused.value.key == key, action
    assert table.version == 0
    await m.act(table.id, mover, 0, legal)
    assert table.version == 1


async def test_out_of_turn_moves_apply(manager: Manager) -> None:
    m, _ = manager
    table = await lobby(m)
    await m.join(table.id, BOB, "Bob")
    await m.start(table.id, HOST)
    assert table.state is not None
    waiting = 1 - table.state.to_act[0]
    user = table.seats[waiting].user_id
    assert user is not None
    outcome = await m.act(table.id, user, 0, "knock")
    assert [mv.action.kind for mv in outcome.moves] == ["knock"]
    assert outcome.version == table.version == 1 and outcome.position.seat == waiting


async def test_simultaneous_clicks_only_one_applies(manager: Manager) -> None:
    m, _ = manager
    table = await lobby(m)
    await m.join(table.id, BOB, "Bob")
    await m.start(table.id, HOST)
    assert table.state is not None
    seat = table.state.to_act[0]
    user = table.seats[seat].user_id
    assert user is not None
    actions = [str(a) for a in table.state.legal_actions(seat)]
    results = await asyncio.gather(
        *(m.act(table.id, user, 0, actions[i % len(actions)]) for i in range(20)),
        return_exceptions=True)
    applied = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, Refusal)]
    assert len(applied) == 1 and len(refused) == 19
    assert {r.key for r in refused} == {"stale"}
    assert table.version == 1


async def test_cancel_by_host_or_manager_only(manager: Manager, store: Storage) -> None:
    m, rec = manager
    table = await lobby(m)
    await m.join(table.id, BOB, "Bob")
    with pytest.raises(Refusal) as refused:
        await m.cancel(table.id, BOB)
    assert refused.value.key == "host-or-manager"
    await m.cancel(table.id, BOB, can_manage=True)
    assert table.status == CANCELLED and m.live_in(10) is None
    row = await store.table(table.id)
    assert row is not None and row.status == CANCELLED
    assert rec.kinds()[-1] == "cancel"


async def test_timeouts_move_for_the_player_then_the_computer_keeps_the_seat(
        manager: Manager) -> None:
    m, rec = manager
    table = await lobby(m)
    await m.join(table.id, BOB, "Bob")
    await m.set_timer(table.id, HOST, "fast")
    await m.set_option(table.id, HOST, "hand", 6)
    await m.start(table.id, HOST)
    for _ in range(400):
        if table.status != PLAYING:
            break
        await asyncio.sleep(0.005)
    hows = [mv.how for u in rec.updates for mv in u.moves]
    assert table.status == FINISHED
    assert hows[:4] == ["timeout"] * 4  # each seat timed out twice in a row
    assert all(s.away for s in table.seats)
    assert "computer" in hows  # after two timeouts in a row the computer plays on its own


async def test_im_back_and_hand_to_computer(manager: Manager) -> None:
    m, rec = manager
    table = await lobby(m)
    await m.join(table.id, BOB, "Bob")
    await m.set_option(table.id, HOST, "hand", 10)
    await m.start(table.id, HOST)
    with pytest.raises(Refusal) as not_host:
        await m.hand_to_computer(table.id, BOB, 0)
    assert not_host.value.key == "host-or-manager"
    with pytest.raises(Refusal) as not_away:
        await m.back(table.id, BOB)
    assert not_away.value.key == "not-away"
    await m.hand_to_computer(table.id, BOB, 1, can_manage=True)
    assert table.seats[1].away
    with pytest.raises(Refusal) as away:
        await m.act(table.id, BOB, table.version, "knock")
    assert away.value.key == "away"
    await m.back(table.id, BOB)
    assert not table.seats[1].away
    assert "away" in rec.kinds() and "back" in rec.kinds()


async def test_resume_replays_stored_actions(tmp_path: Path) -> None:
    path = str(tmp_path / "db.sqlite3")
    store = await Storage.open(path)
    first = TableManager(store, rules_for=lookup, ai_delay=0.0)
    table = live(first, await first.open(100, 10, "high-card", HOST, "Host", seed=42))
    await first.join(table.id, BOB, "Bob")
    await first.set_option(table.id, HOST, "hand", 4)
    await first.start(table.id, HOST)
    await first.set_message(table.id, 555)
    for _ in range(3):
        state = table.state
        assert state is not None
        seat = state.to_act[0]
        user = table.seats[seat].user_id
        assert user is not None
        await first.act(table.id, user, table.version, state.legal_actions(seat)[-1])
    assert table.state is not None
    before = [table.state.view(s) for s in (None, 0, 1)]
    await first.close()
    await store.close()

    store = await Storage.open(path)
    second = TableManager(store, rules_for=lookup, ai_delay=0.0)
    resumed = await second.resume()
    assert [t.table_id for t in resumed] == [table.id]
    again = live(second, resumed[0])
    assert again.version == 3 and again.message_id == 555 and again.status == PLAYING
    assert again.state is not None
    assert [again.state.view(s) for s in (None, 0, 1)] == before
    await play_all(second, again)
    assert again.status == FINISHED
    assert await store.result(table.id) is not None
    await second.close()
    await store.close()


async def test_a_lobby_survives_a_restart(tmp_path: Path) -> None:
    path = str(tmp_path / "db.sqlite3")
    store = await Storage.open(path)
    first = TableManager(store, rules_for=lookup, ai_delay=0.0)
    table = live(first, await first.open(100, 10, "high-card", HOST, "Host", seed=1))
    await first.add_computer(table.id, HOST)
    await first.set_timer(table.id, HOST, "relaxed")
    await first.set_level(table.id, HOST, "easy")
    await store.close()
    store = await Storage.open(path)
    second = TableManager(store, rules_for=lookup, ai_delay=0.0)
    (again,) = await second.resume()
    assert again.status == "lobby" and again.timer == "relaxed" and again.level == "easy"
    assert [s.computer for s in again.seats] == [False, True]
    await store.close()


async def test_the_host_chooses_how_strong_the_computers_play(manager: Manager) -> None:
    m, rec = manager
    table = await lobby(m)
    assert table.level == "hard"  # the bot's level, best, is the strongest: hard
    await m.set_level(table.id, HOST, "easy")
    assert table.level == "easy" and rec.kinds() == ["lobby"]
    for wrong in ("expert", "best", "random", "", "EASY"):
        with pytest.raises(Refusal) as refused:
            await m.set_level(table.id, HOST, wrong)
        assert refused.value.key == "bad-option" and "easy, normal, hard" in str(
            refused.value.params["reason"])
    assert table.level == "easy" and rec.kinds() == ["lobby"]


async def test_the_level_changes_in_play_by_the_host_or_a_manager(tmp_path: Path) -> None:
    path = str(tmp_path / "db.sqlite3")
    store = await Storage.open(path)
    m = TableManager(store, rules_for=lookup, ai_delay=0.0)
    rec = Recorder()
    m.listeners.append(rec)
    table = await lobby(m)
    await m.join(table.id, BOB, "Bob")
    await m.start(table.id, HOST)
    rec.updates.clear()
    await m.set_level(table.id, HOST, "easy")
    assert table.level == "easy" and rec.kinds() == ["level"]
    # a seated person who is not the host may not; someone who may manage the server may
    with pytest.raises(Refusal) as bob:
        await m.set_level(table.id, BOB, "normal")
    assert bob.value.key == "host-or-manager" and table.level == "easy"
    await m.set_level(table.id, STRANGER, "normal", can_manage=True)
    assert table.level == "normal" and rec.kinds() == ["level", "level"]
    # the level it already has: nothing to tell; a wrong level: refused, nothing changed
    await m.set_level(table.id, HOST, "normal")
    for wrong in ("expert", "best", "", "EASY"):
        with pytest.raises(Refusal) as refused:
            await m.set_level(table.id, HOST, wrong)
        assert refused.value.key == "bad-option"
    assert table.level == "normal" and rec.kinds() == ["level", "level"]
    assert table.version == 0  # the game itself did not move
    await store.close()
    store = await Storage.open(path)
    second = TableManager(store, rules_for=lookup, ai_delay=0.0)
    (again,) = await second.resume()
    assert again.status == PLAYING and again.level == "normal"
    await second.close()
    await store.close()


async def test_a_table_starts_at_the_bots_level(store: Storage) -> None:
    m = TableManager(store, rules_for=lookup, ai_delay=0.0, ai_level="normal")
    table = live(m, await m.open(100, 10, "high-card", HOST, "Host", seed=1))
    assert table.level == "normal"


async def test_a_table_whose_moves_no_longer_replay_is_ended_and_the_others_resume(
        tmp_path: Path) -> None:
    # A table stored under rules that have since changed (a Fapfap deal of five cards, say)
    # ends on resume with a reason for its message; the other tables resume as before.
    path = str(tmp_path / "db.sqlite3")
    store = await Storage.open(path)
    first = TableManager(store, rules_for=lookup, ai_delay=0.0)
    broken = live(first, await first.open(100, 10, "high-card", HOST, "Host", seed=3))
    await first.join(broken.id, BOB, "Bob")
    await first.start(broken.id, HOST)
    await first.set_message(broken.id, 555)
    good = live(first, await first.open(100, 11, "high-card", HOST, "Host", seed=4))
    await first.join(good.id, BOB, "Bob")
    await first.start(good.id, HOST)
    state = broken.state
    assert state is not None
    seat = state.to_act[0]
    theirs = str(state.view(1 - seat)["hand"][0])
    await first.close()
    # the stored move: a card the seat held under the old rules, not under the current ones
    await store.add_action(broken.id, 0, seat, f"play:{theirs}", HOST, "click")
    await store.close()

    store = await Storage.open(path)
    second = TableManager(store, rules_for=lookup, ai_delay=0.0)
    try:
        resumed = {t.table_id: t for t in await second.resume()}
        assert set(resumed) == {broken.id, good.id}
        ended = resumed[broken.id]
        assert ended.status == CANCELLED and ended.ended == "ended-no-replay"
        assert ended.message_id == 555  # its message is edited to say why
        assert broken.id not in second.tables and second.live_in(10) is None
        stored = await store.table(broken.id)
        assert stored is not None and stored.status == CANCELLED
        assert len(await store.actions(broken.id)) == 1  # nothing is deleted
        assert resumed[good.id].status == PLAYING and good.id in second.tables
        again = second.tables[good.id]
        await play_all(second, again)
        assert again.status == FINISHED
        # the channel is free: a new table opens there
        assert (await second.open(100, 10, "high-card", HOST, "Host")).status == LOBBY
    finally:
        await second.close()
        await store.close()


@pytest.mark.parametrize("stored", ["", "expert"])
async def test_a_stored_level_the_bot_does_not_know_resumes_at_the_bots(
        tmp_path: Path, stored: str) -> None:
    # '': a table stored before tables had levels; anything else unknown is not trusted
    path = str(tmp_path / "db.sqlite3")
    store = await Storage.open(path)
    first = TableManager(store, rules_for=lookup, ai_delay=0.0)
    table = live(first, await first.open(100, 10, "high-card", HOST, "Host", seed=1))
    row = table.row()
    row.level = stored
    await store.save_table(row)
    await store.close()
    store = await Storage.open(path)
    second = TableManager(store, rules_for=lookup, ai_delay=0.0, ai_level="easy")
    (again,) = await second.resume()
    assert again.level == "easy"
    await store.close()


async def computer_table_at_normal(store: Storage) -> tuple[TableManager, Table, list[str]]:
    """A started table of the test game, the host against one computer at ``normal``, whose
    players record the level each computer move asked."""
    from games import ai

    m = TableManager(store, rules_for=lookup, ai_delay=0.0)
    asked: list[str] = []

    class Named:
        def __init__(self, level: str) -> None:
            self.level = level

        def choose(self, obs: ai.Observation, rng: object) -> object:
            asked.append(self.level)
            return obs.legal[0]

    for level in ("easy", "normal", "hard"):
        m.thinker.players["high-card", level] = Named(level)  # type: ignore[assignment]
    table = live(m, await m.open(100, 10, "high-card", HOST, "Host", seed=2))
    await m.add_computer(table.id, HOST)
    await m.set_level(table.id, HOST, "normal")
    await m.start(table.id, HOST)
    return m, table, asked


async def test_the_computers_move_at_the_tables_level(store: Storage) -> None:
    m, table, asked = await computer_table_at_normal(store)
    await play_all(m, table)
    assert table.status == FINISHED
    assert asked and set(asked) == {"normal"}


async def test_a_level_changed_in_play_takes_the_computers_next_move(store: Storage) -> None:
    m, table, asked = await computer_table_at_normal(store)

    def persons_turn() -> bool:  # no computer move is under way
        state = table.state
        return state is not None and not any(table.seats[s].auto for s in state.to_act)

    for _ in range(500):  # play until the computer has moved at normal and waits on the person
        if (asked and persons_turn()) or table.status != PLAYING:
            break
        await play_one(m, table)
    assert asked and set(asked) == {"normal"} and table.status == PLAYING
    before = len(asked)
    await m.set_level(table.id, HOST, "easy")
    await play_all(m, table)
    assert table.status == FINISHED
    assert len(asked) > before and set(asked[before:]) == {"easy"}


async def test_an_action_that_cannot_be_stored_does_not_happen(manager: Manager) -> None:
    m, rec = manager
    table = await lobby(m)
    await m.join(table.id, BOB, "Bob")
    await m.start(table.id, HOST)
    assert table.state is not None
    seat = table.state.to_act[0]
    user = table.seats[seat].user_id
    assert user is not None
    before = table.state.view(None)

    async def broken(*args: object) -> None:
        raise OSError("disk full")

    original = m.store.add_action
    m.store.add_action = broken  # type: ignore[method-assign,assignment]
    with pytest.raises(Refusal) as refused:
        await m.act(table.id, user, 0, table.state.legal_actions(seat)[0])
    m.store.add_action = original  # type: ignore[method-assign]
    assert refused.value.key == "not-stored"
    assert table.version == 0 and table.state.view(None) == before
    assert rec.kinds()[-1] == "start"


async def play_until_over(m: TableManager, table: Table) -> None:
    """Whoever is to act plays their first legal move until the game is over (whether or not
    its result could be stored)."""
    assert table.state is not None
    while not table.state.over:
        seat = table.state.to_act[0]
        user = table.seats[seat].user_id
        assert user is not None
        await m.act(table.id, user, table.version, table.state.legal_actions(seat)[0])


async def finished_soon(table: Table) -> None:
    """Wait (up to 2 s) for a table to be finished by a later try."""
    for _ in range(200):
        if table.status == FINISHED:
            return
        await asyncio.sleep(0.01)


#: a two-player single game of 1234 whose deal decides it: a player with neither a play nor a
#: pass drops out at once, so the other has won before anyone moves
DECIDED_BY_THE_DEAL = 159


async def test_a_game_decided_by_the_deal_finishes_at_the_start(
        manager: Manager, store: Storage) -> None:
    m, rec = manager
    finished: list[int] = []

    async def hook(table_id: int) -> None:
        finished.append(table_id)

    m.finish_hooks.append(hook)
    table = live(m, await m.open(100, 10, "1234", HOST, "Host", seed=DECIDED_BY_THE_DEAL))
    await m.join(table.id, BOB, "Bob")
    await m.set_option(table.id, HOST, "games", 1)
    await m.start(table.id, HOST)
    assert table.state is not None and table.state.over and table.version == 0
    assert table.status == FINISHED and rec.kinds()[-2:] == ["start", "finish"]
    result = await store.result(table.id)
    assert result is not None and sorted(result["outcome"]["places"]) == [1, 2]
    assert finished == [table.id] and m.live_in(10) is None
    assert [r.id for r in await store.open_tables()] == []


async def test_a_result_that_cannot_be_stored_is_stored_on_a_later_try(
        manager: Manager, store: Storage) -> None:
    """The last move is stored but its result is not (the database fails for a moment): the
    move stands, the table shows the result and refuses more moves, and a later try stores the
    result, closes the table and runs the finish hooks once."""
    m, rec = manager
    m.conclude_retry = 0.01
    finished: list[int] = []

    async def hook(table_id: int) -> None:
        finished.append(table_id)

    m.finish_hooks.append(hook)
    table = await lobby(m)
    await m.join(table.id, BOB, "Bob")
    await m.start(table.id, HOST)
    original = m.store.finish
    failures = 0

    async def flaky(*args: Any) -> None:
        nonlocal failures
        if failures < 3:
            failures += 1
            raise OSError("connection lost")
        await original(*args)

    m.store.finish = flaky  # type: ignore[method-assign]
    await play_until_over(m, table)
    # the last move was applied and stored, and answered as a move
    assert len(await store.actions(table.id)) == table.version
    assert table.status == PLAYING and rec.kinds()[-1] == "move"
    assert await store.result(table.id) is None and finished == []
    with pytest.raises(Refusal) as refused:
        await m.act(table.id, HOST, table.version, "pass")
    assert refused.value.key == "not-started"
    with pytest.raises(Refusal) as not_cancelled:  # the result would be lost
        await m.cancel(table.id, HOST)
    assert not_cancelled.value.key == "not-started"
    await finished_soon(table)
    assert failures == 3 and table.status == FINISHED
    assert rec.kinds()[-1] == "finish" and rec.kinds().count("finish") == 1
    assert finished == [table.id]
    result = await store.result(table.id)
    assert result is not None and len(result["outcome"]["places"]) == 2
    assert m.live_in(10) is None
    assert [r.id for r in await store.open_tables()] == []


async def test_a_move_stored_although_storing_it_failed_does_not_count(
        manager: Manager, store: Storage) -> None:
    """The database stores a move but answers with an error (a connection lost after the
    commit): its person was told it did not count, so it does not: the table stays as it was,
    and the next move's store replaces the row; the game then plays on to its end."""
    m, rec = manager
    m._turns.retry = 60.0  # no mending meanwhile: the next move's store does it
    table = await lobby(m)
    await m.join(table.id, BOB, "Bob")
    await m.start(table.id, HOST)
    original = m.store.add_action

    async def stored_then_lost(*args: Any) -> None:
        await original(*args)
        raise OSError("connection lost after the commit")

    m.store.add_action = stored_then_lost  # type: ignore[method-assign]
    assert table.state is not None
    seat = table.state.to_act[0]
    user = table.seats[seat].user_id
    assert user is not None
    with pytest.raises(Refusal) as refused:
        await m.act(table.id, user, 0, table.state.legal_actions(seat)[0])
    assert refused.value.key == "not-stored" and table.version == 0
    assert len(await store.actions(table.id)) == 1  # on disk after all, for now
    m.store.add_action = original  # type: ignore[method-assign]
    again = table.state.legal_actions(seat)[-1]
    await m.act(table.id, user, 0, again)
    stored = await store.actions(table.id)
    assert table.version == 1 and [r.action for r in stored] == [str(again)]
    assert rec.kinds().count("move") == 1
    await play_until_over(m, table)
    await finished_soon(table)
    assert len(await store.actions(table.id)) == table.version
    assert table.status == FINISHED and await store.result(table.id) is not None


async def test_a_move_that_failed_but_reached_the_disk_is_deleted_soon(
        manager: Manager, store: Storage) -> None:
    """A move whose store failed but reached the disk is deleted once the database answers,
    without waiting for the table's next move: a restart before it does not bring it back."""
    m, _ = manager
    m._turns.retry = 0.01
    table = await lobby(m)
    await m.join(table.id, BOB, "Bob")
    await m.start(table.id, HOST)
    original = m.store.add_action
    fail_reads = True
    real_drop = m.store.drop_actions

    async def stored_then_lost(*args: Any) -> None:
        await original(*args)
        raise OSError("connection lost after the commit")

    async def drop(*args: Any) -> int:
        if fail_reads:
            raise OSError("still down")
        return await real_drop(*args)

    m.store.add_action = stored_then_lost  # type: ignore[method-assign]
    m.store.drop_actions = drop  # type: ignore[method-assign]
    assert table.state is not None
    seat = table.state.to_act[0]
    user = table.seats[seat].user_id
    assert user is not None
    with pytest.raises(Refusal):
        await m.act(table.id, user, 0, table.state.legal_actions(seat)[0])
    assert len(await store.actions(table.id)) == 1
    fail_reads = False  # the database answers again
    for _ in range(500):
        if not await store.actions(table.id):
            break
        await asyncio.sleep(0.01)
    assert await store.actions(table.id) == [] and table.version == 0


async def test_a_move_made_while_the_database_is_down_is_not_kept_in_memory(
        manager: Manager, store: Storage) -> None:
    """The database fails to store a move and to read the table back: the move is not left
    applied in memory (to be refused on its retry and lost on a restart); the person plays it
    again once the database answers, and it is stored."""
    m, _ = manager
    m._turns.retry = 60.0
    table = await lobby(m)
    await m.join(table.id, BOB, "Bob")
    await m.start(table.id, HOST)
    assert table.state is not None
    seat = table.state.to_act[0]
    user = table.seats[seat].user_id
    assert user is not None
    move = table.state.legal_actions(seat)[0]
    before = table.state.view(None)
    real_add, real_actions = m.store.add_action, m.store.actions

    async def down(*args: Any) -> Any:
        raise OSError("the database is down")

    m.store.add_action = down  # type: ignore[method-assign]
    m.store.actions = down  # type: ignore[method-assign]
    with pytest.raises(Refusal) as refused:
        await m.act(table.id, user, 0, move)
    assert refused.value.key == "not-stored"
    assert table.version == 0 and table.state.view(None) == before
    m.store.add_action, m.store.actions = real_add, real_actions  # type: ignore[method-assign]
    await m.act(table.id, user, 0, move)  # played again: not "no longer on offer"
    assert [r.action for r in await store.actions(table.id)] == [str(move)]


async def test_a_lobby_change_that_cannot_be_stored_is_undone(
        manager: Manager, store: Storage) -> None:
    """Joining, starting and cancelling while the database fails: refused with 'not-saved',
    and the table is exactly as stored."""
    m, _ = manager
    table = await lobby(m)
    real = m.store.save_table

    async def down(*args: Any) -> None:
        raise OSError("the database is down")

    m.store.save_table = down  # type: ignore[method-assign]
    with pytest.raises(Refusal) as refused:
        await m.join(table.id, BOB, "Bob")
    assert refused.value.key == "not-saved" and table.humans() == [HOST]
    m.store.save_table = real  # type: ignore[method-assign]
    await m.join(table.id, BOB, "Bob")
    m.store.save_table = down  # type: ignore[method-assign]
    with pytest.raises(Refusal) as refused:
        await m.start(table.id, HOST)
    assert refused.value.key == "not-saved"
    assert table.status == LOBBY and table.state is None
    with pytest.raises(Refusal) as refused:
        await m.cancel(table.id, HOST)
    assert refused.value.key == "not-saved" and table.status == LOBBY
    assert m.live_in(10) is table
    m.store.save_table = real  # type: ignore[method-assign]
    await m.start(table.id, HOST)
    stored = await store.table(table.id)
    assert stored is not None and stored.status == PLAYING and len(stored.seats) == 2


async def test_a_result_never_stored_before_a_stop_is_stored_on_restart(
        tmp_path: Path) -> None:
    path = str(tmp_path / "db.sqlite3")
    store = await Storage.open(path)
    first = TableManager(store, rules_for=lookup, ai_delay=0.0)
    table = live(first, await first.open(100, 10, "high-card", HOST, "Host", seed=42))
    await first.join(table.id, BOB, "Bob")
    await first.start(table.id, HOST)

    async def down(*args: Any) -> None:
        raise OSError("connection lost")

    store.finish = down  # type: ignore[method-assign]
    await play_until_over(first, table)
    retry = table.conclude_task
    assert retry is not None and not retry.done()
    await first.close()  # the retry stops with the bot; the table stays stored as in play
    assert retry.done() and table.status == PLAYING
    await store.close()

    store = await Storage.open(path)
    second = TableManager(store, rules_for=lookup, ai_delay=0.0)
    resumed = await second.resume()
    assert [t.table_id for t in resumed] == [table.id] and resumed[0].status == FINISHED
    assert second.live_in(10) is None
    assert await store.result(table.id) is not None
    await second.close()
    await store.close()


async def test_storage_migrations_are_numbered_and_idempotent(tmp_path: Path) -> None:
    path = str(tmp_path / "db.sqlite3")
    store = await Storage.open(path)
    from bot.storage.store import MIGRATIONS, UserSettings
    assert await store.version() == len(MIGRATIONS)
    await store.set_user_settings(7, UserSettings(dm=True, locale="ja"))
    await store.close()
    store = await Storage.open(path)
    assert await store.version() == len(MIGRATIONS)
    assert await store.user_settings(7) == UserSettings(True, "ja")
    assert await store.user_settings(8) == UserSettings()
    row = await store.db.one("PRAGMA journal_mode")
    assert row is not None and row[0] == "wal"
    await store.close()


def test_the_best_computer_level_available_is_used() -> None:
    import games
    from bot.tables.thinking import best_player
    from games import ai

    assert isinstance(best_player("high-card"), ai.RandomPlayer)  # a game with no players
    for gid in games.ids():
        assert isinstance(best_player(gid, "normal"), ai.BasicPlayer)
        strongest = best_player(gid)
        assert not isinstance(strongest, ai.RandomPlayer)
        assert type(strongest) is type(ai.get_player(ai.LEVELS[-1], gid))


async def test_a_click_while_the_computer_thinks_is_not_held_up(store: Storage) -> None:
    import time

    from games import ai

    m = TableManager(store, rules_for=lookup, ai_delay=0.0)

    class Slow:
        def choose(self, obs: ai.Observation, rng: object) -> object:
            time.sleep(0.3)
            return obs.legal[0]

    table = live(m, await m.open(1, 1, "high-card", HOST, "Host", seed=3))
    m.thinker.players["high-card", table.level] = Slow()  # type: ignore[assignment]
    await m.add_computer(table.id, HOST)
    await m.start(table.id, HOST)
    assert table.state is not None
    if table.state.to_act[0] == 0:  # let the computer be the one thinking
        await m.act(table.id, HOST, 0, table.state.legal_actions(0)[0])
    await asyncio.sleep(0.05)
    started = time.perf_counter()
    await m.act(table.id, HOST, table.version, "knock")  # out of turn, while it thinks
    assert time.perf_counter() - started < 0.2
    await asyncio.sleep(0.4)
    assert table.seats[1].computer
    await m.close()


async def test_actions_arriving_together_are_stored_together(store: Storage) -> None:
    import sqlite3

    from bot.tables.writer import ActionWriter

    first = await store.create_table(100, 1, "high-card", HOST, [], {}, 1, "off")
    second = await store.create_table(100, 2, "high-card", HOST, [], {}, 2, "off")
    writer = ActionWriter(store)
    # a database that cannot store on the spot (PostgreSQL; SQLite while it writes)
    store.db.appends_at_once = lambda: False  # type: ignore[method-assign]
    batches: list[int] = []
    original = store.add_actions

    async def counted(rows: list[tuple[int, int, int, str, int | None, str]]) -> None:
        batches.append(len(rows))
        await original(rows)

    store.add_actions = counted  # type: ignore[method-assign]
    alone = store.add_action

    async def slow(*row: Any) -> None:  # a store that takes a while: the others gather
        await asyncio.sleep(0.02)
        await alone(*row)

    store.add_action = slow  # type: ignore[method-assign]
    await asyncio.gather(*(writer.add(table, idx, 0, "knock", HOST, "player")
                           for idx in range(3) for table in (first, second)))
    assert [len(await store.actions(t)) for t in (first, second)] == [3, 3]
    assert sum(batches) >= 5  # at most the first went alone, the rest in batches
    # a batch holding a row that cannot be stored: only that row's move fails
    results = await asyncio.gather(
        writer.add(first, 3, 0, "knock", HOST, "player"),
        writer.add(second, 1, 0, "knock", HOST, "player"),  # idx 1 is taken
        writer.add(second, 3, 0, "knock", HOST, "player"),
        writer.add(first, 4, 0, "knock", HOST, "player"),
        return_exceptions=True)
    assert [isinstance(r, sqlite3.IntegrityError) for r in results] == [False, True, False, False]
    assert [len(await store.actions(t)) for t in (first, second)] == [5, 4]


async def test_actions_arriving_together_on_sqlite_are_each_stored_at_once(
        store: Storage) -> None:
    from bot.storage.db.sqlite import AsyncSqlite
    from bot.tables.writer import ActionWriter

    assert isinstance(store.db, AsyncSqlite)
    first = await store.create_table(100, 4, "high-card", HOST, [], {}, 1, "off")
    second = await store.create_table(100, 5, "high-card", HOST, [], {}, 2, "off")
    writer = ActionWriter(store)
    await asyncio.gather(*(writer.add(table, idx, 0, "knock", HOST, "player")
                           for idx in range(3) for table in (first, second)))
    assert writer._task is None  # no move waited for another task's batch
    assert [len(await store.actions(t)) for t in (first, second)] == [3, 3]
    # while another write of the process is under way, they wait for it and go together
    async with store.db.writing:
        adds = [asyncio.create_task(writer.add(table, 3, 0, "knock", HOST, "player"))
                for table in (first, second)]
        await asyncio.sleep(0.02)
        assert not any(add.done() for add in adds)
    await asyncio.gather(*adds)
    assert [len(await store.actions(t)) for t in (first, second)] == [4, 4]


async def test_a_lone_action_is_stored_by_its_caller_at_once(store: Storage) -> None:
    from bot.tables.writer import ActionWriter

    table = await store.create_table(100, 3, "high-card", HOST, [], {}, 1, "off")
    writer = ActionWriter(store)
    for idx in range(3):
        await writer.add(table, idx, 0, "knock", HOST, "player")
        assert writer._task is None  # no task of its own: stored by the caller
    assert len(await store.actions(table)) == 3
