"""Today's bot resumes a database that an earlier version made, and that version's buttons work.

The promise behind it: an upgrade changes nothing a person sees. Tables stored by the version
before keep their seats, position and moves; its custom ids (on table messages, on hand panels
sent in a channel or by direct message) still do what they did; finished games still read
back in /stats, the leaderboard and /replay.

The fixture
-----------
``tests/fixtures/v1_tables.db`` (SQLite) and ``v1_tables.json`` beside it were made by
``tests/fixtures/make_v1_database.py`` run against the tree of commit 30d0a54 (the version
before the table service moved into packages), with that version's own table service and
front-end functions::

    git worktree add ../wt-old 30d0a54      # (from the project's root)
    cd ../wt-old && ../<project>/.venv/bin/python ../<project>/tests/fixtures/make_v1_database.py \\
        ../<project>/tests/fixtures
    cd ../<project> && git worktree remove ../wt-old

It holds a Bhabhi lobby (its host and a computer), a Finesse game (two people, two computers,
hints allowed) and a 22 game (two people, one computer) a few moves in, each waiting for a
person, a finished 22 game between two people (recorded and rated), and Carol's settings (her
hand by direct message, in Japanese). The JSON names the ids (server, channels, people, table
messages), each open table's version, seats and legal moves, and the custom ids that version
put on each table message and hand panel.

When to make a new one: at each release that changes the database's schema or the custom
ids, make a fixture with that release's tree (a copy of the script beside it, adjusted to its
imports, named for the release: ``v2_tables.db``...) and keep the old ones, so every stored
format a running bot may meet is resumed here. The checks are about behaviour (what the
service and Discord answer), never about tables or columns, so a migration leaves them be.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import games
from bot.i18n import t
from bot.storage.records import Records
from bot.storage.store import Storage
from bot.tables import LOBBY, PLAYING, TableManager
from bot.tables.replay import replay
from games.core import Action
from tests.bot.sim_helpers import make_bot
from tests.discord_sim import (
    InteractionResult,
    SimChannel,
    SimMessage,
    SimulatedDiscord,
    SimUser,
)
from tests.discord_sim.models import EPHEMERAL, IS_COMPONENTS_V2

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
OLD = json.loads((FIXTURES / "v1_tables.json").read_text())
OPEN: dict[str, dict[str, Any]] = OLD["open"]
FINISHED: dict[str, Any] = OLD["finished"]
PEOPLE: dict[str, int] = OLD["people"]
COMPONENT, BUTTON, ACTION_ROW = 3, 2, 1
UPDATE_MESSAGE = 7  # a click answered by editing the message clicked


@pytest.fixture
def old_db(tmp_path: Path) -> Path:
    """A copy of the old database (the fixture itself is never written)."""
    copy = tmp_path / "old.db"
    shutil.copyfile(FIXTURES / "v1_tables.db", copy)
    return copy


@pytest.fixture
async def service(old_db: Path) -> AsyncIterator[tuple[TableManager, Storage]]:
    """Today's storage (its migrations run on open) and table service, tables resumed."""
    store = await Storage.open(str(old_db))
    manager = TableManager(store, ai_delay=0.0, ai_level="random", ai_scheduler=False)
    await manager.resume()
    yield manager, store
    await manager.close()
    await store.close()


def seats_of(table: dict[str, Any]) -> list[tuple[int | None, str, bool]]:
    return [(s["user_id"], s["name"], s["computer"]) for s in table["seats"]]


async def test_every_open_table_comes_back_as_it_was(
        service: tuple[TableManager, Storage]) -> None:
    manager, _ = service
    back = {p.table_id: p for p in await manager.open_tables()}
    assert sorted(back) == sorted(t["id"] for t in OPEN.values())
    for name, old in OPEN.items():
        position = back[old["id"]]
        assert position.game_id == old["game"], name
        assert position.status == old["status"], name
        assert position.version == old["version"], name
        assert position.channel_id == old["channel"], name
        assert position.message_id == old["message"], name
        assert [(s.user_id, s.name, s.computer) for s in position.seats] == seats_of(old), name
        assert list(position.to_act) == old["to_act"], name
        for seat, moves in old["legal"].items():
            seen = await manager.position(old["id"], int(seat))
            assert sorted(str(m.action) for m in seen.moves) == sorted(moves), (name, seat)


async def test_a_persons_next_move_is_accepted_and_stored(
        service: tuple[TableManager, Storage]) -> None:
    manager, store = service
    for name in ("finesse", "twenty-two"):
        old = OPEN[name]
        seat = old["to_act"][0]
        user = old["seats"][seat]["user_id"]
        move = old["legal"][str(seat)][0]
        await manager.act(old["id"], user, old["version"], Action.parse(move))
        stored = [(a.idx, a.seat, a.action) for a in await store.actions(old["id"])]
        assert (old["version"], seat, move) in stored, name
        assert (await manager.position(old["id"])).version > old["version"], name


async def test_the_old_lobby_starts(service: tuple[TableManager, Storage]) -> None:
    manager, _ = service
    old = OPEN["lobby"]
    assert (await manager.position(old["id"])).status == LOBBY
    await manager.start(old["id"], old["seats"][0]["user_id"])
    started = await manager.position(old["id"])
    assert started.status == PLAYING and started.to_act
    assert [(s.user_id, s.name, s.computer) for s in started.seats] == seats_of(old)


async def test_the_finished_game_reads_back(service: tuple[TableManager, Storage]) -> None:
    manager, store = service
    assert not manager.is_open(FINISHED["id"])
    records = Records.for_storage(store, games.get)
    try:
        record = await records.game(FINISHED["id"])
        assert record is not None
        outcome = FINISHED["result"]["outcome"]
        assert record.game == FINISHED["game"] and record.rated
        assert record.places == outcome["places"]
        assert [s["user_id"] for s in record.seats] == FINISHED["people"]
        assert len(record.actions) == FINISHED["version"]
        replayed = replay(games.get(record.game), record, len(record.actions))
        assert replayed.over and replayed.outcome is not None
        assert list(replayed.outcome.places) == outcome["places"]
        first = replay(games.get(record.game), record, 1)
        assert first.step == 1 and not first.over
        winner = FINISHED["people"][outcome["places"].index(1)]
        for person in FINISHED["people"]:
            stats = {s.game: s for s in await records.stats(OLD["guild"], person)}
            mine = stats[FINISHED["game"]]
            assert (mine.games, mine.wins, mine.rated) == (1, int(person == winner), 1)
            assert await records.skill(OLD["guild"], FINISHED["game"], person) is not None
        board = await records.leaderboard(OLD["guild"], FINISHED["game"])
        assert winner in [row.user_id for row in board.rows]
    finally:
        async with records.lock:
            records.close()


async def test_user_settings_read_back(service: tuple[TableManager, Storage]) -> None:
    _, store = service
    for user, wanted in OLD["settings"].items():
        found = await store.user_settings(int(user))
        assert (found.dm, found.locale) == (wanted["dm"], wanted["locale"])


# -- the old buttons, through the simulated Discord with the real bot ---------------------------

@contextmanager
def given_id(sim: SimulatedDiscord, wanted: int) -> Iterator[None]:
    """The next id the simulated Discord hands out is ``wanted`` (the old database's ids of
    the server, channels and people must be the ones Discord sends again)."""
    real = sim._ids

    class Once:
        used = False

        def next(self) -> str:
            if not self.used:
                self.used = True
                return str(wanted)
            return real.next()

    sim._ids = Once()  # type: ignore[assignment]
    try:
        yield
    finally:
        sim._ids = real


def rows(controls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The old controls as Discord shows them: buttons five a row, a menu alone in its row."""
    found: list[dict[str, Any]] = []
    buttons: list[dict[str, Any]] = []
    for control in controls:
        if control["type"] == BUTTON:
            buttons.append({"type": BUTTON, "style": 1, "label": control["label"],
                            "custom_id": control["custom_id"]})
            continue
        found.append({"type": ACTION_ROW, "components": [{
            "type": control["type"], "custom_id": control["custom_id"],
            "options": [{"label": v, "value": v} for v in control["values"]]}]})
    for start in range(0, len(buttons), 5):
        found.append({"type": ACTION_ROW, "components": buttons[start:start + 5]})
    return found


def leave_message(sim: SimulatedDiscord, channel: SimChannel, message_id: int,
                  controls: list[dict[str, Any]], *, panel: bool = False,
                  shown_to: SimUser | None = None) -> SimMessage:
    """A message the old version left in Discord, with its controls (``panel``: a hand
    panel, in Components V2 as that version sent it; ``shown_to``: ephemeral, to that
    person)."""
    message = SimMessage(id=str(message_id), channel_id=channel.id,
                         author_id=sim.bot_user.id, guild_id=channel.guild_id,
                         components=rows(controls), application_id=sim.application_id,
                         content="" if panel else "the old table message")
    if panel:
        message.flags = IS_COMPONENTS_V2
    if shown_to is not None:
        message.flags |= EPHEMERAL
        message.interaction_user_id = shown_to.id
    sim._messages[message.id] = message
    sim._channel_messages.setdefault(channel.id, []).append(message.id)
    return message


#: what a click on a control the bot no longer knows, or no longer takes, is answered with
REFUSALS = ("unknown-component", "foreign-table", "no-table", "stale", "panel-moved",
            "not-your-turn", "no-such-choice")


def not_refused(r: InteractionResult) -> None:
    """The click was answered, and not with a refusal."""
    assert r.status == "ok", r
    said = r.text or ""
    for key in REFUSALS:
        assert t(key, "en") not in said, said


async def test_the_old_buttons_work_after_the_upgrade(old_db: Path) -> None:
    async with SimulatedDiscord(interaction_deadline=3.0) as sim:
        with given_id(sim, OLD["guild"]):
            guild = sim.add_guild("Test Server")
        channels: dict[str, SimChannel] = {}
        for name, channel_id in OLD["channels"].items():
            with given_id(sim, channel_id):
                channels[name] = sim.add_channel(guild, name)
        people: dict[str, SimUser] = {}
        for name, user_id in PEOPLE.items():
            with given_id(sim, user_id):
                people[name] = sim.add_user(name)
            sim.add_member(guild, people[name])
        alice, bob, carol, dave, erin = (people[n] for n in
                                         ("Alice", "Bob", "Carol", "Dave", "Erin"))
        # what the old version left in Discord: the table messages, Bob's hand panel in the
        # Finesse channel, Carol's hand sent by direct message (her settings)
        finesse, twenty, lobby = OPEN["finesse"], OPEN["twenty-two"], OPEN["lobby"]
        old_tables = {name: leave_message(sim, channels[name], OPEN[name]["message"],
                                          OPEN[name]["table_message"])
                      for name in ("lobby", "finesse", "twenty-two")}
        bob_panel = leave_message(sim, channels["finesse"], 1_200_000_000_000_002_001,
                                  finesse["hand_panels"][bob.id], panel=True, shown_to=bob)
        carol_dm = leave_message(sim, sim.dm_channel(carol), 1_200_000_000_000_002_002,
                                 twenty["hand_panels"][carol.id], panel=True)
        bot = await make_bot(old_db)
        await sim.start(bot)
        try:
            await sim.settle(idle=0.2)
            assert sorted(p.table_id for p in await bot.manager.open_tables()) == sorted(
                t["id"] for t in OPEN.values())

            # the old table message's Hand: Bob's hand, his moves on it
            hand_id = next(c["custom_id"] for c in finesse["table_message"]
                           if c["custom_id"].startswith("dh:hand:"))
            r = await sim._interact(COMPONENT, bob, channels["finesse"],
                                    {"custom_id": hand_id, "component_type": BUTTON},
                                    message=old_tables["finesse"])
            not_refused(r)
            assert r.message is not None and r.message.ephemeral
            assert "Your hand" in (r.text or ""), r.text
            offered = [c["custom_id"] for c in r.message.buttons() + r.message.selects()
                       if c["custom_id"].split(":")[1] in ("act", "pick")]
            assert offered, r.message.components  # his turn: his moves are on it

            # the old hand panel's first move: played, as that version meant it
            act = finesse["hand_panels"][bob.id][0]
            seat = finesse["to_act"][0]
            r = await sim.click(bob, bob_panel, act["custom_id"])
            not_refused(r)
            assert r.callback_type == UPDATE_MESSAGE, r
            await sim.settle()
            stored = [(a.idx, a.seat, a.action) for a in await bot.store.actions(finesse["id"])]
            assert (finesse["version"], seat, act["move"]) in stored

            # Carol's old hand by direct message: a card chosen in its menu
            pick = twenty["hand_panels"][carol.id][0]
            seat = twenty["to_act"][0]
            value = pick["values"][-1]
            r = await sim.select(carol, carol_dm, pick["custom_id"], [value])
            not_refused(r)
            await sim.settle()
            stored = [(a.idx, a.seat, a.action) for a in await bot.store.actions(twenty["id"])]
            assert (twenty["version"], seat, pick["moves"][value]) in stored

            # the old lobby message's Start, pressed by its host
            start = next(c["custom_id"] for c in lobby["table_message"]
                         if c["custom_id"].startswith("dh:start:"))
            r = await sim._interact(COMPONENT, erin, channels["lobby"],
                                    {"custom_id": start, "component_type": BUTTON},
                                    message=old_tables["lobby"])
            not_refused(r)
            await sim.settle()
            assert (await bot.manager.position(lobby["id"])).status == PLAYING
            assert all(bot.manager.is_seated(int(u.id)) for u in (alice, dave, erin))
            assert sim.spec_errors == []
        finally:
            await sim.stop_bot()
            await bot.manager.close()
            await bot.store.close()
