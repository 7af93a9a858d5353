"""The analysis of one seat's moves (games/ai/analysis.py): from the seat's view only, the
hard player's choice as the best move, values in range, sharp paired differences."""

from __future__ import annotations

import random

import pytest

import games
from games.ai import Observation, observe
from games.ai.analysis import Analysis, ViewOnlyRandom, analyse, compare, view_only
from games.ai.playouts import hooks_for
from games.ai.search import SearchPlayer
from games.core import State

GAMES = games.ids()
ITERATIONS = 60


def positions(gid: str, count: int = 2, seed: int = 7) -> list[State]:
    """A few positions of a random game with a real choice for the seat to move."""
    rules = games.get(gid)
    state = rules.new_game(rules.usual_players, seed=seed)
    rng = random.Random(seed)
    found: list[State] = []
    while not state.over and len(found) < count:
        seat = state.to_act[0]
        if len(state.legal_actions(seat)) > 1 and rng.random() < 0.3:
            found.append(state.clone())
        to_act = state.to_act
        mover = to_act[0] if len(to_act) == 1 else rng.choice(to_act)
        state.apply(mover, state.random_action(mover, rng))
    assert found, f"no position with a choice in {gid}"
    return found


def summary(analysis: Analysis) -> list[tuple[str, float, float, int]]:
    return [(str(m.action), m.value, m.error, m.playouts) for m in analysis.moves]


@pytest.mark.parametrize("gid", GAMES)
def test_same_view_same_analysis(gid: str) -> None:
    """Two states that differ only in hidden cards (the second re-dealt from the first seat's
    view) give the same best move and the same values for the same seed."""
    for index, state in enumerate(positions(gid)):
        seat = state.to_act[0]
        other = state.determinize(seat, random.Random(100 + index))
        hidden = [s for s in range(state.players) if s != seat]
        assert other.view(seat) == state.view(seat)
        first = analyse(observe(state, seat), random.Random(5), iterations=ITERATIONS)
        second = analyse(observe(other, seat), random.Random(5), iterations=ITERATIONS)
        assert first.best == second.best
        assert summary(first) == summary(second)
        assert first.detail == second.detail
        # the re-deal really moved hidden cards (else the test proves nothing)
        if any(state.view(s) != other.view(s) for s in hidden):
            continue
        pytest.fail(f"{gid}: the re-deal changed no hidden card")


@pytest.mark.parametrize("gid", GAMES)
def test_best_is_the_hard_players_choice_and_values_in_range(gid: str) -> None:
    for state in positions(gid):
        seat = state.to_act[0]
        obs = observe(state, seat)
        result = analyse(obs, random.Random(3), iterations=ITERATIONS)
        player = hooks_player(gid)
        assert result.best == player.choose(view_only(obs), random.Random(3))
        assert result.best in obs.legal
        assert result.moves[0].action == result.best
        assert result.seat == seat
        actions = [m.action for m in result.moves]
        assert len(actions) == len(set(actions))
        assert set(actions) <= set(obs.legal)
        assert len(actions) == min(len(obs.legal), 12)
        assert all(0.0 <= m.value <= 1.0 and m.error >= 0.0 for m in result.moves)
        assert [m.value for m in result.moves[1:]] == sorted(
            (m.value for m in result.moves[1:]), reverse=True)
        assert result.samples > 0 and result.playouts >= result.moves[0].playouts > 0
        detail = result.detail
        assert detail.trick is None or 0.0 <= detail.trick <= 1.0
        assert detail.goal is None or 0.0 <= detail.goal <= 1.0
        # the same seed, the same analysis
        again = analyse(obs, random.Random(3), iterations=ITERATIONS)
        assert summary(again) == summary(result)


def hooks_player(gid: str) -> SearchPlayer:
    from games.ai import get_player

    player = get_player("hard", gid)
    assert isinstance(player, SearchPlayer)
    player.iterations = ITERATIONS
    assert hooks_for(gid).judge is player.judge
    return player


def test_forced_move() -> None:
    rules = games.get("spar")
    state = rules.new_game(2, seed=1)
    rng = random.Random(1)
    while not state.over:
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            break
        state.apply(seat, rng.choice(legal))
    obs = observe(state, seat)
    assert len(obs.legal) == 1
    result = analyse(obs, random.Random(0), iterations=ITERATIONS)
    assert result.best == obs.legal[0]
    assert [m.action for m in result.moves] == [obs.legal[0]]
    assert result.moves[0].playouts > 0


def test_compare_is_paired_and_antisymmetric() -> None:
    state = positions("spar", count=1)[0]
    obs = observe(state, state.to_act[0])
    a, b = obs.legal[0], obs.legal[1]
    diff, error = compare(obs, a, b, random.Random(9), iterations=40)
    back, back_error = compare(obs, b, a, random.Random(9), iterations=40)
    assert diff == pytest.approx(-back)
    assert error == pytest.approx(back_error) and error >= 0.0
    assert compare(obs, a, a, random.Random(9), iterations=40) == (0.0, 0.0)
    with pytest.raises(ValueError):
        compare(obs, a, obs.legal[0]._replace(kind="nonsense"), random.Random(9))


def test_moves_limit_what_is_measured() -> None:
    state = positions("spar", count=1)[0]
    obs = observe(state, state.to_act[0])
    result = analyse(obs, random.Random(2), iterations=40, moves=[obs.legal[-1]])
    assert {m.action for m in result.moves} == {result.best, obs.legal[-1]}


def test_view_only_random_ignores_the_order_shuffled() -> None:
    one, two = [3, 1, 2, 5, 4], [5, 4, 3, 2, 1]
    ViewOnlyRandom(4).shuffle(one)
    ViewOnlyRandom(4).shuffle(two)
    assert one == two and sorted(one) == [1, 2, 3, 4, 5]


def test_timed_analysis_keeps_its_budget() -> None:
    import time

    state = positions("finesse", count=1)[0]
    obs: Observation = observe(state, state.to_act[0])
    started = time.perf_counter()
    result = analyse(obs, random.Random(1), budget=0.2)
    assert time.perf_counter() - started < 0.6
    assert result.best in obs.legal
