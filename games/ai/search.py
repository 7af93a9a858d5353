"""Information-set Monte Carlo tree search (single-observer ISMCTS with availability counts).

Each iteration samples a full state consistent with what the searching seat knows
(``Observation.sample``, i.e. ``determinize``), walks one shared tree of actions with UCB
restricted to the actions available in that sample, expands one new action, plays the rest of
the deal out with a rollout policy and backs the result up. The searching seat never sees a
hidden card: every sample re-deals the unknown ones, and the real state is never touched.

A result is judged at the end of the deal (searching further ahead costs playouts and the
next deal's cards are unknown anyway): by the places if the match ended, else by how each seat's
score moved during the deal, ranked (``State.score_direction`` says whether more is better).
Partnership games put a side's score on both partners' seats, so both partners get the same
reward and the tree plays for the side.

Large action sets (22's exchange: any subset of the hand) are widened progressively: at the
root only the first few candidates (the rule-of-thumb move first) are open, more as visits grow;
deeper down, a seat facing a large set picks by the rollout policy, as at a chance node.

A game may instead list the moves of a decision (``shortlist``) to compare side by side: flat
Monte Carlo, every listed move played from the same samples with the same playout dice, so that
the moves' differences are measured sharply (``SearchPlayer._compare``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from games.ai import Observation, Policy, ruled
from games.core import Action, State

Rollout = Callable[[State, int, random.Random], Action]
Wide = Callable[[State, int], bool]
# Each seat's reward in [0, 1] for a sampled future, given the scores at the deal's start.
Judge = Callable[[State, list[float]], list[float]]
# Re-deals a sample's hidden cards to agree with what the others' plays suggest (beliefs.py).
Refiner = Callable[[State, random.Random], State]
Belief = Callable[[Observation], Refiner | None]
# Plays a sampled deal on to its end by the rollout policy's rules, in place.
Finish = Callable[[State, random.Random], None]
# The moves of a decision to compare side by side by paired playouts, or None to search it
# with the tree.
Shortlist = Callable[[Observation], list[Action] | None]

# Root widening: the number of open candidates is WIDEN_BASE + WIDEN_SLOPE * sqrt(visits).
WIDEN_AT = 24
WIDEN_BASE = 8
WIDEN_SLOPE = 1.5
# The longest playout: a deal whose cards can go round forever (Getaway's pick-ups, played by
# fixed rules of thumb) is judged where it stands after this many moves.
PLAYOUT_MOVES = 2000
# How often (in iterations) a timed search checks whether the rest of its time could still
# change its choice.
SETTLE_EVERY = 32


def now() -> float:
    """The clock of time budgets (monotonic seconds)."""
    return time.perf_counter()


def random_rollout(state: State, seat: int, rng: random.Random) -> Action:
    """A uniformly random legal action (the fastest rollout)."""
    return state.random_action(seat, rng)


def never_wide(state: State, seat: int) -> bool:
    """No decision is too large to list (the default)."""
    return False


class _Node:
    __slots__ = ("avail", "children", "mover", "reward", "square", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = 0.0
        self.square = 0.0


def deal_rewards(state: State, start_scores: list[float]) -> list[float]:
    """Each seat's reward in [0, 1] for a sampled future that ended a deal or the match."""
    n = state.players
    outcome = state.outcome
    if outcome is not None:
        worst = max(outcome.places)
        if worst == 1:
            return [0.5] * n
        return [1.0 - (place - 1) / (worst - 1) for place in outcome.places]
    direction = state.score_direction()
    scores = state.scores()
    gains = [direction * (scores[s] - start_scores[s]) for s in range(n)]
    return ranked(gains)


def ranked(values: list[float]) -> list[float]:
    """1 for the best value, 0 for the worst, ties sharing the mean of their ranks."""
    n = len(values)
    low, high = min(values), max(values)
    if high == low:
        return [0.5] * n
    order = sorted(values)
    result = []
    for v in values:
        first = order.index(v)
        last = n - 1 - order[::-1].index(v)
        result.append((first + last) / 2 / (n - 1))
    return result


def _clearly_better(best: _Node, other: _Node, z: float) -> bool:
    """True when ``best``'s mean reward beats ``other``'s by ``z`` standard errors."""
    if other.visits < 2 or best.visits < 2:
        return best.visits > other.visits
    mine, mine_var = _mean_and_variance(best.reward, best.square, best.visits)
    theirs, their_var = _mean_and_variance(other.reward, other.square, other.visits)
    return mine - theirs > z * math.sqrt(mine_var + their_var)


def _mean_and_variance(total: float, square: float, n: int) -> tuple[float, float]:
    """The mean of ``n`` values (given their sum and sum of squares) and the variance of that
    mean (the values' variance, at least 1e-4, over ``n``)."""
    mean = total / n
    return mean, max(square / n - mean * mean, 1e-4) / n


class SearchPlayer:
    """ISMCTS over determinized states, within a time budget or an exact iteration budget.

    ``iterations`` (when given) replaces the time budget, which makes the choice a pure function
    of the observation and the rng. ``prior`` is a rule-of-thumb policy asked once per move: its
    move is tried first, opens the widened root, and wins ties of visits.
    """

    def __init__(self, budget: float = 1.0, iterations: int | None = None,
                 exploration: float = 0.7, rollout: Rollout = random_rollout,
                 wide: Wide = never_wide, prior: Policy | None = None,
                 prior_decides: Callable[[Observation], bool] | None = None,
                 judge: Judge | None = None, confidence: float = 0.0,
                 open_loop: bool = False, belief: Belief | None = None,
                 finish: Finish | None = None, shortlist: Shortlist | None = None,
                 model_others: bool = False, race: float = 0.0) -> None:
        self.budget = budget
        self.iterations = iterations
        self.exploration = exploration
        self.rollout = rollout
        self.wide = wide
        self.prior = prior
        self.prior_decides = prior_decides
        self.judge: Judge = judge or deal_rewards
        # The rule of thumb's move stands unless the searched favourite beats it by this many
        # standard errors (0: plain most-visited choice).
        self.confidence = confidence
        # Open loop: only the searching seat's moves make the tree; the other seats play the
        # rollout policy (a model of how they play) at every iteration.
        self.open_loop = open_loop
        # Modelled others: the other seats move by the rollout policy (a model of how they
        # play), as at chance nodes, but the tree still tells their moves apart, so the
        # searching seat's later choices can depend on what it saw them play.
        self.model_others = model_others
        # Inferences from the others' plays, applied to every sample (None: plain samples).
        self.belief = belief
        # A game's own playout of the rest of the deal by the rollout policy's rules (faster
        # than applying its moves one by one); None: the rollout loop.
        self.finish = finish
        # Decisions judged by paired playouts of a short list of moves instead of the tree.
        self.shortlist = shortlist
        # Paired playouts race their moves: a move trailing the leader by more than this many
        # standard errors stops being played (0: every move plays every round).
        self.race = race
        self._refine: Refiner | None = None
        # Playouts of the last choice (iterations of the tree), and rounds of paired playouts.
        self.last_iterations = 0
        self.last_rounds = 0
        # The root's statistics of the last choice, for analysis (games/ai/analysis.py): per
        # move, its playouts and its mean reward (tree), or its rounds and its mean difference
        # from the rule of thumb's move (paired playouts). Empty when nothing was searched.
        self.last_stats: dict[Action, tuple[int, float]] = {}

    def choose(self, obs: Observation, rng: random.Random) -> Action:
        """The action the search likes best (most visited at the root)."""
        self.last_iterations = self.last_rounds = 0
        self.last_stats = {}
        if len(obs.legal) == 1:
            return obs.legal[0]
        given = ruled(obs)
        if given is not None:
            return given
        if self.prior is not None and self.prior_decides is not None and self.prior_decides(obs):
            # a decision the rule of thumb handles better than a shallow search
            return self.prior(obs, rng)
        clock = now
        deadline = clock() + self.budget
        listed = self.shortlist(obs) if self.shortlist is not None else None
        if listed:
            return self._compare(obs, listed, rng, deadline)
        candidates = list(obs.legal)
        rng.shuffle(candidates)
        favourite: Action | None = None
        if self.prior is not None:
            favourite = self.prior(obs, rng)
            if favourite in candidates:
                candidates.remove(favourite)
                candidates.insert(0, favourite)
        self._refine = self.belief(obs) if self.belief else None
        root = _Node(obs.seat)
        done = 0
        started = clock()
        check_at = SETTLE_EVERY
        while True:
            if self.iterations is not None:
                if done >= self.iterations:
                    break
            elif clock() >= deadline:
                break
            if len(candidates) > WIDEN_AT:
                open_count = WIDEN_BASE + int(WIDEN_SLOPE * math.sqrt(done + 1))
                self._iterate(root, obs, candidates[:open_count], rng)
            else:
                self._iterate(root, obs, candidates, rng)
            done += 1
            if self.iterations is None and done >= check_at:
                check_at = done + SETTLE_EVERY
                at = clock()
                if self._settled(root, favourite, len(candidates),
                                 done / max(at - started, 1e-9) * (deadline - at)):
                    break
        self.last_iterations = done
        self.last_stats = {action: (child.visits, child.reward / max(child.visits, 1))
                           for action, child in root.children.items()}
        best: Action | None = None
        best_key = (-1, -1.0)
        for action, child in root.children.items():
            key = (child.visits + (1 if action == favourite else 0),
                   child.reward / max(child.visits, 1))
            if key > best_key:
                best, best_key = action, key
        if best is None:
            return favourite or candidates[0]
        if favourite is not None and best != favourite and self.confidence > 0:
            mine = root.children.get(favourite)
            if mine is not None and not _clearly_better(root.children[best], mine,
                                                        self.confidence):
                # too few playouts to overrule the rule of thumb
                return favourite
        return best

    def _settled(self, root: _Node, favourite: Action | None, open_count: int,
                 remaining: float) -> bool:
        """True when the rest of the time budget cannot change the choice: the most visited
        move leads the next by more than the iterations left (at the rate so far), and the
        confidence rule cannot turn the choice back to the basic move."""
        if open_count > WIDEN_AT or len(root.children) < open_count:
            return False
        ranked_children = sorted(root.children.items(), key=lambda item: -item[1].visits)
        (leader, first), (_runner, second) = ranked_children[0], ranked_children[1]
        if favourite is not None and self.confidence > 0 and leader != favourite:
            return False
        return first.visits - second.visits - 1 > remaining

    def _iterate(self, root: _Node, obs: Observation, root_legal: list[Action],
                 rng: random.Random) -> None:
        state = obs.sample(rng)
        if self._refine is not None:
            state = self._refine(state, rng)
        state.stop_at_deal_end = True
        deal = state.deal_number
        start_scores = state.scores()
        node = root
        path: list[_Node] = []
        legal: list[Action] = root_legal
        seat = me = obs.seat
        exploration = self.exploration
        log = math.log
        sqrt = math.sqrt
        while True:
            children = node.children
            untried = None
            for action in legal:
                child = children.get(action)
                if child is None:
                    if untried is None:
                        untried = action
                else:
                    child.avail += 1
            if untried is not None:
                child = _Node(seat)
                children[untried] = child
                state.apply_legal(seat, untried)
                path.append(child)
                break
            best_action = legal[0]
            best_score = -1.0
            for action in legal:
                child = children[action]
                visits = child.visits
                score = child.reward / visits + exploration * sqrt(log(child.avail) / visits)
                if score > best_score:
                    best_score, best_action = score, action
            node = children[best_action]
            state.apply_legal(seat, best_action)
            path.append(node)
            if state.over or state.deal_number != deal:
                break
            to_act = state.to_act
            seat = to_act[0] if len(to_act) == 1 else to_act[rng.randrange(len(to_act))]
            if self.open_loop:
                # the others (and our own too-large decisions) move by the rollout policy;
                # the tree holds only the searching seat's own choices
                rollout = self.rollout
                while seat != me or self.wide(state, seat):
                    state.apply_legal(seat, rollout(state, seat, rng))
                    if state.over or state.deal_number != deal:
                        break
                    to_act = state.to_act
                    seat = (to_act[0] if len(to_act) == 1
                            else to_act[rng.randrange(len(to_act))])
                if state.over or state.deal_number != deal:
                    break
                legal = list(state.legal_actions(seat))
                if len(legal) > 1:
                    rng.shuffle(legal)
                continue
            stop = False
            while self.wide(state, seat) or (self.model_others and seat != me):
                # too many moves to list, or a modelled other: this choice is like chance
                action = self.rollout(state, seat, rng)
                child = node.children.get(action)
                state.apply_legal(seat, action)
                if child is None:
                    child = _Node(seat)
                    node.children[action] = child
                    path.append(child)
                    stop = True
                    break
                child.avail += 1
                node = child
                path.append(node)
                if state.over or state.deal_number != deal:
                    stop = True
                    break
                to_act = state.to_act
                seat = to_act[0] if len(to_act) == 1 else to_act[rng.randrange(len(to_act))]
            if stop:
                break
            legal = list(state.legal_actions(seat))
            if len(legal) > 1:
                rng.shuffle(legal)
        self._play_out(state, deal, rng)
        rewards = self.judge(state, start_scores)
        for visited in path:
            visited.visits += 1
            gained = rewards[visited.mover]
            visited.reward += gained
            visited.square += gained * gained

    def _play_out(self, state: State, deal: int, rng: random.Random) -> None:
        """Play the sampled deal on to its end by the rollout policy's rules, in place."""
        if self.finish is not None:
            if not state.over and state.deal_number == deal:
                self.finish(state, rng)
            return
        rollout = self.rollout
        apply = state.apply_legal
        moves = 0
        while not state.over and state.deal_number == deal and moves < PLAYOUT_MOVES:
            to_act = state.to_act
            seat = to_act[0] if len(to_act) == 1 else to_act[rng.randrange(len(to_act))]
            apply(seat, rollout(state, seat, rng))
            moves += 1

    def _compare(self, obs: Observation, listed: list[Action], rng: random.Random,
                 deadline: float) -> Action:
        """Flat Monte Carlo with common random numbers: every move of ``listed`` is played
        from the same samples with the same playout dice, so that the differences between
        moves are measured far more sharply than their values. The rule of thumb's move (the
        prior's, else the first listed) is played first and stands unless another beats it by
        ``confidence`` standard errors of the paired differences.

        With ``race`` set, the moves race: from ``RACE_FROM`` rounds on, a move whose mean
        difference trails the leader's by more than ``race`` standard errors (of the two,
        added) is dropped, so the rest of the playouts go to the moves still in contention.
        The first move is never dropped: the others' differences are measured from it."""
        if self.prior is not None:
            favourite = self.prior(obs, rng)
            if favourite in listed:
                listed = [favourite] + [a for a in listed if a != favourite]
        refine = self.belief(obs) if self.belief else None
        count = len(listed)
        gains = [0.0] * count  # summed differences from the first move
        squares = [0.0] * count
        counts = [0] * count  # rounds each move was played in
        alive = list(range(count))
        timed = self.iterations is None
        budget = self.iterations or 0
        rounds = played = 0
        while timed or played < budget:
            if timed and rounds and now() >= deadline:
                break
            sample = obs.sample(rng)
            if refine is not None:
                sample = refine(sample, rng)
            sample.stop_at_deal_end = True
            deal = sample.deal_number
            start_scores = sample.scores()
            dice = rng.getrandbits(64)
            rewards: list[float] = []
            for i in alive:
                if timed and rounds and now() >= deadline:
                    break  # a round cut short is not counted: its moves would not be paired
                trial = sample.clone()
                trial.apply_legal(obs.seat, listed[i])
                self._play_out(trial, deal, random.Random(dice))
                rewards.append(self.judge(trial, start_scores)[obs.seat])
            if len(rewards) < len(alive):
                break
            for i, reward in zip(alive, rewards, strict=True):
                gained = reward - rewards[0]
                gains[i] += gained
                squares[i] += gained * gained
                counts[i] += 1
            rounds += 1
            played += len(alive)
            if (self.race > 0 and rounds >= RACE_FROM and rounds % RACE_EVERY == 0
                    and len(alive) > 2):
                alive = _still_racing(alive, gains, squares, counts, self.race)
        self.last_iterations = played
        self.last_rounds = rounds
        self.last_stats = {listed[i]: (counts[i], gains[i] / max(counts[i], 1))
                           for i in range(count)}
        best = max(alive, key=lambda i: (gains[i] / max(counts[i], 1), -i))
        if best == 0 or counts[best] < 2:
            return listed[0]
        mean, spread = _mean_and_error(gains[best], squares[best], counts[best])
        if mean <= self.confidence * spread:
            return listed[0]
        return listed[best]


# Racing paired playouts drop the moves out of contention from this many rounds on, every
# RACE_EVERY rounds.
RACE_FROM = 32
RACE_EVERY = 16


def _mean_and_error(total: float, square: float, n: int) -> tuple[float, float]:
    """The mean of ``n`` paired differences and its standard error."""
    mean, variance = _mean_and_variance(total, square, n)
    return mean, math.sqrt(variance)


def _still_racing(alive: list[int], gains: list[float], squares: list[float],
                  counts: list[int], margin: float) -> list[int]:
    """The moves of ``alive`` still in contention: the first, the leader, and every move whose
    mean difference from the first is within ``margin`` standard errors of the leader's
    (the two errors added, which is never less than the error of their difference)."""
    stats = {i: (0.0, 0.0) if i == 0 else _mean_and_error(gains[i], squares[i], counts[i])
             for i in alive}
    leader = max(alive, key=lambda i: (stats[i][0], -i))
    top, top_error = stats[leader]
    return [i for i in alive
            if i in (0, leader) or top - stats[i][0] <= margin * (top_error + stats[i][1])]
