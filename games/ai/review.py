"""The review after a game: a seat's costliest decisions, judged from that seat's view alone.

A finished game is replayed from its record (:class:`Game`: seed, options and moves; a stacked
first deck when there was one). At every move the seat made with more than one legal move (a
*decision*), the seat's :class:`~games.ai.Observation` of that moment is handed to the analysis
(:mod:`games.ai.analysis`), which samples only deals consistent with what the seat had seen:
the review never judges a move with hindsight of the hidden cards.

The time of a whole game is spent in two rounds (:func:`plan`):

1. **Screening.** Every decision is analysed briefly: the search names the move it prefers
   and the move made is measured against it by paired playouts.
2. **Sharpening.** The decisions whose screened loss is largest (:data:`SHARPEN` of them) are
   measured again, longer, by a paired comparison of the two moves.

A decision is *costly* when the estimated loss (the seat's expected result for the deal, on
the judge's scale from 0, the worst of the table, to 1, the best, after the preferred move
minus after the move made) exceeds :data:`Z` standard errors and :data:`LEAST_LOSS`; the
review lists the :data:`SHOWN` costliest. With ``iterations`` every step is a pure function of
the record and the seat; with seconds it follows the clock.

The steps are separate functions so that a caller can spread them over workers and time
slices (the bot does: :mod:`bot.tables.review`); :func:`review` runs them all at once.
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from games import registry
from games.ai import Observation, observe
from games.ai.analysis import analyse, compare
from games.core import Action, State

#: the decisions a review shows at most
SHOWN = 3
#: the decisions measured again in the sharpening round
SHARPEN = 6
#: standard errors a loss must exceed to count as costly
Z = 2.0
#: the least loss (on the judge's 0–1 scale) that counts as costly
LEAST_LOSS = 0.02
#: the seconds of a whole game's review (of one worker), and the screening round's share
SECONDS = 16.0
SCREEN_SHARE = 0.6
#: the least seconds one decision is screened, and the most a comparison gets
LEAST_SCREEN = 0.03
MOST_SHARPEN = 2.0
#: playouts of a review by iteration counts (tests, reproducible figures)
SCREEN_ITERATIONS = 48
SHARPEN_ITERATIONS = 160


@dataclass(frozen=True)
class Game:
    """A finished game as recorded: enough to replay it move by move."""

    game: str
    players: int
    seed: int
    options: Mapping[str, Any]
    actions: tuple[tuple[int, str], ...]
    deck: tuple[str, ...] | None = None  # the first deal's stacked deck, if there was one

    def start(self) -> State:
        """The game's first position."""
        rules = registry.get(self.game)
        return rules.new_game(self.players, seed=self.seed, options=dict(self.options),
                              deck=None if self.deck is None else list(self.deck))


@dataclass(frozen=True)
class Judged:
    """One decision of the seat, judged."""

    index: int  # the move's number in the game (0: its first move)
    deal: int
    view: dict[str, Any]  # what the seat saw before the move (``View.to_dict``: it pickles)
    legal: int  # how many moves it had
    made: Action
    preferred: Action
    loss: float  # the expected result after ``preferred`` minus after ``made``
    error: float  # the standard error of ``loss``
    sharpened: bool = False

    @property
    def costly(self) -> bool:
        """Whether the loss stands out of its error and is worth telling."""
        return self.loss > max(LEAST_LOSS, Z * self.error)


@dataclass(frozen=True)
class Review:
    """A seat's review: how many decisions were judged and the costliest, worst first."""

    game: str
    seat: int
    decisions: int
    costliest: tuple[Judged, ...] = field(default=())


def decisions(game: Game, seat: int, mine: Collection[int] | None = None) -> list[int]:
    """The move numbers at which ``seat`` chose among more than one legal move (of ``mine``
    only, when given: the moves the person made themselves, not the computer for them)."""
    found: list[int] = []
    for index, state, mover, action in _positions(game):
        if mover == seat and (mine is None or index in mine) \
                and len(state.legal_actions(seat)) > 1:
            found.append(index)
        state.apply(mover, action)
    return found


def observations(game: Game, seat: int, indices: Collection[int]
                 ) -> Iterator[tuple[int, Observation, Action]]:
    """The seat's observation before each of those moves, with the move made, in order."""
    wanted = set(indices)
    last = max(wanted, default=-1)
    for index, state, mover, action in _positions(game):
        if index in wanted:
            if mover != seat:
                raise ValueError(f"move {index} is not seat {seat + 1}'s")
            yield index, observe(state, seat), Action.parse(action)
        if index >= last:
            return
        state.apply(mover, action)


def _positions(game: Game) -> Iterator[tuple[int, State, int, str]]:
    """Every move of the game with the position before it (the same state, moved on by the
    caller)."""
    state = game.start()
    for index, (mover, action) in enumerate(game.actions):
        yield index, state, mover, action


def _rng(game: Game, seat: int, index: int, step: str) -> random.Random:
    """The dice of one step of one decision: reproducible, and the same whatever else is
    judged."""
    return random.Random(f"review:{game.game}:{game.seed}:{seat}:{index}:{step}")


def screen(game: Game, seat: int, indices: Collection[int], *, budget: float | None = None,
           iterations: int | None = None) -> list[Judged]:
    """Each of those decisions analysed briefly (``budget`` seconds each, or ``iterations``
    playouts): the move the search prefers, and the move made measured against it."""
    judged: list[Judged] = []
    for index, obs, made in observations(game, seat, indices):
        made = _legal(obs, made)
        rng = _rng(game, seat, index, "screen")
        found = analyse(obs, rng, budget=budget, iterations=iterations, moves=[made])
        best = found.moves[0]
        mine = found.value_of(made)
        loss, error = (0.0, 0.0) if mine is None or found.best == made else \
            (best.value - mine.value, mine.error)
        judged.append(Judged(index, int(obs.view.get("deal", 0) or 0), obs.view.to_dict(),
                             len(obs.legal), made, found.best, loss, error))
    return judged


def sharpen(game: Game, seat: int, judged: Sequence[Judged], *, budget: float | None = None,
            iterations: int | None = None, part: int = 0) -> list[Judged]:
    """Those decisions measured again by a longer paired comparison of the preferred move
    and the move made (``budget`` seconds each, or ``iterations`` playouts of each move).
    A comparison cut in parts (``part``: each with dice of its own) is put together again by
    :func:`pooled`."""
    by_index = {j.index: j for j in judged if j.preferred != j.made}
    result = {j.index: j for j in judged}
    for index, obs, _made in observations(game, seat, by_index):
        one = by_index[index]
        rng = _rng(game, seat, index, f"sharpen{part or ''}")
        loss, error = compare(obs, one.preferred, one.made, rng, budget=budget,
                              iterations=iterations)
        result[index] = replace(one, loss=loss, error=error, sharpened=True)
    return [result[j.index] for j in judged]


def pooled(parts: Sequence[Judged]) -> Judged:
    """One decision's sharpened parts (as many playouts each) as one estimate: the mean of
    their losses, with the error of that mean."""
    if not parts:
        raise ValueError("no parts to pool")
    count = len(parts)
    loss = sum(p.loss for p in parts) / count
    error = math.sqrt(sum(p.error * p.error for p in parts)) / count
    return replace(parts[0], loss=loss, error=error, sharpened=True)


def candidates(judged: Sequence[Judged], count: int = SHARPEN) -> list[Judged]:
    """The decisions worth measuring again: the largest screened losses first."""
    lossy = [j for j in judged if j.preferred != j.made and j.loss > 0]
    lossy.sort(key=lambda j: (-j.loss, j.index))
    return lossy[:count]


def costliest(judged: Sequence[Judged], count: int = SHOWN) -> tuple[Judged, ...]:
    """The costly decisions, the largest loss first (ties: the earlier move)."""
    costly = sorted((j for j in judged if j.costly), key=lambda j: (-j.loss, j.index))
    return tuple(costly[:count])


def plan(decision_count: int, seconds: float = SECONDS) -> tuple[float, float]:
    """Seconds to screen each decision and to sharpen each candidate, so that a whole game
    takes about ``seconds``."""
    if decision_count <= 0:
        return 0.0, 0.0
    each = max(LEAST_SCREEN, seconds * SCREEN_SHARE / decision_count)
    sharpened = min(SHARPEN, decision_count)
    left = max(0.0, seconds - each * decision_count)
    return each, min(MOST_SHARPEN, max(LEAST_SCREEN, left / sharpened))


def review(game: Game, seat: int, *, mine: Collection[int] | None = None,
           seconds: float | None = None, iterations: tuple[int, int] | None = None) -> Review:
    """The whole review of ``seat``: screening, sharpening, ranking.

    ``iterations`` (screening, sharpening playouts) makes it reproducible; else it takes about
    ``seconds`` (default :data:`SECONDS`)."""
    points = decisions(game, seat, mine)
    if iterations is not None:
        screened = screen(game, seat, points, iterations=iterations[0])
        sharp = sharpen(game, seat, candidates(screened), iterations=iterations[1])
    else:
        each, sharpen_each = plan(len(points), SECONDS if seconds is None else seconds)
        screened = screen(game, seat, points, budget=each)
        sharp = sharpen(game, seat, candidates(screened), budget=sharpen_each)
    return finish(game, seat, screened, sharp)


def finish(game: Game, seat: int, screened: Sequence[Judged],
           sharpened: Sequence[Judged]) -> Review:
    """The review from the screened decisions and the sharpened ones (which replace their
    screening)."""
    sharp = {j.index: j for j in sharpened}
    final = [sharp.get(j.index, j) for j in screened]
    return Review(game.game, seat, len(screened), costliest(final))


def _legal(obs: Observation, made: Action) -> Action:
    """The legal action that is the move made (the record's text, matched as the engine
    matches it)."""
    for action in obs.legal:
        if action == made or action.same_as(made):
            return action
    raise ValueError(f"the recorded move {made} is not legal here")
