"""Sugekari 21 (菅刈21): add cards to a running total that may never pass 21.

Whoever played the last card of a round captures the round's cards for their side; the side
that captures more cards wins. Rules: ``docs/rules/sugekari-21.md``.

Sides: seats 0 and 2 against 1 and 3 in ``teams`` mode; in the two-player modes each player is
their own side. Either way a seat's side is ``seat % 2``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from typing import Any, ClassVar

from games import cards as _cards
from games.cards import Card
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
    joined,
    msg,
    reseeded,
    seat_name,
    seat_option,
)
from games.wording import text

HAND_SIZE = 13
LIMIT = 21
JOKER_PENALTY = -5
MODES = ("teams", "two-decks", "refill")
EXCHANGES = ("none", "rotate", "partner")

# Card tables indexed by the card's int value, for lean playouts.
_VALUE = [0] * 96
_BIT = [0] * 96
_IS_JOKER = [False] * 96
_RANK_VALUE = {14: 1, 11: -1, 12: -2, 13: -3}
for _c in _cards.all_cards():
    if _c.is_joker:
        _IS_JOKER[_c] = True
    else:
        _VALUE[_c] = _RANK_VALUE.get(_c.rank, _c.rank)
        _BIT[_c] = 1 << _c.rank

#: The names a joker may copy (``play=7:RJ``): number cards A–10, by rank number.
COPY_NAMES: dict[int, str] = {14: "A", **{r: str(r) for r in range(2, 11)}}
_COPY_RANKS: dict[str, int] = {name: rank for rank, name in COPY_NAMES.items()}
_NUMBER_MASK = sum(1 << r for r in COPY_NAMES)
_COPY_ORDER = (14, 2, 3, 4, 5, 6, 7, 8, 9, 10)

PASS = Action("pass")
_PLAY = {c: Action("play", None, (c,)) for c in _cards.all_cards()}
_JOKERS = (_cards.RED_JOKER, _cards.BLACK_JOKER)
_JOKER_COPY = {(j, r): Action("play", COPY_NAMES[r], (j,)) for j in _JOKERS for r in COPY_NAMES}
_JOKER_HALF = {j: Action("play", "half", (j,)) for j in _JOKERS}


def value(card: Card) -> int:
    """A card's number: A = 1, 2–10 their number, J = −1, Q = −2, K = −3 (jokers 0)."""
    return _VALUE[card]


def is_minus(card: Card) -> bool:
    """True for J, Q and K, which may never be a player's last card."""
    return _VALUE[card] < 0


def capture_value(cards: list[Card]) -> int:
    """What a pile counts: one per card, −5 per joker (spice ``jokers``)."""
    return sum(JOKER_PENALTY if _IS_JOKER[c] else 1 for c in cards)


def can_start(hand: list[Card]) -> bool:
    """True when the hand can open a round (total 0, nothing played yet).

    A joker cannot open (no card on the table to copy or halve), and a lone minus card can
    never be played (rule 2: nobody may empty their hand with a J, Q or K).
    """
    many = len(hand) > 1
    return any(not _IS_JOKER[c] and (many or _VALUE[c] > 0) for c in hand)


def _pack(jokers: bool) -> list[Card]:
    deck = _cards.standard_deck()
    if jokers:
        deck += list(_JOKERS)
    return deck


class SugekariState(State):
    """One match of Sugekari 21 in progress."""

    def __init__(
        self,
        rules: SugekariRules,
        players: int,
        seed: int,
        options: dict[str, OptionValue],
        deck: list[Card] | None,
    ) -> None:
        super().__init__(rules, players, seed, options)
        self.mode = str(options["mode"])
        self.exchange = str(options["exchange"])
        self.best_of_three = bool(options["best_of_three"])
        self.jokers = bool(options["jokers"])
        n = players
        self.phase = "play"
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.round_cards: list[Card] = []
        self.round_seats: list[int] = []
        self.round_as: list[str | None] = []
        self.total = 0
        self.used = 0
        self.passes = 0
        self.last = -1
        self.turn = 0
        self.captured: list[list[Card]] = [[], []]
        self.cap_value = [0, 0]
        self.banked = [0, 0]
        self.game_base = [0, 0]
        self.pile_base = (0, 0)  # how many captured cards came from earlier games
        self.stock: list[Card] = []
        self.out_of_play: list[Card] = []
        self.set_aside: list[list[Card]] = [[] for _ in range(n)]
        self.discards: list[list[Card]] = [[] for _ in range(n)]
        self.undealt: list[Card] = []
        self.pending: list[list[Card] | None] = [None] * n
        self.must_discard = [False] * n
        self.passed: list[tuple[int, tuple[Card, ...]] | None] = [None] * n
        self.shown: list[list[Card]] = [[] for _ in range(n)]
        self.results: list[tuple[int, int, int]] = []  # (side 0, side 1, seat out or -1)
        self._to_act: tuple[int, ...] = ()
        self._over = False
        self._outcome: Outcome | None = None
        first = options["first"]
        starter = int(first) if first is not None else self.rng.randrange(n)
        self.first_starter = starter
        self.game_starter = starter
        self._deal_game(starter, deck, [])

    # -- the contract -----------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        """Seats the game is waiting for (empty when over)."""
        return self._to_act

    @property
    def over(self) -> bool:
        """True once the match has ended."""
        return self._over

    @property
    def outcome(self) -> Outcome | None:
        """None until over."""
        return self._outcome

    def pack(self) -> list[Card]:
        """The cards of the current game: 52, or 54 in games 2 and 3 with ``jokers``."""
        return _pack(self.jokers and self.deal_number > 1)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now."""
        if self.phase == "play":
            if seat != self.turn or self._over:
                return []
            return self._plays(seat)
        if self.phase == "exchange":
            if self.pending[seat] is not None:
                return []
            return [Action("exchange", None, trio) for trio in combinations(self.hands[seat], 3)]
        if self.phase == "discard":
            if not self.must_discard[seat]:
                return []
            return [Action("discard", None, (c,)) for c in self.hands[seat]]
        return []

    def random_action(self, seat: int, rng: random.Random) -> Action:
        """A uniformly random legal action, without listing every exchange."""
        if self.phase == "exchange" and self.pending[seat] is None:
            hand = self.hands[seat]
            picks = sorted(rng.sample(range(len(hand)), 3))
            return Action("exchange", None, tuple(hand[i] for i in picks))
        return rng.choice(self.legal_actions(seat))

    def _plays(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        room = LIMIT - self.total
        used = self.used
        lone = len(hand) == 1
        opening = not self.round_cards
        out: list[Action] = []
        for c in hand:
            if _IS_JOKER[c]:
                out.extend(self._joker_plays(c, room))
                continue
            v = _VALUE[c]
            if v > room or used & _BIT[c] or (lone and v < 0):
                continue
            out.append(_PLAY[c])
        if not opening:
            out.append(PASS)
        return out

    def _joker_plays(self, joker: Card, room: int) -> list[Action]:
        # Spice `jokers`: a copy of a number card already played this round (the 21 limit
        # still holds), or halving an even total once a card is on the table (0 is even: a
        # total of 0, as after 3 then K, halves to 0).
        found = []
        numbers = self.used & _NUMBER_MASK
        if numbers:
            for r in _COPY_ORDER:
                if numbers & (1 << r) and _RANK_VALUE.get(r, r) <= room:
                    found.append(_JOKER_COPY[(joker, r)])
        if self.round_cards and not self.total % 2:
            found.append(_JOKER_HALF[joker])
        return found

    def _can_play_now(self, seat: int) -> bool:
        hand = self.hands[seat]
        room = LIMIT - self.total
        lone = len(hand) == 1
        for c in hand:
            if _IS_JOKER[c]:
                if self._joker_plays(c, room):
                    return True
                continue
            v = _VALUE[c]
            if v <= room and not self.used & _BIT[c] and not (lone and v < 0):
                return True
        return False

    # -- applying ---------------------------------------------------------------------------
    def _apply(self, seat: int, action: Action) -> list[Event]:
        kind = action.kind
        if kind == "play" or kind == "pass":
            if self.phase != "play":
                raise IllegalAction(self._phase_hint())
            if seat != self.turn:
                raise IllegalAction(msg("sk-not-turn", n=self.turn + 1))
            if kind == "pass":
                if action.arg is not None or action.cards:
                    raise IllegalAction(msg("sk-pass-form"))
                if not self.round_cards:
                    raise IllegalAction(msg("sk-no-pass"))
                return self._pass(seat)
            return self._play(seat, action)
        if kind == "exchange":
            return self._choose_exchange(seat, action)
        if kind == "discard":
            return self._discard(seat, action)
        raise IllegalAction(msg("sk-not-a-move", kind=action.kind))

    def _phase_hint(self) -> Msg:
        if self.phase in ("exchange", "discard"):
            return msg(f"sk-hint-{self.phase}")
        return msg("sk-hint-none")

    def _play(self, seat: int, action: Action) -> list[Event]:
        if len(action.cards) != 1:
            raise IllegalAction(msg("sk-one-card"))
        card = action.cards[0]
        hand = self.hands[seat]
        if card not in hand:
            raise IllegalAction(msg("move-not-held", cards=card))
        arg = action.arg
        if _IS_JOKER[card]:
            add = self._check_joker(card, arg)
        else:
            if arg is not None:
                raise IllegalAction(msg("sk-joker-only", card=str(card)))
            add = _VALUE[card]
            if self.used & _BIT[card]:
                raise IllegalAction(msg(
                    "sk-rank-played", rank=_cards.rank_char(card.rank).replace("T", "10")))
            if self.total + add > LIMIT:
                raise IllegalAction(msg("sk-over-limit", total=self.total + add, limit=LIMIT))
            if len(hand) == 1 and add < 0:
                raise IllegalAction(msg("sk-last-court"))
        # -- valid: apply -------------------------------------------------------------------
        hand.remove(card)
        shown = self.shown[seat]
        if shown and card in shown:
            shown.remove(card)
        self.round_cards.append(card)
        self.round_seats.append(seat)
        self.round_as.append(arg)
        if arg == "half":
            self.total //= 2
        else:
            self.total += add
            self.used |= _BIT[card]
        self.last = seat
        self.passes = 0
        events = [Event("play", seat, (card,), arg)]
        if not hand:
            self._go_out(seat, events)
        elif self.total == LIMIT:
            self._take_round(events)
        elif self._stuck():
            self._end_stuck(events)
        else:
            self.turn = nxt = (seat + 1) % self.players
            self._to_act = (nxt,)
        return events

    def _check_joker(self, card: Card, arg: str | None) -> int:
        """The amount a joker adds (halving: the change), or IllegalAction."""
        if arg is None:
            raise IllegalAction(msg("sk-joker-how", card=str(card)))
        if arg == "half":
            if not self.round_cards or self.total % 2:
                raise IllegalAction(msg("sk-joker-half"))
            return 0
        rank = _COPY_RANKS.get(arg)
        if rank is None:
            raise IllegalAction(msg("sk-joker-copy", arg=arg))
        if not self.used & (1 << rank):
            raise IllegalAction(msg("sk-joker-nothing", arg=arg))
        add = _RANK_VALUE.get(rank, rank)
        if self.total + add > LIMIT:
            raise IllegalAction(msg("sk-over-limit", total=self.total + add, limit=LIMIT))
        return add

    def _pass(self, seat: int) -> list[Event]:
        events = [Event("pass", seat)]
        self.passes += 1
        if self.passes >= self.players - 1:
            # Rule 3: every other player has passed in succession since the last card.
            self._take_round(events)
        else:
            self.turn = nxt = (seat + 1) % self.players
            self._to_act = (nxt,)
        return events

    def _take_round(self, events: list[Event]) -> None:
        taker = self.last
        side = taker & 1
        won = self.round_cards
        self.captured[side].extend(won)
        self.cap_value[side] += capture_value(won)
        events.append(Event("take", taker, tuple(won), str(self.total)))
        self._clear_round()
        if self.mode == "refill":
            self._refill(taker, events)
        self._start_round(taker, events)

    def _clear_round(self) -> None:
        self.round_cards = []
        self.round_seats = []
        self.round_as = []
        self.total = 0
        self.used = 0
        self.passes = 0
        self.last = -1

    def _refill(self, taker: int, events: list[Event]) -> None:
        # Mode `refill`: both draw back up to 13, the round's taker first; the drawn cards are
        # shown to both players, so they are public knowledge from then on.
        for seat in (taker, (taker + 1) % self.players):
            need = HAND_SIZE - len(self.hands[seat])
            if need <= 0 or not self.stock:
                continue
            drawn = self.stock[:need]
            del self.stock[:need]
            self.hands[seat].extend(drawn)
            self.shown[seat].extend(drawn)
            events.append(Event("draw", seat, tuple(drawn)))

    def _start_round(self, starter: int, events: list[Event]) -> None:
        # Decision (rule 2): a starter who cannot play at all hands the start clockwise to the
        # next player who can; if nobody can, nobody can ever play again.
        n = self.players
        for i in range(n):
            seat = (starter + i) % n
            if can_start(self.hands[seat]):
                if i:
                    events.append(Event("start_passes", seat, arg=str(starter)))
                self.turn = seat
                self._to_act = (seat,)
                return
        self._end_stuck(events)

    def _stuck(self) -> bool:
        """True when no card can ever be played again (Decision, rule 4)."""
        hands = self.hands
        for h in hands:
            if len(h) > 2:
                return False
        for h in hands:
            if can_start(h):
                return False
        # Nobody can open a round; only a play by someone other than the last player could
        # still happen in this one (if all of them pass, the round ends).
        return all(s == self.last or not self._can_play_now(s) for s in range(self.players))

    def _end_stuck(self, events: list[Event]) -> None:
        # Decision (rule 4): nobody goes out; the final round's cards are out of play.
        events.append(Event("stuck", None, tuple(self.round_cards)))
        self.out_of_play.extend(self.round_cards)
        self._clear_round()
        self._end_game(-1, events)

    def _go_out(self, seat: int, events: list[Event]) -> None:
        # Rule 4 and its Decision: going out replaces round-winning. The side takes half the
        # final round rounded up (a joker in it must be among them); the rest is out of play.
        cards = self.round_cards
        keep = (len(cards) + 1) // 2
        order = [c for c in cards if _IS_JOKER[c]]
        order += [c for c in reversed(cards) if not _IS_JOKER[c]]
        taken = order[:keep]
        rest = [c for c in cards if c not in taken]
        side = seat & 1
        self.captured[side].extend(taken)
        self.cap_value[side] += capture_value(taken)
        self.out_of_play.extend(rest)
        events.append(Event("out", seat, tuple(taken), str(self.total)))
        self._clear_round()
        self._end_game(seat, events)

    # -- games of a match -------------------------------------------------------------------
    def game_scores(self) -> list[int]:
        """What each side has captured in the current game so far."""
        return [self.cap_value[0] - self.game_base[0], self.cap_value[1] - self.game_base[1]]

    def _tally(self, out: int) -> list[Entry]:
        """The game explained: who went 'out' (or that it got 'stuck'), then per side the
        'captured' cards (one point each) and the 'jokers' among them (−5 each)."""
        found = [Entry("out", (out,)) if out >= 0 else Entry("stuck")]
        for side in (0, 1):
            seats = tuple(s for s in range(self.players) if s & 1 == side)
            pile = self.captured[side][self.pile_base[side]:]
            jokers = tuple(c for c in pile if _IS_JOKER[c])
            found.append(Entry("captured", seats, len(pile) - len(jokers),
                               points=len(pile) - len(jokers)))
            if jokers:
                found.append(Entry("jokers", seats, len(jokers), jokers,
                                   points=JOKER_PENALTY * len(jokers)))
        return found

    def _end_game(self, out: int, events: list[Event]) -> None:
        scores = self.game_scores()
        self.results.append((scores[0], scores[1], out))
        self.add_tally(self._tally(out))
        events.append(Event("game_over", out if out >= 0 else None, arg=f"{scores[0]}-{scores[1]}"))
        more = (self.mode == "two-decks" and self.deal_number == 1) or (
            self.best_of_three and self.deal_number < 3
        )
        if not more:
            self._finish(events)
            return
        n = self.players
        if self.mode == "two-decks":
            # Second game on the same shuffle: hands left are out of play, the stock is
            # shuffled and dealt, and the player who did not go out starts.
            for s in range(n):
                self.set_aside[s].extend(self.hands[s])
                self.hands[s] = []
            self.game_base = self.cap_value[:]
            self.pile_base = (len(self.captured[0]), len(self.captured[1]))
            starter = (out + 1) % n if out >= 0 else (self.game_starter + 1) % n
        else:
            # Decision: in a best-of-three the start moves one seat clockwise each game.
            self.banked = [self.banked[0] + scores[0], self.banked[1] + scores[1]]
            starter = (self.game_starter + 1) % n
        self.deal_number += 1
        self.game_starter = starter
        self._deal_game(starter, None, events)

    def _deal_game(self, starter: int, deck: list[Card] | None, events: list[Event]) -> None:
        n = self.players
        extra: list[int] = []
        if self.mode == "two-decks" and self.deal_number == 2:
            cards = self.stock
            self.stock = []
            self.rng.shuffle(cards)
        else:
            jokers = self.jokers and self.deal_number > 1
            pack = _pack(jokers)
            if deck is not None:
                cards = check_deck(deck, pack)
            else:
                cards = pack
                self.rng.shuffle(cards)
            self._reset_game()
            if jokers:
                extra = self._trailing_seats(starter)
        hands: list[list[Card]] = [[] for _ in range(n)]
        pos = 0
        for _ in range(HAND_SIZE):
            for i in range(n):
                hands[(starter + i) % n].append(cards[pos])
                pos += 1
        for seat in extra:
            hands[seat].append(cards[pos])
            pos += 1
        self.hands = hands
        rest = cards[pos:]
        if n == 2:
            self.stock = rest
        else:
            self.undealt = rest
        self.pending = [None] * n
        self.passed = [None] * n
        self.shown = [[] for _ in range(n)]
        self.must_discard = [s in extra for s in range(n)]
        if self.deal_number > 1:
            events.append(Event("game", None, arg=str(self.deal_number)))
            for s in range(n):
                events.append(Event("deal", s, tuple(hands[s]), private=True))
        if extra:
            self.phase = "discard"
            self._to_act = tuple(sorted(extra))
        else:
            self._after_discards(events)

    def _reset_game(self) -> None:
        n = self.players
        self._clear_round()
        self.captured = [[], []]
        self.cap_value = [0, 0]
        self.game_base = [0, 0]
        self.pile_base = (0, 0)
        self.stock = []
        self.out_of_play = []
        self.set_aside = [[] for _ in range(n)]
        self.discards = [[] for _ in range(n)]
        self.undealt = []

    def _trailing_seats(self, starter: int) -> list[int]:
        # Spice `jokers`: one more card to each player of the side that captured fewer in the
        # game before; on a tie the side that did not go out. Decision: a tie with nobody out
        # gives no extra card (the two spare cards stay face down, out of play).
        s0, s1, out = self.results[-1]
        if s0 != s1:
            side = 0 if s0 < s1 else 1
        elif out >= 0:
            side = 1 - (out & 1)
        else:
            return []
        n = self.players
        return [(starter + i) % n for i in range(n) if (starter + i) % n & 1 == side]

    def exchange_offset(self) -> int:
        """How far clockwise cards pass in this game's exchange (0: no exchange)."""
        n = self.players
        if self.exchange == "partner":
            return 2
        if self.exchange == "rotate":
            # Spice `exchange`: as in Hearts, left, right, across, none, by game number.
            return (1, n - 1, n // 2, 0)[(self.deal_number - 1) % 4]
        return 0

    def _after_discards(self, events: list[Event]) -> None:
        if self.exchange_offset():
            self.phase = "exchange"
            self._to_act = tuple(range(self.players))
            return
        self.phase = "play"
        self._start_round(self.game_starter, events)

    def _discard(self, seat: int, action: Action) -> list[Event]:
        if self.phase != "discard":
            raise IllegalAction(
                msg("sk-nothing-discard") if self.phase != "exchange" else self._phase_hint())
        if not self.must_discard[seat]:
            raise IllegalAction(msg("sk-no-extra"))
        if action.arg is not None or len(action.cards) != 1:
            raise IllegalAction(msg("sk-discard-one"))
        card = action.cards[0]
        if card not in self.hands[seat]:
            raise IllegalAction(msg("move-not-held", cards=card))
        self.hands[seat].remove(card)
        self.discards[seat].append(card)
        self.must_discard[seat] = False
        events = [Event("discard", seat, (card,), private=True)]
        waiting = tuple(s for s in range(self.players) if self.must_discard[s])
        if waiting:
            self._to_act = waiting
        else:
            self._after_discards(events)
        return events

    def _choose_exchange(self, seat: int, action: Action) -> list[Event]:
        if self.phase != "exchange":
            raise IllegalAction(
                msg("sk-no-exchange") if self.phase != "discard" else self._phase_hint())
        if self.pending[seat] is not None:
            raise IllegalAction(msg("sk-already-chosen"))
        trio = action.cards
        if action.arg is not None or len(trio) != 3 or len(set(trio)) != 3:
            raise IllegalAction(msg("sk-choose-three"))
        hand = self.hands[seat]
        for c in trio:
            if c not in hand:
                raise IllegalAction(msg("move-not-held", cards=c))
        for c in trio:
            hand.remove(c)
        self.pending[seat] = list(trio)
        events = [Event("exchange", seat, trio, private=True)]
        waiting = tuple(s for s in range(self.players) if self.pending[s] is None)
        if waiting:
            self._to_act = waiting
            return events
        # Everyone has chosen: the cards pass at the same time.
        n = self.players
        offset = self.exchange_offset()
        for s in range(n):
            given = self.pending[s] or []
            target = (s + offset) % n
            self.hands[target].extend(given)
            self.passed[s] = (target, tuple(given))
            events.append(Event("receive", target, tuple(given), arg=str(s), private=True))
        self.pending = [None] * n
        self.phase = "play"
        self._start_round(self.game_starter, events)
        return events

    def _finish(self, events: list[Event]) -> None:
        self._over = True
        self.phase = "over"
        self._to_act = ()
        totals = self.side_scores()
        best = (0 if totals[0] > totals[1] else 1) if totals[0] != totals[1] else -2
        if best == -2:
            best = self._tie_break()
        places = [1 if best < 0 or s & 1 == best else 2 for s in range(self.players)]
        self._outcome = Outcome.from_places(places, [float(totals[s & 1]) for s in
                                                      range(self.players)])
        winners = "+".join(str(s) for s in range(self.players) if s & 1 == best)
        events.append(Event("match_over", None, arg="draw" if best < 0 else winners))

    def _tie_break(self) -> int:
        """The side that wins a tie, or −1 for a draw."""
        if self.best_of_three:
            # Spice `best_of_three`: the side that went out more often.
            outs = [0, 0]
            for _, _, out in self.results:
                if out >= 0:
                    outs[out & 1] += 1
            return -1 if outs[0] == outs[1] else (0 if outs[0] > outs[1] else 1)
        # teams: the side of the player who went out; two-decks: who went out in the first
        # game; refill (Decision): the player who went out. Nobody out: a draw.
        out = self.results[0][2]
        return out & 1 if out >= 0 else -1

    def side_scores(self) -> list[int]:
        """Each side's running score: captured cards (jokers −5) over the match."""
        return [self.banked[0] + self.cap_value[0], self.banked[1] + self.cap_value[1]]

    def scores(self) -> list[float]:
        """One running number per seat: its side's captured cards over the match."""
        totals = self.side_scores()
        return [float(totals[s & 1]) for s in range(self.players)]

    # -- views and copies -------------------------------------------------------------------
    def view(self, seat: int | None) -> View:
        """What ``seat`` may know; None for a spectator."""
        own = self.hands[seat] if seat is not None and 0 <= seat < self.players else []
        data = self.base_view(seat, own)
        n = self.players
        data.update({
            "mode": self.mode,
            "phase": self.phase,
            "dealer": None,
            "sides": [[0, 2], [1, 3]] if n == 4 else [[0], [1]],
            "hand_counts": [len(h) for h in self.hands],
            "live": [not self._over] * n,
            "turn": self.turn if self.phase == "play" and not self._over else None,
            "round": [
                {"seat": s, "card": str(c), "as": a}
                for s, c, a in zip(self.round_seats, self.round_cards, self.round_as,
                                   strict=True)
            ],
            "total": self.total,
            "last": self.last if self.last >= 0 else None,
            "passes": self.passes,
            "captured": [[str(c) for c in pile] for pile in self.captured],
            "captured_counts": self.game_scores(),
            "side_scores": self.side_scores(),
            "stock": len(self.stock),
            "shown": [[str(c) for c in cards] for cards in self.shown],
            "out_of_play": [str(c) for c in self.out_of_play],
            "set_aside_counts": [len(c) for c in self.set_aside],
            "discard_counts": [len(c) for c in self.discards],
            "must_discard": list(self.must_discard),
            "exchange_offset": self.exchange_offset(),
            "exchange_done": [p is not None for p in self.pending],
            "games": [
                {"scores": [a, b], "out": out if out >= 0 else None}
                for a, b, out in self.results
            ],
        })
        if seat is not None:
            pend = self.pending[seat]
            passed = self.passed[seat]
            data["exchange_chosen"] = [str(c) for c in pend] if pend else []
            data["passed"] = (
                None if passed is None
                else {"to": passed[0], "cards": [str(c) for c in passed[1]]}
            )
            data["discarded"] = [str(c) for c in self.discards[seat]]
            data["set_aside"] = [str(c) for c in self.set_aside[seat]]
        return View(data)

    def zones(self) -> dict[str, list[Card]]:
        """Every place cards lie in, by name."""
        found: dict[str, list[Card]] = {}
        for s in range(self.players):
            found[f"hand {s}"] = list(self.hands[s])
            found[f"exchange {s}"] = list(self.pending[s] or [])
            found[f"discard {s}"] = list(self.discards[s])
            found[f"set aside {s}"] = list(self.set_aside[s])
        found["round"] = list(self.round_cards)
        found["captured 0"] = list(self.captured[0])
        found["captured 1"] = list(self.captured[1])
        found["stock"] = list(self.stock)
        found["out of play"] = list(self.out_of_play)
        found["undealt"] = list(self.undealt)
        return found

    def clone(self) -> SugekariState:
        """An independent copy, written out by hand for fast playouts."""
        return self._copy(copy_rng(self.rng))

    def _copy(self, rng: random.Random) -> SugekariState:
        """A copy whose generator is ``rng``."""
        new = object.__new__(SugekariState)
        new.__dict__.update(self.__dict__)
        new.rng = rng
        new.hands = [h[:] for h in self.hands]
        new.round_cards = self.round_cards[:]
        new.round_seats = self.round_seats[:]
        new.round_as = self.round_as[:]
        new.captured = [self.captured[0][:], self.captured[1][:]]
        new.cap_value = self.cap_value[:]
        new.banked = self.banked[:]
        new.game_base = self.game_base[:]
        new.stock = self.stock[:]
        new.out_of_play = self.out_of_play[:]
        new.set_aside = [c[:] for c in self.set_aside]
        new.discards = [c[:] for c in self.discards]
        new.undealt = self.undealt[:]
        new.pending = [None if p is None else p[:] for p in self.pending]
        new.must_discard = self.must_discard[:]
        new.passed = self.passed[:]
        new.shown = [c[:] for c in self.shown]
        new.results = self.results[:]
        return new

    def determinize(self, seat: int | None, rng: random.Random) -> SugekariState:
        """A full state consistent with what ``seat`` knows; unknown cards re-dealt."""
        new = self._copy(self.rng)  # its own generator comes below (reseeded)
        n = self.players
        known: list[list[Card]] = [list(cards) for cards in self.shown]
        if seat is not None:
            passed = self.passed[seat]
            if passed is not None:
                known[passed[0]].extend(passed[1])
        pool: list[Card] = []
        holes: list[tuple[list[Card], int]] = []

        def hide(cards: list[Card], keep: list[Card]) -> list[Card]:
            fixed = [c for c in cards if c in keep]
            pool.extend(c for c in cards if c not in keep)
            holes.append((fixed, len(cards) - len(fixed)))
            return fixed

        for s in range(n):
            if s == seat:
                continue
            new.hands[s] = hide(self.hands[s], known[s])
            new.discards[s] = hide(self.discards[s], [])
            new.set_aside[s] = hide(self.set_aside[s], [])
            pend = self.pending[s]
            if pend is not None:
                new.pending[s] = hide(pend, [])
        new.stock = hide(self.stock, [])
        new.undealt = hide(self.undealt, [])
        rng.shuffle(pool)
        pos = 0
        for fixed, count in holes:
            fixed.extend(pool[pos:pos + count])
            pos += count
        reseeded(new, rng)
        return new


class SugekariRules(Rules):
    """Sugekari 21: keep the running total at most 21 and capture the rounds."""

    id: ClassVar[str] = "sugekari-21"
    name: ClassVar[str] = "Sugekari 21"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    usual_players: ClassVar[int] = 4
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "mode", "choice", "teams",
            "teams: 4 players, 2 v 2; two-decks: 2 players, two games on one shuffle; "
            "refill: 2 players, hands refilled from a stock (2 players without a mode: "
            "two-decks)",
            choices=MODES,
        ),
        seat_option("first", "The seat that starts the first round (random if not set)"),
        Option(
            "exchange", "choice", "none",
            "Pass 3 cards after the deal: rotate (left, right, across, none by game) or to the "
            "partner (teams only)",
            choices=EXCHANGES,
        ),
        Option("best_of_three", "bool", False,
               "A match of three games; captured cards add up"),
        Option("jokers", "bool", False,
               "Games 2 and 3 add two jokers (needs best_of_three)"),
    )
    test_mixes: ClassVar[tuple[tuple[int, dict[str, OptionValue]], ...]] = (
        (4, {"best_of_three": True, "jokers": True, "exchange": "partner"}),
        (2, {"mode": "refill", "best_of_three": True, "jokers": True}),
        (2, {"mode": "refill", "exchange": "rotate"}),
        (2, {"mode": "two-decks", "exchange": "rotate"}),
    )
    summary_en: ClassVar[str] = (
        "Sugekari 21 — an original game from Sugekari, Meguro, Tokyo.\n"
        "Values: A = 1, 2–10 as printed, J = −1, Q = −2, K = −3. Suits never matter.\n"
        "Teams (default): 4 players, seats 1+3 against 2+4, 13 cards each.\n"
        "A round: the starter plays any card; then in turn each plays one card or passes.\n"
        "The round's total may never pass 21; no rank twice in a round; nobody may play a J, Q "
        "or K as their last card.\n"
        "A round ends at exactly 21, or when everyone else has passed since the last card; "
        "whoever played last captures its cards (face up) and starts the next round.\n"
        "The game ends the moment a player plays their last card: their side takes half of that "
        "round, rounded up; the rest and every hand are out of play.\n"
        "More captured cards wins; a tie goes to the side that went out.\n"
        "2 players: two-decks (two games on one shuffle) or refill (draw back to 13 after each "
        "round, drawn cards shown).\n"
        "Spices: exchange (3 cards, rotate or partner), best_of_three, jokers (games 2–3: a "
        "joker copies a number card of the round or halves an even total, 0 too; −5 when "
        "captured)."
    )

    def player_counts(self) -> range:
        """Two or four players (teams needs four; the two-player modes two)."""
        return range(2, 5, 2)

    def players_message(self) -> Msg:
        """'2 or 4' ('2か4' in Japanese): three players cannot play."""
        return msg("sk-players")

    def default_text(self, option: Option, lang: str = "en") -> str:
        """The mode's default depends on the players: teams for 4, two-decks for 2."""
        if option.name != "mode":
            return super().default_text(option, lang)
        return text("sk-mode-default", lang)

    def validate_options(
        self, players: int, options: Mapping[str, object] | None = None
    ) -> dict[str, OptionValue]:
        """Like every game, but two players without a mode play ``two-decks``."""
        given = dict(options or {})
        if players == 2 and "mode" not in given:
            given["mode"] = "two-decks"
        return super().validate_options(players, given)

    def check_options(self, players: int, options: dict[str, OptionValue]) -> None:
        """Refuse player counts and spice combinations the rules do not allow."""
        mode = options["mode"]
        if players == 3:
            raise OptionError("sugekari-three")
        if mode == "teams" and players != 4:
            raise OptionError("teams-four", players=players)
        if mode != "teams" and players != 2:
            raise OptionError("mode-two", mode=mode, players=players)
        if options["exchange"] == "partner" and mode != "teams":
            raise OptionError("partner-teams")
        if options["jokers"] and not options["best_of_three"]:
            raise OptionError("jokers-best-of-three")
        if options["best_of_three"] and mode == "two-decks":
            raise OptionError("best-of-three-two-decks")

    def teams(self, players: int, options: Mapping[str, OptionValue]) -> list[list[int]] | None:
        """Partners sit opposite in teams mode: [[0, 2], [1, 3]]."""
        if options.get("mode", "teams") == "teams" and players == 4:
            return [[0, 2], [1, 3]]
        return None

    def create(
        self,
        players: int,
        seed: int,
        options: dict[str, OptionValue],
        deck: list[Card] | None,
    ) -> SugekariState:
        """A new match: the first game dealt (from ``deck`` when given)."""
        return SugekariState(self, players, seed, options, deck)

    # -- words for people -------------------------------------------------------------------
    def hand_key(self, view: View) -> Callable[[Card], tuple[int, int]]:
        """Suits never matter here, numbers do: the jokers first, then by the number a card
        counts from 10 down to A (1) and the minus cards J, Q, K; one number's cards together,
        their suits with colours alternating (♠ ♥ ♣ ♦)."""
        place = {s: i for i, s in enumerate(_cards.hand_suits())}

        def key(c: Card) -> tuple[int, int]:
            if c.is_joker:
                return (-11, int(c))
            return (-value(c), place[c.suit])

        return key

    def action_message(self, action: Action) -> Msg:
        """A short label for an action ('Play 7♠', 'Pass')."""
        cards = action.cards
        if action.kind == "pass":
            return msg("sk-act-pass")
        if action.kind == "play" and action.cards and action.cards[0].is_joker and action.arg:
            if action.arg == "half":
                return msg("sk-act-half", cards=cards)
            return msg("sk-act-as", cards=cards, arg=action.arg)
        if action.kind == "play":
            return msg("act-play", cards=cards)
        if action.kind in ("exchange", "discard"):
            return msg(f"sk-act-{action.kind}", cards=cards)
        return super().action_message(action)

    def event_message(self, event: Event, names: Sequence[str] | None = None) -> Msg | None:
        """A sentence for an event (already stripped for the reader)."""
        who = "" if event.seat is None else seat_name(event.seat, names, "seat-numbered")
        count = count_msg(event.hidden or len(event.cards))
        kind = event.kind
        if kind == "play":
            kind = "half" if event.arg == "half" else "as" if event.arg is not None else "play"
        elif kind == "receive":
            kind = "receive-cards" if event.cards else "receive"
        elif kind == "match_over":
            if event.arg == "draw":
                return msg("sk-ev-drawn")
            seats = [int(x) for x in (event.arg or "0").split("+")]
            if len(seats) == 1:
                return msg("sk-ev-won", who=seat_name(seats[0], names, "seat-numbered"))
            if names is None and len(seats) == 2:
                return msg("sk-ev-won-seats", a=seats[0] + 1, b=seats[1] + 1)
            return msg("sk-ev-won-many", listed=joined(
                [seat_name(x, names, "seat-numbered") for x in seats], "sk-and"))
        if kind not in _EVENTS:
            return super().event_message(event, names)
        return msg(f"sk-ev-{kind}", who=who, cards=event.cards, count=count, arg=event.arg)

    def view_text(self, view: View, lang: str = "en") -> str:
        """The table as plain text."""
        data = view.to_dict()

        def show(codes: list[str]) -> str:
            return _cards.show_codes(codes, lang) or "-"

        def played(e: dict[str, Any]) -> str:
            how = (text("sk-view-halving", lang) if e["as"] == "half"
                   else f"={e['as']}" if e["as"] else "")
            return f"{e['seat'] + 1}:{show([e['card']])}{how}"

        sides = data["sides"]
        lines = [
            text("sk-view-head", lang, deal=data["deal"], total=data["total"]),
            text("sk-view-round", lang,
                 plays=" ".join(played(e) for e in data["round"]) or "-"),
        ]
        for i, seats in enumerate(sides):
            lines.append(text("sk-view-side", lang, i=i + 1,
                              seats="+".join(str(s + 1) for s in seats),
                              score=data["side_scores"][i]))
        lines.append(text("sk-view-counts", lang,
                          counts=" ".join(str(c) for c in data["hand_counts"])))
        if data["mode"] == "refill":
            lines.append(text("sk-view-stock", lang, stock=data["stock"]))
            for s, cards in enumerate(data["shown"]):
                if cards:
                    lines.append(text("sk-view-shown", lang, n=s + 1, cards=show(cards)))
        if data["seat"] is not None:
            lines.append(text("sk-view-hand", lang,
                              cards=_cards.show(self.sorted_hand(view), lang) or "-"))
        if data["over"]:
            lines.append(text("sk-view-over", lang))
        elif data["turn"] is not None:
            lines.append(text("sk-view-turn", lang, n=data["turn"] + 1))
        return "\n".join(lines)


#: the events worded with the seat, the cards, their count and the event's argument
_EVENTS = frozenset({"play", "half", "as", "pass", "take", "out", "stuck", "start_passes",
                     "game_over", "game", "deal", "draw", "exchange", "receive",
                     "receive-cards", "discard"})


RULES = SugekariRules()
