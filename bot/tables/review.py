"""Reviews after a game: computed in the computers' spare time, once per person, and worded.

A person who played a finished game asks for their review (:mod:`cogs.review`). The
:class:`Reviewer` rebuilds the game from what the table stored (its seed, options and moves;
only the moves the person made themselves are judged, not those a computer made for them) and
runs the review of :mod:`games.ai.review` in short parts, each in a worker when the thinking
scheduler has a spare slot (:meth:`bot.tables.thinking.Thinker.in_spare_time`): live computer moves
come first. A review asked again while it is computed joins the one under way; a finished one
is kept for a while, so asking again shows it at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot import tasks
from bot.i18n import plural, t
from bot.storage.store import ActionRow, TableRow
from bot.tables.thinking import Thinker
from games import registry
from games.ai import review as rv
from games.core import Action, View

log = logging.getLogger(__name__)

#: finished reviews kept in memory (the newest)
KEPT = 256
#: the seconds of worker time one part of a review holds a slot for, at most (a live move
#: asking meanwhile waits no longer than this)
PART = 0.5
#: who made a stored move: the person at the seat (not the computer keeping it)
PERSON = "player"

Key = tuple[int, int]  # (table id, seat)


def game_of(row: TableRow, actions: Sequence[ActionRow]) -> rv.Game:
    """The stored table's game as the review replays it."""
    return rv.Game(row.game, len(row.seats), int(row.seed), dict(row.options),
                   tuple((a.seat, a.action) for a in actions))


def own_moves(actions: Sequence[ActionRow], seat: int) -> set[int]:
    """The move numbers the person at ``seat`` made themselves."""
    return {index for index, a in enumerate(actions) if a.seat == seat and a.how == PERSON}


def seat_of(row: TableRow, user_id: int) -> int | None:
    """The seat a person played at a stored table (None: they did not play there)."""
    for index, seat in enumerate(row.seats):
        if seat.get("user_id") == user_id and not seat.get("computer"):
            return index
    return None


def parts(items: Sequence[int], each: float, most: float = PART) -> list[list[int]]:
    """``items`` cut in runs of at most ``most`` seconds at ``each`` seconds an item."""
    size = max(1, int(most // max(each, 1e-9)))
    return [list(items[i:i + size]) for i in range(0, len(items), size)]


class Reviewer:
    """Computes reviews in the computers' spare time, once per seat, and keeps them."""

    def __init__(self, thinker: Thinker, seconds: float = rv.SECONDS) -> None:
        self.thinker = thinker
        self.seconds = seconds
        self.done: OrderedDict[Key, rv.Review] = OrderedDict()
        self.running: dict[Key, asyncio.Task[rv.Review]] = {}
        #: reviews computed (a review asked twice counts once)
        self.computed = 0

    def kept(self, key: Key) -> rv.Review | None:
        """A finished review, if it is still kept."""
        return self.done.get(key)

    def busy(self) -> bool:
        """Whether a review started now would wait for the computers (live moves first)."""
        scheduler = self.thinker.scheduler
        return bool(self.running) or (scheduler is not None and not scheduler.spare_free())

    def start(self, key: Key, game: rv.Game, mine: set[int]) -> tuple[asyncio.Task[rv.Review],
                                                                     bool]:
        """The review of ``key`` under way (started now when it was not: True)."""
        task = self.running.get(key)
        if task is not None:
            return task, False
        task = tasks.background(self._compute(key, game, mine))
        self.running[key] = task
        return task, True

    async def _compute(self, key: Key, game: rv.Game, mine: set[int]) -> rv.Review:
        seat = key[1]
        try:
            points = await asyncio.to_thread(rv.decisions, game, seat, mine)
            each, sharp_each = rv.plan(len(points), self.seconds)
            screened_parts = await asyncio.gather(*(
                self.thinker.in_spare_time(
                    functools.partial(rv.screen, game, seat, chunk, budget=each),
                    expect=each * len(chunk), label="review")
                for chunk in parts(points, each)))
            screened = [j for part in screened_parts for j in part]
            chosen = rv.candidates(screened)
            pieces = max(1, round(sharp_each / PART))
            sharp_parts = await asyncio.gather(*(
                self.thinker.in_spare_time(
                    functools.partial(rv.sharpen, game, seat, [one],
                                      budget=sharp_each / pieces, part=piece),
                    expect=sharp_each / pieces, label="review")
                for one in chosen for piece in range(pieces)))
            sharpened = [rv.pooled([p[0] for p in sharp_parts[i * pieces:(i + 1) * pieces]])
                         for i in range(len(chosen))]
            found = rv.finish(game, seat, screened, sharpened)
        finally:
            self.running.pop(key, None)
        self.computed += 1
        self.done[key] = found
        self.done.move_to_end(key)
        while len(self.done) > KEPT:
            self.done.popitem(last=False)
        return found

    async def close(self) -> None:
        """Stop the reviews under way."""
        for task in list(self.running.values()):
            task.cancel()
        for task in list(self.running.values()):
            with contextlib.suppress(BaseException):  # cancelled or failed: going anyway
                await task


# -- words -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Shown:
    """One decision as a person reads it, and the view its hand picture is drawn from."""

    title: str
    body: str
    view: dict[str, Any]
    ringed: set[str]


def cost_points(value: float) -> str:
    """A reward difference (0–1) as points of 100: '18'."""
    return f"{value * 100:.0f}"


def summary(review: rv.Review, game_name: str, table_id: int, lang: str) -> str:
    """The review's first line: what was judged, and whether a decision was costly."""
    head = t("rv-head", lang, game=game_name, id=table_id)
    if review.decisions == 0:
        return f"{head}\n{t('rv-no-decisions', lang)}"
    judged = plural("rv-judged", review.decisions, lang, count=review.decisions)
    if not review.costliest:
        return f"{head}\n" + t("two-sentences", lang, first=judged,
                               second=t("rv-none-costly", lang))
    shown_count = len(review.costliest)
    costliest = plural("rv-costliest", shown_count, lang, count=shown_count)
    return (f"{head}\n" + t("two-sentences", lang, first=judged, second=costliest)
            + f"\n{t('rv-scale', lang)}")


def own_move(movers: Sequence[int], seat: int, index: int) -> int:
    """The game's move ``index`` counted among the seat's own moves (its first move: 1), the
    way the person remembers it; ``movers``: the seat of each move of the game."""
    return sum(1 for mover in movers[:index + 1] if mover == seat)


def cost_text(one: rv.Judged, lang: str) -> str:
    """'Estimated cost: 19 points (± 4)', without a margin that rounds to nothing."""
    error = cost_points(one.error)
    if error == cost_points(0.0):
        return t("rv-cost-exact", lang, points=cost_points(one.loss))
    return t("rv-cost", lang, points=cost_points(one.loss), error=error)


def shown(review: rv.Review, lang: str, movers: Sequence[int]) -> list[Shown]:
    """The costliest decisions in words: the position as the person saw it, the move made,
    the move the search prefers and the estimated cost (``movers``: the seat of each move of
    the game, to number a decision among the person's own moves)."""
    rules = registry.get(review.game)
    found = []
    for number, one in enumerate(review.costliest, 1):
        lines = [
            rules.view_text(View(one.view), lang)[:1500],
            "",
            t("rv-made", lang, move=rules.action_text(one.made, lang)),
            t("rv-preferred", lang, move=rules.action_text(one.preferred, lang)),
            cost_text(one, lang),
        ]
        title = t("rv-decision", lang, number=number,
                  move=own_move(movers, review.seat, one.index), deal=one.deal)
        found.append(Shown(title, "\n".join(lines), one.view, _cards(one.preferred)))
    return found


def _cards(action: Action) -> set[str]:
    """The card codes a move names."""
    return {str(card) for card in action.cards}
