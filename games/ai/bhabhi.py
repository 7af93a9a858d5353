"""The rule-of-thumb player for Getaway (Bhabhi): stay under the highest card, shed high cards."""

from __future__ import annotations

import random

from games.ai import Observation
from games.cards import Card, parse
from games.core import Action


def _suit(card: Card) -> int:
    return int(card) >> 4


def basic(obs: Observation, rng: random.Random) -> Action:
    """Follow under the current highest card when possible, dump high cards when void, lead
    the low cards of short suits, never take a hand, never interject, draw from the discards."""
    legal = list(obs.legal)
    view = obs.view
    for a in legal:
        if a.kind == "decline":
            # Interjecting means picking up every card on the table: never worth it here.
            return a
    plays = [a for a in legal if a.kind == "play"]
    if not plays:
        draws = [a for a in legal if a.kind == "draw"]
        if draws:
            # Drawing from a player could empty their hand and make them safe; the discards
            # cannot help anyone else.
            for a in draws:
                if a.arg == "discards":
                    return a
            counts = view["hand_counts"]
            return max(draws, key=lambda a: counts[int(a.arg or 0)])
        others = [a for a in legal if a.kind != "take"]
        return others[0] if others else rng.choice(legal)
    if len(plays) == 1:
        return plays[0]
    cards = [a.cards[0] for a in plays]
    trick = view["trick"]
    if view["phase"] == "shootout":
        # The follower wants the turned card to be higher: play the lowest card of the suit.
        return plays[cards.index(min(cards, key=lambda c: c.rank))]
    if not trick:
        return plays[cards.index(_lead_choice(cards))]
    led = _suit(parse(trick[0]["card"]))
    following = [c for c in cards if _suit(c) == led]
    if not following:
        # Void: the round ends now, so shed the highest card held.
        return plays[cards.index(max(cards, key=lambda c: (c.rank, -_suit(c))))]
    best = max(parse(p["card"]) for p in trick if _suit(parse(p["card"])) == led)
    under = [c for c in following if c < best]
    if under:
        return plays[cards.index(max(under))]
    # Every card of ours is higher: if we play last the cards are discarded, so shed the
    # highest; otherwise play the lowest and hope someone later beats it.
    players_in = sum(1 for s, live in enumerate(view["live"]) if live and view["hand_counts"][s])
    if len(trick) + 1 >= players_in:
        return plays[cards.index(max(following))]
    return plays[cards.index(min(following))]


def _lead_choice(cards: list[Card]) -> Card:
    """The lowest card of the shortest suit: voids let us shed high cards later."""
    by_suit: dict[int, list[Card]] = {}
    for c in cards:
        by_suit.setdefault(_suit(c), []).append(c)
    shortest = min(by_suit.values(), key=lambda group: (len(group), min(group).rank))
    return min(shortest)


#: the highest rank of a card a computer takes from another hand (ranks 2..14)
TAKE_AT_MOST = 5


def out_of_turn(obs: Observation, rng: random.Random) -> Action | None:
    """Weigh a take while the take window is open (``take_hand``), for a seat not due to lead.

    A take adds the target's cards to ours and lets the target out at once, so it is nearly
    always a loss: the rule of thumb takes only a hand of one low card (at most a 5) of a suit
    we hold, a card easy to shed under anyone's follow, and otherwise lets the window pass.
    """
    takes = [a for a in obs.legal if a.kind == "take"]
    if not takes:
        return None
    view = obs.view
    counts = view["hand_counts"]
    mine = [parse(c) for c in view["hand"]]
    for action in sorted(takes, key=lambda a: int(a.arg or 0)):
        target = int(action.arg or 0)
        if counts[target] != 1:
            continue
        known = [parse(c) for c in view["known"][target]]  # its cards seen picked up
        if len(known) == 1 and known[0].rank <= TAKE_AT_MOST and any(
                _suit(c) == _suit(known[0]) for c in mine):
            return action
    return None
