"""Moves offered out of turn (Getaway's take) reach the seats that may make them.

With ``take_hand`` on, every player still in may take a hand between rounds, not only the
player due to lead: the public message mentions them, their Hand shows the take, and a player
who chose direct messages gets the offer there.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.bot.sim_helpers import World, button, verb_of, world
from tests.bot.test_e2e_games import open_table
from tests.discord_sim import SimMessage, SimUser


async def caught_up(w: World) -> None:
    """Wait until the table message shows the latest position (its edit may draw a picture)."""
    cog = w.bot.get_cog("PlayCog")
    for _ in range(500):
        await w.sim.settle(idle=0.02)
        board = cog.messages.boards.get(1)  # type: ignore[union-attr]
        if board is None or (not board.dirty and (board.task is None or board.task.done())):
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the table message never caught up")


def lines_of(message: SimMessage) -> tuple[str, str]:
    """(the whose-turn line, the out-of-turn line) of the table message."""
    turn = next(x for x in message.content.splitlines() if "your turn" in x)
    other = next((x for x in message.content.splitlines() if "out of turn" in x), "")
    return turn, other


def takes(message: SimMessage) -> list[dict[str, object]]:
    return [b for b in message.buttons()
            if verb_of(b["custom_id"]) == "act" and str(b["label"]).startswith("Take")]


async def start(w: World) -> tuple[int, list[int]]:
    """A three-person game with takes from anyone; (the seat to lead, the other seats)."""
    bob, carol = w.users[1:3]
    for user in (bob, carol):
        r = await w.sim.slash(user, w.channel, "settings dm", {"enabled": True})
        assert r.status == "ok"
    await open_table(w, "bhabhi", w.users[:3], 3, {"take_hand": "any"})
    await caught_up(w)
    table = w.bot.manager.tables[1]
    assert table.state is not None and table.options["take_hand"] == "any"
    [leader] = table.state.to_act
    return leader, [s for s in range(3) if s != leader]


def user_at(w: World, seat: int) -> SimUser:
    table = w.bot.manager.tables[1]
    return next(u for u in w.users if int(u.id) == table.seats[seat].user_id)


async def test_the_table_names_who_may_take_and_their_hand_offers_it(tmp_path: Path) -> None:
    async with world(tmp_path, people=3) as w:
        leader, others = await start(w)
        message = w.table_message()
        turn, other = lines_of(message)
        assert f"<@{user_at(w, leader).id}>" in turn
        for seat in others:
            assert f"<@{user_at(w, seat).id}>" in other and f"<@{user_at(w, seat).id}>" not in turn
        # an out-of-turn seat's Hand offers exactly its takes, saying it is out of turn
        taker = user_at(w, others[0])
        r = await w.sim.click(taker, message, button(message, "hand")["custom_id"])
        hand = r.message
        assert hand is not None and hand.ephemeral
        assert "out of turn" in hand.text
        offered = takes(hand)
        assert {str(b["label"]) for b in offered} == {
            f"Take the hand of Seat {s + 1}" for s in range(3) if s != others[0]}
        assert not [b for b in hand.buttons() if str(b["label"]).startswith("Play")]
        assert not [s for s in hand.selects() if verb_of(s["custom_id"]) == "pick"]
        # the leader's Hand has both the lead and the takes, as a turn
        lead_hand_r = await w.sim.click(user_at(w, leader), message,
                                        button(message, "hand")["custom_id"])
        assert lead_hand_r.message is not None
        assert "out of turn" not in lead_hand_r.message.text
        assert takes(lead_hand_r.message)
        # take the hand of the other out-of-turn seat: applied, though not this seat's turn
        victim = others[1]
        [take] = [b for b in offered if b["label"] == f"Take the hand of Seat {victim + 1}"]
        r = await w.sim.click(taker, hand, str(take["custom_id"]))
        assert r.callback_type == 7, r
        stored = await w.bot.store.actions(1)
        assert [(a.seat, a.action) for a in stored] == [(others[0], f"take={victim}")]
        state = w.bot.manager.tables[1].state
        assert state is not None and state.view(victim)["hand"] == []
        await caught_up(w)
        # the victim is safe: no longer offered anything nor mentioned
        message = w.table_message()
        turn, other = lines_of(message)
        assert f"<@{user_at(w, victim).id}>" not in message.content
        assert f"<@{user_at(w, leader).id}>" in turn
        assert f"<@{taker.id}>" in other
        assert w.sim.spec_errors == [] and w.sim.client_errors == []


async def test_a_player_who_chose_dms_gets_the_offer_by_dm(tmp_path: Path) -> None:
    async with world(tmp_path, people=3) as w:
        leader, others = await start(w)
        await w.sim.settle()
        dm_users = {int(u.id) for u in w.users[1:3]}
        table = w.bot.manager.tables[1]
        [seat] = [s for s in others if table.seats[s].user_id in dm_users][:1]
        user = user_at(w, seat)
        for _ in range(100):  # the DM's hand picture is drawn in a worker thread
            offers = [m for m in w.sim.dms(user) if "out of turn" in m.text]
            if offers:
                break
            await w.sim.settle(idle=0.05)
            await asyncio.sleep(0.02)
        assert len(offers) == 1, [m.text for m in w.sim.dms(user)]
        offer = offers[0]
        assert "Getaway" in offer.text and "Test Server" in offer.text
        assert "#cards" in offer.text
        assert takes(offer)
        if table.seats[leader].user_id in dm_users:  # the leader's DM is a turn, not an offer
            assert any("your turn" in m.text for m in w.sim.dms(user_at(w, leader)))
        take = takes(offer)[0]
        r = await w.sim.click(user, offer, str(take["custom_id"]))
        assert r.callback_type == 7, r
        assert [a.seat for a in await w.bot.store.actions(1)] == [seat]
        assert w.sim.spec_errors == [] and w.sim.client_errors == []


async def test_a_seat_the_computer_keeps_is_not_offered_out_of_turn(tmp_path: Path) -> None:
    async with world(tmp_path, people=3) as w:
        _leader, others = await start(w)
        carol = w.users[2]  # may manage the server
        message = w.table_message()
        r = await w.sim.click(carol, message, button(message, "manage")["custom_id"])
        assert r.message is not None
        [over] = [s for s in r.message.selects() if verb_of(s["custom_id"]) == "over"]
        r = await w.sim.select(carol, r.message, over["custom_id"], [str(others[0])])
        assert r.status == "ok", r
        await caught_up(w)
        _turn, other = lines_of(w.table_message())
        assert f"<@{user_at(w, others[0]).id}>" not in other
        assert f"<@{user_at(w, others[1]).id}>" in other
        assert await w.bot.store.actions(1) == []  # the computer does not take out of turn
        assert w.sim.spec_errors == []
