"""Messages and controls built from a table: the lobby, the public table, a player's hand.

Everything public is built from ``state.view(None)`` and events already stripped for a
spectator, so no hidden card can reach a public message. A hand's controls come only from
``legal_actions``.

The parts of a message are in :mod:`cogs.controls`, the lobby's messages in
:mod:`cogs.lobby_views`, a player's panel in :mod:`cogs.panel_views`; their names are
re-exported here, where the public table is built.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot import avatars
from bot.i18n import LANGS, t
from bot.results import add_results
from bot.tables import CANCELLED, FINISHED, LOBBY, PLAYING, Table
from cogs import ids
from cogs.controls import (
    COG,
    HAND_FILE,
    PAGE,
    ROWS,
    TABLE_FILE,
    Payload,
    Picture,
    StaticView,
    button_item,
    game_name,
    seat_label,
    select_menu,
)
from cogs.lobby_views import (
    computers_line,
    level_select,
    lobby_payload,
    option_value_text,
    options_payload,
)
from cogs.panel_views import hand_payload
from cogs.review import review_button, reviewable
from games.cards import parse as parse_card
from games.cards import pretty

__all__ = [
    "COG", "HAND_FILE", "PAGE", "ROWS", "TABLE_FILE", "Payload", "Picture", "StaticView",
    "button_item", "card_words", "computers_line",
    "game_name", "hand_payload", "hidden_cards", "level_select",
    "lobby_payload", "manage_payload", "option_value_text", "optional_seats", "options_payload",
    "seat_faces", "seat_label", "select_menu", "table_payload",
]


def seat_faces(table: Table) -> dict[str, Any]:
    """The table picture's faces: kept avatars (fetched in the background, never waited for)
    and which seats a computer plays."""
    return {"avatars": avatars.CACHE.faces([None if s.computer else s.user_id
                                            for s in table.seats]),
            "computers": tuple(i for i, s in enumerate(table.seats) if s.computer)}


_CODE = re.compile(r"[2-9TJQKA][SHDC]|RJ|BJ")


def _codes_in(value: object, found: set[str]) -> set[str]:
    if isinstance(value, str):
        if _CODE.fullmatch(value):
            found.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            _codes_in(item, found)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _codes_in(item, found)
    return found


def hidden_cards(state: Any) -> set[str]:
    """Cards in someone's hand that the public view does not show: a card seen earlier (an
    old deal's play, a pick-up the view does not list) is hidden again once back in a hand."""
    held = {str(c) for seat in range(state.players) for c in state.view(seat)["hand"]}
    if not held:
        return held
    return held - _codes_in(state.view(None).to_dict(), set())


def card_words(codes: set[str]) -> list[str]:
    """How those cards are written in sentences, in every language (a joker is 'Red Joker' in
    English and '赤ジョーカー' in Japanese)."""
    return list(dict.fromkeys(pretty(parse_card(c), lang) for c in codes for lang in LANGS))


def optional_seats(table: Table) -> list[int]:
    """People who may act now although the game is not waiting for them (Bhabhi's take).

    Computers and seats the computer keeps are left out: they only move when it is their turn.
    """
    state = table.state
    if table.status != PLAYING or state is None:
        return []
    waiting = set(state.to_act)
    return [s for s, info in enumerate(table.seats)
            if s not in waiting and info.user_id is not None and not info.auto
            and state.legal_actions(s)]


def table_payload(table: Table, lang: str, log_lines: list[str]) -> Payload:
    """The public table: the position as text, recent events, whose turn, and the buttons."""
    if table.status == LOBBY:
        return lobby_payload(table, lang)
    if table.status == CANCELLED:
        return Payload(t(table.ended or "cancelled", lang), None, StaticView())
    state = table.state
    assert state is not None
    public = state.view(None)
    title = t("table-title", lang, game=game_name(table, lang), id=table.id)
    players = "\n".join(  # in seat order, unnumbered: numbers would read as places
        t("seat-score", lang, name=seat_label(table, i, lang), score=_score(public["scores"][i]))
        for i in range(len(table.seats)))
    names = tuple(s.name for s in table.seats)
    picture = Picture("table", public.to_dict(), ("table", table.id, table.version, table.status,
                                                  names, lang), names=names, lang=lang,
                      alt=table.rules.view_text(public, lang), **seat_faces(table))
    embed = discord.Embed(title=title, description="\n".join(log_lines[-6:])[:4000] or None)
    embed.add_field(name=t("scores-title", lang), value=players[:1024], inline=False)
    if any(seat.auto for seat in table.seats):  # how strong the computers here play
        embed.set_footer(text=computers_line(table, lang))
    add_results(embed, table, lang)  # the last deal explained; at the end, the whole game
    embed.set_image(url=f"attachment://{TABLE_FILE}")
    view = StaticView()
    mentions: tuple[int, ...] = ()
    if table.status == FINISHED or state.over:  # over: the result may still be being stored
        outcome = state.outcome
        places = [] if outcome is None else sorted(
            range(len(table.seats)), key=lambda s: outcome.places[s])
        result = " · ".join(
            t("place", lang, place=outcome.places[s], name=table.seats[s].name,
              score=_score(outcome.scores[s])) for s in places) if outcome else ""
        if table.status == FINISHED and reviewable(table):
            view.add_item(review_button(table.id, lang))  # each person's own, privately
        return Payload(f"**{title}**\n" + t("finished", lang, result=result), embed, view,
                       picture=picture)
    waiting = list(state.to_act)
    who = ", ".join(seat_label(table, s, lang, mention=True) for s in waiting)
    mentions = tuple(table.seats[s].user_id for s in waiting  # type: ignore[misc]
                     if table.seats[s].user_id is not None and not table.seats[s].auto)
    line = t("turn", lang, who=who) if len(waiting) == 1 else t("turn-many", lang, who=who)
    if table.deadline is not None and table.deadline[0] == table.version:  # a running timer
        line += " " + t("turn-deadline", lang, when=f"<t:{int(table.deadline[1])}:R>")
    others = optional_seats(table)
    if others:
        line += "\n" + t("may-act", lang, who=", ".join(
            seat_label(table, s, lang, mention=True) for s in others))
        mentions += tuple(table.seats[s].user_id for s in others)  # type: ignore[misc]
    view.add_item(button_item(t("hand", lang), ids.make("hand", table.id, table.version),
                          discord.ButtonStyle.primary, 0))
    if any(s.away for s in table.seats):
        view.add_item(button_item(t("im-back", lang), ids.make("back", table.id, table.version),
                              discord.ButtonStyle.success, 0))
    view.add_item(button_item(t("manage", lang), ids.make("manage", table.id, table.version),
                          discord.ButtonStyle.secondary, 0))
    return Payload(f"**{title}**\n{line}", embed, view, mentions, picture)


def _score(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def manage_payload(table: Table, lang: str) -> Payload:
    """The host's menu during play: hand a seat to the computer, the computers' level, or
    cancel."""
    view = StaticView()
    people = [i for i, s in enumerate(table.seats) if not s.auto]
    if people:
        view.add_item(select_menu(
            custom_id=ids.make("over", table.id, table.version), placeholder=t("hand-over", lang),
            options=[discord.SelectOption(label=f"{i + 1}. {table.seats[i].name}"[:100],
                                          value=str(i)) for i in people], row=0))
    view.add_item(level_select(table, lang, 1))
    view.add_item(button_item(t("cancel", lang), ids.make("cancel", table.id, table.version),
                          discord.ButtonStyle.danger, 2))
    return Payload(f"**{t('manage-title', lang)}**", None, view)
