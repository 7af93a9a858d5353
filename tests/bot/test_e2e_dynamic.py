"""Table components are routed by their custom id alone; everything else gets one answer.

A click on a table's button or menu reaches ``PlayCog.on_interaction``, which parses its id
and hands it to ``PlayCog.component`` once; the clicked message is never rebuilt into a view
(discord.py's ``View.from_message``, which its dynamic items need). A lesson's buttons stay
dynamic items. Every other component interaction is answered by the cog's fallback (or, for
``dhs:`` ids, by the records cog), and no interaction is answered twice or left unanswered.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import discord
import pytest

from cogs import ids
from cogs.play import PlayCog
from tests.bot.sim_helpers import World, button, verb_of, world
from tests.bot.test_e2e_safety import (
    first_move,
    moved_on,
    mover,
    open_hand,
    refused,
    two_player_table,
)
from tests.discord_sim import InteractionResult, SimMessage, SimUser

COMPONENT, BUTTON, SELECT = 3, 2, 3


class Paths:
    """Counts the table interactions routed, and the views rebuilt from a clicked message."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.seen: Counter[str] = Counter()
        component = PlayCog.component

        async def routed(cog: Any, interaction: Any, cid: Any) -> None:
            self.seen["routed"] += 1
            await component(cog, interaction, cid)

        monkeypatch.setattr(PlayCog, "component", routed)
        rebuild = discord.ui.View.from_message.__func__  # type: ignore[attr-defined]

        def rebuilt(cls: Any, *args: Any, **kwargs: Any) -> Any:
            self.seen["rebuilt"] += 1
            return rebuild(cls, *args, **kwargs)

        monkeypatch.setattr(discord.ui.View, "from_message", classmethod(rebuilt))

    def take(self) -> Counter[str]:
        found, self.seen = self.seen, Counter()
        return found


def answered_once(w: World, r: InteractionResult) -> None:
    """Exactly one accepted callback, and no refused second one (40060) anywhere."""
    assert r.status == "ok", r
    callbacks = [q for q in r.responses if q.path.endswith("/callback")]
    assert len(callbacks) == 1 and callbacks[0].status < 300, callbacks
    assert not [q for q in w.sim.requests if q.status == 400 and "40060" in str(q.response)]


async def forged(w: World, user: SimUser, message: SimMessage, custom_id: str,
                 kind: int = BUTTON, values: list[str] | None = None) -> InteractionResult:
    """What a modified client could send: any custom id, on a message it can see."""
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
    if values is not None:
        data["values"] = values
    return await w.sim._interact(COMPONENT, user, w.channel, data, message=message)


def test_every_id_the_bot_makes_parses_back_and_nothing_else_does() -> None:
    for verb in ids.BUTTON_VERBS + ids.SELECT_VERBS:
        made = ids.make(verb, 12, 3, "0.1")
        assert ids.parse(made) == ids.ComponentId(verb, 12, 3, "0.1")
        assert not ids.LEARN_TEMPLATE.fullmatch(made)
    for other in ("dh:nope:1:1:0", "dh:act:1:x:0", "dh:act:1:1", "dhs:lb:x:1:a", "dh:act:1:1:0 ",
                  "xdh:act:1:1:0", "dh:act:1234567890123456789:1:0", ""):
        assert ids.parse(other) is None, other


async def test_table_clicks_are_routed_once_by_their_id_and_no_view_is_rebuilt(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = Paths(monkeypatch)
    async with world(tmp_path, people=2) as w:
        alice, bob = w.users
        registered = w.bot._connection._view_store._dynamic_items  # what discord.py dispatches
        assert list(registered) == [ids.LEARN_TEMPLATE]  # a lesson's buttons only
        await w.sim.slash(alice, w.channel, "play", {"game": "high-card"})
        await w.sim.settle()
        lobby = w.table_message()
        paths.take()
        r = await w.sim.click(bob, lobby, button(lobby, "join")["custom_id"])
        answered_once(w, r)
        assert paths.take() == Counter(routed=1)
        lobby = w.table_message()
        r = await w.sim.click(alice, lobby, button(lobby, "opts")["custom_id"])
        menu = r.message
        assert menu is not None
        timer = next(s for s in menu.selects() if verb_of(s["custom_id"]) == "timer")
        paths.take()
        r = await w.sim.select(alice, menu, timer["custom_id"], ["relaxed"])
        answered_once(w, r)
        assert paths.take() == Counter(routed=1)
        assert w.bot.manager.tables[1].timer == "relaxed"
        lobby = w.table_message()
        r = await w.sim.click(alice, lobby, button(lobby, "start")["custom_id"])
        answered_once(w, r)
        await w.sim.settle()
        user, _ = mover(w, w.table_message())
        hand = await open_hand(w, user)
        paths.take()
        kind, custom_id, values = first_move(hand)
        r = await (w.sim.click(user, hand, custom_id) if kind == "button"
                   else w.sim.select(user, hand, custom_id, values))
        answered_once(w, r)
        assert paths.take() == Counter(routed=1)
        assert len(await w.bot.store.actions(1)) == 1
        assert w.sim.spec_errors == [] and w.sim.client_errors == []


async def test_after_a_restart_old_buttons_are_routed_by_their_ids(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = Paths(monkeypatch)
    async with world(tmp_path, people=2) as w:
        await two_player_table(w, hand=5)
        user, _ = mover(w, w.table_message())
        old_hand = await open_hand(w, user)
        second_hand = await open_hand(w, user)
        old_table = w.table_message()
        await w.restart()
        paths.take()
        r = await w.sim.click(user, old_table, button(old_table, "hand")["custom_id"])
        answered_once(w, r)
        assert r.ephemeral
        kind, custom_id, values = first_move(old_hand)
        r = await (w.sim.click(user, old_hand, custom_id) if kind == "button"
                   else w.sim.select(user, old_hand, custom_id, values))
        answered_once(w, r)
        assert r.callback_type == 7
        assert paths.take() == Counter(routed=2)
        # the same control on another old copy of the hand: now stale, answered once with the
        # position now
        r = await (w.sim.click(user, second_hand, custom_id) if kind == "button"
                   else w.sim.select(user, second_hand, custom_id, values))
        moved_on(r, second_hand)
        answered_once(w, r)
        assert len(await w.bot.store.actions(1)) == 1
        assert w.sim.spec_errors == []


@pytest.mark.parametrize("custom_id,kind,words", [
    ("something-else", BUTTON, "doesn't belong"),  # another bot's leftover
    ("dh:nope:1:1:0", BUTTON, "doesn't belong"),  # unknown verb
    ("dh:act:1:x:0", BUTTON, "doesn't belong"),  # malformed version
    ("dh:act:1:1", BUTTON, "doesn't belong"),  # a part missing
    ("dh:" + "a" * 90, BUTTON, "doesn't belong"),
    ("dh:act:999:1:0", BUTTON, "no open table"),  # on no message: routed and checked
    ("dh:hand:1:1:", SELECT, "don't have a seat"),  # a button id sent as a select
    ("dh:pick:1:1:0.0", SELECT, "doesn't belong"),  # a hand's menu on the table message
    ("dh:learn:1:1:0", BUTTON, "doesn't belong"),  # a lesson's button on the table message
    ("dhs:zz:1:1:a", BUTTON, "doesn't belong"),  # the records cog answers its own prefix
])
async def test_unmatched_ids_get_exactly_one_polite_answer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, custom_id: str, kind: int,
        words: str) -> None:
    paths = Paths(monkeypatch)
    async with world(tmp_path, people=3) as w:
        await two_player_table(w)
        stranger = w.users[2]
        table = w.table_message()
        paths.take()
        r = await forged(w, stranger, table, custom_id, kind, [] if kind == SELECT else None)
        await w.sim.settle()
        refused(r, words)
        answered_once(w, r)
        went = paths.take()
        # a lesson's id matches its dynamic item's template: discord.py looks for the item in
        # the clicked message (it is not there); no other id makes it rebuild the message
        assert went["rebuilt"] == (1 if ids.LEARN_TEMPLATE.fullmatch(custom_id) else 0)
        assert went["routed"] <= 1
        assert w.bot.manager.tables[1].version == 0
        assert w.sim.spec_errors == [] and w.sim.client_errors == []


async def test_the_records_cogs_buttons_still_work(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    paths = Paths(monkeypatch)
    async with world(tmp_path, people=1) as w:
        alice = w.users[0]
        r = await w.sim.slash(alice, w.channel, "privacy forget-me")
        ask = r.message
        assert ask is not None and ask.ephemeral
        [confirm] = [b for b in ask.buttons() if str(b["custom_id"]).startswith("dhs:")]
        r = await w.sim.click(alice, ask, confirm["custom_id"])
        await w.sim.settle()
        answered_once(w, r)
        assert r.message is not None and "0 game records" in r.message.content
        assert sum(paths.take().values()) == 0
        assert w.sim.spec_errors == [] and w.sim.client_errors == []


async def test_without_the_cog_no_table_click_is_routed(tmp_path: Path) -> None:
    async with world(tmp_path, people=1) as w:
        def routing() -> list[Any]:
            return [f for f in w.bot.extra_events.get("on_interaction", [])
                    if isinstance(getattr(f, "__self__", None), PlayCog)]
        assert len(routing()) == 1
        await w.bot.remove_cog("PlayCog")
        assert routing() == []


@pytest.mark.parametrize("custom_id", ["dhs:lb:twenty-two:0:a", "dhs:lb:*:1:b",
                                       "dhs:rp:1:0:a", "dhs:rp:1:3:c"])
async def test_records_buttons_forged_onto_a_table_message_leave_it_alone(
        tmp_path: Path, custom_id: str) -> None:
    """A leaderboard or replay page answers by editing the clicked message; those are private
    messages, so on a public table message the click is refused and the table stays."""
    async with world(tmp_path, people=3) as w:
        await two_player_table(w)
        table = w.table_message()
        before = (table.content, [b["custom_id"] for b in table.buttons()])
        r = await forged(w, w.users[2], table, custom_id, BUTTON, None)
        await w.sim.settle()
        refused(r, "doesn't belong")
        answered_once(w, r)
        after = w.table_message()
        assert (after.content, [b["custom_id"] for b in after.buttons()]) == before
        assert all(str(b["custom_id"]).startswith("dh:") for b in after.buttons())
        assert w.sim.spec_errors == [] and w.sim.client_errors == []
