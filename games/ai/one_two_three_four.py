"""The basic 1234 player: play many low cards, keep passes and aces, keep a strong hand late.

The same choice serves the basic level (from a view) and the search's playouts (from a sampled
state): :func:`pick` works on positions in the hand, so a playout builds only the one
:class:`Action` it plays.
"""

from __future__ import annotations

import random

from games.ai import Observation
from games.cards import Card, parse
from games.core import Action
from games.one_two_three_four import IS_NUMBER, RANK, SUIT, VALUE, Choices, choices_for


def has_pass(cards: list[Card]) -> bool:
    """True when ``cards`` hold at least one pass combination (the same test as a non-empty
    ``choices_for(cards, ...)[1]``, without listing them)."""
    suits = [0] * 8
    ranks = [0] * 16
    court = False
    for c in cards:
        r = RANK[c]
        if r == 14:
            return True  # a single ace
        s = SUIT[c]
        suits[s] += 1
        ranks[r] += 1
        if suits[s] >= 3 or ranks[r] >= 3:
            return True  # three of a suit, three of a rank
        if not IS_NUMBER[c]:
            court = True
    pairs = sum(ranks[r] // 2 for r in range(2, 11))
    # two number cards of a rank plus a court; two pairs of number cards
    return pairs >= 2 or (pairs >= 1 and court)


def move_key(kind: str, spent_idx: tuple[int, ...], hand: list[Card],
             late: bool) -> tuple[float, ...]:
    """A sort key for putting down the cards at ``spent_idx``: bigger is better."""
    rest = [c for i, c in enumerate(hand) if i not in spent_idx]
    # Near the stock's end the best hand wins: keep the highest cards in hand.
    if late:
        return (1.0, *sorted((VALUE[c] for c in rest), reverse=True))
    keeps_pass = 1.0 if has_pass(rest) else 0.0
    spent = 0
    aces = 0
    for i in spent_idx:
        spent += VALUE[hand[i]]
        aces += RANK[hand[i]] == 14
    if kind == "play":
        # Unloading many low cards refreshes the hand; aces are passes, keep them.
        return (0.0, 10.0 + 2.0 * len(spent_idx) - 0.15 * spent - 6.0 * aces + 3.0 * keeps_pass)
    # A pass is the fallback when no play fits; spend the cheapest one.
    return (0.0, -0.1 * spent + 2.0 * keeps_pass)


def pick(hand: list[Card], choices: Choices, stock: int, live: int,
         rng: random.Random) -> Action:
    """The rule-of-thumb move among ``choices`` (plays, then passes, as positions in
    ``hand``); ties broken at random."""
    late = stock <= 3 * max(live, 1)
    plays, passes = choices
    best: tuple[tuple[float, ...], float] | None = None
    chosen: tuple[str, tuple[int, ...]] = ("play", ())
    for kind, options in (("play", plays), ("pass", passes)):
        for idx in options:
            key = (move_key(kind, idx, hand, late), rng.random())
            if best is None or key > best:
                best, chosen = key, (kind, idx)
    kind, idx = chosen
    return Action(kind, None, tuple([hand[i] for i in idx]))


def basic(obs: Observation, rng: random.Random) -> Action:
    """Choose by the rule-of-thumb score; ties broken at random."""
    view = obs.view
    hand = [parse(c) for c in view["hand"]]
    live = sum(1 for x in view["live"] if x)
    stock = int(view["stock"])
    action = pick(hand, choices_for(hand, int(view["number_to_beat"])), stock, live, rng)
    # the view's legal list and the hand's choices are the same set
    return next(a for a in obs.legal if a.same_as(action))
