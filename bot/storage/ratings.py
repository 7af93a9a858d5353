"""Ratings with openskill's Plackett–Luce model: who counts, how they rank, the update.

Pure functions, no storage. A finished game becomes a list of *sides* (a team of partners, or one
player alone) with a rank each (1 = best, ties share a rank); openskill updates every member of
every side. A player who abandoned (the computer kept their seat to the end) is ranked last, and
so is their side in a partnership game, since a side is rated as one unit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

#: the model every rating uses (openskill's defaults: mu 25, sigma 25/3, tau 25/300)
MODEL = PlackettLuce()
MU: float = MODEL.mu
SIGMA: float = MODEL.sigma
#: the key of the ratings over every game of a server
ALL_GAMES = "*"


@dataclass(frozen=True)
class Skill:
    """A player's rating: mean ``mu`` and uncertainty ``sigma``."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        """The conservative estimate the leaderboard sorts by: mu − 3·sigma."""
        return self.mu - 3.0 * self.sigma


@dataclass(frozen=True)
class Side:
    """Seats that win or lose together, and the rank they finished with."""

    seats: tuple[int, ...]
    rank: int


def unrated_reason(seats: Sequence[Mapping[str, Any]]) -> str | None:
    """Why a game with these seats (dicts with ``user_id`` and ``computer``) counts for no
    rating: 'computer' (a computer plays a seat), 'repeat' (one person in two seats) or
    'hints' (someone was shown a hint, ``hints`` counted on their seat); None when it is
    rated."""
    if any(s.get("computer") or s.get("user_id") is None for s in seats):
        return "computer"
    users = [s.get("user_id") for s in seats]
    if len(set(users)) != len(users):
        return "repeat"
    if any(int(s.get("hints") or 0) > 0 for s in seats):
        return "hints"
    return None


def sides(places: Sequence[int], teams: Sequence[Sequence[int]] | None,
          abandoned: Sequence[bool]) -> list[Side]:
    """The sides of a finished game: partnerships (or single seats) with their ranks.

    A side's place is its best member's place; a side with a member who abandoned is ranked
    after every side that did not (such sides keep their order among themselves).
    """
    groups = [tuple(team) for team in teams] if teams else [(seat,) for seat in
                                                           range(len(places))]
    # a side is judged by (did someone abandon, best place); ranks count the sides strictly
    # ahead, so ties share a rank and an abandoner's opponents move up
    keys = [(any(abandoned[s] for s in group), min(places[s] for s in group))
            for group in groups]
    return [Side(group, 1 + sum(1 for other in keys if other < key))
            for group, key in zip(groups, keys, strict=True)]


def rate(teams: Sequence[Sequence[Skill]], ranks: Sequence[int]) -> list[list[Skill]]:
    """The new skills of every member of every side after a game (openskill Plackett–Luce)."""
    if len(teams) < 2:
        return [list(team) for team in teams]
    given = [[MODEL.rating(mu=s.mu, sigma=s.sigma) for s in team] for team in teams]
    updated = MODEL.rate(given, ranks=[float(r) for r in ranks])
    return [[Skill(float(r.mu), float(r.sigma)) for r in team] for team in updated]


#: a new season's soft reset (:func:`soft_reset`): how much of a rating's distance from the
#: mean is kept, and how much uncertainty is added back
SEASON_KEEP = 0.5
SEASON_SIGMA_STEP = 1.0


def soft_reset(skill: Skill) -> Skill:
    """A rating carried into a new season, pulled toward the mean as the anchors do (Board
    Game Arena's seasons drop everyone a league; lichess's arenas start over):

        mu' = MU + SEASON_KEEP · (mu − MU)          (halfway back to the start, 25)
        sigma' = min(sigma + SEASON_SIGMA_STEP, SIGMA)

    The mean is the model's prior MU, where every new player starts: a season does not undo
    what was learnt of a player, but a strong one has to show it again, and the added
    uncertainty lets the new season's games move the rating faster. Sigma never grows past a
    newcomer's."""
    return Skill(MU + SEASON_KEEP * (skill.mu - MU), min(skill.sigma + SEASON_SIGMA_STEP, SIGMA))
