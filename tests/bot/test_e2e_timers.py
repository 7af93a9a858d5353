"""Timers and seat hand-overs on the simulated Discord (tiny timer scale, real clock)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.bot.sim_helpers import World, button, is_public, world
from tests.bot.test_e2e_games import open_table
from tests.discord_sim import SimMessage

#: "fast" is 30 s; at this scale a turn lasts 0.3 s
SCALE = 0.01


async def with_fast_timer(w: World, hand: int = 10) -> SimMessage:
    """Alice (host) and Bob at the test game; the host picks the fast timer in the lobby."""
    alice, bob = w.users[:2]
    r = await w.sim.slash(alice, w.channel, "play", {"game": "high-card"})
    assert r.status == "ok", r
    await w.sim.settle()
    r = await w.sim.click(bob, w.table_message(), button(w.table_message(), "join")["custom_id"])
    assert r.status == "ok", r
    r = await w.sim.click(alice, w.table_message(), button(w.table_message(), "opts")["custom_id"])
    menu = r.message
    assert menu is not None
    [timer] = [s for s in menu.selects() if ":timer:" in s["custom_id"]]
    r = await w.sim.select(alice, menu, timer["custom_id"], ["fast"])
    assert r.status == "ok", r
    menu = r.message or menu
    assert [s for s in menu.selects() if ":timer:" in s["custom_id"]]  # its page stays shown
    sizes = [s for s in menu.selects() if s["custom_id"].endswith(":hand")]
    if not sizes:  # the game's hand size is on the next page of the options
        r = await w.sim.click(alice, menu, button(menu, "opts")["custom_id"])
        assert r.status == "ok" and r.message is not None, r
        menu = r.message
        sizes = [s for s in menu.selects() if s["custom_id"].endswith(":hand")]
    [size] = sizes
    r = await w.sim.select(alice, menu, size["custom_id"], [str(hand)])
    assert r.status == "ok" and r.message is not None, r
    # the page of the menu just used stays in front of the host
    assert [s for s in r.message.selects() if s["custom_id"].endswith(":hand")]
    await w.sim.settle()
    assert "fast" in str(w.table_message().embeds).lower()
    r = await w.sim.click(alice, w.table_message(), button(w.table_message(), "start")["custom_id"])
    assert r.status == "ok", r
    return w.table_message()


def public_text(w: World) -> str:
    """Everything the bot sent to the channel and its threads so far (requests, as text)."""
    return " ".join(str(q.json) for q in w.sim.requests
                    if is_public(w.sim, q, w.channel) or q.interaction_id is not None)


async def test_a_timeout_lets_the_computer_move_and_twice_keeps_the_seat_until_im_back(
        tmp_path: Path) -> None:
    # Bob times out twice too, and then the computer plays both seats: a pause between its
    # moves keeps the game going until Alice is back, however slow the machine
    async with world(tmp_path, people=2, timer_scale=SCALE, ai_delay=0.5) as w:
        alice = w.users[0]
        await with_fast_timer(w)
        table = next(iter(w.bot.manager.tables.values()))
        for _ in range(200):
            await asyncio.sleep(0.02)  # settle() returns at once when all is quiet
            if table.seats[0].away:
                break
        assert table.seats[0].away, table.seats
        for _ in range(100):  # the coalesced edit that says so
            await asyncio.sleep(0.02)
            said = public_text(w)
            if "Alice timed out twice" in said:
                break
        assert "Alice ran out of time; the computer moved for them." in said
        assert "Alice timed out twice" in said
        stored = await w.bot.store.actions(table.id)
        assert [a.how for a in stored if a.seat == 0][:2] == ["timeout", "timeout"]
        message = w.table_message()
        r = await w.sim.click(alice, message, button(message, "back")["custom_id"])
        assert r.status == "ok" and r.ephemeral and "Alice is back." in (r.content or ""), r
        assert not table.seats[0].away and table.seats[0].timeouts == 0
        await w.sim.settle(idle=0.1)
        assert "Alice is back." in public_text(w)
        assert w.sim.spec_errors == []


async def test_a_move_in_time_resets_the_count_of_timeouts(tmp_path: Path) -> None:
    async with world(tmp_path, people=2, timer_scale=SCALE) as w:
        await with_fast_timer(w)
        table = next(iter(w.bot.manager.tables.values()))
        for _ in range(200):
            await asyncio.sleep(0.02)  # settle() returns at once when all is quiet
            if any(s.timeouts for s in table.seats):
                break
        late = next(i for i, s in enumerate(table.seats) if s.timeouts)
        assert not table.seats[late].away
        # the count goes up as the timeout fires; the computer's move is stored just after
        for _ in range(100):
            stored = await w.bot.store.actions(table.id)
            if any(a.how == "timeout" and a.seat == late for a in stored):
                break
            await asyncio.sleep(0.02)
        assert any(a.how == "timeout" and a.seat == late for a in stored)


async def manage_menu(w: World, who: int) -> SimMessage:
    message = w.table_message()
    r = await w.sim.click(w.users[who], message, button(message, "manage")["custom_id"])
    assert r.status == "ok" and r.message is not None and r.message.ephemeral, r
    return r.message


async def test_a_server_manager_hands_a_seat_to_the_computer(tmp_path: Path) -> None:
    async with world(tmp_path, people=3) as w:  # Carol manages the server, Bob does not
        await open_table(w, "high-card", w.users[:2], 2, {"hand": "10"})
        table = next(iter(w.bot.manager.tables.values()))
        r = await w.sim.click(w.users[1], w.table_message(),
                              button(w.table_message(), "manage")["custom_id"])
        assert r.ephemeral and "host" in (r.content or ""), r
        menu = await manage_menu(w, 2)
        [over] = [s for s in menu.selects() if ":over:" in s["custom_id"]]
        r = await w.sim.select(w.users[2], menu, over["custom_id"], ["1"])
        assert r.status == "ok" and r.message is not None and r.message.content == "Done.", r
        assert table.seats[1].away
        await w.sim.settle(idle=0.1)
        assert "The computer now plays for Bob." in public_text(w)
        assert "im-back" not in public_text(w) and button(w.table_message(), "back")
        assert w.sim.spec_errors == []


async def test_the_host_cancels_a_game_from_the_manage_menu(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        await open_table(w, "high-card", w.users[:2], 2, {"hand": "10"})
        table = next(iter(w.bot.manager.tables.values()))
        menu = await manage_menu(w, 0)
        r = await w.sim.click(w.users[0], menu, button(menu, "cancel")["custom_id"])
        assert r.status == "ok", r
        await w.sim.settle(idle=0.1)
        assert table.status == "cancelled"
        assert w.bot.manager.live_in(int(w.channel.id)) is None
        final = w.table_message()
        assert "cancel" in final.content.lower() and not final.buttons()
        assert not final.attachments
        row = await w.bot.store.open_tables()
        assert all(t.id != table.id for t in row)
