"""Results that explain, on the simulated Discord: the lobby says a game with a computer will
be unrated; the table message at the end shows the last deal's breakdown, the scores deal by
deal (adding up to the places' scores) and that the game was unrated; /history and /replay
explain the game too; log lines name each player once."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

from tests.bot.sim_helpers import World, button, world
from tests.bot.test_e2e_games import PublicWatch, play_to_the_end, quick_options
from tests.bot.test_e2e_leaderboard import buttons, command, edited, text_of

SIGNED = re.compile(r"(?:[+−]\d+|\b0\b)$")


def press(w: World, verb: str) -> str:
    """The custom id of a table button."""
    return str(button(w.table_message(), verb)["custom_id"])


def fields(message: Any) -> dict[str, str]:
    return {f["name"]: f["value"] for e in message.embeds for f in e.get("fields", [])}


async def test_a_game_with_a_computer_explains_its_result_everywhere(tmp_path: Path) -> None:
    game_id = "twenty-two"
    async with world(tmp_path, people=2) as w:
        alice, bob = w.users[:2]
        sim = w.sim
        r = await sim.slash(alice, w.channel, "play", {"game": game_id})
        assert r.status == "ok"
        await sim.settle()
        lobby = text_of(w.table_message())
        assert "Seated: 1 (a game for 2 to 8 players)" in lobby, lobby
        r = await sim.click(bob, w.table_message(), press(w, "join"))
        assert r.status == "ok"
        await sim.settle()
        assert "Unrated" not in text_of(w.table_message())  # two people: it will count
        r = await sim.click(alice, w.table_message(), press(w, "addc"))
        assert r.status == "ok"
        await sim.settle()
        # a computer in the lobby: it says the game will be unrated, and why
        assert "Unrated: a computer plays in it." in text_of(w.table_message())
        assert quick_options(game_id) == {}
        watch = PublicWatch(w)
        r = await sim.click(alice, w.table_message(), press(w, "start"))
        assert r.status == "ok"
        await sim.settle()
        assert "<t:" not in w.table_message().content  # no turn timer (the default): no time
        await play_to_the_end(w, [alice, bob], random.Random(5), watch)
        await sim.settle()
        final = w.table_message()
        shown = fields(final)
        deal_titles = [name for name in shown if re.fullmatch(r"Deal \d+", name)]
        assert len(deal_titles) == 1, shown.keys()
        last = shown[deal_titles[0]]
        assert "final trick" in last and ("Alice" in last or "Bob" in last or "CPU" in last)
        assert shown["Ratings"] == "This game was unrated: a computer played in it."
        # the scores deal by deal add up to what the places show
        record = await w.bot.get_cog("StatsCog").records.game(1)  # type: ignore[union-attr]
        assert record is not None
        names = [str(s.get("name", "")) for s in record.seats]
        sums = dict.fromkeys(names, 0.0)
        by_deal = shown.get("Deal by deal")
        assert by_deal is not None and by_deal.startswith("1: ")
        for line in by_deal.splitlines():
            for part in line.split(": ", 1)[1].split(", "):
                name, value = part.rsplit(" ", 1)
                assert SIGNED.fullmatch(value), part
                sums[name] += float(value.replace("−", "-"))
        for seat, name in enumerate(names):
            assert sums[name] == record.scores[seat]
            assert f"{name} ({int(record.scores[seat])})" in final.content
        # one name per log line, never "Seat 2"
        description = "".join(e.get("description") or "" for e in final.embeds)
        assert description and not re.search(r"\bSeat \d", description), description
        for line in description.splitlines():
            assert sum(line.count(n) for n in names) <= 1 or "and" in line, line
        # /history explains the game under its line
        history = await command(w, alice, "history")
        text = history.embeds[0]["description"]
        assert "\n> " in text and "final trick" in text, text
        # /replay at its last move shows the breakdown and that it was unrated
        replay = await command(w, alice, "replay", {"id": 1})
        assert not any(re.fullmatch(r"Deal \d+", n) for n in fields(replay))
        before = len(w.sim.requests)
        r = await w.sim.click(alice, replay, buttons(replay)["Last"]["custom_id"])
        await edited(w, before)
        assert r.message is not None
        end = fields(r.message)
        assert any(re.fullmatch(r"Deal \d+", n) for n in end), end
        assert end["Ratings"] == "This game was unrated: a computer played in it."
        assert w.sim.spec_errors == [], w.sim.spec_errors[:3]
        assert w.sim.client_errors == []


async def test_the_turn_timer_shows_as_a_discord_relative_time(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        alice, bob = w.users[:2]
        sim = w.sim
        assert (await sim.slash(alice, w.channel, "play", {"game": "twenty-two"})).status == "ok"
        await sim.settle()
        assert (await sim.click(bob, w.table_message(), press(w, "join"))).status == "ok"
        table = w.bot.manager.live_in(int(w.channel.id))
        assert table is not None
        await w.bot.manager.set_timer(table.id, int(alice.id), "normal")
        await sim.settle()
        started = time.time()
        assert (await sim.click(alice, w.table_message(), press(w, "start"))).status == "ok"
        await sim.settle()
        content = w.table_message().content
        found = re.search(r"Time runs out <t:(\d+):R>\.", content)
        assert found is not None, content
        assert started + 80 <= int(found.group(1)) <= time.time() + 91
