"""Bear's rule-of-thumb player: bids from trumps, honours and points; plays for points.

It sees only its :class:`Observation`: its hand, the trick on the table and the contract.
"""

from __future__ import annotations

import random
from itertools import combinations

from games import cards as _cards
from games import tricks
from games.ai import Observation
from games.bear import (
    BID_GAMES,
    NULL,
    PLAYERS,
    POINTS,
    SLOP,
    TABLES,
    TRUMP,
    GameTable,
    bid_rank,
    card_points,
    parse_bid,
)
from games.cards import Card
from games.core import Action


def estimate(hand: list[Card], game: str) -> int:
    """The card points this hand can hope to make as declarer in a trump game.

    Trumps win tricks (the top four, the aces and kings of spades and hearts, nearly always),
    a side ten heads its suit, and roughly half the points held come home; the kitty and the
    discards add a little.
    """
    table = TABLES[game]
    trumps = [c for c in hand if table.suit[c] == TRUMP]
    top = sum(1 for c in trumps if c in table.trumps[:4])
    side_tens = sum(1 for c in hand if c.rank == 10 and table.suit[c] != TRUMP)
    return int(0.4 * card_points(hand) + 6 * len(trumps) + 4 * top + 4 * side_tens + 3)


def null_hand(hand: list[Card]) -> bool:
    """True when the hand is low enough for Null once its two highest cards are discarded."""
    kept = sorted(hand, key=lambda c: c.rank)[:-2]
    return sum(max(0, c.rank - 7) for c in kept) <= 1


# The basic player bids up to its estimate less this many points.
MARGIN = 15
# The search player bids closer to its estimate: it plays the cards better than the players
# the estimate was tuned on (measured in docs/ai.md, fourth round).
BOLD_MARGIN = 10


def choose_bid(hand: list[Card], legal: tuple[Action, ...], margin: int = MARGIN) -> Action:
    """The highest bid this hand is worth (its estimate less ``margin``) that is still legal,
    or a pass."""
    best_game = max(BID_GAMES, key=lambda g: estimate(hand, g))
    worth = (estimate(hand, best_game) // 5) * 5 - margin
    wanted: list[tuple[int, Action]] = []
    for action in legal:
        if action.kind != "bid":
            continue
        number, game = parse_bid(action.arg)
        if number is None:
            if null_hand(hand):
                wanted.append((bid_rank(None), action))
        elif game == best_game and number <= min(worth, 100):
            wanted.append((number, action))
    if not wanted:
        return Action("pass")
    return max(wanted, key=lambda pair: pair[0])[1]


def choose_discard(hand: list[Card], game: str) -> Action:
    """Two cards to lay away: in Null the most dangerous high cards; else side points.

    The discards' points count for the declarer, so side tens and fives are safest there.
    """
    table = TABLES[game]
    if game == NULL:
        order = sorted(hand, key=lambda c: (-c.rank, c))
    else:
        order = sorted(hand, key=lambda c: (table.suit[c] == TRUMP, -POINTS[c],
                                            table.strength[c], c))
    return Action("discard", None, tuple(order[:2]))


def discard_shortlist(hand: list[Card], game: str) -> list[Action]:
    """The discards worth comparing, the basic one first: in Null two of the six highest
    cards; else two side cards (trumps too when fewer than two side cards are left)."""
    table = TABLES[game]
    first = choose_discard(hand, game)
    if game == NULL:
        pool = sorted(hand, key=lambda c: (-c.rank, c))[:6]
    else:
        side = [c for c in hand if table.suit[c] != TRUMP]
        pool = side if len(side) >= 2 else sorted(hand, key=lambda c: table.strength[c])[:4]
    pairs = [Action("discard", None, (a, b)) for a, b in combinations(sorted(pool), 2)]
    return [first] + [p for p in pairs if not p.same_as(first)]


def _trick(obs: Observation) -> list[tuple[int, Card]]:
    return [(t["seat"], _cards.parse(t["card"])) for t in obs.view["trick"]]


def _wins(plays: list[tuple[int, Card]], seat: int, card: Card, table: GameTable) -> bool:
    """True when ``card`` would be winning the trick after ``plays``."""
    trial = [*plays, (seat, card)]
    led = table.suit[trial[0][1]]
    return tricks.winner(trial, table.power, led, table.suit_of, table.trump) == len(plays)


def choose_play(obs: Observation) -> Action:
    """The card to play."""
    view = obs.view
    game = view["contract"]["game"]
    table = TABLES[game]
    me = obs.seat
    declarer = view["declarer"]
    plays = _trick(obs)
    hand = [a.cards[0] for a in obs.legal]
    strength = table.strength

    def low(cards: list[Card]) -> Card:
        return min(cards, key=lambda c: (POINTS[c], strength[c], c))

    def by_action(card: Card) -> Action:
        return next(a for a in obs.legal if a.cards[0] == card)

    if game == NULL:
        return by_action(_null_play(plays, me, declarer, hand, table))
    if game == SLOP:
        return by_action(_slop_play(plays, me, hand, table))
    if not plays:
        trumps = [c for c in hand if table.suit[c] == TRUMP]
        if me == declarer and len(trumps) >= 3:
            return by_action(max(trumps, key=lambda c: strength[c]))
        side = [c for c in hand if table.suit[c] != TRUMP]
        return by_action(low(side or hand))
    led = table.suit[plays[0][1]]
    current = plays[tricks.winner(plays, table.power, led, table.suit_of, table.trump)]
    last = len(plays) == PLAYERS - 1
    declarer_played = any(s == declarer for s, _ in plays)
    friend_winning = me != declarer and current[0] != declarer
    if friend_winning and (last or declarer_played or strength[current[1]] >= 97):
        # smear: the partner of the moment holds the trick, so give it points
        return by_action(max(hand, key=lambda c: (POINTS[c], -strength[c], c)))
    if friend_winning:
        return by_action(low(hand))
    winners = [c for c in hand if _wins(plays, me, c, table)]
    if winners:
        if last:
            return by_action(max(winners, key=lambda c: (POINTS[c], -strength[c], c)))
        return by_action(max(winners, key=lambda c: (strength[c], c)))
    return by_action(low(hand))


def _null_play(plays: list[tuple[int, Card]], me: int, declarer: int,
               hand: list[Card], table: GameTable) -> Card:
    strength = table.strength
    if me == declarer:
        if not plays:
            return min(hand, key=lambda c: (strength[c], c))
        losers = [c for c in hand if not _wins(plays, me, c, table)]
        if losers:
            return max(losers, key=lambda c: (strength[c], c))
        return max(hand, key=lambda c: (strength[c], c))
    # a defender keeps low, so that the declarer's card stays on top
    return min(hand, key=lambda c: (strength[c], c))


def _slop_play(plays: list[tuple[int, Card]], me: int, hand: list[Card],
               table: GameTable) -> Card:
    strength = table.strength
    if not plays:
        return min(hand, key=lambda c: (POINTS[c], strength[c], c))
    losers = [c for c in hand if not _wins(plays, me, c, table)]
    if losers:
        # dump the most points on whoever is taking the trick
        return max(losers, key=lambda c: (POINTS[c], strength[c], c))
    return min(hand, key=lambda c: (POINTS[c], -strength[c], c))


def basic(obs: Observation, rng: random.Random) -> Action:
    """Bear's basic move for this observation."""
    if len(obs.legal) == 1:
        return obs.legal[0]
    phase = obs.view["phase"]
    hand = [_cards.parse(c) for c in obs.view["hand"]]
    if phase == "bid":
        return choose_bid(hand, obs.legal)
    if phase == "discard":
        wanted = choose_discard(hand, obs.view["contract"]["game"])
        return next(a for a in obs.legal if a.same_as(wanted))
    return choose_play(obs)


def bold(obs: Observation, rng: random.Random) -> Action:
    """The search player's rule of thumb: the basic player's, bidding closer to its estimate."""
    if obs.view["phase"] == "bid" and len(obs.legal) > 1:
        hand = [_cards.parse(c) for c in obs.view["hand"]]
        return choose_bid(hand, obs.legal, BOLD_MARGIN)
    return basic(obs, rng)
