"""The basic 1234 player: play many low cards, keep passes and aces, keep a strong hand late."""

from __future__ import annotations

import random

from games.ai import Observation
from games.cards import Card, parse
from games.core import Action
from games.one_two_three_four import VALUE, choices_for, hand_key


def _score(action: Action, hand: list[Card], stock: int, live: int) -> tuple[float, ...]:
    """A sort key: bigger is better."""
    rest = list(hand)
    for c in action.cards:
        rest.remove(c)
    # Near the stock's end the best hand wins: keep the highest cards in hand.
    if stock <= 3 * max(live, 1):
        return (1.0, *hand_key(rest))
    keeps_pass = 1.0 if choices_for(rest, 1000)[1] else 0.0
    aces = sum(1 for c in action.cards if c.rank == 14)
    spent = sum(VALUE[c] for c in action.cards)
    if action.kind == "play":
        # Unloading many low cards refreshes the hand; aces are passes, keep them.
        value = 10.0 + 2.0 * len(action.cards) - 0.15 * spent - 6.0 * aces + 3.0 * keeps_pass
    else:
        # A pass is the fallback when no play fits; spend the cheapest one.
        value = 0.0 - 0.1 * spent + 2.0 * keeps_pass
    return (0.0, value)


def basic(obs: Observation, rng: random.Random) -> Action:
    """Choose by the rule-of-thumb score; ties broken at random."""
    view = obs.view
    hand = [parse(c) for c in view["hand"]]
    live = sum(1 for x in view["live"] if x)
    stock = int(view["stock"])
    scored = [(_score(a, hand, stock, live), rng.random(), a) for a in obs.legal]
    return max(scored, key=lambda t: (t[0], t[1]))[2]
