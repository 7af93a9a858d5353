"""Duel: the smallest whole game, the skeleton to copy when adding a game (docs/engine.md).

Two players get three cards each. The leader plays a card, the other answers; the higher rank
takes the round (the leader wins a tie) and leads the next. The most rounds won wins.

A real game lives in ``games/<module>.py`` (this file's ``Rules`` and ``State``), its computer
player in ``games/ai/<module>.py`` (``basic`` below), and words its moves and events through
the catalogues (``action_message`` / ``event_message`` returning ``msg("<game>-…")``; its name,
summary and option help as ``game-name-<id>`` … in ``games/locales/<lang>/game_text.po``). Duel
keeps the engine's plain default words and its English name so that it fits on a page.
"""

from __future__ import annotations

import random
from typing import Any

from games import cards
from games.ai import Observation
from games.cards import Card
from games.core import Action, Event, IllegalAction, Outcome, Rules, State, View, reseeded
from games.wording import msg

HAND = 3


class DuelRules(Rules):
    """What Duel is: two players, no options."""

    id = "duel"
    name = "Duel"
    min_players = max_players = usual_players = 2

    def create(self, players: int, seed: int, options: dict[str, Any],
               deck: list[Card] | None) -> DuelState:
        """A shuffled deal (or ``deck`` on top, for tests)."""
        return DuelState(self, players, seed, options, deck)


class DuelState(State):
    """A deal of Duel."""

    def __init__(self, rules: Rules, players: int, seed: int, options: dict[str, Any],
                 deck: list[Card] | None) -> None:
        super().__init__(rules, players, seed, options)
        pack = cards.standard_deck()
        self.rng.shuffle(pack)
        if deck is not None:
            pack = list(deck) + [c for c in pack if c not in deck]
        self.hands = [pack[:HAND], pack[HAND:2 * HAND]]
        self.rest = pack[2 * HAND:]
        self.trick: list[Card] = []
        self.taken: list[Card] = []
        self.leader = 0
        self.won = [0, 0]

    @property
    def to_act(self) -> tuple[int, ...]:
        """The leader, then the other seat; nobody once the hands are empty."""
        return () if self.over else ((self.leader + len(self.trick)) % 2,)

    def legal_actions(self, seat: int) -> list[Action]:
        """Any card of the hand, on one's turn."""
        return [Action.of("play", (c,)) for c in self.hands[seat]] if seat in self.to_act else []

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if not any(action.same_as(a) for a in self.legal_actions(seat)):  # before any change
            raise IllegalAction(msg("move-not-a-move"))
        card = action.cards[0]
        self.hands[seat].remove(card)
        self.trick.append(card)
        events = [Event("play", seat, (card,))]
        if len(self.trick) == 2:
            lead, answer = self.trick
            winner = self.leader if lead.rank >= answer.rank else 1 - self.leader
            self.won[winner] += 1
            self.taken += self.trick
            self.trick, self.leader = [], winner
            events.append(Event("round", winner))
        return events

    def view(self, seat: int | None) -> View:
        """What a seat knows: its own hand and everything on the table."""
        data = self.base_view(seat, list(self.hands[seat]) if seat is not None else [])
        data.update(phase="play", deal=1, dealer=None, leader=self.leader, trumps=None,
                    hand_counts=[len(h) for h in self.hands], live=[True, True],
                    trick=[{"seat": (self.leader + i) % 2, "card": str(c)}
                           for i, c in enumerate(self.trick)],
                    tricks_won=list(self.won), last_trick=None)
        return View(data)

    @property
    def over(self) -> bool:
        """Once both hands are empty."""
        return not any(self.hands)

    @property
    def outcome(self) -> Outcome | None:
        """The most rounds won wins."""
        return Outcome.from_keys([-w for w in self.won], self.scores()) if self.over else None

    def scores(self) -> list[float]:
        """Rounds won."""
        return [float(w) for w in self.won]

    def determinize(self, seat: int | None, rng: random.Random) -> DuelState:
        """The hands ``seat`` cannot see re-dealt from the cards it has not seen (a
        spectator's: both); the table's cards stay where they are."""
        other = self.clone()
        assert isinstance(other, DuelState)
        reseeded(other, rng)
        hidden = [s for s in (0, 1) if s != seat]
        unseen = [c for s in hidden for c in other.hands[s]] + other.rest
        rng.shuffle(unseen)
        for s in hidden:
            size = len(other.hands[s])
            other.hands[s], unseen = unseen[:size], unseen[size:]
        other.rest = unseen
        return other

    def zones(self) -> dict[str, list[Card]]:
        """Where every card is."""
        return {"hand0": list(self.hands[0]), "hand1": list(self.hands[1]),
                "trick": list(self.trick), "taken": list(self.taken), "rest": list(self.rest)}

    def pack(self) -> list[Card]:
        """The 52 cards."""
        return cards.standard_deck()


RULES = DuelRules()


def basic(obs: Observation, rng: random.Random) -> Action:
    """The computer player (``games/ai/<module>.py``): its highest card."""
    return max(obs.legal, key=lambda a: a.cards[0].rank)
