"""Pure helpers shared by the trick games: following suit and finding a trick's winner.

Each game passes its own idea of a card's suit (Bear's honours belong to the trump suit) and
of a card's strength (Agram's A T 9 …), so the differences stay in the game modules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from games.cards import Card

SuitOf = Callable[[Card], str]


def natural_suit(card: Card) -> str:
    """The printed suit."""
    return card.suit


def can_follow(hand: Sequence[Card], led: str, suit_of: SuitOf = natural_suit) -> bool:
    """True when the hand holds a card of the led suit."""
    return any(suit_of(c) == led for c in hand)


def playable(hand: Sequence[Card], led: str | None, suit_of: SuitOf = natural_suit) -> list[Card]:
    """The cards a follower may play: the led suit if they hold it, else anything."""
    if led is None:
        return list(hand)
    same = [c for c in hand if suit_of(c) == led]
    return same if same else list(hand)


def winner(
    plays: Sequence[tuple[int, Card]],
    strength: Callable[[Card], int],
    led: str,
    suit_of: SuitOf = natural_suit,
    trump: str | None = None,
    can_win: Callable[[int], bool] | None = None,
) -> int:
    """The index into ``plays`` of the winning play.

    The highest trump wins, else the highest card of the led suit; between equal strengths the
    earlier play wins (Finesse's identical cards). ``can_win(i)`` may exclude plays (face-down
    cards).
    """
    best = -1
    best_key = (-1, -1)
    for i, (_seat, card) in enumerate(plays):
        if can_win is not None and not can_win(i):
            continue
        suit = suit_of(card)
        if trump is not None and suit == trump:
            key = (2, strength(card))
        elif suit == led:
            key = (1, strength(card))
        else:
            continue
        if key > best_key:
            best, best_key = i, key
    if best < 0:
        raise ValueError("no play in the trick can win it")
    return best
