"""The review after a game on the simulated Discord: "My review" on the finished table gives a
private answer with at most three decisions, in the presser's language; a person who did not
play is refused; a double press computes once; a busy scheduler says "later", then the review
comes; /review finds a past game of one's own."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from typing import Any

from cogs.review import ReviewCog
from tests.bot.sim_helpers import World, world
from tests.bot.test_e2e_games import PublicWatch, open_table, play_to_the_end, quick_options
from tests.discord_sim.models import SimMessage, SimUser

GAME = "twenty-two"
#: seconds of a whole review here (the bot's own figure is longer): the mechanics, not strength
SECONDS = 0.6
RAW_MOVE = re.compile(r"\b(play|exchange|bid|take|pass):")
RAW_CARD = re.compile(r"\b([2-9TJQKA][SHDC])\b")


async def finished(w: World, humans: list[SimUser]) -> SimMessage:
    """A game of 22 played to its end by two people (and computers), quickly reviewable."""
    cog = w.bot.get_cog("ReviewCog")
    assert isinstance(cog, ReviewCog)
    cog.reviewer.seconds = SECONDS
    await open_table(w, GAME, humans, 3, quick_options(GAME))
    await play_to_the_end(w, humans, random.Random(5), PublicWatch(w))
    await w.sim.settle()
    table = w.table_message()
    assert "game is over" in table.content
    return table


def review_id(table: SimMessage) -> str:
    found = [b for b in table.buttons() if str(b["custom_id"]).startswith("dhr:")]
    assert [b["label"] for b in found] == ["My review"], table.buttons()
    return str(found[0]["custom_id"])


async def arrived(result: Any, timeout: float = 60.0) -> SimMessage:
    """The review that follows a press."""
    for _ in range(int(timeout / 0.05)):
        if result.followups:
            return result.followups[-1]  # type: ignore[no-any-return]
        shown = result.message  # a deferred answer's first followup fills it in
        if shown is not None and (shown.embeds or "judged" in shown.content):
            return shown  # type: ignore[no-any-return]
        await asyncio.sleep(0.05)
    raise AssertionError("no review came")


def check_review(message: SimMessage, *, english: bool = True) -> None:
    """A private review a person can read: a summary, at most three decisions, each with the
    move made, the computer's move and the cost, cards as rank and suit."""
    assert message.ephemeral
    text = message.content + "".join(str(e.get("title", "")) + str(e.get("description", ""))
                                     for e in message.embeds)
    assert ("Your review of 22" if english else "振り返り") in message.content, message.content
    assert len(message.embeds) <= 3
    if english:
        assert "decisions were judged" in message.content or "no decision" in message.content
    for embed in message.embeds:
        words = str(embed["description"])
        for label in (("You played:", "The computer prefers:", "Estimated cost:") if english
                      else ("あなたの手", "コンピューターの推奨", "推定損失")):
            assert label in words, words
        assert embed["image"]["url"].startswith("attachment://review")
    assert len(message.attachments) == len(message.embeds)
    assert not RAW_MOVE.search(text), text
    assert not RAW_CARD.search(text), text


async def test_my_review_is_private_and_for_players_only(tmp_path: Path) -> None:
    async with world(tmp_path, people=3) as w:
        alice, bob, carol = w.users
        table = await finished(w, [alice, bob])
        custom_id = review_id(table)
        cog = w.bot.get_cog("ReviewCog")
        assert isinstance(cog, ReviewCog)
        # Carol did not play: a clear refusal, and nothing is computed
        r = await w.sim.click(carol, table, custom_id)
        assert r.status == "ok" and r.ephemeral
        assert "did not play in this game" in str(r.content)
        # Alice's review: answered at once, then the review itself, privately
        r = await w.sim.click(alice, table, custom_id)
        assert r.status == "ok" and r.ephemeral
        assert "being prepared" in str(r.content)
        again = await w.sim.click(alice, table, custom_id)  # a second press meanwhile
        assert again.status == "ok" and "already being prepared" in str(again.content)
        message = await arrived(again)
        check_review(message)
        assert cog.reviewer.computed == 1  # the second press started nothing new
        assert not r.followups  # the review went to the newest press only
        # a later press shows the kept review at once; Bob's own comes in his language
        kept = await w.sim.click(alice, table, custom_id)
        check_review(await arrived(kept, timeout=5.0))
        assert cog.reviewer.computed == 1
        r = await w.sim.click(bob, table, custom_id, locale="ja")
        assert "準備" in str(r.content)
        check_review(await arrived(r), english=False)
        assert cog.reviewer.computed == 2
        assert w.sim.spec_errors == [], w.sim.spec_errors[:3]
        assert w.sim.client_errors == []


async def test_a_busy_server_sends_the_review_later(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        alice, bob = w.users
        table = await finished(w, [alice, bob])
        scheduler = w.bot.manager.thinker.scheduler
        assert scheduler is not None
        # the computers are busy: something holds every slot background work may use
        release = asyncio.Event()

        async def hold(_seconds: float) -> None:
            await release.wait()

        holder = asyncio.get_running_loop().create_task(scheduler.spare(hold, expect=30.0))
        await asyncio.sleep(0.05)
        assert not scheduler.spare_free()
        r = await w.sim.click(alice, table, review_id(table))
        assert r.status == "ok" and r.ephemeral
        assert "when they have time" in str(r.content)
        await asyncio.sleep(0.5)
        assert not r.followups  # nothing while the slot is held
        release.set()
        await holder
        check_review(await arrived(r))
        assert w.sim.spec_errors == [], w.sim.spec_errors[:3]


async def test_review_command_finds_a_past_game_of_ones_own(tmp_path: Path) -> None:
    async with world(tmp_path, people=3) as w:
        alice, bob, carol = w.users
        await finished(w, [alice, bob])
        r = await w.sim.slash(alice, w.channel, "review", {"id": 1})
        assert r.status == "ok" and r.ephemeral
        check_review(await arrived(r))
        r = await w.sim.slash(carol, w.channel, "review", {"id": 1})
        assert "did not play in this game" in str(r.content)
        r = await w.sim.slash(alice, w.channel, "review", {"id": 99})
        assert "no finished game #99" in str(r.content)
        assert w.sim.spec_errors == [], w.sim.spec_errors[:3]


async def test_reviews_by_direct_message_and_kept_when_they_cannot_be_sent(
        tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        alice, bob = w.users
        table = await finished(w, [alice, bob])
        custom_id = review_id(table)
        cog = w.bot.get_cog("ReviewCog")
        assert isinstance(cog, ReviewCog)
        # Alice chose direct messages: her review comes there
        r = await w.sim.slash(alice, w.channel, "settings dm", {"enabled": True})
        assert r.status == "ok"
        r = await w.sim.click(alice, table, custom_id)
        assert "direct messages" in str(r.content)
        for _ in range(1200):
            dms = [m for m in w.sim.dms(alice) if "Your review of 22" in m.content]
            if dms:
                break
            await asyncio.sleep(0.05)
        assert dms, "the review came by direct message"
        assert len(dms[0].embeds) <= 3 and not r.followups
        # Bob's press outlives its token (15 minutes) and he takes no direct messages: the
        # review is kept and shown at his next press, at once
        bob.accepts_dms = False
        r = await w.sim.click(bob, table, custom_id)
        assert "being prepared" in str(r.content)
        real = cog.clock
        cog.clock = lambda: real() + 20 * 60
        for _ in range(1200):
            if cog.reviewer.kept((1, 1)) is not None and not cog.targets:
                break
            await asyncio.sleep(0.05)
        await w.sim.settle()
        assert not r.followups and cog.reviewer.kept((1, 1)) is not None
        cog.clock = real
        again = await w.sim.click(bob, table, custom_id)
        check_review(await arrived(again, timeout=5.0))
        assert cog.reviewer.computed == 2
        assert w.sim.spec_errors == [], w.sim.spec_errors[:3]
