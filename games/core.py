"""The rules interface every game implements (docs/engine.md explains it for game authors).

A game is a :class:`Rules` (what the game is: name, player counts, options) that makes
:class:`State` objects (one match in progress). Other layers see a state only through
:meth:`State.view`, :meth:`State.legal_actions`, :meth:`State.apply` and the outcome.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from games import cards as _cards
from games import wording
from games.cards import Card
from games.wording import Msg, msg

OptionValue = bool | int | str | None


class IllegalAction(ValueError):
    """An action the rules do not allow now, and why: ``message``, a :class:`Msg` (a key of
    the games' catalogue and its fields), worded in a reader's language by :meth:`text`;
    ``str()`` of the error is the English sentence a player can read.

    A plain sentence may be given instead of a :class:`Msg`: it reads the same in every
    language (a message no catalogue has shows as its key), so a rule refusing that way still
    refuses; the catalogue's keys are what a player of another language can read.
    """

    def __init__(self, message: Msg | str) -> None:
        found = message if isinstance(message, Msg) else Msg(message)
        # the Msg itself is the argument: a refusal that crosses a process (a computer's
        # search runs in a pool) comes back with its key and fields
        super().__init__(found)
        self.message = found

    def __str__(self) -> str:
        return self.message.text("en")

    def text(self, lang: str = "en") -> str:
        """The refusal in ``lang``."""
        return self.message.text(lang)


class OptionError(ValueError):
    """An option combination the rules refuse (from a game's ``check_options``).

    ``key`` and ``params`` name the sentence in the games' catalogue (``opt-<key>``); the
    error's own text is the English one, and :meth:`text` gives it in a reader's language.
    """

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params
        self.message = msg(f"opt-{key}", **params)
        super().__init__(self.message.text("en"))

    def text(self, lang: str = "en") -> str:
        """The refusal in ``lang``."""
        return self.message.text(lang)

    def __reduce__(self) -> tuple[Any, ...]:
        # rebuilt from its key and fields (the default would pass the English text as a key)
        return (_option_error, (self.key, dict(self.params)))


def _option_error(key: str, params: dict[str, Any]) -> OptionError:
    return OptionError(key, **params)


_KIND_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_")


class Action(NamedTuple):
    """A move: ``kind``, an optional ``arg`` and the cards it involves.

    The text form is ``kind[=arg][:card,card,...]``, e.g. ``play:TS,TH``, ``bid=45-S``,
    ``take=2``, ``pass``. The cards keep the order they were given in.
    """

    kind: str
    arg: str | None = None
    cards: tuple[Card, ...] = ()

    def __str__(self) -> str:
        text = self.kind
        if self.arg is not None:
            text += "=" + self.arg
        if self.cards:
            text += ":" + ",".join(str(c) for c in self.cards)
        return text

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Action:
        """The action for a text form; raises IllegalAction when the text is malformed."""
        if not isinstance(text, str):
            raise IllegalAction(msg("move-not-text"))
        raw = text.strip()
        head, sep, tail = raw.partition(":")
        kind, eq, arg = head.partition("=")
        kind = kind.strip().lower()
        if not kind or not set(kind) <= _KIND_CHARS:
            raise IllegalAction(msg("move-malformed", move=text))
        if eq and not arg.strip():
            raise IllegalAction(msg("move-empty-arg", move=text))
        found: tuple[Card, ...] = ()
        if sep:
            names = [p for p in tail.replace(",", " ").split() if p]
            for name in names:
                try:
                    _cards.parse(name)
                except ValueError:
                    raise IllegalAction(msg("move-not-a-card", code=name)) from None
            found = tuple(_cards.parse_many(names))
            if not found:
                raise IllegalAction(msg("move-no-card", move=text))
        return cls(kind, arg.strip() if eq else None, found)

    @classmethod
    def of(cls, kind: str, cards: Iterable[Card] = (), arg: str | None = None) -> Action:
        """An action from its parts."""
        return cls(kind, arg, tuple(cards))

    def same_as(self, other: Action) -> bool:
        """True when both name the same kind, argument and the same cards in any order."""
        return (
            self.kind == other.kind
            and self.arg == other.arg
            and sorted(self.cards) == sorted(other.cards)
        )


class Event(NamedTuple):
    """Something that happened inside :meth:`State.apply`.

    ``private`` events carry cards that only ``seat`` may see (a draw, a face-down discard);
    :meth:`for_seat` strips them for everyone else, keeping only how many there were (``hidden``).
    """

    kind: str
    seat: int | None = None
    cards: tuple[Card, ...] = ()
    arg: str | None = None
    private: bool = False
    hidden: int = 0

    def for_seat(self, seat: int | None) -> Event:
        """This event as ``seat`` may see it (None: a spectator)."""
        if self.private and seat != self.seat and self.cards:
            return self._replace(cards=(), hidden=len(self.cards))
        return self

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "kind": self.kind,
            "seat": self.seat,
            "cards": [str(c) for c in self.cards],
            "arg": self.arg,
            "count": self.hidden or len(self.cards),
        }


@dataclass(frozen=True)
class Outcome:
    """The result of a finished match: one place per seat (1 = best, ties share)."""

    places: tuple[int, ...]
    winners: tuple[int, ...]
    scores: tuple[float, ...]

    @classmethod
    def from_places(cls, places: Sequence[int], scores: Sequence[float]) -> Outcome:
        """An outcome whose winners are the seats placed 1."""
        return cls(
            tuple(places),
            tuple(s for s, p in enumerate(places) if p == 1),
            tuple(scores),
        )

    @classmethod
    def from_keys(cls, keys: Sequence[Any], scores: Sequence[float]) -> Outcome:
        """Places from sort keys: a smaller key is a better place; equal keys share."""
        places = [1 + sum(1 for other in keys if other < mine) for mine in keys]
        return cls.from_places(places, scores)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "places": list(self.places),
            "winners": list(self.winners),
            "scores": list(self.scores),
        }


@dataclass(frozen=True)
class Entry:
    """One line of a deal's result in the game's own terms (see :class:`Tally`).

    ``key`` names what it is ('tricks', 'dregs', 'bond', 'penalty', ...; each game documents
    its keys at its ``_tally`` helper), ``seats`` whom it counts for (both partners of a side),
    ``value`` the number or text it shows, ``cards`` the cards it is about, and ``points`` what
    it adds to the score of each of those seats (0 for a line that only explains).
    """

    key: str
    seats: tuple[int, ...] = ()
    value: int | str | None = None
    cards: tuple[Card, ...] = ()
    points: float = 0.0

    def __deepcopy__(self, memo: dict[int, Any]) -> Entry:
        return self  # immutable: copies of a state share it


@dataclass(frozen=True)
class Tally:
    """A finished deal (or a game of a series), explained: its entries, what each seat gained
    (the sum of the entries' points for it) and each seat's score after it."""

    deal: int
    entries: tuple[Entry, ...]
    gains: tuple[float, ...]
    totals: tuple[float, ...]

    def __deepcopy__(self, memo: dict[int, Any]) -> Tally:
        return self  # immutable: copies of a state share it

    def find(self, key: str) -> list[Entry]:
        """The entries with that key, in order."""
        return [e for e in self.entries if e.key == key]


def _whole_text(text: str) -> bool:
    """Whether ``text`` is a whole number ``int`` takes: ASCII digits (``str.isdigit`` alone
    passes '²', which ``int`` refuses), an optional minus, at most 18 digits (``int`` refuses
    thousands)."""
    digits = text.removeprefix("-")
    return digits.isascii() and digits.isdigit() and len(digits) <= 18


@dataclass(frozen=True)
class Option:
    """One game option, described so that menus and validation can be built from it."""

    name: str
    kind: str  # "bool", "int", "choice" or "seat"
    default: OptionValue
    help_en: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    samples: tuple[OptionValue, ...] = ()

    def coerce(self, value: object, players: int) -> OptionValue:
        """The validated value, converting text from a command line or a menu.

        Raises :class:`OptionError` (a ValueError) naming the option when the value is not
        allowed.
        """
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
                return value.strip().lower() in _TRUE
            raise OptionError("value-bool", name=self.name, value=repr(value))
        if self.kind in ("int", "seat"):
            if self.kind == "seat" and (value is None or value == "random"):
                return None
            number: int
            if isinstance(value, bool):
                raise OptionError("value-whole", name=self.name, value=repr(value))
            if isinstance(value, int):
                number = value
            elif isinstance(value, str) and _whole_text(value.strip()):
                number = int(value.strip())
            else:
                raise OptionError("value-whole", name=self.name, value=repr(value))
            low = 0 if self.kind == "seat" else self.minimum
            high = players - 1 if self.kind == "seat" else self.maximum
            if (low is not None and number < low) or (high is not None and number > high):
                raise OptionError("value-range", name=self.name, low=low, high=high, value=number)
            return number
        if self.kind == "choice":
            is_number = isinstance(value, int) and not isinstance(value, bool)
            if is_number and str(value) in self.choices:
                return str(value)
            if isinstance(value, str) and value.strip() in self.choices:
                return value.strip()
            allowed = ", ".join(repr(c) for c in self.choices)
            raise OptionError("value-choice", name=self.name, allowed=allowed, value=repr(value))
        raise OptionError("value-kind", name=self.name, kind=repr(self.kind))

    def describe(self, help_text: Mapping[str, str] | None = None) -> dict[str, Any]:
        """A JSON-ready description for menus; ``help_text`` is what the option does in each
        language (its game's catalogue entries, :meth:`Rules.option_help`), else the English."""
        return {
            "name": self.name,
            "type": self.kind,
            "default": self.default,
            "choices": list(self.choices),
            "min": self.minimum,
            "max": self.maximum,
            "help": dict(help_text) if help_text is not None else {"en": self.help_en},
        }

    def test_values(self) -> tuple[OptionValue, ...]:
        """Values worth trying in tests: the samples, or every choice, or both booleans."""
        if self.samples:
            return self.samples
        if self.kind == "bool":
            return (False, True)
        if self.kind == "choice":
            return self.choices
        return (self.default,)


def _worded(key: str, lang: str, english: str) -> str:
    """The message ``key`` in ``lang`` (English when that language lacks it), or ``english``
    when no catalogue has it (a game added without its catalogue entries yet)."""
    return wording.text(key, lang) if wording.has(key, lang) else english


_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})


def seat_option(name: str, help_en: str) -> Option:
    """An option naming a seat, random (None) by default."""
    return Option(name, "seat", None, help_en)


_IMMUTABLE = frozenset({str, int, float, bool, type(None)})


def _copied(value: Any) -> Any:
    """A deep copy of plain data (dicts, lists, tuples of immutable values), several times
    faster than :func:`copy.deepcopy`; anything else is deep-copied the general way.

    Most of a view is strings (card codes, names): an immutable item is taken as it is
    without a call for it, and a tuple of them is kept whole (nothing in it can change)."""
    kind = type(value)
    if kind is dict:
        return {key: item if type(item) in _IMMUTABLE else _copied(item)
                for key, item in value.items()}
    if kind is list:
        return [item if type(item) in _IMMUTABLE else _copied(item) for item in value]
    if kind is tuple:
        if all(type(item) in _IMMUTABLE for item in value):
            return value
        return tuple(_copied(item) for item in value)
    if kind in _IMMUTABLE:
        return value
    return copy.deepcopy(value)


class View:
    """What one seat (or a spectator, seat None) may know of a game; read-only.

    Keys are reachable as items (``view["hand"]``) and attributes (``view.hand``).
    """

    __slots__ = ("_data",)

    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable copy."""
        copied: dict[str, Any] = _copied(self._data)
        return copied

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __getattr__(self, key: str) -> Any:
        try:
            return self._data[key]
        except KeyError:
            raise AttributeError(key) from None

    def get(self, key: str, default: Any = None) -> Any:
        """The value of a key, or a default."""
        return self._data.get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __eq__(self, other: object) -> bool:
        return isinstance(other, View) and self._data == other._data

    def __hash__(self) -> int:
        return hash(repr(self._data))

    def __repr__(self) -> str:
        return f"View({self._data!r})"


class Rules(ABC):
    """What a game is: its id and names, player counts, options and how to start one."""

    id: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    usual_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    summary_en: ClassVar[str] = ""

    def option(self, name: str) -> Option:
        """The option of that name; KeyError when there is none."""
        for opt in self.options:
            if opt.name == name:
                return opt
        raise KeyError(name)

    def describe_options(self) -> list[dict[str, Any]]:
        """Every option's description, for menus."""
        return [opt.describe({lang: self.option_help(opt, lang) for lang in wording.languages()})
                for opt in self.options]

    # A game's words are catalogue messages keyed by its id (``game_text.po``), so a language
    # is a folder and no attribute; the class keeps only the English it is declared with
    # (``name``, ``summary_en``, ``help_en``), the words of a game no catalogue has yet.
    def title(self, lang: str = "en") -> str:
        """The game's name in ``lang`` (``game-name-<id>``), else its English ``name``."""
        return _worded(f"game-name-{self.id}", lang, self.name)

    def summary(self, lang: str = "en") -> str:
        """The rules in a few lines, in ``lang`` (``game-summary-<id>``), else the English."""
        return _worded(f"game-summary-{self.id}", lang, self.summary_en)

    def option_help(self, option: Option | str, lang: str = "en") -> str:
        """What one of its options does, in ``lang`` (``game-option-<id>-<name>``), else the
        English it is declared with."""
        found = option if isinstance(option, Option) else self.option(option)
        return _worded(f"game-option-{self.id}-{found.name}", lang, found.help_en)

    def player_counts(self) -> range:
        """The allowed seat counts."""
        return range(self.min_players, self.max_players + 1)

    def players_message(self) -> Msg | str:
        """The allowed seat counts as a field: '4', '2 to 7' ('2〜7' in Japanese)."""
        if self.min_players == self.max_players:
            return str(self.min_players)
        return msg("players-range", least=self.min_players, most=self.max_players)

    def players_text(self, lang: str = "en") -> str:
        """The allowed seat counts as words: '4', '2 to 7' ('2〜7' in Japanese)."""
        found = self.players_message()
        return found if isinstance(found, str) else found.text(lang)

    def default_text(self, option: Option, lang: str = "en") -> str:
        """What an option is when it is not set, as a person reads it: the value itself, or for
        a seat 'random'. Games whose default depends on other options say so here."""
        if option.default is None:
            return msg("option-random").text(lang)
        if isinstance(option.default, bool):
            return str(option.default).lower()
        return str(option.default)

    def hand_key(self, view: View) -> Callable[[Card], tuple[int, int]]:
        """The hand order, a sort key: how a hand is laid out everywhere a person sees it (the
        pictures, the panel, the terminal, the lessons, the results). By default the trump suit
        (``view["trumps"]`` when it names a suit) first, then the other suits with colours
        alternating (♠ ♥ ♣ ♦), each from ace down to two; jokers first. Games with another rank
        order, trumps of their own or suits that do not matter override this."""
        trumps = view.get("trumps")
        return _cards.by_suit(lambda c: c.rank, trumps if trumps in _cards.SUIT_CHARS else None)

    def sorted_hand(self, view: View) -> list[Card]:
        """The view's own hand in the hand order (see :meth:`hand_key`)."""
        return sorted(_cards.parse_many(view["hand"]), key=self.hand_key(view))

    def teams(self, players: int, options: Mapping[str, OptionValue]) -> list[list[int]] | None:
        """Partnerships as lists of seats, or None when everyone plays alone."""
        return None

    def validate_options(
        self, players: int, options: Mapping[str, object] | None = None
    ) -> dict[str, OptionValue]:
        """Every option with its value (defaults filled in); :class:`OptionError` (a
        ValueError) naming a bad option or player count."""
        if not isinstance(players, int) or isinstance(players, bool):
            raise OptionError("count-whole", value=repr(players))
        if not self.min_players <= players <= self.max_players:
            raise OptionError("count", game=self.name, counts=self.players_message(),
                              players=players)
        given = dict(options or {})
        known = {opt.name for opt in self.options}
        for name in given:
            if name not in known:
                listing: Msg | str = ", ".join(sorted(known)) or msg("option-none")
                raise OptionError("unknown", name=name, game=self.name, listing=listing)
        result: dict[str, OptionValue] = {}
        for opt in self.options:
            if opt.name in given:
                result[opt.name] = opt.coerce(given[opt.name], players)
            else:
                result[opt.name] = opt.default
        self.check_options(players, result)
        return result

    def check_options(self, players: int, options: dict[str, OptionValue]) -> None:  # noqa: B027
        """Refuse option combinations or player counts the rules do not allow
        (:class:`OptionError`, a ValueError)."""

    def timeout_action(self, state: State, seat: int) -> Action | None:
        """The move a person makes by letting their turn timer run out, where the rules say
        what silence means (Spar's ``peek``: no answer is a refusal); None when the computer
        moves for them."""
        return None

    # -- words for people (the CLI and the bot's text mode) ---------------------------------
    # The rules word nothing themselves: a move and an event become a Msg (a catalogue key and
    # its fields, games/locales/<lang>/games.po), which a front end words in its reader's
    # language. Games override the *_message methods; the *_text ones word them.
    def action_message(self, action: Action) -> Msg:
        """A short label for an action, for a button or a log line ('Play 10♠'), as data."""
        return msg("act-raw", move=str(action))

    def event_message(self, event: Event, names: Sequence[str] | None = None) -> Msg | None:
        """A sentence for a public event (already stripped with ``for_seat``) as data, or None
        for an event nobody needs to read.

        ``names``: the players' names by seat, used instead of 'Seat 2' when given.
        """
        cards = msg("ev-raw-cards", cards=event.cards) if event.cards else ""
        if event.seat is None:
            return msg("ev-raw", kind=event.kind, arg=event.arg or "", cards=cards)
        return msg("ev-raw-seat", who=seat_name(event.seat, names), kind=event.kind,
                   arg=event.arg or "", cards=cards)

    def action_text(self, action: Action, lang: str = "en") -> str:
        """A short label for an action in ``lang`` (see :meth:`action_message`)."""
        return self.action_message(action).text(lang)

    def event_text(self, event: Event, lang: str = "en",
                   names: Sequence[str] | None = None) -> str | None:
        """A sentence for a public event in ``lang``, or None (see :meth:`event_message`)."""
        found = self.event_message(event, names)
        return None if found is None else found.text(lang)

    def view_text(self, view: View, lang: str = "en") -> str:
        """The table as plain text, from a view only."""
        data = view.to_dict()
        lines = [f"{key}: {value}" for key, value in data.items() if key not in ("options",)]
        return "\n".join(lines)

    def new_game(
        self,
        players: int,
        seed: int | None = None,
        options: Mapping[str, object] | None = None,
        deck: Sequence[str | Card] | None = None,
    ) -> State:
        """A new match for ``players`` seats; every random choice comes from ``seed``."""
        opts = self.validate_options(players, options)
        first_deck = None if deck is None else [_as_card(c) for c in deck]
        return self.create(players, 0 if seed is None else seed, opts, first_deck)

    @abstractmethod
    def create(
        self,
        players: int,
        seed: int,
        options: dict[str, OptionValue],
        deck: list[Card] | None,
    ) -> State:
        """Make the state; options are already validated."""


def _as_card(value: str | Card) -> Card:
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        return _cards.parse(value)
    raise ValueError(f"deck entries must be card codes, not {value!r}")


def check_deck(deck: Sequence[Card], pack: Sequence[Card]) -> list[Card]:
    """The given first-deal deck, if it is a permutation of ``pack``; else ValueError."""
    if Counter(deck) != Counter(pack):
        missing = Counter(pack) - Counter(deck)
        extra = Counter(deck) - Counter(pack)
        parts = []
        if missing:
            parts.append("missing " + ", ".join(sorted(str(c) for c in missing.elements())))
        if extra:
            parts.append("not in this pack or repeated " + ", ".join(
                sorted(str(c) for c in extra.elements())))
        raise ValueError(
            f"the deck must hold exactly the {len(pack)} cards of this deal: " + "; ".join(parts)
        )
    return list(deck)


class State(ABC):
    """One match in progress. Mutated only through :meth:`apply`."""

    rules: Rules
    players: int
    seed: int
    options: dict[str, OptionValue]
    rng: random.Random
    deal_number: int
    # Every finished deal explained, oldest first (see :meth:`breakdown`); a tuple, replaced
    # (never changed) when a deal ends, so copies of the state may share it.
    tallies: tuple[Tally, ...] = ()
    # Set on a search's sampled copy: when a deal ends, a game that honours it only counts the
    # deal (``deal_number`` moves on) instead of dealing the next one nobody will look at.
    stop_at_deal_end: bool = False

    def __init__(self, rules: Rules, players: int, seed: int, options: dict[str, OptionValue]):
        self.rules = rules
        self.players = players
        self.seed = seed
        self.options = options
        self.rng = random.Random(seed)
        self.deal_number = 1

    # -- the contract ---------------------------------------------------------------------
    @property
    @abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """Seats the game is waiting for (empty when over)."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now."""

    def apply(self, seat: int, action: Action | str) -> list[Event]:
        """Apply an action; IllegalAction (state untouched) when the rules do not allow it."""
        if isinstance(action, str):
            action = Action.parse(action)
        elif not isinstance(action, Action):
            raise IllegalAction(msg("move-not-a-move"))
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            raise IllegalAction(msg("move-no-such-seat", seat=repr(seat)))
        if self.over:
            raise IllegalAction(msg("move-game-over"))
        return self._apply(seat, action)

    def apply_legal(self, seat: int, action: Action) -> list[Event]:
        """Apply an action the game listed or a rollout chose for ``seat``, in a position that
        is not over (a search's playout): the rules still refuse an illegal one (state
        untouched), without :meth:`apply`'s checks of a caller's input."""
        return self._apply(seat, action)

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> list[Event]:
        """Validate (raising IllegalAction before any change), then apply."""

    @abstractmethod
    def view(self, seat: int | None) -> View:
        """What ``seat`` may know; None for a spectator."""

    @property
    @abstractmethod
    def over(self) -> bool:
        """True once the match has ended."""

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """None until over."""

    def clone(self) -> State:
        """An independent copy."""
        return copy.deepcopy(self)

    @abstractmethod
    def determinize(self, seat: int | None, rng: random.Random) -> State:
        """A full state consistent with all that ``seat`` knows, unknown cards re-dealt."""

    @abstractmethod
    def zones(self) -> dict[str, list[Card]]:
        """Every place cards lie in, by name; together they hold exactly :meth:`pack`."""

    @abstractmethod
    def pack(self) -> list[Card]:
        """All the cards of the current deal's pack (duplicates repeated)."""

    def breakdown(self) -> tuple[Tally, ...]:
        """Every finished deal's result in the game's own terms, oldest first.

        The entries of each tally add up to its gains, and the gains, deal after deal, to the
        running :meth:`scores` (each tally's ``totals``).
        """
        return self.tallies

    def add_tally(self, entries: Iterable[Entry], deal: int | None = None) -> None:
        """Record a finished deal: call once the deal's points are in :meth:`scores`. A search's
        sample (``stop_at_deal_end``) records none: nobody reads its explanations."""
        if self.stop_at_deal_end:
            return
        found = tuple(entries)
        gains = [0.0] * self.players
        for entry in found:
            for seat in entry.seats:
                gains[seat] += entry.points
        self.tallies = (*self.tallies, Tally(
            self.deal_number if deal is None else deal, found, tuple(gains),
            tuple(float(x) for x in self.scores())))

    # -- conveniences ---------------------------------------------------------------------
    def random_action(self, seat: int, rng: random.Random) -> Action:
        """A legal action of ``seat`` chosen uniformly at random."""
        return rng.choice(self.legal_actions(seat))

    def base_view(self, seat: int | None, hand: Sequence[Card]) -> dict[str, Any]:
        """The keys every view has; games add their own."""
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < self.players):
            raise ValueError(f"there is no seat {seat!r} at this table")
        outcome = self.outcome
        return {
            "game": self.rules.id,
            "seat": seat,
            "players": self.players,
            "options": dict(self.options),
            "deal": self.deal_number,
            "to_act": list(self.to_act),
            "hand": [str(c) for c in hand],
            "scores": list(self.scores()),
            "over": self.over,
            "outcome": None if outcome is None else outcome.to_dict(),
        }

    @abstractmethod
    def scores(self) -> list[float]:
        """One running number per seat, the game's own measure."""

    def score_direction(self) -> int:
        """+1 when a higher score is better (points, chips), -1 when lower is (penalties)."""
        return 1


def named(seat: int, names: Sequence[str] | None, otherwise: str) -> str:
    """A seat as a sentence names it: the player's name when ``names`` has it, else
    ``otherwise`` (the game's own 'Seat 2')."""
    if names is not None and 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return otherwise


def seat_name(seat: int, names: Sequence[str] | None = None, key: str = "seat") -> Msg | str:
    """A seat as a sentence names it, as a field of a :class:`Msg`: the player's name when
    ``names`` has it, else the catalogue's ``key`` ('Seat 2', '2番席') with ``n`` its
    number from 1."""
    if names is not None and 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return msg(key, n=seat + 1)


def joined(items: Sequence[Msg | str], key: str) -> Msg | str:
    """Several fields as one, each pair joined by the catalogue's ``key`` (its fields ``a``
    and ``b``: '{a} and {b}', '{a}、{b}'); a single item as it is, none as ''."""
    if not items:
        return ""
    found: Msg | str = items[0]
    for item in items[1:]:
        found = msg(key, a=found, b=item)
    return found


def count_msg(count: int) -> Msg:
    """A number of cards as a field: '1 card', '3 cards', '3枚'."""
    return msg("count-card" if count == 1 else "count-cards", count=count)


def copy_rng(rng: random.Random) -> random.Random:
    """An independent generator in the same state as ``rng`` (seeded with 0 first: unseeded,
    it would read the system's entropy, a slow call a playout's copies need not make)."""
    new = random.Random(0)
    new.setstate(rng.getstate())
    return new


def fresh_rng(rng: random.Random) -> random.Random:
    """A new generator seeded from ``rng``: a determinized state's, so that its future chance
    is unknown too."""
    return random.Random(rng.getrandbits(64))


def reseeded(state: State, rng: random.Random) -> None:
    """Give a determinized state a fresh generator, so its future chance is unknown too."""
    state.rng = fresh_rng(rng)


def deal_fields(values: Iterable[Card]) -> list[str]:
    """Card codes for a view."""
    return [str(c) for c in values]


__all__ = [
    "Action",
    "Entry",
    "Event",
    "IllegalAction",
    "Msg",
    "Option",
    "OptionValue",
    "Outcome",
    "Rules",
    "State",
    "Tally",
    "View",
    "check_deck",
    "copy_rng",
    "count_msg",
    "deal_fields",
    "fresh_rng",
    "joined",
    "msg",
    "named",
    "reseeded",
    "seat_name",
    "seat_option",
]
