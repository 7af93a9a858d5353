"""A player's private panel: their hand and the controls of the moves allowed now."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

import discord

from bot.i18n import move_word, t
from bot.names import plain
from bot.pictures import hand_alt
from bot.tables import CANCELLED, FINISHED, Position
from cogs import ids
from cogs.controls import (
    PAGE,
    ROWS,
    Button,
    Payload,
    Picture,
    StaticView,
    button_item,
    game_name,
    select_menu,
)
from games.cards import parse as parse_card
from games.cards import pretty, show_codes
from games.core import Action


def hand_payload(position: Position, lang: str, group_page: tuple[int, int] = (0, 0),
                 note: str = "", dm: bool = False, guild: str = "", channel: str = "",
                 four_colour: bool = False, recent: tuple[str, ...] = (),
                 keep: bool = False, part: tuple[int, str] | None = None) -> Payload:
    """A seat's private hand (``position``: the seat's) with controls built from its legal
    moves only; ``recent``:
    what happened last at the table (public lines), ``keep``: a Keep following button (a live
    panel whose token runs out soon), ``part``: the first part chosen of a move with parts
    (its group's number and the part)."""
    seat, mine = position.seat, position.own_view
    assert seat is not None and mine is not None
    rules = position.rules
    hand = [str(c) for c in rules.sorted_hand(mine)]  # the hand order, as in the picture
    name = game_name(position, lang)
    lines = []
    if note:
        lines.append(note)
    if dm:
        lines.append(t("dm-where", lang, game=name, guild=guild, channel=channel))
    lines.append(t("your-hand", lang, game=name, seat=seat + 1, cards=show_codes(hand, lang))
                 if hand else t("your-hand-empty", lang, game=name, seat=seat + 1))
    over = position.status in (FINISHED, CANCELLED) or position.over
    legal = [] if over else [move.action for move in position.moves]
    if recent:
        lines.append(t("panel-recent", lang, news=" · ".join(recent)))
    if legal and seat not in position.to_act:
        lines.append(t("hand-out-of-turn", lang))
    elif legal:
        lines.append(t("choose", lang))
    elif over:
        lines.append(t("panel-over", lang))
    else:
        lines.append(t("panel-waiting", lang, who=", ".join(
            plain(position.seats[s].name) for s in position.to_act)))
    embed = discord.Embed(description=rules.view_text(mine, lang)[:4000])
    view = StaticView()
    hints = bool(legal and position.hints and seat in position.to_act)  # a Hint button
    groups: dict[str, list[int]] = {}
    for index, action in enumerate(legal):
        groups.setdefault(action.kind, []).append(index)
    order = rules.hand_key(mine)  # a kind's card moves in the hand order, as the hand line
    for members in groups.values():
        members.sort(key=lambda i: [order(c) for c in legal[i].cards])
    rows_used = 0
    nav: list[Button] = []
    for number, (kind, members) in enumerate(groups.items()):
        if rows_used >= ROWS:
            break
        actions = [legal[i] for i in members]
        multi = any(len(a.cards) > 1 for a in actions)
        no_cards = all(not a.cards for a in actions)
        if multi and _by_cards(actions):
            # an exchange or a set of cards: chosen by its cards (one card: one click)
            rows_used = _card_sets(view, position, lang, number, kind, legal, members,
                                   rows_used, [str(c) for c in hand])
        elif len(actions) <= 5 and (no_cards or (len(actions) <= 3 and not multi)):
            for i in members:
                view.add_item(button_item(
                    rules.action_text(legal[i], lang),
                    ids.make("act", position.table_id, position.version, i),
                    discord.ButtonStyle.primary, rows_used))
            rows_used += 1
        elif no_cards and len(actions) > PAGE and _parts(actions):
            # a move with parts (Bear's bid: an amount, then a game): chosen part by part
            firsts = _parts(actions)
            chosen = part[1] if part is not None and part[0] == number else None
            view.add_item(select_menu(
                custom_id=ids.make("part", position.table_id, position.version, number),
                placeholder=t("part-first", lang)[:150],
                options=[discord.SelectOption(label=first[:100], value=first,
                                              default=first == chosen) for first in firsts],
                row=rows_used))
            rows_used += 1
            shown = [i for i in members if str(legal[i].arg).split("-", 1)[0] == chosen]
            if shown and rows_used < ROWS:
                rows_used = _picks(view, position, lang, number, legal, shown, rows_used, 1)
        else:
            # one menu a row, as many rows as fit; a "More" page only past that
            pages = -(-len(members) // PAGE)
            fit = max(1, min(pages, ROWS - rows_used - (1 if keep or hints else 0)))
            if fit >= pages:
                rows_used = _picks(view, position, lang, number, legal, members, rows_used, fit)
                continue
            page = group_page[1] % pages if group_page[0] == number else 0
            shown = members[page * PAGE:(page + 1) * PAGE]
            rows_used = _picks(view, position, lang, number, legal, shown, rows_used, 1, page)
            first = page * PAGE + 1
            where = t("page", lang, first=first, last=first + len(shown) - 1,
                      total=len(members))
            nav.append(button_item(
                f"{t('more', lang)} ({where})",
                ids.make("page", position.table_id, position.version,
                         f"{number}.{page + 1}")))
    if hints:  # the table allows hints (bot.tables.hints)
        nav.append(button_item(t("hint", lang),
                               ids.make("hint", position.table_id, position.version)))
    if keep:
        nav.append(button_item(t("panel-keep", lang),
                               ids.make("view", position.table_id, position.version),
                               discord.ButtonStyle.success))
    if nav and rows_used < ROWS:
        for button in nav[:5]:
            button.row = rows_used
            view.add_item(button)
    snapshot = position.own  # shared by the position's snapshots, and nobody changes a view
    assert snapshot is not None
    # the cards some move names (the text form's cards: bot.pictures.playable_cards)
    playable = {str(c) for action in legal for c in action.cards}
    picture = Picture("hand", snapshot,
                      ("hand", position.table_id, position.version, seat, four_colour),
                      playable=frozenset(playable), title=f"{name} · {seat + 1}",
                      four_colour=four_colour, alt_of=partial(hand_alt, snapshot, playable, lang))
    return Payload("\n".join(lines)[:2000], embed, view, picture=picture, v2=True)


def _picks(view: StaticView, position: Position, lang: str, number: int, legal: list[Action],
           members: list[int], row: int, menus: int, page: int = 0,
           placeholder: str = "") -> int:
    """Menus of whole moves, ``PAGE`` a menu and one menu a row (``menus`` of them at most),
    numbered from ``page``; the next free row."""
    rules = position.rules
    for k in range(menus):
        shown = members[k * PAGE:(k + 1) * PAGE]
        if not shown or row >= ROWS:
            break
        view.add_item(select_menu(
            custom_id=ids.make("pick", position.table_id, position.version, f"{number}.{page + k}"),
            placeholder=rules.action_text(legal[shown[0]], lang)[:150] if len(
                shown) == 1 else (placeholder or t("choose", lang))[:150],
            options=[discord.SelectOption(label=rules.action_text(legal[i], lang)[:100],
                                          value=str(i)) for i in shown],
            row=row))
        row += 1
    return row


def _by_cards(actions: list[Action]) -> bool:
    """Whether each move of a group is told apart by its cards alone (then a set of cards
    names one move)."""
    sets = [set_key(str(c) for c in a.cards) for a in actions]
    return len(set(sets)) == len(sets)


def set_key(codes: Iterable[str]) -> tuple[str, ...]:
    """A set of cards in a form that compares equal whatever the order they came in."""
    return tuple(sorted(codes))


def card_values(codes: Iterable[str]) -> list[tuple[str, str]]:
    """(code, menu value) for cards in a menu: a menu's values must differ, so a second
    copy of a card (two decks) gets ``~2``."""
    seen: dict[str, int] = {}
    found = []
    for code in codes:
        seen[code] = seen.get(code, 0) + 1
        found.append((code, code if seen[code] == 1 else f"{code}~{seen[code]}"))
    return found


def value_codes(values: Iterable[str]) -> tuple[str, ...]:
    """The cards chosen in a menu of cards (the values of :func:`card_values`)."""
    return set_key(v.split("~", 1)[0] for v in values)


def _card_sets(view: StaticView, position: Position, lang: str, number: int, kind: str,
               legal: list[Action], members: list[int], row: int, hand: list[str]) -> int:
    """The controls of moves made of cards, by their cards: a button for a move with none
    (keep the hand), a menu of the single cards (one click) and a menu where several cards
    are ticked (checked against the legal moves when it closes). When rows are short the
    single cards join the menu of several. The next free row."""
    rules = position.rules
    nothing = [i for i in members if not legal[i].cards]
    singles = [i for i in members if len(legal[i].cards) == 1]
    sets = [i for i in members if len(legal[i].cards) > 1]
    needed = bool(nothing) + -(-len(singles) // PAGE) + 1
    if row + needed > ROWS:
        singles, sets = [], singles + sets
    # a move without cards is a button; so is each of a few single cards (one row)
    buttons = nothing + singles if len(nothing + singles) <= 3 else nothing[:5]
    if buttons and row < ROWS:
        for i in buttons:
            view.add_item(button_item(rules.action_text(legal[i], lang),
                                      ids.make("act", position.table_id, position.version, i),
                                      discord.ButtonStyle.primary, row))
        row += 1
        singles = [i for i in singles if i not in buttons]
    if singles:
        row = _picks(view, position, lang, number, legal, singles, row, ROWS,
                     placeholder=t("pick-single", lang, move=move_word(kind, lang)))
        if row >= ROWS:
            return row
    # the cards of the sets, in hand order (each copy once), at most a menu's worth
    counts: dict[str, int] = {}
    for i in sets:
        copies: dict[str, int] = {}
        for card in legal[i].cards:
            code = str(card)
            copies[code] = copies.get(code, 0) + 1
        for code, many in copies.items():
            if many > counts.get(code, 0):
                counts[code] = many
    cards: list[str] = []
    for code in hand + sorted(counts):
        if counts.get(code, 0) > cards.count(code):
            cards.append(code)
    cards = cards[:PAGE]
    sizes = [len(legal[i].cards) for i in sets]
    low, high = min(sizes), min(max(sizes), len(cards))
    move = move_word(kind, lang)
    placeholder = (t("pick-set", lang, move=move, count=low) if low == high
                   else t("pick-set-range", lang, move=move, low=low, high=high))
    view.add_item(select_menu(
        custom_id=ids.make("set", position.table_id, position.version, kind[:60]),
        placeholder=placeholder[:150], min_values=min(low, len(cards)), max_values=max(1, high),
        options=[discord.SelectOption(label=pretty(parse_card(code), lang), value=value)
                 for code, value in card_values(cards)],
        row=row))
    return row + 1


def _parts(actions: list[Action]) -> list[str]:
    """The first parts of moves written ``<part>-<rest>`` (Bear's bids: their amounts; a
    move without a dash, like a null bid, is a part of its own), when they fit one menu;
    else none."""
    firsts = list(dict.fromkeys(str(a.arg).split("-", 1)[0] for a in actions))
    return firsts if len(firsts) <= PAGE < len(actions) else []
