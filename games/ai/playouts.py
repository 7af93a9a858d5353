"""Per-game settings of the search player: rollout policy, wide decisions, and a prior.

A rollout policy must be cheap (it runs thousands of times a second) and see nothing the
searching seat could not know: it runs inside a determinized state, so whatever it reads there
was already re-dealt by ``determinize``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.ai import Observation, Policy, basic_policy
from games.ai.search import Rollout, Wide, never_wide, random_rollout
from games.core import Action, State


@dataclass(frozen=True)
class Hooks:
    """What the search player uses for one game."""

    rollout: Rollout = random_rollout
    wide: Wide = never_wide
    prior: Policy | None = None


def exchange_is_wide(state: State, seat: int) -> bool:
    """22's exchange: any subset of the hand may go, too many moves to list at every node."""
    return getattr(state, "phase", None) == "exchange"


_WIDE: dict[str, Wide] = {"twenty-two": exchange_is_wide}


def hooks_for(game_id: str) -> Hooks:
    """The search settings of a game (random rollouts unless the game has better ones)."""
    try:
        prior: Policy | None = basic_policy(game_id)
    except (ImportError, AttributeError):
        prior = None
    share = _BASIC_SHARE.get(game_id, 0.0)
    rollout = _ROLLOUTS.get(game_id, random_rollout)
    if share and prior is not None:
        rollout = mixed_rollout(prior, game_id, share)
    return Hooks(rollout=rollout,
                 wide=_WIDE.get(game_id, never_wide), prior=prior)


_ROLLOUTS: dict[str, Rollout] = {}

# Games whose playouts follow the basic player: measured stronger than random playouts at a
# quarter-second budget against basic players (Sugekari's and Bhabhi's outcomes hinge on
# sensible play to the end; random playouts misjudge them). Elsewhere random playouts won.
_BASIC_SHARE: dict[str, float] = {"sugekari-21": 1.0, "bhabhi": 1.0, "finesse": 1.0}


def mixed_rollout(policy: Policy, game_id: str, share: float) -> Rollout:
    """The rule-of-thumb move ``share`` of the time, else a random one (cheap, less naive).

    The policy sees the determinized state's view for the seat to move, as that seat would.
    """

    def rollout(state: State, seat: int, rng: random.Random) -> Action:
        if rng.random() >= share:
            return state.random_action(seat, rng)
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        obs = Observation(game_id, seat, state.view(seat), tuple(legal), _no_sampler)
        return policy(obs, rng)

    return rollout


def _no_sampler(rng: random.Random) -> State:
    raise RuntimeError("a rollout observation cannot be sampled")
