"""Authority comes from the table, not the clicker (#48): a click naming a table is answered
only from that table's own server and channel. A forged custom id from another server, or
another channel, is refused with a sentence and logged, and nothing of the table changes."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from bot.tables.model import Table
from cogs import ids
from tests.bot.sim_helpers import World, button, world
from tests.bot.test_e2e_games import open_table
from tests.discord_sim import InteractionResult, SimChannel, SimMessage, SimUser

COMPONENT, BUTTON, SELECT = 3, 2, 3
FOREIGN_EN = "belongs to a table in another server or channel"
FOREIGN_JA = "別のサーバーかチャンネルの卓のもの"

#: every verb a table's component carries, the state of table it acts on ("lobby" or
#: "playing"), its kind and the values a select sends (each would change something, or show
#: something, were the click taken from the table's own channel by its host or a manager)
ACTIONS: list[tuple[str, str, int, list[str] | None, str]] = [
    ("join", "lobby", BUTTON, None, ""),
    ("leave", "lobby", BUTTON, None, ""),
    ("addc", "lobby", BUTTON, None, ""),
    ("remc", "lobby", BUTTON, None, ""),
    ("opts", "lobby", BUTTON, None, ""),
    ("start", "lobby", BUTTON, None, ""),
    ("cancel", "lobby", BUTTON, None, ""),
    ("opt", "lobby", SELECT, ["3"], "hand"),
    ("timer", "lobby", SELECT, ["fast"], ""),
    ("ondl", "lobby", SELECT, ["drop"], ""),
    ("swap", "lobby", SELECT, ["0-1"], ""),
    ("level", "lobby", SELECT, ["easy"], ""),
    ("hints", "lobby", SELECT, ["on"], ""),
    ("cancel", "playing", BUTTON, None, ""),
    ("level", "playing", SELECT, ["easy"], ""),
    ("over", "playing", SELECT, ["1"], ""),
    ("manage", "playing", BUTTON, None, ""),
    ("hand", "playing", BUTTON, None, ""),
    ("back", "playing", BUTTON, None, ""),
    ("act", "playing", BUTTON, None, "0"),
    ("pick", "playing", SELECT, ["0"], "0.0"),
    ("set", "playing", SELECT, ["0"], "play"),
    ("part", "playing", SELECT, ["0"], "0"),
    ("page", "playing", BUTTON, None, "0.1"),
    ("view", "playing", BUTTON, None, ""),
    ("hint", "playing", BUTTON, None, ""),
    ("open", "playing", BUTTON, None, ""),
    ("mine", "playing", BUTTON, None, ""),
]


def test_every_table_verb_is_tried() -> None:
    """A verb added later gets its line in :data:`ACTIONS`; a tournament's sign-up buttons
    name a tournament, not a table: forged from another server in
    tests/bot/test_e2e_tournaments.py."""
    tried = {verb for verb, *_ in ACTIONS} | ids.TOURNAMENT_VERBS
    assert tried == set(ids.BUTTON_VERBS + ids.SELECT_VERBS)


def state_of(table: Table) -> tuple[Any, ...]:
    """Everything a click could change of a table."""
    return (table.status, table.version, [(s.user_id, s.name, s.computer) for s in table.seats],
            table.level, dict(table.options), table.timer, table.hints, table.host_id,
            table.message_id)


async def forge(w: World, user: SimUser, channel: SimChannel, message: SimMessage,
                custom_id: str, kind: int, values: list[str] | None,
                locale: str | None = None) -> InteractionResult:
    """What a modified client could send: any custom id, on a message it can see."""
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
    if values is not None:
        data["values"] = values
    return await w.sim._interact(COMPONENT, user, channel, data, message=message, locale=locale)


def refused_with(r: InteractionResult, words: str) -> None:
    assert r.status == "ok", r
    assert r.callback_type == 4 and r.ephemeral, r
    assert r.content is not None and words in r.content, r.content


class Scene:
    """Server A: a game under way in #cards (Alice hosts, Bob manages the server) and a lobby
    in #lobby (Alice hosts, Bob seated). Server B: Mallory manages it and hosts a lobby there;
    she holds its public message and her own private options menu, both in server B."""

    def __init__(self, w: World) -> None:
        self.w = w

    async def build(self) -> Scene:
        w = self.w
        sim = w.sim
        alice, bob = w.users[:2]
        self.playing = await open_table(w, "high-card", [alice, bob], 2, {"hand": "4"})
        self.play_id = w.bot.manager.live_in(int(w.channel.id)).id  # type: ignore[union-attr]
        self.lobby_channel = sim.add_channel(w.guild, "lobby")
        r = await sim.slash(alice, self.lobby_channel, "play", {"game": "high-card"})
        assert r.status == "ok", r
        await sim.settle()
        lobby = sim.messages(self.lobby_channel)[-1]
        r = await sim.click(bob, lobby, button(lobby, "join")["custom_id"])
        assert r.status == "ok", r
        self.lobby_id = w.bot.manager.live_in(int(self.lobby_channel.id)).id  # type: ignore[union-attr]
        other = sim.add_guild("Elsewhere")
        self.far = sim.add_channel(other, "cards-b")
        self.mallory = sim.add_user("Mallory")
        sim.add_member(other, self.mallory, manage_guild=True)
        await sim.settle()
        r = await sim.slash(self.mallory, self.far, "play", {"game": "high-card"})
        assert r.status == "ok", r
        await sim.settle()
        self.far_table = sim.messages(self.far)[-1]
        r = await sim.click(self.mallory, self.far_table,
                            button(self.far_table, "opts")["custom_id"])
        assert r.status == "ok" and r.message is not None and r.message.ephemeral, r
        self.far_menu = r.message
        manager = w.bot.manager
        self.objects = {"playing": manager.tables[self.play_id],
                        "lobby": manager.tables[self.lobby_id]}
        return self

    def tables(self) -> dict[str, tuple[Any, ...]]:
        """The two tables of server A as they are now (closed ones too, from their object)."""
        open_ids = set(self.w.bot.manager.tables)
        return {where: (table.id in open_ids, *state_of(table))
                for where, table in self.objects.items()}

    def target(self, where: str) -> Table:
        return self.objects[where]


async def stored(w: World, table_id: int) -> tuple[Any, ...]:
    row = await w.bot.store.db.one(
        "SELECT status, host_id, seats, options, timer, level, hints FROM tables WHERE id=?",
        table_id)
    return tuple(row or ())


async def test_a_forged_id_from_another_server_changes_nothing_for_any_action(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async with world(tmp_path, people=2) as w:
        scene = await Scene(w).build()
        before = scene.tables()
        rows = [await stored(w, tid) for tid in (scene.play_id, scene.lobby_id)]
        messages = {m.id: m.content for m in w.sim.messages(w.channel)}
        problems = []  # every forged click that was taken, or answered otherwise
        for verb, where, kind, values, arg in ACTIONS:
            table = scene.target(where)
            custom_id = ids.make(verb, table.id, table.version, arg)
            for shown, message in (("public", scene.far_table), ("private", scene.far_menu)):
                caplog.clear()
                with caplog.at_level(logging.WARNING, logger="bot.tables"):
                    r = await forge(w, scene.mallory, scene.far, message, custom_id, kind,
                                    values)
                    await w.sim.settle()
                if scene.tables() != before:
                    problems.append(f"{verb} on a {shown} message: applied to the {where} table")
                    before = scene.tables()
                elif r.callback_type != 4 or not r.ephemeral or FOREIGN_EN not in str(r.content):
                    problems.append(f"{verb} on a {shown} message: answered {r.content!r}")
                elif not any(str(table.id) in rec.getMessage() and "refused" in rec.getMessage()
                             for rec in caplog.records):
                    problems.append(f"{verb} on a {shown} message: not logged")
        assert [what for what in problems if "applied" in what] == []  # harm first
        assert problems == []
        assert [await stored(w, tid) for tid in (scene.play_id, scene.lobby_id)] == rows
        assert {m.id: m.content for m in w.sim.messages(w.channel)} == messages
        assert w.sim.launches == []  # no Activity opened for another server's table
        assert w.sim.spec_errors == [] and w.sim.client_errors == []


async def test_a_manager_cannot_act_on_a_table_from_another_channel_of_their_server(
        tmp_path: Path) -> None:
    """Bob may manage server A, but a table is answered in its own channel: a cancel or a
    level named from #lobby for the game in #cards is refused."""
    async with world(tmp_path, people=2) as w:
        scene = await Scene(w).build()
        bob = w.users[1]
        lobby_message = w.sim.messages(scene.lobby_channel)[-1]
        r = await w.sim.slash(bob, scene.lobby_channel, "help")
        assert r.status == "ok" and r.message is not None and r.message.ephemeral, r
        private = r.message  # a private message of Bob's in #lobby
        before = scene.tables()
        table = scene.target("playing")
        taken = []
        for message in (lobby_message, private):
            for verb, kind, values in (("level", SELECT, ["easy"]), ("over", SELECT, ["0"]),
                                       ("cancel", BUTTON, None)):
                r = await forge(w, bob, scene.lobby_channel, message,
                                ids.make(verb, table.id, table.version), kind, values)
                await w.sim.settle()
                if scene.tables() != before:
                    taken.append(f"{verb}: applied")
                    before = scene.tables()
                elif r.callback_type != 4 or FOREIGN_EN not in str(r.content):
                    taken.append(f"{verb}: answered {r.content!r}")
        assert [what for what in taken if "applied" in what] == []  # harm first
        assert taken == []
        # in its own channel the same manager's cancel is taken: the check is of the place
        r = await w.sim.click(bob, w.table_message(), button(w.table_message(), "manage")
                              ["custom_id"])
        assert r.status == "ok" and r.message is not None, r
        cancel = next(b for b in r.message.buttons() if ":cancel:" in str(b["custom_id"]))
        r = await w.sim.click(bob, r.message, cancel["custom_id"])
        assert r.status == "ok", r
        assert scene.play_id not in w.bot.manager.tables


async def test_the_refusal_is_in_the_clickers_language(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        scene = await Scene(w).build()
        table = scene.target("playing")
        r = await forge(w, scene.mallory, scene.far, scene.far_table,
                        ids.make("cancel", table.id, table.version), BUTTON, None, locale="ja")
        refused_with(r, FOREIGN_JA)
        assert scene.play_id in w.bot.manager.tables


async def test_from_a_direct_message_only_a_hands_controls_are_taken(tmp_path: Path) -> None:
    """A DM has no server to compare: only the controls a hand by DM carries are taken there
    (each bound to the clicker's own seat); a cancel named from a DM is refused, even the
    host's, and changes nothing."""
    async with world(tmp_path, people=2) as w:
        scene = await Scene(w).build()
        alice = w.users[0]
        dm = w.sim.dm_channel(alice)
        await alice_dm_message(w, alice)
        message = w.sim.messages(dm)[-1]
        before = scene.tables()
        for verb, where in (("cancel", "playing"), ("start", "lobby"), ("addc", "lobby")):
            table = scene.target(where)
            r = await forge(w, alice, dm, message, ids.make(verb, table.id, table.version),
                            BUTTON, None)
            await w.sim.settle()
            refused_with(r, "doesn't belong")
        assert scene.tables() == before


async def alice_dm_message(w: World, alice: SimUser) -> None:
    """Some message of the bot in Alice's DM (a lobby's DM check once she chose DMs)."""
    r = await w.sim.slash(alice, w.channel, "settings dm", {"enabled": True})
    assert r.status == "ok", r
    other = w.sim.add_channel(w.guild, "dm-check")
    r = await w.sim.slash(alice, other, "play", {"game": "high-card"})
    assert r.status == "ok", r
    await w.sim.settle()
    assert w.sim.messages(w.sim.dm_channel(alice)), "no DM sent"
