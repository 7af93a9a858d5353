"""The rule-of-thumb player of 22: keep low cards for the last trick, shed high ones early.

The card played in the final trick is the only one that can cost points, so the player
exchanges its high cards away, leads its highest cards (as a set when it has one), and when
following plays the legal cards that leave it the lowest hand: its highest cards when they beat,
otherwise the lowest cards the rules force (ducking). It always rebuys when it may.
"""

from __future__ import annotations

import random

from games.ai import Observation
from games.cards import Card, parse
from games.core import Action

# Cards of this rank and above are exchanged away (the average card is about an 8).
EXCHANGE_FROM = 10


def _rank(card: Card) -> int:
    return int(card) & 15


def _badness(rest: list[Card]) -> float:
    """How dangerous a hand is to keep: high cards count most, the last card counts most."""
    if not rest:
        return 0.0
    if len(rest) == 1:
        return 1000.0 * _rank(rest[0])
    return float(sum(_rank(c) ** 2 for c in rest)) + 10.0 * min(_rank(c) for c in rest)


def _without(hand: list[Card], cards: tuple[Card, ...]) -> list[Card]:
    rest = list(hand)
    for c in cards:
        rest.remove(c)
    return rest


def basic(obs: Observation, rng: random.Random) -> Action:
    """A sensible move of 22 from what the seat may know."""
    legal = list(obs.legal)
    if len(legal) == 1:
        return legal[0]
    view = obs.view
    kinds = {a.kind for a in legal}
    if "rebuy" in kinds:
        return next(a for a in legal if a.kind == "rebuy")
    hand = [parse(c) for c in view["hand"]]
    if "exchange" in kinds:
        # Throw the highest cards back first, as many as the stock can replace.
        high = sorted((c for c in hand if _rank(c) >= EXCHANGE_FROM), key=_rank, reverse=True)
        wanted = Action("exchange", None, tuple(high[: view["stock_count"]]))
        for action in legal:
            if action.same_as(wanted):
                return action
        return legal[0]
    if not view["trick"]:
        # Lead the highest rank, all of it when that still leaves a card in hand.
        top = max(_rank(c) for c in hand)
        group = [c for c in hand if _rank(c) == top]
        if len(group) >= len(hand):
            group = group[: len(hand) - 1]
        wanted = Action("play", None, tuple(group))
        for action in legal:
            if action.same_as(wanted):
                return action
    best: list[Action] = []
    best_score = float("inf")
    for action in legal:
        score = _badness(_without(hand, action.cards))
        if score < best_score:
            best, best_score = [action], score
        elif score == best_score:
            best.append(action)
    return rng.choice(best)
