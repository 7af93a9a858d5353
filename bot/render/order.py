"""The order a hand is drawn in: by suit and rank in each game's own order, trumps together.

Read from the view alone (its game, trumps, contract or variant), so sorting shows nothing the
view does not. Highest first within a suit; suits alternate colours where they can.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games import bear, spar, sugekari
from games.cards import parse

SUITS = "SHCD"  # black, red, black, red
NATURAL = "23456789TJQKA"


def _rank(code: str) -> int:
    return NATURAL.index(code[0]) + 2 if code[0] in NATURAL else 0


def _suit(code: str) -> int:
    return SUITS.index(code[1]) if len(code) > 1 and code[1] in SUITS else len(SUITS)


def _joker(code: str) -> bool:
    return code in ("RJ", "BJ")


def _by_suit(view: dict[str, Any], code: str, trumps: str | None = None,
              low_ace: bool = False) -> tuple[int, ...]:
    if _joker(code):
        return (-1, 0 if code == "RJ" else 1)
    rank = _rank(code)
    if low_ace and rank == 14:
        rank = 1
    first = 0 if trumps is not None and code[1] == trumps else 1
    return (first, _suit(code), -rank)


def _twenty_two(view: dict[str, Any], code: str) -> tuple[int, ...]:
    """Suits never matter in 22: by rank, highest first, sets of a rank together."""
    return (-_rank(code), _suit(code))


def _one_two_three_four(view: dict[str, Any], code: str) -> tuple[int, ...]:
    """1234 counts K highest and A lowest."""
    return _by_suit(view, code, low_ace=True)


def _finesse(view: dict[str, Any], code: str) -> tuple[int, ...]:
    trumps = view.get("trumps")
    return _by_suit(view, code, trumps if trumps in tuple(SUITS) else None)


def _sugekari(view: dict[str, Any], code: str) -> tuple[int, ...]:
    """Sugekari plays numbers: by the number a card counts (courts are minus), then suit."""
    if _joker(code):
        return (-99, 0 if code == "RJ" else 1)
    return (-sugekari.value(parse(code)), _suit(code))


def _bear(view: dict[str, Any], code: str) -> tuple[int, ...]:
    """Bear: the contract's trumps first, strongest first, then each suit in its order."""
    contract = view.get("contract") or {}
    table = bear.TABLES.get(str(contract.get("game") or view.get("trumps") or ""))
    card = parse(code)
    if table is None:
        return _by_suit(view, code)
    if table.suit_of(card) == table.trump:
        return (0, 0, -table.power(card))
    return (1, _suit(code), -table.power(card))


def _spar(view: dict[str, Any], code: str) -> tuple[int, ...]:
    """Spar and its family: each member's own rank order (Mali's A K T Q 9 8 J 7)."""
    variant = spar.VARIANTS.get(str(view.get("variant") or "spar"))
    if variant is None or _joker(code):
        return _by_suit(view, code)
    rank = _rank(code)
    place = variant.ranks.index(rank) if rank in variant.ranks else -1
    return (1, _suit(code), -place)


ORDERS: dict[str, Callable[[dict[str, Any], str], tuple[int, ...]]] = {
    "twenty-two": _twenty_two,
    "1234": _one_two_three_four,
    "finesse": _finesse,
    "sugekari-21": _sugekari,
    "bear": _bear,
    "spar": _spar,
}


def sort_hand(view: dict[str, Any], codes: list[str]) -> list[str]:
    """A hand's cards in the order its game reads them (unknown games: by suit, ace high)."""
    key = ORDERS.get(str(view.get("game")), _by_suit)
    try:
        return sorted(codes, key=lambda code: key(view, code))
    except (KeyError, ValueError):  # a card code this order does not know: as dealt
        return list(codes)
