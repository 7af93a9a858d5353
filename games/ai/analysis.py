"""How good each move of one seat is, judged from that seat's observation alone.

The strong computer (the ``hard`` level's :class:`~games.ai.search.SearchPlayer`, with the
game's hooks from :func:`~games.ai.playouts.hooks_for`) names the best move; then the moves are
measured side by side by **paired playouts**: every round samples one deal consistent with the
seat's view (re-dealt to agree with the others' plays where the game has a belief), and every
move is played from that same sample with the same playout dice, so the differences between
moves are far sharper than their values. Hints (the best move and a reason in words) and the
review after a game (the costliest decisions) are built on this module.

Nothing here reads a hidden card. The samples come from :meth:`Observation.sample`, and the
generator handed to it sorts every list before shuffling it (:class:`ViewOnlyRandom`), so the
re-deal depends on *which* cards are unseen, never on where they really lie: two states that
differ only in hidden cards give the same analysis for the same seed (tested).

With ``iterations`` the result is a pure function of the observation and the rng's seed.
"""

from __future__ import annotations

import math
import pickle
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from games.ai import HARD_BUDGET, Observation, get_player, observe
from games.ai.playouts import Hooks, hooks_for
from games.ai.search import PLAYOUT_MOVES, SearchPlayer
from games.core import Action, Event, State

# Of a timed analysis, the share of the budget the choice of the best move gets; the rest
# measures the moves.
CHOICE_SHARE = 0.5
# The fewest rounds of paired playouts an analysis with an exact count measures, and the fewest
# a timed one measures, however short its budget (a timed one starts no round that would end
# past its deadline at the pace of its longest round so far).
MIN_ROUNDS = 8
MIN_TIMED_ROUNDS = 2
# Decisions with more moves than this (22's exchange: any subset of the hand) measure only the
# best move, the rule of thumb's, the search's most visited ones and a few others.
MAX_MOVES = 12
# Playouts of a forced move (its outlook only: there is nothing to compare).
FORCED_ROUNDS = 16

# The event of a deal's goal per game, and whether it is good for the seat it names: Spar's
# deal won, Getaway's getting away, Sugekari's going out, 22's penalty (bad).
_GOALS: dict[str, tuple[str, bool]] = {
    "spar": ("deal-won", True),
    "bhabhi": ("safe", True),
    "sugekari-21": ("out", True),
    "twenty-two": ("penalty", False),
}


def _bear_goal(state: State, seat: int) -> bool:
    """Bear, at a deal's end: the declarer made the contract (for the declarer), or failed
    (for the others); never reached in a Slop round."""
    result: Any = getattr(state, "last_result", None) or {}
    if "made" not in result:
        return False
    return bool(result["made"]) is (result.get("declarer") == seat)


# A deal's goal read from the state at the deal's end, per game: Bear's contract.
_GOAL_AT_END: dict[str, Callable[[State, int], bool]] = {"bear": _bear_goal}


class ViewOnlyRandom(random.Random):
    """A generator whose shuffles do not depend on the order of the list shuffled.

    ``determinize`` gathers the unseen cards from where they really lie and shuffles them; with
    this generator the list is put in a fixed order first, so the re-deal is a function of the
    seat's view and the seed alone. A shuffle of a sorted list is as uniform as any other.
    """

    def shuffle(self, x: Any) -> None:
        """Sort ``x`` (by value, else by its text), then shuffle it in place."""
        try:
            x.sort()
        except TypeError:
            x.sort(key=repr)
        super().shuffle(x)


def view_only(obs: Observation) -> Observation:
    """The same observation whose samples depend on its view only (see :class:`ViewOnlyRandom`).

    Each sample draws one number from the caller's generator, as a plain sample draws several.
    """
    sampler = obs.sampler

    def sample(rng: random.Random) -> State:
        return sampler(ViewOnlyRandom(rng.getrandbits(64)))

    return Observation(obs.game, obs.seat, obs.view, obs.legal, sample)


@dataclass(frozen=True)
class Outlook:
    """What the playouts after one move said, beside the reward.

    ``trick``: the share of playouts in which the seat (or its partner) took the trick being
    played now, None when no trick was decided (not a trick game, or the deal ended first).
    ``points``: the mean change of the seat's score over the rest of the deal, in the game's own
    measure, turned round where fewer points are better (22, 1234's penalties), so more is
    always better. ``goal``: the share of playouts in which the seat reached the deal's goal
    (Spar: won the deal; Getaway: got away; Sugekari: its side went out; 22: took no penalty;
    Bear: the declarer made the contract, or for the others failed), None for games without
    one.
    """

    trick: float | None
    points: float
    goal: float | None


@dataclass(frozen=True)
class MoveValue:
    """One move, measured."""

    action: Action
    value: float  # the seat's expected reward for the deal (the judge's, in [0, 1])
    error: float  # standard error (of the difference from the best move, when paired)
    playouts: int
    outlook: Outlook


@dataclass(frozen=True)
class Analysis:
    """The moves of one seat at one decision, best first."""

    seat: int
    best: Action  # the move the strong computer makes
    moves: tuple[MoveValue, ...]  # best first, then by value
    playouts: int  # of the search and of the measurements together
    samples: int  # deals consistent with the seat's view that were sampled
    detail: Outlook  # the best move's outlook: what a reason in words needs

    def value_of(self, action: Action) -> MoveValue | None:
        """The measurement of ``action`` (None when it was not measured)."""
        for move in self.moves:
            if move.action == action:
                return move
        return None


def analyse(obs: Observation, rng: random.Random, *, budget: float | None = None,
            iterations: int | None = None, moves: Sequence[Action] | None = None) -> Analysis:
    """The best move of ``obs.seat`` and the value of each move, best first.

    ``budget`` is in seconds (default: the hard level's), of which :data:`CHOICE_SHARE` goes
    to choosing; ``iterations`` replaces it with exact counts (the search's iterations, and as
    many measuring playouts), which makes the result a pure function of the observation and
    the rng. ``moves`` limits the measured moves (the best one is always added).
    """
    if not obs.legal:
        raise ValueError("this seat has no move to analyse")
    obs = view_only(obs)
    player = _hard_player(obs.game)
    started = time.perf_counter()
    total = HARD_BUDGET if budget is None else budget
    if iterations is not None:
        player.iterations = iterations
    else:
        player.budget = total * CHOICE_SHARE
    best = player.choose(obs, rng)
    search_playouts = player.last_iterations
    listed = _candidates(obs, best, player, moves, rng)
    deadline = None if iterations is not None else started + total
    rounds = None if iterations is None else max(MIN_ROUNDS, -(-iterations // len(listed)))
    if len(obs.legal) == 1:
        rounds = FORCED_ROUNDS  # nothing to choose: a few playouts for the outlook only
    measured = _measure(obs, listed, rng, _hooks(obs.game), rounds, deadline)
    values = [
        MoveValue(listed[i], measured.mean(i), measured.error(i), measured.rounds,
                  measured.outlook(i))
        for i in range(len(listed))
    ]
    ordered = (values[0], *sorted(values[1:], key=lambda m: -m.value))
    samples = measured.rounds + (player.last_rounds or search_playouts)
    return Analysis(obs.seat, best, ordered, search_playouts + measured.rounds * len(listed),
                    samples, ordered[0].outlook)


def analyse_pickled(blob: bytes, seat: int, seed: int, budget: float | None) -> Analysis:
    """:func:`analyse` of a pickled state's seat, for a worker process (the bot's hints): only
    the seat's observation reaches the analysis, never the state."""
    state: State = pickle.loads(blob)
    obs = observe(state, seat)
    del state
    return analyse(obs, random.Random(seed), budget=budget)


def compare(obs: Observation, a: Action, b: Action, rng: random.Random, *,
            budget: float | None = None, iterations: int | None = None) -> tuple[float, float]:
    """The seat's expected reward after ``a`` minus after ``b``, and its standard error, by
    paired playouts (the same samples and the same dice for both moves).

    ``iterations`` is the number of playouts of each move (a pure function of the observation
    and the rng); else ``budget`` seconds (default: the hard level's)."""
    for action in (a, b):
        if action not in obs.legal:
            raise ValueError(f"{action} is not a legal move here")
    if a == b:
        return 0.0, 0.0
    obs = view_only(obs)
    total = HARD_BUDGET if budget is None else budget
    deadline = None if iterations is not None else time.perf_counter() + total
    rounds = None if iterations is None else max(MIN_ROUNDS, iterations)
    measured = _measure(obs, [b, a], rng, _hooks(obs.game), rounds, deadline)
    return measured.mean(1) - measured.mean(0), measured.error(1)


def _hard_player(game: str) -> SearchPlayer:
    """The hard level's player of a game; the search with its default hooks for a game outside
    the registry (which has no rule of thumb)."""
    try:
        player = get_player("hard", game)
    except KeyError:
        player = SearchPlayer(budget=HARD_BUDGET)
    assert isinstance(player, SearchPlayer)
    return player


def _hooks(game: str) -> Hooks:
    """The search's hooks of a game (the defaults for a game outside the registry)."""
    try:
        return hooks_for(game)
    except KeyError:
        return Hooks()


def _candidates(obs: Observation, best: Action, player: SearchPlayer,
                moves: Sequence[Action] | None, rng: random.Random) -> list[Action]:
    """The moves to measure, the best first."""
    if moves is not None:
        chosen = [m for m in moves if m in obs.legal]
        return [best, *[m for m in dict.fromkeys(chosen) if m != best]]
    legal = list(obs.legal)
    if len(legal) <= MAX_MOVES:
        return [best, *[m for m in legal if m != best]]
    # too many to measure them all: the search's most visited, then a fixed random few
    visited = sorted(player.last_stats.items(), key=lambda item: -item[1][0])
    picked = [best, *(a for a, _ in visited)]
    others = [m for m in legal if m not in picked]
    rng.shuffle(others)
    return list(dict.fromkeys([*picked, *others]))[:MAX_MOVES]


class _Measured:
    """Sums of paired playouts: rewards, differences from the first move, outlooks."""

    def __init__(self, count: int) -> None:
        self.rounds = 0
        self.reward = [0.0] * count
        self.gain = [0.0] * count
        self.square = [0.0] * count
        self.points = [0.0] * count
        self.tricks = [0] * count
        self.won = [0] * count
        self.goals = [0] * count

    def mean(self, i: int) -> float:
        return self.reward[i] / max(self.rounds, 1)

    def error(self, i: int) -> float:
        """The standard error of the move's value; paired against the first move (whose own
        error is that of its plain mean)."""
        n = self.rounds
        if n < 2:
            return 0.0
        if i == 0:
            total = self.reward[0]
            square = self.square[0]
        else:
            total, square = self.gain[i], self.square[i]
        mean = total / n
        return math.sqrt(max(square / n - mean * mean, 0.0) / (n - 1))

    def outlook(self, i: int) -> Outlook:
        n = max(self.rounds, 1)
        trick = self.won[i] / self.tricks[i] if self.tricks[i] else None
        return Outlook(trick, self.points[i] / n, self.goals[i] / n if self._goal else None)

    _goal = False


def _measure(obs: Observation, listed: list[Action], rng: random.Random, hooks: Hooks,
             rounds: int | None, deadline: float | None) -> _Measured:
    """Paired playouts of every move of ``listed`` (``rounds`` rounds, else until
    ``deadline``, at least :data:`MIN_TIMED_ROUNDS`)."""
    side: frozenset[int] | None = None
    goal = _GOALS.get(obs.game)
    refine = hooks.belief(obs) if hooks.belief is not None else None
    measured = _Measured(len(listed))
    at_end = _GOAL_AT_END.get(obs.game)
    measured._goal = goal is not None or at_end is not None
    seat = obs.seat
    longest = 0.0  # seconds of the longest round so far
    while True:
        began = time.perf_counter()
        if rounds is not None:
            if measured.rounds >= rounds:
                break
        elif measured.rounds >= MIN_TIMED_ROUNDS and deadline is not None and \
                began + longest >= deadline:
            break
        sample = obs.sample(rng)
        if refine is not None:
            sample = refine(sample, rng)
        sample.stop_at_deal_end = True
        if side is None:
            side = _side(sample, seat)
        start = sample.scores()
        direction = sample.score_direction()
        dice = rng.getrandbits(64)
        first = 0.0
        for i, action in enumerate(listed):
            trial = sample.clone()
            result = _play(trial, seat, action, side, goal, hooks, random.Random(dice))
            if at_end is not None:  # read once the deal has ended (else not reached)
                ended = trial.over or trial.deal_number != sample.deal_number
                result = (result[0], ended and at_end(trial, seat))
            reward = hooks.judge(trial, start)[seat]
            if i == 0:
                first = reward
                measured.square[0] += reward * reward
            else:
                measured.gain[i] += reward - first
                measured.square[i] += (reward - first) ** 2
            measured.reward[i] += reward
            measured.points[i] += direction * (trial.scores()[seat] - start[seat])
            trick, reached = result
            if trick is not None:
                measured.tricks[i] += 1
                measured.won[i] += trick
            measured.goals[i] += reached
        measured.rounds += 1
        longest = max(longest, time.perf_counter() - began)
    return measured


def _play(state: State, seat: int, action: Action, side: frozenset[int],
          goal: tuple[str, bool] | None, hooks: Hooks,
          rng: random.Random) -> tuple[bool | None, bool]:
    """Play ``action`` and the rest of the deal by the rollout policy, in place; whether the
    seat's side took the trick now played (None: no trick was decided) and whether the seat
    reached the deal's goal."""
    deal = state.deal_number
    trick: bool | None = None
    kind, good = goal if goal is not None else ("", True)
    hit = False

    def watch(events: Iterable[Event]) -> None:
        nonlocal trick, hit
        for event in events:
            if event.kind == "trick" and trick is None:
                trick = event.seat in side
            elif event.kind == kind and event.seat in side:
                hit = True

    watch(state.apply(seat, action))
    rollout = hooks.rollout
    moves = 0
    while not state.over and state.deal_number == deal and moves < PLAYOUT_MOVES:
        if hooks.finish is not None and goal is None:
            hooks.finish(state, rng)  # no event to watch: one call plays the deal out
            break
        to_act = state.to_act
        mover = to_act[0] if len(to_act) == 1 else to_act[rng.randrange(len(to_act))]
        watch(state.apply(mover, rollout(state, mover, rng)))
        moves += 1
    return trick, hit == good


def _side(state: State, seat: int) -> frozenset[int]:
    """The seat and its partners."""
    for team in state.rules.teams(state.players, state.options) or ():
        if seat in team:
            return frozenset(team)
    return frozenset((seat,))
