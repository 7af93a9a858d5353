"""1234 (Thai: nueng-song-sam-si): beat the number by 1 to 4, or pass with a combination.

Rules: ``docs/rules/1234.md``. Each turn a player puts down either a **play** whose values
add up to 1-4 more than the number to beat, or a **pass** combination; a player who can do
neither drops out. The last player in, or the best hand when the stock runs out, wins the game;
a table plays a series of games scored in chips, winner's points or penalty points.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from games import seats
from games.cards import (
    Card,
    by_suit,
    parse_many,
    show,
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
    joined,
    msg,
    reseeded,
    seat_name,
    seat_option,
)
from games.wording import text

HAND_SIZE = 5
MAX_DRAW = 3  # "never more than 3 cards in one turn" (A turn)
SCORINGS = ("chips", "winner", "penalty")

# Card values (Players and cards): A = 1, 2-10 their number, J 11, Q 12, K 13.
VALUE: list[int] = [0] * 96
for _c in standard_deck():
    VALUE[_c] = 1 if _c.rank == 14 else _c.rank
# Number cards are A-10; courts are J, Q, K (the pass combinations).
IS_NUMBER: list[bool] = [VALUE[i] != 0 and VALUE[i] <= 10 for i in range(96)]

RANK: list[int] = [i & 15 for i in range(96)]
SUIT: list[int] = [i >> 4 for i in range(96)]


def _subset_table(n: int) -> list[tuple[int, tuple[int, ...], int, int]]:
    """Each non-empty subset of n cards: (mask, indices, mask less its lowest card, lowest)."""
    rows = []
    for mask in range(1, 1 << n):
        low = (mask & -mask).bit_length() - 1
        idx = tuple(i for i in range(n) if mask >> i & 1)
        rows.append((mask, idx, mask & (mask - 1), low))
    return rows


_SUBSETS = [_subset_table(n) for n in range(9)]
# Per mask: the indices of its cards (index 0 unused).
_MEMBERS = [[(), *(idx for _m, idx, _p, _l in rows)] for rows in _SUBSETS]
_DECK = standard_deck()


def card_value(card: Card) -> int:
    """The value of a card: A 1, numbers as printed, J 11, Q 12, K 13."""
    return VALUE[card]


def is_pass(cards: tuple[Card, ...] | list[Card]) -> bool:
    """True when the cards are one of the pass combinations (A turn, 2)."""
    n = len(cards)
    if n == 1:
        return cards[0].rank == 14  # a single ace
    if n == 3:
        a, b, c = cards
        if a.suit == b.suit == c.suit:  # three of a suit, courts allowed
            return True
        if a.rank == b.rank == c.rank:  # three of a rank, numbers or courts
            return True
        # two number cards of one rank plus one court
        for x, y, z in ((a, b, c), (a, c, b), (b, c, a)):
            if x.rank == y.rank and IS_NUMBER[x] and not IS_NUMBER[z]:
                return True
        return False
    if n == 4:
        # Two pairs of number cards. Decision: the pairs may share a rank (four of a kind).
        if not all(IS_NUMBER[c] for c in cards):
            return False
        r = sorted(c.rank for c in cards)
        return r[0] == r[1] and r[2] == r[3]
    return False


def hand_key(hand: list[Card]) -> list[int]:
    """Values high to low: the stock-out comparison (K high, A low, then the next card)."""
    return sorted((VALUE[c] for c in hand), reverse=True)


Choices = tuple[list[tuple[int, ...]], list[tuple[int, ...]]]


def subset_totals(values: list[int]) -> list[int]:
    """The total of every subset of ``values``, by mask (bit i: value i): the list doubles once
    per value."""
    sums = [0]
    for v in values:
        sums += [t + v for t in sums]
    return sums


def choices_for(hand: list[Card], to_beat: int) -> Choices:
    """The plays and the passes of ``hand`` against ``to_beat``, as positions in the hand."""
    low, high = to_beat + 1, to_beat + 4
    sums = subset_totals([VALUE[c] for c in hand])
    members = _MEMBERS[len(hand)]
    plays = [members[m] for m in range(1, len(sums)) if low <= sums[m] <= high]
    passes: list[tuple[int, ...]] = []
    by_suit: dict[int, list[int]] = {}
    by_rank: dict[int, list[int]] = {}
    courts: list[int] = []
    for i, c in enumerate(hand):
        r = RANK[c]
        if r == 14:
            passes.append((i,))  # a single ace
        by_suit.setdefault(SUIT[c], []).append(i)
        by_rank.setdefault(r, []).append(i)
        if 11 <= r <= 13:
            courts.append(i)
    for group in by_suit.values():
        if len(group) >= 3:
            passes.extend(combinations(group, 3))  # three of a suit
    paired: list[int] = []
    for r, group in by_rank.items():
        if len(group) >= 3:
            passes.extend(combinations(group, 3))  # three of a rank
        if len(group) >= 2 and not 11 <= r <= 13:
            paired.extend(group)
            for pair in combinations(group, 2):  # two number cards of a rank plus a court
                passes.extend(tuple(sorted((*pair, k))) for k in courts)
    if len(paired) >= 4:
        # Two pairs of number cards. Decision: the pairs may share a rank (four of a kind).
        for quad in combinations(sorted(paired), 4):
            q = sorted(RANK[hand[i]] for i in quad)
            if q[0] == q[1] and q[2] == q[3]:
                passes.append(quad)
    passes.sort()
    return plays, passes


def moves_for(hand: list[Card], to_beat: int) -> list[Action]:
    """Every play and pass from ``hand`` against ``to_beat``: plays first, then passes."""
    return actions_of(hand, choices_for(hand, to_beat))


def actions_of(hand: list[Card], choices: Choices) -> list[Action]:
    """The actions for choices made as positions in ``hand``."""
    new = tuple.__new__
    plays, passes = choices
    result = [new(Action, ("play", None, tuple([hand[i] for i in idx]))) for idx in plays]
    result += [new(Action, ("pass", None, tuple([hand[i] for i in idx]))) for idx in passes]
    return result


class OneTwoThreeFourState(State):
    """A series of 1234 games."""

    def __init__(self, rules: Rules, players: int, seed: int, options: dict[str, OptionValue]):
        super().__init__(rules, players, seed, options)
        self.scoring = str(options["scoring"])
        self.games = int(options["games"])  # type: ignore[arg-type]
        self.target = int(options["target"])  # type: ignore[arg-type]
        start = int(options["chips"]) if self.scoring == "chips" else 0  # type: ignore[arg-type]
        self.points: list[int] = [start] * players
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.live: list[bool] = [True] * players
        self.stock: list[Card] = []  # top card last
        self.table: list[Card] = []  # start card first, then every card put down
        self.start_card: Card | None = None
        self.to_beat = 0
        self.dealer = 0
        self.turn: int | None = None
        self.finished = False
        self.last_play: tuple[int, str, tuple[Card, ...]] | None = None
        self.last_game: dict[str, Any] | None = None
        self.game_winners: list[int] = []
        self._choices: Choices = ([], [])
        self.deal_seed = 0

    # -- dealing ----------------------------------------------------------------------------
    def start_game(self, dealer: int, deck: list[Card] | None) -> list[Event]:
        """Deal a new game (Setup): 5 each from the dealer's left, then the start card."""
        n = self.players
        if deck is None:
            # Each game is shuffled by its own generator, seeded from the last one, so that a
            # clone need not copy a whole generator (playout speed).
            shuffler = random.Random(self.deal_seed)
            draw = shuffler.random
            deck = sorted(_DECK, key=lambda _c: draw())
            self.deal_seed = shuffler.getrandbits(64)
        self.dealer = dealer
        self.hands = [[] for _ in range(n)]
        self.live = [True] * n
        pos = 0
        for _ in range(HAND_SIZE):
            for s in seats.iter_from(seats.left(dealer, n), n):
                self.hands[s].append(deck[pos])
                pos += 1
        self.start_card = deck[pos]
        self.to_beat = VALUE[deck[pos]]
        self.table = [deck[pos]]
        self.stock = deck[pos + 1:][::-1]
        self.last_play = None
        events = [Event("deal", dealer, (deck[pos],), str(self.deal_number))]
        # Turn order: the dealer's right first, then to the right (2 players: the non-dealer).
        self.turn = seats.right(dealer, n)
        events.extend(self._settle_turn())
        return events

    # -- turn handling -----------------------------------------------------------------------
    def _settle_turn(self) -> list[Event]:
        """Drop out whoever cannot act (A turn, 3) until someone can, or the game ends."""
        events: list[Event] = []
        while True:
            assert self.turn is not None
            if sum(self.live) == 1:
                return events + self._end_game([self.live.index(True)], "last")
            choices = choices_for(self.hands[self.turn], self.to_beat)
            if choices[0] or choices[1]:
                self._choices = choices
                return events
            s = self.turn
            self.live[s] = False
            # The hand goes face down in front of the player: only its size is public.
            events.append(Event("drop", s, tuple(self.hands[s]), None, True))
            self.turn = seats.next_in(s, self.players, self.live, seats.COUNTER_CLOCKWISE)

    def _end_game(self, winners: list[int], why: str) -> list[Event]:
        """Score a finished game (Match scoring) and deal the next one or end the series."""
        n = self.players
        totals = [sum(VALUE[c] for c in h) for h in self.hands]
        events = [Event("show", s, tuple(self.hands[s])) for s in range(n)]
        events.append(Event("win", winners[0], (), ",".join(str(w) for w in winners)))
        self.game_winners = winners
        gain = [0] * n
        losers = [s for s in range(n) if s not in winners]
        if self.scoring == "chips":
            # Each non-winner pays their total, or what they have. Shared winners split each
            # payment equally; an odd remainder stays with the payer (chips are whole).
            for s in losers:
                pay = min(totals[s], self.points[s])
                share = pay // len(winners)
                for w in winners:
                    gain[w] += share
                gain[s] -= share * len(winners)
        elif self.scoring == "winner":
            # Decision: shared winners split each non-winner's total on its own, rounded down.
            share = sum(totals[s] // len(winners) for s in losers)
            for w in winners:
                gain[w] += share
        else:
            for s in losers:
                gain[s] += totals[s]
        for s in range(n):
            self.points[s] += gain[s]
        # The game explained: who 'won' (and why: 'empty', 'last' or 'stock'), then each
        # seat's 'hand' (the cards shown, their total) with the chips or points it brought.
        # (each hand in the hand order, as its player saw it)
        order = self.rules.hand_key(View({}))
        self.add_tally([Entry("won", tuple(winners), why)] + [
            Entry("hand", (s,), totals[s], tuple(sorted(self.hands[s], key=order)),
                  points=gain[s])
            for s in range(n)])
        self.last_game = {
            "game": self.deal_number,
            "winners": list(winners),
            "why": why,
            "totals": totals,
            "gain": gain,
            "hands": [[str(c) for c in h] for h in self.hands],
        }
        events.append(Event("score", None, (), " ".join(str(g) for g in gain)))
        self.turn = None
        self._choices = ([], [])
        if self._series_over():
            self.finished = True
            events.append(Event("match-end", None))
            return events
        if self.stop_at_deal_end:
            self.deal_number += 1
            return events
        # The winner deals the next game; shared winners: the first of them in turn order.
        nxt = winners[0]
        for s in seats.iter_from(self._first_player(), n, seats.COUNTER_CLOCKWISE):
            if s in winners:
                nxt = s
                break
        self.deal_number += 1
        events.extend(self.start_game(nxt, None))
        return events

    def _first_player(self) -> int:
        return seats.right(self.dealer, self.players)

    def _series_over(self) -> bool:
        if self.deal_number >= self.games:
            return True
        if self.scoring == "chips":
            return min(self.points) <= 0
        if self.scoring == "winner":
            return max(self.points) >= self.target
        return False

    # -- the contract ------------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        """The player whose turn it is."""
        return () if self.turn is None else (self.turn,)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every play and pass of the player to act."""
        if seat != self.turn:
            return []
        return actions_of(self.hands[seat], self._choices)

    def random_action(self, seat: int, rng: random.Random) -> Action:
        """The same choice as ``rng.choice(legal_actions(seat))``, without listing them all."""
        if seat != self.turn:
            return super().random_action(seat, rng)
        plays, passes = self._choices
        k = rng.randrange(len(plays) + len(passes))
        hand = self.hands[seat]
        if k < len(plays):
            return Action("play", None, tuple([hand[i] for i in plays[k]]))
        return Action("pass", None, tuple([hand[i] for i in passes[k - len(plays)]]))

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if seat != self.turn:
            raise IllegalAction(msg("move-not-your-turn"))
        if action.kind not in ("play", "pass"):
            raise IllegalAction(msg("1234-kinds"))
        if action.arg is not None:
            raise IllegalAction(msg("1234-no-value", kind=action.kind, arg=action.arg))
        cards = action.cards
        if not cards:
            raise IllegalAction(msg("1234-name-cards", kind=action.kind))
        hand = self.hands[seat]
        if len(set(cards)) != len(cards):
            raise IllegalAction(msg("1234-once"))
        for c in cards:
            if c not in hand:
                raise IllegalAction(msg("move-not-held", cards=c))
        if action.kind == "play":
            total = sum(VALUE[c] for c in cards)
            if not self.to_beat + 1 <= total <= self.to_beat + 4:
                raise IllegalAction(msg("1234-total", least=self.to_beat + 1,
                                        most=self.to_beat + 4, total=total))
        elif not is_pass(cards):
            raise IllegalAction(msg("1234-pass-shape"))
        return self._put_down(seat, action.kind, cards)

    def _put_down(self, seat: int, kind: str, cards: tuple[Card, ...]) -> list[Event]:
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
        self.table.extend(cards)
        events = [Event(kind, seat, cards)]
        if kind == "play":
            self.to_beat = sum(VALUE[c] for c in cards)
            events[0] = Event(kind, seat, cards, str(self.to_beat))
        self.last_play = (seat, kind, cards)
        drawn = self.draw_up(hand)
        if drawn:
            events.append(Event("draw", seat, drawn, None, True))
        if not self.stock:
            return events + self._end_game(self.best_hands(), "stock")
        self.turn = seats.next_in(seat, self.players, self.live, seats.COUNTER_CLOCKWISE)
        events.extend(self._settle_turn())
        return events

    def draw_up(self, hand: list[Card]) -> tuple[Card, ...]:
        """Draw back to 5 from the stock, never more than 3 in one turn; the cards drawn."""
        stock = self.stock
        want = min(MAX_DRAW, HAND_SIZE - len(hand), len(stock))
        if want <= 0:
            return ()
        drawn = tuple(stock[-1 - i] for i in range(want))
        del stock[len(stock) - want:]
        hand.extend(drawn)
        return drawn

    def best_hands(self) -> list[int]:
        """The stock ran out: the players still in holding the best hand (End of the game)."""
        ins = [s for s in range(self.players) if self.live[s]]
        best = max(hand_key(self.hands[s]) for s in ins)
        return [s for s in ins if hand_key(self.hands[s]) == best]

    def view(self, seat: int | None) -> View:
        """Own hand, hand counts, the number to beat, the table and the series so far."""
        own = self.hands[seat] if seat is not None and 0 <= seat < self.players else []
        data = self.base_view(seat, own)
        data.update(
            phase="over" if self.finished else "play",
            dealer=self.dealer,
            hand_counts=[len(h) for h in self.hands],
            live=list(self.live),
            dropped=[not x for x in self.live],
            number_to_beat=self.to_beat,
            start_card=None if self.start_card is None else str(self.start_card),
            table=[str(c) for c in self.table],
            last_play=None if self.last_play is None else {
                "seat": self.last_play[0],
                "kind": self.last_play[1],
                "cards": [str(c) for c in self.last_play[2]],
            },
            stock=len(self.stock),
            turn=self.turn,
            scoring=self.scoring,
            games=self.games,
            last_game=None if self.last_game is None else dict(self.last_game),
        )
        return View(data)

    @property
    def over(self) -> bool:
        """True once the series has ended."""
        return self.finished

    @property
    def outcome(self) -> Outcome | None:
        """Most chips or points wins, or the least penalty; a single game: its winner."""
        if not self.finished:
            return None
        pts = self.points
        keys: list[tuple[int, int]]
        lead = 1 if self.scoring == "penalty" else -1
        if self.games == 1:
            keys = [(0 if s in self.game_winners else 1, lead * pts[s])
                    for s in range(self.players)]
        else:
            keys = [(0, lead * pts[s]) for s in range(self.players)]
        return Outcome.from_keys(keys, [float(p) for p in pts])

    def scores(self) -> list[float]:
        """Chips, winner's points or penalty points, by the scoring option."""
        return [float(p) for p in self.points]

    def score_direction(self) -> int:
        """Penalty points are better low; chips and winner's points better high."""
        return -1 if self.scoring == "penalty" else 1

    def clone(self) -> OneTwoThreeFourState:
        """A hand-written copy (fast for playouts)."""
        new = object.__new__(OneTwoThreeFourState)
        d = self.__dict__.copy()
        d["points"] = list(self.points)
        d["hands"] = [list(h) for h in self.hands]
        d["live"] = list(self.live)
        d["stock"] = list(self.stock)
        d["table"] = list(self.table)
        new.__dict__ = d
        return new

    def determinize(self, seat: int | None, rng: random.Random) -> OneTwoThreeFourState:
        """Other hands (dropped ones too) and the stock re-dealt from the unseen cards."""
        new = self.clone()
        unknown: list[Card] = list(self.stock)
        for s in range(self.players):
            if s != seat:
                unknown.extend(self.hands[s])
        rng.shuffle(unknown)
        pos = 0
        for s in range(self.players):
            if s != seat:
                k = len(self.hands[s])
                new.hands[s] = unknown[pos:pos + k]
                pos += k
        new.stock = unknown[pos:]
        if new.turn is not None:
            new._choices = choices_for(new.hands[new.turn], new.to_beat)
        reseeded(new, rng)
        new.deal_seed = new.rng.getrandbits(64)
        return new

    def zones(self) -> dict[str, list[Card]]:
        """Each hand, the stock and the table."""
        z = {f"hand{s}": list(h) for s, h in enumerate(self.hands)}
        z["stock"] = list(self.stock)
        z["table"] = list(self.table)
        return z

    def pack(self) -> list[Card]:
        """One 52-card deck."""
        return standard_deck()


class OneTwoThreeFourRules(Rules):
    """1234: beat the number by 1 to 4, or pass; the last player standing wins."""

    id = "1234"
    name = "1234"
    min_players = 2
    max_players = 5
    usual_players = 4
    options = (
        seat_option("dealer", "The first dealer (random if unset)."),
        Option("scoring", "choice", "chips",
               "How a series is scored: chips, winner's points or penalty points.",
               choices=SCORINGS),
        Option("chips", "int", 100, "Chips each player starts with (chips scoring).",
               minimum=1, maximum=100_000,
               samples=(100, 10)),
        Option("games", "int", 5, "Games in the series (1 = a single game).",
               minimum=1, maximum=1000,
               samples=(5, 1, 2)),
        Option("target", "int", 100, "Points that win the series (winner scoring).",
               minimum=1, maximum=100_000,
               samples=(100, 15)),
    )
    test_mixes = (
        (3, {"scoring": "winner", "target": 15}),
        (4, {"scoring": "chips", "chips": 10, "games": 3}),
        (2, {"scoring": "penalty", "games": 2}),
    )
    summary_en = (
        "1234 (Thailand), 2-5 players, one 52-card deck.\n"
        "Values: A 1, 2-10 as printed, J 11, Q 12, K 13.\n"
        "Each player holds 5 cards; a start card gives the first number to beat.\n"
        "With 3+ players the dealer's right starts and play goes to the right.\n"
        "On your turn, either PLAY cards totalling 1-4 more than the number to beat\n"
        "(the total becomes the new number), or PASS with a combination: a single ace;\n"
        "two number cards of a rank plus a court; three of a suit; three of a rank;\n"
        "or two pairs of number cards (four of a kind counts).\n"
        "If you can do neither you drop out. After your turn draw back to 5 (at most 3).\n"
        "Last player in wins; if the stock runs out, the highest card wins (K high, A low).\n"
        "Series: losers' hand totals are paid in chips to the winner (or scored as points\n"
        "for the winner, or as penalty); the winner deals the next game."
    )

    def check_options(self, players: int, options: dict[str, OptionValue]) -> None:
        """Chips only matter with chips scoring, target only with winner scoring."""
        if options["chips"] != 100 and options["scoring"] != "chips":
            raise OptionError("only-with-scoring", name="chips", scoring="chips")
        if options["target"] != 100 and options["scoring"] != "winner":
            raise OptionError("only-with-scoring", name="target", scoring="winner")

    def create(
        self, players: int, seed: int, options: dict[str, OptionValue], deck: list[Card] | None
    ) -> OneTwoThreeFourState:
        """A new series; the first game is dealt at once."""
        if deck is not None:
            deck = check_deck(deck, standard_deck())
        state = OneTwoThreeFourState(self, players, seed, options)
        dealer = options["dealer"]
        first = state.rng.randrange(players) if dealer is None else int(dealer)
        state.deal_seed = state.rng.getrandbits(64)
        state.start_game(first, deck)
        return state

    # -- words -------------------------------------------------------------------------------
    def hand_key(self, view: View) -> Callable[[Card], tuple[int, int]]:
        """Suits with colours alternating (♠ ♥ ♣ ♦), each by value from K (13) down to A (1)."""
        return by_suit(VALUE.__getitem__)

    def action_message(self, action: Action) -> Msg:
        """'Play 3♠ 6♥ 5♦ (14)' or 'Pass A♣'."""
        if action.kind == "play":
            total = sum(VALUE[c] for c in action.cards)
            return msg("1234-act-play", cards=action.cards, total=total)
        if action.kind == "pass":
            return msg("1234-act-pass", cards=action.cards)
        return super().action_message(action)

    def event_message(self, event: Event, names: Sequence[str] | None = None) -> Msg | None:
        """A sentence for an event."""
        who = "" if event.seat is None else seat_name(event.seat, names, "seat-short")
        k = event.kind
        if k in ("deal", "play", "pass", "drop", "show"):
            return msg(f"1234-ev-{k}", who=who, cards=event.cards, arg=event.arg or "")
        if k == "draw":
            if event.cards:
                return msg("1234-ev-draw-cards", who=who, cards=event.cards)
            return msg("1234-ev-draw-count", who=who,
                       count=count_msg(event.hidden or len(event.cards)))
        if k == "win":
            won = [int(w) for w in (event.arg or "").split(",") if w]
            return msg("1234-ev-win", listed=joined(
                [seat_name(w, names, "seat-short") for w in won], "1234-and"))
        if k == "score":
            parts: list[Msg | str] = [
                msg("1234-change", seat=seat_name(s, names, "seat-short"),
                    change=f"{change:+d}" if change else "±0")
                for s, change in enumerate(int(x) for x in (event.arg or "").split())]
            return msg("1234-ev-score", listed=joined(parts, "1234-list"))
        if k == "match-end":
            return msg("1234-ev-match-end")
        return super().event_message(event, names)

    def view_text(self, view: View, lang: str = "en") -> str:
        """The table as text."""
        unit = msg(f"1234-unit-{view['scoring']}")
        lines = [text("1234-view-head", lang, deal=view["deal"], beat=view["number_to_beat"],
                      stock=view["stock"])]
        for s in range(view["players"]):
            lines.append(text(
                "1234-view-seat", lang, mark="*" if view["turn"] == s else " ", n=s + 1,
                count=count_msg(view["hand_counts"][s]), unit=unit,
                score=int(view["scores"][s]),
                out="" if view["live"][s] else msg("1234-view-out")))
        if view["last_play"]:
            lp = view["last_play"]
            last = self.action_message(Action(lp["kind"], None, tuple(parse_many(lp["cards"]))))
            lines.append(text("1234-view-last", lang, n=lp["seat"] + 1, move=last))
        if view["hand"]:
            lines.append(text("1234-view-hand", lang, cards=show(self.sorted_hand(view), lang)))
        return "\n".join(lines)


RULES = OneTwoThreeFourRules()
