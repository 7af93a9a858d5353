"""The choosers of a player's panel, for every game, its every player count and option value,
on the largest hands the game deals: each legal move can be made from the panel's controls, a
single card with one click, a move of several cards only by ticking its cards in a
multi-select; no "More" page for a hand of up to 25 cards; Discord's limits kept."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest

from bot.tables.model import Seat, Table
from bot.tables.position import position_of
from cogs import ids
from cogs.panel_views import hand_payload, set_key, value_codes
from games import registry
from games.core import Rules

DECISIONS = 120  # per game, player count and option setting


def settings(rules: Rules) -> list[tuple[int, dict[str, Any]]]:
    """Every player count with default options, and each choice or switch of the options at
    the fewest and the most players (their values one at a time)."""
    found: list[tuple[int, dict[str, Any]]] = [(n, {}) for n in rules.player_counts()]
    for option in rules.options:
        if option.kind not in ("choice", "bool"):
            continue
        for value, players in itertools.product(option.test_values(),
                                                (rules.min_players, rules.max_players)):
            try:
                rules.validate_options(players, {option.name: value})
            except ValueError:  # a setting the game refuses at this count
                continue
            found.append((players, {option.name: value}))
    return found


def components(payload: Any) -> list[dict[str, Any]]:
    return [item.to_component_dict() for item in payload.view.children]


def check_panel(table: Table, seat: int, largest: dict[str, int]) -> None:
    """The panel of ``seat`` now: every legal move reachable the way it should be."""
    state = table.state
    assert state is not None
    legal = state.legal_actions(seat)
    hand = [str(c) for c in state.view(seat)["hand"]]
    largest[table.rules.id] = max(largest.get(table.rules.id, 0), len(hand))
    payload = hand_payload(position_of(table, seat), "en")
    found = components(payload)
    rows = payload.view.to_components()  # as sent: action rows
    assert 1 <= len(rows) <= 5 or not legal, rows
    custom = [c["custom_id"] for c in found]
    assert len(custom) == len(set(custom)), custom
    verbs = [ids.parse(c).verb for c in custom]  # type: ignore[union-attr]
    if len(hand) <= 25:
        assert "page" not in verbs, (table.rules.id, len(hand), [str(a) for a in legal])
    reached: set[int] = set()
    for item in found:
        cid = ids.parse(item["custom_id"])
        assert cid is not None
        if item["type"] == 3:
            assert 1 <= len(item["options"]) <= 25
            assert item["min_values"] <= item["max_values"] <= len(item["options"])
            values = [o["value"] for o in item["options"]]
            assert len(values) == len(set(values)), values
        if cid.verb == "act":
            reached.add(int(cid.arg))
        elif cid.verb == "pick":
            picked = [int(v) for v in values]
            assert all(len(legal[i].cards) <= 1 for i in picked), [str(legal[i]) for i in picked]
            reached.update(picked)
        elif cid.verb == "set":
            low, high = item["min_values"], item["max_values"]
            offered = Counter(value_codes(values))
            named = Counter(set_key(str(c) for c in a.cards) for a in legal
                            if a.kind == cid.arg)
            for i, a in enumerate(legal):
                codes = set_key(str(c) for c in a.cards)
                if a.kind == cid.arg and low <= len(codes) <= high \
                        and not Counter(codes) - offered:
                    assert named[codes] == 1, codes  # its cards name it and no other move
                    reached.add(i)
        elif cid.verb == "part":  # the second menu comes after the first part is chosen
            firsts = {o["value"] for o in item["options"]}
            reached.update(i for i, a in enumerate(legal)
                           if not a.cards and str(a.arg).split("-", 1)[0] in firsts)
    several = [i for i, a in enumerate(legal) if len(a.cards) > 1]
    missing = [str(legal[i]) for i in range(len(legal)) if i not in reached]
    assert not missing, (table.rules.id, missing[:5])
    # a move of several cards is never an entry of a menu of moves: only ticked card by card
    if several:
        assert "set" in verbs, [str(legal[i]) for i in several]


@pytest.mark.parametrize("game_id", registry.ids())
def test_every_move_reachable_without_a_more_page(game_id: str) -> None:
    rules = registry.get(game_id)
    largest: dict[str, int] = {}
    kinds: set[str] = set()
    for number, (players, options) in enumerate(settings(rules)):
        state = rules.new_game(players, seed=number, options=options)
        table = Table(1, 1, 1, rules, 1, "playing",
                      [Seat(i + 1, f"P{i + 1}") for i in range(players)], dict(options),
                      number, "off", state=state, version=1)
        rng = random.Random(number)
        for _ in range(DECISIONS):
            if state.over:
                break
            for seat in range(players):
                if state.legal_actions(seat):
                    check_panel(table, seat, largest)
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            kinds.update(a.kind for a in legal if len(a.cards) > 1)
            state.apply(seat, rng.choice(legal))
            table.version += 1
    print(f"\n{game_id}: largest hand {largest.get(game_id)}; moves of several cards: "
          f"{sorted(kinds) or 'none'}")
    assert largest.get(game_id, 0) > 0
