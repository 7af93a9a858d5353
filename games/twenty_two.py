"""22 (Twenty-Two), the American member of the Cucumber family (docs/rules/twenty-two.md).

Nobody wants the last trick of a deal: its winner takes the card they played there as penalty
points, and a player whose penalty reaches 22 (30 with ``scoring="cucumber"``) is out. The last
player left in wins.

Actions (text forms):

- ``exchange`` keeps the hand; ``exchange:<cards>`` discards those cards face down and draws as
  many from the stock (the exchange round, dealer's left first, once round).
- ``play:<cards>`` leads one card or a set of one rank, or follows with as many cards as led.
- ``rebuy`` / ``out``: with option ``rebuy``, a player whose total would put them out answers
  whether to pay one more stake and stay (penalty back to what it was before that deal) or to go
  out. Several such players answer in any order; the deal ends when all have answered.

The final trick (everyone holding one card) is played automatically inside :meth:`apply`, as are
eliminations, the end of the game and the next deal.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from games.cards import (
    RANKS,
    Card,
    hand_suits,
    show,
    show_codes,
    standard_deck,
)
from games.core import (
    Action,
    Entry,
    Event,
    IllegalAction,
    Msg,
    Option,
    OptionError,
    OptionValue,
    Outcome,
    Rules,
    State,
    View,
    check_deck,
    count_msg,
    msg,
    reseeded,
    seat_name,
    seat_option,
)
from games.wording import text

_ALL = standard_deck()
# Inside a state a card is its plain number (``int(card)``): plain ints make the hand-written
# clone and any snapshot of the state cheap. Cards become Card objects again at the edges
# (actions, events, views, zones).
Id = int
_C: dict[int, Card] = {int(c): c for c in _ALL}
_CODE: dict[int, str] = {int(c): str(c) for c in _ALL}
_PACKS: dict[int, list[Id]] = {1: [int(c) for c in _ALL], 2: [int(c) for c in _ALL] * 2}
# Sort key: rank first (low to high), then the card's own number, so hands have one order.
_KEY: dict[int, int] = {int(c): (int(c) & 15) * 128 + int(c) for c in _ALL}
_KEYF = _KEY.__getitem__
_MASK = (1 << 64) - 1


class SplitMix(random.Random):
    """A seeded generator with a one-number state (SplitMix64), so that copying a state is
    cheap; it offers all of :class:`random.Random` through ``random`` and ``getrandbits``."""

    _s: int

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Start from ``a`` (a number; None: from the system's entropy)."""
        if a is None:
            a = random.SystemRandom().getrandbits(64)
        self._s = hash(a) & _MASK if not isinstance(a, int) else a & _MASK
        self.gauss_next = None

    def _next(self) -> int:
        z = self._s = (self._s + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def random(self) -> float:
        """A float in [0, 1)."""
        return (self._next() >> 11) * (1.0 / 9007199254740992.0)

    def getrandbits(self, k: int) -> int:
        """A number of ``k`` random bits."""
        if k <= 64:
            return self._next() >> (64 - k)
        value = 0
        for shift in range(0, k, 64):
            value |= self._next() << shift
        return value & ((1 << k) - 1)

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        """Shuffle a list in place (Fisher–Yates, one step of the generator per card)."""
        z = self._s
        for i in range(len(x) - 1, 0, -1):
            z = (z + 0x9E3779B97F4A7C15) & _MASK
            v = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            v = ((v ^ (v >> 27)) * 0x94D049BB133111EB) & _MASK
            j = ((v ^ (v >> 31)) * (i + 1)) >> 64
            x[i], x[j] = x[j], x[i]
        self._s = z

    def getstate(self) -> Any:
        """The whole state: one number."""
        return (self._s,)

    def setstate(self, state: Any) -> None:
        """Restore a state from :meth:`getstate`."""
        self._s = state[0]
# Penalty values (section "Players and cards"; the Cucumber scale of the rebuy section).
_VALUE_22: dict[int, int] = {r: (11 if r == 14 else 10 if r >= 11 else r) for r in range(2, 15)}
_VALUE_CUCUMBER: dict[int, int] = {r: r for r in range(2, 15)}
_KEEP = Action("exchange")
_REBUY = Action("rebuy")
_OUT = Action("out")


def _rank(card: Card) -> int:
    return int(card) & 15


def _rank_text(rank: int) -> str:
    return RANKS[rank - 2]


def _cards(ids: Sequence[Id]) -> tuple[Card, ...]:
    return tuple([_C[x] for x in ids])


def _codes(ids: Sequence[Id]) -> list[str]:
    return [_CODE[x] for x in ids]


def beats(play: Sequence[Card | Id], to_beat: Sequence[Card | Id]) -> bool:
    """True when ``play`` pairs one to one with ``to_beat``, each card equal or higher.

    Section 4, Follow: sorted high to low, the play's i-th card ≥ the i-th card to beat.
    """
    if len(play) != len(to_beat):
        return False
    mine = sorted((int(c) & 15 for c in play), reverse=True)
    theirs = sorted((int(c) & 15 for c in to_beat), reverse=True)
    return all(a >= b for a, b in zip(mine, theirs, strict=True))


def _take(hand: Sequence[Id], cards: Sequence[Card]) -> list[Id] | None:
    """The hand without ``cards`` (as a multiset), or None when it does not hold them all."""
    rest = list(hand)
    for c in cards:
        try:
            rest.remove(c)
        except ValueError:
            return None
    return rest


def _unique_combos(cards: Sequence[Id], size: int, dups: bool) -> list[tuple[Id, ...]]:
    found = combinations(cards, size)
    return list(dict.fromkeys(found)) if dups else list(found)


def _weighted(weights: list[int], rng: random.Random) -> int:
    """An index drawn with probability proportional to its weight."""
    pick = rng.randrange(sum(weights))
    for i, w in enumerate(weights):
        if pick < w:
            return i
        pick -= w
    raise AssertionError("weights ran out")


def _random_submultiset(hand: list[Id], limit: int, rng: random.Random,
                        dups: bool) -> list[Id]:
    """A uniformly random sub-multiset of ``hand`` with at most ``limit`` cards."""
    h = len(hand)
    counts = Counter(hand) if dups else dict.fromkeys(hand, 1)
    if limit >= h and len(counts) == h:
        mask = rng.getrandbits(h) if h else 0
        return [hand[i] for i in range(h) if mask >> i & 1]
    items = list(counts.items())
    # suffix[i][s]: ways to choose s cards from items i.. (a product of 1 + x + ... + x^m).
    suffix: list[list[int]] = [[1]]
    for _card, m in reversed(items):
        prev = suffix[-1]
        poly = [0] * (len(prev) + m)
        for s, ways in enumerate(prev):
            for j in range(m + 1):
                poly[s + j] += ways
        suffix.append(poly)
    suffix.reverse()
    top = suffix[0]
    sizes = range(min(limit, len(top) - 1) + 1)
    size = _weighted([top[s] for s in sizes], rng)
    chosen: list[Id] = []
    left = size
    for i, (card, m) in enumerate(items):
        after = suffix[i + 1]
        weights = [after[left - j] if left - j < len(after) else 0
                   for j in range(min(m, left) + 1)]
        j = _weighted(weights, rng)
        chosen.extend([card] * j)
        left -= j
    return chosen


class TwentyTwoState(State):
    """One game of 22 in progress."""

    def __init__(self, rules: Rules, players: int, seed: int,
                 options: dict[str, OptionValue], deck: list[Card] | None) -> None:
        super().__init__(rules, players, seed, options)
        self.rng = SplitMix(seed)
        n = players
        self.decks = 2 if n >= 7 else 1
        self.cucumber = options["scoring"] == "cucumber"
        self.values = _VALUE_CUCUMBER if self.cucumber else _VALUE_22
        self.limit = 30 if self.cucumber else 22
        self.rebuy_on = bool(options["rebuy"])
        self.shared = options["last_out"] == "shared"
        self.live = [True] * n
        self.penalties: list[list[Id]] = [[] for _ in range(n)]
        self.totals = [0] * n
        self.out_deal: list[int] = [0] * n
        self.rebought = [False] * n
        self.paid = [1 if self.rebuy_on else 0] * n
        self.hands: list[list[Id]] = [[] for _ in range(n)]
        self.exchanged: list[list[Id]] = [[] for _ in range(n)]
        self.stock: list[Id] = []  # top card last, so a draw is a pop()
        self.discards: list[Id] = []
        self.trick: list[tuple[int, tuple[Id, ...]]] = []
        self.to_beat: tuple[Id, ...] = ()
        self.best_rank = 0
        self.best_seat = 0
        self.last_trick: list[tuple[int, tuple[Id, ...]]] | None = None
        self.last_final: list[tuple[int, Id]] | None = None
        self.last_losers: list[int] = []
        self.floor = [0] * n
        self.phase = "exchange"
        self.turn = 0
        self.leader = 0
        self.exchange_left = 0
        self.hand_size = 7
        self.next_size = 7
        self.pending: list[int] = []
        self.answers: dict[int, bool] = {}
        self.doomed: list[int] = []
        self.live_before = n
        self.winners: tuple[int, ...] = ()
        self.finished = False
        dealer = options["dealer"]
        self.dealer = self.rng.randrange(n) if dealer is None else int(dealer)
        first = None if deck is None else [int(c) for c in check_deck(deck, self.pack())]
        self._start_deal(first)

    # -- dealing ---------------------------------------------------------------------------
    def _live_from(self, seat: int) -> list[int]:
        """Live seats clockwise, starting at the one after ``seat``."""
        n = self.players
        live = self.live
        return [s for s in ((seat + i) % n for i in range(1, n + 1)) if live[s]]

    def _start_deal(self, deck: list[Id] | None) -> list[Event]:
        """Step 2: shuffle every card but the penalty cards and deal the hand size to each."""
        if deck is None:
            deck = list(_PACKS[self.decks])
            for pile in self.penalties:
                for c in pile:
                    deck.remove(c)
            self.rng.shuffle(deck)
        order = self._live_from(self.dealer)
        count = len(order)
        # Step 2: the largest equal number the deck can give, at most the deal's hand size.
        size = min(self.hand_size, len(deck) // count)
        self.hand_size = size
        used = size * count
        hands = self.hands
        for i, s in enumerate(order):
            hand = deck[i:used:count]
            hand.sort(key=_KEYF)
            hands[s] = hand
        rest = deck[used:]
        rest.reverse()
        self.stock = rest
        self.exchanged = [[] for _ in range(self.players)]
        self.discards = []
        self.trick = []
        self.to_beat = ()
        self.last_trick = None
        self.floor = [0] * self.players
        events = [Event("deal", self.dealer, arg=str(size))]
        events.extend(Event("hand", s, _cards(hands[s]), private=True) for s in order)
        self.phase = "exchange"
        self.turn = order[0]
        self.exchange_left = count
        if not self.stock:
            # Step 3: once the stock is empty, no more exchanges.
            self._start_tricks(events)
        return events

    def _start_tricks(self, events: list[Event]) -> None:
        """Step 4: the player at the dealer's left leads the first trick."""
        self.phase = "play"
        first = self._live_from(self.dealer)[0]
        self.turn = self.leader = first
        self.trick = []
        if len(self.hands[first]) <= 1:
            self._final_trick(events)

    # -- the contract ----------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        """Seats the game waits for."""
        if self.finished:
            return ()
        if self.phase == "rebuy":
            return tuple(s for s in self.pending if s not in self.answers)
        return (self.turn,)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now."""
        if self.finished:
            return []
        phase = self.phase
        if phase == "rebuy":
            if seat in self.pending and seat not in self.answers:
                return [_REBUY, _OUT]
            return []
        if seat != self.turn:
            return []
        hand = self.hands[seat]
        dups = self.decks > 1
        if phase == "exchange":
            most = min(len(self.stock), len(hand))
            result = [_KEEP]
            for size in range(1, most + 1):
                result.extend(Action("exchange", None, _cards(combo))
                              for combo in _unique_combos(hand, size, dups))
            return result
        if not self.trick:
            return self._leads(hand, dups)
        return [Action("play", None, _cards(combo)) for combo in self._follows(hand, dups)]

    @staticmethod
    def _leads(hand: list[Id], dups: bool) -> list[Action]:
        """Section 4, Lead: one card, or a set of one rank that leaves a card in hand."""
        singles = dict.fromkeys(hand) if dups else hand
        result = [Action("play", None, (_C[c],)) for c in singles]
        most = len(hand) - 1
        i = 0
        h = len(hand)
        while i < h:
            r = hand[i] & 15
            j = i + 1
            while j < h and hand[j] & 15 == r:
                j += 1
            for size in range(2, min(j - i, most) + 1):
                result.extend(Action("play", None, _cards(combo))
                              for combo in _unique_combos(hand[i:j], size, dups))
            i = j
        return result

    def _follows(self, hand: list[Id], dups: bool) -> list[tuple[Id, ...]]:
        """Section 4, Follow: any cards that beat the cards to beat, or the n lowest."""
        n = len(self.to_beat)
        if n == 1:
            top = self.to_beat[0] & 15
            low = hand[0] & 15
            cards = dict.fromkeys(hand) if dups else hand
            return [(c,) for c in cards if (c & 15) >= top or (c & 15) == low]
        need = sorted((c & 15 for c in self.to_beat), reverse=True)
        lowest = [c & 15 for c in hand[:n]]
        result = []
        for combo in _unique_combos(hand, n, dups):
            ranks = [c & 15 for c in combo]  # ascending, as the hand is sorted
            if ranks == lowest or all(ranks[n - 1 - i] >= need[i] for i in range(n)):
                result.append(combo)
        return result

    def random_action(self, seat: int, rng: random.Random) -> Action:
        """A uniformly random legal action, without listing every exchange."""
        if self.finished or seat != self.turn:
            return rng.choice(self.legal_actions(seat))
        if self.phase == "exchange":
            chosen = _random_submultiset(self.hands[seat], len(self.stock), rng,
                                         self.decks > 1)
            return Action("exchange", None, _cards(chosen)) if chosen else _KEEP
        if self.phase == "play" and len(self.to_beat) == 1 and self.trick:
            fit = self._follows(self.hands[seat], self.decks > 1)
            return Action("play", None, (_C[fit[rng.randrange(len(fit))][0]],))
        return rng.choice(self.legal_actions(seat))

    def _apply(self, seat: int, action: Action) -> list[Event]:
        kind = action.kind
        if action.arg is not None:
            raise IllegalAction(msg("22-no-value", kind=kind))
        phase = self.phase
        if phase == "rebuy":
            return self._apply_rebuy(seat, action)
        if kind in ("rebuy", "out"):
            raise IllegalAction(msg("22-no-rebuy-now"))
        if seat != self.turn:
            raise IllegalAction(msg(
                "22-not-turn-exchange" if phase == "exchange" else "22-not-turn-play",
                n=self.turn + 1))
        if phase == "exchange":
            if kind != "exchange":
                raise IllegalAction(msg("22-exchange-now"))
            return self._apply_exchange(seat, action.cards)
        if kind != "play":
            raise IllegalAction(msg("22-play-now"))
        return self._apply_play(seat, action.cards)

    # -- exchange --------------------------------------------------------------------------
    def _apply_exchange(self, seat: int, cards: tuple[Card, ...]) -> list[Event]:
        """Step 3: discard face down, draw as many; never more than the stock holds."""
        hand = self.hands[seat]
        stock = self.stock
        if cards:
            rest = _take(hand, cards)
            if rest is None:
                raise IllegalAction(msg("22-not-held", cards=cards))
            if len(cards) > len(stock):
                raise IllegalAction(msg("22-stock-short", count=len(stock)))
            drawn = [stock.pop() for _ in cards]
            rest.extend(drawn)
            rest.sort(key=_KEYF)
            self.hands[seat] = rest
            self.exchanged[seat] = [int(c) for c in cards]
            events = [Event("exchange", seat, cards, private=True),
                      Event("draw", seat, _cards(drawn), private=True)]
        else:
            events = [Event("exchange", seat, private=True)]
        self.exchange_left -= 1
        if self.exchange_left == 0 or not stock:
            self._start_tricks(events)
        else:
            n = self.players
            s = (seat + 1) % n
            while not self.live[s]:
                s = (s + 1) % n
            self.turn = s
        return events

    # -- tricks ----------------------------------------------------------------------------
    def _apply_play(self, seat: int, cards: tuple[Card, ...]) -> list[Event]:
        hand = self.hands[seat]
        if not cards:
            raise IllegalAction(msg("22-name-cards"))
        rest = _take(hand, cards)
        if rest is None:
            raise IllegalAction(msg("22-not-held", cards=cards))
        ids = tuple([int(c) for c in cards])
        ranks = [c & 15 for c in ids]
        top = max(ranks)
        if not self.trick:
            if len(cards) > 1:
                if min(ranks) != top:
                    raise IllegalAction(msg("22-set-one-rank"))
                if not rest:
                    raise IllegalAction(msg("22-set-keep-one"))
            self.to_beat = ids
            events = [Event("lead", seat, cards)]
            self.best_rank = top
            self.best_seat = seat
        else:
            n = len(self.to_beat)
            if len(cards) != n:
                raise IllegalAction(msg("22-as-many", count=count_msg(n)))
            beat = beats(cards, self.to_beat)
            if not beat:
                lowest = [c & 15 for c in hand[:n]]
                if sorted(ranks) != lowest:
                    raise IllegalAction(msg(
                        "22-no-beat-1" if n == 1 else "22-no-beat", n=n, cards=cards,
                        to_beat=_cards(self.to_beat), lowest=_cards(hand[:n])))
                # A play that does not beat is the n lowest: every card kept is at least as
                # high (used by determinize).
                if top > self.floor[seat]:
                    self.floor[seat] = top
            else:
                self.to_beat = ids
            events = [Event("play", seat, cards, "beat" if beat else "low")]
            # Section 4, Winner: the highest rank; among equals, the last to play it.
            if top >= self.best_rank:
                self.best_rank = top
                self.best_seat = seat
        self.hands[seat] = rest
        self.trick.append((seat, ids))
        n = self.players
        s = (seat + 1) % n
        while not self.live[s]:
            s = (s + 1) % n
        if s != self.leader:
            self.turn = s
            return events
        # Trick complete: its cards are discarded face up; the winner leads the next.
        winner = self.best_seat
        everything: list[Id] = []
        for _s, played in self.trick:
            everything.extend(played)
        self.discards.extend(everything)
        events.append(Event("trick", winner, _cards(everything)))
        self.last_trick = self.trick
        self.trick = []
        self.to_beat = ()
        self.turn = self.leader = winner
        if len(rest) == 1:
            self._final_trick(events)
        return events

    def _final_trick(self, events: list[Event]) -> None:
        """Step 5: everyone plays their last card at once; all tied highest lose the deal."""
        order = self._live_from(self.dealer)
        plays = [(s, self.hands[s][0]) for s in order]
        high = max(c & 15 for _s, c in plays)
        losers: list[int] = []
        for s, c in plays:
            self.hands[s] = []
            events.append(Event("final", s, (_C[c],)))
            if c & 15 == high:
                losers.append(s)
                self.penalties[s].append(c)
                self.totals[s] += self.values[high]
                events.append(Event("penalty", s, (_C[c],), str(self.totals[s])))
            else:
                self.discards.append(c)
        self.last_final = plays
        self.last_losers = losers
        self.next_size = self.values[high]
        self.live_before = len(order)
        doomed = [s for s in losers if self.totals[s] >= self.limit]
        # Rebuy option: once per game, and never once only 3 players remain.
        able = [s for s in doomed if self.rebuy_on and not self.rebought[s]
                and self.live_before > 3]
        if able:
            self.phase = "rebuy"
            self.pending = able
            self.answers = {}
            self.doomed = doomed
            return
        self._finish_deal(doomed, events, {})

    def _tally(self, going: list[int], stayed: dict[int, Id]) -> list[Entry]:
        """The deal explained: each seat's card in the 'final' trick, a 'penalty' (the card
        and its points) for each seat tied highest, a 'rebuy' taking that penalty back, and
        'out' (the total) for each seat eliminated."""
        found = [Entry("final", (s,), None, (_C[c],)) for s, c in self.last_final or []]
        for s in self.last_losers:
            c = stayed.get(s, self.penalties[s][-1] if self.penalties[s] else -1)
            if c < 0:
                continue
            points = self.values[c & 15]
            found.append(Entry("penalty", (s,), points, (_C[c],), points=points))
            if s in stayed:
                found.append(Entry("rebuy", (s,), points, (_C[c],), points=-points))
        found.extend(Entry("out", (s,), int(self.totals[s])) for s in going)
        return found

    def _apply_rebuy(self, seat: int, action: Action) -> list[Event]:
        if action.kind not in ("rebuy", "out") or action.cards:
            raise IllegalAction(msg("22-decide-rebuy"))
        if seat not in self.pending or seat in self.answers:
            raise IllegalAction(msg("22-no-rebuy"))
        self.answers[seat] = action.kind == "rebuy"
        events = [Event("rebuy" if self.answers[seat] else "decline", seat)]
        if len(self.answers) == len(self.pending):
            going = []
            stayed: dict[int, Id] = {}
            for s in self.doomed:
                if self.answers.get(s, False):
                    # Pay one more stake; the penalty goes back to before this deal, so the
                    # card taken this deal returns to the deck.
                    card = self.penalties[s].pop()
                    self.totals[s] -= self.values[card & 15]
                    self.discards.append(card)
                    stayed[s] = card
                    self.rebought[s] = True
                    self.paid[s] += 1
                    events.append(Event("stay", s, (_C[card],), str(self.totals[s])))
                else:
                    going.append(s)
            self.pending = []
            self.answers = {}
            self.doomed = []
            self._finish_deal(going, events, stayed)
        return events

    def _finish_deal(self, going: list[int], events: list[Event],
                     stayed: dict[int, Id]) -> None:
        """Step 6 and 7: eliminations, the end of the game, or the next deal."""
        for s in going:
            self.live[s] = False
            self.out_deal[s] = self.deal_number
            events.append(Event("out", s, arg=str(self.totals[s])))
        self.add_tally(self._tally(going, stayed))
        remaining = [s for s in range(self.players) if self.live[s]]
        winners: list[int] | None = None
        if going and self.rebuy_on and self.live_before <= 3 and remaining:
            # Rebuy option: with 3 (or fewer) left, the first elimination ends the game and the
            # lowest penalty total among those remaining wins the pot (ties share).
            best = min(self.totals[s] for s in remaining)
            winners = [s for s in remaining if self.totals[s] == best]
        elif len(remaining) == 1:
            winners = remaining
        elif not remaining:
            # End of the game: everyone left went out in the same deal.
            if self.shared:
                winners = list(going)
            else:
                best = min(self.totals[s] for s in going)
                winners = [s for s in going if self.totals[s] == best]
        if winners is not None:
            self.winners = tuple(sorted(winners))
            self.finished = True
            self.phase = "over"
            events.extend(Event("win", s, arg=str(self.totals[s])) for s in self.winners)
            return
        # Step 7: the loser deals; several: one at random; out: a random live player.
        candidates = [s for s in self.last_losers if self.live[s]] or remaining
        self.dealer = candidates[0] if len(candidates) == 1 else self.rng.choice(candidates)
        self.hand_size = self.next_size
        self.deal_number += 1
        if self.stop_at_deal_end:  # a search's sample: nobody looks at the next deal
            return
        events.extend(self._start_deal(None))

    # -- outcome and views -----------------------------------------------------------------
    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return self.finished

    @property
    def outcome(self) -> Outcome | None:
        """Winners first; then players still in (rebuy ending) by penalty; then the others by
        how late they went out, those of the same deal by lower penalty total."""
        if not self.finished:
            return None
        keys: list[tuple[int, int, int]] = []
        for s in range(self.players):
            if s in self.winners:
                keys.append((0, 0, 0))
            elif self.live[s]:
                keys.append((1, 0, self.totals[s]))
            else:
                keys.append((2, -self.out_deal[s], self.totals[s]))
        return Outcome.from_keys(keys, [float(t) for t in self.totals])

    def scores(self) -> list[float]:
        """Penalty totals."""
        return [float(t) for t in self.totals]

    def score_direction(self) -> int:
        """Penalty points: lower is better."""
        return -1

    def chips(self) -> list[float]:
        """Net chips per seat with the rebuy option: stakes paid, and the pot shared at the end."""
        net = [float(-p) for p in self.paid]
        if self.finished and self.winners:
            share = round(sum(self.paid) / len(self.winners), 2)
            for s in self.winners:
                net[s] += share
        return net

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know (None: a spectator)."""
        own = self.hands[seat] if seat is not None and 0 <= seat < self.players else []
        data: dict[str, Any] = self.base_view(seat, _cards(own))
        data.update({
            "phase": self.phase,
            "dealer": self.dealer,
            "hand_size": self.hand_size,
            "hand_counts": [len(h) for h in self.hands],
            "live": list(self.live),
            "limit": self.limit,
            "stock_count": len(self.stock),
            "exchanged": [len(x) for x in self.exchanged],
            "my_exchange": _codes(self.exchanged[seat]) if seat is not None else [],
            "trick": [{"seat": s, "cards": _codes(cs), "card": _CODE[max(cs, key=_KEYF)]}
                      for s, cs in self.trick],
            "leader": self.leader if self.phase == "play" else None,
            "to_beat": _codes(self.to_beat),
            "last_trick": None if self.last_trick is None else [
                {"seat": s, "cards": _codes(cs), "card": _CODE[max(cs, key=_KEYF)]}
                for s, cs in self.last_trick],
            "discards": _codes(self.discards),
            "penalties": [_codes(p) for p in self.penalties],
            "final": None if self.last_final is None else [
                {"seat": s, "card": _CODE[c]} for s, c in self.last_final],
            "losers": list(self.last_losers),
            "rebuy_pending": list(self.to_act) if self.phase == "rebuy" else [],
        })
        if self.rebuy_on:
            data["chips"] = self.chips()
            data["pot"] = sum(self.paid)
            data["rebought"] = list(self.rebought)
        return View(data)

    # -- copies and hidden information -----------------------------------------------------
    def clone(self) -> TwentyTwoState:
        """An independent copy (hand-written: this runs thousands of times in a search)."""
        new = object.__new__(TwentyTwoState)
        d = dict(self.__dict__)
        d["options"] = dict(self.options)
        rng = self.rng
        if type(rng) is SplitMix:
            twin = SplitMix(0)
            twin._s = rng._s
            d["rng"] = twin
        else:
            d["rng"] = copy.copy(rng)
        d["live"] = list(self.live)
        d["penalties"] = [list(p) for p in self.penalties]
        d["totals"] = list(self.totals)
        d["out_deal"] = list(self.out_deal)
        d["rebought"] = list(self.rebought)
        d["paid"] = list(self.paid)
        d["hands"] = [list(h) for h in self.hands]
        d["exchanged"] = [list(x) for x in self.exchanged]
        d["stock"] = list(self.stock)
        d["discards"] = list(self.discards)
        d["trick"] = list(self.trick)
        d["floor"] = list(self.floor)
        d["pending"] = list(self.pending)
        d["answers"] = dict(self.answers)
        d["doomed"] = list(self.doomed)
        d["last_losers"] = list(self.last_losers)
        new.__dict__ = d
        return new

    def determinize(self, seat: int | None, rng: random.Random) -> TwentyTwoState:
        """Other hands, the stock and others' face-down discards re-dealt at random.

        A follower who did not beat played their lowest cards, so every card they kept is at
        least that high; the re-deal keeps that true.
        """
        new = self.clone()
        reseeded(new, rng)
        others = [s for s in range(self.players) if s != seat]
        pool: list[Id] = list(new.stock)
        for s in others:
            pool.extend(new.hands[s])
            pool.extend(new.exchanged[s])
        rng.shuffle(pool)
        constrained = sorted((s for s in others if new.floor[s] > 2 and new.hands[s]),
                             key=lambda s: -new.floor[s])
        for s in constrained:
            need = len(new.hands[s])
            floor = new.floor[s]
            picked: list[Id] = []
            kept: list[Id] = []
            for c in pool:
                if len(picked) < need and c & 15 >= floor:
                    picked.append(c)
                else:
                    kept.append(c)
            pool = kept
            picked.sort(key=_KEYF)
            new.hands[s] = picked
        for s in others:
            if s in constrained:
                continue
            k = len(new.hands[s])
            hand = pool[:k]
            del pool[:k]
            hand.sort(key=_KEYF)
            new.hands[s] = hand
        for s in others:
            k = len(new.exchanged[s])
            new.exchanged[s] = pool[:k]
            del pool[:k]
        new.stock = pool
        return new

    def zones(self) -> dict[str, list[Card]]:
        """Hands, stock, face-down exchange discards, the trick, trick discards, penalties."""
        found: dict[str, list[Card]] = {"stock": list(_cards(self.stock)),
                                        "discards": list(_cards(self.discards))}
        found["trick"] = [_C[c] for _s, cs in self.trick for c in cs]
        for s in range(self.players):
            found[f"hand{s}"] = list(_cards(self.hands[s]))
            found[f"exchanged{s}"] = list(_cards(self.exchanged[s]))
            found[f"penalty{s}"] = list(_cards(self.penalties[s]))
        return found

    def pack(self) -> list[Card]:
        """The 52 cards (104 with 7–8 players); penalty cards count in their own zones."""
        return [_C[c] for c in _PACKS[self.decks]]


_SUMMARY_EN = """\
22 — avoid winning the last trick of each deal.
2–6 players with 52 cards, 7–8 with two decks. Only ranks matter: A K Q J T 9 … 2.
Each deal: dealt one by one from the dealer's left (7 cards in the first deal).
Exchange: once round from the dealer's left, discard any cards face down and draw as many
(never more than the stock holds).
Tricks: lead one card or a set of one rank (keeping a card). Followers play as many cards:
either cards that beat the cards to beat one to one (each ≥), or their lowest cards.
The highest card wins the trick (the last of equals); the winner leads next.
Last trick: everyone plays their last card at once; the highest card(s) lose the deal and take
that card as penalty: A 11, K Q J 10, others their number.
At 22 points you are out. The loser deals next, with as many cards each as the losing card's
value (as far as the shrinking deck allows). The last player in wins.
Options: dealer, last_out (shared/lowest), rebuy (pay a stake once to stay in; with three left
the first to go out ends the game), scoring (cucumber: A 14 K 13 Q 12 J 11, out at 30)."""


class TwentyTwoRules(Rules):
    """The rules of 22 (Twenty-Two)."""

    id = "twenty-two"
    name = "22"
    min_players = 2
    max_players = 8
    usual_players = 4
    summary_en = _SUMMARY_EN
    options = (
        seat_option("dealer", "Seat of the first dealer (random if unset)."),
        Option("last_out", "choice", "shared",
               "When the last players all go out together: they share the win, or the "
               "lowest penalty total wins.",
               choices=("shared", "lowest")),
        Option("rebuy", "bool", False,
               "Gambling Cucumber: everyone stakes a chip; once per game a player who would go "
               "out may pay again and stay; with three left the first to go out ends the game "
               "(3–8 players)."),
        Option("scoring", "choice", "22",
               "Penalty scale: '22' (A 11, K Q J 10, out at 22) or 'cucumber' (A 14, K 13, "
               "Q 12, J 11, out at 30).",
               choices=("22", "cucumber")),
    )
    test_mixes = ((3, {"rebuy": True}), (5, {"rebuy": True, "scoring": "cucumber"}))

    def check_options(self, players: int, options: dict[str, OptionValue]) -> None:
        """The rebuy variant is for 3 to 8 players."""
        if options["rebuy"] and players < 3:
            raise OptionError("rebuy-players", least=3, most=self.max_players)

    def create(self, players: int, seed: int, options: dict[str, OptionValue],
               deck: list[Card] | None) -> TwentyTwoState:
        """A new game; ``deck`` orders the first deal (dealer's left first, then the stock)."""
        return TwentyTwoState(self, players, seed, options, deck)

    # -- words for people ------------------------------------------------------------------
    def hand_key(self, view: View) -> Callable[[Card], tuple[int, int]]:
        """Suits never matter in 22, ranks do: from A down to 2, one rank's cards together
        (the sets a player leads), their suits with colours alternating (♠ ♥ ♣ ♦)."""
        place = {s: i for i, s in enumerate(hand_suits())}
        return lambda c: (-c.rank, place[c.suit])

    def action_message(self, action: Action) -> Msg:
        """A short label for a button or a log line."""
        cards = _cards(action.cards)
        if action.kind == "exchange":
            return msg("22-act-exchange", cards=cards) if cards else msg("22-act-keep")
        if action.kind == "play":
            return msg("act-play", cards=cards)
        if action.kind in ("rebuy", "out"):
            return msg(f"22-act-{action.kind}")
        return super().action_message(action)

    def event_message(self, event: Event, names: Sequence[str] | None = None) -> Msg | None:
        """A sentence for an event as a seat sees it."""
        k = event.kind
        if k not in _EVENTS:
            return None
        who = "" if event.seat is None else seat_name(event.seat, names)
        count = event.hidden or len(event.cards)
        cards = _cards(event.cards)
        if k in ("hand", "exchange", "draw"):
            # the seat's own cards, or how many (another's), or none (a hand kept)
            shape = "cards" if cards else "count" if count or k != "exchange" else "none"
            return msg(f"22-ev-{k}-{shape}", who=who, cards=cards, count=count_msg(count))
        if k == "play":
            k = "beat" if event.arg == "beat" else "low"
        return msg(f"22-ev-{k}", who=who, cards=cards, arg=event.arg or "")

    def view_text(self, view: View, lang: str = "en") -> str:
        """The table as plain text."""
        phase = view["phase"]
        lines = [text("22-view-head", lang, deal=view["deal"], phase=msg(f"22-phase-{phase}"),
                      dealer=view["dealer"] + 1, size=view["hand_size"],
                      stock=view["stock_count"])]
        for s in range(view["players"]):
            pens = show_codes(view["penalties"][s], lang) or "-"
            lines.append(text(
                "22-view-seat", lang, n=s + 1, penalty=int(view["scores"][s]), cards=pens,
                count=count_msg(view["hand_counts"][s]),
                out="" if view["live"][s] else msg("22-view-out"),
                mark=" *" if s in view["to_act"] else ""))
        if view["trick"]:
            plays = "; ".join(f"{p['seat'] + 1}: {show_codes(p['cards'], lang)}"
                              for p in view["trick"])
            lines.append(text("22-view-trick", lang, plays=plays))
            lines.append(text("22-view-to-beat", lang, cards=show_codes(view["to_beat"], lang)))
        if view["hand"]:
            lines.append(text("view-hand", lang, cards=show(self.sorted_hand(view), lang)))
        if "pot" in view:
            lines.append(text("22-view-pot", lang, pot=view["pot"]))
        return "\n".join(lines)


#: the events a person reads (the others are only data)
_EVENTS = frozenset({"deal", "hand", "exchange", "draw", "lead", "play", "trick", "final",
                     "penalty", "rebuy", "decline", "stay", "out", "win"})


RULES = TwentyTwoRules()
