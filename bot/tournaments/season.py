"""A new season's ratings: a soft reset toward the mean, as the anchors do.

At a season's start every rating moves part of the way back to the model's prior mean and
grows less certain, so the past still counts but the new season can be won:

    mu'    = mean + keep × (mu − mean)
    sigma' = min(sigma + widen, SIGMA)

with ``mean`` the model's prior mean (openskill's 25, :data:`bot.storage.ratings.MU`, not the
server's average: that would move with whoever happens to play), ``keep`` = 0.5 (half of a
player's distance from the mean is kept) and ``widen`` = SIGMA / 4 (about 2.08; never wider
than a new player's SIGMA, and a sigma already wider is left as it is). A rating at the mean
with a new player's sigma stays as it is. The leaderboard sorts by ``mu − 3·sigma``: a reset
lowers the ordinals, those far above the mean and the most certain the most.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from bot.storage.ratings import MU, SIGMA, Skill

#: the share of a rating's distance from the mean a new season keeps
KEEP = 0.5
#: what a new season adds to every sigma (capped at a new player's)
WIDEN = SIGMA / 4

Key = TypeVar("Key")


def soft_reset(skill: Skill, *, keep: float = KEEP, widen: float = WIDEN,
               mean: float = MU) -> Skill:
    """One rating at a new season's start (see the module's formula)."""
    if not 0.0 <= keep <= 1.0:
        raise ValueError(f"keep must be between 0 and 1, not {keep}")
    if widen < 0.0:
        raise ValueError(f"widen must not be negative, not {widen}")
    return Skill(mean + keep * (skill.mu - mean), min(skill.sigma + widen, max(skill.sigma,
                                                                                 SIGMA)))


def new_season(skills: Mapping[Key, Skill], *, keep: float = KEEP, widen: float = WIDEN,
               mean: float = MU) -> dict[Key, Skill]:
    """Every rating of a season (by player, or by (player, game)) at the next one's start."""
    return {key: soft_reset(skill, keep=keep, widen=widen, mean=mean)
            for key, skill in skills.items()}
