"""The basic 1234 player: play many low cards, keep passes and aces, keep a strong hand late.

The same choice serves the basic level (from a view) and the search's playouts (from a sampled
state): :func:`pick` works on positions in the hand, so a playout builds only the one
:class:`Action` it plays.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations, permutations

from games import seats
from games.ai import Observation
from games.cards import Card, parse, standard_deck
from games.core import Action
from games.one_two_three_four import (
    _MEMBERS,
    IS_NUMBER,
    RANK,
    SUIT,
    VALUE,
    Choices,
    OneTwoThreeFourState,
    choices_for,
    is_pass,
    subset_totals,
)


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


# The rule of thumb's weights, shared by move_key and the playouts' playout_choice.
# A play: unloading many low cards refreshes the hand; aces are passes, keep them.
PLAY_BASE = 10.0
PLAY_PER_CARD = 2.0
PLAY_PER_POINT = 0.15
PLAY_PER_ACE = 6.0
PLAY_KEEPS_PASS = 3.0
# A pass is the fallback when no play fits: spend the cheapest one.
PASS_PER_POINT = 0.1
PASS_KEEPS_PASS = 2.0


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
        return (0.0, PLAY_BASE + PLAY_PER_CARD * len(spent_idx) - PLAY_PER_POINT * spent
                - PLAY_PER_ACE * aces + PLAY_KEEPS_PASS * keeps_pass)
    return (0.0, -PASS_PER_POINT * spent + PASS_KEEPS_PASS * keeps_pass)


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


# -- the search's playouts ------------------------------------------------------------------
# A playout asks the same rule of thumb at every turn of the rest of the game. Listing every
# play and pass as positions, then each choice's rest of the hand, was two thirds of a playout;
# here one pass over the hand's subsets (as bit masks) finds the plays, the passes and, for each
# choice, whether the rest still holds a pass. The choices come in the order ``choices_for``
# lists them and ties draw from the rng in that order, so a playout is the same game as
# applying ``pick``'s moves one by one (tested).


@cache
def _three_passes() -> bytearray:
    """Per three cards ``a<<12 | b<<6 | c`` (any order): 1 when they are a pass. Built on a
    search's first playout, not when the basic player is imported (about 50 ms)."""
    table = bytearray(1 << 18)
    deck = standard_deck()
    for trio in combinations(deck, 3):
        if is_pass(trio):
            for a, b, c in permutations(trio):
                table[a << 12 | b << 6 | c] = 1
    return table


# Per hand size: the positions of every three cards and every four cards, with their masks.
_TRIOS: list[list[tuple[int, tuple[int, ...]]]] = [
    [(sum(1 << i for i in idx), idx) for idx in combinations(range(n), 3)] for n in range(9)]
_QUADS: list[list[tuple[int, tuple[int, ...]]]] = [
    [(sum(1 << i for i in idx), idx) for idx in combinations(range(n), 4)] for n in range(9)]


def _passes(hand: list[Card]) -> list[tuple[int, tuple[int, ...]]]:
    """The hand's pass combinations, as (mask, positions) in ``choices_for``'s order (sorted
    positions)."""
    n = len(hand)
    found: list[tuple[int, tuple[int, ...]]] = [
        (1 << i, (i,)) for i in range(n) if RANK[hand[i]] == 14]  # a single ace
    three = _three_passes()
    found += [(m, idx) for m, idx in _TRIOS[n]
              if three[hand[idx[0]] << 12 | hand[idx[1]] << 6 | hand[idx[2]]]]
    if n >= 4:
        numbers = sorted(RANK[c] for c in hand if IS_NUMBER[c])
        if sum(1 for i in range(1, len(numbers)) if numbers[i] == numbers[i - 1]) >= 2:
            # two pairs of number cards (Decision: the pairs may share a rank)
            found += [(m, idx) for m, idx in _QUADS[n] if is_pass([hand[i] for i in idx])]
    if len(found) > 1:
        found.sort(key=lambda row: row[1])
    return found


def playout_choice(hand: list[Card], to_beat: int, late: bool,
                   rng: random.Random) -> tuple[str, tuple[int, ...]] | None:
    """``pick``'s choice (kind and positions in ``hand``) among the hand's plays and passes
    against ``to_beat``, drawing from ``rng`` as ``pick`` does; None when there is neither."""
    low, high = to_beat + 1, to_beat + 4
    val = [VALUE[c] for c in hand]
    sums = subset_totals(val)
    members = _MEMBERS[len(hand)]
    plays = [(m, members[m]) for m in range(1, len(sums)) if low <= sums[m] <= high]
    passes = _passes(hand)
    count = len(plays) + len(passes)
    if count == 0:
        return None
    if count == 1:
        return ("play", plays[0][1]) if plays else ("pass", passes[0][1])
    random_ = rng.random
    best: tuple[float, float] = (-1e9, 0.0)
    chosen: tuple[str, tuple[int, ...]] = ("play", ())
    if late:
        # Keep the highest cards: the rest of the hand, high to low, compared. Counting each
        # value in its own three bits (a hand holds at most four of a value) makes that
        # comparison one of integers: the first value from the top held more often wins.
        whole = 0
        for v in val:
            whole += 1 << 3 * v
        for kind, options in (("play", plays), ("pass", passes)):
            for _mask, idx in options:
                code = whole
                for i in idx:
                    code -= 1 << 3 * val[i]
                key = (float(code), random_())
                if key > best:
                    best, chosen = key, (kind, idx)
        return chosen
    pass_masks = [m for m, _idx in passes]
    aces = 0
    for i, c in enumerate(hand):
        if RANK[c] == 14:
            aces |= 1 << i
    for mask, idx in plays:
        score = (PLAY_BASE + PLAY_PER_CARD * len(idx) - PLAY_PER_POINT * sums[mask]
                 - PLAY_PER_ACE * (mask & aces).bit_count())
        for p in pass_masks:
            if not p & mask:
                score += PLAY_KEEPS_PASS  # the rest still holds a pass
                break
        key = (score, random_())
        if key > best:
            best, chosen = key, ("play", idx)
    for mask, idx in passes:
        score = -PASS_PER_POINT * sums[mask]
        for p in pass_masks:
            if not p & mask:
                score += PASS_KEEPS_PASS
                break
        key = (score, random_())
        if key > best:
            best, chosen = key, ("pass", idx)
    return chosen


def play_out(state: OneTwoThreeFourState, rng: random.Random) -> None:
    """Play the game on to its end with :func:`pick`'s moves for every seat, as applying them
    one by one would (the same draws from ``rng``, the same end), without building actions or
    events. The game's end is scored by the state itself (``_end_game``)."""
    if state.turn is None:
        return
    n = state.players
    hands = state.hands
    live = state.live
    stock = state.stock
    table = state.table
    turn = state.turn
    to_beat = state.to_beat
    while True:
        hand = hands[turn]
        choice = playout_choice(hand, to_beat, len(stock) <= 3 * max(sum(live), 1), rng)
        if choice is None:
            # neither a play nor a pass: the player drops out
            live[turn] = False
            turn = seats.next_in(turn, n, live, seats.COUNTER_CLOCKWISE)
            if sum(live) == 1:
                state.turn = turn
                state._end_game([live.index(True)], "last")
                return
            continue
        kind, idx = choice
        cards = tuple([hand[i] for i in idx])
        for i in reversed(idx):
            del hand[i]
        table.extend(cards)
        if kind == "play":
            to_beat = sum(VALUE[c] for c in cards)
            state.to_beat = to_beat
        state.last_play = (turn, kind, cards)
        state.draw_up(hand)
        if not stock:
            state._end_game(state.best_hands(), "stock")
            return
        turn = seats.next_in(turn, n, live, seats.COUNTER_CLOCKWISE)
        state.turn = turn
        if sum(live) == 1:
            state._end_game([live.index(True)], "last")
            return
