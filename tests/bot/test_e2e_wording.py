"""Wordings players found odd, fixed, on the simulated Discord: the table's scores in seat
order without numbers that read as places; a hint at a forced move leaves the game rated; a
review says how long it takes and numbers a decision among the person's own moves."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from bot.tables.review import own_move
from cogs.review import ReviewCog
from tests.bot.sim_helpers import world
from tests.bot.test_e2e_games import PublicWatch, open_table, play_to_the_end
from tests.bot.test_e2e_hints import answered, due, hint_buttons, open_two, panel_of, start
from tests.bot.test_e2e_review import arrived, finished, review_id
from tests.discord_sim import SimMessage


def scores_field(message: SimMessage) -> dict[str, str]:
    [found] = [f for f in message.embeds[0]["fields"] if f["name"] in (
        "Scores, in seat order", "得点（席順）")]
    return {"name": str(found["name"]), "value": str(found["value"])}


async def test_scores_are_in_seat_order_without_place_numbers(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        alice, bob = w.users[:2]
        playing = await open_table(w, "high-card", [alice, bob], 2, {})
        seats = [s.name for s in w.bot.manager.tables[1].seats]
        during = scores_field(playing)["value"].splitlines()
        assert [line.split(" — ")[0] for line in during] == seats
        assert not any(re.match(r"\d", line) for line in during), during
        final = await play_to_the_end(w, [alice, bob], random.Random(3), PublicWatch(w))
        lines = scores_field(final)["value"].splitlines()
        assert [line.split(" — ")[0] for line in lines] == seats  # seat order, unnumbered
        assert not any(re.match(r"\d", line) for line in lines), lines
        # the result line numbers places, best first, each number the seat's own place
        await w.sim.settle()
        record = await w.bot.store.result(1)
        assert record is not None
        places = record["outcome"]["places"]
        result = final.content.split("The game is over. ", 1)[1]
        said = re.findall(r"(\d+)\. (\w+) \((-?[\d.]+)\)", result)
        assert len(said) == 2, result
        assert [int(place) for place, _, _ in said] == sorted(places)
        for place, name, _ in said:
            assert places[seats.index(name)] == int(place)


async def test_scores_heading_in_japanese(tmp_path: Path) -> None:
    async with world(tmp_path, people=2, locale="ja") as w:
        alice, bob = w.users[:2]
        playing = await open_table(w, "high-card", [alice, bob], 2, {})
        assert scores_field(playing)["name"] == "得点（席順）"


async def test_a_hint_at_a_forced_move_leaves_the_game_rated(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        alice, bob = w.users[:2]
        await open_two(w, "on")
        await w.bot.manager.set_option(1, int(alice.id), "hand", 1)  # one card each: forced moves
        await start(w)
        table = w.bot.manager.tables[1]
        assert table.hints and table.options.get("hand") == 1
        seat, mover, _ = due(w)
        assert table.state is not None and len(table.state.legal_actions(seat)) == 1
        panel = await panel_of(w, mover)
        [hint] = hint_buttons(panel)
        text = await answered(await w.sim.click(mover, panel, hint["custom_id"]))
        assert "it is your only move" in text
        assert text.splitlines()[-1] == (
            "A hint for your only move does not count (hints you used in this game: 0).")
        assert table.seats[seat].hints == 0
        final = await play_to_the_end(w, [alice, bob], random.Random(2), PublicWatch(w))
        shown = json.dumps(final.embeds, ensure_ascii=False) + final.content
        assert "unrated" not in shown
        record = await w.bot.store.db.one("SELECT rated FROM records WHERE table_id=1")
        assert record is not None and record[0] == 1
        assert w.sim.spec_errors == [] and w.sim.client_errors == []


async def test_a_review_says_how_long_it_takes_and_counts_the_persons_own_moves(
        tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        alice, bob = w.users[:2]
        table = await finished(w, [alice, bob])
        r = await w.sim.click(alice, table, review_id(table))
        assert r.status == "ok" and r.ephemeral
        assert str(r.content) == (
            "Your review is being prepared; it will appear here in about 15 seconds.")
        message = await arrived(r)
        cog = w.bot.get_cog("ReviewCog")
        assert isinstance(cog, ReviewCog)
        row = await w.bot.store.table(1)
        assert row is not None
        seat = next(i for i, s in enumerate(row.seats) if s.get("user_id") == int(alice.id))
        review = cog.reviewer.kept((1, seat))
        assert review is not None
        movers = [a.seat for a in await w.bot.store.actions(1)]
        # (which decisions are costly depends on a timed search; tests/bot/test_wording_fixes.py
        # numbers a decision that is always there)
        titles = [str(e["title"]) for e in message.embeds]
        assert titles == [f"{n}. Your move {own_move(movers, seat, one.index)} (deal {one.deal})"
                          for n, one in enumerate(review.costliest, 1)]
        assert all("± 0)" not in str(e["description"]) for e in message.embeds)
        r = await w.sim.click(bob, table, review_id(table), locale="ja")
        assert "15秒ほど" in str(r.content)
