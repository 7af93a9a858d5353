"""Recording finished games once, ratings per server and game, restarts and forgetting."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Sequence

import pytest

from bot.storage import ratings
from bot.storage.ratings import ALL_GAMES, Skill
from bot.storage.records import FORGOTTEN, Records
from bot.storage.store import Storage
from bot.tables import FINISHED, PLAYING, TableManager
from bot.tables.model import Table
from tests.bot.fakegame import lookup
from tests.bot.test_tables import live, play_all

GUILD = 100
ALICE, BOB, CAROL, DAVE = 1, 2, 3, 4
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol", DAVE: "Dave"}


@pytest.fixture
async def setup(store: Storage) -> AsyncIterator[tuple[TableManager, Records]]:
    """A manager whose finished games are recorded (on each back end)."""
    manager = TableManager(store, rules_for=lookup, ai_delay=0.0, timer_scale=0.0001)
    records = Records.for_storage(store, lookup)

    async def hook(table_id: int) -> None:
        await records.record(table_id)

    manager.finish_hooks.append(hook)
    yield manager, records
    await manager.close()
    records.close()


async def game(m: TableManager, people: list[int], computers: int = 0, channel: int = 10,
               seed: int = 5, options: dict[str, object] | None = None) -> Table:
    """A whole game of the test game with these people (and computers)."""
    table = live(m, await m.open(GUILD, channel, "high-card", people[0], NAMES[people[0]],
                                 seed=seed))
    for user in people[1:]:
        await m.join(table.id, user, NAMES[user])
    for _ in range(computers):
        await m.add_computer(table.id, people[0])
    for name, value in (options or {}).items():
        await m.set_option(table.id, people[0], name, value)
    await m.start(table.id, people[0])
    await play_all(m, table)
    for _ in range(200):
        if table.status == FINISHED:
            break
        await asyncio.sleep(0.005)
    assert table.status == FINISHED
    return table


async def count(records: Records, sql: str, *args: object) -> int:
    row = await records.db.one(sql, *args)
    assert row is not None
    return int(row[0])


async def places_of(records: Records, table_id: int) -> list[int]:
    row = await records.db.one("SELECT places FROM records WHERE table_id=?", table_id)
    assert row is not None
    return list(json.loads(row[0]))


async def test_a_two_player_game_is_recorded_once_and_rated(setup: tuple[TableManager, Records]
                                                           ) -> None:
    m, records = setup
    table = await game(m, [ALICE, BOB])
    assert await count(records, "SELECT COUNT(*) FROM records") == 1
    row = await records.db.one("SELECT game, seed, rated, moves, options FROM records"
                               " WHERE table_id=?", table.id)
    assert row is not None and row[0] == "high-card" and row[1] == 5 and row[2] == 1 and row[3] > 0
    places = await places_of(records, table.id)
    winner, loser = (ALICE, BOB) if places[0] < places[1] else (BOB, ALICE)
    expected = ratings.rate([[Skill()], [Skill()]], sorted(places))
    for key in ("high-card", ALL_GAMES):
        won = await records.skill(GUILD, key, winner)
        lost = await records.skill(GUILD, key, loser)
        assert won is not None and lost is not None
        assert won.mu == pytest.approx(expected[0][0].mu)
        assert lost.mu == pytest.approx(expected[1][0].mu)
    assert not await records.record(table.id)  # again: nothing happens
    assert await records.catch_up() == []
    assert await count(records, "SELECT COUNT(*) FROM record_seats") == 2
    board = await records.leaderboard(GUILD, "high-card", user_id=loser)
    assert [r.user_id for r in board.rows] == [winner, loser]
    assert board.rows[0].games == 1 and board.rows[0].wins == 1
    assert board.mine is not None and board.mine.rank == 2 and board.total == 2


async def test_ratings_carry_on_from_game_to_game(setup: tuple[TableManager, Records]) -> None:
    m, records = setup
    first = await game(m, [ALICE, BOB, CAROL], seed=1)
    second = await game(m, [ALICE, BOB, CAROL], seed=2)
    skills = {u: Skill() for u in (ALICE, BOB, CAROL)}
    for table in (first, second):
        places = await places_of(records, table.id)
        order = [ALICE, BOB, CAROL]
        new = ratings.rate([[skills[u]] for u in order], places)
        skills = {u: new[i][0] for i, u in enumerate(order)}
    for user, skill in skills.items():
        got = await records.skill(GUILD, "high-card", user)
        assert got is not None
        assert got.mu == pytest.approx(skill.mu) and got.sigma == pytest.approx(skill.sigma)
    stats = await records.stats(GUILD, ALICE)
    assert [s.game for s in stats] == ["high-card"] and stats[0].games == 2
    assert stats[0].partner is None  # everyone plays alone: nobody is a partner
    history = await records.history(GUILD, ALICE)
    assert [h.table_id for h in history] == [second.id, first.id]
    assert all(h.rated and h.players == 3 for h in history)


async def test_a_game_with_a_computer_is_counted_but_unrated(
        setup: tuple[TableManager, Records]) -> None:
    m, records = setup
    table = await game(m, [ALICE, BOB], computers=1)
    assert await count(records, "SELECT rated FROM records WHERE table_id=?", table.id) == 0
    assert await records.skill(GUILD, "high-card", ALICE) is None
    stats = await records.stats(GUILD, ALICE)
    assert stats[0].games == 1 and stats[0].skill is None
    board = await records.leaderboard(GUILD, "high-card", user_id=ALICE)
    assert board.rows == [] and board.mine is None and board.total == 0
    assert await count(records, "SELECT COUNT(*) FROM record_seats") == 2  # people only


async def test_a_player_whose_seat_the_computer_kept_is_ranked_last(
        setup: tuple[TableManager, Records]) -> None:
    m, records = setup
    table = live(m, await m.open(GUILD, 10, "high-card", ALICE, "Alice", seed=3))
    await m.join(table.id, BOB, "Bob")
    await m.join(table.id, CAROL, "Carol")
    await m.start(table.id, ALICE)
    await m.hand_to_computer(table.id, ALICE, 0)  # Alice leaves; the computer keeps her seat
    await play_all(m, table)
    for _ in range(200):
        if table.status == FINISHED:
            break
        await asyncio.sleep(0.005)
    places = await places_of(records, table.id)
    rows = await records.db.all("SELECT user_id, rank, won, abandoned FROM record_seats"
                                " WHERE table_id=? ORDER BY seat", table.id)
    assert rows[0][0] == ALICE and rows[0][3] == 1 and rows[0][2] == 0
    assert rows[0][1] == 3  # last of three, whatever the computer scored for her
    assert await count(records, "SELECT rated FROM records WHERE table_id=?", table.id) == 1
    others = [p for s, p in enumerate(places) if s != 0]
    ranks = [3, 1 + sum(1 for o in others if o < others[0]), 1 + sum(
        1 for o in others if o < others[1])]
    expected = ratings.rate([[Skill()], [Skill()], [Skill()]], ranks)
    alice = await records.skill(GUILD, "high-card", ALICE)
    assert alice is not None and alice.mu == pytest.approx(expected[0][0].mu)
    assert alice.mu < 25


async def test_partners_are_rated_as_teams(setup: tuple[TableManager, Records]) -> None:
    m, records = setup
    table = await game(m, [ALICE, BOB, CAROL, DAVE], options={"teams": True, "hand": 5})
    rows = await records.db.all("SELECT user_id, side, rank FROM record_seats WHERE table_id=?"
                                " ORDER BY seat", table.id)
    assert rows[0][1] == rows[2][1] != rows[1][1] == rows[3][1]  # seats 0+2 and 1+3
    places = await places_of(records, table.id)
    ranks = [min(places[0], places[2]), min(places[1], places[3])]
    expected = ratings.rate([[Skill(), Skill()], [Skill(), Skill()]], ranks)
    for seat, user in enumerate([ALICE, BOB, CAROL, DAVE]):
        got = await records.skill(GUILD, "high-card", user)
        assert got is not None
        assert got.mu == pytest.approx(expected[seat % 2][seat // 2].mu)
    alice = (await records.stats(GUILD, ALICE))[0]
    assert alice.partner is not None and alice.partner[0] == CAROL


async def test_a_result_stored_before_a_crash_is_recorded_on_restart(target: str) -> None:
    store = await Storage.open(target)
    m = TableManager(store, rules_for=lookup, ai_delay=0.0)  # no hook: the bot dies first
    table = await game(m, [ALICE, BOB])
    await m.close()
    await store.close()
    store = await Storage.open(target)  # the next start
    records = Records.for_storage(store, lookup)
    assert await count(records, "SELECT COUNT(*) FROM records") == 0
    assert await records.catch_up() == [table.id]
    assert await records.catch_up() == []
    assert await count(records, "SELECT COUNT(*) FROM records") == 1
    assert await count(records, "SELECT SUM(games) FROM ratings WHERE game='high-card'") == 2
    records.close()
    await store.close()


async def test_a_crash_between_the_last_move_and_the_result(store: Storage) -> None:
    m = TableManager(store, rules_for=lookup, ai_delay=0.0)
    table = await game(m, [ALICE, BOB])
    await m.close()
    # as if the bot died after storing the last action but before storing the result
    await store.db.execute("DELETE FROM results")
    await store.db.execute("UPDATE tables SET status='playing'")
    again = TableManager(store, rules_for=lookup, ai_delay=0.0)
    records = Records.for_storage(store, lookup)

    async def hook(table_id: int) -> None:
        await records.record(table_id)

    again.finish_hooks.append(hook)
    resumed = await again.resume()
    assert [t.status for t in resumed] == [FINISHED] and again.tables == {}
    assert await store.result(table.id) is not None
    assert await count(records, "SELECT COUNT(*) FROM records") == 1
    assert await records.catch_up() == []
    assert await again.resume() == []  # nothing left to finish: not recorded twice
    assert await count(records, "SELECT COUNT(*) FROM records") == 1
    assert await count(records, "SELECT COUNT(*) FROM tables WHERE status=?", PLAYING) == 0
    await again.close()
    records.close()


async def test_recording_from_two_processes_at_once_keeps_one_record(
        setup: tuple[TableManager, Records], target: str) -> None:
    m, records = setup
    m.finish_hooks.clear()
    table = await game(m, [ALICE, BOB])
    second = await Storage.open(target)  # as another bot process sharing the database
    other = Records.for_storage(second, lookup)
    done = await asyncio.gather(*(r.record(table.id) for r in (records, other, records, other)))
    assert sorted(done) == [False, False, False, True]
    assert await count(records, "SELECT COUNT(*) FROM records") == 1
    assert await count(records, "SELECT games FROM ratings WHERE user_id=? AND game='high-card'",
                 ALICE) == 1
    other.close()
    await second.close()


async def test_forget_me_removes_a_person_and_replays_ratings_without_them(
        setup: tuple[TableManager, Records]) -> None:
    m, records = setup
    tables = [await game(m, [ALICE, BOB, CAROL], seed=s) for s in (1, 2, 3)]
    duo = await game(m, [ALICE, BOB], seed=4)
    before = await records.skill(GUILD, "high-card", ALICE)
    removed = await records.forget(BOB)
    assert removed == 4
    assert await count(records, "SELECT COUNT(*) FROM record_seats WHERE user_id=?", BOB) == 0
    assert await count(records, "SELECT COUNT(*) FROM ratings WHERE user_id=?", BOB) == 0
    for table in tables:
        (text,) = await records.db.one("SELECT seats FROM records WHERE table_id=?", table.id)
        seats = json.loads(text)
        assert seats[1]["user_id"] is None and seats[1]["name"] == FORGOTTEN
        (text,) = await records.db.one("SELECT seats FROM results WHERE table_id=?", table.id)
        assert BOB not in [s["user_id"] for s in json.loads(text)]
    assert await count(records, "SELECT COUNT(*) FROM actions WHERE user_id=?", BOB) == 0
    # Alice and Carol: their three games replayed with Bob's seat left out; the duo is void
    skills = {ALICE: Skill(), CAROL: Skill()}
    for table in tables:
        places = await places_of(records, table.id)
        order = sorted([(0, ALICE), (2, CAROL)])
        # the stored ranks are the places among all three: openskill only uses their order
        new = ratings.rate([[skills[u]] for _, u in order], [places[s] for s, _ in order])
        skills = {u: new[i][0] for i, (_, u) in enumerate(order)}
    for user in (ALICE, CAROL):
        got = await records.skill(GUILD, "high-card", user)
        assert got is not None and got.mu == pytest.approx(skills[user].mu)
    after = await records.skill(GUILD, "high-card", ALICE)
    assert after != before
    stats = {s.game: s for s in await records.stats(GUILD, ALICE)}
    assert stats["high-card"].games == 4 and stats["high-card"].rated == 3
    assert duo.id in [h.table_id for h in await records.history(GUILD, ALICE)]
    assert await records.history(GUILD, BOB) == []
    # later games are recorded on top of the replayed ratings
    await game(m, [ALICE, CAROL], seed=9)
    assert await count(records, "SELECT rated FROM ratings WHERE user_id=? AND game='high-card'",
                 ALICE) == 4


async def test_leaderboard_pages_ranks_ties_and_the_callers_line(
        setup: tuple[TableManager, Records]) -> None:
    _, records = setup
    ordinals = [9.0, 7.0, 7.0, 5.0, 5.0, 5.0, 1.0]
    await records.db.executemany(
        "INSERT INTO ratings VALUES (?, 'g', ?, ?, 25, 8, ?, 1, 2, 1)",
        [(GUILD, user, f"P{user}", o) for user, o in enumerate(ordinals, start=1)])
    await records.db.execute(
        "INSERT INTO ratings VALUES (?, 'g', 99, 'new', 25, 8, NULL, 0, 1, 0)", GUILD)
    first = await records.leaderboard(GUILD, "g", 0, user_id=6, per_page=3)
    second = await records.leaderboard(GUILD, "g", 1, user_id=99, per_page=3)
    last = await records.leaderboard(GUILD, "g", 5, per_page=3)
    assert [r.rank for r in first.rows] == [1, 2, 2]
    assert [r.rank for r in second.rows] == [4, 4, 4]
    assert [r.rank for r in last.rows] == [7] and last.page == 2 and last.pages == 3
    assert first.total == 7 and first.mine is not None and first.mine.rank == 4
    assert second.mine is None  # unrated players are not on the board
    assert first.rows[0].win_share == 0.5


async def test_forget_me_starts_over_when_a_game_is_recorded_during_its_replay(
        setup: tuple[TableManager, Records]) -> None:
    m, records = setup
    first = await game(m, [ALICE, BOB, CAROL], seed=1)
    replay = records.replay_ratings
    calls = 0

    async def replay_while_a_game_ends(guild_id: int, without: int | None = None
                                       ) -> list[tuple[object, ...]]:
        nonlocal calls
        calls += 1
        rows = await replay(guild_id, without)
        if calls == 1:  # another game ends (and is recorded) while the history is replayed
            await game(m, [ALICE, CAROL], seed=2)
        return rows

    records.replay_ratings = replay_while_a_game_ends  # type: ignore[method-assign]
    assert await records.forget(BOB) == 1
    assert calls == 2  # the first replay was stale: done again
    stats = {s.game: s for s in await records.stats(GUILD, ALICE)}
    assert stats["high-card"].games == 2 and stats["high-card"].rated == 2
    places = await places_of(records, first.id)
    skills = ratings.rate([[Skill()], [Skill()]], [places[0], places[2]])
    later = await records.db.one("SELECT places FROM records WHERE table_id=?", first.id + 1)
    assert later is not None
    second = json.loads(later[0])
    skills = ratings.rate([[skills[0][0]], [skills[1][0]]], second)
    alice = await records.skill(GUILD, "high-card", ALICE)
    assert alice is not None and alice.mu == pytest.approx(skills[0][0].mu)


async def dropped_game(m: TableManager, people: list[int], seed: int) -> Table:
    """A game whose first seat is dropped after missed deadlines (as the timing marks it: away
    and dropped, the computer keeping the seat to the end)."""
    table = live(m, await m.open(GUILD, 10, "high-card", people[0], NAMES[people[0]], seed=seed))
    for user in people[1:]:
        await m.join(table.id, user, NAMES[user])
    await m.start(table.id, people[0])
    await m.hand_to_computer(table.id, people[0], 0)
    table.seats[0].dropped = True
    await play_all(m, table)
    for _ in range(200):
        if table.status == FINISHED:
            break
        await asyncio.sleep(0.005)
    assert table.status == FINISHED
    return table


async def test_a_dropped_seat_counts_a_game_but_no_rating_change_and_the_others_are_rated(
        setup: tuple[TableManager, Records]) -> None:
    m, records = setup
    await game(m, [ALICE, BOB, CAROL], seed=1)  # everyone has a rating first
    before = {(u, key): await records.skill(GUILD, key, u) for u in (ALICE, BOB, CAROL)
              for key in ("high-card", ALL_GAMES)}
    season = {u: await records.db.one("SELECT mu, sigma, ordinal, rated FROM season_ratings"
                                      " WHERE guild_id=? AND game='high-card' AND user_id=?",
                                      GUILD, u) for u in (ALICE, BOB, CAROL)}
    table = await dropped_game(m, [ALICE, BOB, CAROL], seed=1)
    assert await count(records, "SELECT rated FROM records WHERE table_id=?", table.id) == 1
    rows = await records.db.all("SELECT user_id, won, abandoned FROM record_seats"
                                " WHERE table_id=? ORDER BY seat", table.id)
    assert len(rows) == 3 and tuple(rows[0]) == (ALICE, 0, 1)  # kept: played, not won
    assert (await places_of(records, table.id))[0] == 1  # though her seat came first
    # Alice's skill stays as it was, all time and in the season
    for key in ("high-card", ALL_GAMES):
        assert before[(ALICE, key)] is not None
        assert await records.skill(GUILD, key, ALICE) == before[(ALICE, key)]
    after_season = await records.db.one(
        "SELECT mu, sigma, ordinal, rated FROM season_ratings WHERE guild_id=?"
        " AND game='high-card' AND user_id=?", GUILD, ALICE)
    assert tuple(after_season) == tuple(season[ALICE])
    stats = (await records.stats(GUILD, ALICE))[0]
    assert stats.games == 2 and stats.rated == 1 and stats.wins <= 1
    # Bob and Carol rated between themselves by their places
    places = await places_of(records, table.id)
    b, c = before[(BOB, "high-card")], before[(CAROL, "high-card")]
    assert b is not None and c is not None
    expected = ratings.rate([[b], [c]], [places[1], places[2]])
    for user, new in ((BOB, expected[0][0]), (CAROL, expected[1][0])):
        got = await records.skill(GUILD, "high-card", user)
        assert got is not None and got.mu == pytest.approx(new.mu)
        assert got.sigma == pytest.approx(new.sigma)
    # the history says the game was unrated for Alice alone
    assert [h.rated for h in await records.history(GUILD, ALICE) if h.table_id == table.id] == [
        False]
    assert [h.rated for h in await records.history(GUILD, BOB) if h.table_id == table.id] == [
        True]
    # a replay (forgetting someone) counts it the same way
    stored = await records.db.all("SELECT guild_id, game, user_id, name, mu, sigma, ordinal,"
                                  " rated, games, wins FROM ratings WHERE guild_id=?", GUILD)
    assert rounded(await records.replay_ratings(GUILD)) == rounded(stored)
    stored = await records.db.all("SELECT guild_id, season, game, user_id, name, mu, sigma,"
                                  " ordinal, rated, games, wins FROM season_ratings"
                                  " WHERE guild_id=?", GUILD)
    assert rounded(await records.seasons.replay(GUILD)) == rounded(stored)


def rounded(rows: Sequence[Sequence[object]]) -> list[tuple[object, ...]]:
    """Rows sorted, their figures rounded (a replay adds them up in the same order)."""
    return sorted(tuple(round(v, 9) if isinstance(v, float) else v for v in row)
                  for row in rows)


async def test_a_two_player_game_with_a_dropped_seat_is_unrated(
        setup: tuple[TableManager, Records]) -> None:
    m, records = setup
    table = await dropped_game(m, [ALICE, BOB], seed=4)
    assert await count(records, "SELECT rated FROM records WHERE table_id=?", table.id) == 0
    for user in (ALICE, BOB):
        assert await records.skill(GUILD, "high-card", user) is None
        assert (await records.stats(GUILD, user))[0].games == 1
    board = await records.leaderboard(GUILD, "high-card")
    assert board.total == 0
