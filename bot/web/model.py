"""A table position turned into the JSON one viewer of the web table may see.

Pure and JSON-ready: :func:`table_model` is the whole ``table`` message of
docs/design/activity.md. The table itself (seats, the scene, the log, the last move) comes from
the PUBLIC view only (:func:`public_part`, the same for every viewer of a table at a version in
a language, so a front end builds it once and shares it); a seat's hand and moves come from
that seat's own view and legal moves (:func:`you_part`). A spectator's ``you`` is empty.

:func:`leaks` is the check the tests run on every message a socket receives: no card code, and
no card named in words, that neither the public view nor the viewer's own view shows.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.pictures.scenes import scene_for
from bot.pictures.table import Scene
from bot.tables import CANCELLED, FINISHED, LOBBY, PLAYING, Move, Position
from games import wording
from games.cards import RANKS, SUITS, parse, pretty
from games.core import Action, Event, Rules

#: how many recent lines of the table's news a model carries
LOG_LINES = 8
#: every card code a view may hold (rank then suit; the two jokers)
CARD_CODES = frozenset([r + s for r in RANKS for s in SUITS] + ["RJ", "BJ"])


@dataclass(frozen=True)
class News:
    """One public line of a table's news, kept unworded so each viewer reads it in their
    language: a game's event (already stripped for a spectator), or a catalogue key and its
    fields (a timeout, a seat handed to the computer)."""

    key: str
    params: Mapping[str, Any]
    event: Event | None = None


def news_of(position: Position, moves: Sequence[Move], kind: str,
            seat: int | None) -> list[News]:
    """The public news of one event of the table service (its kind, its seat, its moves), as
    the table message keeps them (``cogs.board.TableMessages.note``)."""
    found: list[News] = []
    for move in moves:
        name = position.seats[move.seat].name
        if move.how == "timeout":
            key = "now-away" if position.seats[move.seat].away else "timed-out"
            found.append(News(key, {"name": name}))
        for event in move.events:
            found.append(News("event", {}, event.for_seat(None)))
    if kind == "away" and seat is not None:
        found.append(News("handed-over", {"name": position.seats[seat].name}))
    if kind == "back" and seat is not None:
        found.append(News("returned", {"name": position.seats[seat].name}))
    if kind == "level":
        found.append(News("level-changed", {"level": position.level}))
    return found


def last_of(moves: Sequence[Move], public: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The last move of an event, to animate: its seat, its kind and the cards it showed to
    everyone that the public view after it still shows (its public events' cards: none that
    went into a hand, face down or out of sight)."""
    if not moves:
        return None
    move = moves[-1]
    shown = codes_in(dict(public or {}))
    cards: list[str] = []
    for event in move.events:
        told = event.for_seat(None)
        if told.seat != move.seat:
            continue
        for card in told.cards:
            code = str(card)
            if code in shown and code not in cards:
                cards.append(code)
    return {"seat": move.seat, "kind": move.action.kind, "cards": cards}


def card_words(codes: Iterable[str], lang: str) -> list[str]:
    """How cards are written in sentences in a language ('10♠', 'Red Joker')."""
    return list(dict.fromkeys(pretty(parse(c), lang) for c in codes))


def log_lines(position: Position, news: Iterable[News], lang: str) -> list[str]:
    """The table's recent news worded in ``lang`` (the rules' own sentences for the game's
    events), leaving out any line that names a card now hidden in a hand (an earlier deal's
    play once the cards are dealt again)."""
    hidden = position.hidden
    words = card_words(hidden, lang) if hidden else []
    names = [seat.name for seat in position.seats]
    lines: list[str] = []
    for item in news:
        if item.event is not None:
            if hidden and any(str(c) in hidden for c in item.event.cards):
                continue
            text = position.rules.event_text(item.event, lang, names)
            if not text or (words and any(word in text for word in words)):
                continue
            lines.append(text)
        elif item.key == "level-changed":  # the level's name in the reader's language
            level = wording.text("level-" + str(item.params.get("level")), lang)
            lines.append(wording.text(item.key, lang, level=level))
        else:
            lines.append(wording.text(item.key, lang, **item.params))
    return lines[-LOG_LINES:]


def title_of(position: Position, lang: str) -> str:
    """The game's name in the reader's language."""
    rules = position.rules
    return rules.title(lang)


def _codes(cards: Iterable[str | None]) -> list[str | None]:
    return [None if c is None else str(c) for c in cards]


def scene_data(scene: Scene) -> dict[str, Any]:
    """A table scene (what the table picture shows) as JSON-ready data; avatars left out
    (the page fetches them by address)."""
    return {
        "title": scene.title,
        "subtitle": scene.subtitle,
        "trick": [[seat, _codes(codes)] for seat, codes in scene.trick],
        "trick_best": scene.trick_best,
        "lead_label": scene.lead_label,
        "last_trick": [[seat, _codes(codes)] for seat, codes in scene.last_trick],
        "last_label": scene.last_label,
        "rows": [[label, _codes(codes)] for label, codes in scene.rows],
        "lines": list(scene.lines),
        "corner": list(scene.corner),
        "result": list(scene.result),
        "seats": [{"name": s.name, "lines": list(s.lines), "acting": s.acting,
                   "dealer": s.dealer, "live": s.live,
                   "badges": [[kind, text] for kind, text in s.badges],
                   "cards": _codes(s.cards), "hand_count": s.hand_count,
                   "computer": s.computer, "team": s.team, "cards_label": s.cards_label}
                  for s in scene.seats],
    }


def avatar_path(user_id: int | None) -> str | None:
    """Where the page fetches a person's avatar (None: a computer's seat, drawn as such)."""
    return None if user_id is None else f"/api/avatar/{user_id}"


def public_part(position: Position, lang: str, news: Iterable[News] = (),
                last: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything of the model but ``you``: the same for every viewer of the table at this
    version in this language, made from the public view alone."""
    seats = []
    for index, seat in enumerate(position.seats):
        person = None if seat.computer else seat.user_id
        seats.append({"seat": index, "name": seat.name,
                      "user_id": None if person is None else str(person),
                      "computer": seat.computer, "away": seat.away,
                      "avatar": avatar_path(person)})
    scene = None
    if position.public is not None:
        names = [seat.name for seat in position.seats]
        computers = [i for i, seat in enumerate(position.seats) if seat.computer]
        scene = scene_data(scene_for(position.public, names, lang, computers=computers))
    deadline = position.deadline
    running = deadline is not None and deadline[0] == position.version \
        and position.status == PLAYING
    return {
        "type": "table",
        "table": position.table_id,
        "version": position.version,
        "game": position.game_id,
        "title": title_of(position, lang),
        "status": position.status,
        "deadline": round(deadline[1], 3) if running and deadline is not None else None,
        "seats": seats,
        # seats still to take in the lobby (the page offers them: take one, or invite)
        "free": max(0, position.rules.max_players - len(position.seats))
        if position.status == LOBBY else 0,
        "scene": scene,
        "log": log_lines(position, news, lang),
        "last": last,
    }


@functools.lru_cache(maxsize=1 << 16)
def move_label(rules: Rules, action: Action, lang: str) -> str:
    """A move's label as the chat panel words it (``rules.action_text``), kept: a seat of 22
    exchanging has some hundred moves, labelled again for every model sent."""
    return rules.action_text(action, lang)


SPECTATOR: dict[str, Any] = {"seat": None, "hand": [], "playable": [], "may_act": False,
                             "moves": []}


def you_part(position: Position, lang: str) -> dict[str, Any]:
    """The viewer's own part: their hand sorted as the rules sort it, the cards some legal
    move uses, whether they may act, and their legal moves labelled as the chat panel labels
    them (grouped by kind, a kind's moves in the hand's order). A spectator's is empty."""
    seat, mine = position.seat, position.own_view
    if seat is None:
        return dict(SPECTATOR, hand=[], playable=[], moves=[])
    if mine is None:  # seated in a lobby: no cards dealt yet
        return dict(SPECTATOR, seat=seat, hand=[], playable=[], moves=[])
    rules = position.rules
    hand = [str(c) for c in rules.sorted_hand(mine)]
    over = position.status in (FINISHED, CANCELLED) or position.over
    legal = [] if over else list(position.moves)
    order = rules.hand_key(mine)
    groups: dict[str, list[int]] = {}
    for i, move in enumerate(legal):
        groups.setdefault(move.action.kind, []).append(i)
    moves = []
    for members in groups.values():
        members.sort(key=lambda i: [order(c) for c in legal[i].action.cards])
        for i in members:
            action = legal[i].action
            moves.append({"index": legal[i].index, "label": move_label(rules, action, lang),
                          "kind": action.kind, "cards": [str(c) for c in action.cards]})
    used = {str(c) for move in legal for c in move.action.cards}
    playable = [c for c in hand if c in used]
    return {"seat": seat, "hand": hand, "playable": playable,
            "may_act": position.may_act and not over, "moves": moves}


def table_model(position: Position, lang: str, news: Iterable[News] = (),
                last: dict[str, Any] | None = None,
                public: dict[str, Any] | None = None) -> dict[str, Any]:
    """The whole ``table`` message for one viewer: ``position`` is the viewer's (a seat's, or
    a spectator's); ``public`` the shared part already made for this version and language
    (:func:`public_part` of the table's public position), else made here."""
    shared = public if public is not None else public_part(position, lang, news, last)
    return {**shared, "you": you_part(position, lang)}


# -- the leak check ------------------------------------------------------------------------
def strings_in(value: Any, found: list[str] | None = None) -> list[str]:
    """Every string in a JSON value, keys included."""
    out = [] if found is None else found
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            out.append(str(key))
            strings_in(item, out)
    elif isinstance(value, (list, tuple)):
        for item in value:
            strings_in(item, out)
    return out


def codes_in(value: Any) -> set[str]:
    """The card codes a JSON value holds as strings of their own."""
    return {s for s in strings_in(value) if s in CARD_CODES}


def leaks(message: Any, public: Mapping[str, Any] | None, own: Mapping[str, Any] | None,
          hidden: Iterable[str] = (), langs: Sequence[str] | None = None) -> list[str]:
    """What a message shows that its viewer may not see (empty: nothing): a card code that
    is neither in the public view nor in the viewer's own view (``own``: None for a
    spectator), or a card hidden in someone's hand (``hidden``, ``Position.hidden``) that the
    viewer does not hold, named in words in any string."""
    allowed = codes_in(dict(public or {})) | codes_in(dict(own or {}))
    found = [f"card {code}" for code in sorted(codes_in(message) - allowed)]
    secret = set(hidden) - allowed
    if secret:
        words = {word: code for lang in (langs or wording.languages()) for code in secret
                 for word in card_words([code], lang)}
        for text in strings_in(message):
            for word, code in words.items():
                if word in text:
                    found.append(f"{code} named in {text!r}")
    return found
