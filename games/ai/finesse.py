"""The basic Finesse player: plays for its partnership (its partner sits opposite, seat + 2).

Rules of thumb: pick trumps from the longest strong suit; never overtake a partner who is
already winning; win as cheaply as possible; get trumps out of the partner's table cards by
leading them (trumps left there at the end cost 3 each); refill with low cards that are not
trumps; and once the partnership has 10 tricks (worth the most), try to lose the rest.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games import tricks
from games.ai import Observation
from games.cards import ACE, JACK, SUITS, Card, parse
from games.core import Action

# "Scoring each deal": 10 tricks are worth 20, an 11th trick drops that to 10.
BEST_TRICKS = 10


def _rank(c: Card) -> int:
    return c.rank


def _trumpish(c: Card, trumps: str | None) -> bool:
    """Cards that cost points if left among the dregs (no-trumps: every A, K, Q, J)."""
    if trumps == "NT":
        return c.rank >= JACK
    return trumps is not None and c.suit == trumps


def _cheapness(c: Card, trumps: str | None) -> tuple[int, int]:
    """Sort key: cheaper cards first (non-trumps before trumps, low before high)."""
    return (1 if trumps not in (None, "NT") and c.suit == trumps else 0, c.rank)


def _trump_suit(trumps: str | None) -> str | None:
    return trumps if trumps not in (None, "NT") else None


def _wins(plays: Sequence[tuple[int, Card]], seat: int, c: Card, trumps: str | None) -> bool:
    """True when ``c`` played by ``seat`` now would be winning the trick."""
    trial = [*plays, (seat, c)]
    best = tricks.winner(trial, _rank, trial[0][1].suit, trump=_trump_suit(trumps))
    return best == len(trial) - 1


def _choose(legal: Sequence[Action], kind: str, c: Card, arg: str | None = None) -> Action:
    for action in legal:
        if action.kind == kind and action.cards[0] == c and action.arg == arg:
            return action
    return legal[0]


def basic(obs: Observation, rng: random.Random) -> Action:
    """A rule-of-thumb move for ``obs.seat``'s partnership."""
    legal = obs.legal
    if len(legal) == 1:
        return legal[0]
    view = obs.view
    trumps: str | None = view["trumps"]
    if legal[0].kind == "refill":
        return _refill(legal, trumps)
    if view["trick"]:
        return _follow(obs, trumps)
    return _lead(obs, trumps)


def _refill(legal: Sequence[Action], trumps: str | None) -> Action:
    # A new table card may end among the dregs: a low card that is not a trump is safest.
    return min(legal, key=lambda a: (_trumpish(a.cards[0], trumps), a.cards[0].rank))


def _follow(obs: Observation, trumps: str | None) -> Action:
    view = obs.view
    seat = obs.seat
    partner = (seat + 2) % 4
    plays = [(p["seat"], parse(p["card"])) for p in view["trick"]]
    options = sorted({a.cards[0] for a in obs.legal}, key=lambda c: _cheapness(c, trumps))
    winners = [c for c in options if _wins(plays, seat, c, trumps)]
    losers = [c for c in options if c not in winners]
    current = tricks.winner(plays, _rank, plays[0][1].suit, trump=_trump_suit(trumps))
    enough = view["team_tricks"][seat % 2] >= BEST_TRICKS
    if enough:
        # Ten tricks are the best score: shed the highest card that still loses.
        pick = max(losers, key=lambda c: _cheapness(c, trumps)) if losers else winners[0]
    elif plays[current][0] == partner:
        # Never overtake a partner who is winning.
        pick = losers[0] if losers else options[0]
    elif winners:
        pick = winners[0]
    else:
        pick = options[0]
    return _choose(obs.legal, "play", pick)


def _lead(obs: Observation, trumps: str | None) -> Action:
    view = obs.view
    seat = obs.seat
    hand = [parse(c) for c in view["hand"]]
    partner_table = [parse(c) for c in view["table_cards"][(seat + 2) % 4]]
    if trumps is None:
        return _first_lead(obs.legal, hand)
    if view["team_tricks"][seat % 2] >= BEST_TRICKS:
        low = min(hand, key=lambda c: _cheapness(c, trumps))
        return _choose(obs.legal, "play", low)
    costly = [c for c in partner_table if _trumpish(c, trumps)]
    if costly:
        # Trumps left on the partner's table cost 3 points each at the end: lead them out.
        return _choose(obs.legal, "table", max(costly, key=_rank))
    played = [parse(c) for c in view["played"]]
    masters = [c for c in hand if _is_master(c, hand, played)]
    if masters:
        return _choose(obs.legal, "play", max(masters, key=lambda c: _cheapness(c, trumps)))
    low = min(hand, key=lambda c: _cheapness(c, trumps))
    return _choose(obs.legal, "play", low)


def _is_master(c: Card, hand: Sequence[Card], played: Sequence[Card]) -> bool:
    """True when no unseen card of the suit ranks above ``c``."""
    from games.finesse import PACK

    higher = [p for p in PACK if p.suit == c.suit and p.rank > c.rank]
    seen = list(played) + [h for h in hand if h != c]
    for card in higher:
        if card in seen:
            seen.remove(card)
        else:
            return False
    return True


def _first_lead(legal: Sequence[Action], hand: Sequence[Card]) -> Action:
    # The first lead names trumps: choose the suit that is longest and strongest in hand.
    def strength(suit: str) -> int:
        cards = [c for c in hand if c.suit == suit]
        return 3 * len(cards) + sum(max(0, c.rank - 10) for c in cards)

    aces = [c for c in hand if c.rank == ACE]
    longest = max(sum(1 for c in hand if c.suit == s) for s in SUITS)
    if len(aces) >= 3 and longest <= 4:
        # A balanced hand with aces: no trumps.
        return _choose(legal, "play", aces[0], "nt")
    suit = max(SUITS, key=strength)
    top = max((c for c in hand if c.suit == suit), key=_rank)
    return _choose(legal, "play", top)
