"""Deckhand's rules package: pure, deterministic card-game engines behind one interface.

>>> import games
>>> rules = games.get("twenty-two")
>>> state = rules.new_game(4, seed=7)
"""

from games import cards
from games.core import Action, Event, IllegalAction, Option, Outcome, Rules, State, View
from games.registry import all_rules, get, ids

__all__ = [
    "Action",
    "Event",
    "IllegalAction",
    "Option",
    "Outcome",
    "Rules",
    "State",
    "View",
    "all_rules",
    "cards",
    "get",
    "ids",
]
