"""Seasons: a season ended by hand or by its length on a moved clock, the soft reset of the
ratings into the next, the old podium kept, the all-time board untouched, forgetting, a
database from before seasons, and the same through the simulated Discord in two languages."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.storage import ratings
from bot.storage.ratings import ALL_GAMES, MU, SIGMA, Skill
from bot.storage.records import Records
from bot.storage.seasons import season_end
from bot.storage.store import Storage
from bot.tables import TableManager
from bot.tables.clock import ManualClock
from tests.bot.fakegame import lookup
from tests.bot.sim_helpers import world
from tests.bot.test_e2e_leaderboard import command, play_one, text_of
from tests.bot.test_records import ALICE, BOB, CAROL, GUILD, game

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def instant(year: int, month: int, day: int, hour: int = 0) -> float:
    return datetime(year, month, day, hour, tzinfo=UTC).timestamp()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(instant(2027, 1, 15, 12))


@pytest.fixture
async def setup(store: Storage, clock: ManualClock
                ) -> AsyncIterator[tuple[TableManager, Records]]:
    """A manager whose finished games are recorded by records on a manual clock."""
    manager = TableManager(store, rules_for=lookup, ai_delay=0.0, timer_scale=0.0001)
    records = Records.for_storage(store, lookup, clock=clock)

    async def hook(table_id: int) -> None:
        await records.record(table_id)

    manager.finish_hooks.append(hook)
    yield manager, records
    await manager.close()
    records.close()


async def skills(records: Records, season: int | None, game: str = "high-card"
                 ) -> dict[int, Skill]:
    """Every rated player's skill on a board (all time when ``season`` is None)."""
    board = await records.leaderboard(GUILD, game, per_page=50, season=season)
    return {row.user_id: Skill(row.mu, row.sigma) for row in board.rows}


def test_the_soft_reset_pulls_halfway_to_the_mean_and_adds_uncertainty() -> None:
    assert ratings.soft_reset(Skill(35.0, 4.0)) == Skill(30.0, 5.0)
    assert ratings.soft_reset(Skill(15.0, 2.5)) == Skill(20.0, 3.5)
    # uncertainty never grows past a newcomer's
    assert ratings.soft_reset(Skill(MU, SIGMA - 0.5)) == Skill(MU, SIGMA)


def test_a_seasons_end_follows_the_calendar() -> None:
    assert season_end(instant(2027, 1, 15, 12), "month") == instant(2027, 2, 1)
    assert season_end(instant(2027, 12, 31, 23), "month") == instant(2028, 1, 1)
    assert season_end(instant(2027, 2, 1), "month") == instant(2027, 3, 1)  # strictly after
    assert season_end(instant(2027, 2, 10), "quarter") == instant(2027, 4, 1)
    assert season_end(instant(2027, 11, 30), "quarter") == instant(2028, 1, 1)
    assert season_end(instant(2027, 2, 10), "none") is None


async def test_a_season_ended_by_hand_keeps_its_podium_and_the_next_starts_softly_reset(
        setup: tuple[TableManager, Records], clock: ManualClock) -> None:
    m, records = setup
    await game(m, [ALICE, BOB, CAROL], seed=1)
    await game(m, [ALICE, BOB], seed=2)
    first = await records.seasons.running(GUILD)
    assert (first.number, first.length, first.ends, first.ended) == (1, "none", None, None)
    podium = await records.leaderboard(GUILD, ALL_GAMES, per_page=3, season=1)
    final = await skills(records, 1)
    all_time = await records.leaderboard(GUILD, "high-card", per_page=50)
    # season 1 began with the first game: its board is the all-time board
    assert final == await skills(records, None) and len(final) == 3
    clock.advance(3600)
    ended, new = await records.seasons.end(GUILD)
    assert (ended.number, ended.ended, new.number, new.started, new.ended) == (
        1, clock.now(), 2, clock.now(), None)
    # the new season's board is empty until someone plays a rated game in it
    empty = await records.leaderboard(GUILD, "high-card", season=2, user_id=ALICE)
    assert empty.rows == [] and empty.mine is None and empty.total == 0
    # the old podium and final table are kept as they were; so is the all-time board
    assert await records.leaderboard(GUILD, ALL_GAMES, per_page=3, season=1) == podium
    assert await skills(records, 1) == final
    assert await records.leaderboard(GUILD, "high-card", per_page=50) == all_time
    # a game of the new season starts from the soft reset; the all-time one carries on
    table = await game(m, [ALICE, BOB], seed=3)
    places = await records.db.one("SELECT places, season FROM records WHERE table_id=?",
                                  table.id)
    assert places is not None and places[1] == 2
    order = [int(p) for p in places[0].strip("[]").split(",")]
    start = [ratings.soft_reset(final[ALICE]), ratings.soft_reset(final[BOB])]
    expected = ratings.rate([[start[0]], [start[1]]], order)
    now = await skills(records, 2)
    assert set(now) == {ALICE, BOB}  # Carol has not played in season 2
    assert now[ALICE].mu == pytest.approx(expected[0][0].mu)
    assert now[BOB].sigma == pytest.approx(expected[1][0].sigma)
    # all time: from the all-time skills (season 1's final ones), not the reset ones
    carried = ratings.rate([[final[ALICE]], [final[BOB]]], order)
    later = await skills(records, None)
    assert later[ALICE].mu == pytest.approx(carried[0][0].mu)
    assert later[ALICE].mu != pytest.approx(now[ALICE].mu)
    assert [s.number for s in await records.seasons.all(GUILD)] == [1, 2]


async def test_a_season_ends_by_its_length_on_the_moved_clock(
        setup: tuple[TableManager, Records], clock: ManualClock) -> None:
    m, records = setup
    await game(m, [ALICE, BOB], seed=1)
    season = await records.seasons.set_length(GUILD, "month")
    assert (season.number, season.length, season.ends) == (1, "month", instant(2027, 2, 1))
    clock.set(instant(2027, 1, 31, 23))
    assert (await records.seasons.running(GUILD)).number == 1  # not yet
    clock.set(instant(2027, 2, 3))
    # no task ran: the next recorded game closes season 1 at its end and counts in season 2
    table = await game(m, [ALICE, BOB], seed=2)
    row = await records.db.one("SELECT season FROM records WHERE table_id=?", table.id)
    assert row is not None and row[0] == 2
    first, second = await records.seasons.all(GUILD)
    assert first.ended == instant(2027, 2, 1) and second.started == instant(2027, 2, 1)
    assert second.ends == instant(2027, 3, 1) and second.ended is None
    assert len((await records.leaderboard(GUILD, "high-card", season=1)).rows) == 2
    assert len((await records.leaderboard(GUILD, "high-card", season=2)).rows) == 2
    # three quiet months later a look at the season closes season 2 and leaves no empty
    # seasons behind: season 3 runs from March 1 to the month after now
    clock.set(instant(2027, 5, 20))
    third = await records.seasons.running(GUILD)
    assert (third.number, third.started, third.ends) == (3, instant(2027, 3, 1),
                                                         instant(2027, 6, 1))
    # a server without a length: its season never ends by itself
    await records.seasons.set_length(GUILD, "none")
    clock.set(instant(2030, 1, 1))
    assert (await records.seasons.running(GUILD)).number == 3


async def test_forgetting_a_person_replays_every_season_without_them(
        setup: tuple[TableManager, Records]) -> None:
    m, records = setup
    await game(m, [ALICE, BOB, CAROL], seed=1)
    await records.seasons.end(GUILD)
    await game(m, [ALICE, BOB], seed=2)
    await game(m, [ALICE, CAROL], seed=4)

    async def stored() -> list[tuple[Any, ...]]:
        rows = await records.db.all(
            "SELECT guild_id, season, game, user_id, name, mu, sigma, ordinal, rated, games,"
            " wins FROM season_ratings ORDER BY season, game, user_id")
        return [tuple(r) for r in rows]

    # the replay of the seasons gives back what recording them game by game stored
    live = await stored()
    replayed = sorted(await records.seasons.replay(GUILD), key=lambda r: (r[1], r[2], r[3]))
    assert len(live) == len(replayed) == 12
    for a, b in zip(live, replayed, strict=True):
        assert a[:5] == b[:5] and a[8:] == b[8:]
        assert a[5] == pytest.approx(b[5]) and a[6] == pytest.approx(b[6])
    assert await records.forget(BOB) == 2
    after = await stored()
    assert BOB not in {r[3] for r in after}
    board = await records.leaderboard(GUILD, "high-card", season=2)
    assert [r.user_id for r in board.rows] != [] and BOB not in [r.user_id for r in board.rows]


async def test_a_database_from_before_seasons_is_its_first_season(tmp_path: Path) -> None:
    copy = tmp_path / "old.db"
    shutil.copyfile(FIXTURES / "v1_tables.db", copy)
    store = await Storage.open(str(copy))
    records = Records.for_storage(store, lookup, clock=ManualClock())
    try:
        guild = int((await store.db.one("SELECT guild_id FROM records"))[0])
        game_id = str((await store.db.one("SELECT game FROM records"))[0])
        all_time = await records.leaderboard(guild, game_id)
        season = await records.leaderboard(guild, game_id, season=1)
        assert all_time.rows and season.rows == all_time.rows
        [first] = await records.seasons.all(guild)
        assert (first.number, first.length, first.ended) == (1, "none", None)
    finally:
        async with records.lock:
            records.close()
        await store.close()


async def test_seasons_through_discord_in_english_and_japanese(tmp_path: Path) -> None:
    async with world(tmp_path, people=3) as w:
        alice, bob, carol = w.users  # Carol manages the server
        cog: Any = w.bot.get_cog("StatsCog")
        clock = ManualClock(instant(2027, 1, 15, 12))
        cog.records.clock = clock  # the service's clock, moved by the test
        await play_one(w)
        board = await command(w, alice, "leaderboard", {"game": "high-card"})
        assert "· season 1" in text_of(board) and "Alice" in text_of(board)
        all_time = await command(w, alice, "leaderboard", {"game": "high-card", "season": 0})
        lines = board.embeds[0]["description"]
        assert all_time.embeds[0]["description"] == lines and "all time" in text_of(all_time)
        # a manager's command: hidden from others, and refused if a server shows it to them
        with pytest.raises(AssertionError, match="hidden"):
            await w.sim.slash(alice, w.channel, "season end")
        for definition in w.sim._global_commands:  # the server's admins opened it to all
            if definition["name"] == "season":
                definition["default_member_permissions"] = None
        refused = await command(w, alice, "season end")
        assert "Only a server manager" in text_of(refused)
        assert (await cog.records.seasons.running(w.guild.id)).number == 1
        # Carol ends season 1: its podium and final table, with its picture
        ended = await command(w, carol, "season end")
        assert "Season 1 is over. Podium: 1. " in ended.content and "Season 2 has begun" in (
            ended.content)
        assert "final table" in text_of(ended)
        assert [a["filename"] for a in ended.attachments] == ["leaderboard.png"]
        fresh = await command(w, alice, "leaderboard", {"game": "high-card"})
        assert "· season 2" in text_of(fresh) and "No rated games here yet" in text_of(fresh)
        assert "not on this leaderboard" in text_of(fresh)
        old = await command(w, bob, "leaderboard", {"game": "high-card", "season": 1})
        assert old.embeds[0]["description"] == lines and "final table" in text_of(old)
        assert [a["filename"] for a in old.attachments] == ["leaderboard.png"]
        # its page buttons stay on season 1
        assert {b["custom_id"].split(":")[2] for b in old.buttons()} == {"high-card.1"}
        again = await command(w, alice, "leaderboard", {"game": "high-card", "season": 0})
        assert again.embeds[0]["description"] == lines  # all time: unchanged
        missing = await command(w, alice, "leaderboard", {"season": 7})
        assert "There is no season 7" in text_of(missing)
        ja = await command(w, carol, "leaderboard", {"game": "high-card", "season": 1},
                           locale="ja")
        assert "シーズン 1 最終順位" in text_of(ja) and "ハイカード" in text_of(ja)
        # a month's length on the moved clock: season 2 ends by itself on February 1
        length = await command(w, carol, "season length", {"length": "month"})
        assert "Seasons now last a month" in length.content
        assert f"<t:{int(instant(2027, 2, 1))}:D>" in length.content
        ja_length = await command(w, carol, "season length", {"length": "quarter"},
                                  locale="ja")
        assert "四半期" in ja_length.content
        await command(w, carol, "season length", {"length": "month"})
        clock.set(instant(2027, 2, 2))
        # no task ran: the next look closes season 2 at its end
        board3 = await command(w, alice, "leaderboard", {"game": "high-card"})
        assert "· season 3" in text_of(board3)
        assert f"Season 3, from <t:{int(instant(2027, 2, 1))}:D>" in text_of(board3)
        two = await command(w, alice, "leaderboard", {"game": "high-card", "season": 2})
        assert "season 2, final table" in text_of(two)
        assert "No rated games here yet" in text_of(two)
        again = await command(w, alice, "leaderboard", {"game": "high-card", "season": 0})
        assert again.embeds[0]["description"] == lines
        assert w.sim.spec_errors == [], w.sim.spec_errors[:3]
        assert w.sim.client_errors == []
