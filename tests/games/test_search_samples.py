"""A search's sampled copy of a game (``stop_at_deal_end``) ends a deal exactly as the game
does, without dealing the next deal nobody looks at."""

from __future__ import annotations

import random

import pytest

import games

#: games whose deals end with the next one dealt (1234 is tested with its own rules)
DEALING = ["spar", "twenty-two", "finesse", "bear"]


@pytest.mark.parametrize("game_id", DEALING)
def test_a_sample_counts_the_deal_as_the_game_does_without_the_next_deal(game_id: str) -> None:
    rules = games.get(game_id)
    ended = 0
    for seed in range(12):
        state = rules.new_game(rules.usual_players, seed=seed)
        sample = state.clone()
        sample.stop_at_deal_end = True
        full, short = random.Random(seed), random.Random(seed)
        while state.deal_number == 1 and not state.over:
            seat = state.to_act[0]
            action = state.random_action(seat, full)
            assert sample.random_action(seat, short) == action  # the same position so far
            state.apply(seat, action)
            sample.apply(seat, action)
        assert sample.deal_number == state.deal_number
        assert sample.scores() == state.scores() and sample.over == state.over
        assert sample.outcome == state.outcome
        if not state.over:
            ended += 1
            # the full game dealt the next hands; the sample did not
            assert state.hands != sample.hands  # type: ignore[attr-defined]
            # and recorded no explanation of the deal: nobody reads a sample's
            assert len(state.tallies) == 1 and sample.tallies == ()
    assert ended > 0


@pytest.mark.parametrize("game_id", ["bear", "bhabhi", "sugekari-21"])
def test_a_copy_draws_what_the_original_draws_and_apart_from_it(game_id: str) -> None:
    rules = games.get(game_id)
    state = rules.new_game(rules.usual_players, seed=5)
    state.rng.random()
    copy = state.clone()
    assert copy.rng is not state.rng
    ahead = [copy.rng.random() for _ in range(5)]
    assert [state.rng.random() for _ in range(5)] == ahead
    # a sample's generator is fresh: drawn from the search's rng, not the real one's
    sample = state.determinize(state.to_act[0], random.Random(9))
    again = state.determinize(state.to_act[0], random.Random(9))
    assert sample.rng is not state.rng and sample.rng.random() == again.rng.random()
    assert sample.rng.getstate() != state.rng.getstate()
