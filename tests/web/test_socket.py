"""The web table's socket: every refusal, spectators, reconnecting, moves from the chat."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.web.model import SPECTATOR, leaks
from games import wording
from games.cards import parse
from games.core import Action, IllegalAction
from tests.web.helpers import Site, Socket, site


async def _table(web: Site, people: dict[str, Any], game: str = "finesse",
                 seed: int = 7) -> int:
    """A table of the channel with Aiko (the host) and Bob seated, computers in the rest,
    started."""
    aiko, bob = int(people["Aiko"].id), int(people["Bob"].id)
    table = await web.manager.open(int(web.guild.id), int(web.channel.id), game, aiko, "Aiko",
                                   seed=seed)
    table = await web.manager.join(table.table_id, bob, "Bob")
    rules = table.rules
    while len(table.seats) < max(rules.min_players, 4 if rules.max_players >= 4 else 2):
        table = await web.manager.add_computer(table.table_id, aiko)
    await web.manager.start(table.table_id, aiko)
    return table.table_id


async def _watching(web: Site, people: dict[str, Any], table_id: int,
                    *names: str) -> dict[str, Socket]:
    instance = web.sim.add_activity_instance(web.channel, [people[n] for n in names])
    sockets = {}
    for name in names:
        sockets[name] = await web.viewer(people[name], instance)
        await sockets[name].request({"type": "watch", "table": table_id}, "table")
    return sockets


async def _due(web: Site, table_id: int, sockets: dict[str, Socket]) -> tuple[str, dict[str, Any]]:
    """The person the game waits for, and their latest model (once the computers moved)."""
    for _ in range(200):
        version = web.manager.tables[table_id].version
        for name, socket in sockets.items():
            models = [m for m in socket.received if m.get("type") == "table"]
            if models and models[-1]["version"] == version and models[-1]["you"]["may_act"]:
                return name, models[-1]
        await web.sim.settle(idle=0.02)
    raise AssertionError("nobody is due")


async def test_malformed_too_big_and_unknown_messages_change_nothing(tmp_path: Path) -> None:
    async with site(tmp_path, Aiko="ja", Bob="en-US") as (web, people):
        table_id = await _table(web, people)
        sockets = await _watching(web, people, table_id, "Aiko", "Bob")
        version = web.manager.tables[table_id].version
        bob = sockets["Bob"]
        cases = {"{not json": "bad-message", "[1, 2]": "bad-message", "7": "bad-message",
                 '{"type": "shout"}': "bad-message", '{"kind": "act"}': "bad-message",
                 '{"type": "watch", "table": "1"}': "bad-message",
                 f'{{"type": "act", "table": {table_id}, "version": {version}}}': "bad-message",
                 f'{{"type": "act", "table": {table_id}, "version": true, "move": 0}}':
                     "bad-message",
                 f'{{"type": "act", "table": {table_id}, "version": {version}, "move": 0, '
                 '"cards": ["TS"]}': "bad-message",
                 '{"type": "ping", "pad": "' + "x" * 4100 + '"}': "too-big"}
        for text, code in cases.items():
            answer = await bob.request(text, "error")
            assert answer["code"] == code, text
            assert answer["message"] == wording.text(
                "web-too-big" if code == "too-big" else "web-bad-message", "en")
        await bob.ws.send_bytes(b"\x00\x01")
        assert (await bob.next("error"))["code"] == "bad-message"
        japanese = await sockets["Aiko"].request("{not json", "error")
        assert japanese["message"] == wording.text("web-bad-message", "ja")
        assert web.manager.tables[table_id].version == version
        assert (await bob.request({"type": "ping"}, "pong")) == {"type": "pong"}


async def test_each_refused_move_says_why_in_the_viewers_language_then_shows_the_table(
        tmp_path: Path) -> None:
    async with site(tmp_path, Aiko="ja", Bob="en-US", Cara="en-US") as (web, people):
        table_id = await _table(web, people)
        sockets = await _watching(web, people, table_id, "Aiko", "Bob", "Cara")
        due, model = await _due(web, table_id, sockets)
        other = "Bob" if due == "Aiko" else "Aiko"
        version = model["version"]

        async def refused(name: str, message: dict[str, Any]) -> dict[str, Any]:
            socket = sockets[name]
            mark = len(socket.received)
            error = await socket.request(message, "error")
            table = await socket.wait_for(lambda m: m.get("type") == "table", after=mark)
            assert table["version"] == web.manager.tables[table_id].version
            return error

        lang = {"Aiko": "ja", "Bob": "en", "Cara": "en"}
        stale = await refused(due, {"type": "act", "table": table_id, "version": version - 1,
                                    "move": 0})
        assert (stale["code"], stale["message"]) == (
            "stale", wording.text("web-stale", lang[due]))
        late = await refused(other, {"type": "act", "table": table_id, "version": version,
                                     "move": 0})
        assert (late["code"], late["message"]) == (
            "not-your-turn", wording.text("not-your-turn", lang[other]))
        seatless = await refused("Cara", {"type": "act", "table": table_id, "version": version,
                                          "move": 0})
        assert (seatless["code"], seatless["message"]) == (
            "not-seated", wording.text("web-not-seated", "en"))
        nothing = await refused(due, {"type": "act", "table": table_id, "version": version,
                                      "move": len(model["you"]["moves"])})
        assert nothing["code"] == "illegal"
        assert nothing["message"] == wording.text("web-no-such-move", lang[due])
        assert web.manager.tables[table_id].version == version


async def test_a_card_the_rules_refuse_is_refused_with_the_rules_sentence_in_en_and_ja(
        tmp_path: Path) -> None:
    async with site(tmp_path, Aiko="ja", Bob="en-US") as (web, people):
        table_id = await _table(web, people)
        sockets = await _watching(web, people, table_id, "Aiko", "Bob")
        refused: dict[str, str] = {}
        while len(refused) < 2 and table_id in web.manager.tables:
            due, model = await _due(web, table_id, sockets)
            you = model["you"]
            unplayable = [c for c in you["hand"] if c not in you["playable"]]
            if due not in refused and unplayable and you["playable"]:
                table = web.manager.tables[table_id]
                assert table.state is not None
                try:  # what the rules say of that card (the test may look at the state)
                    table.state.clone().apply(you["seat"], Action.of(
                        "play", [parse(unplayable[0])]))
                except IllegalAction as exc:
                    expected = exc.message
                lang = "ja" if due == "Aiko" else "en"
                error = await sockets[due].request(
                    {"type": "act", "table": table_id, "version": model["version"],
                     "cards": [unplayable[0]]}, "error")
                assert error["code"] == "illegal"
                assert error["message"] == wording.text(
                    "illegal", lang, reason=expected.text(lang))
                refused[due] = error["message"]
                continue
            await sockets[due].send({"type": "act", "table": table_id,
                                     "version": model["version"], "cards": you["moves"][0]["cards"]}
                                    if you["moves"][0]["cards"] else
                                    {"type": "act", "table": table_id,
                                     "version": model["version"], "move": 0})
            await sockets[due].wait_for(lambda m, v=model["version"]: m.get("type") == "table"
                                        and m["version"] > v)
        assert set(refused) == {"Aiko", "Bob"}
        assert "スート" in refused["Aiko"] and "suit" in refused["Bob"]


async def test_a_foreign_or_closed_table_is_refused(tmp_path: Path) -> None:
    async with site(tmp_path, Aiko="ja", Bob="en-US") as (web, people):
        table_id = await _table(web, people)
        elsewhere = web.sim.add_channel(web.guild, "elsewhere")
        foreign = await web.manager.open(int(web.guild.id), int(elsewhere.id), "spar",
                                         int(people["Bob"].id), "Bob")
        sockets = await _watching(web, people, table_id, "Bob")
        bob = sockets["Bob"]
        for message in ({"type": "watch", "table": foreign.table_id},
                        {"type": "act", "table": foreign.table_id, "version": 0, "move": 0}):
            error = await bob.request(message, "error")
            assert (error["code"], error["message"]) == (
                "forbidden", wording.text("web-forbidden", "en"))
        error = await bob.request({"type": "watch", "table": 999}, "error")
        assert (error["code"], error["message"]) == ("no-table", wording.text("web-no-table", "en"))
        listed = await bob.request({"type": "tables"}, "tables")
        assert [t["id"] for t in listed["tables"]] == [table_id]
        assert listed["tables"][0]["seats"][:2] == ["Aiko", "Bob"]
        assert listed["tables"][0]["status"] == "playing"


async def test_a_spectator_sees_no_hand_and_a_move_made_in_chat_reaches_every_socket(
        tmp_path: Path) -> None:
    async with site(tmp_path, Aiko="ja", Bob="en-US", Cara="en-US") as (web, people):
        table_id = await _table(web, people)
        sockets = await _watching(web, people, table_id, "Aiko", "Bob", "Cara")
        due, _model = await _due(web, table_id, sockets)
        position = await web.manager.position_for(table_id, int(people[due].id))
        marks = {name: len(s.received) for name, s in sockets.items()}
        # the move as the chat panel makes it: the service's act with the move's index
        await web.manager.act(table_id, int(people[due].id), position.version, 0)
        played = position.moves[0].action
        for name, socket in sockets.items():
            seen = await socket.wait_for(lambda m: m.get("type") == "table"
                                         and m["version"] > position.version,
                                         after=marks[name])
            assert seen["last"]["seat"] == position.seat
            assert seen["last"]["kind"] == played.kind
        cara = [m for m in sockets["Cara"].received if m.get("type") == "table"]
        assert cara and all(m["you"] == SPECTATOR for m in cara)
        spectator = await web.manager.position(table_id)
        assert leaks(cara[-1], spectator.public, None, spectator.hidden) == []
        assert all(len(m["you"]["hand"]) > 0 for m in sockets["Bob"].received
                   if m.get("type") == "table")


async def test_a_reconnected_socket_gets_the_whole_position_again(tmp_path: Path) -> None:
    async with site(tmp_path, Aiko="ja", Bob="en-US") as (web, people):
        table_id = await _table(web, people)
        signed = await web.sign_in(people["Bob"])
        instance = web.sim.add_activity_instance(web.channel, [people["Bob"]])
        first = await web.connect(signed["session"], instance)
        before = await first.request({"type": "watch", "table": table_id}, "table")
        await first.close()
        assert not any(web.server.viewers.groups[table_id].viewers)
        again = await web.connect(signed["session"], instance)
        assert again.received[0]["type"] == "hello"
        after = await again.request({"type": "watch", "table": table_id}, "table")
        position = await web.manager.position_for(table_id, int(people["Bob"].id))
        assert after["version"] == position.version >= before["version"]
        assert after["you"]["hand"] and after["scene"]["seats"] and after["seats"]
        assert after["you"]["seat"] == position.seat
        assert sorted(after["you"]["hand"]) == sorted(str(c) for c in position.own["hand"])
