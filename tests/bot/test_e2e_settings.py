"""/settings four-colour (a player's hand picture in four suit colours) and /help."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from bot.pictures import hand_png, playable_cards
from bot.storage.store import UserSettings
from tests.bot.sim_helpers import button, world
from tests.bot.test_e2e_games import open_table


async def test_four_colours_are_stored_without_touching_the_other_settings(
        tmp_path: Path) -> None:
    async with world(tmp_path, people=1) as w:
        alice = w.users[0]
        r = await w.sim.slash(alice, w.channel, "settings dm", {"enabled": True})
        assert r.ephemeral
        r = await w.sim.slash(alice, w.channel, "settings four-colour", {"enabled": True})
        assert r.ephemeral and "four suit colours" in (r.content or "")
        assert await w.bot.store.user_settings(int(alice.id)) == UserSettings(
            dm=True, locale="en", four_colour=True)
        r = await w.sim.slash(alice, w.channel, "settings dm", {"enabled": False})
        assert (await w.bot.store.user_settings(int(alice.id))).four_colour
        r = await w.sim.slash(alice, w.channel, "settings four-colour", {"enabled": False},
                              locale="ja")
        assert r.ephemeral and "2色" in (r.content or "")
        assert await w.bot.store.user_settings(int(alice.id)) == UserSettings(
            dm=False, locale="ja", four_colour=False)
        assert w.sim.spec_errors == []


async def test_a_player_who_chose_four_colours_sees_their_hand_in_four(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        alice, bob = w.users
        await w.sim.slash(alice, w.channel, "settings four-colour", {"enabled": True})
        await open_table(w, "bhabhi", [alice, bob], 2, {})  # no computer moving meanwhile
        await w.sim.settle(idle=0.2)
        table = w.bot.manager.tables[1]
        assert table.state is not None
        for seat, user, four in ((0, alice, True), (1, bob, False)):
            message = w.table_message()
            r = await w.sim.click(user, message, button(message, "hand")["custom_id"])
            assert r.message is not None and r.message.ephemeral
            for _ in range(100):  # the panel's picture follows its words
                if w.sim.message(r.message.id).attachments:
                    break
                await asyncio.sleep(0.05)
            [picture] = w.sim.message(r.message.id).attachments
            view = table.state.view(seat).to_dict()
            assert {c[1] for c in view["hand"]} & {"D", "C"}, "a hand the colours can tell apart"
            playable = playable_cards(str(a) for a in table.state.legal_actions(seat))
            title = f"{table.rules.name} · {seat + 1}"
            chosen = hand_png(view, playable, title, four_colour=four)
            other = hand_png(view, playable, title, four_colour=not four)
            assert chosen != other
            assert picture["bytes"] == chosen, f"seat {seat + 1} four colours: {four}"
        assert w.sim.spec_errors == []


async def test_help_is_a_short_private_guide_in_both_languages(tmp_path: Path) -> None:
    async with world(tmp_path, people=1) as w:
        alice = w.users[0]
        commands = {c["name"]: c for c in w.sim.commands()}
        assert commands["help"]["description_localizations"]["ja"].startswith("Deckhand の使い方")
        settings = {o["name"]: o for o in commands["settings"]["options"]}
        assert {"dm", "four-colour"} <= set(settings)
        assert settings["four-colour"]["description_localizations"]["ja"]
        r = await w.sim.slash(alice, w.channel, "help")
        assert r.ephemeral and r.message is not None
        text = json.dumps(r.message.embeds, ensure_ascii=False)
        for words in ("/play", "Join", "Start", "Hand", "/settings dm", "/settings four-colour",
                      "/rules", "thread", "24 hours", "80 %", "/tables", "/settings away",
                      "/settings quiet", "/settings digest"):
            assert words in text, words
        r = await w.sim.slash(alice, w.channel, "help", locale="ja")
        assert r.ephemeral and r.message is not None
        text = json.dumps(r.message.embeds, ensure_ascii=False)
        for words in ("遊び方", "/play", "参加", "開始", "手札", "/settings four-colour",
                      "スレッド", "24時間", "80 %", "/tables", "/settings away",
                      "/settings quiet", "/settings digest"):
            assert words in text, words
        assert w.sim.spec_errors == []
