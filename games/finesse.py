"""Finesse: a partnership trick-taking game without bidding (Miles Edward Allen, 2000).

Rules: ``docs/rules/finesse.md``. Four players, partners opposite (0 and 2 against 1 and 3), a
64-card pack (52 plus a second K, Q and J of each suit), three face-up table cards in front of
each player that only the partner may lead, trumps fixed by the first lead of the deal, and a
score table that rewards 10 tricks above all.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from games.cards import (
    ACE,
    JACK,
    KING,
    QUEEN,
    SUITS,
    Card,
    card,
    pretty,
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
    OptionValue,
    Outcome,
    Rules,
    State,
    View,
    check_deck,
    msg,
    reseeded,
    seat_name,
    seat_option,
)
from games.wording import text

PLAYERS = 4
HAND_SIZE = 13
TABLE_SIZE = 3
TRICKS_PER_DEAL = 13
NO_TRUMPS = "NT"

# "Scoring each deal": the last trick, then the partnership's tricks.
LAST_TRICK_POINTS = 4
TRICK_POINTS: dict[int, int] = {7: 2, 8: 5, 9: 10, 10: 20, 11: 10, 12: 5, 13: 2}
DREG_PENALTY = 3
# "Scoring each deal": in a no-trump deal every A, K, Q and J in the dregs counts as a trump.
HONOURS = frozenset({ACE, KING, QUEEN, JACK})
# "End of the game": the winner must lead by this many points.
WINNING_LEAD = 5


def finesse_pack() -> list[Card]:
    """The 64 cards: one 52-card deck plus a second K, Q and J of each suit."""
    extra = [card(rank, suit) for suit in SUITS for rank in (KING, QUEEN, JACK)]
    return [*standard_deck(), *extra]


PACK: tuple[Card, ...] = tuple(finesse_pack())
_DISTINCT: tuple[Card, ...] = tuple(dict.fromkeys(PACK))
_VALUES: tuple[int, ...] = tuple(int(c) for c in PACK)
CARD: dict[int, Card] = {int(c): c for c in _DISTINCT}
CODE: dict[int, str] = {int(c): str(c) for c in _DISTINCT}

# Actions are built once per card so that listing and applying moves stays cheap.
PLAY: dict[int, Action] = {int(c): Action("play", None, (c,)) for c in _DISTINCT}
TABLE: dict[int, Action] = {int(c): Action("table", None, (c,)) for c in _DISTINCT}
PLAY_NT: dict[int, Action] = {int(c): Action("play", "nt", (c,)) for c in _DISTINCT}
TABLE_NT: dict[int, Action] = {int(c): Action("table", "nt", (c,)) for c in _DISTINCT}
REFILL: dict[int, Action] = {int(c): Action("refill", None, (c,)) for c in _DISTINCT}


def trick_points(tricks_taken: int) -> int:
    """Points for the partnership's tricks in one deal (fewer than 7: nothing)."""
    return TRICK_POINTS.get(tricks_taken, 0)


def counts_as_trump(c: Card, trumps: str | None) -> bool:
    """True when a dreg costs points: a trump, or in no-trumps any A, K, Q or J."""
    if trumps == NO_TRUMPS:
        return c.rank in HONOURS
    return trumps is not None and c.suit == trumps


def deal_score(won_last: bool, tricks_taken: int, dregs: list[Card], trumps: str | None) -> int:
    """One partnership's score for a deal, never below 0 ("Scoring each deal")."""
    points = (LAST_TRICK_POINTS if won_last else 0) + trick_points(tricks_taken)
    points -= DREG_PENALTY * sum(1 for c in dregs if counts_as_trump(c, trumps))
    return max(0, points)


def match_winner(totals: list[int], target: int, cap: int) -> int | None:
    """The winning partnership (0 or 1) after a deal, or None to play on ("End of the game")."""
    a, b = totals
    if a == b:
        # Equal totals never end the game: nobody leads, even at the cap ("play on until one
        # leads").
        return None
    high = 0 if a > b else 1
    if totals[high] >= target and abs(a - b) >= WINNING_LEAD:
        return high
    # Reaching the cap first wins; both reaching it in the same deal: the higher total wins.
    if totals[high] >= cap:
        return high
    return None


def _tally(team: int, taken: int, won_last: bool, dregs: Sequence[Card], trumps: str | None,
           score: int) -> list[Entry]:
    """One side's deal explained ("Scoring each deal"): 'tricks' (how many, from the points
    table), 'last-trick', 'dregs' (the table cards left that count as trumps, 3 each) and
    'floor' (what lifts a negative deal to 0); their points add up to ``score``."""
    seats = (team, team + 2)
    counted = tuple(c for c in dregs if counts_as_trump(c, trumps))
    found = [Entry("tricks", seats, taken, points=trick_points(taken))]
    if won_last:
        found.append(Entry("last-trick", seats, points=LAST_TRICK_POINTS))
    if counted:
        found.append(Entry("dregs", seats, len(counted), counted,
                           points=-DREG_PENALTY * len(counted)))
    raw = sum(e.points for e in found)
    if raw != score:
        found.append(Entry("floor", seats, points=score - raw))
    return found


class FinesseState(State):
    """A Finesse match in progress: deals until one partnership wins.

    Cards are held as plain ints (``suit * 16 + rank``, the value of :class:`Card`) inside the
    state, so that copies, snapshots and playouts stay cheap; they become :class:`Card` again
    in events, zones and views.
    """

    dealer: int
    hands: list[list[int]]
    table: list[list[int]]
    trumps: str | None
    trump: int
    leader: int
    owner: int
    plays: list[tuple[int, int]]
    order: tuple[int, int, int]
    turn: int
    refiller: int
    tricks: list[int]
    trick_no: int
    played: list[int]
    last_trick: list[tuple[int, int]] | None
    last_owner: int
    voids: list[int]
    totals: list[int]
    history: list[tuple[int, int]]
    last_deal: dict[str, Any] | None
    winner_team: int | None
    target: int
    cap: int
    shuffle_seed: int

    def __init__(
        self,
        rules: Rules,
        seed: int,
        options: dict[str, OptionValue],
        deck: list[Card] | None,
    ) -> None:
        super().__init__(rules, PLAYERS, seed, options)
        chosen = options["dealer"]
        start = random.Random(self.shuffle_seed)
        self.dealer = start.randrange(PLAYERS) if chosen is None else _whole(chosen)
        self.shuffle_seed = start.getrandbits(64)
        self.target = _whole(options["target"])
        self.cap = _whole(options["cap"])
        self.totals = [0, 0]
        self.history = []
        self.last_deal = None
        self.winner_team = None
        order = None if deck is None else check_deck(deck, PACK)
        self._deal(order)

    # The generator of future shuffles is kept as a 64-bit seed: a Mersenne Twister state is
    # 2.5 kB, which would dominate every copy of the state in a search.
    @property
    def rng(self) -> random.Random:
        """The generator the next shuffle will use."""
        return random.Random(self.shuffle_seed)

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self.shuffle_seed = value.getrandbits(64)

    # -- dealing ----------------------------------------------------------------------------
    def _deal(self, order: list[Card] | None) -> list[Event]:
        """Shuffle (or use the given order) and deal: 12 set aside, 13 each, 3 table cards each."""
        if order is None:
            values = list(_VALUES)
            shuffler = random.Random(self.shuffle_seed)
            shuffler.shuffle(values)
            self.shuffle_seed = shuffler.getrandbits(64)
        else:
            values = [int(c) for c in order]
        first = (self.dealer + 1) % PLAYERS
        # "Deal": the top 12 are counted off face down, the other 52 dealt one at a time
        # clockwise from the dealer's left, then the 12 dealt face up the same way, top first.
        pile, rest = values[:12], values[12:]
        self.hands = [rest[(s - first) % PLAYERS :: PLAYERS] for s in range(PLAYERS)]
        self.table = [pile[(s - first) % PLAYERS :: PLAYERS] for s in range(PLAYERS)]
        for hand in self.hands:
            hand.sort()
        self.trumps = None
        self.trump = -1
        self.leader = first
        self.owner = -1
        self.plays = []
        self.order = (0, 0, 0)
        self.turn = first
        self.refiller = -1
        self.tricks = [0, 0, 0, 0]
        self.trick_no = 0
        self.played = []
        self.last_trick = None
        self.last_owner = -1
        self.voids = [0, 0, 0, 0]
        events = [Event("deal", self.dealer, arg=str(self.deal_number))]
        for s in range(PLAYERS):
            events.append(Event("hand", s, _cards(self.hands[s]), private=True))
        for s in range(PLAYERS):
            events.append(Event("table_cards", s, _cards(self.table[s])))
        return events

    # -- the contract -----------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        """The one seat to act, or nobody once the match is over."""
        if self.winner_team is not None:
            return ()
        return (self.turn,)

    @property
    def over(self) -> bool:
        """True once a partnership has won."""
        return self.winner_team is not None

    @property
    def outcome(self) -> Outcome | None:
        """The winning partnership placed 1, the other 2."""
        if self.winner_team is None:
            return None
        places = [1 if s % 2 == self.winner_team else 2 for s in range(PLAYERS)]
        return Outcome.from_places(places, self.scores())

    def scores(self) -> list[float]:
        """The partnership's running total on both partners' seats."""
        return [float(self.totals[s % 2]) for s in range(PLAYERS)]

    def legal_actions(self, seat: int) -> list[Action]:
        """Every move of ``seat`` now: a lead, a follow or a refill."""
        if self.winner_team is not None or seat != self.turn:
            return []
        hand = self.hands[seat]
        if self.refiller >= 0:
            return [REFILL[c] for c in dict.fromkeys(hand)]
        if self.plays:
            # "Following": from hand only, the led suit if possible.
            led = self.plays[0][1] >> 4
            same = [PLAY[c] for c in dict.fromkeys(hand) if c >> 4 == led]
            return same if same else [PLAY[c] for c in dict.fromkeys(hand)]
        found = [PLAY[c] for c in dict.fromkeys(hand)]
        partner_table = dict.fromkeys(self.table[(seat + 2) % PLAYERS])
        found.extend(TABLE[c] for c in partner_table)
        if self.trumps is None:
            # "Trumps": an ace led to the first trick may declare no trumps.
            found.extend(PLAY_NT[c] for c in dict.fromkeys(hand) if c & 15 == ACE)
            found.extend(TABLE_NT[c] for c in partner_table if c & 15 == ACE)
        return found

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if seat != self.turn:
            raise IllegalAction(msg("finesse-not-turn", n=self.turn + 1))
        kind, arg, cards = action
        if kind not in ("play", "table", "refill"):
            raise IllegalAction(msg("finesse-not-a-move", kind=kind))
        if len(cards) != 1:
            raise IllegalAction(msg("finesse-one-card"))
        c = cards[0]
        if not isinstance(c, Card):
            raise IllegalAction(msg("finesse-not-card"))
        value = int(c)
        hand = self.hands[seat]
        if self.refiller >= 0:
            if kind != "refill" or arg is not None:
                raise IllegalAction(msg("finesse-refill-now"))
            if value not in hand:
                raise IllegalAction(msg("move-not-held", cards=c))
            return self._refill(seat, value, [])
        if kind == "refill":
            raise IllegalAction(msg("finesse-refill-when"))
        if arg is not None:
            if arg != "nt":
                raise IllegalAction(msg("finesse-declaration", arg=arg))
            if self.plays or self.trumps is not None:
                raise IllegalAction(msg("finesse-nt-first"))
            if c.rank != ACE:
                raise IllegalAction(msg("finesse-nt-ace"))
        if self.plays:
            if kind != "play":
                raise IllegalAction(msg("finesse-follow-hand"))
            if value not in hand:
                raise IllegalAction(msg("move-not-held", cards=c))
            led = self.plays[0][1] >> 4
            if value >> 4 != led and any(h >> 4 == led for h in hand):
                raise IllegalAction(msg("finesse-follow", suit=msg(f"finesse-suit-{SUITS[led]}")))
            return self._follow(seat, value, [])
        if kind == "table":
            partner = (seat + 2) % PLAYERS
            if value not in self.table[partner]:
                raise IllegalAction(msg("finesse-not-partners", card=c))
            return self._lead(seat, value, partner, arg == "nt")
        if value not in hand:
            raise IllegalAction(msg("move-not-held", cards=c))
        return self._lead(seat, value, -1, arg == "nt")

    # -- play -------------------------------------------------------------------------------
    def _lead(self, seat: int, c: int, owner: int, no_trumps: bool) -> list[Event]:
        events: list[Event] = []
        self.leader = seat
        self.owner = owner
        if owner >= 0:
            self.table[owner].remove(c)
            # "Who follows": the partner counts as the leader and does not play; the other
            # three follow clockwise from the partner's left, the leader third.
            self.plays = [(owner, c)]
            self.order = ((owner + 1) % 4, seat, (owner + 3) % 4)
            events.append(Event("lead_table", seat, (CARD[c],), arg=str(owner)))
        else:
            self.hands[seat].remove(c)
            self.plays = [(seat, c)]
            self.order = ((seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4)
            events.append(Event("lead", seat, (CARD[c],)))
        if self.trumps is None:
            # "Trumps": the suit of the first lead of the deal, unless an ace declared no trumps.
            self.trump = -1 if no_trumps else c >> 4
            self.trumps = NO_TRUMPS if no_trumps else SUITS[c >> 4]
            events.append(Event("trumps", seat, arg=self.trumps))
        self.turn = self.order[0]
        if self.trick_no == TRICKS_PER_DEAL - 1:
            # The 13th trick: every follower holds one card, so the trick plays itself.
            for follower in self.order:
                self._follow(follower, self.hands[follower][0], events)
        return events

    def _follow(self, seat: int, c: int, events: list[Event]) -> list[Event]:
        plays = self.plays
        if c >> 4 != plays[0][1] >> 4:
            # A failure to follow shows a void: determinize keeps it.
            self.voids[seat] |= 1 << (plays[0][1] >> 4)
        self.hands[seat].remove(c)
        plays.append((seat, c))
        events.append(Event("play", seat, (CARD[c],)))
        if len(plays) < 4:
            self.turn = self.order[len(plays) - 1]
            return events
        return self._end_trick(events)

    def _end_trick(self, events: list[Event]) -> list[Event]:
        plays = self.plays
        # "Winner": the highest trump, else the highest of the led suit; of two identical cards
        # the earlier played wins (a later card must be strictly higher to take over). The seat
        # of a led table card is its owner's, so a winning table card wins for its owner.
        trump = self.trump
        won_by, best = plays[0]
        for s, c in plays[1:]:
            if c >> 4 == best >> 4:
                if c > best:
                    won_by, best = s, c
            elif c >> 4 == trump:
                won_by, best = s, c
        self.tricks[won_by] += 1
        self.trick_no += 1
        self.played.extend(c for _, c in plays)
        self.last_trick = plays
        self.last_owner = self.owner
        self.plays = []
        self.leader = won_by
        events.append(Event("trick", won_by, (CARD[best],), arg=str(self.trick_no)))
        owner = self.owner
        self.owner = -1
        if owner >= 0:
            # "Refill": the owner of the led table card acts next.
            self.refiller = owner
            self.turn = owner
            if self.trick_no == TRICKS_PER_DEAL:
                # After the 13th trick the owner holds exactly one card: the refill is forced.
                return self._refill(owner, self.hands[owner][0], events)
            return events
        self.turn = won_by
        if self.trick_no == TRICKS_PER_DEAL:
            return self._end_deal(events)
        return events

    def _refill(self, seat: int, c: int, events: list[Event]) -> list[Event]:
        self.hands[seat].remove(c)
        self.table[seat].append(c)
        self.refiller = -1
        self.turn = self.leader
        events.append(Event("refill", seat, (CARD[c],)))
        if self.trick_no == TRICKS_PER_DEAL:
            return self._end_deal(events)
        return events

    def _end_deal(self, events: list[Event]) -> list[Event]:
        trumps = self.trumps
        last_team = self.leader % 2
        parts: list[dict[str, Any]] = []
        entries = [Entry("trumps", value=trumps)]
        for team in (0, 1):
            taken = self.tricks[team] + self.tricks[team + 2]
            dregs = _cards(self.table[team] + self.table[team + 2])
            penalised = sum(1 for c in dregs if counts_as_trump(c, trumps))
            score = deal_score(last_team == team, taken, list(dregs), trumps)
            self.totals[team] += score
            entries.extend(_tally(team, taken, last_team == team, dregs, trumps, score))
            parts.append({
                "tricks": taken,
                "last_trick": last_team == team,
                "dreg_trumps": penalised,
                "score": score,
            })
            events.append(Event("deal_score", team, arg=str(score)))
        self.history.append((parts[0]["score"], parts[1]["score"]))
        self.last_deal = {
            "deal": self.deal_number,
            "trumps": trumps,
            "teams": parts,
            "dregs": [_codes(t) for t in self.table],
        }
        self.add_tally(entries)
        winner = match_winner(self.totals, self.target, self.cap)
        if winner is not None:
            self.winner_team = winner
            events.append(Event("match_won", winner, arg=f"{self.totals[0]}-{self.totals[1]}"))
            return events
        # "Deal": the dealer passes to the next seat clockwise each deal.
        self.dealer = (self.dealer + 1) % PLAYERS
        self.deal_number += 1
        if self.stop_at_deal_end:  # a search's sample: nobody looks at the next deal
            return events
        events.extend(self._deal(None))
        return events

    # -- copies -----------------------------------------------------------------------------
    def clone(self) -> FinesseState:
        """An independent copy, written out by hand for fast playouts."""
        new = object.__new__(FinesseState)
        new.__dict__.update(self.__dict__)
        new.hands = [h[:] for h in self.hands]
        new.table = [t[:] for t in self.table]
        new.plays = self.plays[:]
        new.tricks = self.tricks[:]
        new.played = self.played[:]
        new.voids = self.voids[:]
        new.totals = self.totals[:]
        new.history = self.history[:]
        return new

    def determinize(self, seat: int | None, rng: random.Random) -> FinesseState:
        """Hidden hands re-dealt; table cards (refills included) and shown voids kept."""
        new = self.clone()
        reseeded(new, rng)
        others = [s for s in range(PLAYERS) if s != seat]
        pool = [c for s in others for c in self.hands[s]]
        sizes = {s: len(self.hands[s]) for s in others}
        for _ in range(50):
            dealt = _deal_respecting_voids(pool, sizes, self.voids, rng)
            if dealt is not None:
                break
        else:
            # No consistent re-deal found quickly: deal without the voids rather than keep
            # the real hands (the seat must never see them).
            dealt = _deal_respecting_voids(pool, sizes, [0] * PLAYERS, rng)
            assert dealt is not None
        for s in others:
            dealt[s].sort()
            new.hands[s] = dealt[s]
        return new

    # -- bookkeeping ------------------------------------------------------------------------
    def zones(self) -> dict[str, list[Card]]:
        """Hands, table cards, the trick in play and the cards of finished tricks."""
        found: dict[str, list[Card]] = {}
        for s in range(PLAYERS):
            found[f"hand{s}"] = [CARD[c] for c in self.hands[s]]
            found[f"table{s}"] = [CARD[c] for c in self.table[s]]
        found["trick"] = [CARD[c] for _, c in self.plays]
        found["played"] = [CARD[c] for c in self.played]
        return found

    def pack(self) -> list[Card]:
        """The 64 cards of every deal."""
        return list(PACK)

    def phase(self) -> str:
        """'play', 'refill' or 'over'."""
        if self.winner_team is not None:
            return "over"
        return "refill" if self.refiller >= 0 else "play"

    def view(self, seat: int | None) -> View:
        """Own hand, every table card, the trick, trumps, tricks taken and the scores."""
        hand = self.hands[seat] if seat is not None and 0 <= seat < PLAYERS else []
        data = self.base_view(seat, _cards(hand))
        data.update({
            "phase": self.phase(),
            "dealer": self.dealer,
            "hand_counts": [len(h) for h in self.hands],
            "table_cards": [_codes(t) for t in self.table],
            "trumps": self.trumps,
            "trick": _trick_fields(self.plays, self.owner),
            "leader": self.leader,
            "led_from_table": None if self.owner < 0 else self.owner,
            "last_trick": None
            if self.last_trick is None
            else _trick_fields(self.last_trick, self.last_owner),
            "tricks_won": list(self.tricks),
            "team_tricks": [self.tricks[0] + self.tricks[2], self.tricks[1] + self.tricks[3]],
            "played": _codes(self.played),
            "refill": None if self.refiller < 0 else self.refiller,
            "team_scores": list(self.totals),
            "target": self.target,
            "cap": self.cap,
            "last_deal": self.last_deal,
        })
        return View(data)




def _whole(value: OptionValue) -> int:
    if not isinstance(value, int):
        raise ValueError(f"expected a whole number, not {value!r}")
    return value


def _cards(values: list[int]) -> tuple[Card, ...]:
    return tuple(CARD[c] for c in values)


def _codes(values: list[int]) -> list[str]:
    return [CODE[c] for c in values]


def _trick_fields(plays: list[tuple[int, int]], owner: int) -> list[dict[str, Any]]:
    return [
        {"seat": s, "card": CODE[c], "from_table": i == 0 and owner >= 0}
        for i, (s, c) in enumerate(plays)
    ]


def _deal_respecting_voids(
    pool: list[int], sizes: dict[int, int], voids: list[int], rng: random.Random
) -> dict[int, list[int]] | None:
    """Deal ``pool`` to the seats of ``sizes`` so that nobody gets a suit they showed void."""
    cards = pool[:]
    rng.shuffle(cards)
    seats = list(sizes)
    eligible = {c: [s for s in seats if not voids[s] >> (c >> 4) & 1] for c in set(cards)}
    cards.sort(key=lambda c: len(eligible[c]))
    room = dict(sizes)
    dealt: dict[int, list[int]] = {s: [] for s in seats}
    for c in cards:
        open_seats = [s for s in eligible[c] if room[s] > 0]
        if not open_seats:
            return None
        s = rng.choices(open_seats, [room[s] for s in open_seats])[0]
        dealt[s].append(c)
        room[s] -= 1
    return dealt


class FinesseRules(Rules):
    """Finesse: four players in two partnerships, table cards, no bidding."""

    id: ClassVar[str] = "finesse"
    name: ClassVar[str] = "Finesse"
    min_players: ClassVar[int] = 4
    max_players: ClassVar[int] = 4
    usual_players: ClassVar[int] = 4
    options: ClassVar[tuple[Option, ...]] = (
        seat_option(
            "dealer",
            "The first dealer (random if unset); the deal then passes clockwise.",
        ),
        Option(
            "target", "int", 42,
            "Points a partnership needs, with a lead of 5, to win.",
            minimum=1, maximum=500, samples=(5,),
        ),
        Option(
            "cap", "int", 60,
            "Reaching this many points first wins outright.",
            minimum=1, maximum=1000, samples=(8,),
        ),
    )
    test_mixes: ClassVar[tuple[tuple[int, dict[str, OptionValue]], ...]] = (
        (4, {"target": 5, "cap": 8, "dealer": 2}),
    )
    summary_en: ClassVar[str] = (
        "Four players, partners opposite (seats 1 and 3 against 2 and 4), 64 cards: a deck plus "
        "a second K, Q, J of each suit.\n"
        "Each player gets 13 cards in hand and 3 face-up table cards.\n"
        "The leader plays from hand or from their partner's table cards (never their own).\n"
        "The first lead of the deal fixes trumps; leading an ace then may declare no trumps.\n"
        "A table-card lead counts as the partner's: the partner skips, the leader plays third.\n"
        "Follow suit from hand if you can. Highest trump wins, else highest of the led suit;\n"
        "of two identical cards the earlier wins. A led table card's owner then refills it.\n"
        "After 13 tricks: last trick 4; tricks 7→2, 8→5, 9→10, 10→20, 11→10, 12→5, 13→2;\n"
        "−3 per trump left among the partnership's table cards (no-trumps: each A K Q J);\n"
        "never below 0. 42+ with a lead of 5 wins, or reaching 60 first."
    )

    def teams(self, players: int, options: Any) -> list[list[int]] | None:
        """Partners sit opposite: seats 0 and 2 against 1 and 3."""
        return [[0, 2], [1, 3]]

    def create(
        self,
        players: int,
        seed: int,
        options: dict[str, OptionValue],
        deck: list[Card] | None,
    ) -> FinesseState:
        """A new match; ``deck`` orders the first deal (top 12 are the table cards)."""
        return FinesseState(self, seed, options, deck)

    # -- words for people -------------------------------------------------------------------
    def action_message(self, action: Action) -> Msg:
        """A short label: 'Play 10♠', 'Lead 10♠ from partner's table', 'Refill 10♠'."""
        nt = action.arg == "nt"
        if action.kind == "play":
            return msg("finesse-act-play-nt" if nt else "act-play", cards=action.cards)
        if action.kind == "table":
            return msg("finesse-act-table-nt" if nt else "finesse-act-table", cards=action.cards)
        if action.kind == "refill":
            return msg("finesse-act-refill", cards=action.cards)
        return super().action_message(action)

    def event_message(self, event: Event, names: Sequence[str] | None = None) -> Msg | None:
        """A sentence for a public event."""
        seat = event.seat
        who = "" if seat is None else seat_name(seat, names, "seat-numbered")
        kind = event.kind
        if kind == "hand" and not event.cards:
            return None
        if kind == "lead_table":
            return msg("finesse-ev-lead_table", who=who, cards=event.cards,
                       whose=seat_name(int(event.arg or 0), names, "seat-numbered"))
        if kind == "trumps":
            if event.arg == NO_TRUMPS:
                return msg("finesse-ev-no-trumps")
            return msg("finesse-ev-trumps", suit=_suit(event.arg or ""))
        if kind in ("deal_score", "match_won"):
            return msg(f"finesse-ev-{kind}", team=_team_name(seat or 0, names), arg=event.arg)
        if kind in ("deal", "hand", "table_cards", "lead", "play", "trick", "refill"):
            return msg(f"finesse-ev-{kind}", who=who, cards=event.cards, arg=event.arg)
        return super().event_message(event, names)

    def view_text(self, view: View, lang: str = "en") -> str:
        """The table as plain text: scores, trumps, table cards, the trick, the hand."""
        totals = view["team_scores"]
        trumps = view["trumps"]
        if trumps is None:
            trump_word: Msg | str = msg("finesse-trumps-unset")
        elif trumps == NO_TRUMPS:
            trump_word = msg("finesse-trumps-none")
        else:
            trump_word = _suit(trumps)
        tricks = view["team_tricks"]
        lines = [
            text("finesse-view-score", lang, deal=view["deal"], a=totals[0], b=totals[1],
                 target=view["target"], cap=view["cap"]),
            text("finesse-view-tricks", lang, trumps=trump_word, a=tricks[0], b=tricks[1]),
        ]
        for s, codes in enumerate(view["table_cards"]):
            shown = " ".join(_pretty_code(c) for c in codes)
            lines.append(text("finesse-view-seat", lang, n=s + 1, cards=shown,
                              held=view["hand_counts"][s]))
        if view["trick"]:
            plays = ", ".join(
                f"{p['seat'] + 1}:{_pretty_code(p['card'])}" for p in view["trick"]
            )
            lines.append(text("finesse-view-trick", lang, plays=plays))
        if view["hand"]:
            lines.append(text("finesse-view-hand", lang, cards=show(self.sorted_hand(view), lang)))
        if view["to_act"]:
            key = "finesse-view-refill" if view["phase"] == "refill" else "finesse-view-turn"
            lines.append(text(key, lang, n=view["to_act"][0] + 1))
        return "\n".join(lines)


def _pretty_code(code: str) -> str:
    from games.cards import parse

    return pretty(parse(code))


def _suit(letter: str) -> Msg | str:
    """A suit's name ('spades', 'スペード') from its letter; anything else as it is."""
    return msg(f"suit-{letter}") if letter in SUITS else letter


def _team_name(team: int, names: Sequence[str] | None = None) -> Msg:
    if names is not None and len(names) == PLAYERS:
        return msg("finesse-team-names", first=names[team], second=names[team + 2])
    return msg(f"finesse-team-{team}")


RULES = FinesseRules()
