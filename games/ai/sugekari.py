"""The rule-of-thumb player of Sugekari 21: plays for its side and knows its partner.

It makes 21 when it can, does not leave an easy 21 to the opponent on its left, lets a round
its partner holds ride, keeps a non-minus card to go out with, and holds its jokers back.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games import cards as _cards
from games.ai import Observation
from games.core import Action
from games.sugekari import COPY_NAMES, JOKER_PENALTY, LIMIT, is_minus, value

_NAME_VALUE = {name: (1 if rank == 14 else rank) for rank, name in COPY_NAMES.items()}


def basic(obs: Observation, rng: random.Random) -> Action:
    """A sensible move for ``obs.seat``; always one of ``obs.legal``."""
    legal = list(obs.legal)
    if len(legal) == 1:
        return legal[0]
    view = obs.view
    if view["phase"] == "discard":
        return _discard(legal)
    if view["phase"] == "exchange":
        return _exchange(view, legal)
    scored = [(_score(view, action), rng.random(), i) for i, action in enumerate(legal)]
    return legal[max(scored)[2]]


def _discard(legal: list[Action]) -> Action:
    # A discarded joker can never cost the side 5; otherwise drop the weakest minus card.
    def weight(action: Action) -> tuple[int, int]:
        card = action.cards[0]
        return (1 if card.is_joker else 0, -value(card))

    return max(legal, key=weight)


def _exchange(view: Any, legal: list[Action]) -> Action:
    seat = view["seat"]
    target = (seat + view["exchange_offset"]) % view["players"]
    to_partner = target != seat and (target - seat) % 2 == 0

    def weight(action: Action) -> float:
        values = [value(c) for c in action.cards]
        if any(c.is_joker for c in action.cards):
            # A joker is a liability to whoever captures it: give it to the opponents.
            return -100.0 if to_partner else 100.0
        # Small number cards help a partner make 21; the opponents get the big ones.
        return -sum(abs(v) for v in values) if to_partner else float(sum(values))

    return max(legal, key=weight)


def _unseen(view: Any) -> Counter[int]:
    """How many cards of each value this seat has not seen yet."""
    seen: Counter[int] = Counter()
    codes = list(view["hand"]) + [e["card"] for e in view["round"]] + view["out_of_play"]
    for pile in view["captured"]:
        codes += pile
    for shown in view["shown"]:
        codes += shown
    for code in codes:
        card = _cards.parse(code)
        if not card.is_joker:
            seen[value(card)] += 1
    return Counter({v: 4 - seen[v] for v in (-3, -2, -1, *range(1, 11))})


def _score(view: Any, action: Action) -> float:
    seat = view["seat"]
    players = view["players"]
    side = seat & 1
    last = view["last"]
    total = view["total"]
    round_cards = [_cards.parse(e["card"]) for e in view["round"]]
    pile = sum(JOKER_PENALTY if c.is_joker else 1 for c in round_cards)
    ours = last is not None and last & 1 == side
    if action.kind == "pass":
        # Let a round the side holds ride; an opponent's round should be fought for.
        return 2.0 + pile if ours else -1.0 - pile
    card = action.cards[0]
    hand = [_cards.parse(c) for c in view["hand"]]
    rest = list(hand)
    rest.remove(card)
    if card.is_joker:
        add = 0 if action.arg == "half" else _NAME_VALUE[action.arg or "A"]
        after = total // 2 if action.arg == "half" else total + add
        gain = pile + JOKER_PENALTY
    else:
        after = total + value(card)
        gain = pile + 1
    if not rest:
        # Going out ends the game: the side takes half this round (a joker first).
        jokers = sum(1 for c in [*round_cards, card] if c.is_joker)
        keep = (len(round_cards) + 2) // 2
        half = min(jokers, keep) * JOKER_PENALTY + (keep - min(jokers, keep))
        mine, theirs = view["side_scores"][side], view["side_scores"][1 - side]
        return 1000.0 if mine + half >= theirs else -50.0
    score = 0.0
    if after == LIMIT:
        return 100.0 + 10.0 * gain if gain > 0 else -10.0
    if ours and last != seat and players == 4:
        score -= 15.0  # the partner holds this round: do not spend its room
    elif not ours and round_cards:
        score += max(gain, 0)
    if all(is_minus(c) or c.is_joker for c in rest):
        score -= 30.0  # keep a card that may go out
    if card.is_joker:
        score -= 8.0
    need = LIMIT - after
    used = {value(c) for c in round_cards if not c.is_joker}
    if not card.is_joker:
        used.add(value(card))
    if 1 <= need <= 10 and need not in used:
        unseen = _unseen(view)[need]
        if unseen > 0:
            score -= 12.0 + 4.0 * unseen  # an easy 21 for the opponent on the left
    score += 0.3 * value(card) if not card.is_joker else 0.0
    return score
