"""Per-game settings of the search player: rollout policy, wide decisions, and a prior.

A rollout policy must be cheap (it runs thousands of times a second) and see nothing the
searching seat could not know: it runs inside a determinized state, so whatever it reads there
was already re-dealt by ``determinize``.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.ai import Policy, basic_policy
from games.ai.search import Rollout, Wide, never_wide, random_rollout
from games.core import State


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
    return Hooks(rollout=_ROLLOUTS.get(game_id, random_rollout),
                 wide=_WIDE.get(game_id, never_wide), prior=prior)


_ROLLOUTS: dict[str, Rollout] = {}
