"""The order a hand is drawn in: the game's hand order (``Rules.hand_key``), the one the panel,
the terminal, the lessons and the results use too, read from the view alone."""

from __future__ import annotations

from typing import Any

from games import registry
from games.cards import by_suit, parse
from games.core import View


def sort_hand(view: dict[str, Any], codes: list[str]) -> list[str]:
    """A hand's card codes in its game's hand order (a game this does not know: by suit, ace
    high; a code that is not a card: the hand as dealt)."""
    try:
        cards = [parse(code) for code in codes]
    except ValueError:
        return list(codes)
    try:
        key = registry.get(str(view.get("game"))).hand_key(View(dict(view)))
    except KeyError:
        key = by_suit(lambda c: c.rank)
    return [str(c) for c in sorted(cards, key=key)]
