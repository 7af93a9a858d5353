"""The review's place among the computers' work: background parts only in spare slots, live
moves first; a review asked twice computed once; parts cut to the slot's share."""

from __future__ import annotations

import asyncio
import re

from bot.tables.review import PART, Reviewer, parts, shown, summary
from bot.tables.scheduler import Scheduler
from bot.tables.thinking import Thinker
from games.ai import review as rv
from tests.games.test_review import played


async def test_background_work_leaves_a_slot_to_the_moves() -> None:
    scheduler = Scheduler(2, 1.0)
    order: list[str] = []
    release = asyncio.Event()

    async def background(_seconds: float) -> None:
        order.append("review")
        await release.wait()

    first = asyncio.create_task(scheduler.spare(background, expect=0.5))
    second = asyncio.create_task(scheduler.spare(background, expect=0.5))
    await asyncio.sleep(0.01)
    # one of the two slots: the other stays free for a move
    assert order == ["review"] and not scheduler.spare_free()

    async def search(budget: float) -> str:
        order.append("move")
        return f"searched {budget:.2f}"

    found = await asyncio.wait_for(scheduler.think(search, lambda: "cheap"), 1.0)
    assert found.startswith("searched") and order == ["review", "move"]
    release.set()
    await asyncio.gather(first, second)
    assert order == ["review", "move", "review"]
    assert scheduler.spare_free() and scheduler.running == 0


async def test_a_waiting_move_goes_before_background_work() -> None:
    scheduler = Scheduler(1, 1.0, patience=5.0)
    order: list[str] = []
    release = asyncio.Event()

    async def held(_seconds: float) -> None:
        order.append("review 1")
        await release.wait()

    async def later(_seconds: float) -> None:
        order.append("review 2")

    async def search(_budget: float) -> None:
        order.append("move")

    holder = asyncio.create_task(scheduler.spare(held, expect=0.2))
    await asyncio.sleep(0.01)
    move = asyncio.create_task(scheduler.think(search, lambda: None))
    await asyncio.sleep(0.01)
    queued = asyncio.create_task(scheduler.spare(later, expect=0.2))
    await asyncio.sleep(0.01)
    assert order == ["review 1"] and scheduler.waiting == 1
    release.set()
    await asyncio.gather(holder, move, queued)
    assert order == ["review 1", "move", "review 2"]


async def test_a_cancelled_background_request_frees_its_place() -> None:
    scheduler = Scheduler(1, 1.0)
    release = asyncio.Event()

    async def held(_seconds: float) -> None:
        await release.wait()

    holder = asyncio.create_task(scheduler.spare(held, expect=0.2))
    waiting = asyncio.create_task(scheduler.spare(held, expect=0.2))
    await asyncio.sleep(0.01)
    waiting.cancel()
    holder.cancel()
    await asyncio.gather(holder, waiting, return_exceptions=True)
    assert scheduler.spare_free() and scheduler.running == 0


def test_parts_hold_a_slot_briefly() -> None:
    items = list(range(25))
    cut = parts(items, 0.1)
    assert [x for part in cut for x in part] == items
    assert all(len(part) * 0.1 <= PART + 1e-9 for part in cut)
    assert parts(items, 5.0) == [[i] for i in items]  # a long item alone


async def test_a_review_asked_twice_is_computed_once() -> None:
    thinker = Thinker("normal", workers=0)
    reviewer = Reviewer(thinker, seconds=0.3)
    game = played("spar", seed=4, first_deal=True)
    key = (1, 0)
    task, started = reviewer.start(key, game, set(range(len(game.actions))))
    again, started_again = reviewer.start(key, game, set())
    assert started and not started_again and again is task
    review = await task
    assert reviewer.computed == 1 and reviewer.kept(key) == review
    assert review.decisions == len(rv.decisions(game, 0))
    assert key not in reviewer.running
    # the computer's moves for the person are not judged: none given, none judged
    other, _ = reviewer.start((1, 1), game, set())
    assert (await other).decisions == 0
    await thinker.close()


def test_the_words_of_a_review_in_both_languages() -> None:
    game = played("twenty-two", seed=3)
    review = rv.review(game, 0, iterations=(8, 24))
    assert review.costliest, "the test needs a costly decision"
    for lang, made, cost in (("en", "You played:", "Estimated cost:"),
                             ("ja", "あなたの手", "推定損失")):
        head = summary(review, "22", 5, lang)
        assert "#5" in head and str(review.decisions) in head
        for number, one in enumerate(shown(review, lang, [s for s, _ in game.actions]), 1):
            assert one.title.startswith(f"{number}.")
            assert made in one.body and cost in one.body
            assert not re.search(r"\b(play|exchange):|\b[2-9TJQKA][SHDC]\b", one.body), one.body
            assert one.ringed <= set(one.view["hand"])
    none = rv.Review("twenty-two", 0, 12)
    assert "None of them was costly" in summary(none, "22", 5, "en")
    assert "12 of your decisions" in summary(none, "22", 5, "en")
    assert "1 decision of yours was judged" in summary(rv.Review("spar", 0, 1), "Spar", 5, "en")
    assert "no decision to judge" in summary(rv.Review("spar", 0, 0), "Spar", 5, "en")
    assert "評価する判断がありません" in summary(rv.Review("spar", 0, 0), "Spar", 5, "ja")
