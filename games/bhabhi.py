"""Bhabhi, shown as Getaway (Bhabhi): a shedding game where failing to follow ends the round.

Rules: ``docs/rules/bhabhi.md``. Players follow suit; the first player who cannot follow ends the
round at once and the taker (highest card of the led suit) picks up everything on the table.
Players who run out of cards are safe; the last player holding cards loses.

Cards are handled as plain ints here for speed: ``card >> 4`` is the suit index (S H D C) and,
within one suit, a larger card is a higher one (A high).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.cards import Card, parse, parse_many, show, standard_deck
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
    copy_rng,
    count_msg,
    fresh_rng,
    msg,
    seat_name,
    seat_option,
)
from games.wording import text

ACE_OF_SPADES = parse("AS")
SUIT_LETTERS = "SHDC"
_PLAY: dict[int, Action] = {int(c): Action("play", None, (c,)) for c in standard_deck()}
_DECLINE = Action("decline")
_DRAW_DISCARDS = Action("draw", "discards")
_NEVER = 1 << 30

PHASE_PLAY = "play"
PHASE_INTERJECT = "interject"
PHASE_SHOOTOUT = "shootout"
PHASE_OVER = "over"
# Round ends in BhabhiState.record.
PICKED_UP = -1
DISCARDED = -2


class BhabhiRules(Rules):
    """Getaway (Bhabhi): shed your cards; whoever is left holding cards is the last player."""

    id = "bhabhi"
    name = "Getaway (Bhabhi)"
    min_players = 2
    max_players = 7
    usual_players = 4
    options = (
        seat_option(
            "dealer", "The dealer (random if not set)."
        ),
        Option(
            "first_round_full", "bool", False,
            "First round: everyone plays even after a failure to follow; all cards discarded.",
        ),
        Option(
            "take_hand", "choice", "off",
            "Between rounds a player may take the whole hand of the player on their left "
            "('left') or of any other player ('any'); that player is safe at once.",
            choices=("off", "left", "any"),
        ),
        Option(
            "interject", "bool", False,
            "After a failure to follow, the next player may play one more card and then picks "
            "up everything.",
        ),
        Option(
            "shootout", "bool", False,
            "With two players left, a last card that wins the round starts a shootout.",
        ),
        Option(
            "taker_stays", "bool", False,
            "A taker with no cards is not safe: they draw a card (from the discards or another "
            "player holding two or more) and lead it.",
        ),
    )
    summary_en = "\n".join([
        "Getaway (Bhabhi): 2-7 players, one 52-card deck, A high, no trumps.",
        "The dealer deals the whole deck one card at a time, starting with themself.",
        "The holder of the ace of spades leads it to the first round.",
        "Clockwise, each player still in plays one card, following suit if they can.",
        "A player who cannot follow plays any card, and the round ends at once.",
        "The taker is whoever played the highest card of the led suit.",
        "If everyone followed, the cards are discarded face down;",
        "if someone failed to follow, the taker picks up every card on the table.",
        "The taker leads the next round (or, if safe, the next player still in on the left).",
        "Players with no cards after a round are safe and leave; earlier is better.",
        "The last player holding cards loses; if all run out together, the game is drawn.",
        "Options: first_round_full, take_hand, interject, shootout, taker_stays, dealer.",
    ])
    test_mixes = (
        (4, {"take_hand": "any", "interject": True, "taker_stays": True}),
        (3, {"take_hand": "left", "first_round_full": True, "shootout": True}),
        (2, {"shootout": True}),
        (2, {"taker_stays": True, "take_hand": "left"}),
    )

    def check_options(self, players: int, options: dict[str, OptionValue]) -> None:
        """Refuse 'shootout' together with 'taker_stays' (the rules' Decision)."""
        # Optional rules, Decision: both decide what happens to a player who wins a round with
        # their last card, so they cannot both be on.
        if options.get("shootout") and options.get("taker_stays"):
            raise OptionError("shootout-taker-stays")

    def create(
        self,
        players: int,
        seed: int,
        options: dict[str, OptionValue],
        deck: list[Card] | None,
    ) -> BhabhiState:
        """Deal the first (and only) deal."""
        return BhabhiState(self, players, seed, options, deck)

    # -- words for people ----------------------------------------------------------------
    def action_message(self, action: Action) -> Msg:
        """A short label for an action."""
        if action.kind == "play" and action.cards:
            return msg("act-play", cards=action.cards[0])
        if action.kind == "take":
            return msg("bhabhi-act-take", who=_seat_name(action.arg))
        if action.kind == "decline":
            return msg("bhabhi-act-decline")
        if action.kind == "draw":
            if action.arg == "discards":
                return msg("bhabhi-act-draw-discards")
            return msg("bhabhi-act-draw", who=_seat_name(action.arg))
        return super().action_message(action)

    def event_message(self, event: Event, names: Sequence[str] | None = None) -> Msg | None:
        """A sentence for an event."""
        who = _seat_name(None if event.seat is None else str(event.seat), names)
        kind = event.kind
        count = event.hidden or len(event.cards)
        if kind in ("pick_up", "discard", "take"):
            # 'the card' or 'the 3 cards': one message for each
            return msg(f"bhabhi-ev-{kind}-1" if count == 1 else f"bhabhi-ev-{kind}", who=who,
                       count=count, other=_seat_name(event.arg, names))
        if kind == "draw":
            if event.arg == "discards":
                return msg("bhabhi-ev-draw-discards", who=who)
            return msg("bhabhi-ev-draw", who=who, src=_seat_name(event.arg, names))
        if kind in _EVENTS:
            return msg(f"bhabhi-ev-{kind}", who=who, cards=event.cards)
        return None

    def view_text(self, view: View, lang: str = "en") -> str:
        """The table as plain text."""
        lines = [self.title(lang)]
        for s in range(view["players"]):
            if view["loser"] == s:
                state: Msg = msg("bhabhi-view-last")
            elif view["live"][s]:
                state = count_msg(view["hand_counts"][s])
            else:
                state = msg("bhabhi-view-safe")
            known = view["known"][s]
            if known and view["live"][s]:
                state = msg("bhabhi-view-known", state=state, cards=parse_many(known))
            lines.append(text("bhabhi-view-seat", lang, who=_seat_name(str(s)), state=state))
        trick = " ".join(
            text("bhabhi-view-play", lang, who=_seat_name(str(p["seat"])),
                 card=parse(p["card"]))
            for p in view["trick"])
        lines.append(text("bhabhi-view-table", lang, trick=trick or "-"))
        if view["hand"]:
            lines.append(text("bhabhi-view-hand", lang, cards=show(self.sorted_hand(view), lang)))
        if view["to_act"]:
            lines.append(text("bhabhi-view-to-act", lang, seats=", ".join(
                text("seat-numbered", lang, n=s + 1) for s in view["to_act"])))
        return "\n".join(lines)


#: the events worded with the seat and the cards alone
_EVENTS = frozenset({"play", "fail", "lead", "safe", "interject", "decline", "shootout", "turn",
                     "out_of_play", "last", "draw_game"})


def _seat_name(arg: str | None, names: Sequence[str] | None = None) -> Msg | str:
    if arg is None or not arg.isdigit():
        return msg("bhabhi-someone")
    return seat_name(int(arg), names, "seat-numbered")


class BhabhiState(State):
    """One game of Getaway (Bhabhi): a single deal played until one player is left."""

    hands: list[list[Card]]
    live: list[bool]
    safe_at: list[int]

    def __init__(
        self,
        rules: Rules,
        players: int,
        seed: int,
        options: dict[str, OptionValue],
        deck: list[Card] | None,
        *,
        _blank: bool = False,
    ) -> None:
        super().__init__(rules, players, seed, options)
        self.full_first = bool(options["first_round_full"])
        take = options["take_hand"]
        self.take_mode = "" if take == "off" else str(take)
        self.interject = bool(options["interject"])
        self.shootout = bool(options["shootout"])
        self.taker_stays = bool(options["taker_stays"])
        if _blank:
            return
        dealer = options["dealer"]
        self.dealer: int = self.rng.randrange(players) if dealer is None else int(dealer)
        if deck is None:
            cards = standard_deck()
            self.rng.shuffle(cards)
        else:
            cards = check_deck(deck, standard_deck())
        # Deal: one at a time, starting with the dealer themself, clockwise.
        self.hands = [cards[(i - self.dealer) % players::players] for i in range(players)]
        for hand in self.hands:
            hand.sort()
        self.live = [True] * players
        self.safe_at = [-1] * players
        self.steps = 0  # safety events so far; equal numbers share a place
        self.round_no = 1
        self.phase = PHASE_PLAY
        self.table_seats: list[int] = []
        self.table_cards: list[Card] = []
        self.led = -1
        self.failed = False
        self.discards: list[Card] = []
        self.out: list[Card] = []
        self.known: list[list[Card]] = [[] for _ in range(players)]
        # Every card played face up in the main phase, in order, and how each round ended:
        # (seat, card) for a play, (taker, -1) for a pick-up, (taker, -2) for a discard.
        # All of it happened in front of everyone.
        self.record: list[tuple[int, int]] = []
        self.secret: dict[tuple[int, int], list[Card]] = {}
        self.voids = [0] * players
        self.last_trick: list[tuple[int, Card]] | None = None
        self.last_taker = -1
        self.shooter = -1
        self.loser = -1
        self.leader = self._holder(ACE_OF_SPADES)
        self.turn = self.leader

    # -- helpers --------------------------------------------------------------------------
    def _holder(self, card: Card) -> int:
        for s, hand in enumerate(self.hands):
            if card in hand:
                return s
        return 0

    def _next_in(self, seat: int) -> int:
        live = self.live
        n = self.players
        s = seat
        for _ in range(n):
            s = (s + 1) % n
            if live[s]:
                return s
        return seat

    def _next_player(self, seat: int) -> int:
        """The next player of this round after ``seat``, or the leader when all have played.

        A player still in with no cards (one drawn from under taker_stays) has nothing to play.
        """
        live = self.live
        hands = self.hands
        n = self.players
        leader = self.table_seats[0]
        s = seat
        while True:
            s = (s + 1) % n
            if s == leader or (live[s] and hands[s]):
                return s

    def _forget(self, holder: int, card: Card) -> None:
        """The card left ``holder``'s hand face up: nobody needs to remember it there."""
        known = self.known[holder]
        if known and card in known:
            known.remove(card)
        if self.secret:
            for (_obs, h), cards in self.secret.items():
                if h == holder and card in cards:
                    cards.remove(card)

    def _take_window(self) -> bool:
        # take_hand: "after a round is resolved and before the next card is led". The window
        # is open while the table is empty between rounds (and after the deal), for every
        # player still in, whether or not they are due to act; it closes when the lead is
        # played, and stays closed during an interjection or a shootout.
        return bool(self.take_mode) and self.phase == PHASE_PLAY and not self.table_cards

    def _take_targets(self, seat: int) -> list[int]:
        if not self.live[seat]:
            return []
        if self.take_mode == "left":
            target = self._next_in(seat)
            return [target] if target != seat and self.hands[target] else []
        return [t for t in range(self.players)
                if t != seat and self.live[t] and self.hands[t]]

    # -- the contract ---------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        """The leader, the player to follow, the interjector or the shootout follower."""
        if self.phase == PHASE_OVER:
            return ()
        return (self.turn,)

    @property
    def over(self) -> bool:
        """True once only one player (or nobody) holds cards."""
        return self.phase == PHASE_OVER

    def legal_actions(self, seat: int) -> list[Action]:
        """Plays (following suit when possible), takes, draws and the interjection choice."""
        phase = self.phase
        if phase == PHASE_OVER:
            return []
        found: list[Action] = []
        if seat == self.turn:
            hand = self.hands[seat]
            led = self.led
            if phase == PHASE_PLAY and not self.table_cards:
                if not hand:
                    found = [_DRAW_DISCARDS] if self.discards else []
                    found += [Action("draw", str(t)) for t in self._draw_sources(seat)]
                elif self.round_no == 1:
                    found = [_PLAY[ACE_OF_SPADES]]
                else:
                    found = [_PLAY[c] for c in hand]
            else:
                found = [_PLAY[c] for c in hand if c >> 4 == led] or [_PLAY[c] for c in hand]
                if phase == PHASE_INTERJECT:
                    found.append(_DECLINE)
        if self.take_mode and self._take_window():
            found += [Action("take", str(t)) for t in self._take_targets(seat)]
        return found

    def random_action(self, seat: int, rng: random.Random) -> Action:
        """A uniformly random legal action, without listing them in the common cases."""
        if seat == self.turn and not self.take_mode and self.phase == PHASE_PLAY:
            hand = self.hands[seat]
            if self.table_cards:
                led = self.led
                same = [c for c in hand if c >> 4 == led]
                return _PLAY[rng.choice(same or hand)]
            if hand and self.round_no != 1:
                return _PLAY[rng.choice(hand)]
        return rng.choice(self.legal_actions(seat))

    def _apply(self, seat: int, action: Action) -> list[Event]:
        kind = action.kind
        if kind == "play":
            return self._play(seat, action)
        if kind == "take":
            return self._take(seat, action)
        if kind == "decline":
            if action.arg is not None or action.cards:
                raise IllegalAction(msg("bhabhi-decline-alone"))
            if self.phase != PHASE_INTERJECT or seat != self.turn:
                raise IllegalAction(msg("bhabhi-no-interjection"))
            events = [Event("decline", seat)]
            self._resolve(events, None)
            return events
        if kind == "draw":
            return self._draw(seat, action)
        raise IllegalAction(msg("bhabhi-not-a-move", move=str(action)))

    # -- plays ----------------------------------------------------------------------------
    def _play(self, seat: int, action: Action) -> list[Event]:
        if action.arg is not None or len(action.cards) != 1:
            raise IllegalAction(msg("bhabhi-one-card"))
        card = action.cards[0]
        phase = self.phase
        if seat != self.turn:
            raise IllegalAction(msg("bhabhi-not-turn", n=self.turn + 1))
        hand = self.hands[seat]
        if card not in hand:
            raise IllegalAction(msg("move-not-held", cards=card))
        table = self.table_cards
        suit = card >> 4
        if not table:
            if phase != PHASE_PLAY:
                raise IllegalAction(msg("bhabhi-nothing-to-play"))
            if self.round_no == 1 and card != ACE_OF_SPADES:
                # Rounds 1: the holder of the ace of spades leads it.
                raise IllegalAction(msg("bhabhi-lead-ace"))
        else:
            led = self.led
            if suit != led and any(c >> 4 == led for c in hand):
                raise IllegalAction(msg("bhabhi-follow", suit=msg(f"suit-{SUIT_LETTERS[led]}")))
        hand.remove(card)
        self._forget(seat, card)
        events = [Event("play", seat, (card,))]
        if phase == PHASE_SHOOTOUT:
            self._shootout_follow(events, seat, card)
            return events
        self.table_seats.append(seat)
        table.append(card)
        self.record.append((seat, card))
        if len(table) == 1:
            self.led = suit
            nxt = self._next_player(seat)
            if nxt == seat:  # nobody else can play: cannot happen in a live game
                self._resolve(events, None)
            else:
                self.turn = nxt
            return events
        if phase == PHASE_INTERJECT:
            if suit != self.led:
                self.voids[seat] |= 1 << self.led
            events.insert(0, Event("interject", seat))
            self._resolve(events, seat)
            return events
        nxt = self._next_player(seat)
        if suit != self.led:
            self.voids[seat] |= 1 << self.led
            self.failed = True
            if not (self.full_first and self.round_no == 1):
                # Rounds 2: a failure to follow ends the round at once.
                events.append(Event("fail", seat))
                if self.interject and nxt != self.table_seats[0]:
                    self.phase = PHASE_INTERJECT
                    self.turn = nxt
                    return events
                self._resolve(events, None)
                return events
        if nxt == self.table_seats[0]:
            self._resolve(events, None)
        else:
            self.turn = nxt
        return events

    def _resolve(self, events: list[Event], interjector: int | None) -> None:
        """Rounds 3-4: the taker picks up or the cards are discarded; the empty go safe."""
        seats = self.table_seats
        cards = self.table_cards
        led = self.led
        best = -1
        taker = seats[0]
        for s, c in zip(seats, cards, strict=True):
            if c >> 4 == led and c > best:
                best = c
                taker = s
        played = tuple(cards)
        self.last_trick = list(zip(seats, cards, strict=True))
        failed = self.failed
        hands = self.hands
        if interjector is not None:
            # interject: the interjector picks up everything, whoever had the highest card.
            taker = interjector
        if failed and not (self.full_first and self.round_no == 1):
            hands[taker].extend(cards)
            hands[taker].sort()
            self.known[taker].extend(cards)
            self.record.append((taker, PICKED_UP))
            events.append(Event("pick_up", taker, played))
        else:
            # Everyone followed (or first_round_full's first round): out of play, face down.
            self.record.append((taker, DISCARDED))
            events.append(Event("discard", taker, played))
            if (self.shootout and len(seats) == 2 and not failed and sum(self.live) == 2
                    and not hands[taker] and hands[seats[0] + seats[1] - taker]):
                self._start_shootout(events, taker, seats[0] + seats[1] - taker, played)
                return
            self.discards.extend(cards)
        self.last_taker = taker
        self.table_seats = []
        self.table_cards = []
        self.failed = False
        self.led = -1
        self.phase = PHASE_PLAY
        self.round_no += 1
        step = self.steps
        live = self.live
        went = False
        for s in range(self.players):
            if live[s] and not hands[s] and not (self.taker_stays and s == taker):
                live[s] = False
                self.safe_at[s] = step
                went = True
                events.append(Event("safe", s))
        if went:
            self.steps = step + 1
        if self._check_end(events):
            return
        leader = taker if live[taker] else self._next_in(taker)
        self.leader = self.turn = leader
        if leader != taker:
            events.append(Event("lead", leader))

    def _check_end(self, events: list[Event]) -> bool:
        left = [s for s in range(self.players) if self.live[s]]
        if len(left) > 1:
            return False
        self.phase = PHASE_OVER
        self.table_seats = []
        self.table_cards = []
        if left:
            self.loser = left[0]
            events.append(Event("last", left[0]))
        else:
            # Rounds 5, Decision: everyone running out in the same round is a draw.
            events.append(Event("draw_game"))
        # The game explained: each seat in the order of going 'safe' (its place; seats safe
        # in the same round share it), then the 'last' player; points: the score it brings.
        keys, scores = self._keys(), self.scores()
        order = sorted(range(self.players), key=lambda s: (keys[s], s))
        self.add_tally(Entry("last" if s in left else "safe", (s,),
                             1 + sum(1 for k in keys if k < keys[s]), points=scores[s])
                       for s in order)
        return True

    # -- shootout -------------------------------------------------------------------------
    def _start_shootout(self, events: list[Event], shooter: int, other: int,
                        played: tuple[Card, ...]) -> None:
        # shootout: the two cards leave play (the seed: the pile is shuffled without them).
        self.out.extend(played)
        events.append(Event("out_of_play", None, played))
        self.table_seats = []
        self.table_cards = []
        self.failed = False
        self.shooter = shooter
        self.phase = PHASE_SHOOTOUT
        self.turn = other
        events.append(Event("shootout", shooter))
        self._turn_card(events)

    def _turn_card(self, events: list[Event]) -> None:
        pile = self.discards
        shooter = self.shooter
        other = self.turn
        if not pile:
            # Ruling (the rules are silent): with nothing left to turn, the shooter stays safe
            # as in the basic rules, and the other player is the last player.
            self._finish_shootout(events, loser=other)
            return
        card = pile.pop(self.rng.randrange(len(pile)))
        self.table_seats = [shooter]
        self.table_cards = [card]
        self.led = card >> 4
        events.append(Event("turn", shooter, (card,)))

    def _shootout_follow(self, events: list[Event], seat: int, card: Card) -> None:
        turned = self.table_cards[0]
        shooter = self.shooter
        if card >> 4 != turned >> 4:
            # shootout: the follower cannot follow suit, so the shooter is the last player.
            self.out.extend((turned, card))
            self._finish_shootout(events, loser=shooter)
        elif turned > card:
            # The turned card is higher: both go out of play and another is turned.
            self.out.extend((turned, card))
            events.append(Event("out_of_play", None, (turned, card)))
            self.table_seats = []
            self.table_cards = []
            if not self.hands[seat]:
                # Ruling: the follower ran out too, so both ran out together (the Decision).
                self._finish_shootout(events, loser=-1)
                return
            self._turn_card(events)
        else:
            # The turned card is lower: the follower is the last player.
            self.out.extend((turned, card))
            self._finish_shootout(events, loser=seat)

    def _finish_shootout(self, events: list[Event], loser: int) -> None:
        self.table_seats = []
        self.table_cards = []
        self.led = -1
        step = self.steps
        for s in (self.shooter, self.turn):
            if s != loser:
                self.live[s] = False
                self.safe_at[s] = step
                events.append(Event("safe", s))
        self.steps = step + 1
        self.shooter = -1
        self._check_end(events)

    # -- take_hand and taker_stays ----------------------------------------------------------
    def _take(self, seat: int, action: Action) -> list[Event]:
        if action.cards:
            raise IllegalAction(msg("bhabhi-take-form"))
        if not self.take_mode:
            raise IllegalAction(msg("bhabhi-no-take"))
        if not self._take_window():
            raise IllegalAction(msg("bhabhi-take-when"))
        if not self.live[seat]:
            raise IllegalAction(msg("bhabhi-safe"))
        arg = action.arg or ""
        target = int(arg) if arg.isdigit() else -1
        if target not in self._take_targets(seat):
            if self.take_mode == "left":
                raise IllegalAction(msg("bhabhi-take-left", n=self._next_in(seat) + 1))
            raise IllegalAction(msg("bhabhi-take-whom", arg=arg))
        hands = self.hands
        moved = hands[target]
        hands[target] = []
        # The target knows exactly which cards went over; everyone knows the public ones.
        public = self.known[target]
        self.known[target] = []
        self.known[seat].extend(public)
        secret = self.secret
        for key in [k for k in secret if k[1] == target]:
            cards = secret.pop(key)
            if key[0] != seat:
                secret.setdefault((key[0], seat), []).extend(cards)
        unknown = [c for c in moved if c not in public]
        if unknown:
            secret.setdefault((target, seat), []).extend(unknown)
        self.voids[seat] &= self.voids[target]
        hands[seat].extend(moved)
        hands[seat].sort()
        events = [Event("take", seat, tuple(moved), str(target), private=True),
                  Event("safe", target)]
        self.live[target] = False
        self.safe_at[target] = self.steps
        self.steps += 1
        if self._check_end(events):
            return events
        if self.round_no == 1:
            # take_hand: before the first round, whoever now holds AS leads.
            leader = self._holder(ACE_OF_SPADES)
        elif self.leader == target:
            # take_hand: the player due to lead is safe, so the next one still in leads.
            leader = self._next_in(target)
        else:
            leader = self.leader
        if leader != self.leader:
            self.leader = self.turn = leader
            events.append(Event("lead", leader))
        return events

    def _draw_sources(self, seat: int) -> list[int]:
        """The players a taker with no cards may draw from (taker_stays, and its Decision).

        A player goes safe only by playing their last card, so only hands of two or more cards
        may be drawn from; a one-card hand only when the discards are empty and every other
        player still in holds a single card.
        """
        others = [t for t in range(self.players)
                  if t != seat and self.live[t] and self.hands[t]]
        several = [t for t in others if len(self.hands[t]) >= 2]
        if several or self.discards:
            return several
        return others

    def _draw(self, seat: int, action: Action) -> list[Event]:
        if action.cards:
            raise IllegalAction(msg("bhabhi-draw-form"))
        if not (self.taker_stays and self.phase == PHASE_PLAY and not self.table_cards
                and seat == self.turn and not self.hands[seat]):
            raise IllegalAction(msg("bhabhi-draw-who"))
        arg = action.arg or ""
        if arg == "discards":
            if not self.discards:
                raise IllegalAction(msg("bhabhi-discards-empty"))
            pile = self.discards
            card = pile.pop(self.rng.randrange(len(pile)))
        else:
            target = int(arg) if arg.isdigit() else -1
            if not (0 <= target < self.players and target != seat and self.live[target]
                    and self.hands[target]):
                raise IllegalAction(msg("bhabhi-draw-whom", arg=arg))
            if target not in self._draw_sources(seat):
                raise IllegalAction(msg("bhabhi-draw-last-card"))
            hand = self.hands[target]
            card = hand.pop(self.rng.randrange(len(hand)))
            self._forget(target, card)
        # taker_stays: the drawn card is led at once.
        self.hands[seat].append(card)
        events = [Event("draw", seat, (), arg)]
        events += self._play(seat, _PLAY[card])
        return events

    # -- views and the rest -----------------------------------------------------------------
    def view(self, seat: int | None) -> View:
        """What ``seat`` may know: its hand, every count, and the cards known in each hand."""
        data = self.base_view(seat, [] if seat is None else self.hands[seat])
        known = [list(k) for k in self.known]
        if seat is not None and self.secret:
            for (obs, holder), cards in self.secret.items():
                if obs == seat:
                    known[holder].extend(c for c in cards if c not in known[holder])
        phase = self.phase
        if phase == PHASE_PLAY and not self.table_cards and self.live[self.turn] \
                and not self.hands[self.turn]:
            phase = "draw"
        data.update({
            "phase": phase,
            "dealer": self.dealer,
            "round": self.round_no,
            "hand_counts": [len(h) for h in self.hands],
            "live": list(self.live),
            "safe_order": [None if s < 0 else s for s in self.safe_at],
            "known": [[str(c) for c in k] for k in known],
            "trick": [{"seat": s, "card": str(c)}
                      for s, c in zip(self.table_seats, self.table_cards, strict=True)],
            "leader": self.table_seats[0] if self.table_seats else self.turn,
            "led": SUIT_LETTERS[self.led] if self.led >= 0 else None,
            "last_trick": None if self.last_trick is None else [
                {"seat": s, "card": str(c)} for s, c in self.last_trick],
            "last_taker": None if self.last_taker < 0 else self.last_taker,
            "trumps": None,
            "discarded": len(self.discards),
            "out_of_play": [str(c) for c in self.out],
            "shooter": None if self.shooter < 0 else self.shooter,
            "loser": None if self.loser < 0 else self.loser,
            "take_open": self._take_window(),
        })
        return View(data)

    def _keys(self) -> list[int]:
        return [s if s >= 0 else _NEVER for s in self.safe_at]

    def scores(self) -> list[float]:
        """Per seat, how many players are (so far) sure to be placed below them."""
        keys = self._keys()
        return [float(sum(1 for other in keys if other > mine)) for mine in keys]

    @property
    def outcome(self) -> Outcome | None:
        """Places by the order of going safe (same round shares), the last player last."""
        if self.phase != PHASE_OVER:
            return None
        return Outcome.from_keys(self._keys(), self.scores())

    def zones(self) -> dict[str, list[Card]]:
        """Hands, the table, the discards and the cards out of play."""
        found = {f"hand{s}": list(h) for s, h in enumerate(self.hands)}
        found["table"] = list(self.table_cards)
        found["discards"] = list(self.discards)
        found["out"] = list(self.out)
        return found

    def pack(self) -> list[Card]:
        """The 52 cards."""
        return standard_deck()

    def clone(self) -> BhabhiState:
        """A hand-written independent copy."""
        return self._copy(copy_rng(self.rng))

    def _copy(self, rng: random.Random) -> BhabhiState:
        """A copy whose generator is ``rng``."""
        new = BhabhiState.__new__(BhabhiState)
        d = self.__dict__.copy()
        new.__dict__ = d
        d["hands"] = [h[:] for h in self.hands]
        d["live"] = self.live[:]
        d["safe_at"] = self.safe_at[:]
        d["table_seats"] = self.table_seats[:]
        d["table_cards"] = self.table_cards[:]
        d["discards"] = self.discards[:]
        d["out"] = self.out[:]
        d["known"] = [k[:] for k in self.known]
        d["record"] = self.record[:]
        d["secret"] = {k: v[:] for k, v in self.secret.items()}
        d["voids"] = self.voids[:]
        if self.last_trick is not None:
            d["last_trick"] = self.last_trick[:]
        d["rng"] = rng
        return new

    def determinize(self, seat: int | None, rng: random.Random) -> BhabhiState:
        """Re-deal the cards ``seat`` cannot know, keeping known cards and revealed voids."""
        new = self._copy(fresh_rng(rng))
        holders: list[int] = []
        need: list[int] = []
        pool: list[Card] = []
        for h in range(self.players):
            if h == seat or not self.hands[h]:
                continue
            fixed = set(self.known[h])
            if seat is not None:
                fixed.update(self.secret.get((seat, h), ()))
            keep = [c for c in self.hands[h] if c in fixed]
            free = [c for c in self.hands[h] if c not in fixed]
            if free:
                holders.append(h)
                need.append(len(free))
                pool.extend(free)
                new.hands[h] = keep
        if not holders:
            return new
        dealt = _deal_constrained(pool, holders, need, [self.voids[h] for h in holders], rng)
        if dealt is None:
            # No consistent re-deal found quickly: deal without the voids rather than keep
            # the real hands (the seat must never see them).
            dealt = _deal_constrained(pool, holders, need, [0] * len(holders), rng)
            assert dealt is not None
        for h, cards in zip(holders, dealt, strict=True):
            new.hands[h].extend(cards)
            new.hands[h].sort()
        return new


def _deal_constrained(pool: list[Card], holders: list[int], need: list[int], voids: list[int],
                      rng: random.Random) -> list[list[Card]] | None:
    """Deal ``pool`` so that holder i gets need[i] cards, none of a suit in voids[i]."""
    if not any(voids):
        cards = pool[:]
        rng.shuffle(cards)
        out: list[list[Card]] = []
        i = 0
        for k in need:
            out.append(cards[i:i + k])
            i += k
        return out
    for _ in range(30):
        cards = pool[:]
        rng.shuffle(cards)
        # The most constrained suits first, so the free seats are not used up by others.
        cards.sort(key=lambda c: sum(1 for v in voids if not v >> (c >> 4) & 1))
        room = need[:]
        out = [[] for _ in holders]
        ok = True
        for c in cards:
            bit = 1 << (c >> 4)
            total = sum(r for r, v in zip(room, voids, strict=True) if not v & bit)
            if total == 0:
                ok = False
                break
            pick = rng.randrange(total)
            for i, (r, v) in enumerate(zip(room, voids, strict=True)):
                if v & bit or not r:
                    continue
                if pick < r:
                    out[i].append(c)
                    room[i] -= 1
                    break
                pick -= r
        if ok:
            return out
    return None


RULES = BhabhiRules()
