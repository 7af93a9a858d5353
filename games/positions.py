"""One typical position per game, for the picture that ``/rules`` shows next to its text.

Each position is data: the stacked deal of a part of the game's tutorial (its deck, player count
and options), the moves played from there, the seat whose view is shown, and the cards of that
seat's hand to ring (the ones the rule is about). :func:`build` replays the moves against the
engine, so a position that no longer fits the rules fails loudly (and a test replays them all).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games import tutorials
from games.core import Action, IllegalAction, State, View


class PositionError(ValueError):
    """A position's data that no longer fits its format or the engine."""


@dataclass(frozen=True)
class TypicalPosition:
    """A typical position: its view and the cards of the viewer's hand the rule is about."""

    game: str
    seat: int
    state: State
    ring: frozenset[str]

    def view(self) -> View:
        """What the shown seat sees (a picture is drawn from this alone)."""
        return self.state.view(self.seat)


#: game id -> the tutorial part whose deal is used, the moves (``"seat kind:cards"``) played
#: from its start, the seat whose view is shown and the cards of its hand to ring
POSITIONS: dict[str, dict[str, Any]] = {
    # a play that beats the number (13) by 3: 9 + 4 + 3 = 16
    "1234": {"part": 0, "seat": 0, "ring": [],
             "moves": ["0 play:QH", "1 play:KD", "0 play:9S,4D,3C"]},
    # 6♦ to beat: any card from 6 up, or the lowest card (2♣)
    "twenty-two": {"part": 0, "seat": 0, "ring": ["9H", "6C", "2C"],
                   "moves": ["0 exchange:AS,KD", "1 exchange", "0 play:5H,5C", "1 play:7S,7H",
                             "1 play:6D"]},
    # no heart to follow the led K♣: K♥ ends the round and the highest club picks up the trick
    "bhabhi": {"part": 0, "seat": 0, "ring": [],
               "moves": ["0 play:AS", "1 play:5S", "2 play:9S", "3 play:QS", "0 play:2H",
                         "1 play:7H", "2 play:9H", "3 play:TH", "3 play:KC", "0 play:KH"]},
    # no diamond to follow K♦: 2♠, a trump, beats it
    "finesse": {"part": 0, "seat": 1, "ring": [],
                "moves": ["0 play:AS", "1 play:7S", "2 play:8S", "3 play:9S", "0 table:AH",
                          "3 play:3H", "0 play:2H", "1 play:4H", "2 refill:6H", "2 table:KD",
                          "1 play:2S"]},
    # the round stands at 15: 6♦ makes exactly 21 and takes the round
    "sugekari-21": {"part": 0, "seat": 0, "ring": ["6D"],
                    "moves": ["0 play:TS", "1 play:5H", "2 play:3C", "3 play:KD"]},
    # the auction is won at 60 spades; the kitty's two cards are now in the declarer's hand
    "bear": {"part": 0, "seat": 0, "ring": ["TS", "7D"],
             "moves": ["0 bid=60-S", "1 pass", "2 pass"]},
    # the last trick: 6♣ led, and the other seat has no club, so a 6 wins it
    "spar": {"part": 0, "seat": 1, "ring": ["TD"],
             "moves": ["1 play:9H", "0 play:AH", "0 play:KS", "1 play:8H", "0 play:QS",
                       "1 play:8D", "0 play:7H", "1 play:9D", "0 play:6C"]},
}


def ids() -> list[str]:
    """The games that have a position."""
    return list(POSITIONS)


def _move(text: str, where: str) -> tuple[int, Action]:
    seat, _, move = text.partition(" ")
    if not seat.isdigit():
        raise PositionError(f"{where}: a move starts with its seat, like '1 play:KD'")
    try:
        return int(seat), Action.parse(move)
    except IllegalAction as exc:
        raise PositionError(f"{where}: {exc}") from None


def position_of(game: str, data: Mapping[str, Any]) -> TypicalPosition:
    """The position of some data; PositionError names the move that no longer fits."""
    tutorial = tutorials.load(game)
    part = tutorial.parts[int(data.get("part", 0))]
    state = part.new_state(tutorial.rules)
    for i, text in enumerate(data.get("moves", [])):
        where = f"{game} move {i + 1}"
        seat, action = _move(str(text), where)
        try:
            state.apply(seat, action)
        except IllegalAction as exc:
            raise PositionError(f"{where}: {text}: {exc}") from None
    seat = int(data.get("seat", 0))
    hand = {str(card) for card in state.view(seat).hand}
    ring = frozenset(str(code) for code in data.get("ring", []))
    if not ring <= hand:
        raise PositionError(f"{game}: ringed cards not in seat {seat}'s hand: "
                            f"{' '.join(sorted(ring - hand))}")
    return TypicalPosition(game, seat, state, ring)


def build(game: str) -> TypicalPosition:
    """A game's typical position; KeyError when it has none."""
    return position_of(game, POSITIONS[game])
