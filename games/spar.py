"""Spar and its West African relatives: short trick games where only the last trick counts.

Rules: ``docs/rules/spar.md``. No trumps; follow suit if you can; the highest card of the
led suit wins; whoever wins the last trick wins the deal (and, in the scored members, more for
winning it with a low card). Option ``variant`` picks the member of the family.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from games import seats, tricks
from games.cards import Card, by_suit, card, show, show_codes
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
from games.wording import has, text

SUITS = "SHDC"


@dataclass(frozen=True)
class Variant:
    """One member of the family: its pack, order, direction, deal and scoring."""

    name: str
    name_en: str
    ranks: tuple[int, ...]  # ranks in the pack, low to high in this member's order
    direction: int
    packets: tuple[int, ...]
    scoring: str  # "spar", "benin", "sipa", "fapfap" or "deals" (Agram: no points)
    face_down: str | None  # None, "follow" (Benin) or "beat" (Sipa)
    target: int  # default target (0 for the deals-counting members)


_SPAR_RANKS = (6, 7, 8, 9, 10, 11, 12, 13, 14)
_BENIN_RANKS = (7, 8, 9, 10, 11, 12, 13, 14)
_AGRAM_RANKS = (3, 4, 5, 6, 7, 8, 9, 10, 14)  # A T 9 8 7 6 5 4 3, high to low
_MALI_RANKS = (7, 11, 8, 9, 12, 10, 13, 14)  # A K T Q 9 8 J 7, high to low
CW, CCW = seats.CLOCKWISE, seats.COUNTER_CLOCKWISE

VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant("spar", "Spar", _SPAR_RANKS, CW, (3, 2), "spar", None, 30),
        Variant("benin", "Jeu de Carte", _BENIN_RANKS, CW, (3, 2), "benin",
                "follow", 24),
        Variant("sipa", "Sipa", _BENIN_RANKS, CCW, (3, 2), "sipa", "beat", 10),
        Variant("agram", "Agram", _AGRAM_RANKS, CCW, (3, 3), "deals", None, 0),
        Variant("sink-sink", "Sink-Sink", _AGRAM_RANKS, CCW, (3, 2), "deals",
                None, 0),
        Variant("fapfap", "Fapfap", _AGRAM_RANKS, CCW, (3, 3), "fapfap",
                None, 10),
        Variant("agram-mali", "Agram (Mali)", _MALI_RANKS, CCW, (3, 3),
                "deals", None, 0),
    )
}
SPAR_ONLY = ("spade_ace", "hand", "under_ten", "peek", "essilfy")
_SPADE_ACE = card(14, "S")


def pack_of(variant: Variant, spade_ace: bool = False) -> list[Card]:
    """The cards of a member's pack: its ranks in every suit, without the ace of spades."""
    cards = [card(r, s) for s in SUITS for r in variant.ranks]
    if not spade_ace:
        cards.remove(_SPADE_ACE)
    return cards


_PACKS: dict[tuple[str, bool], list[Card]] = {}


def _pack_cached(variant: Variant, spade_ace: bool) -> list[Card]:
    """The pack, built once per member (not kept in each state: snapshots stay small)."""
    key = (variant.name, spade_ace)
    found = _PACKS.get(key)
    if found is None:
        found = _PACKS[key] = pack_of(variant, spade_ace)
    return found


def strengths(variant: Variant) -> list[int]:
    """Strength by card value (index = int(card)): position in the member's order."""
    table = [0] * 96
    for i, r in enumerate(variant.ranks):
        for s in SUITS:
            table[card(r, s)] = i + 1
    return table


_STRENGTH = {name: strengths(v) for name, v in VARIANTS.items()}
_SUIT_OF = [i >> 4 for i in range(96)]
_PLAY_CACHE: dict[Card, Action] = {}
PEEK = Action("peek")
PEEK_AGREE = Action("peek_agree")
PEEK_REFUSE = Action("peek_refuse")
REDEAL = Action("redeal")
KEEP = Action("keep")


def play_action(c: Card) -> Action:
    """The shared ``play:<card>`` action."""
    found = _PLAY_CACHE.get(c)
    if found is None:
        found = _PLAY_CACHE[c] = Action("play", None, (c,))
    return found


#: a suit's letter → the number ``card >> 4`` gives (see games.cards.Card.suit)
_SUIT_NUMBER = {letter: number for number, letter in enumerate("SHDCRB")}


class _SpentRandom(random.Random):
    """The match generator once the first deal is made: every later deal has its own seed, so
    nothing draws from it again, and it pickles as its seed alone (cheap snapshots)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.seed_value = seed

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return (_SpentRandom, (self.seed_value,))


class SparState(State):
    """A match of one member of the Spar family."""

    def __init__(self, rules: Rules, players: int, seed: int, options: dict[str, OptionValue]):
        super().__init__(rules, players, seed, options)
        # Only the member's name is kept in the state; its table is shared (small snapshots).
        self.variant_name = str(options["variant"])
        v = self.variant
        self.spade_ace = bool(options["spade_ace"])
        if v.name == "spar" and options["hand"] == "7":
            self.packets: tuple[int, ...] = (3, 4)  # hand = 7: 3 then 4 (Spar options)
        else:
            self.packets = v.packets
        self.hand_size = sum(self.packets)
        self.under_ten = bool(options["under_ten"])
        self.peek_allowed = bool(options["peek"])
        self.essilfy = bool(options["essilfy"])
        tgt = options["target"]
        self.target = v.target if tgt is None else int(tgt)
        self.deals_limit = int(options["deals"])  # type: ignore[arg-type]
        self.points: list[int] = [0] * players
        self.deals_won: list[int] = [0] * players
        self.deal_seed = 0
        self.dealer = 0
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.stock: list[Card] = []  # top card first
        self.thrown: list[list[Card]] = [[] for _ in range(players)]  # under_ten, face down
        self.pile: list[Card] = []  # finished tricks' cards
        self.pile_down: list[bool] = []  # parallel to pile: played face down
        self.pile_seats: list[int] = []
        self.trick: list[tuple[int, Card, bool]] = []  # (seat, card, face up)
        self.last_trick: list[tuple[int, Card, bool]] | None = None
        self.leader = 0
        self.turn: int | None = None
        self.phase = "play"
        self.exchange_queue: list[int] = []
        self.trick_number = 1
        self.winners: list[tuple[int, Card]] = []  # each finished trick: winner and card
        self.tricks_won: list[int] = [0] * players
        self.voids: list[set[str]] = [set() for _ in range(players)]
        self.peeked: Card | None = None
        self.peek_asker: int | None = None  # peek: who asked, while the answers are awaited
        self.peek_waiting: list[int] = []  # the others still to answer, in play order
        self.peek_refused: list[int] = []  # this deal's askers who were refused
        self.finished = False
        self.last_deal: dict[str, Any] | None = None

    @property
    def variant(self) -> Variant:
        """The member of the family being played."""
        return VARIANTS[self.variant_name]

    @property
    def strength(self) -> list[int]:
        """Card strengths in this member's order, indexed by card value."""
        return _STRENGTH[self.variant_name]

    # -- dealing ----------------------------------------------------------------------------
    def start_deal(self, dealer: int, deck: list[Card] | None) -> list[Event]:
        """Deal in packets from the first player in the member's direction (Dealing)."""
        n = self.players
        if deck is None:
            shuffler = random.Random(self.deal_seed)
            draw = shuffler.random
            deck = sorted(_pack_cached(self.variant, self.spade_ace), key=lambda _c: draw())
            self.deal_seed = shuffler.getrandbits(64)
        direction = self.variant.direction
        first = seats.step(dealer, n, direction)
        self.dealer = dealer
        self.hands = [[] for _ in range(n)]
        pos = 0
        for size in self.packets:
            for s in seats.iter_from(first, n, direction):
                self.hands[s].extend(deck[pos:pos + size])
                pos += size
        self.stock = deck[pos:]
        self.thrown = [[] for _ in range(n)]
        self.pile = []
        self.pile_down = []
        self.pile_seats = []
        self.trick = []
        self.last_trick = None
        self.leader = first
        self.trick_number = 1
        self.winners = []
        self.tricks_won = [0] * n
        self.voids = [set() for _ in range(n)]
        self.peeked = None
        self.peek_asker = None
        self.peek_waiting = []
        self.peek_refused = []
        events = [Event("deal", dealer, (), str(self.deal_number))]
        if self.under_ten:
            # Under ten: in turn from the dealer's left, each player may change a hand whose
            # highest card is a 9 or lower (Spar options).
            self.exchange_queue = list(seats.iter_from(first, n, direction))
            self.phase = "exchange"
            self._next_exchange()
        else:
            self.phase = "play"
            self.turn = first
        return events

    def _entitled(self, seat: int) -> bool:
        return (
            len(self.stock) >= self.hand_size
            and max(c.rank for c in self.hands[seat]) <= 9
        )

    def _next_exchange(self) -> None:
        while self.exchange_queue:
            s = self.exchange_queue[0]
            if self._entitled(s):
                self.turn = s
                return
            self.exchange_queue.pop(0)
        self.phase = "play"
        self.turn = self.leader

    # -- the contract ------------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        """The player to play (or to choose under ten, or to answer a request to peek)."""
        if self.phase == "peek":
            return (self.peek_waiting[0],)
        return () if self.turn is None else (self.turn,)

    def _peek_open(self, seat: int) -> bool:
        # Peek: during the second-to-last trick, while undealt cards remain and the card has
        # not been shown; a player whose request was refused does not ask again this deal.
        return (
            self.peek_allowed
            and self.phase == "play"
            and self.peeked is None
            and self.trick_number == self.hand_size - 1
            and bool(self.stock)
            and seat not in self.peek_refused
        )

    def _playable(self, seat: int) -> list[Card]:
        hand = self.hands[seat]
        if not self.trick:
            return hand
        led = self.trick[0][1].suit
        same = [c for c in hand if c.suit == led]
        return same if same else hand

    def legal_actions(self, seat: int) -> list[Action]:
        """Cards that may be played; redeal/keep under ten; peek in the second-to-last trick,
        and the answer to a request to peek."""
        if self.turn is None:
            return []
        if self.phase == "peek":
            return [PEEK_AGREE, PEEK_REFUSE] if seat == self.peek_waiting[0] else []
        if seat != self.turn:
            return [PEEK] if self._peek_open(seat) else []
        if self.phase == "exchange":
            return [REDEAL, KEEP]
        result = [play_action(c) for c in self._playable(seat)]
        if self._peek_open(seat):
            result.append(PEEK)
        return result

    def random_action(self, seat: int, rng: random.Random) -> Action:
        """A uniformly random legal action."""
        return rng.choice(self.legal_actions(seat))

    def _apply(self, seat: int, action: Action) -> list[Event]:
        kind = action.kind
        if kind in ("peek", "peek_agree", "peek_refuse"):
            if action.arg is not None or action.cards:
                raise IllegalAction(msg("spar-takes-nothing", kind=kind))
            if not self.peek_allowed:
                raise IllegalAction(msg("spar-no-peek"))
            if kind == "peek":
                return self._ask_peek(seat)
            return self._answer_peek(seat, kind == "peek_agree")
        if self.phase == "peek":
            raise IllegalAction(msg("spar-peek-wait"))
        if seat != self.turn:
            raise IllegalAction(msg("move-not-your-turn"))
        if kind in ("redeal", "keep"):
            if action.arg is not None or action.cards:
                raise IllegalAction(msg("spar-takes-nothing", kind=kind))
            if self.phase != "exchange":
                raise IllegalAction(msg("spar-no-exchange"))
            return self._exchange(seat, kind == "redeal")
        if kind != "play":
            raise IllegalAction(msg("spar-play-form"))
        if self.phase != "play":
            raise IllegalAction(msg("spar-exchange-first"))
        if action.arg is not None:
            raise IllegalAction(msg("spar-play-value", arg=action.arg))
        if len(action.cards) != 1:
            raise IllegalAction(msg("spar-one-card"))
        c = action.cards[0]
        hand = self.hands[seat]
        if c not in hand:
            raise IllegalAction(msg("move-not-held", cards=c))
        if self.trick:
            led = self.trick[0][1].suit
            if c.suit != led and any(h.suit == led for h in hand):
                raise IllegalAction(msg("spar-follow", suit=msg(f"suit-{led}")))
        return self._play(seat, c)

    def _ask_peek(self, seat: int) -> list[Event]:
        """Peek: the request; every other player then answers in play order from the asker."""
        if self.phase == "peek":
            raise IllegalAction(msg("spar-peek-pending"))
        if seat in self.peek_refused:
            raise IllegalAction(msg("spar-peek-refused"))
        if not self._peek_open(seat):
            raise IllegalAction(msg("spar-peek-when"))
        order = list(seats.iter_from(seat, self.players, self.variant.direction))
        self.peek_asker = seat
        self.peek_waiting = order[1:]
        self.phase = "peek"
        return [Event("peek_ask", seat)]

    def _answer_peek(self, seat: int, agree: bool) -> list[Event]:
        """Peek: one answer. The card is shown only if every other player agrees; the first
        refusal ends the request."""
        if self.phase != "peek":
            raise IllegalAction(msg("spar-peek-nobody"))
        if seat != self.peek_waiting[0]:
            raise IllegalAction(msg("spar-peek-not-yours"))
        asker = self.peek_asker
        assert asker is not None
        if not agree:
            self.peek_refused.append(asker)
            self._end_peek()
            return [Event("peek_refuse", seat, (), str(asker))]
        self.peek_waiting.pop(0)
        events = [Event("peek_agree", seat, (), str(asker))]
        if not self.peek_waiting:
            self._end_peek()
            self.peeked = self.stock[-1]
            events.append(Event("peek", asker, (self.peeked,)))
        return events

    def _end_peek(self) -> None:
        self.phase = "play"
        self.peek_asker = None
        self.peek_waiting = []

    def _exchange(self, seat: int, redeal: bool) -> list[Event]:
        self.exchange_queue.pop(0)
        if redeal:
            # The old hand is thrown away face down; new cards come from the undealt top.
            k = len(self.hands[seat])
            self.thrown[seat] = self.hands[seat]
            self.hands[seat] = self.stock[:k]
            del self.stock[:k]
            events = [Event("redeal", seat, tuple(self.hands[seat]), None, True)]
        else:
            events = [Event("keep", seat)]
        self._next_exchange()
        return events

    def _play(self, seat: int, c: Card) -> list[Event]:
        hand = self.hands[seat]
        hand.remove(c)
        face_up = True
        trick = self.trick
        if trick:
            led = trick[0][1].suit
            rule = self.variant.face_down
            if c.suit != led and rule != "beat":
                # Failing to follow shows a void (Sipa hides it: any weak card goes face down).
                self.voids[seat].add(led)
            if rule == "follow" and c.suit != led:
                face_up = False  # Benin: cannot follow, the card goes face down
            elif rule == "beat":
                # Sipa: a card that does not beat the highest so far goes face down.
                strength = self.strength
                top = max(strength[x] for _s, x, up in trick if up and x.suit == led)
                face_up = c.suit == led and strength[c] > top
        trick.append((seat, c, face_up))
        events = [Event("play", seat, (c,), None if face_up else "down", not face_up)]
        if len(trick) < self.players:
            self.turn = seats.step(seat, self.players, self.variant.direction)
            return events
        strength = self.strength
        idx = tricks.winner(
            [(s, x) for s, x, _up in trick], strength.__getitem__, trick[0][1].suit,
            can_win=lambda i: trick[i][2],
        )
        win_seat, win_card = trick[idx][0], trick[idx][1]
        self.winners.append((win_seat, win_card))
        self.tricks_won[win_seat] += 1
        for s, x, up in trick:
            self.pile.append(x)
            self.pile_down.append(not up)
            self.pile_seats.append(s)
        self.last_trick = trick
        self.trick = []
        events.append(Event("trick", win_seat, (win_card,), str(self.trick_number)))
        if self.trick_number == self.hand_size:
            return events + self._end_deal(win_seat)
        self.trick_number += 1
        self.leader = win_seat
        self.turn = win_seat
        return events

    def deal_value(self, winner: int) -> int:
        """Points from each other player for the deal (Spar, Benin, Sipa, Fapfap scores)."""
        won = self.winners
        last = won[-1][1].rank

        def by_winner_with(rank: int, count: int) -> bool:
            tail = won[-count:]
            return len(tail) == count and all(s == winner and c.rank == rank for s, c in tail)

        kind = self.variant.scoring
        if kind == "spar":
            plain = 3 if last == 6 else 2 if last == 7 else 1
            if self.essilfy and len(won) >= 2 and won[-2][0] == winner:
                pair = sorted((won[-2][1].rank, last))
                # Essilfy: both last tricks with sixes or sevens add 6 (6-6), 5 (6-7 or 7-6)
                # or 4 (7-7) to the last trick's own points: 9, 8 (7 then 6), 7 (6 then 7), 6.
                bonus = {(6, 6): 6, (6, 7): 5, (7, 7): 4}.get((pair[0], pair[1]), 0)
                return plain + bonus
            return plain
        if kind == "benin":
            return 2 if last == 7 else 1
        if kind == "sipa":
            if by_winner_with(7, 3):
                return 6
            if by_winner_with(7, 2):
                return 4
            return 2 if last == 7 else 1
        if kind == "fapfap":
            if by_winner_with(3, 2):
                return 4
            return 2 if last == 3 else 1
        return 0

    def _tally(self, winner: int, value: int) -> list[Entry]:
        """The deal explained: the 'last-trick' (its number and winning card), an 'essilfy'
        (Spar) or a 'run' (Sipa, Fapfap) of last tricks that raised the value, and the
        'deal-won' entry: its value from each other player (points), or one deal won."""
        won = self.winners
        seat = (winner,)
        found = [Entry("last-trick", seat, len(won), (won[-1][1],))]
        if self.variant.scoring == "deals":
            found.append(Entry("deal-won", seat, None, points=1))
            return found
        last = won[-1][1].rank
        plain = {"spar": 3 if last == 6 else 2 if last == 7 else 1,
                 "benin": 2 if last == 7 else 1, "sipa": 2 if last == 7 else 1,
                 "fapfap": 2 if last == 3 else 1}.get(self.variant.scoring, value)
        if value != plain:
            count = 3 if self.variant.scoring == "sipa" and value == 6 else 2
            key = "essilfy" if self.variant.scoring == "spar" else "run"
            found.append(Entry(key, seat, count, tuple(c for _s, c in won[-count:])))
        found.append(Entry("deal-won", seat, value, points=value * (self.players - 1)))
        return found

    def _end_deal(self, winner: int) -> list[Event]:
        n = self.players
        self.turn = None
        if self.variant.scoring == "deals":
            self.deals_won[winner] += 1
            value = 0
        else:
            # The deal's winner gains the value from each other player; nobody loses points.
            value = self.deal_value(winner)
            self.points[winner] += value * (n - 1)
            self.deals_won[winner] += 1
        self.last_deal = {"deal": self.deal_number, "winner": winner, "value": value}
        self.add_tally(self._tally(winner, value))
        events = [Event("deal-won", winner, (), str(value))]
        if self._match_over():
            self.finished = True
            self.phase = "over"
            events.append(Event("match-end", None))
            return events
        self.deal_number += 1
        if self.stop_at_deal_end:  # a search's sample: nobody looks at the next deal
            return events
        events.extend(self.start_deal(winner, None))  # the winner deals next
        return events

    def _match_over(self) -> bool:
        if self.variant.scoring == "deals":
            return self.deal_number >= self.deals_limit
        return max(self.points) >= self.target

    def view(self, seat: int | None) -> View:
        """Own hand; tricks with face-down cards as None; scores, piles and counts."""
        own = self.hands[seat] if seat is not None and 0 <= seat < self.players else []
        data = self.base_view(seat, own)

        def shown(t: list[tuple[int, Card, bool]] | None) -> list[dict[str, Any]] | None:
            if t is None:
                return None
            return [{"seat": s, "card": str(x) if up else None} for s, x, up in t]

        data.update(
            variant=self.variant.name,
            phase=self.phase,
            dealer=self.dealer,
            hand_counts=[len(h) for h in self.hands],
            live=[True] * self.players,
            trick=shown(self.trick),
            leader=self.leader,
            last_trick=shown(self.last_trick),
            tricks_won=list(self.tricks_won),
            trick_winners=[{"seat": s, "card": str(x)} for s, x in self.winners],
            trumps=None,
            trick_number=self.trick_number,
            tricks_per_deal=self.hand_size,
            pile=[None if down else str(x) for x, down in zip(self.pile, self.pile_down,
                                                              strict=True)],
            stock=len(self.stock),
            thrown=[len(t) for t in self.thrown],
            peeked=None if self.peeked is None else str(self.peeked),
            peek_asker=self.peek_asker,
            peek_waiting=list(self.peek_waiting),
            peek_refused=list(self.peek_refused),
            points=list(self.points),
            deals_won=list(self.deals_won),
            target=self.target if self.variant.scoring != "deals" else None,
            deals=self.deals_limit if self.variant.scoring == "deals" else None,
            last_deal=None if self.last_deal is None else dict(self.last_deal),
        )
        return View(data)

    @property
    def over(self) -> bool:
        """True once the match has ended."""
        return self.finished

    @property
    def outcome(self) -> Outcome | None:
        """Ranked by total score (Agram family: deals won), ties sharing a place."""
        if not self.finished:
            return None
        sc = self.scores()
        return Outcome.from_keys([-x for x in sc], sc)

    def scores(self) -> list[float]:
        """Points (Agram family: deals won)."""
        if self.variant.scoring == "deals":
            return [float(x) for x in self.deals_won]
        return [float(x) for x in self.points]

    def clone(self) -> SparState:
        """A hand-written copy (fast for playouts)."""
        new = object.__new__(SparState)
        d = self.__dict__.copy()
        d["points"] = list(self.points)
        d["deals_won"] = list(self.deals_won)
        d["hands"] = [list(h) for h in self.hands]
        d["stock"] = list(self.stock)
        d["thrown"] = [list(t) for t in self.thrown]
        d["pile"] = list(self.pile)
        d["pile_down"] = list(self.pile_down)
        d["pile_seats"] = list(self.pile_seats)
        d["trick"] = list(self.trick)
        d["exchange_queue"] = list(self.exchange_queue)
        d["peek_waiting"] = list(self.peek_waiting)
        d["peek_refused"] = list(self.peek_refused)
        d["winners"] = list(self.winners)
        d["tricks_won"] = list(self.tricks_won)
        d["voids"] = [set(v) for v in self.voids]
        new.__dict__ = d
        return new

    def determinize(self, seat: int | None, rng: random.Random) -> SparState:
        """Unseen cards (other hands, face-down plays, thrown hands, the stock) re-dealt.

        Known voids stay respected, a face-down card stays one that could have been played
        face down there, and a shown bottom card stays at the bottom.
        """
        new = self.clone()
        # Slots: (zone, seat, index, forbidden suits, led suit, strength cap).
        slots: list[tuple[str, int, int, frozenset[str], str | None, int]] = []
        unknown: list[Card] = []
        strength = self.strength
        for s in range(self.players):
            if s == seat:
                continue
            void = frozenset(self.voids[s])
            for i, c in enumerate(self.hands[s]):
                slots.append(("hand", s, i, void, None, 0))
                unknown.append(c)
            for i, c in enumerate(self.thrown[s]):
                slots.append(("thrown", s, i, frozenset(), None, 0))
                unknown.append(c)
        tricks_so_far = [self.pile[i:i + self.players]
                         for i in range(0, len(self.pile), self.players)]
        for i, c in enumerate(self.pile):
            if self.pile_down[i] and self.pile_seats[i] != seat:
                t = tricks_so_far[i // self.players]
                slots.append(("pile", -1, i, *self._down_rule(t, i % self.players, strength)))
                unknown.append(c)
        for i, (s, c, up) in enumerate(self.trick):
            if not up and s != seat:
                cards = [x for _s, x, _u in self.trick]
                slots.append(("trick", s, i, *self._down_rule(cards, i, strength)))
                unknown.append(c)
        keep_bottom = self.peeked is not None
        for i, c in enumerate(self.stock):
            if keep_bottom and i == len(self.stock) - 1:
                continue
            slots.append(("stock", -1, i, frozenset(), None, 0))
            unknown.append(c)
        # Most constrained slots first; a few random greedy tries, else a deal without the
        # constraints rather than the real one (the seat must never see the unseen cards).
        slots.sort(key=lambda sl: -(len(sl[3]) * 10 + (sl[4] is not None)))
        # The free slots (no void, no led suit) come last and each takes the first card left:
        # together, the rest of the pool in its order. The others' suits as numbers.
        bound = [(frozenset(_SUIT_NUMBER[x] for x in void),
                  -1 if led is None else _SUIT_NUMBER[led], cap)
                 for _zone, _s, _i, void, led, cap in slots if void or led is not None]
        placed: list[Card] | None = None
        for _ in range(20):
            pool = list(unknown)
            rng.shuffle(pool)
            chosen: list[Card] = []
            for void_suits, led_suit, cap in bound:
                for j, c in enumerate(pool):
                    suit = c >> 4
                    if suit in void_suits:
                        continue
                    if suit == led_suit and strength[c] >= cap:
                        continue
                    chosen.append(pool.pop(j))
                    break
                else:
                    break
            if len(chosen) == len(bound):
                chosen.extend(pool)
                placed = chosen
                break
        if placed is None:
            placed = list(unknown)
            rng.shuffle(placed)
        for (zone, s, i, *_rest), c in zip(slots, placed, strict=True):
            if zone == "hand":
                new.hands[s][i] = c
            elif zone == "thrown":
                new.thrown[s][i] = c
            elif zone == "pile":
                new.pile[i] = c
            elif zone == "trick":
                ts, _old, up = new.trick[i]
                new.trick[i] = (ts, c, up)
            else:
                new.stock[i] = c
        if self.last_trick is not None:
            k = len(new.pile) - self.players
            new.last_trick = [
                (s, new.pile[k + j], up) for j, (s, _c, up) in enumerate(self.last_trick or [])
            ]
        reseeded(new, rng)
        new.deal_seed = new.rng.getrandbits(64)
        new.rng = _SpentRandom(new.deal_seed)
        return new

    def _down_rule(
        self, cards: list[Card], index: int, strength: list[int]
    ) -> tuple[frozenset[str], str | None, int]:
        """What a face-down card at ``index`` of a trick could be (Benin / Sipa)."""
        led = cards[0].suit
        if self.variant.face_down == "follow":
            return frozenset({led}), None, 0
        top = max(strength[c] for c in cards[:index] if c.suit == led)
        return frozenset(), led, top

    def zones(self) -> dict[str, list[Card]]:
        """Hands, thrown hands, the current trick, the played pile and the undealt stock."""
        z = {f"hand{s}": list(h) for s, h in enumerate(self.hands)}
        for s, t in enumerate(self.thrown):
            z[f"thrown{s}"] = list(t)
        z["trick"] = [c for _s, c, _u in self.trick]
        z["pile"] = list(self.pile)
        z["stock"] = list(self.stock)
        return z

    def pack(self) -> list[Card]:
        """The member's pack."""
        return list(_pack_cached(self.variant, self.spade_ace))


class SparRules(Rules):
    """The Spar family: win the last trick."""

    id = "spar"
    name = "Spar"
    min_players = 2
    max_players = 7
    usual_players = 4
    options = (
        Option("variant", "choice", "spar",
               "Which member of the family: spar, benin, sipa, agram, sink-sink, fapfap, "
               "agram-mali.",
               choices=tuple(VARIANTS)),
        seat_option("dealer", "The first dealer (random if unset)."),
        Option("target", "int", None,
               "Points that end the match (default: the variant's own: 30, 24 or 10).",
               minimum=1, maximum=1000,
               samples=(None, 4)),
        Option("deals", "int", 5, "Deals in a game of Agram, Sink-Sink or Agram (Mali).",
               minimum=1, maximum=100, samples=(5, 2)),
        Option("spade_ace", "bool", False, "Spar: play with the ace of spades too (36 cards)."),
        Option("hand", "choice", "5", "Spar: 5 cards (3+2) or 7 cards (3+4, at most 5 players).",
               choices=("5", "7")),
        Option("under_ten", "bool", False,
               "Spar: a hand whose highest card is a 9 or lower may be changed for new cards."),
        Option("peek", "bool", False,
               "Spar: during the second-to-last trick anyone may ask to see the bottom undealt "
               "card; it is shown if every other player agrees."),
        Option("essilfy", "bool", False,
               "Spar: winning the last two tricks with sixes or sevens adds 6, 5 or 4 to the "
               "last trick's points."),
    )
    test_mixes = (
        (3, {"variant": "agram", "deals": 2}),
        (4, {"variant": "benin", "target": 4}),
        (3, {"variant": "sipa", "target": 4}),
        (4, {"variant": "fapfap", "target": 4}),
        (4, {"variant": "sink-sink", "deals": 2}),
        (5, {"variant": "agram-mali", "deals": 2}),
        (3, {"target": 6, "spade_ace": True, "hand": "7", "under_ten": True, "peek": True,
             "essilfy": True}),
        (5, {"target": 4, "under_ten": True, "peek": True}),
    )
    summary_en = (
        "Spar (Ghana) and relatives: only the last trick matters.\n"
        "No trumps; follow the led suit if you can, else play any card; the highest card of\n"
        "the led suit wins and leads next.\n"
        "Spar: 35 cards A K Q J T 9 8 7 6 (no ace of spades), 5 each (3+2) clockwise.\n"
        "The winner of the last trick wins the deal and scores from each other player:\n"
        "3 for a winning 6, 2 for a 7, 1 otherwise; first to 30. The winner deals next.\n"
        "Options: ace of spades, 7-card hands, changing a hand below ten, peeking at the\n"
        "bottom card if all agree, Essilfy's bonus for the last two tricks won with\n"
        "sixes or sevens (6-6 adds 6, 6-7 or 7-6 adds 5, 7-7 adds 4).\n"
        "Benin: 31 cards (no 6s); can't follow = card face down; 7 scores 2; to 24.\n"
        "Sipa: like Benin but counter-clockwise; a card that does not beat goes face down;\n"
        "sevens in the last 1/2/3 tricks score 2/4/6; to 10.\n"
        "Agram: A T 9 8 7 6 5 4 3, 6 each, counter-clockwise; most deals won in 5 deals.\n"
        "Sink-Sink: Agram with 5 cards (3+2). Fapfap: Agram's 6 cards (3+3) for points:\n"
        "the last trick won with a 3 scores 2, the 5th and 6th both with threes 4; to 10.\n"
        "Agram (Mali): 31 cards ranked A K T Q 9 8 J 7, 6 each (3+3)."
    )

    def check_options(self, players: int, options: dict[str, OptionValue]) -> None:
        """Refuse options that do not belong to the chosen member, and too many players."""
        v = VARIANTS[str(options["variant"])]
        defaults = {o.name: o.default for o in self.options}
        if v.name != "spar":
            for name in SPAR_ONLY:
                if options[name] != defaults[name]:
                    raise OptionError("spar-only", name=name, variant=v.name)
        if v.scoring == "deals":
            if options["target"] is not None:
                raise OptionError("target-counts-deals", variant=v.name)
        elif options["deals"] != defaults["deals"]:
            raise OptionError("deals-only", variant=v.name)
        size = len(pack_of(v, bool(options["spade_ace"])))
        hand = 7 if options["hand"] == "7" else sum(v.packets)
        if hand == 7 and players > 5:
            raise OptionError("hand-seven", most=5)
        if players * hand > size:
            raise OptionError("variant-players", variant=v.name, hand=hand, size=size,
                              most=size // hand)

    def create(
        self, players: int, seed: int, options: dict[str, OptionValue], deck: list[Card] | None
    ) -> SparState:
        """A new match; the first deal is dealt at once."""
        state = SparState(self, players, seed, options)
        if deck is not None:
            deck = check_deck(deck, state.pack())
        dealer = options["dealer"]
        first = state.rng.randrange(players) if dealer is None else int(dealer)
        state.deal_seed = state.rng.getrandbits(64)
        state.rng = _SpentRandom(state.deal_seed)
        state.start_deal(first, deck)
        return state

    def timeout_action(self, state: State, seat: int) -> Action | None:
        """Peek: a player who does not answer the request in time refuses it."""
        return PEEK_REFUSE if PEEK_REFUSE in state.legal_actions(seat) else None

    # -- words -------------------------------------------------------------------------------
    def hand_key(self, view: View) -> Callable[[Card], tuple[int, int]]:
        """Suits with colours alternating (♠ ♥ ♣ ♦), each from high to low in the variant's
        own rank order (Mali: A K T Q 9 8 J 7)."""
        variant = VARIANTS.get(str(view.get("variant")), VARIANTS["spar"])
        order = {rank: i for i, rank in enumerate(variant.ranks)}
        return by_suit(lambda c: order.get(c.rank, c.rank))

    def default_text(self, option: Option, lang: str = "en") -> str:
        """The target's default is each variant's own; the members counting deals have none."""
        if option.name != "target":
            return super().default_text(option, lang)
        comma = text("spar-list-sep", lang)
        own = comma.join(f"{v.name} {v.target}" for v in VARIANTS.values() if v.target)
        none = comma.join(v.name for v in VARIANTS.values() if not v.target)
        return text("spar-target-default", lang, own=own, none=none)

    def action_message(self, action: Action) -> Msg:
        """'Play 6♥', 'Change hand', 'Keep hand', 'Ask to see the bottom card', the answers."""
        if action.kind == "play" and action.cards:
            return msg("act-play", cards=action.cards[0])
        if action.kind in ("redeal", "keep", "peek", "peek_agree", "peek_refuse"):
            return msg(f"spar-act-{action.kind}")
        return super().action_message(action)

    def event_message(self, event: Event, names: Sequence[str] | None = None) -> Msg | None:
        """A sentence for an event."""
        who = "" if event.seat is None else seat_name(event.seat, names, "seat-short")
        k = event.kind
        if k == "play" and event.arg == "down":
            k = "down" if event.cards else "down-hidden"
        if k in ("peek_agree", "peek_refuse"):  # the argument: the seat that asked
            asked = int(event.arg) if event.arg is not None and event.arg.isdigit() else None
            asker = "" if asked is None else seat_name(asked, names, "seat-short")
            return msg(f"spar-ev-{k}", who=who, asker=asker)
        if k in _EVENTS:
            return msg(f"spar-ev-{k}", who=who, cards=event.cards, arg=event.arg or "")
        return super().event_message(event, names)

    def view_text(self, view: View, lang: str = "en") -> str:
        """The table as text."""
        v = VARIANTS[view["variant"]]
        key = f"game-spar-variant-{v.name}"
        name = text(key, lang) if has(key, lang) else v.name_en
        lines = [text("spar-view-head", lang, variant=name, deal=view["deal"],
                      trick=view["trick_number"])]
        for s in range(view["players"]):
            lines.append(text("spar-view-seat", lang, mark="*" if s in view["to_act"] else " ",
                              n=s + 1, count=count_msg(view["hand_counts"][s]),
                              score=int(view["scores"][s])))
        down = text("spar-view-down", lang)
        played = [f"{e['seat'] + 1}:{show_codes([e['card']], lang) if e['card'] else down}"
                  for e in view["trick"]]
        lines.append(text("spar-view-trick", lang, plays=" ".join(played) or "-"))
        if view.get("peek_asker") is not None:
            waiting = text("spar-list-sep", lang).join(
                text("seat-short", lang, n=int(x) + 1) for x in view["peek_waiting"])
            lines.append(text("spar-view-peek", lang, asker=int(view["peek_asker"]) + 1,
                              waiting=waiting))
        if view["peeked"]:
            lines.append(text("spar-view-bottom", lang, cards=show_codes([view["peeked"]], lang)))
        if view["hand"]:
            lines.append(text("spar-view-hand", lang, cards=show(self.sorted_hand(view), lang)))
        return "\n".join(lines)


#: the events a person reads, worded with the seat, the cards and the event's argument
_EVENTS = frozenset({"deal", "play", "down", "down-hidden", "trick", "deal-won", "redeal",
                     "keep", "peek_ask", "peek", "match-end"})


RULES = SparRules()
