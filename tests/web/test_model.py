"""The web table's model of a position, and the leak check the other tests rely on."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.storage.store import Storage
from bot.tables import TableManager
from bot.web.model import SPECTATOR, leaks, table_model
from games import wording
from games.cards import parse, pretty


async def test_the_model_of_a_lobby_a_seat_and_a_spectator(tmp_path: Path) -> None:
    store = await Storage.open(str(tmp_path / "db.sqlite3"))
    manager = TableManager(store, ai_delay=0.0, ai_level="random")
    try:
        table_id = (await manager.open(1, 2, "finesse", 10, "Alice", seed=3)).table_id
        lobby = table_model(await manager.position(table_id), "en")
        assert lobby["status"] == "lobby" and lobby["scene"] is None
        assert lobby["you"] == SPECTATOR and lobby["seats"][0]["avatar"] == "/api/avatar/10"
        for _ in range(3):
            await manager.add_computer(table_id, 10)
        await manager.start(table_id, 10)
        alice = await manager.position(table_id, 0)
        for _ in range(500):  # the computers move first where they lead
            if alice.moves:
                break
            await asyncio.sleep(0.01)
            alice = await manager.position(table_id, 0)
        model = table_model(alice, "ja")
        assert model["title"] == "フィネス" and model["game"] == "finesse"
        assert model["seats"][1] == {"seat": 1, "name": "CPU 1", "user_id": None,
                                     "computer": True, "away": False, "avatar": None}
        assert sorted(model["you"]["hand"]) == sorted(alice.own["hand"])  # type: ignore[index]
        assert [m["index"] for m in model["you"]["moves"]] and all(
            m["label"] == alice.rules.action_text(alice.moves[m["index"]].action, "ja")
            for m in model["you"]["moves"])
        assert set(model["you"]["playable"]) <= set(model["you"]["hand"])
        assert leaks(model, alice.public, alice.own, alice.hidden) == []
        spectator = await manager.position(table_id)
        watched = table_model(spectator, "en")
        assert watched["you"] == SPECTATOR
        assert leaks(watched, spectator.public, None, spectator.hidden) == []
        # the check itself: Alice's hand shown to a spectator is found, by code and in words
        hand = [str(c) for c in alice.own["hand"]]  # type: ignore[index]
        assert leaks(model, spectator.public, None, spectator.hidden)
        word = pretty(parse(hand[0]), "en")
        said = dict(watched, log=[wording.text("your-hand", "en", game="x", seat=1, cards=word)])
        assert leaks(said, spectator.public, None, spectator.hidden) == [
            f"{hand[0]} named in {said['log'][0]!r}"]
    finally:
        await manager.close()
        await store.close()
