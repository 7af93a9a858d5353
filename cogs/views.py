"""Messages and controls built from a table: the lobby, the public table, a player's hand.

Everything is built from a :class:`bot.tables.position.Position` (never a game state): everything
public from its public view and events already stripped for a spectator, so no hidden card
can reach a public message; a hand's controls come only from the seat's legal moves.

The parts of a message are in :mod:`cogs.controls`, the lobby's messages in
:mod:`cogs.lobby_views`, a player's panel in :mod:`cogs.panel_views`; their names are
re-exported here, where the public table is built.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import LANGS, t
from bot.names import plain
from bot.pictures import avatars
from bot.tables import CANCELLED, FINISHED, LOBBY, Position
from bot.tables.results import position_results
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
    open_button,
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
    "game_name", "hand_payload", "level_select",
    "lobby_payload", "manage_payload", "option_value_text", "options_payload",
    "overview_payload",
    "result_text", "seat_faces", "seat_label", "select_menu", "table_payload",
]


def seat_faces(position: Position) -> dict[str, Any]:
    """The table picture's faces: kept avatars (fetched in the background, never waited for)
    and which seats a computer plays."""
    return {"avatars": avatars.CACHE.faces([None if s.computer else s.user_id
                                            for s in position.seats]),
            "computers": tuple(i for i, s in enumerate(position.seats) if s.computer)}


def card_words(codes: set[str]) -> list[str]:
    """How those cards are written in sentences, in every language (a joker is 'Red Joker' in
    English and '赤ジョーカー' in Japanese)."""
    return list(dict.fromkeys(pretty(parse_card(c), lang) for c in codes for lang in LANGS))


def table_payload(position: Position, lang: str, log_lines: list[str],
                  activity: bool = False) -> Payload:
    """The public table: the position as text, recent events, whose turn, and the buttons
    (``activity``: with Open table, the live web table, while the table is open)."""
    if position.status == LOBBY:
        return lobby_payload(position, lang, activity)
    if position.status == CANCELLED:
        return Payload(t(position.ended or "cancelled", lang), None, StaticView())
    public = position.public_view
    assert public is not None and position.public is not None
    title = t("table-title", lang, game=game_name(position, lang), id=position.table_id)
    players = "\n".join(  # in seat order, unnumbered: numbers would read as places
        t("seat-score", lang, name=seat_label(position, i, lang),
          score=_score(public["scores"][i]))
        for i in range(len(position.seats)))
    names = tuple(s.name for s in position.seats)
    picture = Picture("table", position.public,
                      ("table", position.table_id, position.version, position.status, names,
                       lang), names=names, lang=lang,
                      alt=position.rules.view_text(public, lang), **seat_faces(position))
    embed = discord.Embed(title=title, description="\n".join(log_lines[-6:])[:4000] or None)
    embed.add_field(name=t("scores-title", lang), value=players[:1024], inline=False)
    if any(seat.auto for seat in position.seats):  # how strong the computers here play
        embed.set_footer(text=computers_line(position, lang))
    position_results(embed, position, lang)  # the last deal explained; at the end, the whole game
    embed.set_image(url=f"attachment://{TABLE_FILE}")
    view = StaticView()
    mentions: tuple[int, ...] = ()
    if position.status == FINISHED or position.over:  # over: its result may be being stored
        result = result_text(position, lang)
        if position.status == FINISHED and reviewable(position):
            view.add_item(review_button(position.table_id, lang))  # each person's own
        return Payload(f"**{title}**\n" + t("finished", lang, result=result), embed, view,
                       picture=picture)
    waiting = list(position.to_act)
    who = ", ".join(seat_label(position, s, lang, mention=True) for s in waiting)
    mentions = tuple(position.seats[s].user_id for s in waiting  # type: ignore[misc]
                     if position.seats[s].user_id is not None and not position.seats[s].auto)
    line = t("turn", lang, who=who) if len(waiting) == 1 else t("turn-many", lang, who=who)
    deadline = position.deadline
    if deadline is not None and deadline[0] == position.version:  # a running timer
        line += " " + t("turn-deadline", lang, when=f"<t:{int(deadline[1])}:R>")
    others = position.optional
    if others:
        line += "\n" + t("may-act", lang, who=", ".join(
            seat_label(position, s, lang, mention=True) for s in others))
        mentions += tuple(position.seats[s].user_id for s in others)  # type: ignore[misc]
    tid, version = position.table_id, position.version
    _hand_buttons(view, position, lang)
    view.add_item(button_item(t("manage", lang), ids.make("manage", tid, version),
                          discord.ButtonStyle.secondary, 0))
    if activity:
        view.add_item(open_button(tid, lang, 0))
    return Payload(f"**{title}**\n{line}", embed, view, mentions, picture)


def overview_payload(position: Position, lang: str, activity: bool = False) -> Payload:
    """A table's compact message in its channel, while the whole table is in its thread: the
    game, the seats, whose turn (or the result), and Hand / Watch / Open table. No picture
    and no log, so a channel with many tables reads as a list of them; it changes only when
    one of these does (the thread's message follows every move)."""
    if position.status in (LOBBY, CANCELLED):  # the lobby is where people join: all of it
        return table_payload(position, lang, [], activity)
    title = t("table-title", lang, game=game_name(position, lang), id=position.table_id)
    seats = " · ".join(seat_label(position, i, lang) for i in range(len(position.seats)))
    view = StaticView()
    if position.status == FINISHED or position.over:
        _watch_button(view, position, lang)
        if position.status == FINISHED and reviewable(position):
            view.add_item(review_button(position.table_id, lang))
        return Payload(f"**{title}**\n{seats}\n"
                       + t("finished", lang, result=result_text(position, lang)), None, view)
    full = table_payload(position, lang, [], activity)  # the same turn line and mentions
    line = full.content.split("\n", 1)[1] if "\n" in full.content else ""
    _hand_buttons(view, position, lang)
    _watch_button(view, position, lang)
    if activity:
        view.add_item(open_button(position.table_id, lang, 0))
    return Payload(f"**{title}**\n{seats}\n{line}", None, view, full.mentions)


def _hand_buttons(view: StaticView, position: Position, lang: str) -> None:
    """Hand, and I'm back while someone is away: the table's buttons for its people."""
    tid, version = position.table_id, position.version
    view.add_item(button_item(t("hand", lang), ids.make("hand", tid, version),
                              discord.ButtonStyle.primary, 0))
    if any(s.away for s in position.seats):
        view.add_item(button_item(t("im-back", lang), ids.make("back", tid, version),
                                  discord.ButtonStyle.success, 0))


def _watch_button(view: StaticView, position: Position, lang: str) -> None:
    """Watch: a link to the whole table's message in the table's thread."""
    board = position.board_at
    if board is not None:
        view.add_item(discord.ui.Button(
            label=t("watch", lang)[:80], style=discord.ButtonStyle.link, row=0,
            url=f"https://discord.com/channels/{position.guild_id}/{board[0]}/{board[1]}"))


def result_text(position: Position, lang: str) -> str:
    """A finished game's result: each seat's place, name and score, best place first (empty
    for a game ended without a result)."""
    outcome = position.outcome
    if outcome is None:
        return ""
    places = sorted(range(len(position.seats)), key=lambda s: outcome.places[s])
    return " · ".join(
        t("place", lang, place=outcome.places[s], name=plain(position.seats[s].name),
          score=_score(outcome.scores[s])) for s in places)


def _score(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def manage_payload(position: Position, lang: str) -> Payload:
    """The host's menu during play: hand a seat to the computer, the computers' level, or
    cancel."""
    view = StaticView()
    people = [i for i, s in enumerate(position.seats) if not s.auto]
    if people:
        view.add_item(select_menu(
            custom_id=ids.make("over", position.table_id, position.version),
            placeholder=t("hand-over", lang),
            options=[discord.SelectOption(label=f"{i + 1}. {position.seats[i].name}"[:100],
                                          value=str(i)) for i in people], row=0))
    view.add_item(level_select(position, lang, 1))
    view.add_item(button_item(t("cancel", lang),
                              ids.make("cancel", position.table_id, position.version),
                              discord.ButtonStyle.danger, 2))
    return Payload(f"**{t('manage-title', lang)}**", None, view)
