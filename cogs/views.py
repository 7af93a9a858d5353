"""Messages and controls built from a table: the lobby, the public table, a player's hand.

Everything public is built from ``state.view(None)`` and events already stripped for a
spectator, so no hidden card can reach a public message. A hand's controls come only from
``legal_actions``.
"""

from __future__ import annotations

import io
import logging
import re
from dataclasses import dataclass, field
from typing import Any

import discord
from PIL import Image

from bot import avatars
from bot.config import TIMER_CHOICES
from bot.i18n import move_word, t
from bot.render import hand_alt, hand_png_async, playable_cards, table_png_async
from bot.results import add_results, table_unrated
from bot.tables import CANCELLED, COMPUTER_LEVELS, FINISHED, LOBBY, PLAYING, Table
from cogs import ids
from games.cards import parse as parse_card
from games.cards import pretty
from games.core import Action

# Pillow imports its format plugins lazily on the first save; two pictures drawn at once in
# worker threads could both start that import and stall, so it happens here, once.
Image.preinit()
Image.init()

log = logging.getLogger(__name__)
PAGE = 25  # the most options a select menu may hold
ROWS = 5  # the most action rows a message may hold


class StaticView(discord.ui.View):
    """Components sent with a message; clicks reach :class:`TableButton` / :class:`TableSelect`.

    The view itself is never kept in memory: the dynamic items are rebuilt from the custom id
    of each click, so buttons keep working after a restart.
    """

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        """Never stored: the registered dynamic items read the custom id instead."""
        return False


COG = "PlayCog"  # the cog whose ``component`` method routes every table component


async def _route(interaction: discord.Interaction[Any], cid: ids.ComponentId) -> None:
    cog = interaction.client.get_cog(COG)
    if cog is None:  # pragma: no cover - the items are removed with the cog
        return
    await cog.component(interaction, cid)


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=ids.BUTTON_TEMPLATE):
    """A table's button, rebuilt from its custom id ``dh:<verb>:<table>:<version>:<arg>``."""

    def __init__(self, item: discord.ui.Button[Any], row: int | None = None) -> None:
        super().__init__(item, row=row)
        found = ids.BUTTON_TEMPLATE.fullmatch(self.custom_id)
        assert found is not None, self.custom_id
        self.cid = ids.from_match(found)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> TableButton:
        """The button of a click (the custom id already matched the template)."""
        return cls(item)  # type: ignore[arg-type]

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to the table cog's router."""
        await _route(interaction, self.cid)


class TableSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                  template=ids.SELECT_TEMPLATE):
    """A table's select menu, rebuilt from its custom id like :class:`TableButton`."""

    def __init__(self, item: discord.ui.Select[Any], row: int | None = None) -> None:
        super().__init__(item, row=row)
        found = ids.SELECT_TEMPLATE.fullmatch(self.custom_id)
        assert found is not None, self.custom_id
        self.cid = ids.from_match(found)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> TableSelect:
        """The menu of a choice (the custom id already matched the template)."""
        return cls(item)  # type: ignore[arg-type]

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the choice to the table cog's router."""
        await _route(interaction, self.cid)


def _select(custom_id: str, options: list[discord.SelectOption], placeholder: str | None = None,
            row: int | None = None, min_values: int = 1, max_values: int = 1) -> TableSelect:
    return TableSelect(discord.ui.Select(custom_id=custom_id, options=options,
                                         placeholder=placeholder, min_values=min_values,
                                         max_values=max_values), row=row)


TABLE_FILE = "table.png"  # fixed names: a file name must never carry a card code
HAND_FILE = "hand.png"


@dataclass(frozen=True)
class Picture:
    """A picture to attach: the view it is drawn from (a snapshot), drawn off the event loop."""

    kind: str  # "table" or "hand"
    view: dict[str, Any] = field(compare=False)
    key: tuple[Any, ...]
    names: tuple[str, ...] = ()
    lang: str = "en"
    playable: frozenset[str] = frozenset()
    title: str = ""
    alt: str = ""
    four_colour: bool = False
    avatars: tuple[bytes | None, ...] = field(default=(), compare=False)
    computers: tuple[int, ...] = ()

    @property
    def filename(self) -> str:
        """The attachment's name (never anything from the cards)."""
        return TABLE_FILE if self.kind == "table" else HAND_FILE

    async def png(self) -> bytes:
        """The PNG bytes, drawn in a worker thread."""
        if self.kind == "table":
            return await table_png_async(self.view, list(self.names), self.lang,
                                         avatars=self.avatars, computers=self.computers)
        return await hand_png_async(self.view, set(self.playable), self.title,
                                    four_colour=self.four_colour)

    async def file(self) -> discord.File:
        """The picture as an upload."""
        return discord.File(io.BytesIO(await self.png()), filename=self.filename,
                            description=self.alt[:1024] or None)


@dataclass
class Payload:
    """The parts of a message (``picture``: an attachment to draw, or None for none)."""

    content: str
    embed: discord.Embed | None
    view: StaticView
    mentions: tuple[int, ...] = ()
    picture: Picture | None = None

    def send(self) -> dict[str, Any]:
        """Keyword arguments for sending this as a new message."""
        found: dict[str, Any] = {"content": self.content or None, "view": self.view}
        if self.embed is not None:
            found["embed"] = self.embed
        return found

    def edit(self) -> dict[str, Any]:
        """Keyword arguments for editing a message into this."""
        return {"content": self.content, "embed": self.embed, "view": self.view}

    def key(self) -> tuple[Any, ...]:
        """A comparable form, to skip edits that would change nothing."""
        return (self.content, None if self.embed is None else self.embed.to_dict(),
                [c.to_component_dict() for c in self.view.children],
                None if self.picture is None else self.picture.key)

    async def files(self) -> list[discord.File]:
        """The attachments this message should carry now (drawn off the event loop).

        A game the pictures cannot draw yet falls back to its text form, so play goes on.
        """
        if self.picture is None:
            return []
        try:
            return [await self.picture.file()]
        except Exception:
            log.warning("no %s picture for this view; showing text", self.picture.kind,
                        exc_info=True)
        if self.embed is not None and self.picture.kind == "table":
            self.embed.set_image(url=None)
            text = "\n\n".join(p for p in (self.picture.alt, self.embed.description) if p)
            self.embed.description = text[:4000]
        self.picture = None
        return []


def seat_faces(table: Table) -> dict[str, Any]:
    """The table picture's faces: kept avatars (fetched in the background, never waited for)
    and which seats a computer plays."""
    return {"avatars": avatars.CACHE.faces([None if s.computer else s.user_id
                                            for s in table.seats]),
            "computers": tuple(i for i, s in enumerate(table.seats) if s.computer)}


def game_name(table: Table, lang: str) -> str:
    """The game's name in a language."""
    return str(table.rules.name_ja if lang == "ja" else table.rules.name)


def seat_label(table: Table, seat: int, lang: str, mention: bool = False) -> str:
    """'Alice' / '<@id>' / 'CPU 1 (computer)' for a seat."""
    info = table.seats[seat]
    if info.computer:
        return f"{info.name} ({t('computer', lang)})"
    name = f"<@{info.user_id}>" if mention and info.user_id is not None else info.name
    return f"{name} {t('away-mark', lang)}" if info.away else name


def _button(label: str, custom_id: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
            row: int | None = None, disabled: bool = False) -> TableButton:
    return TableButton(discord.ui.Button(label=label[:80], custom_id=custom_id, style=style,
                                         disabled=disabled), row=row)


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


def computers_line(table: Table, lang: str) -> str:
    """'Computer players: hard': the level a table's computers play at."""
    return t("lobby-level", lang, level=t("level-" + table.level, lang))


def lobby_payload(table: Table, lang: str) -> Payload:
    """The lobby message: seats, options, timer and the lobby buttons."""
    rules = table.rules
    if table.status == CANCELLED:
        return Payload(t("cancelled", lang), None, StaticView())
    seats = "\n".join(f"{i + 1}. {seat_label(table, i, lang)}" for i in range(len(table.seats)))
    host = next((s.name for s in table.seats if s.user_id == table.host_id), "?")
    need = t("lobby-need-exact" if rules.min_players == rules.max_players else
             "lobby-need-range", lang, least=rules.min_players, most=rules.max_players)
    body = t("lobby-body", lang, host=host, count=len(table.seats), need=need, seats=seats)
    teams = rules.teams(len(table.seats), {**{o.name: o.default for o in rules.options},
                                           **table.options}) \
        if len(table.seats) in rules.player_counts() else None
    if teams:
        body += "\n" + " / ".join(
            "+".join(str(s + 1) for s in team) for team in teams)
    chosen = " · ".join(f"{k.replace('_', ' ')}: {_option_shown(rules, k, v, lang)}"
                        for k, v in table.options.items())  # in words, seats from 1
    if chosen:
        body += "\n" + t("lobby-options", lang, options=chosen)
    body += "\n" + t("lobby-timer", lang, timer=t("timer-" + table.timer, lang))
    body += "\n" + computers_line(table, lang)
    unrated = table_unrated(table, lang)  # a game that will not count for ratings says why
    if unrated:
        body += "\n" + unrated
    embed = discord.Embed(title=t("lobby-title", lang, game=game_name(table, lang)),
                          description=body)
    view = StaticView()
    tid = table.id
    for verb, key, style, row in (
        ("join", "join", discord.ButtonStyle.primary, 0),
        ("leave", "leave", discord.ButtonStyle.secondary, 0),
        ("addc", "add-computer", discord.ButtonStyle.secondary, 0),
        ("remc", "remove-computer", discord.ButtonStyle.secondary, 0),
        ("opts", "options", discord.ButtonStyle.secondary, 1),
        ("start", "start", discord.ButtonStyle.success, 1),
        ("cancel", "cancel", discord.ButtonStyle.danger, 1),
    ):
        view.add_item(_button(t(key, lang), ids.make(verb, tid), style, row))
    return Payload("", embed, view)


def _int_values(option: Any, current: object) -> list[int]:
    low = option.minimum if option.minimum is not None else 0
    high = option.maximum if option.maximum is not None else max(low, int(option.default or 0)) * 4
    found = {v for v in (option.default, current, *option.samples) if isinstance(v, int)
             and not isinstance(v, bool)}
    found.update({low, high})
    span = max(1, (high - low) // 18)
    found.update(range(low, high + 1, span))
    return sorted(v for v in found if low <= v <= high)[:PAGE]


def options_payload(table: Table, lang: str, page: int = 0) -> Payload:
    """The host's option menus: timer, computer level, seat swaps and one select per game
    option."""
    rules = table.rules
    players = max(len(table.seats), rules.min_players)
    menus: list[TableSelect] = []
    timer = _select(
        custom_id=ids.make("timer", table.id), placeholder=t("timer", lang),
        options=[discord.SelectOption(label=t("timer-" + c, lang), value=c,
                                      default=c == table.timer) for c in TIMER_CHOICES])
    menus.append(timer)
    menus.append(level_select(table, lang))
    count = len(table.seats)
    if count >= 2:
        pairs = [(a, b) for a in range(count) for b in range(a + 1, count)][:PAGE]
        menus.append(_select(
            custom_id=ids.make("swap", table.id), placeholder=t("swap", lang),
            options=[discord.SelectOption(
                label=t("swap-pair", lang, a=a + 1, b=b + 1)[:100],
                description=f"{table.seats[a].name} ↔ {table.seats[b].name}"[:100],
                value=f"{a}-{b}") for a, b in pairs]))
    for option in rules.options:
        current = table.options.get(option.name, option.default)
        help_text = option.help_ja if lang == "ja" else option.help_en
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
        menus.append(_select(
            custom_id=ids.make("opt", table.id, 0, option.name[:60]),
            placeholder=f"{option.name}: {help_text}"[:150],
            options=[discord.SelectOption(label=f"{option.name}: {label}"[:100], value=value,
                                          default=value == chosen) for value, label in values]))
    per_page = ROWS - 1
    pages = max(1, -(-len(menus) // per_page))
    page = page % pages
    view = StaticView()
    for row, menu in enumerate(menus[page * per_page:(page + 1) * per_page]):
        menu.row = row
        view.add_item(menu)
    if pages > 1:
        view.add_item(_button(t("more", lang), ids.make("opts", table.id, 0, page + 1),
                              row=ROWS - 1))
    title = t("options-title", lang, game=game_name(table, lang))
    return Payload(f"**{title}**", None, view)


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
    """How those cards are written in sentences (their pretty forms)."""
    return [pretty(parse_card(c)) for c in codes]


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
        return Payload(t("cancelled", lang), None, StaticView())
    state = table.state
    assert state is not None
    public = state.view(None)
    title = t("table-title", lang, game=game_name(table, lang), id=table.id)
    players = "\n".join(
        f"{i + 1}. {seat_label(table, i, lang)} — {_score(public['scores'][i])}"
        for i in range(len(table.seats)))
    names = tuple(s.name for s in table.seats)
    picture = Picture("table", public.to_dict(), ("table", table.id, table.version, table.status,
                                                  names, lang), names=names, lang=lang,
                      alt=table.rules.view_text(public, lang), **seat_faces(table))
    embed = discord.Embed(title=title, description="\n".join(log_lines[-6:])[:4000] or None)
    embed.add_field(name="—", value=players[:1024], inline=False)
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
    view.add_item(_button(t("hand", lang), ids.make("hand", table.id, table.version),
                          discord.ButtonStyle.primary, 0))
    if any(s.away for s in table.seats):
        view.add_item(_button(t("im-back", lang), ids.make("back", table.id, table.version),
                              discord.ButtonStyle.success, 0))
    view.add_item(_button(t("manage", lang), ids.make("manage", table.id, table.version),
                          discord.ButtonStyle.secondary, 0))
    return Payload(f"**{title}**\n{line}", embed, view, mentions, picture)


def _score(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def level_select(table: Table, lang: str, row: int | None = None) -> TableSelect:
    """The computer players' level, the table's marked (the lobby's options and the host's
    menu in play)."""
    return _select(
        custom_id=ids.make("level", table.id), placeholder=t("level", lang),
        options=[discord.SelectOption(label=t("level-" + c, lang)[:100], value=c,
                                      description=t("level-" + c + "-about", lang)[:100],
                                      default=c == table.level) for c in COMPUTER_LEVELS],
        row=row)


def manage_payload(table: Table, lang: str) -> Payload:
    """The host's menu during play: hand a seat to the computer, the computers' level, or
    cancel."""
    view = StaticView()
    people = [i for i, s in enumerate(table.seats) if not s.auto]
    if people:
        view.add_item(_select(
            custom_id=ids.make("over", table.id, table.version), placeholder=t("hand-over", lang),
            options=[discord.SelectOption(label=f"{i + 1}. {table.seats[i].name}"[:100],
                                          value=str(i)) for i in people], row=0))
    view.add_item(level_select(table, lang, 1))
    view.add_item(_button(t("cancel", lang), ids.make("cancel", table.id, table.version),
                          discord.ButtonStyle.danger, 2))
    return Payload(f"**{t('manage-title', lang)}**", None, view)


# -- a player's hand ------------------------------------------------------------------------
def _cards_text(codes: list[str]) -> str:
    return " ".join(pretty(parse_card(c)) for c in codes)


def hand_payload(table: Table, seat: int, lang: str, group_page: tuple[int, int] = (0, 0),
                 note: str = "", dm: bool = False, guild: str = "", channel: str = "",
                 four_colour: bool = False) -> Payload:
    """A seat's private hand with controls built from its legal actions only."""
    state = table.state
    assert state is not None
    rules = table.rules
    mine = state.view(seat)
    hand = list(mine["hand"])
    name = game_name(table, lang)
    lines = []
    if note:
        lines.append(note)
    if dm:
        lines.append(t("dm-where", lang, game=name, guild=guild, channel=channel))
    lines.append(t("your-hand", lang, game=name, seat=seat + 1, cards=_cards_text(hand))
                 if hand else t("your-hand-empty", lang, game=name, seat=seat + 1))
    legal = state.legal_actions(seat) if table.status not in (FINISHED, CANCELLED) else []
    if legal and seat not in state.to_act:
        lines.append(t("hand-out-of-turn", lang))
    else:
        lines.append(t("choose", lang) if legal else t("not-your-turn-hand", lang))
    embed = discord.Embed(description=rules.view_text(mine, lang)[:4000])
    view = StaticView()
    groups: dict[str, list[int]] = {}
    for index, action in enumerate(legal):
        groups.setdefault(action.kind, []).append(index)
    rows_used = 0
    nav: list[TableButton] = []
    for number, (kind, members) in enumerate(groups.items()):
        if rows_used >= ROWS:
            break
        actions = [legal[i] for i in members]
        multi = any(len(a.cards) > 1 for a in actions)
        no_cards = all(not a.cards for a in actions)
        if len(actions) <= 5 and (no_cards or (len(actions) <= 3 and not multi)):
            for i in members:
                view.add_item(_button(rules.action_text(legal[i], lang),
                                      ids.make("act", table.id, table.version, i),
                                      discord.ButtonStyle.primary, rows_used))
            rows_used += 1
        elif not multi or len(actions) <= PAGE:
            pages = -(-len(members) // PAGE)
            page = group_page[1] % pages if group_page[0] == number else 0
            shown = members[page * PAGE:(page + 1) * PAGE]
            view.add_item(_select(
                custom_id=ids.make("pick", table.id, table.version, f"{number}.{page}"),
                placeholder=rules.action_text(legal[shown[0]], lang)[:150] if len(
                    shown) == 1 else t("choose", lang),
                options=[discord.SelectOption(label=rules.action_text(legal[i], lang)[:100],
                                              value=str(i)) for i in shown],
                row=rows_used))
            rows_used += 1
            if pages > 1:
                first = page * PAGE + 1
                where = t("page", lang, first=first, last=first + len(shown) - 1,
                          total=len(members))
                nav.append(_button(
                    f"{t('more', lang)} ({where})",
                    ids.make("page", table.id, table.version, f"{number}.{page + 1}")))
        else:
            cards = list(dict.fromkeys(c for a in actions for c in a.cards))[:PAGE]
            low = min(len(a.cards) for a in actions)
            high = min(max(len(a.cards) for a in actions), len(cards))
            view.add_item(_select(
                custom_id=ids.make("set", table.id, table.version, kind[:60]),
                placeholder=t("pick-cards", lang, move=move_word(kind, lang))[:150],
                min_values=min(low, len(cards)), max_values=max(1, high),
                options=[discord.SelectOption(label=pretty(c), value=str(c)) for c in cards],
                row=rows_used))
            rows_used += 1
    if nav and rows_used < ROWS:
        for button in nav[:5]:
            button.row = rows_used
            view.add_item(button)
    picture = Picture("hand", mine.to_dict(), ("hand", table.id, table.version, seat,
                                               four_colour),
                      playable=frozenset(playable_cards(str(a) for a in legal)),
                      title=f"{name} · {seat + 1}", four_colour=four_colour,
                      alt=hand_alt(mine.to_dict(), playable_cards(str(a) for a in legal), lang))
    return Payload("\n".join(lines)[:2000], embed, view, picture=picture)


def confirm_payload(table: Table, seat: int, lang: str, index: int, action: Action) -> Payload:
    """A confirm step for a costly move: Confirm or Back."""
    view = StaticView()
    view.add_item(_button(t("confirm", lang), ids.make("act", table.id, table.version, index),
                          discord.ButtonStyle.success, 0))
    view.add_item(_button(t("back", lang), ids.make("view", table.id, table.version),
                          discord.ButtonStyle.secondary, 0))
    text = t("confirm-move", lang, move=table.rules.action_text(action, lang))
    return Payload(text, None, view)
