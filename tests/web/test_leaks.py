"""No hidden card ever reaches a web viewer: whole games of every game over the sockets.

Two people sit at each table with computers in the other seats and a third person watches.
Every message each socket received is then checked against the game replayed from its stored
moves: a table message at version N may hold only the card codes the public view at N and
that viewer's own view at N show, and may name in words no card hidden in someone else's hand
(:func:`bot.web.model.leaks`); any other message holds no card at all.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

import games
from bot.tables.position import _codes_in
from bot.web.model import SPECTATOR, codes_in, leaks
from tests.web.helpers import Socket, site

#: seats and options that keep each game short (a deal or two) yet whole
GAMES: dict[str, tuple[int, dict[str, Any]]] = {
    "twenty-two": (3, {}),
    "1234": (3, {"games": 1}),
    "bhabhi": (3, {}),
    "finesse": (4, {"target": 10}),
    "sugekari-21": (4, {}),
    "bear": (3, {"deals": 1}),
    "spar": (3, {"target": 3}),
}


def test_every_game_is_played_here() -> None:
    assert set(GAMES) == set(games.ids())


async def _play(sockets: dict[str, Socket], table_id: int, manager: Any,
                rng: random.Random) -> int:
    """Play the people's moves through their sockets until the game is over; the moves
    made by the people."""
    made = 0
    deadline = asyncio.get_running_loop().time() + 200
    while table_id in manager.tables:
        assert asyncio.get_running_loop().time() < deadline, "the game did not end"
        version = manager.tables[table_id].version
        due = None
        for name, socket in sockets.items():
            models = [m for m in socket.received if m.get("type") == "table"]
            if models and models[-1]["version"] == version and models[-1]["you"]["may_act"]:
                due = (name, models[-1])
        if due is None:
            await asyncio.sleep(0.002)
            continue
        name, model = due
        move = rng.choice(model["you"]["moves"])
        message: dict[str, Any] = {"type": "act", "table": table_id, "version": version}
        same = [m for m in model["you"]["moves"] if sorted(m["cards"]) == sorted(move["cards"])]
        if move["cards"] and len(same) == 1 and rng.random() < 0.5:
            message["cards"] = list(reversed(move["cards"]))  # any order names the move
        else:
            message["move"] = move["index"]
        socket = sockets[name]
        mark = len(socket.received)
        await socket.send(message)
        answer = await socket.wait_for(
            lambda m, v=version: m.get("type") == "error" or (m.get("type") == "table"
                                                              and m["version"] > v),
            after=mark)
        # a computer may have moved meanwhile where the rules allow a move out of turn
        assert answer["type"] == "table" or answer["code"] == "stale", answer
        made += answer["type"] == "table"
    return made


def _where(value: Any, found: list[str], path: str = "") -> list[str]:
    """Where in a message the leaked cards are (for the failure's message)."""
    codes = {f.split()[1] for f in found if f.startswith("card ")}
    if isinstance(value, str):
        return [path] if value in codes else []
    items = value.items() if isinstance(value, dict) else enumerate(value) \
        if isinstance(value, list) else []
    return [p for key, item in items for p in _where(item, found, f"{path}/{key}")]


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_whole_game_over_the_sockets_shows_nobody_a_card_they_may_not_see(
        tmp_path: Path, game: str) -> None:
    seats, options = GAMES[game]
    async with site(tmp_path, Aiko="ja", Bob="en-US", Cara="en-US") as (web, people):
        manager = web.manager
        aiko, bob = int(people["Aiko"].id), int(people["Bob"].id)
        table = await manager.open(int(web.guild.id), int(web.channel.id), game, aiko, "Aiko",
                                   seed=11)
        table_id = table.table_id
        table = await manager.join(table_id, bob, "Bob")
        while len(table.seats) < seats:
            table = await manager.add_computer(table_id, aiko)
        for name, value in options.items():
            table = await manager.set_option(table_id, aiko, name, value)
        instance = web.sim.add_activity_instance(web.channel, list(people.values()))
        sockets = {name: await web.viewer(user, instance) for name, user in people.items()}
        for socket in sockets.values():
            await socket.request({"type": "watch", "table": table_id}, "table")
        await manager.start(table_id, aiko)
        made = await _play({n: sockets[n] for n in ("Aiko", "Bob")}, table_id, manager,
                           random.Random(game))
        for socket in sockets.values():
            await socket.wait_for(lambda m: m.get("type") == "table"
                                  and m["status"] == "finished")
        assert made > 0

        # the game replayed from its stored moves (its seed is the service's own, inside):
        # every version's views and hidden cards
        rows = await manager.store.actions(table_id)
        live = manager.live(table_id)
        assert live is not None
        state = live.rules.new_game(len(live.seats), seed=live.seed, options=live.options)
        views: list[tuple[dict[str, Any], list[dict[str, Any]], frozenset[str]]] = []

        def keep() -> None:
            public = state.view(None).to_dict()
            own = [state.view(s).to_dict() for s in range(state.players)]
            held = {str(c) for view in own for c in view["hand"]}
            views.append((public, own, frozenset(held - _codes_in(public, set()))))

        keep()
        for row in rows:
            state.apply(row.seat, row.action)
            keep()
        assert state.over

        seat_of = {"Aiko": table.seat_of(aiko), "Bob": table.seat_of(bob), "Cara": None}
        checked = 0
        for name, socket in sockets.items():
            tables = [m for m in socket.received if m.get("type") == "table"]
            assert len(tables) > 3, name
            for message in socket.received:
                if message.get("type") != "table":
                    assert codes_in(message) == set(), json.dumps(message)
                    continue
                if message["status"] == "lobby":
                    assert codes_in(message) == set(), json.dumps(message)
                    continue
                public, own, hidden = views[message["version"]]
                seat = seat_of[name]
                mine = None if seat is None else own[seat]
                found = leaks(message, public, mine, hidden)
                assert found == [], (name, message["version"], found, _where(message, found))
                if seat is None:
                    assert message["you"] == SPECTATOR
                else:
                    assert sorted(message["you"]["hand"]) == sorted(map(str, mine["hand"]))
                checked += 1
        assert checked > 10
