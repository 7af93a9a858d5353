"""The lobby's messages: the public lobby and the host's option menus."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.names import plain
from bot.tables import CANCELLED, COMPUTER_LEVELS, Position
from bot.tables.pace import DEADLINE_CHOICES, PACES, is_correspondence
from bot.tables.results import position_unrated
from cogs import ids
from cogs.controls import (
    PAGE,
    ROWS,
    Payload,
    Select,
    StaticView,
    button_item,
    game_name,
    open_button,
    seat_label,
    select_menu,
)


def option_value_text(value: object, lang: str) -> str:
    """An option value for people."""
    if value is True:
        return t("on", lang)
    if value is False:
        return t("off", lang)
    if value is None:
        return t("random-seat", lang)
    return str(value)


def _option_shown(rules: Any, name: str, value: object, lang: str) -> str:
    """A chosen option's value as people count: a seat from 1."""
    try:
        kind = rules.option(name).kind
    except KeyError:
        kind = ""
    if kind == "seat" and isinstance(value, int) and not isinstance(value, bool):
        return str(value + 1)
    return option_value_text(value, lang)


def computers_line(position: Position, lang: str) -> str:
    """'Computer players: hard': the level a table's computers play at."""
    return t("lobby-level", lang, level=t("level-" + position.level, lang))


def lobby_payload(position: Position, lang: str, activity: bool = False) -> Payload:
    """The lobby message: seats, options, timer and the lobby buttons (``activity``: with
    Open table, the live web table)."""
    rules = position.rules
    if position.status == CANCELLED:
        return Payload(t("cancelled", lang), None, StaticView())
    seats = "\n".join(f"{i + 1}. {seat_label(position, i, lang)}"
                      for i in range(len(position.seats)))
    host = next((plain(s.name) for s in position.seats if s.user_id == position.host_id), "?")
    need = t("lobby-need-exact" if rules.min_players == rules.max_players else
             "lobby-need-range", lang, least=rules.min_players, most=rules.max_players)
    body = t("lobby-body", lang, host=host, count=len(position.seats), need=need, seats=seats)
    teams = rules.teams(len(position.seats), {**{o.name: o.default for o in rules.options},
                                           **position.options}) \
        if len(position.seats) in rules.player_counts() else None
    if teams:
        body += "\n" + " / ".join(
            "+".join(str(s + 1) for s in team) for team in teams)
    chosen = " · ".join(f"{k.replace('_', ' ')}: {_option_shown(rules, k, v, lang)}"
                        for k, v in position.options.items())  # in words, seats from 1
    if chosen:
        body += "\n" + t("lobby-options", lang, options=chosen)
    body += "\n" + t("lobby-timer", lang, timer=t("timer-" + position.timer, lang))
    if is_correspondence(position.timer):
        body += "\n" + t("lobby-on-deadline", lang,
                         choice=t("on-deadline-" + position.on_deadline, lang))
    body += "\n" + computers_line(position, lang)
    body += "\n" + t("lobby-hints-on" if position.hints else "lobby-hints-off", lang)
    unrated = position_unrated(position, lang)  # a game that will not count for ratings says why
    if unrated:
        body += "\n" + unrated
    embed = discord.Embed(title=t("lobby-title", lang, game=game_name(position, lang)),
                          description=body)
    view = StaticView()
    tid = position.table_id
    for verb, key, style, row in (
        ("join", "join", discord.ButtonStyle.primary, 0),
        ("leave", "leave", discord.ButtonStyle.secondary, 0),
        ("addc", "add-computer", discord.ButtonStyle.secondary, 0),
        ("remc", "remove-computer", discord.ButtonStyle.secondary, 0),
        ("opts", "options", discord.ButtonStyle.secondary, 1),
        ("start", "start", discord.ButtonStyle.success, 1),
        ("cancel", "cancel", discord.ButtonStyle.danger, 1),
    ):
        view.add_item(button_item(t(key, lang), ids.make(verb, tid), style, row))
    if activity:
        view.add_item(open_button(tid, lang, 1))
    return Payload("", embed, view)


#: options that set a game's length (its target, a cap, the number of deals or games): the
#: host sees them first
LENGTH_OPTIONS = frozenset({"target", "cap", "deals", "games", "chips", "best_of_three"})


def _int_values(option: Any, current: object) -> list[int]:
    low = option.minimum if option.minimum is not None else 0
    high = option.maximum if option.maximum is not None else max(low, int(option.default or 0)) * 4
    found = {v for v in (option.default, current, *option.samples) if isinstance(v, int)
             and not isinstance(v, bool)}
    found.update({low, high})
    span = max(1, (high - low) // 18)
    found.update(range(low, high + 1, span))
    return sorted(v for v in found if low <= v <= high)[:PAGE]


def options_payload(position: Position, lang: str, page: int = 0,
                    showing: str | None = None) -> Payload:
    """The host's option menus: the options that set the game's length first, then the
    timer, the computer level, hints, seat swaps and the game's other options. ``showing``:
    the custom id of a menu just used, whose page is shown (else ``page``)."""
    menus = _option_menus(position, lang)
    per_page = ROWS - 1
    pages = max(1, -(-len(menus) // per_page))
    ids_in_order = [menu.custom_id for menu in menus]
    if showing in ids_in_order:
        page = ids_in_order.index(showing) // per_page
    page = page % pages
    view = StaticView()
    for row, menu in enumerate(menus[page * per_page:(page + 1) * per_page]):
        menu.row = row
        view.add_item(menu)
    if pages > 1:
        view.add_item(button_item(t("more", lang), ids.make("opts", position.table_id, 0, page + 1),
                              row=ROWS - 1))
    title = t("options-title", lang, game=game_name(position, lang))
    return Payload(f"**{title}**", None, view)


def _option_menus(position: Position, lang: str) -> list[Select]:
    """Every menu of the host's options, in the order they are shown."""
    rules = position.rules
    players = max(len(position.seats), rules.min_players)
    menus: list[Select] = []
    timer = select_menu(
        custom_id=ids.make("timer", position.table_id), placeholder=t("timer", lang),
        options=[discord.SelectOption(
            label=t("timer-" + c, lang)[:100], value=c, default=c == position.timer,
            description=t("pace-correspondence" if is_correspondence(c) else "pace-live",
                          lang)[:100]) for c in PACES])
    menus.append(timer)
    if is_correspondence(position.timer):  # what a missed deadline does: its own choice
        menus.append(select_menu(
            custom_id=ids.make("ondl", position.table_id), placeholder=t("on-deadline", lang),
            options=[discord.SelectOption(
                label=t("on-deadline-" + c, lang)[:100], value=c,
                description=t(f"on-deadline-{c}-about", lang)[:100],
                default=c == position.on_deadline) for c in DEADLINE_CHOICES]))
    menus.append(level_select(position, lang))
    menus.append(select_menu(
        custom_id=ids.make("hints", position.table_id), placeholder=t("hints-menu", lang),
        options=[discord.SelectOption(label=t(f"hints-choice-{c}", lang),
                                      description=t(f"hints-choice-{c}-about", lang)[:100],
                                      value=c, default=(c == "on") == position.hints)
                 for c in ("off", "on")]))
    count = len(position.seats)
    if count >= 2:
        pairs = [(a, b) for a in range(count) for b in range(a + 1, count)][:PAGE]
        menus.append(select_menu(
            custom_id=ids.make("swap", position.table_id), placeholder=t("swap", lang),
            options=[discord.SelectOption(
                label=t("swap-pair", lang, a=a + 1, b=b + 1)[:100],
                description=f"{position.seats[a].name} ↔ {position.seats[b].name}"[:100],
                value=f"{a}-{b}") for a, b in pairs]))
    length: list[Select] = []  # the options that set how long a game lasts: first
    for option in rules.options:
        current = position.options.get(option.name, option.default)
        help_text = rules.option_help(option, lang)
        values: list[tuple[str, str]]
        if option.kind == "bool":
            values = [("true", t("on", lang)), ("false", t("off", lang))]
            chosen = "true" if current else "false"
        elif option.kind == "choice":
            values = [(c, c) for c in option.choices[:PAGE]]
            chosen = str(current)
        elif option.kind == "seat":
            values = [("random", t("random-seat", lang))] + [
                (str(s), str(s + 1)) for s in range(players)]
            chosen = "random" if current is None else str(current)
        else:
            values = [(str(v), str(v)) for v in _int_values(option, current)]
            chosen = str(current)
        (length if option.name in LENGTH_OPTIONS else menus).append(select_menu(
            custom_id=ids.make("opt", position.table_id, 0, option.name[:60]),
            placeholder=f"{option.name}: {help_text}"[:150],
            options=[discord.SelectOption(label=f"{option.name}: {label}"[:100], value=value,
                                          default=value == chosen) for value, label in values]))
    return length + menus


def level_select(position: Position, lang: str, row: int | None = None) -> Select:
    """The computer players' level, the table's marked (the lobby's options and the host's
    menu in play)."""
    return select_menu(
        custom_id=ids.make("level", position.table_id), placeholder=t("level", lang),
        options=[discord.SelectOption(label=t("level-" + c, lang)[:100], value=c,
                                      description=t("level-" + c + "-about", lang)[:100],
                                      default=c == position.level) for c in COMPUTER_LEVELS],
        row=row)
