"""The Spar family: one test per Decision of the rule book's "Edge cases (Decisions)", each on
a stacked deck."""

from __future__ import annotations

import random

import pytest

from games.spar import VARIANTS, pack_of
from tests.games.test_spar import RULES, new


def test_decision_agram_is_a_game_of_deals_and_targets_are_project_defaults() -> None:
    # "Agram is played as a game of `deals` deals (default 5) for the table, where the
    # originals treat one deal as the game; the points members' `target` defaults are project
    # choices."
    state = new(3, 0, {}, variant="agram")
    assert state.view(None)["deals"] == 5 and state.view(None)["target"] is None
    rng = random.Random(4)
    while not state.over:
        assert state.deal_number <= 5
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert state.deal_number == 5 and sum(state.scores()) == 5  # one point per deal won
    assert state.outcome is not None and state.scores() == [
        float(x) for x in state.view(None)["deals_won"]]
    for variant, target in {"spar": 30, "benin": 24, "sipa": 10, "fapfap": 10}.items():
        assert new(4, 0, {}, variant=variant).view(0)["target"] == target


@pytest.mark.parametrize(("variant", "most"),
                         [("benin", 6), ("sipa", 6), ("agram-mali", 6), ("agram", 5)])
def test_decision_player_counts_are_capped_by_the_pack(variant: str, most: int) -> None:
    # "player counts are capped by the pack: Benin, Sipa and Agram (Mali) at 6 players,
    # Agram at 5 (it deals 6 cards each from 32)."
    state = new(most, 0, {}, variant=variant)
    size = sum(VARIANTS[variant].packets)
    assert state.view(None)["hand_counts"] == [size] * most
    deck = [str(c) for c in pack_of(VARIANTS[variant])]
    with pytest.raises(ValueError, match="variant"):
        RULES.new_game(most + 1, seed=1, options={"variant": variant}, deck=deck)


def test_decision_player_counts_sink_sink_is_not_capped_below_seven() -> None:
    # The cap is the pack's: Sink-Sink deals 5 cards each from 35, so 7 players still fit.
    state = new(7, 0, {}, variant="sink-sink")
    assert state.view(None)["hand_counts"] == [5] * 7
