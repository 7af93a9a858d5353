"""Computer players. They see only what their seat may know: an :class:`Observation`.

Levels: ``random``; ``easy`` (the basic player with some random moves); ``normal`` (the
basic rule-of-thumb player of each game, in ``games/ai/<game module>.py``); ``hard`` (the
search player of ``games/ai/search.py``, :data:`HARD_BUDGET` seconds a move).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from games.core import Action, State, View
from games.registry import _MODULES

LEVELS = ("random", "easy", "normal", "hard")

# Seconds the hard level thinks per move (issue 8: 1 s on a 2-core machine).
HARD_BUDGET = 1.0


@dataclass(frozen=True)
class Observation:
    """All a computer player gets: its seat, its view, its legal actions, and a sampler of
    full states consistent with its view (determinize), never the real state."""

    game: str
    seat: int
    view: View
    legal: tuple[Action, ...]
    sampler: Callable[[random.Random], State]

    def sample(self, rng: random.Random) -> State:
        """A full state consistent with what this seat knows, hidden cards re-dealt."""
        return self.sampler(rng)


def observe(state: State, seat: int) -> Observation:
    """What ``seat`` may know of ``state``, packed for a computer player."""
    frozen = state.clone()
    return Observation(
        game=state.rules.id,
        seat=seat,
        view=state.view(seat),
        legal=tuple(state.legal_actions(seat)),
        sampler=lambda rng: frozen.determinize(seat, rng),
    )


class Player(Protocol):
    """A computer player: picks one of the legal actions."""

    def choose(self, obs: Observation, rng: random.Random) -> Action:
        """The chosen action (always one of ``obs.legal``)."""
        ...


Policy = Callable[[Observation, random.Random], Action]

#: answers the rules give every computer player: Spar's ``peek`` (computer players agree)
_RULED = (Action("peek_agree"),)


def ruled(obs: Observation) -> Action | None:
    """The move the rules make for a computer player here, or None when it chooses."""
    for action in _RULED:
        if action in obs.legal:
            return action
    return None


class RandomPlayer:
    """Any legal action, uniformly."""

    def choose(self, obs: Observation, rng: random.Random) -> Action:
        """A uniformly random legal action (the rules' answer where they give one)."""
        return ruled(obs) or rng.choice(obs.legal)


class BasicPlayer:
    """The game's rule-of-thumb player; ``noise`` is the share of random moves (easy)."""

    def __init__(self, policy: Policy, noise: float = 0.0) -> None:
        self.policy = policy
        self.noise = noise

    def choose(self, obs: Observation, rng: random.Random) -> Action:
        """The basic move, or sometimes a random one."""
        if len(obs.legal) == 1:
            return obs.legal[0]
        given = ruled(obs)
        if given is not None:
            return given
        if self.noise and rng.random() < self.noise:
            return rng.choice(obs.legal)
        return self.policy(obs, rng)


def basic_policy(game_id: str) -> Policy:
    """The rule-of-thumb policy of a game; KeyError for an unknown game."""
    module = _MODULES[game_id].replace("games.", "games.ai.", 1)
    policy: Policy = importlib.import_module(module).basic
    return policy


def out_of_turn(obs: Observation, rng: random.Random) -> Action | None:
    """A move a computer seat that is not due may make now (Getaway's take), or None: the
    game's rule of thumb decides (None for games without one)."""
    name = _MODULES.get(obs.game)
    if name is None:  # a game from outside the registry (a test's): no rule of thumb
        return None
    module = importlib.import_module(name.replace("games.", "games.ai.", 1))
    weigh: Callable[[Observation, random.Random], Action | None] | None = getattr(
        module, "out_of_turn", None)
    return None if weigh is None or not obs.legal else weigh(obs, rng)


def get_player(level: str, game_id: str) -> Player:
    """A computer player of that level for that game; ValueError for an unknown level."""
    if level == "random":
        return RandomPlayer()
    if level == "easy":
        return BasicPlayer(basic_policy(game_id), noise=0.3)
    if level in ("normal", "basic"):
        return BasicPlayer(basic_policy(game_id))
    if level == "hard":
        # imported here: the search modules import this one
        from games.ai.playouts import hooks_for
        from games.ai.search import SearchPlayer

        hooks = hooks_for(game_id)
        return SearchPlayer(budget=HARD_BUDGET, rollout=hooks.rollout, wide=hooks.wide,
                            prior=hooks.prior, prior_decides=hooks.prior_decides,
                            judge=hooks.judge, exploration=hooks.exploration,
                            confidence=hooks.confidence, open_loop=hooks.open_loop,
                            model_others=hooks.model_others, race=hooks.race,
                            belief=hooks.belief, finish=hooks.finish,
                            shortlist=hooks.shortlist)
    raise ValueError(f"unknown computer level '{level}' (levels: {', '.join(LEVELS)})")
