"""Restarts, races and refusals on the simulated Discord."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from tests.bot.sim_helpers import World, button, verb_of, world
from tests.bot.test_e2e_games import PublicWatch, open_table, play_to_the_end
from tests.discord_sim import InteractionResult, SimMessage, SimUser
from tests.discord_sim.models import text_displays

COMPONENT, BUTTON = 3, 2


async def two_player_table(w: World, hand: int = 4) -> SimMessage:
    """Alice (host) and Bob at a game of the test game, no computers."""
    return await open_table(w, "high-card", w.users[:2], 2, {"hand": str(hand)})


def mover(w: World, table: SimMessage) -> tuple[SimUser, SimUser]:
    """(the user whose turn it is, the other one) from the table message's mention."""
    alice, bob = w.users[:2]
    return (alice, bob) if f"<@{alice.id}>" in table.content else (bob, alice)


async def open_hand(w: World, user: SimUser) -> SimMessage:
    table = w.table_message()
    r = await w.sim.click(user, table, button(table, "hand")["custom_id"])
    assert r.status == "ok" and r.message is not None and r.message.ephemeral
    return r.message


def first_move(hand: SimMessage) -> tuple[str, str, list[str]]:
    """('button'|'select', custom id, values) of the first move control of a hand."""
    for b in hand.buttons():
        if verb_of(b["custom_id"]) == "act":
            return "button", b["custom_id"], []
    for s in hand.selects():
        if verb_of(s["custom_id"]) == "pick":
            return "select", s["custom_id"], [s["options"][0]["value"]]
    raise AssertionError("no move control in the hand")


async def use(w: World, user: SimUser, hand: SimMessage, control: tuple[str, str, list[str]]
              ) -> InteractionResult:
    kind, custom_id, values = control
    if kind == "button":
        return await w.sim.click(user, hand, custom_id)
    return await w.sim.select(user, hand, custom_id, values)


def refused(r: InteractionResult, words: str) -> None:
    """The interaction was answered with an ephemeral sentence containing ``words``."""
    assert r.status == "ok", r
    assert r.callback_type == 4 and r.ephemeral, r
    assert r.content is not None and words in r.content, r.content


def moved_on(r: InteractionResult, clicked: SimMessage) -> None:
    """A stale or doubled click was answered with the position now: the clicked panel edited
    to the current hand, saying the table has moved on."""
    assert r.status == "ok", r
    assert r.callback_type == 7 and r.message is not None and r.message.id == clicked.id, r
    assert r.text is not None and "moved on" in r.text and "Your hand" in r.text, r


async def stored_actions(w: World) -> int:
    return len(await w.bot.store.actions(1))


async def test_restart_mid_game_keeps_everything_and_old_buttons_work(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        await two_player_table(w, hand=5)
        for _ in range(3):
            table = w.table_message()
            user, _ = mover(w, table)
            hand = await open_hand(w, user)
            r = await use(w, user, hand, first_move(hand))
            assert r.status == "ok" and r.callback_type == 7
            await w.sim.settle()
        table = w.table_message()
        user, _ = mover(w, table)
        old_hand = await open_hand(w, user)
        before = [r.path for r in w.sim.requests]
        await w.restart()
        assert await stored_actions(w) == 3
        resumed = w.bot.manager.tables[1]
        assert resumed.version == 3
        edits = [r for r in w.sim.requests[len(before):]
                 if r.method == "PATCH" and f"/messages/{table.id}" in r.path]
        assert edits, ("the table message is refreshed after a restart",
                       [(r.method, r.path) for r in w.sim.requests[len(before):]])
        r = await use(w, user, old_hand, first_move(old_hand))  # a button sent before the restart
        assert r.status == "ok" and r.callback_type == 7, r
        assert await stored_actions(w) == 4
        await play_to_the_end(w, w.users[:2], random.Random(3), PublicWatch(w))
        assert await w.bot.store.result(1) is not None
        assert w.sim.spec_errors == []


async def test_simultaneous_clicks_only_one_applies(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        await two_player_table(w, hand=6)
        user, _ = mover(w, w.table_message())
        hands = [await open_hand(w, user) for _ in range(4)]
        controls = [first_move(h) for h in hands]
        results = await asyncio.gather(*(use(w, user, hands[i % 4], controls[i % 4])
                                         for i in range(12)))
        # every click answered by editing its panel; one applied, the other eleven shown the
        # position after it
        assert all(r.status == "ok" and r.callback_type == 7 for r in results)
        said = ["\n".join(text_displays(r.responses[0].json["data"]["components"]))
                for r in results]
        assert len([s for s in said if "moved on" in s]) == 11, said
        assert await stored_actions(w) == 1
        assert w.sim.spec_errors == []


async def test_strangers_stale_wrong_turn_and_forged_clicks_are_refused(tmp_path: Path) -> None:
    async with world(tmp_path, people=4) as w:
        await two_player_table(w)
        stranger = w.users[2]  # a member without Manage Server
        table = w.table_message()
        user, other = mover(w, table)
        refused(await w.sim.click(stranger, table, button(table, "hand")["custom_id"]),
                "don't have a seat")
        refused(await w.sim.click(stranger, table, button(table, "manage")["custom_id"]),
                "Only the host")
        hand = await open_hand(w, user)  # an older panel: the next Hand press is the live one
        control = first_move(hand)
        live = await open_hand(w, user)
        other_hand = await open_hand(w, other)
        knock = next(b for b in other_hand.buttons() if verb_of(b["custom_id"]) == "act")
        r = await w.sim.click(other, other_hand, knock["custom_id"])  # out of turn: offered
        assert r.callback_type == 7
        await w.sim.settle()
        # the live panel follows: it shows the new position and its controls
        assert live.find_component(control[1]) is None and first_move(live)
        moved_on(await use(w, user, hand, control), hand)  # stale: a move happened since
        assert await stored_actions(w) == 1
        assert r.message is not None
        other_hand = r.message
        assert not [b for b in other_hand.buttons() if verb_of(b["custom_id"]) == "act"]
        forged_ids = [
            "dh:act:1:1:0",  # a move for the waiting player, who has none: wrong turn
            "dh:act:999:1:0",  # no such table
            "dh:act:1:x:0",  # malformed: the version is not a number
            "dh:nope:1:1:0",  # unknown verb
            "something-else",
        ]
        answers = {"dh:act:1:1:0": "not your turn", "dh:act:999:1:0": "no open table"}
        for custom_id in forged_ids:
            data: dict[str, Any] = {"custom_id": custom_id, "component_type": BUTTON}
            r = await w.sim._interact(COMPONENT, other, w.channel, data, message=other_hand)
            refused(r, answers.get(custom_id, "doesn't belong"))
        assert await stored_actions(w) == 1
        assert w.bot.manager.tables[1].version == 1
        assert w.sim.spec_errors == []


async def test_lobby_refusals_and_cancel(tmp_path: Path) -> None:
    async with world(tmp_path, people=3) as w:
        alice, bob, carol = w.users
        await w.sim.slash(alice, w.channel, "play", {"game": "high-card"})
        await w.sim.settle()
        lobby = w.table_message()
        refused(await w.sim.click(bob, lobby, button(lobby, "start")["custom_id"]),
                "Only the host")
        refused(await w.sim.click(alice, lobby, button(lobby, "start")["custom_id"]),
                "needs 2 to 4 players")
        refused(await w.sim.click(alice, lobby, button(lobby, "join")["custom_id"]),
                "already have a seat")
        await w.bot.manager.set_limits(int(w.guild.id), per_channel=1)  # one table here at most
        r = await w.sim.slash(bob, w.channel, "play", {"game": "high-card"})
        refused(r, "already holds 1 open tables")
        # carol may manage the server: she can cancel someone else's table
        r = await w.sim.click(carol, lobby, button(lobby, "cancel")["custom_id"])
        assert r.callback_type == 7
        await w.sim.settle()
        assert "cancelled" in w.table_message().content
        assert not w.table_message().buttons()
        assert w.sim.spec_errors == []


async def test_japanese_server_and_user(tmp_path: Path) -> None:
    async with world(tmp_path, people=2, locale="ja") as w:
        alice, bob = w.users
        r = await w.sim.slash(alice, w.channel, "play", {"game": "high-card"}, locale="ja")
        assert r.status == "ok"
        await w.sim.settle()
        lobby = w.table_message()
        assert "新しい卓" in str(lobby.embeds)
        assert {b["label"] for b in lobby.buttons()} >= {"参加", "開始", "中止"}
        r = await w.sim.click(bob, lobby, button(lobby, "start")["custom_id"], locale="ja")
        refused(r, "ホストだけ")
        r = await w.sim.click(bob, lobby, button(lobby, "start")["custom_id"], locale="en-US")
        refused(r, "Only the host")


async def test_commands_are_synced_with_japanese_names(tmp_path: Path) -> None:
    async with world(tmp_path, people=1) as w:
        commands = {c["name"]: c for c in w.sim.commands()}
        assert {"play", "games", "rules", "settings"} <= set(commands)
        play = commands["play"]
        assert play["description_localizations"]["ja"] == "このチャンネルでカードゲームの卓を開く"
        game = play["options"][0]
        assert {c["value"] for c in game["choices"]} >= {"high-card"}
        assert all("ja" in (c.get("name_localizations") or {}) for c in game["choices"])


async def test_games_rules_and_settings(tmp_path: Path) -> None:
    async with world(tmp_path, people=1) as w:
        alice = w.users[0]
        r = await w.sim.slash(alice, w.channel, "games")
        assert r.ephemeral and "High Card" in str(r.message.embeds if r.message else "")
        r = await w.sim.slash(alice, w.channel, "rules", {"game": "high-card"}, locale="ja")
        assert r.ephemeral and "いちばん高い" in str(r.message.embeds if r.message else "")
        r = await w.sim.slash(alice, w.channel, "settings dm", {"enabled": True})
        assert r.ephemeral and "direct message" in (r.content or "")
        assert (await w.bot.store.user_settings(int(alice.id))).dm


async def test_hands_by_direct_message(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        bob = w.users[1]
        await w.sim.slash(bob, w.channel, "settings dm", {"enabled": True})
        await two_player_table(w)
        await w.sim.settle()
        dms = w.sim.dms(bob)
        assert any("Test Server" in m.text and "#cards" in m.text for m in dms)
        for _ in range(6):
            table = w.table_message()
            user, _ = mover(w, table)
            if user is bob:
                break
            hand = await open_hand(w, user)
            await use(w, user, hand, first_move(hand))
            await w.sim.settle()
        else:
            raise AssertionError("Bob never got the turn")
        await w.sim.settle()
        turn_dm = w.sim.dms(bob)[-1]
        assert "your turn" in turn_dm.text and "High Card" in turn_dm.text
        version = w.bot.manager.tables[1].version
        r = await use(w, bob, turn_dm, first_move(turn_dm))
        assert r.callback_type == 7, r
        assert w.bot.manager.tables[1].version == version + 1
        assert w.sim.spec_errors == []


async def test_a_click_while_a_move_is_being_stored_is_acknowledged_then_shown(
        tmp_path: Path) -> None:
    """The public message never shows a position before it is stored: while the table's lock
    is held, a click on the public message is acknowledged at once and the edit follows."""
    async with world(tmp_path, people=2) as w:
        alice, bob = w.users
        await w.sim.slash(alice, w.channel, "play", {"game": "high-card"})
        await w.sim.settle()
        table = w.bot.manager.tables[1]

        class Busy(asyncio.Lock):
            """A lock that looks held the first time the cog asks."""

            asked = 0

            def locked(self) -> bool:
                Busy.asked += 1
                return Busy.asked == 1 or super().locked()

        table.lock = Busy()
        lobby = w.table_message()
        r = await w.sim.click(bob, lobby, button(lobby, "join")["custom_id"])
        assert r.status == "ok" and r.callback_type == 6, r  # acknowledged, nothing shown yet
        for _ in range(200):
            await w.sim.settle()
            if "Bob" in str(w.table_message().embeds):
                break
            await asyncio.sleep(0.01)
        assert "Bob" in str(w.table_message().embeds)
        assert Busy.asked >= 1
        assert w.sim.spec_errors == []
