"""A small trick game used only by the bot's tests, so the table flow is tested generically.

"High card": every seat gets ``hand`` cards; with ``discard`` everyone first throws away two
cards at once (a simultaneous, multi-card move); then each trick the highest rank wins (ties:
the earlier card) and the winner leads. Any seat that is not to act may ``knock`` once, out
of turn, for a point. ``teams`` pairs seats 0+2 and 1+3 at four players.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from games import cards as _cards
from games import wording
from games.cards import Card
from games.core import Action, Event, IllegalAction, Option, Outcome, Rules, State, View

# its name, summary and option help in every language, as a game outside the package words them
wording.add_folder(Path(__file__).with_name("high_card_locales"))


class HighCardRules(Rules):
    """The rules of the test game."""

    id = "high-card"
    name = "High Card"
    min_players = 2
    max_players = 4
    usual_players = 3
    summary_en = "Play one card a trick; the highest rank wins the trick."
    options = (
        Option("hand", "int", 3, "Cards per player", minimum=1, maximum=26),
        Option("discard", "bool", False, "Everyone first discards two"),
        Option("teams", "bool", False, "Partners sit opposite (4 players)"),
        Option("mode", "choice", "plain", "Scoring", choices=("plain", "double")),
    )

    def check_options(self, players: int, options: dict[str, Any]) -> None:
        """Refuse hands that do not fit the pack and teams without four players."""
        needed = int(options["hand"]) * players
        if needed > 52:
            raise ValueError(f"option 'hand' is too large for {players} players")
        if options["teams"] and players != 4:
            raise ValueError("option 'teams' needs exactly 4 players")
        if options["discard"] and int(options["hand"]) < 3:
            raise ValueError("option 'discard' needs a hand of at least 3")

    def teams(self, players: int, options: Any) -> list[list[int]] | None:
        """Seats 0+2 and 1+3 when teams are on."""
        return [[0, 2], [1, 3]] if options.get("teams") and players == 4 else None

    def action_text(self, action: Action, lang: str = "en") -> str:
        """Button words."""
        shown = " ".join(_cards.pretty(c) for c in action.cards)
        if action.kind == "knock":
            return "ノック" if lang == "ja" else "Knock"
        if action.kind == "discard":
            return ("捨てる " if lang == "ja" else "Discard ") + shown
        return ("出す " if lang == "ja" else "Play ") + shown

    def view_text(self, view: View, lang: str = "en") -> str:
        """The table in a few lines."""
        trick = " ".join(_cards.pretty(_cards.parse(t["card"])) for t in view["trick"])
        won = ", ".join(str(n) for n in view["tricks_won"])
        return f"Phase: {view['phase']}\nTrick: {trick or '-'}\nTricks: {won}"

    def create(self, players: int, seed: int, options: dict[str, Any],
               deck: list[Card] | None) -> HighCardState:
        """Deal."""
        return HighCardState(self, players, seed, options, deck)


class HighCardState(State):
    """A match of High Card."""

    def __init__(self, rules: Rules, players: int, seed: int, options: dict[str, Any],
                 deck: list[Card] | None) -> None:
        super().__init__(rules, players, seed, options)
        pack = _cards.standard_deck()
        self.rng.shuffle(pack)
        if deck is not None:
            pack = list(deck) + [c for c in pack if c not in deck]
        size = int(options["hand"])
        self.hands = [pack[i * size:(i + 1) * size] for i in range(players)]
        self.rest = pack[players * size:]
        self.discards: list[list[Card]] = [[] for _ in range(players)]
        self.discarded = [not options["discard"]] * players
        self.trick: list[tuple[int, Card]] = []
        self.taken: list[Card] = []
        self.leader = 0
        self.tricks_won = [0] * players
        self.knocked = [False] * players

    @property
    def phase(self) -> str:
        """'discard', 'play' or 'over'."""
        if not all(self.discarded):
            return "discard"
        return "over" if self.over else "play"

    @property
    def to_act(self) -> tuple[int, ...]:
        """Who must move."""
        if self.over:
            return ()
        if not all(self.discarded):
            return tuple(s for s in range(self.players) if not self.discarded[s])
        return ((self.leader + len(self.trick)) % self.players,)

    def legal_actions(self, seat: int) -> list[Action]:
        """Discards of two, plays of one, or a knock out of turn."""
        if self.over:
            return []
        if seat not in self.to_act:
            if self.phase == "play" and not self.knocked[seat]:
                return [Action("knock")]
            return []
        hand = self.hands[seat]
        if self.phase == "discard":
            return [Action.of("discard", (hand[i], hand[j]))
                    for i in range(len(hand)) for j in range(i + 1, len(hand))]
        return [Action.of("play", (c,)) for c in hand]

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if not any(action.same_as(a) for a in self.legal_actions(seat)):
            if seat not in self.to_act:
                raise IllegalAction("It is not your turn.")
            raise IllegalAction(f"'{action}' is not a move you can make now.")
        if action.kind == "knock":
            self.knocked[seat] = True
            return [Event("knock", seat)]
        if action.kind == "discard":
            for c in action.cards:
                self.hands[seat].remove(c)
            self.discards[seat] = list(action.cards)
            self.discarded[seat] = True
            return [Event("discard", seat, action.cards, private=True)]
        card = action.cards[0]
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        events = [Event("play", seat, (card,))]
        if len(self.trick) == self.players:
            best = max(self.trick, key=lambda t: (t[1].rank, -self.trick.index(t)))
            self.tricks_won[best[0]] += 1
            self.taken.extend(c for _, c in self.trick)
            self.trick = []
            self.leader = best[0]
            events.append(Event("trick", best[0]))
        return events

    def view(self, seat: int | None) -> View:
        """What a seat knows."""
        hand = self.hands[seat] if seat is not None else []
        data = self.base_view(seat, sorted(hand))
        data.update(
            phase=self.phase, dealer=None, leader=self.leader,
            hand_counts=[len(h) for h in self.hands], live=[True] * self.players,
            trick=[{"seat": s, "card": str(c)} for s, c in self.trick],
            tricks_won=list(self.tricks_won), trumps=None, last_trick=None,
        )
        return View(data)

    @property
    def over(self) -> bool:
        """Once every hand is empty."""
        return all(self.discarded) and not any(self.hands)

    @property
    def outcome(self) -> Outcome | None:
        """Most points wins."""
        if not self.over:
            return None
        scores = self.scores()
        return Outcome.from_keys([-s for s in scores], scores)

    def scores(self) -> list[float]:
        """Tricks plus a point for a knock (doubled in 'double' mode)."""
        factor = 2 if self.options["mode"] == "double" else 1
        return [float(factor * (t + k)) for t, k in zip(self.tricks_won, self.knocked,
                                                           strict=True)]

    def determinize(self, seat: int | None, rng: random.Random) -> HighCardState:
        """Unknown cards re-dealt."""
        other = self.clone()
        assert isinstance(other, HighCardState)
        return other

    def zones(self) -> dict[str, list[Card]]:
        """Where the cards are."""
        found = {f"hand{s}": list(h) for s, h in enumerate(self.hands)}
        found.update({f"discard{s}": list(d) for s, d in enumerate(self.discards)})
        found["rest"] = list(self.rest)
        found["trick"] = [c for _, c in self.trick]
        found["taken"] = list(self.taken)
        return found

    def pack(self) -> list[Card]:
        """The 52 cards."""
        return _cards.standard_deck()


RULES = HighCardRules()


def lookup(game_id: str) -> Rules:
    """The registry plus this test game."""
    import games

    if game_id == RULES.id:
        return RULES
    return games.get(game_id)
