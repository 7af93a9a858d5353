"""Tournaments and seasons, pure: seating the rounds (Swiss for any seat count, elimination),
standings with named tie-breaks and duplicate rounds. (A season's soft reset is the ratings'
own: :func:`bot.storage.ratings.soft_reset`.)

No I/O, no asyncio, no Discord: the storage, the runner and the commands are built on these
values and functions. Each module's docstring states its decisions.
"""

from bot.tournaments.duplicate import (
    SAME_DEALS,
    DuplicateTable,
    deal_seed,
    matchpoints,
    round_matchpoints,
    seat_keys,
    shared_deals,
)
from bot.tournaments.model import Occupant, RoundResults, Seating, TableResult
from bot.tournaments.pairing import (
    Bracket,
    advancing,
    bracket,
    elimination_plan,
    elimination_round,
    swiss_round,
    table_counts,
)
from bot.tournaments.standings import (
    STAGE,
    TIE_BREAKS,
    Standing,
    by_stage,
    place_points,
    round_gains,
    standings,
)

__all__ = [
    "SAME_DEALS",
    "STAGE",
    "TIE_BREAKS",
    "Bracket",
    "DuplicateTable",
    "Occupant",
    "RoundResults",
    "Seating",
    "Standing",
    "TableResult",
    "advancing",
    "bracket",
    "by_stage",
    "deal_seed",
    "elimination_plan",
    "elimination_round",
    "matchpoints",
    "place_points",
    "round_gains",
    "round_matchpoints",
    "seat_keys",
    "shared_deals",
    "standings",
    "swiss_round",
    "table_counts",
]
