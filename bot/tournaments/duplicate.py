"""Duplicate rounds: every table of a round with the same seat count plays the same deals, and
a player is compared with those who held the same seat (the same cards) at the other tables.

Decisions:

- **One seed per round and seat count** (:func:`deal_seed`): a table of the round is opened
  with ``rules.new_game(seats, seed=deal_seed(event_seed, round, seats), options)``, the same
  options at every table. Tables of another seat count get another seed (other cards).
- **Comparison score: matchpoints** (:func:`matchpoints`). A seat's result is a key compared
  between tables (:func:`seat_keys`: the place first, 1 best, then the game's own score the
  right way up). A player earns, for each other table of the same seed, 1 where the same seat
  did worse there, ½ where it did the same, 0 where it did better. A round's matchpoints are
  the points of :func:`bot.tournaments.standings.standings` (its ``gains``), whose tie-breaks
  then apply unchanged. Absent players and computers earn nothing, but a computer's result is
  still the yardstick for the players who held that seat elsewhere.
- **What is really the same deal**: a game's first deal is always the same for one seed. A
  later deal of a multi-deal game is the same seat by seat only where both its shuffle and its
  dealer are beyond the reach of play (checked in tests/tournaments/test_duplicate.py):
  Finesse (a chain of shuffle seeds, the deal passing clockwise) and Bear (its generator draws
  only shuffles, the deal passing left; but with ``all_pass="redeal"`` a passed-out deal
  takes one more shuffle). Spar and 1234 shuffle from a chain of seeds too, but the last
  deal's winner (Spar) or the next dealer chosen by play (1234) deals, so the same cards land
  at other seats. In 22 the penalty cards leave the pack, the loser deals and the eliminated
  are not dealt to. Sugekari's second game of ``two-decks`` reshuffles the stock play left;
  Getaway is one deal, but its draws from the pile come from the generator during play.
  :data:`SAME_DEALS` names the games whose every deal is shared (by default options), and
  :func:`shared_deals` how many deals a game shares; a duplicate event of another game
  compares whole games all the same, but only its first deal is truly the same cards.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.tournaments.model import Seating

#: games whose every deal is the same at every table of one seed, whatever is played
SAME_DEALS = frozenset({"finesse", "bear"})


def shared_deals(game_id: str) -> int | None:
    """How many deals one seed gives every table alike: None for all of them (the games of
    :data:`SAME_DEALS`), else 1 (only the first)."""
    return None if game_id in SAME_DEALS else 1


def deal_seed(event_seed: int, round_number: int, seats: int) -> int:
    """The seed every table of ``seats`` seats plays in round ``round_number`` (a 63-bit number
    from a hash, the same on every machine)."""
    digest = hashlib.blake2b(f"{event_seed}/{round_number}/{seats}".encode(),
                             digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def seat_keys(places: Sequence[int], scores: Sequence[float],
              direction: int = 1) -> tuple[tuple[float, float], ...]:
    """Each seat's comparable result, larger better: (−place, score × direction), from a
    game's :class:`games.core.Outcome` and ``state.score_direction()``."""
    if len(places) != len(scores):
        raise ValueError(f"{len(places)} places for {len(scores)} scores")
    return tuple((-float(p), float(s) * direction) for p, s in zip(places, scores, strict=True))


@dataclass(frozen=True)
class DuplicateTable:
    """One table of a duplicate round: its seating, the deal seed it played, each seat's
    result key (:func:`seat_keys`) and the players who did not show."""

    seating: Seating
    seed: int
    keys: tuple[tuple[float, float], ...]
    absent: frozenset[int] = frozenset()


def matchpoints(tables: Sequence[DuplicateTable]) -> dict[int, float]:
    """Each seated player's matchpoints for the round: against every other table of the same
    seed and seat count, 1 where the same seat did worse there, ½ where the same."""
    found: dict[int, float] = {}
    groups: dict[tuple[int, int], list[DuplicateTable]] = {}
    for table in tables:
        if len(table.keys) != len(table.seating.seats):
            raise ValueError(f"table {table.seating.number}: {len(table.keys)} results for "
                             f"{len(table.seating.seats)} seats")
        groups.setdefault((table.seed, len(table.keys)), []).append(table)
    for group in groups.values():
        for table in group:
            for seat, player in enumerate(table.seating.seats):
                if player is None:
                    continue
                if player in table.absent:
                    found[player] = 0.0
                    continue
                mine = table.keys[seat]
                found[player] = sum(
                    1.0 if mine > other.keys[seat] else 0.5 if mine == other.keys[seat] else 0.0
                    for other in group if other is not table)
    return found


def round_matchpoints(rounds: Sequence[Sequence[DuplicateTable]]) -> list[Mapping[int, float]]:
    """Every round's matchpoints, ready as :func:`standings`' ``gains``."""
    return [matchpoints(r) for r in rounds]
