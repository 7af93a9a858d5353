"""One hand order everywhere: for every game the panel's hand line, the hand picture (the order
the renderer draws) and the terminal show a hand the same way, the game's hand order
(``Rules.hand_key``), and that order is the game's own rank order within a suit."""

from __future__ import annotations

import random
from typing import Any

import pytest

import bot.pictures
import games
from bot.pictures import hand_png
from bot.tables import results
from bot.tables.model import PLAYING, Seat, Table
from bot.tables.position import position_of
from cogs.panel_views import hand_payload
from games import cli, spar
from games.cards import Card, parse, show
from games.core import State, View

#: each game's ranks from high to low where a suit is read (the rule books' orders)
NATURAL = "AKQJT98765432"
RANKS = {"twenty-two": NATURAL, "bhabhi": NATURAL, "finesse": NATURAL, "1234": "KQJT98765432A",
         "bear": NATURAL}
#: Sugekari counts numbers, suits never matter: 10 down to A (1), then J −1, Q −2, K −3
SUGEKARI = "T98765432AJQK"
#: the suits from left to right, colours alternating, a trump suit first
SUIT_LAYOUT = {None: "SHCD", "S": "SHCD", "H": "HSDC", "D": "DSHC", "C": "CHSD"}


def positions(gid: str) -> list[tuple[State, int]]:
    """Some positions of a game (its start and later, trumps chosen where a game has them),
    each with a seat that holds cards."""
    rules = games.get(gid)
    found: list[tuple[State, int]] = []
    for seed in (1, 2):
        state = rules.new_game(rules.usual_players, seed=seed)
        rng = random.Random(seed)
        for step in range(60):
            if state.over:
                break
            if step % 15 == 0:
                holding = [s for s in range(state.players) if state.view(s)["hand"]]
                seat = next((s for s in state.to_act if s in holding),
                            holding[0] if holding else None)
                if seat is not None:
                    found.append((state.clone(), seat))
            mover = state.to_act[0]
            state.apply(mover, rng.choice(state.legal_actions(mover)))
    assert found, gid
    return found


def controls(view: Any) -> list[str]:
    """The labels of a panel's buttons and menu options, in the order they are shown."""
    found: list[str] = []
    for item in view.children:
        item = getattr(item, "item", item)  # a table's items wrap discord.py's
        if getattr(item, "options", None):
            found += [option.label for option in item.options]
        elif getattr(item, "label", None):
            found.append(item.label)
    return found


def rank_order(gid: str, view: View) -> str:
    if gid == "spar":
        ranks = spar.VARIANTS[view["variant"]].ranks
        return "".join(NATURAL[14 - r] for r in reversed(ranks))
    return SUGEKARI if gid == "sugekari-21" else RANKS[gid]


def check_rank_order(gid: str, view: View, hand: list[Card]) -> None:
    """Within each suit the cards run high to low in the game's own rank order; suits sit
    together with colours alternating where they can (not in 22 and Sugekari, whose suits never
    matter: there the cards run high to low whatever their suits)."""
    order = rank_order(gid, view)
    trumps = set(view.get("trump_order") or ())
    plain = [c for c in hand if str(c) not in trumps]
    assert [str(c) for c in hand[:len(hand) - len(plain)]] == [
        t for t in view.get("trump_order") or () if t in {str(c) for c in hand}], "trumps first"
    if gid in ("twenty-two", "sugekari-21"):
        places = [order.index(str(c)[0]) for c in plain]
        assert places == sorted(places), hand
        return
    for suit in "SHDC":
        places = [order.index(str(c)[0]) for c in plain if c.suit == suit]
        assert places == sorted(places), (suit, hand)
    suits = list(dict.fromkeys(c.suit for c in plain))
    assert len(suits) == len({c.suit for c in plain}), f"each suit together: {hand}"
    trump_suit = view.get("trumps")
    layout = SUIT_LAYOUT.get(trump_suit if trump_suit in SUIT_LAYOUT else None)
    assert suits == [s for s in layout if s in suits], f"suits {layout}: {hand}"


@pytest.mark.parametrize("gid", games.ids())
async def test_the_panel_the_picture_and_the_terminal_show_one_order(
        gid: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = games.get(gid)
    drawn: list[list[str]] = []
    draw = bot.pictures.hand_picture

    def recording(codes: list[str], *args: Any) -> Any:
        drawn.append(list(codes))
        return draw(codes, *args)

    monkeypatch.setattr(bot.pictures, "hand_picture", recording)
    for state, seat in positions(gid):
        view = state.view(seat)
        expected = rules.sorted_hand(view)
        assert sorted(expected) == sorted(parse(c) for c in view["hand"])
        check_rank_order(gid, view, expected)
        seats = [Seat(10 + s, f"P{s + 1}") for s in range(state.players)]
        table = Table(1, 1, 1, rules, 10, PLAYING, seats, {}, 1, "off", state=state)
        for lang in ("en", "ja"):
            shown = show(expected, lang)
            panel = hand_payload(position_of(table, seat), lang)
            assert panel.content.splitlines()[0].endswith(shown), panel.content
            assert panel.picture is not None
            drawn.clear()
            hand_png(panel.picture.view, set(panel.picture.playable))
            assert drawn == [[str(c) for c in expected]]
            assert shown in rules.view_text(view, lang), "the terminal's table text"
            # the panel offers each kind's single-card moves in the hand order too
            for kind in {a.kind for a in state.legal_actions(seat)}:
                singles = sorted((a for a in state.legal_actions(seat)
                                  if len(a.cards) == 1 and a.kind == kind),
                                 key=lambda a: rules.hand_key(view)(a.cards[0]))
                wanted = [rules.action_text(a, lang) for a in singles]
                offered = [label for label in controls(panel.view) if label in set(wanted)]
                if len(set(wanted)) == len(wanted) and offered:
                    assert offered == [w for w in wanted if w in set(offered)], (kind, offered)
        # the terminal's menu offers single cards in the hand order too
        legal = state.legal_actions(seat)
        menu = cli.menu(rules, legal, view, "en")
        for kind in {a.kind for a in legal}:
            played = [e.action.cards[0] for e in menu if e.action is not None
                      and e.action.kind == kind and len(e.action.cards) == 1]
            assert played == sorted(played, key=rules.hand_key(view)), (kind, played)


def test_the_positions_include_trumps_where_a_game_has_them() -> None:
    for gid in ("finesse", "bear"):
        assert any(state.view(seat).get("trumps") not in (None, "NT")
                   for state, seat in positions(gid)), gid


def test_a_result_shows_a_hand_in_the_hand_order() -> None:
    rules = games.get("1234")
    state = rules.new_game(3, seed=4)
    rng = random.Random(4)
    while not state.breakdown():
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    hands = [e.cards for e in state.breakdown()[0].find("hand") if len(e.cards) > 1]
    assert hands
    for cards in hands:
        assert list(cards) == sorted(cards, key=rules.hand_key(View({})))
        line = results.tally_lines(rules, state.breakdown()[0], ["A", "B", "C"], "en")
        assert any(show(cards) in text for text in line)
