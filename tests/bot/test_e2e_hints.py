"""Hints on the simulated Discord: the host's option, the panel's Hint button and its private
answer, the count kept with the game, the game unrated and saying why; no hints where they are
off; a hint whose turn moved on; a lesson's hint."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

from bot.i18n import t
from cogs import ids
from games import tutorials
from tests.bot.sim_helpers import World, button, verb_of, world
from tests.bot.test_e2e_games import PublicWatch, play_to_the_end
from tests.bot.test_e2e_safety import refused
from tests.discord_sim import SimMessage, SimUser
from tests.discord_sim.interactions import DEFERRED_CHANNEL_MESSAGE

COMPONENT, BUTTON = 3, 2


async def open_two(w: World, hints: str | None, locale: str = "en-US",
                   game: str = "high-card") -> SimMessage:
    """Alice hosts a table of a game (the test game), Bob joins; the host sets hints in the
    options."""
    alice, bob = w.users[:2]
    await w.sim.slash(alice, w.channel, "play", {"game": game}, locale=locale)
    await w.sim.settle()
    r = await w.sim.click(bob, w.table_message(), button(w.table_message(), "join")["custom_id"])
    assert r.status == "ok", r
    if hints is not None:
        r = await w.sim.click(alice, w.table_message(),
                              button(w.table_message(), "opts")["custom_id"], locale=locale)
        menu = r.message
        assert menu is not None and menu.ephemeral
        for _ in range(5):  # the menus' pages, until the one with the hints
            found = [s for s in menu.selects() if verb_of(s["custom_id"]) == "hints"]
            if found:
                break
            r = await w.sim.click(alice, menu, button(menu, "opts")["custom_id"], locale=locale)
            assert r.message is not None
            menu = r.message
        [select] = found
        assert [o["value"] for o in select["options"] if o.get("default")] == ["off"]
        assert all(o.get("description") for o in select["options"])
        r = await w.sim.select(alice, menu, select["custom_id"], [hints], locale=locale)
        assert r.status == "ok" and r.message is not None, r
        # the menus come back at their first page, which shows the hints menu when it fits
        for again in [s for s in r.message.selects() if verb_of(s["custom_id"]) == "hints"]:
            assert [o["value"] for o in again["options"] if o.get("default")] == [hints]
        assert w.bot.manager.tables[1].hints is (hints == "on")
    await w.sim.settle()
    return w.table_message()


async def start(w: World) -> None:
    alice = w.users[0]
    r = await w.sim.click(alice, w.table_message(), button(w.table_message(), "start")[
        "custom_id"])
    assert r.status == "ok", r
    await w.sim.settle()
    # the searches of these tests think for a fifth of a second, not the hard level's second
    scheduler = w.bot.manager.thinker.scheduler
    assert scheduler is not None
    scheduler.full = 0.2


async def panel_of(w: World, user: SimUser, locale: str = "en-US") -> SimMessage:
    r = await w.sim.click(user, w.table_message(), button(w.table_message(), "hand")[
        "custom_id"], locale=locale)
    assert r.status == "ok" and r.message is not None and r.ephemeral, r
    return r.message


def hint_buttons(panel: SimMessage) -> list[dict[str, Any]]:
    return [b for b in panel.buttons() if verb_of(b["custom_id"]) == "hint"]


def due(w: World) -> tuple[int, SimUser, SimUser]:
    """The seat to move, its person and the other person."""
    table = w.bot.manager.tables[1]
    assert table.state is not None
    seat = table.state.to_act[0]
    mover = next(u for u in w.users if int(u.id) == table.seats[seat].user_id)
    other = next(u for u in w.users[:2] if u.id != mover.id)
    return seat, mover, other


async def answered(r: Any) -> str:
    """The hint's text once it has come (the click was answered by 'thinking…' first)."""
    assert r.status == "ok" and r.callback_type == DEFERRED_CHANNEL_MESSAGE, r
    for _ in range(400):
        if r.content:
            return str(r.content)
        await asyncio.sleep(0.02)
    raise AssertionError("the hint never came")


async def test_a_hint_is_private_counted_and_makes_the_game_unrated(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        lobby = await open_two(w, "on")
        shown = json.dumps(lobby.embeds, ensure_ascii=False)
        assert "Hints: on (a game in which someone uses a hint is unrated)" in shown
        await start(w)
        table = w.bot.manager.tables[1]
        assert table.hints and (await w.bot.store.table(1)).hints  # type: ignore[union-attr]
        seat, mover, other = due(w)
        panel = await panel_of(w, mover)
        [hint] = hint_buttons(panel)
        assert hint["label"] == "Hint"
        # the one waiting has no Hint button: hints are for one's own turn
        assert hint_buttons(await panel_of(w, other)) == []
        assert table.state is not None
        legal = [table.rules.action_text(a, "en") for a in table.state.legal_actions(seat)]
        version = table.version
        r = await w.sim.click(mover, panel, hint["custom_id"])
        text = await answered(r)
        assert r.ephemeral
        first = text.splitlines()[0]
        assert first.startswith("Hint: **") and "** — " in first, text
        named = first.split("**")[1]
        assert named in legal, (named, legal)
        assert "deals that fit it" in text and "Hints you used in this game: 1" in text
        assert "_" not in named and not any(code in first for code in ("TS", "QH", "AS"))
        # counted on the seat and stored with the game; nothing moved
        assert table.version == version
        assert table.seats[seat].hints == 1
        row = await w.bot.store.table(1)
        assert row is not None and row.seats[seat].get("hints") == 1
        # the hint was public to nobody: no channel message carries it
        assert all("Hint:" not in (m.content or "") for m in w.sim.messages(w.channel)
                   if not m.ephemeral)
        final = await play_to_the_end(w, w.users[:2], random.Random(5), PublicWatch(w))
        result = json.dumps(final.embeds, ensure_ascii=False)
        assert "This game was unrated: hints were used." in result
        record = await w.bot.store.db.one("SELECT rated, seats FROM records WHERE table_id=1")
        assert record is not None and record[0] == 0
        assert json.loads(record[1])[seat]["hints"] == 1
        assert w.sim.spec_errors == [] and w.sim.client_errors == []


async def test_a_hint_in_a_real_game_names_cards_and_gives_its_reason(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        await open_two(w, "on", game="spar")
        await start(w)
        table = w.bot.manager.tables[1]
        assert table.state is not None
        seat, mover, _other = due(w)
        panel = await panel_of(w, mover)
        [hint] = hint_buttons(panel)
        legal = [table.rules.action_text(a, "en") for a in table.state.legal_actions(seat)]
        text = await answered(await w.sim.click(mover, panel, hint["custom_id"]))
        first = text.splitlines()[0]
        named = first.split("**")[1]
        assert named in legal and any(suit in named for suit in "♠♥♦♣"), text
        # Spar's reason: the deal's goal (and the trick, when the move takes it)
        assert "you win the deal (the last trick) in " in first, text
        assert first.endswith("% of the deals consistent with what you have seen."), text
        assert table.seats[seat].hints == 1
        assert w.sim.spec_errors == [] and w.sim.client_errors == []


async def test_without_hints_there_is_no_button_and_a_forged_click_is_refused(
        tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        lobby = await open_two(w, None)
        assert "Hints: off" in json.dumps(lobby.embeds)
        await start(w)
        seat, mover, _other = due(w)
        panel = await panel_of(w, mover)
        assert hint_buttons(panel) == []
        table = w.bot.manager.tables[1]
        data = {"custom_id": ids.make("hint", 1, table.version), "component_type": BUTTON}
        r = await w.sim._interact(COMPONENT, mover, w.channel, data, message=panel)
        refused(r, "Hints are off at this table; the host can allow them")
        assert table.seats[seat].hints == 0
        # the game stays rated: two people, no computer, no hint
        final = await play_to_the_end(w, w.users[:2], random.Random(2), PublicWatch(w))
        assert "unrated" not in json.dumps(final.embeds)
        record = await w.bot.store.db.one("SELECT rated FROM records WHERE table_id=1")
        assert record is not None and record[0] == 1
        assert w.sim.spec_errors == [] and w.sim.client_errors == []


async def test_a_stale_hint_says_the_turn_moved_on(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        await open_two(w, "on", locale="ja")
        await start(w)
        seat, mover, other = due(w)
        panel = await panel_of(w, mover, locale="ja")
        [hint] = hint_buttons(panel)
        assert hint["label"] == "ヒント"
        table = w.bot.manager.tables[1]
        assert table.state is not None
        # the move is made (here through the manager) before the hint is asked for
        await w.bot.manager.act(table.id, int(mover.id), table.version,
                                table.state.legal_actions(seat)[0])
        await w.sim.settle()
        r = await w.sim._interact(COMPONENT, mover, w.channel,
                                  {"custom_id": hint["custom_id"], "component_type": BUTTON},
                                  message=panel, locale="ja")
        refused(r, t("hint-stale", "ja"))
        assert table.seats[seat].hints == 0
        # a hint asked while it is not one's turn
        seat2, mover2, _ = due(w)
        other_panel = await panel_of(w, other if mover2.id != other.id else mover, locale="ja")
        forged = {"custom_id": ids.make("hint", 1, table.version), "component_type": BUTTON}
        waiting = other if mover2.id != other.id else mover
        r = await w.sim._interact(COMPONENT, waiting, w.channel, forged, message=other_panel,
                                  locale="ja")
        refused(r, t("hint-not-your-turn", "ja"))
        # and the turn moving on while the hint is thought: not shown, not counted
        panel2 = await panel_of(w, mover2, locale="ja")
        [hint2] = hint_buttons(panel2)
        pending = asyncio.ensure_future(w.sim.click(mover2, panel2, hint2["custom_id"],
                                                    locale="ja"))
        await asyncio.sleep(0.05)
        assert table.state is not None
        await w.bot.manager.act(table.id, int(mover2.id), table.version,
                                table.state.legal_actions(seat2)[0])
        r = await pending
        assert await answered(r) == t("hint-stale", "ja")
        assert table.seats[seat2].hints == 0
        assert w.sim.spec_errors == [] and w.sim.client_errors == []


async def test_a_lesson_has_a_hint(tmp_path: Path) -> None:
    async with world(tmp_path, people=1) as w:
        alice = w.users[0]
        game = tutorials.ids()[0]
        guide = tutorials.lesson(game, "en")
        r = await w.sim.slash(alice, w.channel, "learn", {"game": game})
        assert r.status == "ok" and r.message is not None
        message = r.message
        # through the steps that only explain, to the first one that teaches a move
        while guide.hint() is None:
            [next_button] = [b for b in message.buttons() if b.get("label") == "Next"]
            assert not [b for b in message.buttons() if b.get("label") == "Hint"]
            r = await w.sim.click(alice, message, next_button["custom_id"])
            assert r.status == "ok" and r.message is not None
            message = r.message
            assert guide.act("next").accepted
        found = guide.hint()
        assert found is not None
        move, why = found
        [hint] = [b for b in message.buttons() if b.get("label") == "Hint"]
        r = await w.sim.click(alice, message, hint["custom_id"])
        refused(r, f"Hint: **{guide.label(move)}** — {why}")
        assert guide.step == int(hint["custom_id"].split(":")[3])
        assert w.sim.spec_errors == [] and w.sim.client_errors == []
