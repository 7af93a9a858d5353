"""Whole games of every registered game through the simulated Discord, humans and computers.

The test users act only on what the bot sent them: the table message's mentions, the Hand
button, and the controls of their private hand. Along the way no public request may show a
card that is hidden in someone's hand.
"""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from typing import Any

import pytest

from tests.bot.fakegame import lookup
from tests.bot.sim_helpers import (
    PublicCards,
    World,
    button,
    card_forms,
    game_ids,
    hidden_cards,
    is_public,
    verb_of,
    world,
)
from tests.discord_sim import SimMessage, SimUser


def quick_options(game_id: str) -> dict[str, str]:
    """The smallest sample of each number option the game allows, so matches stay short."""
    rules = lookup(game_id)
    chosen: dict[str, Any] = {}
    for option in rules.options:
        numbers = [v for v in option.samples if isinstance(v, int) and not isinstance(v, bool)]
        if option.kind != "int" or not numbers:
            continue
        try:
            rules.validate_options(rules.usual_players, {**chosen, option.name: min(numbers)})
        except ValueError:
            continue
        chosen[option.name] = min(numbers)
    return {k: str(v) for k, v in chosen.items()}


class PublicWatch:
    """Checks that no public request shows a card that has never been public."""

    def __init__(self, w: World) -> None:
        self.w = w
        self.seen = 0
        self.public = PublicCards()
        w.bot.manager.listeners.insert(0, self.public)
        self.checked = 0

    def look(self) -> None:
        secret = hidden_cards(self.w.bot, self.public)
        for request in self.w.sim.requests[self.seen:]:
            if not is_public(self.w.sim, request, self.w.channel):
                continue
            self.checked += 1
            names = " ".join(str(f.get("filename")) for f in request.files)
            assert all(f.get("filename") in ("table.png", "hand.png") for f in request.files)
            text = str(request.json) + " " + names
            for code in secret:
                for form in card_forms(code):
                    pattern = rf"(?<![0-9A-Za-z]){re.escape(form)}(?![0-9A-Za-z])"
                    assert not re.search(pattern, text), (
                        f"hidden card {form} in {request.method} {request.path}: {text}")
        self.seen = len(self.w.sim.requests)


async def open_table(w: World, game_id: str, humans: list[SimUser], seats: int,
                     options: dict[str, str]) -> SimMessage:
    """/play, joins, computers for the rest, options through the menus, Start."""
    sim, host = w.sim, humans[0]
    r = await sim.slash(host, w.channel, "play", {"game": game_id})
    assert r.status == "ok", r
    await sim.settle()
    for user in humans[1:]:
        r = await sim.click(user, w.table_message(), button(w.table_message(), "join")["custom_id"])
        assert r.status == "ok", r
    for _ in range(seats - len(humans)):
        r = await sim.click(host, w.table_message(), button(w.table_message(), "addc")["custom_id"])
        assert r.status == "ok", r
    if options:
        r = await sim.click(host, w.table_message(), button(w.table_message(), "opts")["custom_id"])
        menu = r.message
        assert menu is not None and menu.ephemeral
        for name, value in options.items():
            for _ in range(5):
                found = [s for s in menu.selects() if s["custom_id"].endswith(":" + name)]
                if found:
                    break
                r = await sim.click(host, menu, button(menu, "opts")["custom_id"])
                assert r.message is not None
                menu = r.message
            assert found, f"no menu for option {name}"
            r = await sim.select(host, menu, found[0]["custom_id"], [value])
            assert r.status == "ok" and r.message is not None and r.message.id == menu.id, r
            menu = r.message
    await sim.settle()
    r = await sim.click(host, w.table_message(), button(w.table_message(), "start")["custom_id"])
    assert r.status == "ok", r
    await sim.settle()
    return w.table_message()


async def make_a_move(w: World, user: SimUser, hand: SimMessage, rng: random.Random) -> bool:
    """Choose one of the controls of a private hand; True when a move was accepted."""
    sim = w.sim
    for _ in range(60):
        choices: list[tuple[str, Any]] = []
        for b in hand.buttons():
            if verb_of(b["custom_id"]) == "act":
                choices.append(("button", b))
        for s in hand.selects():
            if verb_of(s["custom_id"]) in ("pick", "set"):
                choices.append(("select", s))
        if not choices:
            return False
        kind, control = rng.choice(choices)
        if kind == "button":
            r = await sim.click(user, hand, control["custom_id"])
        else:
            options = [o["value"] for o in control["options"]]
            low, high = control["min_values"], control["max_values"]
            values = rng.sample(options, rng.randint(low, high))
            r = await sim.select(user, hand, control["custom_id"], values)
        assert r.status == "ok", r
        answer = r.message
        assert answer is not None
        if answer.id != hand.id:  # refused: a new ephemeral sentence; the hand stays
            assert answer.ephemeral and answer.content, answer
            if "moved on" in answer.content or "not your turn" in answer.content:
                return False
            continue
        if any(verb_of(b["custom_id"]) == "view" for b in answer.buttons()):  # confirm step
            confirm = next(b for b in answer.buttons() if verb_of(b["custom_id"]) == "act")
            r = await sim.click(user, answer, confirm["custom_id"])
            assert r.status == "ok", r
        return True
    return False


async def play_to_the_end(w: World, humans: list[SimUser], rng: random.Random,
                          watch: PublicWatch, limit: int = 3000) -> SimMessage:
    """Take turns as the mentioned players until the table says the game is over."""
    sim = w.sim
    for _ in range(limit):
        await sim.settle(idle=0.01)
        watch.look()
        table = w.table_message()
        if "game is over" in table.content:
            return table
        turn = [u for u in humans if f"<@{u.id}>" in table.content]
        if not turn:
            await asyncio.sleep(0.01)
            continue
        user = rng.choice(turn)
        r = await sim.click(user, table, button(table, "hand")["custom_id"])
        assert r.status == "ok", r
        hand = r.message
        assert hand is not None and hand.ephemeral
        await make_a_move(w, user, hand, rng)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game_id", game_ids())
async def test_a_whole_game_through_discord(tmp_path: Path, game_id: str) -> None:
    rules = lookup(game_id)
    async with world(tmp_path, people=2) as w:
        watch = PublicWatch(w)
        humans = w.users[:2]
        await open_table(w, game_id, humans, rules.usual_players, quick_options(game_id))
        final = await play_to_the_end(w, humans, random.Random(7), watch)
        assert "1." in final.content
        assert not final.buttons()
        result = await w.bot.store.result(1)  # the first table of a fresh database
        assert result is not None and result["game"] == game_id
        assert w.sim.spec_errors == [], w.sim.spec_errors[:3]
        assert watch.checked > 0
