"""Bear — John Burton's three-player Skat built on Whist, Spades, 500 and Hearts words.

One auction lap makes a declarer, who plays alone against the other two, either to take at
least the bid in card points or, in Null, to take no trick at all. In a trump game all eight
honours (A K Q J of spades and of hearts) are trumps and belong to the trump suit, which is
what following suit has to respect. The rules are in ``docs/rules/bear.md``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from games import cards as _cards
from games import seats, tricks
from games.cards import Card
from games.core import (
    Action,
    Entry,
    Event,
    IllegalAction,
    Msg,
    Option,
    OptionValue,
    Outcome,
    Rules,
    State,
    View,
    check_deck,
    copy_rng,
    count_msg,
    deal_fields,
    fresh_rng,
    joined,
    msg,
    named,
    seat_name,
    seat_option,
)
from games.wording import text

PLAYERS = 3
HAND_SIZE = 10

# -- the pack (docs/rules/bear.md, "Cards") ----------------------------------------------------
# Decision: the red suit that keeps its honours is hearts.
HONOUR_SUITS = ("S", "H")
FULL_RANKS = (14, 13, 12, 11, 10, 9, 8, 7, 6, 5)
LOW_RANKS = (10, 9, 8, 7, 6, 5)


def bear_pack() -> list[Card]:
    """The 32 cards: spades and hearts A–5, clubs and diamonds T–5."""
    found = [_cards.card(r, s) for s in HONOUR_SUITS for r in FULL_RANKS]
    found += [_cards.card(r, s) for s in ("C", "D") for r in LOW_RANKS]
    return found


PACK: tuple[Card, ...] = tuple(bear_pack())

# Card points: K 5, Q 3, J 2, T 10, 5 5, others 0 (80 in the pack).
_RANK_POINTS = {13: 5, 12: 3, 11: 2, 10: 10, 5: 5}
POINTS: list[int] = [0] * 64
for _c in PACK:
    POINTS[_c] = _RANK_POINTS.get(_c.rank, 0)
PACK_POINTS = sum(POINTS[c] for c in PACK)

QS, JS, QH, JH = (_cards.parse(code) for code in ("QS", "JS", "QH", "JH"))
BOND = 5
BIG_BOND = 20


def card_points(cards: list[Card] | tuple[Card, ...]) -> int:
    """The card points of some cards."""
    return sum(POINTS[c] for c in cards)


def bond_bonus(cards: set[Card] | frozenset[Card]) -> int:
    """Bond (+5 for Q and J of spades or of hearts) or Big Bond (+20 for all four).

    The Big Bond replaces the two Bonds (Decision, "Cards"), so 100 is the most one can make.
    """
    spades = QS in cards and JS in cards
    hearts = QH in cards and JH in cards
    if spades and hearts:
        return BIG_BOND
    return BOND * (spades + hearts)


# -- games and trumps (docs/rules/bear.md, "Games and trumps") ---------------------------------
SUIT_GAMES = ("S", "H", "D", "C")
GRAND_GAMES = ("grand-red", "grand-black")
BID_GAMES = SUIT_GAMES + GRAND_GAMES
NULL = "null"
SLOP = "slop"
TRUMP = "T"  # the suit every trump belongs to in a trump game, honours included

_BLACK_HONOURS = ("AS", "AH", "KS", "KH", "QS", "QH", "JS", "JH")
_RED_HONOURS = ("AH", "AS", "KH", "KS", "QH", "QS", "JH", "JS")


@dataclass(frozen=True)
class GameTable:
    """How one game sorts the cards: each card's suit for following, and its strength."""

    game: str
    trump: str | None
    suit: tuple[str, ...]  # indexed by card value
    strength: tuple[int, ...]  # indexed by card value
    trumps: tuple[Card, ...] = field(default=())  # high to low

    def suit_of(self, card: Card) -> str:
        """The suit a card belongs to in this game ('T' for every trump)."""
        return self.suit[card]

    def power(self, card: Card) -> int:
        """A card's strength in this game (only compared within one suit)."""
        return self.strength[card]


def _make_table(game: str) -> GameTable:
    suit = ["?"] * 64
    strength = [0] * 64
    for c in PACK:
        suit[c] = c.suit
        strength[c] = c.rank
    if game in (NULL, SLOP):
        # Null and Slop: no trumps, natural order, honours in their own suits.
        return GameTable(game, None, tuple(suit), tuple(strength))
    red_first = game in ("H", "D", "grand-red")
    order = [_cards.parse(x) for x in (_RED_HONOURS if red_first else _BLACK_HONOURS)]
    if game in SUIT_GAMES:
        order += [_cards.card(r, game) for r in LOW_RANKS]
    for i, c in enumerate(order):
        suit[c] = TRUMP
        strength[c] = 100 - i
    return GameTable(game, TRUMP, tuple(suit), tuple(strength), tuple(order))


TABLES: dict[str, GameTable] = {g: _make_table(g) for g in (*BID_GAMES, NULL, SLOP)}

# -- the auction (docs/rules/bear.md, "Auction") -----------------------------------------------
# Ranking of bids: 40 < 45 < … < 95 < Null < 100; Null sits between 95 and 100.
NULL_RANK = 97
BID_NUMBERS = tuple(range(40, 101, 5))
PASS = Action("pass")


def bid_rank(number: int | None) -> int:
    """The rank of a bid: its number, or 97 for Null (between 95 and 100)."""
    return NULL_RANK if number is None else number


def _all_bids() -> list[tuple[int, Action]]:
    found: list[tuple[int, Action]] = []
    for n in BID_NUMBERS:
        if n == 100:
            found.append((NULL_RANK, Action("bid", NULL)))
        found.extend((n, Action("bid", f"{n}-{g}")) for g in BID_GAMES)
    return found


ALL_BIDS = _all_bids()
# legal bids after the best bid so far, keyed by that bid's rank (0: no bid yet)
_BIDS_ABOVE: dict[int, list[Action]] = {
    rank: [PASS] + [a for r, a in ALL_BIDS if r > rank]
    for rank in (0, *BID_NUMBERS, NULL_RANK)
}
PLAY_ACTIONS: dict[Card, Action] = {c: Action("play", None, (c,)) for c in PACK}

# -- scoring (docs/rules/bear.md, "Scoring") ---------------------------------------------------


@dataclass(frozen=True)
class ScoreTable:
    """The project's Decision on scoring, in one place so it can be corrected.

    ``contract[(failed option, made?)]`` is (declarer's factor, each opponent's factor) of the
    contract's value: the bid for a Suit or Grand game, ``null_value`` for Null. A Slop round
    scores each player (highest of the three totals − their own total) times ``slop_factor``.
    """

    null_value: int
    contract: dict[tuple[str, bool], tuple[int, int]]
    slop_factor: int


SCORE_TABLE = ScoreTable(
    null_value=100,
    contract={
        ("declarer", True): (1, 0),  # made: declarer +B, opponents nothing
        ("declarer", False): (-1, 0),  # failed: declarer −B
        ("opponents", True): (1, 0),
        ("opponents", False): (0, 1),  # failed: each opponent +B, declarer nothing
    },
    slop_factor=1,
)



def game_name(game: str) -> Msg:
    """A game's name as a field: 'spades', 'Grand (red)', 'Null', 'Slop' (``bear-game-*``)."""
    return msg(f"bear-game-{game}")


def parse_bid(arg: str | None) -> tuple[int | None, str]:
    """(number, game) of a bid's text, e.g. '45-S' → (45, 'S'), 'null' → (None, 'null')."""
    if arg is None:
        raise IllegalAction(msg("bear-bid-form"))
    text = arg.strip()
    if text.lower() == NULL:
        return None, NULL
    number, dash, game = text.partition("-")
    if not dash or not number.isdigit():
        raise IllegalAction(msg("bear-not-a-bid", arg=arg))
    wanted = {g.lower(): g for g in BID_GAMES}
    if game.lower() not in wanted:
        raise IllegalAction(msg("bear-not-a-game", game=game))
    n = int(number)
    if n < 40 or n > 100 or n % 5:
        raise IllegalAction(msg("bear-bid-range", n=n))
    return n, wanted[game.lower()]


def bid_text(number: int | None, game: str) -> str:
    """The canonical text of a bid ('45-S', 'null')."""
    return NULL if number is None else f"{number}-{game}"


# -- the state ---------------------------------------------------------------------------------


class BearState(State):
    """One match of Bear in progress."""

    rules: BearRules

    def __init__(
        self, rules: BearRules, seed: int, options: dict[str, OptionValue],
        deck: list[Card] | None,
    ) -> None:
        super().__init__(rules, PLAYERS, seed, options)
        self.match_scores = [0] * PLAYERS
        self.deals_played = 0
        self.game_over = False
        self.final: Outcome | None = None
        self.last_result: dict[str, Any] | None = None
        given = options["dealer"]
        self.dealer = self.rng.randrange(PLAYERS) if given is None else int(given)
        self.deal_number = 0
        self._events: list[Event] = []
        self._new_deal(deck)
        self._events = []

    # -- dealing ---------------------------------------------------------------------------
    def _new_deal(self, deck: list[Card] | None = None) -> None:
        """Shuffle (or take the given deck) and deal 3, kitty 2, 4, 3 from the dealer's left."""
        if deck is None:
            deck = list(PACK)
            self.rng.shuffle(deck)
        self.deal_number += 1
        order = [seats.left(self.dealer, PLAYERS), seats.left(self.dealer + 1, PLAYERS),
                 self.dealer]
        hands: list[list[Card]] = [[] for _ in range(PLAYERS)]
        pos = 0
        for s in order:
            hands[s].extend(deck[pos:pos + 3])
            pos += 3
        self.kitty: list[Card] = deck[pos:pos + 2]
        pos += 2
        for packet in (4, 3):
            for s in order:
                hands[s].extend(deck[pos:pos + packet])
                pos += packet
        self.hands = hands
        self.discards: list[Card] = []
        self.piles: list[list[Card]] = [[] for _ in range(PLAYERS)]
        self.points_taken = [0] * PLAYERS
        self.tricks_won = [0] * PLAYERS
        self.trick: list[tuple[int, Card]] = []
        self.last_trick: list[tuple[int, Card]] | None = None
        self.voids: list[set[str]] = [set() for _ in range(PLAYERS)]
        self.bids: list[str | None] = [None] * PLAYERS
        self.best_rank = 0
        self.best_seat: int | None = None
        self.best_number: int | None = None
        self.best_game: str | None = None
        self.declarer: int | None = None
        self.game: str | None = None
        self.table: GameTable = TABLES[SLOP]
        self.phase = "bid"
        self.turn = order[0]
        self.leader = order[0]
        self.hand_points = PACK_POINTS - card_points(self.kitty)
        self._events.append(Event("deal", self.dealer, arg=str(self.deal_number)))

    # -- the contract ------------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        """The seat to bid, discard or play; empty when the match is over."""
        if self.game_over:
            return ()
        return (self.turn,)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now."""
        if self.game_over or seat != self.turn:
            return []
        phase = self.phase
        if phase == "play":
            hand = self.hands[seat]
            if self.trick:
                led = self.table.suit[self.trick[0][1]]
                suit = self.table.suit
                same = [PLAY_ACTIONS[c] for c in hand if suit[c] == led]
                if same:
                    return same
            return [PLAY_ACTIONS[c] for c in hand]
        if phase == "bid":
            return list(_BIDS_ABOVE[self.best_rank])
        return [Action("discard", None, pair) for pair in combinations(self.hands[seat], 2)]

    def random_action(self, seat: int, rng: random.Random) -> Action:
        """A uniformly random legal action, without listing the 66 discards."""
        if self.phase == "discard" and seat == self.turn and not self.game_over:
            pair = rng.sample(self.hands[seat], 2)
            return Action("discard", None, tuple(pair))
        return rng.choice(self.legal_actions(seat))

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if seat != self.turn:
            raise IllegalAction(msg("bear-not-turn", seat=seat + 1, n=self.turn + 1))
        # Each step validates completely before its first change, so a refusal leaves the
        # state as it was; events gather in self._events, which is empty between moves.
        if self.phase == "play":
            self._play(seat, action)
        elif self.phase == "bid":
            self._bid(seat, action)
        else:
            self._discard(seat, action)
        events, self._events = self._events, []
        return events

    # -- auction -----------------------------------------------------------------------------
    def _bid(self, seat: int, action: Action) -> None:
        if action.cards:
            raise IllegalAction(msg("bear-no-cards"))
        if action.kind == "pass":
            if action.arg is not None:
                raise IllegalAction(msg("bear-pass-form"))
            self.bids[seat] = "pass"
            self._events.append(Event("pass", seat))
        elif action.kind == "bid":
            number, game = parse_bid(action.arg)
            rank = bid_rank(number)
            if rank <= self.best_rank:
                best = bid_text(self.best_number, self.best_game or NULL)
                raise IllegalAction(msg("bear-bid-higher", best=best))
            text = bid_text(number, game)
            self.bids[seat] = text
            self.best_rank, self.best_seat = rank, seat
            self.best_number, self.best_game = number, game
            self._events.append(Event("bid", seat, arg=text))
        else:
            raise IllegalAction(msg("bear-auction"))
        if seat != self.dealer:
            self.turn = seats.left(seat, PLAYERS)
            return
        self._end_auction()

    def _end_auction(self) -> None:
        if self.best_seat is None:
            if self.options["all_pass"] == "redeal":
                # All pass, option redeal: the same dealer deals again.
                self._events.append(Event("redeal", self.dealer))
                self._new_deal()
                return
            # All pass (default): a Slop round; the kitty stays closed and belongs to nobody.
            self.game = SLOP
            self.table = TABLES[SLOP]
            self._events.append(Event("slop", None, arg=SLOP))
            self._start_play()
            return
        declarer = self.best_seat
        self.declarer = declarer
        self.game = self.best_game
        self.table = TABLES[self.best_game or NULL]
        self._events.append(Event(
            "declarer", declarer, arg=bid_text(self.best_number, self.best_game or NULL)))
        # The declarer (also in Null) takes the kitty unseen, then discards two face down.
        self.hands[declarer].extend(self.kitty)
        self.hand_points += card_points(self.kitty)
        self._events.append(Event("kitty", declarer, tuple(self.kitty), private=True))
        self.kitty = []
        self.phase = "discard"
        self.turn = declarer

    def _discard(self, seat: int, action: Action) -> None:
        if action.kind != "discard" or action.arg is not None:
            raise IllegalAction(msg("bear-discard-form"))
        pair = action.cards
        hand = self.hands[seat]
        if len(pair) != 2 or pair[0] == pair[1]:
            raise IllegalAction(msg("bear-discard-two"))
        for c in pair:
            if c not in hand:
                raise IllegalAction(msg("move-not-held", cards=c))
        for c in pair:
            hand.remove(c)
        self.discards = list(pair)
        self.hand_points -= card_points(pair)
        self._events.append(Event("discard", seat, pair, private=True))
        self._start_play()

    def _start_play(self) -> None:
        # The dealer's left leads the first trick, whoever the declarer is.
        self.phase = "play"
        self.leader = self.turn = seats.left(self.dealer, PLAYERS)
        self._events.append(Event("play-starts", self.leader, arg=self.game))

    # -- play --------------------------------------------------------------------------------
    def _play(self, seat: int, action: Action) -> None:
        if action.kind != "play" or action.arg is not None or len(action.cards) != 1:
            raise IllegalAction(msg("bear-play-form"))
        card = action.cards[0]
        hand = self.hands[seat]
        if card not in hand:
            raise IllegalAction(msg("move-not-held", cards=card))
        suit = self.table.suit
        trick = self.trick
        if trick:
            led = suit[trick[0][1]]
            if suit[card] != led:
                if any(suit[c] == led for c in hand):
                    raise IllegalAction(msg("bear-follow", suit=self._suit_words(led)))
                self.voids[seat].add(led)
        hand.remove(card)
        self.hand_points -= POINTS[card]
        trick.append((seat, card))
        self._events.append(Event("play", seat, (card,)))
        if len(trick) < PLAYERS:
            self.turn = seats.left(seat, PLAYERS)
            return
        self._finish_trick()

    def _winning(self) -> int | None:
        """The seat whose play wins the trick on the table so far (None: no play yet)."""
        if not self.trick:
            return None
        table = self.table
        best = tricks.winner(self.trick, table.strength.__getitem__, table.suit[self.trick[0][1]],
                             table.suit.__getitem__, table.trump)
        return self.trick[best][0]

    def _suit_words(self, suit: str) -> Msg:
        return msg("bear-trumps" if suit == TRUMP else f"suit-{suit}")

    def _finish_trick(self) -> None:
        table = self.table
        trick = self.trick
        led = table.suit[trick[0][1]]
        best = tricks.winner(trick, table.strength.__getitem__, led,
                             table.suit.__getitem__, table.trump)
        won = trick[best][0]
        taken = [c for _, c in trick]
        self.piles[won].extend(taken)
        self.points_taken[won] += card_points(taken)
        self.tricks_won[won] += 1
        self._events.append(Event("trick", won, tuple(taken)))
        self.last_trick = trick
        self.trick = []
        self.leader = self.turn = won
        if not self.hands[won]:
            self._end_deal(early=False)
        elif self._failure_certain():
            self._end_deal(early=True)

    def _failure_certain(self) -> bool:
        """True once the declarer cannot make the contract (docs/rules/bear.md, "Play")."""
        declarer = self.declarer
        if declarer is None:
            return False  # a Slop round is always played out
        if self.game == NULL:
            return self.tricks_won[declarer] > 0
        best = (self.points_taken[declarer] + card_points(self.discards) + self.hand_points)
        if best >= (self.best_number or 0) + BIG_BOND:
            return False
        opponents_took: set[Card] = set()
        for s in range(PLAYERS):
            if s != declarer:
                opponents_took.update(self.piles[s])
        still_possible = {c for c in (QS, JS, QH, JH) if c not in opponents_took}
        return best + bond_bonus(still_possible) < (self.best_number or 0)

    # -- the end of a deal -------------------------------------------------------------------
    def _tally(self, changes: list[int], early: bool) -> list[Entry]:
        """The deal explained: 'contract' (the bid: 'null', '45-S'), the declarer's
        'card-points' of tricks, 'discards' (their points), 'bond' (Bond or Big Bond) and
        'total' against the bid ('made' or 'failed', or 'tricks' taken in Null); a Slop
        round's 'card-points' and 'bond' per seat; then each seat's 'score' (its points)."""
        found: list[Entry] = []
        declarer = self.declarer
        if self.game == SLOP or declarer is None:
            found.append(Entry("contract", (), SLOP))
            for s, pile in enumerate(self.piles):
                found.append(Entry("card-points", (s,), card_points(pile)))
                found.append(Entry("bond", (s,), bond_bonus(set(pile))))
        else:
            found.append(Entry("contract", (declarer,), bid_text(self.best_number,
                                                                   self.game or NULL)))
            if self.game == NULL:
                found.append(Entry("tricks", (declarer,), self.tricks_won[declarer]))
                made = self.tricks_won[declarer] == 0
            else:
                total = self.declarer_total()
                made = total >= (self.best_number or 0)
                found.append(Entry("card-points", (declarer,),
                                   card_points(self.piles[declarer])))
                found.append(Entry("discards", (declarer,), card_points(self.discards)))
                found.append(Entry("bond", (declarer,),
                                   bond_bonus(set(self.piles[declarer] + self.discards))))
                found.append(Entry("total", (declarer,), total))
            found.append(Entry("made" if made else "failed", (declarer,),
                               "early" if early else None))
        found.extend(Entry("score", (s,), changes[s], points=changes[s])
                     for s in range(PLAYERS))
        return found

    def declarer_total(self) -> int:
        """The declarer's card points of tricks, plus the discards, plus Bond / Big Bond.

        The discards count as the declarer's cards for the Bonds too, as in Skat, where the
        skat belongs to the declarer's tricks ("Kitty": their points count for the declarer).
        """
        if self.declarer is None:
            return 0
        mine = self.piles[self.declarer] + self.discards
        return card_points(mine) + bond_bonus(set(mine))

    def _end_deal(self, early: bool) -> None:
        changes = [0] * PLAYERS
        result: dict[str, Any] = {"game": self.game, "early": early}
        if self.game == SLOP:
            totals = [card_points(p) + bond_bonus(set(p)) for p in self.piles]
            top = max(totals)
            changes = [(top - t) * SCORE_TABLE.slop_factor for t in totals]
            result["totals"] = totals
        else:
            declarer = self.declarer
            assert declarer is not None
            if self.game == NULL:
                made = self.tricks_won[declarer] == 0
                value = SCORE_TABLE.null_value
            else:
                total = self.declarer_total()
                made = total >= (self.best_number or 0)
                value = self.best_number or 0
                result["total"] = total
            mine, theirs = SCORE_TABLE.contract[(str(self.options["failed"]), made)]
            changes = [value * (mine if s == declarer else theirs) for s in range(PLAYERS)]
            result.update(declarer=declarer, bid=bid_text(self.best_number, self.game or NULL),
                          made=made)
        for s in range(PLAYERS):
            self.match_scores[s] += changes[s]
        self.add_tally(self._tally(changes, early))
        result["changes"] = changes
        self.last_result = result
        self.deals_played += 1
        self.phase = "done"
        self._events.append(Event(
            "deal-ends", self.declarer,
            arg=("early " if early else "") + ",".join(str(x) for x in changes)))
        for s in range(PLAYERS):
            self._events.append(Event("score", s, arg=str(changes[s])))
        limit = int(self.options["deals"] or 0)
        target = int(self.options["target"] or 0)
        if self.deals_played >= limit or max(self.match_scores) >= target:
            # Highest total wins; equal totals share the win ("End of the game").
            self.game_over = True
            self.phase = "over"
            self.final = Outcome.from_keys([-x for x in self.match_scores],
                                           [float(x) for x in self.match_scores])
            self._events.append(Event("game-over", None,
                                      arg=",".join(str(x) for x in self.final.winners)))
            return
        self.dealer = seats.left(self.dealer, PLAYERS)
        if self.stop_at_deal_end:  # a search's sample: nobody looks at the next deal
            self.deal_number += 1
            return
        self._new_deal()

    # -- reading -----------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """True once the match has ended."""
        return self.game_over

    @property
    def outcome(self) -> Outcome | None:
        """None until the match is over."""
        return self.final

    def scores(self) -> list[float]:
        """Each seat's running match total."""
        return [float(x) for x in self.match_scores]

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know; None for a spectator."""
        hand = self.hands[seat] if seat is not None and 0 <= seat < PLAYERS else []
        data = self.base_view(seat, hand)
        trump_game = self.game in BID_GAMES
        data.update(
            phase=self.phase,
            dealer=self.dealer,
            hand_counts=[len(h) for h in self.hands],
            live=[True] * PLAYERS,
            trick=[{"seat": s, "card": str(c)} for s, c in self.trick],
            # who takes the trick so far: honours and the game's trumps make it a rule a
            # picture or a newcomer cannot work out from the cards alone
            winning=self._winning(),
            leader=self.leader,
            last_trick=None if self.last_trick is None else [
                {"seat": s, "card": str(c)} for s, c in self.last_trick],
            tricks_won=list(self.tricks_won),
            points_taken=list(self.points_taken),
            trumps=self.game if trump_game else None,
            trump_order=deal_fields(self.table.trumps),
            bids=list(self.bids),
            declarer=self.declarer,
            contract=None if self.game is None else {
                "game": self.game,
                "bid": self.best_number,
            },
            kitty_count=len(self.kitty),
            discard_count=len(self.discards),
            discards=deal_fields(self.discards) if seat is not None
            and seat == self.declarer else None,
            deals_played=self.deals_played,
            deals=self.options["deals"],
            target=self.options["target"],
            last_result=None if self.last_result is None else dict(self.last_result),
        )
        return View(data)

    def zones(self) -> dict[str, list[Card]]:
        """Hands, kitty, discards, the trick on the table and each seat's taken cards."""
        found: dict[str, list[Card]] = {}
        for s in range(PLAYERS):
            found[f"hand{s}"] = list(self.hands[s])
            found[f"taken{s}"] = list(self.piles[s])
        found["kitty"] = list(self.kitty)
        found["discards"] = list(self.discards)
        found["trick"] = [c for _, c in self.trick]
        return found

    def pack(self) -> list[Card]:
        """The 32 cards of every deal."""
        return list(PACK)

    def clone(self) -> BearState:
        """An independent copy (hand-written: playouts clone often)."""
        return self._copy(copy_rng(self.rng))

    def _copy(self, rng: random.Random) -> BearState:
        """A copy whose generator is ``rng``."""
        new = object.__new__(BearState)
        new.__dict__.update(self.__dict__)
        new.rng = rng
        new.options = dict(self.options)
        new.match_scores = list(self.match_scores)
        new.hands = [list(h) for h in self.hands]
        new.kitty = list(self.kitty)
        new.discards = list(self.discards)
        new.piles = [list(p) for p in self.piles]
        new.points_taken = list(self.points_taken)
        new.tricks_won = list(self.tricks_won)
        new.trick = list(self.trick)
        new.voids = [set(v) for v in self.voids]
        new.bids = list(self.bids)
        new._events = []
        if self.last_result is not None:
            new.last_result = dict(self.last_result)
        return new

    def determinize(self, seat: int | None, rng: random.Random) -> BearState:
        """A full state consistent with what ``seat`` knows; unknown cards re-dealt.

        Own hand, played cards and (for the declarer) the discards stay; the other hands, the
        closed kitty and (for the others) the discards are re-dealt, keeping revealed voids.
        """
        new = self._copy(fresh_rng(rng))
        places: list[tuple[str, int]] = []  # (zone, seat or -1)
        for s in range(PLAYERS):
            if s != seat:
                places.append(("hand", s))
        places.append(("kitty", -1))
        if seat is None or seat != self.declarer:
            places.append(("discards", -1))
        pool: list[Card] = []
        sizes: list[int] = []
        for zone, s in places:
            held = new._zone(zone, s)
            pool.extend(held)
            sizes.append(len(held))
        suit = self.table.suit
        for _ in range(40):
            rng.shuffle(pool)
            dealt = _deal_with_voids(pool, sizes, [
                self.voids[s] if zone == "hand" else set() for zone, s in places], suit, rng)
            if dealt is not None:
                break
        else:
            # voids cannot be kept (a position no real play reaches): deal freely
            dealt = []
            pos = 0
            for n in sizes:
                dealt.append(pool[pos:pos + n])
                pos += n
        for (zone, s), cards in zip(places, dealt, strict=True):
            new._zone(zone, s)[:] = cards
        return new

    def _zone(self, zone: str, seat: int) -> list[Card]:
        if zone == "hand":
            return self.hands[seat]
        if zone == "kitty":
            return self.kitty
        return self.discards


def _deal_with_voids(
    pool: list[Card], sizes: list[int], voids: list[set[str]], suit: tuple[str, ...],
    rng: random.Random,
) -> list[list[Card]] | None:
    """Cards dealt to places of the given sizes, no place getting a suit it is void in."""
    room = list(sizes)
    dealt: list[list[Card]] = [[] for _ in sizes]
    # the most constrained cards first, so that the open places stay for them
    order = sorted(pool, key=lambda c: -sum(1 for v in voids if suit[c] in v))
    for c in order:
        open_places = [i for i, v in enumerate(voids) if room[i] and suit[c] not in v]
        if not open_places:
            return None
        weights = [room[i] for i in open_places]
        i = rng.choices(open_places, weights)[0]
        dealt[i].append(c)
        room[i] -= 1
    return dealt


# -- the rules ---------------------------------------------------------------------------------


class BearRules(Rules):
    """Bear: one auction lap, a declarer against two, trumps that take the honours along."""

    id = "bear"
    name = "Bear"
    min_players = 3
    max_players = 3
    usual_players = 3
    options = (
        seat_option("dealer", "The first dealer (random if not set)."),
        Option("all_pass", "choice", "slop",
               "When all three pass: play a Slop round, or redeal by the same dealer.",
               choices=("slop", "redeal")),
        Option("failed", "choice", "declarer",
               "A failed contract: the declarer loses the bid, or each opponent gains it.",
               choices=("declarer", "opponents")),
        Option("deals", "int", 12, "Number of deals in a game.", minimum=1, maximum=100,
               samples=(1, 2)),
        Option("target", "int", 500, "A player reaching this total ends the game.",
               minimum=1, maximum=10000, samples=(40, 100)),
    )
    summary_en = (
        "Bear (3 players, 32 cards: spades and hearts A–5, clubs and diamonds T–5).\n"
        "Card points: K 5, Q 3, J 2, T 10, 5 5 (80 in all). Bond: +5 for taking the Q and J of\n"
        "spades or of hearts; Big Bond: +20 for both queens and both jacks.\n"
        "Deal 3 each, 2 to the kitty, 4 each, 3 each. One auction lap from the dealer's left:\n"
        "pass, bid a number (40 to 100 in fives) with a game, or bid Null (between 95 and 100).\n"
        "Games: a trump suit (S H D C), grand red or grand black. In a trump game all eight\n"
        "honours (A K Q J of spades and hearts) are trumps and belong to the trump suit.\n"
        "The declarer takes the kitty, discards two (their points count for them), and plays\n"
        "alone. The dealer's left leads; follow the led suit as the game counts it.\n"
        "Make the bid in points (Null: take no trick): +bid (Null 100), else −bid.\n"
        "All pass: a Slop round without trumps; each scores highest total − own total.\n"
        "After 12 deals or at 500 points the highest total wins."
    )

    def create(
        self, players: int, seed: int, options: dict[str, OptionValue],
        deck: list[Card] | None,
    ) -> BearState:
        """A new match; a given deck is checked against the 32-card pack."""
        first = None if deck is None else check_deck(deck, PACK)
        return BearState(self, seed, options, first)

    # -- words -------------------------------------------------------------------------------
    def hand_key(self, view: View) -> Callable[[Card], tuple[int, int]]:
        """The trumps of the deal's game together first, strongest first (the eight honours
        included), then the other suits with colours alternating after the trump suit, each
        from ace down to seven."""
        trumps = list(view.get("trump_order") or ())
        game = view.get("trumps")
        plain = _cards.by_suit(lambda c: c.rank, game if game in SUIT_GAMES else None)

        def key(c: Card) -> tuple[int, int]:
            if str(c) in trumps:
                return (0, trumps.index(str(c)))
            return plain(c)

        return key

    def action_message(self, action: Action) -> Msg:
        """A short label for an action."""
        if action.kind == "pass":
            return msg("bear-act-pass")
        if action.kind == "bid":
            found = _bid_words(action.arg)
            return found if isinstance(found, Msg) else msg("act-raw", move=found)
        if action.kind == "discard":
            return msg("bear-act-discard", cards=action.cards)
        if action.kind == "play":
            return msg("act-play", cards=action.cards)
        return super().action_message(action)

    def event_message(self, event: Event, names: Sequence[str] | None = None) -> Msg | None:
        """A sentence for an event."""
        who = "" if event.seat is None else seat_name(event.seat, names, "seat-numbered")
        kind = event.kind
        if kind in ("bid", "declarer"):
            return msg(f"bear-ev-{kind}", who=who, bid=_bid_words(event.arg))
        if kind in ("kitty", "discard"):
            shown = event.cards or count_msg(event.hidden)
            return msg(f"bear-ev-{kind}", who=who, shown=shown)
        if kind == "deal-ends":
            early = (event.arg or "").startswith("early")
            return msg("bear-ev-deal-ends-early" if early else "bear-ev-deal-ends")
        if kind == "game-over":
            won = [int(x) for x in (event.arg or "").split(",") if x]
            if names is not None:
                return msg("bear-ev-game-over", listed=joined(
                    [named(x, names, "") for x in won], "bear-and"))
            return msg("bear-ev-game-over-seats", listed=", ".join(str(x + 1) for x in won))
        if kind in _EVENTS:
            return msg(f"bear-ev-{kind}", who=who, cards=event.cards, arg=event.arg)
        return super().event_message(event, names)

    def view_text(self, view: View, lang: str = "en") -> str:
        """The table as plain text."""
        data = view.to_dict()
        lines: list[str] = []
        scores = ", ".join(f"{i + 1}: {int(x)}" for i, x in enumerate(data["scores"]))
        lines.append(text("bear-view-head", lang, deal=data["deal"], dealer=data["dealer"] + 1,
                          scores=scores))
        contract = data["contract"]
        if contract is not None:
            game = contract["game"]
            if game == SLOP:
                lines.append(text(f"bear-game-{SLOP}", lang))
            else:
                number = "" if contract["bid"] is None else f"{contract['bid']} "
                lines.append(text("bear-view-declarer", lang, n=data["declarer"] + 1,
                                  number=number, game=game_name(game)))
        bids = []
        for i, b in enumerate(data["bids"]):
            if b is not None:
                bid = _bid_words(None if b == "pass" else b)
                bids.append(f"{i + 1}: {bid if isinstance(bid, str) else bid.text(lang)}")
        if bids and data["phase"] == "bid":
            lines.append(text("bear-view-bids", lang, bids=", ".join(bids)))
        if data["trick"]:
            shown = " ".join(f"{t['seat'] + 1}:{_cards.pretty(_cards.parse(t['card']), lang)}"
                             for t in data["trick"])
            lines.append(text("bear-view-trick", lang, cards=shown))
        taken = ", ".join(f"{i + 1}: {p}" for i, p in enumerate(data["points_taken"]))
        lines.append(text("bear-view-taken", lang, taken=taken))
        if data["hand"]:
            lines.append(text("bear-view-hand", lang,
                              cards=_cards.show(self.sorted_hand(view), lang)))
        if data["discards"]:
            lines.append(text("bear-view-discards", lang,
                              cards=_cards.parse_many(data["discards"])))
        if data["to_act"]:
            lines.append(text("bear-view-to-act", lang, n=data["to_act"][0] + 1))
        return "\n".join(lines)


#: the events worded with the seat, the cards and the event's argument alone
_EVENTS = frozenset({"deal", "pass", "redeal", "slop", "play-starts", "play", "trick",
                     "score"})


def _bid_words(arg: str | None) -> Msg | str:
    """A bid as a field: '45 spades', 'Null', 'pass'; a text that is no bid as it is."""
    if arg is None:
        return msg("bear-bid-pass")
    try:
        number, game = parse_bid(arg)
    except IllegalAction:
        return arg
    if number is None:
        return game_name(NULL)
    return msg("bear-bid", number=number, game=game_name(game))


RULES = BearRules()
