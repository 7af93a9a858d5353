"""Spar's `peek` on the simulated Discord: the question on the others' panels, the answers,
a person who lets the turn timer run out refusing, and the table message telling the story."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.tables.model import Table
from games.core import State
from tests.bot.sim_helpers import World, button, world
from tests.discord_sim import SimMessage, SimUser

#: "fast" is 30 s; at this scale a turn lasts 3 s
SCALE = 0.1


async def spar_with_peek(w: World, timer: str | None = None) -> Table:
    """Alice (host) and Bob at a game of Spar with `peek` on, started."""
    alice, bob = w.users[:2]
    r = await w.sim.slash(alice, w.channel, "play", {"game": "spar"})
    assert r.status == "ok", r
    await w.sim.settle()
    r = await w.sim.click(bob, w.table_message(), button(w.table_message(), "join")["custom_id"])
    assert r.status == "ok", r
    m = w.bot.manager
    table = next(iter(m.tables.values()))
    await m.set_option(table.id, int(alice.id), "peek", True)
    if timer is not None:
        await m.set_timer(table.id, int(alice.id), timer)
    await w.sim.settle()
    r = await w.sim.click(alice, w.table_message(), button(w.table_message(), "start")["custom_id"])
    assert r.status == "ok", r
    await w.sim.settle()
    return table


async def to_the_second_to_last_trick(w: World, table: Table) -> None:
    """Each player to act plays their first card until the second-to-last trick begins."""
    while True:
        state = table.state
        assert state is not None
        view = state.view(None)
        if view["trick_number"] == view["tricks_per_deal"] - 1 and not view["trick"]:
            return
        seat = state.to_act[0]
        user = table.seats[seat].user_id
        assert user is not None
        action = next(a for a in state.legal_actions(seat) if a.kind == "play")
        await w.bot.manager.act(table.id, user, table.version, action)
        await w.sim.settle()


def now(table: Table) -> State:
    """The table's state as it is now: a move makes a new one, stored before it is the table's."""
    state = table.state
    assert state is not None
    return state


def user_at(w: World, table: Table, seat: int) -> SimUser:
    return next(u for u in w.users if int(u.id) == table.seats[seat].user_id)


async def panel(w: World, user: SimUser) -> SimMessage:
    table = w.table_message()
    r = await w.sim.click(user, table, button(table, "hand")["custom_id"])
    assert r.status == "ok" and r.message is not None and r.message.ephemeral, r
    return r.message


def labelled(message: SimMessage, label: str) -> dict[str, object]:
    found = [b for b in message.buttons() if b["label"] == label]
    assert found, [b["label"] for b in message.buttons()]
    return found[0]


async def test_peek_the_question_on_the_others_panel_and_the_table_message_tells_how_it_ended(
        tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        table = await spar_with_peek(w)
        await to_the_second_to_last_trick(w, table)
        leader = now(table).to_act[0]
        asker, answerer = user_at(w, table, 1 - leader), user_at(w, table, leader)
        # the player who is not to play asks, from their own panel
        mine = await panel(w, asker)
        r = await w.sim.click(asker, mine, str(labelled(mine, "Ask to see the bottom card")
                                                ["custom_id"]))
        assert r.status == "ok", r
        await w.sim.settle()
        assert now(table).to_act == (leader,) and now(table).view(None)["phase"] == "peek"
        # the other gets the question on their panel, and no card to play meanwhile
        theirs = await panel(w, answerer)
        labelled(theirs, "Agree: show the bottom card")
        refuse = labelled(theirs, "Refuse: keep it hidden")
        assert not any(str(b["label"]).startswith("Play") for b in theirs.buttons())
        r = await w.sim.click(answerer, theirs, str(refuse["custom_id"]))
        assert r.status == "ok", r
        await w.sim.settle()
        assert now(table).view(None)["peeked"] is None and now(table).view(None)["phase"] == "play"
        said = w.table_message().text
        assert f"{asker.name} asks to see the bottom card" in said, said
        assert (f"{answerer.name} refuses {asker.name}'s request: the bottom card stays hidden."
                in said), said
        # the refused player is not offered to ask again
        mine = await panel(w, asker)
        assert "Ask to see the bottom card" not in [b["label"] for b in mine.buttons()]
        # the other may still ask; with everybody's agreement the card is shown to all
        theirs = await panel(w, answerer)
        r = await w.sim.click(answerer, theirs, str(labelled(theirs, "Ask to see the bottom card")
                                                    ["custom_id"]))
        assert r.status == "ok", r
        await w.sim.settle()
        mine = await panel(w, asker)
        r = await w.sim.click(asker, mine, str(labelled(mine, "Agree: show the bottom card")
                                                ["custom_id"]))
        assert r.status == "ok", r
        await w.sim.settle()
        bottom = now(table).view(None)["peeked"]
        assert bottom is not None
        said = w.table_message().text
        assert f"Everyone agreed to {answerer.name}'s request: the bottom card is" in said, said
        assert w.sim.spec_errors == []


async def test_peek_a_person_who_does_not_answer_in_time_refuses(tmp_path: Path) -> None:
    async with world(tmp_path, people=2, timer_scale=SCALE) as w:
        table = await spar_with_peek(w, timer="fast")
        await to_the_second_to_last_trick(w, table)
        state = table.state
        assert state is not None
        leader = state.to_act[0]
        asker = user_at(w, table, 1 - leader)
        await w.bot.manager.act(table.id, int(asker.id), table.version, "peek")
        for _ in range(800):  # nobody answers: the timer runs out
            await asyncio.sleep(0.02)
            stored = [(a.action, a.how) for a in await w.bot.store.actions(table.id)]
            if ("peek_refuse", "timeout") in stored:
                break
        stored = [(a.action, a.how) for a in await w.bot.store.actions(table.id)]
        asked = [action for action, _how in stored].index("peek")
        assert stored[asked + 1] == ("peek_refuse", "timeout"), stored
