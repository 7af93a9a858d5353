"""Playing cards: interned, hashable, cheap to compare, with a two-letter text form.

A :class:`Card` is an ``int`` subclass so that sets, dict keys and comparisons stay fast in
tight playout loops; its value is ``suit * 16 + rank``. Ranks run 2..14 (ace high = 14);
jokers have rank 15 and suit index 4 (red) or 5 (black). Identical cards of a two-deck pack
are the same object: a hand is a list, so duplicates are kept as repeated entries.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from games.wording import text

RANKS = "23456789TJQKA"
SUITS = "SHDC"
RANK_CHARS: dict[str, int] = {ch: i + 2 for i, ch in enumerate(RANKS)}
SUIT_CHARS: dict[str, int] = {ch: i for i, ch in enumerate(SUITS)}

ACE, KING, QUEEN, JACK, TEN = 14, 13, 12, 11, 10
JOKER_RANK = 15
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


class Card(int):
    """One playing card; ``str(card)`` is its code (``'TS'``, ``'RJ'``)."""

    __slots__ = ()

    @property
    def rank(self) -> int:
        """2..14 for A high; 15 for a joker."""
        return int(self) & 15

    @property
    def suit(self) -> str:
        """'S', 'H', 'D' or 'C'; 'R' or 'B' for the red and black jokers."""
        return "SHDCRB"[int(self) >> 4]

    @property
    def is_joker(self) -> bool:
        """True for RJ and BJ."""
        return int(self) >> 4 >= 4

    @property
    def code(self) -> str:
        """The two-letter code."""
        return _CODES[int(self)]

    def __str__(self) -> str:
        return _CODES[int(self)]

    def __repr__(self) -> str:
        return _CODES[int(self)]

    def worded(self, lang: str = "en") -> str:
        """The card as a person reads it in ``lang`` (see :func:`pretty`)."""
        return pretty(self, lang)

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: Any) -> Card:
        return self

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (parse, (_CODES[int(self)],))


_CODES: dict[int, str] = {}
_BY_CODE: dict[str, Card] = {}
_BY_VALUE: dict[int, Card] = {}


def _register(value: int, code: str) -> Card:
    card = int.__new__(Card, value)
    _CODES[value] = code
    _BY_CODE[code] = card
    _BY_VALUE[value] = card
    return card


for _s, _sch in enumerate(SUITS):
    for _rch, _r in RANK_CHARS.items():
        _register(_s * 16 + _r, _rch + _sch)
RED_JOKER = _register(4 * 16 + JOKER_RANK, "RJ")
BLACK_JOKER = _register(5 * 16 + JOKER_RANK, "BJ")


#: the suits of a hand from left to right, colours alternating: ♠ ♥ ♣ ♦
HAND_SUITS = "SHCD"
_BLACK = frozenset("SC")


def hand_suits(first: str | None = None) -> str:
    """The suits of a hand from left to right with colours alternating (``'SHCD'``); with
    ``first`` (a trump suit) first and the others alternating after it (hearts: ``'HSDC'``)."""
    if first not in SUIT_CHARS:
        return HAND_SUITS
    order = [first]
    rest = [s for s in HAND_SUITS if s != first]
    while rest:
        black = order[-1] not in _BLACK
        pick = next((s for s in rest if (s in _BLACK) == black), rest[0])
        order.append(pick)
        rest.remove(pick)
    return "".join(order)


def by_suit(strength: Callable[[Card], int],
            first: str | None = None) -> Callable[[Card], tuple[int, int]]:
    """The usual hand order as a sort key: jokers first (red, black), then suit by suit as
    :func:`hand_suits` lays them out (``first``, a trump suit, leading), each suit from its
    strongest card to its weakest by ``strength`` (the game's own rank order)."""
    place = {s: i + 1 for i, s in enumerate(hand_suits(first))}

    def key(c: Card) -> tuple[int, int]:
        if c.is_joker:
            return (0, int(c))
        return (place[c.suit], -strength(c))

    return key


def card(rank: int, suit: str) -> Card:
    """The card of that rank (2..14) and suit letter."""
    return _BY_VALUE[SUIT_CHARS[suit] * 16 + rank]


def parse(code: str) -> Card:
    """The card for a code such as ``'TS'`` or ``'as'``; ``'10S'`` is accepted for the ten.

    Raises ValueError for anything that is not a card.
    """
    text = code.strip().upper()
    if text.startswith("10") and len(text) == 3:
        text = "T" + text[2]
    found = _BY_CODE.get(text)
    if found is None:
        raise ValueError(f"'{code}' is not a card (write rank then suit, like TS or 7H)")
    return found


def parse_many(text: str | Iterable[str]) -> list[Card]:
    """Cards from a comma or space separated text, or from an iterable of codes."""
    if isinstance(text, str):
        parts = [p for p in text.replace(",", " ").split() if p]
    else:
        parts = list(text)
    return [parse(p) for p in parts]


def codes(cards: Iterable[Card]) -> list[str]:
    """The codes of some cards, in order."""
    return [_CODES[int(c)] for c in cards]


def standard_deck() -> list[Card]:
    """The 52 cards, spades to clubs, 2 to A within a suit."""
    return [card(r, s) for s in SUITS for r in range(2, 15)]


def all_cards() -> list[Card]:
    """All 54 distinct cards, jokers last."""
    return [*standard_deck(), RED_JOKER, BLACK_JOKER]


def rank_char(rank: int) -> str:
    """The rank letter of a rank number (14 → 'A')."""
    return RANKS[rank - 2] if 2 <= rank <= 14 else "*"


def pretty(c: Card, lang: str = "en") -> str:
    """A human-readable form with a suit symbol: '10♠', 'K♥'; a joker by its name in ``lang``
    ('Red Joker', '黒ジョーカー', the catalogue's ``joker-R`` and ``joker-B``)."""
    if c.is_joker:
        return text(f"joker-{c.suit}", lang)
    r = rank_char(c.rank)
    return ("10" if r == "T" else r) + SUIT_SYMBOLS[c.suit]


def show(cards: Iterable[Card], lang: str = "en") -> str:
    """Cards as a person reads them, with suit symbols: '10♠ J♥'."""
    return " ".join(pretty(c, lang) for c in cards)


def show_codes(codes: Iterable[str], lang: str = "en") -> str:
    """Card codes from a view, as a person reads them: ['TS', 'JH'] → '10♠ J♥'."""
    return " ".join(pretty(parse(c), lang) for c in codes)


def count_text(count: int, lang: str = "en") -> str:
    """A number of cards in words: '1 card', '3 cards', '3枚'."""
    return text("count-card" if count == 1 else "count-cards", lang, count=count)


def suit_name(suit: str, lang: str = "en") -> str:
    """A suit's name in ``lang`` ('hearts', 'ハート'), from its letter."""
    return text(f"suit-{suit}", lang)
