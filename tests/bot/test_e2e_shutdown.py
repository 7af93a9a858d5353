"""A bot that is asked to stop answers the clicks under way first, on the simulated Discord."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.tables import Refusal
from tests.bot.sim_helpers import World, world
from tests.bot.test_e2e_safety import first_move, mover, open_hand, two_player_table, use
from tests.discord_sim import InteractionResult


def hold(owner: Any, name: str, then: Callable[..., Awaitable[Any]] | None = None
         ) -> tuple[asyncio.Event, asyncio.Event]:
    """Replace ``owner.name`` by one that waits for the second event (the first is set when it
    is entered), then does the real work (or ``then``)."""
    entered, release = asyncio.Event(), asyncio.Event()
    real = then or getattr(owner, name)

    async def held(*args: Any, **kwargs: Any) -> Any:
        entered.set()
        await release.wait()
        return await real(*args, **kwargs)

    setattr(owner, name, held)
    return entered, release


async def stop_while_held(w: World, interaction: Awaitable[InteractionResult],
                          entered: asyncio.Event, release: asyncio.Event) -> InteractionResult:
    """Start the interaction; once it is held, begin a graceful stop and see that the stop
    waits for it; then let it go. Its result, after the stop has ended."""
    answer = asyncio.ensure_future(interaction)
    await asyncio.wait_for(entered.wait(), 5.0)
    closing = asyncio.create_task(w.sim.stop_bot(graceful=True))
    await asyncio.sleep(0.3)
    assert not closing.done()  # the shutdown waits for the interaction being answered
    release.set()
    r = await answer
    await asyncio.wait_for(closing, 10.0)
    return r


async def test_a_shutdown_answers_the_click_under_way(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        table = await two_player_table(w)
        user, _ = mover(w, table)
        hand = await open_hand(w, user)
        control = first_move(hand)
        entered, release = hold(w.bot.manager, "act")
        r = await stop_while_held(w, use(w, user, hand, control), entered, release)
        assert r.status == "ok" and r.callback_type is not None, r
        assert len(await w.bot.store.actions(1)) == 1  # the move was made and stored
        assert w.sim.client_errors == [] and w.sim.spec_errors == []


async def test_a_shutdown_answers_a_play_command_under_way(tmp_path: Path) -> None:
    async with world(tmp_path, people=1) as w:
        [alice] = w.users
        entered, release = hold(w.bot.manager, "open")
        r = await stop_while_held(
            w, w.sim.slash(alice, w.channel, "play", {"game": "high-card"}), entered, release)
        assert r.status == "ok" and r.callback_type is not None, r
        assert "High Card" in str(w.table_message().embeds)  # the lobby was posted
        assert w.sim.client_errors == [] and w.sim.spec_errors == []


async def test_a_shutdown_answers_a_refusal_under_way(tmp_path: Path) -> None:
    async def refuse(*args: Any, **kwargs: Any) -> Any:
        raise Refusal("channel-full", most=10)

    async with world(tmp_path, people=1) as w:
        [alice] = w.users
        entered, release = hold(w.bot.manager, "open", refuse)
        r = await stop_while_held(
            w, w.sim.slash(alice, w.channel, "play", {"game": "high-card"}), entered, release)
        assert r.status == "ok" and r.ephemeral and "already holds 10 open" in (r.content or ""), r
        assert w.sim.client_errors == [] and w.sim.spec_errors == []


async def test_a_shutdown_answers_a_forget_me_under_way(tmp_path: Path) -> None:
    async with world(tmp_path, people=1) as w:
        [alice] = w.users
        r = await w.sim.slash(alice, w.channel, "privacy forget-me")
        assert r.message is not None
        [confirm] = [b for b in r.message.buttons() if str(b["custom_id"]).startswith("dhs:")]
        records = w.bot.get_cog("StatsCog").records  # type: ignore[union-attr]
        entered, release = hold(records, "forget")
        answer = await stop_while_held(
            w, w.sim.click(alice, r.message, confirm["custom_id"]), entered, release)
        assert answer.message is not None and "0 game records" in answer.message.content
        assert w.sim.client_errors == [] and w.sim.spec_errors == []
