"""/privacy forget-me leaves nothing of the person behind (#48): after playing, cancelling and
setting settings, then forgetting, no byte of the SQLite database's files (the file, its
write-ahead log and shared memory, read as bytes) holds their id (as text or as the 8-byte
integer SQLite stores) or their name; on PostgreSQL no row of any table does. Everyone else's
records, ratings and settings are kept."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot.storage.db import POSTGRESQL, SQLITE
from tests.bot.sim_helpers import World, button, world
from tests.bot.test_e2e_games import make_a_move, open_table, play_to_the_end
from tests.bot.test_e2e_leaderboard import buttons, command
from tests.discord_sim import SimUser

NAME = "Zebulon Quistgaard"


class Unwatched:
    """No watch over hidden cards (tests/bot/test_e2e_games.py has its own tests of that)."""

    def look(self) -> None:
        return None


async def add_person(w: World) -> SimUser:
    """The person who will be forgotten: a member with a name found nowhere else."""
    zeb = w.sim.add_user(NAME)
    w.sim.add_member(w.guild, zeb)
    await w.sim.settle()
    return zeb


async def cancel_in_play(w: World, manager: SimUser) -> None:
    """A server manager cancels the game under way from the host's menu."""
    table = w.table_message()
    r = await w.sim.click(manager, table, button(table, "manage")["custom_id"])
    assert r.status == "ok" and r.message is not None, r
    cancel = next(b for b in r.message.buttons() if ":cancel:" in str(b["custom_id"]))
    r = await w.sim.click(manager, r.message, cancel["custom_id"])
    assert r.status == "ok", r
    await w.sim.settle()


async def move_once(w: World, user: SimUser, rng: random.Random) -> None:
    """Moves until ``user`` has made one (the other player moving when it is their turn)."""
    before = await moves_by(w, user)
    for _ in range(40):
        await w.sim.settle(idle=0.01)
        table = w.table_message()
        turn = [u for u in [*w.users, user] if f"<@{u.id}>" in table.content]
        if turn:
            r = await w.sim.click(turn[0], table, button(table, "hand")["custom_id"])
            assert r.status == "ok" and r.message is not None, r
            await make_a_move(w, turn[0], r.message, rng)
        if await moves_by(w, user) > before:
            return
    raise AssertionError("no move of theirs was stored")


async def moves_by(w: World, user: SimUser) -> int:
    row = await w.bot.store.db.one("SELECT COUNT(*) FROM actions WHERE user_id=?", int(user.id))
    assert row is not None
    return int(row[0])


async def lived_a_little(w: World, zeb: SimUser) -> None:
    """Settings, a finished game, a cancelled lobby (joined, left and joined again), a game
    cancelled in play after their moves, and a game of others."""
    alice, bob, carol = w.users[:3]
    rng = random.Random(5)
    for name in ("settings dm", "settings four-colour", "settings alerts"):
        r = await w.sim.slash(zeb, w.channel, name, {"enabled": name != "settings alerts"})
        assert r.status == "ok", r
    r = await w.sim.slash(alice, w.channel, "settings four-colour", {"enabled": True})
    assert r.status == "ok", r
    await open_table(w, "high-card", [zeb, alice], 2, {"hand": "3"})
    await play_to_the_end(w, [zeb, alice], rng, Unwatched())  # type: ignore[arg-type]
    await w.sim.settle()
    # a lobby Zebulon hosts, Bob joins; cancelled by its host
    r = await w.sim.slash(zeb, w.channel, "play", {"game": "high-card"})
    assert r.status == "ok", r
    await w.sim.settle()
    lobby = w.table_message()
    r = await w.sim.click(bob, lobby, button(lobby, "join")["custom_id"])
    assert r.status == "ok", r
    r = await w.sim.click(zeb, w.table_message(), button(w.table_message(), "cancel")
                          ["custom_id"])
    assert r.status == "ok", r
    await w.sim.settle()
    # a lobby Alice hosts: Zebulon joins, leaves, joins again; the game is cancelled in play
    r = await w.sim.slash(alice, w.channel, "play", {"game": "high-card"})
    assert r.status == "ok", r
    await w.sim.settle()
    for verb in ("join", "leave", "join"):
        lobby = w.table_message()
        r = await w.sim.click(zeb, lobby, button(lobby, verb)["custom_id"])
        assert r.status == "ok", r
    lobby = w.table_message()
    r = await w.sim.click(alice, lobby, button(lobby, "start")["custom_id"])
    assert r.status == "ok", r
    await move_once(w, zeb, rng)
    await cancel_in_play(w, carol)
    # Alice and Bob's own game: theirs to keep
    await open_table(w, "high-card", [alice, bob], 2, {"hand": "3"})
    await play_to_the_end(w, [alice, bob], rng, Unwatched())  # type: ignore[arg-type]
    await w.sim.settle()


async def forget(w: World, user: SimUser) -> str:
    ask = await command(w, user, "privacy forget-me")
    r = await w.sim.click(user, ask, buttons(ask)["Forget me"]["custom_id"])
    await w.sim.settle()
    assert r.status == "ok", r
    assert r.message is not None
    return str(r.message.content)


def traces(user: SimUser) -> dict[str, bytes]:
    """What would name the person in a database's bytes."""
    uid = int(user.id)
    return {"id as text": str(uid).encode(), "id as an 8-byte integer": uid.to_bytes(8, "big"),
            "name": NAME.encode(), "name's first part": NAME.split()[1].encode()}


def found_in_files(db: str, user: SimUser) -> list[str]:
    """Each trace of the person in the database's files, read as bytes as they are."""
    found = []
    for path in sorted(Path(db).parent.glob(Path(db).name + "*")):
        data = path.read_bytes()
        found += [f"{what} in {path.name}" for what, pattern in traces(user).items()
                  if pattern in data]
    return found


async def every_row(w: World) -> dict[str, list[str]]:
    """PostgreSQL: every row of every table of the bot's schema, as text."""
    pool: Any = w.bot.store.db
    names = [r[0] for r in await pool.all(
        "SELECT table_name FROM information_schema.tables"
        " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'")]
    assert "tables" in names and "user_settings" in names, names
    return {name: [str(r[0]) for r in await pool.all(f"SELECT t::text FROM {name} t")]
            for name in names}


@pytest.mark.parametrize("backend", [SQLITE, POSTGRESQL], indirect=True)
async def test_forget_me_leaves_no_trace_of_the_person(tmp_path: Path) -> None:
    async with world(tmp_path, people=3) as w:
        alice, bob, _carol = w.users[:3]
        zeb = await add_person(w)
        await lived_a_little(w, zeb)
        sqlite = w.bot.store.db.dialect == SQLITE
        if sqlite:  # the test sees them before: it would see them after
            assert found_in_files(w.db, zeb)
        kept_before = await w.bot.store.db.all(
            "SELECT table_id, user_id, name FROM record_seats WHERE user_id<>? ORDER BY 1, 2",
            int(zeb.id))
        words = await forget(w, zeb)
        assert "1 game record of yours was removed" in words, words
        if sqlite:
            assert found_in_files(w.db, zeb) == []
        else:
            rows = await every_row(w)
            for table, texts in rows.items():
                for what, pattern in traces(zeb).items():
                    if what != "id as an 8-byte integer":
                        assert not [t for t in texts if pattern.decode() in t], (table, what)
        # the others keep their records, ratings and settings
        db = w.bot.store.db
        kept = await db.all(
            "SELECT table_id, user_id, name FROM record_seats WHERE user_id<>? ORDER BY 1, 2",
            int(zeb.id))
        assert kept == kept_before and {r[1] for r in kept} == {int(alice.id), int(bob.id)}
        assert (await w.bot.store.user_settings(int(alice.id))).four_colour
        assert await db.all("SELECT user_id FROM ratings WHERE user_id=?", int(alice.id))
        assert not await db.all("SELECT user_id FROM ratings WHERE user_id=?", int(zeb.id))
        # their settings are gone from the bot's memory too: the defaults again
        prefs = w.bot.get_cog("PlayCog").prefs  # type: ignore[union-attr]
        assert not (await prefs.of(int(zeb.id))).dm
    if sqlite:  # and after the bot stopped (its connections closed, the files as left)
        assert found_in_files(w.db, zeb) == []


async def test_forget_me_waits_while_the_person_sits_at_an_open_table(tmp_path: Path) -> None:
    """Their seat would be stored again with the table's next change: they are told to leave
    it first, and nothing is forgotten meanwhile."""
    async with world(tmp_path, people=2) as w:
        alice = w.users[0]
        zeb = await add_person(w)
        r = await w.sim.slash(zeb, w.channel, "settings dm", {"enabled": True})
        assert r.status == "ok", r
        r = await w.sim.slash(alice, w.channel, "play", {"game": "high-card"})
        await w.sim.settle()
        r = await w.sim.click(zeb, w.table_message(), button(w.table_message(), "join")
                              ["custom_id"])
        assert r.status == "ok", r
        words = await forget(w, zeb)
        assert "still have a seat at a table that is open" in words, words
        assert (await w.bot.store.user_settings(int(zeb.id))).dm
        table = w.bot.manager.live_in(int(w.channel.id))
        assert table is not None and table.seat_of(int(zeb.id)) == 1
