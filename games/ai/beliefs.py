"""What a seat can infer from how the others played, for the search player's samples.

``determinize`` keeps what a seat *knows* (its hand, the cards shown, the voids). A player who
plays by a rule of thumb also tells more: a Spar player who throws a queen on a trick they
cannot win holds no lower card they would rather have thrown. A belief reads the public history
once per move, asks of each of the others' plays "which cards could this seat not have held if
it played by the basic player's rules", and then re-deals each sample's hidden cards so that no
seat holds a card it could not have held.

A seat whose own later plays contradict such an inference does not play by those rules (a
person, another search player): nothing is inferred about it. When a sample cannot satisfy the
inferences (rare, and only for such players) it is used as ``determinize`` made it.

Beliefs read only public fields of a sampled state (the played cards and who played them, the
trick, the voids shown) and re-deal only cards the seat cannot see: they never use a hidden card.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.ai import Observation
from games.ai.search import Refiner
from games.cards import Card
from games.core import State

# A card a seat could not have held at the moment of one of its plays.
Forbids = Callable[[Card], bool]

TRIES = 12


def spar_belief(obs: Observation) -> Refiner | None:
    """Spar (the Ghanaian member, every card face up): the basic player's plays bound its hand.

    The basic player throws its weakest card that is not a 6 or 7 (those score more when they
    win the last trick), leads high on the second-to-last trick and wins it with its highest
    card when it can. Each play thus rules cards out: the ones it would have played instead.
    """
    base: Any = obs.sample(random.Random(0))  # public fields only
    if base.variant_name != "spar" or base.phase != "play" or any(base.thrown):
        return None
    forbidden = spar_forbidden(base, obs.seat)
    if not any(forbidden.values()):
        return None
    return redeal_with(obs.seat, forbidden, base)


def spar_forbidden(state: Any, me: int) -> dict[int, frozenset[Card]]:
    """For each other seat playing by the basic rules, the cards it cannot hold now."""
    n = state.players
    strength: list[int] = state.strength
    keepers = (6, 7)
    size = state.hand_size
    # every play of the deal so far: (trick number, seat, card, the cards before it)
    plays: list[tuple[int, int, Card, list[Card]]] = []
    for t in range(len(state.pile) // n):
        chunk = list(zip(state.pile_seats[t * n:(t + 1) * n], state.pile[t * n:(t + 1) * n],
                         strict=True))
        for i, (s, c) in enumerate(chunk):
            plays.append((t + 1, s, c, [x for _s, x in chunk[:i]]))
    for i, (s, c, _up) in enumerate(state.trick):
        plays.append((state.trick_number, s, c, [x for _s, x, _u in state.trick[:i]]))

    def cheapest(p: Card, suit: str | None) -> Forbids:
        # p was the weakest card (of the suit, if given) that is not a keeper, or all were
        ps = strength[p]
        if p.rank in keepers:
            return lambda c: ((suit is None or c.suit == suit)
                              and (c.rank not in keepers or strength[c] < ps))
        return lambda c: ((suit is None or c.suit == suit) and c.rank not in keepers
                          and strength[c] < ps)

    def above(limit: int, suit: str | None) -> Forbids:
        # a card (of the suit, if given) stronger than the limit
        return lambda c: (suit is None or c.suit == suit) and strength[c] > limit

    rules: dict[int, list[Forbids]] = {s: [] for s in range(n) if s != me}
    broken: set[int] = set()
    for k, (number, s, p, before) in enumerate(plays):
        if s == me or s in broken:
            continue
        left = size - number
        if left == 0:
            continue  # one card left: no choice
        forbids: list[Forbids] = []
        ps = strength[p]
        if not before:
            # early leads are the cheapest card, the second-to-last lead the highest
            forbids.append(cheapest(p, None) if left >= 2 else above(ps, None))
        else:
            led = before[0].suit
            top = max(strength[x] for x in before if x.suit == led)
            if p.suit != led:
                forbids.append(cheapest(p, None))
            elif left == 1 and ps > top:
                # won the second-to-last trick with its highest card of the suit
                forbids.append(above(ps, led))
            else:
                if left == 1:
                    forbids.append(above(top, led))  # could not win the second-to-last trick
                forbids.append(cheapest(p, led))
        later = [c for _n, x, c, _b in plays[k + 1:] if x == s]
        if any(f(c) for f in forbids for c in later):
            broken.add(s)  # its own later cards say it does not play by these rules
            continue
        rules[s].extend(forbids)
    return ruled_out(state.pack(), rules, broken)


def ruled_out(pack: list[Card], rules: dict[int, list[Forbids]],
              broken: set[int]) -> dict[int, frozenset[Card]]:
    """Each seat's cards of the pack that one of its rules forbids (none for a seat that
    broke the rules)."""
    return {s: (frozenset() if s in broken
                else frozenset(c for c in pack if any(f(c) for f in fs)))
            for s, fs in rules.items()}


def redeal_with(me: int, forbidden: dict[int, frozenset[Card]], base: Any) -> Refiner:
    """Re-deal the others' hands and the undealt cards of a Spar sample so that no seat holds
    a card forbidden to it (nor a card of a suit it showed it lacks).

    The unseen cards, the voids and the hand sizes are the same in every sample of a move, so
    each seat's banned cards and the order the seats are served in are worked out once, from
    ``base``.
    """
    others = [x for x in range(base.players) if x != me]
    wants = {x: len(base.hands[x]) for x in others}
    stock = base.stock[:-1] if base.peeked is not None else base.stock
    unseen = [c for x in others for c in base.hands[x]] + list(stock)
    banned = {x: frozenset(c for c in unseen if c.suit in base.voids[x])
              | forbidden.get(x, frozenset()) for x in others}
    order = serving_order(unseen, wants, banned)

    def refine(state: State, rng: random.Random) -> State:
        s: Any = state
        keep_bottom = s.peeked is not None
        stock_cards = s.stock[:-1] if keep_bottom else list(s.stock)
        pool: list[Card] = [c for x in others for c in s.hands[x]] + stock_cards
        dealt = deal_avoiding(pool, wants, banned, order, rng)
        if dealt is not None:
            rest, hands = dealt
            for x, cards in hands.items():
                s.hands[x] = cards
            s.stock = rest + ([s.stock[-1]] if keep_bottom else [])
        return state

    return refine


def bhabhi_belief(obs: Observation) -> Refiner | None:
    """Getaway: the basic player follows under the highest card on the table, sheds its
    highest card when it cannot follow and leads the lowest card of a suit.

    Without the options that move whole hands or draw cards, the cards of a hand that nobody
    has seen are all from the deal, so what a play says of the hand then still holds for them.
    """
    base: Any = obs.sample(random.Random(0))  # public fields only
    if base.take_mode or base.taker_stays or base.full_first or base.secret:
        return None
    forbidden = bhabhi_forbidden(base, obs.seat)
    if not any(forbidden.values()):
        return None
    return redeal_unknown(obs.seat, forbidden, base)


def bhabhi_forbidden(state: Any, me: int) -> dict[int, frozenset[Card]]:
    """For each other seat playing by the basic rules, the unseen cards it cannot hold."""
    from games.bhabhi import DISCARDED, PICKED_UP

    n = state.players
    picked: dict[int, set[int]] = {s: set() for s in range(n)}
    # every play in a round's main part: (index in record, seat, card, table before it)
    plays: list[tuple[int, int, int, list[int]]] = []
    broken: set[int] = set()
    table: list[int] = []
    ended = False  # somebody failed to follow: a further play is an interjection
    for i, (seat, card) in enumerate(state.record):
        if card == PICKED_UP:
            picked[seat].update(table)
            table, ended = [], False
        elif card == DISCARDED:
            table, ended = [], False
        else:
            if ended:
                broken.add(seat)  # the basic player never interjects
            elif table and card >> 4 != table[0] >> 4:
                ended = True
            plays.append((i, seat, card, list(table)))
            table.append(card)
    rules: dict[int, list[Forbids]] = {s: [] for s in range(n) if s != me}
    for k, (_i, s, p, before) in enumerate(plays):
        if s == me or s in broken:
            continue
        forbids: list[Forbids] = []
        suit = p >> 4
        if not before:
            if k > 0:  # (the first lead is the ace of spades, whoever holds it)
                forbids.append(_lower_of_suit(p))  # the lowest card of the suit it led
        else:
            led = before[0] >> 4
            best = max(c for c in before if c >> 4 == led)
            if suit != led:
                forbids.append(_shed_above(p))  # its highest card went
            elif p < best:
                forbids.append(_between(p, best))  # the highest card under the table's
            else:
                forbids.append(_between(led << 4, best))  # nothing under the table's
        later = [c for _j, x, c, _b in plays[k + 1:] if x == s and c not in picked[s]]
        if any(f(Card(c)) for f in forbids for c in later):
            broken.add(s)
            continue
        rules[s].extend(forbids)
    return ruled_out(state.pack(), rules, broken)


def _lower_of_suit(p: int) -> Forbids:
    return lambda c: c >> 4 == p >> 4 and c < p


def _between(low: int, high: int) -> Forbids:
    # a card of the same suit strictly between the two (low may be the suit's base)
    return lambda c: c >> 4 == high >> 4 and low < c < high


def _shed_above(p: int) -> Forbids:
    # the basic player sheds the highest rank, the lower suit first among equal ranks
    key = (p & 15, -(p >> 4))
    return lambda c: (c & 15, -(c >> 4)) > key


def redeal_unknown(me: int, forbidden: dict[int, frozenset[Card]], base: Any) -> Refiner:
    """Re-deal the cards of the others' hands that nobody has seen (Getaway: every card not
    picked up from the table) so that no seat gets a card forbidden to it or of a suit it
    showed it lacks.

    Which cards are unseen, the voids and the hand sizes are the same in every sample of a
    move: each seat's banned cards and the serving order are worked out once, from ``base``.
    """
    holders = [x for x in range(base.players) if x != me and base.hands[x]]
    seen = {x: frozenset(base.known[x]) for x in holders}
    wants = {x: sum(1 for c in base.hands[x] if c not in seen[x]) for x in holders}
    unseen = [c for x in holders for c in base.hands[x] if c not in seen[x]]
    banned = {x: frozenset(c for c in unseen if (base.voids[x] >> (c >> 4)) & 1)
              | forbidden.get(x, frozenset()) for x in holders}
    order = serving_order(unseen, wants, banned)

    def refine(state: State, rng: random.Random) -> State:
        s: Any = state
        fixed = {x: [c for c in s.hands[x] if c in seen[x]] for x in holders}
        pool = [c for x in holders for c in s.hands[x] if c not in seen[x]]
        dealt = deal_avoiding(pool, wants, banned, order, rng)
        if dealt is not None:
            for x, cards in dealt[1].items():
                s.hands[x] = sorted(fixed[x] + cards)
        return state

    return refine


def serving_order(pool: list[Card], wants: dict[int, int],
                  banned: dict[int, frozenset[Card]]) -> list[int]:
    """The seats of ``wants``, those with the fewest cards of ``pool`` allowed first."""
    return sorted(wants, key=lambda x: sum(1 for c in pool if c not in banned[x]))


def deal_avoiding(pool: list[Card], wants: dict[int, int], banned: dict[int, frozenset[Card]],
                  order: list[int], rng: random.Random
                  ) -> tuple[list[Card], dict[int, list[Card]]] | None:
    """Deal ``wants[seat]`` cards of ``pool`` to each seat, none of its banned cards, serving
    the seats in ``order``: the cards left over and each seat's cards, or None when a few
    random tries all fail."""
    for _ in range(TRIES):
        rest = list(pool)
        rng.shuffle(rest)
        dealt: dict[int, list[Card]] = {}
        for x in order:
            want = wants[x]
            mine: list[Card] = []
            kept: list[Card] = []
            for c in rest:
                if len(mine) < want and c not in banned[x]:
                    mine.append(c)
                else:
                    kept.append(c)
            if len(mine) < want:
                break
            dealt[x] = mine
            rest = kept
        else:
            return rest, dealt
    return None
