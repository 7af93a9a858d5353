"""Results that explain: each finished deal in the game's own terms, in English and Japanese.

The games record every finished deal as a :class:`games.core.Tally` (``state.breakdown()``):
entries such as Finesse's tricks and dregs or Bear's contract and Bond, each with the points it
brings. This module only words them; the numbers are the engine's, so what is shown adds up to
the scores. Used by the table message at the end of a deal and of the game, ``/history`` and
``/replay``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from bot.i18n import plural, t
from bot.names import plain
from bot.storage.ratings import unrated_reason
from games import wording
from games.cards import show
from games.core import Action, Entry, Event, Rules, State, Tally

if TYPE_CHECKING:
    import discord

    from bot.tables.model import Table
    from bot.tables.position import Position

FIELD = 1024  # the most characters an embed field's value may hold
#: games whose deals are called "games" (a series of games, a match of games)
GAMES_NOT_DEALS = frozenset({"1234", "sugekari-21"})
#: games of a single deal
SINGLE_DEAL = frozenset({"bhabhi"})


class Tallied(Protocol):
    """A game as a front end sees it (:class:`bot.tables.position.Position`,
    :class:`bot.tables.replay.Replayed`): its finished deals and the cards not to name."""

    @property
    def tallies(self) -> Sequence[Tally]:
        """Every finished deal explained, oldest first."""
        ...

    @property
    def hidden(self) -> frozenset[str]:
        """Cards in someone's hand that the public view does not show."""
        ...


def points_text(points: float) -> str:
    """Points with their sign: '+5', '−5', '0'."""
    whole = int(points) if float(points).is_integer() else points
    if whole == 0:
        return "0"
    return f"+{whole:g}" if whole > 0 else f"−{-whole:g}"


def who_text(seats: Sequence[int], names: Sequence[str], lang: str) -> str:
    """The players of some seats: 'Alice', 'Alice and Carol'."""
    return t("rs-and", lang).join(
        names[s] if s < len(names) else str(s + 1) for s in seats)


def deal_title(rules: Rules, tally: Tally, lang: str) -> str:
    """'Deal 3' (or 'Game 3' where the game calls its deals games; 'The result' for a game
    of one deal)."""
    if rules.id in SINGLE_DEAL:
        return t("rs-result", lang)
    key = "rs-game" if rules.id in GAMES_NOT_DEALS else "rs-deal"
    return t(key, lang, deal=tally.deal)


def hidden_now(state: State) -> frozenset[str]:
    """Cards in someone's hand that the public view does not show: a card of a finished deal
    that is back in a hand is not named again."""
    held = {str(code) for seat in range(state.players) for code in state.view(seat)["hand"]}
    if not held:
        return frozenset()
    public = json.dumps(state.view(None).to_dict())
    return frozenset(code for code in held if f'"{code}"' not in public)


def _item(rules: Rules, entry: Entry, lang: str, hidden: frozenset[str]) -> str:
    """One entry in words (without its cards when one of them is hidden now: the key's
    '-bare' wording)."""
    game, key, value = rules.id, entry.key, entry.value
    params: dict[str, Any] = {"value": value, "cards": show(entry.cards, lang),
                              "points": points_text(entry.points)}
    bare = "-bare" if any(str(c) in hidden for c in entry.cards) else ""
    if game == "bear":
        if key == "contract":
            params["value"] = rules.action_text(Action("bid", str(value)), lang)
        if key == "failed" and value == "early":
            return t("rs-bear-failed-early", lang)
    if game == "spar" and key == "deal-won" and value is None:
        return t("rs-spar-deal-won-deals", lang, **params)
    if game == "1234":
        if key == "won":
            return t(f"rs-1234-won-{value}", lang)
        if key == "hand" and not entry.cards:
            return t("rs-1234-hand-empty", lang, **params)
    return plural(f"rs-{game}-{key}{bare}", value, lang, **params)


def _headline(rules: Rules, entry: Entry, lang: str) -> str | None:
    """An entry that belongs to nobody in particular (the trumps, a Slop round), in words."""
    if rules.id == "finesse" and entry.key == "trumps":
        return rules.event_text(Event("trumps", None, arg=str(entry.value)), lang)
    if rules.id == "bear" and entry.key == "contract":
        return t("rs-bear-slop", lang)
    if rules.id == "sugekari-21" and entry.key == "stuck":
        return t("rs-sugekari-21-stuck", lang)
    return None


def _order_line(tally: Tally, names: Sequence[str], lang: str) -> list[str]:
    """Getaway: the order of going out, places shared by those safe in the same round."""
    places: dict[int, list[int]] = {}
    last: list[int] = []
    for entry in tally.entries:
        if entry.key == "last":
            last.extend(entry.seats)
        else:
            places.setdefault(int(entry.value or 0), []).extend(entry.seats)
    order = " · ".join(f"{place}. {who_text(seats, names, lang)}"
                       for place, seats in sorted(places.items()))
    lines = [t("rs-bhabhi-order", lang, order=order)]
    lines.append(t("rs-bhabhi-last", lang, who=who_text(last, names, lang)) if last
                 else t("rs-bhabhi-nobody-last", lang))
    return lines


def tally_lines(rules: Rules, tally: Tally, names: Sequence[str], lang: str,
                hidden: frozenset[str] = frozenset()) -> list[str]:
    """A finished deal in words: a line per player or side, the items that made its score
    and, when several items carry points, their sum ('= +9'). Cards in ``hidden`` (see
    :func:`hidden_now`) are not named."""
    if rules.id == "bhabhi":
        return _order_line(tally, names, lang)
    lines: list[str] = []
    groups: dict[tuple[int, ...], list[Entry]] = {}
    for entry in tally.entries:
        if not entry.seats:
            head = _headline(rules, entry, lang)
            if head:
                lines.append(head)
            continue
        groups.setdefault(entry.seats, []).append(entry)
    for seats, entries in groups.items():
        items = [_item(rules, e, lang, hidden) for e in entries]
        scored = [e for e in entries if e.points]
        text = t("rs-line", lang, who=who_text(seats, names, lang), items=" · ".join(items))
        if len(scored) > 1:
            text += " " + t("rs-sum", lang, points=points_text(sum(e.points for e in scored)))
        lines.append(text)
    return lines


def sides(rules: Rules, state: State) -> list[tuple[int, ...]]:
    """The sides of a game: partnerships, or each seat alone."""
    return _sides(rules, state.players, state.options)


def _sides(rules: Rules, players: int, options: Mapping[str, Any]) -> list[tuple[int, ...]]:
    teams = rules.teams(players, options)
    return [tuple(team) for team in teams] if teams else [(s,) for s in range(players)]


def deals_lines(rules: Rules, state: State, names: Sequence[str], lang: str) -> list[str]:
    """Deal by deal, what each side gained: '3: Alice +9, Bob 0'."""
    return _deals_lines(state.breakdown(), sides(rules, state), names, lang)


def _deals_lines(tallies: Sequence[Tally], groups: Sequence[tuple[int, ...]],
                 names: Sequence[str], lang: str) -> list[str]:
    return [f"{tally.deal}: " + ", ".join(
        f"{who_text(side, names, lang)} {points_text(tally.gains[side[0]])}" for side in groups)
        for tally in tallies]


def _deals_of(game: State | Tallied) -> tuple[Sequence[Tally], Callable[[], frozenset[str]]]:
    """A game's finished deals and (worked out only when wanted) the cards not to name."""
    if isinstance(game, State):
        return game.breakdown(), lambda: hidden_now(game)
    return game.tallies, lambda: game.hidden


def _fit(lines: list[str], limit: int = FIELD, keep_end: bool = False) -> str:
    """Lines joined to fit a field; the oldest (or the last) left out with '…'."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    if keep_end:
        while lines and len("\n".join(["…", *lines])) > limit:
            lines = lines[1:]
        return "\n".join(["…", *lines])[-limit:]
    return text[:limit - 1] + "…"


def last_deal(rules: Rules, state: State | Tallied, names: Sequence[str], lang: str
              ) -> tuple[str, str] | None:
    """The latest finished deal as (title, text), or None before the first ends."""
    found, hidden = _deals_of(state)
    if not found:
        return None
    tally = found[-1]
    return deal_title(rules, tally, lang), _fit(
        tally_lines(rules, tally, names, lang, hidden()))


def unrated_text(seats: Sequence[Mapping[str, Any]], lang: str, finished: bool) -> str:
    """'Unrated: a computer plays in it.' (or, after the game, 'This game was unrated: …'),
    or '' for a game that counts."""
    reason = unrated_reason(seats)
    if reason is None:
        return ""
    was = f"unrated-{reason}-was"  # after the game, said in the past where it reads better
    why = t(was if finished and wording.has(was) else f"unrated-{reason}", lang)
    return t("unrated-was" if finished else "unrated-will", lang, why=why)


def table_unrated(table: Table, lang: str) -> str:
    """The lobby's or the result's note on a table that is (or was) unrated, or ''."""
    finished = table.state is not None and table.state.over
    return unrated_text([s.to_dict() for s in table.seats], lang, finished)


def position_unrated(position: Position, lang: str) -> str:
    """:func:`table_unrated` for a front end's position."""
    seats = [{"user_id": s.user_id, "computer": s.computer, "hints": s.hints}
             for s in position.seats]
    return unrated_text(seats, lang, position.over)


def add_results(embed: discord.Embed, table: Table, lang: str) -> None:
    """The table message's explanation: the latest finished deal's breakdown; at the end of
    the game also the scores deal by deal and whether the game was rated."""
    state = table.state
    if state is None:
        return
    _explain(embed, table.rules, state.breakdown(), sides(table.rules, state),
             [plain(s.name) for s in table.seats], hidden_now(state), state.over,
             lambda: table_unrated(table, lang), lang)


def position_results(embed: discord.Embed, position: Position, lang: str) -> None:
    """:func:`add_results` for a front end's position."""
    if not position.started:
        return
    rules = position.rules
    _explain(embed, rules, position.tallies,
             _sides(rules, position.players, position.game_options),
             [plain(s.name) for s in position.seats], position.hidden, position.over,
             lambda: position_unrated(position, lang), lang)


def _explain(embed: discord.Embed, rules: Rules, tallies: Sequence[Tally],
             groups: Sequence[tuple[int, ...]], names: Sequence[str], hidden: frozenset[str],
             over: bool, note: Callable[[], str], lang: str) -> None:
    if tallies:
        tally = tallies[-1]
        embed.add_field(name=deal_title(rules, tally, lang)[:256],
                        value=_fit(tally_lines(rules, tally, names, lang, hidden)),
                        inline=False)
    if not over:
        return
    if len(tallies) > 1:
        key = "rs-games" if rules.id in GAMES_NOT_DEALS else "rs-deals"
        embed.add_field(name=t(key, lang), value=_fit(
            _deals_lines(tallies, groups, names, lang), keep_end=True), inline=False)
    unrated = note()
    if unrated:
        embed.add_field(name=t("rs-ratings", lang), value=unrated, inline=False)


def summary(rules: Rules, state: State | Tallied, names: Sequence[str], lang: str,
            limit: int = 220) -> str:
    """The last deal of a finished game on one short line (for /history)."""
    found, hidden = _deals_of(state)
    if not found:
        return ""
    tally = found[-1]
    text = " / ".join(tally_lines(rules, tally, names, lang, hidden()))
    if len(found) > 1:
        text = f"{deal_title(rules, tally, lang)}: {text}"
    return text if len(text) <= limit else text[:limit - 1] + "…"
