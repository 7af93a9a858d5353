"""What the search player infers from the others' plays (games/ai/beliefs.py)."""

from __future__ import annotations

import random
from typing import Any

import games
from games.ai import get_player, observe
from games.ai.beliefs import bhabhi_belief, bhabhi_forbidden, spar_belief, spar_forbidden
from games.core import State
from tests.games.test_bhabhi import game as getaway
from tests.games.test_spar import new


def names(cards: Any) -> set[str]:
    return {str(c) for c in cards}


def test_spar_inferences_never_rule_out_a_basic_players_real_hand() -> None:
    rules = games.get("spar")
    basic = get_player("normal", "spar")
    checked = ruled_out = 0
    for seed in range(40):
        state = rules.new_game(4, seed=seed)
        rng = random.Random(seed)
        while not state.over and state.deal_number <= 2:
            seat = state.to_act[0]
            obs = observe(state, seat)
            forbidden = spar_forbidden(obs.sample(random.Random(0)), seat)
            for other, cards in forbidden.items():
                assert not set(state.hands[other]) & cards  # type: ignore[attr-defined]
                checked += 1
                ruled_out += len(cards)
            state.apply(seat, basic.choose(obs, rng))
    # the inferences are not empty: about a third of the pack is ruled out per seat
    assert checked > 1000 and ruled_out / checked > 5


def test_an_early_lead_rules_out_the_cheaper_cards_but_not_the_sixes_and_sevens() -> None:
    state = new(4, 3, {0: "TH AC KC QC JC"})
    state.apply(0, "play:TH")
    forbidden = spar_forbidden(state.determinize(1, random.Random(1)), 1)
    assert names(forbidden[0]) == {"9S", "9H", "9D", "9C", "8S", "8H", "8D", "8C"}
    assert forbidden[2] == frozenset() and forbidden[3] == frozenset()
    assert 1 not in forbidden


def test_plays_through_a_deal_rule_out_what_a_basic_player_would_have_played_instead() -> None:
    state = new(4, 3, {0: "8S 9H 9D 7C KC", 1: "TS TH TD 9C QC", 2: "JS JH JD TC JC",
                       3: "KS KH KD AC AH"})
    for cards in (("8S", "TS", "JS", "KS"), ("KH", "9H", "TH", "JH"),
                  ("KD", "9D", "TD", "JD")):
        for code in cards:
            state.apply(state.to_act[0], f"play:{code}")
    assert state.trick_number == 4 and state.to_act == (3,)
    state.apply(3, "play:AC")  # the second-to-last lead: the highest card
    state.apply(0, "play:KC")  # cannot beat the ace: the cheapest club that is not a 6 or 7
    forbidden = spar_forbidden(state.determinize(1, random.Random(1)), 1)
    # seat 0 keeps its 7 of clubs for the last trick: no cheaper club but a 6 or 7, and no
    # heart or diamond under the 9s it followed with
    assert names(forbidden[0]) == {"QC", "JC", "TC", "9C", "8C", "8H", "8D"}
    # seat 3 led kings early: it holds no cheaper card that is not a 6 or 7
    assert names(forbidden[3]) == {f"{r}{s}" for r in "QJT98" for s in "SHDC"}


def test_a_seat_that_breaks_the_rules_gets_no_inference() -> None:
    state = new(4, 3, {0: "TH 9C KC QC JC", 1: "AH 6H 7H 8H 9H", 2: "KH QH JH KS QS",
                       3: "AD KD QD JD TD"})
    state.apply(0, "play:TH")  # a basic player would have led the 9 of clubs
    forbidden = spar_forbidden(state.determinize(1, random.Random(1)), 1)
    assert "9C" in names(forbidden[0])  # what the lead alone suggests
    for code in ("AH", "KH", "AD"):
        state.apply(state.to_act[0], f"play:{code}")
    state.apply(1, "play:6H")
    state.apply(2, "play:QH")
    state.apply(3, "play:KD")
    state.apply(0, "play:9C")  # the 9 it should have led: seat 0 does not play by the rules
    forbidden = spar_forbidden(state.determinize(1, random.Random(1)), 1)
    assert forbidden[0] == frozenset()


def test_refined_samples_keep_the_hidden_cards_and_obey_the_inferences() -> None:
    rules = games.get("spar")
    basic = get_player("normal", "spar")
    rng = random.Random(7)
    refined = 0
    for seed in range(20):
        state: State = rules.new_game(4, seed=seed)
        while not state.over and state.deal_number == 1:
            seat = state.to_act[0]
            obs = observe(state, seat)
            refine = spar_belief(obs)
            if refine is not None:
                base: Any = obs.sample(random.Random(0))
                forbidden = spar_forbidden(base, seat)
                for _ in range(5):
                    plain: Any = obs.sample(rng)
                    hidden = sorted(c for x in range(4) if x != seat for c in plain.hands[x])
                    hidden += sorted(plain.stock)
                    sample: Any = refine(plain, rng)
                    now = sorted(c for x in range(4) if x != seat for c in sample.hands[x])
                    assert sorted(now + sorted(sample.stock)) == sorted(hidden)
                    for x in range(4):
                        assert len(sample.hands[x]) == len(state.hands[x])  # type: ignore[attr-defined]
                        if x != seat:
                            assert not set(sample.hands[x]) & forbidden[x]
                            assert not {c.suit for c in sample.hands[x]} & sample.voids[x]
                    assert sample.hands[seat] == state.hands[seat]  # type: ignore[attr-defined]
                    refined += 1
            state.apply(seat, basic.choose(obs, rng))
    assert refined > 50


# -- Getaway ---------------------------------------------------------------------------------

def unseen(state: Any, seat: int) -> set[Any]:
    """The cards of a hand that were never shown (not picked up from the table)."""
    return set(state.hands[seat]) - set(state.known[seat])


def test_getaway_inferences_never_rule_out_a_basic_players_unseen_cards() -> None:
    rules = games.get("bhabhi")
    basic = get_player("normal", "bhabhi")
    checked = ruled_out = 0
    for seed in range(12):
        state: Any = rules.new_game(4, seed=seed)
        rng = random.Random(seed)
        while not state.over:
            seat = state.to_act[0]
            obs = observe(state, seat)
            forbidden = bhabhi_forbidden(obs.sample(random.Random(0)), seat)
            for other, cards in forbidden.items():
                assert not unseen(state, other) & cards
                checked += 1
                ruled_out += len(cards)
            state.apply(seat, basic.choose(obs, rng))
    assert checked > 1000 and ruled_out / checked > 10


GETAWAY_HANDS = {0: "AS 3S", 1: "9S 2S QS",
                 2: "KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D QH JH TH 9H 8H"}


def test_getaway_follows_and_sheds_rule_out_what_the_basic_player_would_have_played() -> None:
    state = getaway(3, 0, GETAWAY_HANDS)
    state.apply(0, "play:AS")
    state.apply(1, "play:9S")  # under the ace: no spade between the 9 and the ace
    state.apply(2, "play:KD")  # no spade: it sheds its highest card
    assert state.hands[0] and "AS" in names(state.known[0])  # seat 0 picked up the round
    forbidden = bhabhi_forbidden(state.determinize(0, random.Random(1)), 0)
    assert names(forbidden[1]) == {"TS", "JS", "QS", "KS"}
    assert names(forbidden[2]) == {"AS", "AH", "AD", "AC", "KS", "KH"}


def test_a_getaway_seat_that_breaks_the_rules_gets_no_inference() -> None:
    state = getaway(3, 0, GETAWAY_HANDS)
    for seat, code in ((0, "AS"), (1, "9S"), (2, "KD"), (0, "3S")):
        state.apply(seat, f"play:{code}")
    state.apply(1, "play:QS")  # a queen it could have played under the ace
    forbidden = bhabhi_forbidden(state.determinize(0, random.Random(1)), 0)
    assert forbidden[1] == frozenset()
    assert names(forbidden[2]) == {"AS", "AH", "AD", "AC", "KS", "KH"}


def test_refined_getaway_samples_keep_the_seen_cards_and_obey_the_inferences() -> None:
    rules = games.get("bhabhi")
    basic = get_player("normal", "bhabhi")
    rng = random.Random(5)
    refined = obeyed = 0
    for seed in range(6):
        state: Any = rules.new_game(4, seed=seed)
        while not state.over:
            seat = state.to_act[0]
            obs = observe(state, seat)
            refine = bhabhi_belief(obs)
            if refine is not None:
                forbidden = bhabhi_forbidden(obs.sample(random.Random(0)), seat)
                plain: Any = obs.sample(rng)
                hidden = sorted(c for x in range(4) if x != seat for c in unseen(plain, x))
                sample: Any = refine(plain, rng)
                assert sorted(c for x in range(4) if x != seat
                              for c in unseen(sample, x)) == hidden
                for x in range(4):
                    assert len(sample.hands[x]) == len(state.hands[x])
                    assert set(state.known[x]) <= set(sample.hands[x])
                assert sample.hands[seat] == state.hands[seat]
                refined += 1
                obeyed += all(not unseen(sample, x) & forbidden[x] for x in forbidden)
            state.apply(seat, basic.choose(obs, rng))
    # a few samples cannot be re-dealt within the tries and stay as determinize made them
    assert refined > 100 and obeyed / refined > 0.9
