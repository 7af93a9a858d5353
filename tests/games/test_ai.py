"""The computer players: levels, and the search player's legality, secrecy, strength on an
obvious position, determinism and budgets."""

from __future__ import annotations

import dataclasses
import random
import time
from typing import Any

import pytest

import games
from games.ai import HARD_BUDGET, LEVELS, Observation, get_player, observe
from games.ai.playouts import hooks_for
from games.ai.search import SearchPlayer, deal_rewards, ranked
from games.core import Action, State

GAMES = games.ids()


def positions(gid: str, count: int = 3, seed: int = 4) -> list[State]:
    """A few positions of a random game, each with a seat that has a real choice that the
    search makes (not one the rule of thumb decides alone)."""
    rules = games.get(gid)
    decides = hooks_for(gid).prior_decides
    state = rules.new_game(rules.usual_players, seed=seed)
    rng = random.Random(seed)
    found: list[State] = []
    while not state.over and len(found) < count:
        to_act = state.to_act
        seat = to_act[0] if len(to_act) == 1 else rng.choice(to_act)
        searched = decides is None or not decides(observe(state, seat))
        if len(state.legal_actions(seat)) > 1 and searched and rng.random() < 0.3:
            found.append(state.clone())
        state.apply(seat, state.random_action(seat, rng))
    return found


def searcher(gid: str, iterations: int) -> SearchPlayer:
    """The hard player of a game, on an exact iteration budget."""
    player = get_player("hard", gid)
    assert isinstance(player, SearchPlayer)
    player.iterations = iterations
    return player


def mover(state: State) -> int:
    """The first seat the game waits for."""
    return state.to_act[0]


@pytest.mark.parametrize("gid", GAMES)
def test_hard_level_exists_for_every_game(gid: str) -> None:
    player = get_player("hard", gid)
    assert "hard" in LEVELS
    assert isinstance(player, SearchPlayer)
    assert player.budget == HARD_BUDGET == 1.0


@pytest.mark.parametrize("gid", GAMES)
def test_search_returns_a_legal_action(gid: str) -> None:
    player = searcher(gid, 50)
    states = positions(gid, count=2)
    assert states
    for state in states:
        obs = observe(state, mover(state))
        action = player.choose(obs, random.Random(1))
        assert action in obs.legal
        listed = player.shortlist(obs) if player.shortlist else None
        if listed:
            # paired playouts: whole rounds, every listed move played from each sample
            assert player.last_iterations % len(listed) == 0
            assert 50 <= player.last_iterations < 50 + len(listed)
        else:
            assert player.last_iterations == 50
        state.apply(obs.seat, action)


@pytest.mark.parametrize("gid", GAMES)
def test_search_only_plays_in_sampled_states(gid: str, monkeypatch: pytest.MonkeyPatch) -> None:
    state = positions(gid, count=1)[0]
    obs = observe(state, mover(state))
    sampled: set[int] = set()

    def spy(rng: random.Random) -> State:
        made = obs.sampler(rng)
        sampled.add(id(made))
        return made

    touched: set[int] = set()
    cls = type(state)
    real_apply = cls.apply
    real_clone = cls.clone

    def clone(self: State) -> State:
        made = real_clone(self)
        if id(self) in sampled:  # a copy of a sample is a sample too
            sampled.add(id(made))
        return made

    def apply(self: State, seat: int, action: Action | str) -> Any:
        touched.add(id(self))
        return real_apply(self, seat, action)

    monkeypatch.setattr(cls, "apply", apply)
    monkeypatch.setattr(cls, "apply_legal", apply)  # the playouts' way in
    monkeypatch.setattr(cls, "clone", clone)
    before = state.view(None)
    spied = dataclasses.replace(obs, sampler=spy)
    searcher(gid, 50).choose(spied, random.Random(2))
    assert sampled and touched
    assert touched <= sampled
    assert id(state) not in touched
    assert state.view(None) == before


def obvious_twenty_two_lead() -> State:
    """Two players, dealer seat 1: seat 0 is dealt A♠ 2♠ K♠ K♥ K♦ K♣ Q♠, seat 1 low cards.
    After five tricks seat 0 leads with A♠ and 2♠ left: leading the ace keeps the 2 for the
    last trick (the highest card there takes the penalty), leading the 2 keeps the ace."""
    mine = ["AS", "2S", "KS", "KH", "KD", "KC", "QS"]
    theirs = ["3H", "4H", "5H", "6H", "7H", "8H", "3C"]
    dealt = [card for pair in zip(mine, theirs, strict=True) for card in pair]
    rest = [c for c in (r + s for s in "SHDC" for r in "23456789TJQKA") if c not in dealt]
    state = games.get("twenty-two").new_game(2, seed=1, options={"dealer": 1},
                                             deck=dealt + rest)
    assert sorted(state.view(0)["hand"]) == sorted(mine)
    state.apply(0, "exchange")
    state.apply(1, "exchange")
    for lead in ("KS", "KH", "KD", "KC", "QS"):
        state.apply(0, "play:" + lead)
        state.apply(1, state.legal_actions(1)[0])
    assert sorted(state.view(0)["hand"]) == ["2S", "AS"]
    assert state.to_act == (0,)
    return state


def test_search_finds_the_obvious_lead_in_twenty_two() -> None:
    obs = observe(obvious_twenty_two_lead(), 0)
    assert str(searcher("twenty-two", 150).choose(obs, random.Random(3))) == "play:AS"


@pytest.mark.parametrize("gid", GAMES)
def test_search_is_deterministic_with_iterations_and_seed(gid: str) -> None:
    state = positions(gid, count=1, seed=9)[0]
    obs = observe(state, mover(state))
    first = [searcher(gid, 50).choose(obs, random.Random(s)) for s in range(2)]
    again = [searcher(gid, 50).choose(obs, random.Random(s)) for s in range(2)]
    assert first == again


def test_iteration_budget_is_exact_and_time_budget_stops() -> None:
    state = positions("bear", count=1)[0]
    obs = observe(state, mover(state))
    exact = searcher("bear", 37)
    exact.choose(obs, random.Random(0))
    assert exact.last_iterations == 37
    timed = get_player("hard", "bear")
    assert isinstance(timed, SearchPlayer)
    timed.budget = 0.05
    start = time.perf_counter()
    timed.choose(obs, random.Random(0))
    assert time.perf_counter() - start < 0.15 + 0.5  # loose: the machine may be busy
    assert timed.last_iterations >= 1


def test_a_single_legal_action_is_played_without_search() -> None:
    state = positions("bear", count=1)[0]
    obs = observe(state, mover(state))
    only = dataclasses.replace(obs, legal=obs.legal[:1])
    player = searcher("bear", 50)
    assert player.choose(only, random.Random(0)) == obs.legal[0]
    assert player.last_iterations == 0


@pytest.mark.parametrize("gid", ["finesse", "sugekari-21"])
def test_partners_share_the_reward_of_a_deal(gid: str) -> None:
    rules = games.get(gid)
    teams = rules.teams(4, rules.validate_options(4))
    assert teams
    for seed in range(4):
        state = rules.new_game(4, seed=seed)
        start = state.scores()
        rng = random.Random(seed)
        while not state.over and state.deal_number == 1:
            seat = state.to_act[0]
            state.apply(seat, state.random_action(seat, rng))
        rewards = deal_rewards(state, start)
        for team in teams:
            assert len({rewards[s] for s in team}) == 1


def test_deal_rewards_rank_penalties_low_in_1234_penalty_scoring() -> None:
    state = games.get("1234").new_game(4, seed=2, options={"scoring": "penalty"})
    assert state.score_direction() == -1
    start = state.scores()
    rng = random.Random(5)
    while not state.over and state.deal_number == 1:
        seat = state.to_act[0]
        state.apply(seat, state.random_action(seat, rng))
    rewards = deal_rewards(state, start)
    gains = [state.scores()[s] - start[s] for s in range(4)]
    assert rewards[gains.index(min(gains))] == 1.0


def test_ranked_shares_ties() -> None:
    assert ranked([3.0, 1.0, 3.0, 0.0]) == [5 / 6, 1 / 3, 5 / 6, 0.0]
    assert ranked([2.0, 2.0]) == [0.5, 0.5]


def test_observation_is_all_the_search_gets() -> None:
    # the player's interface takes an Observation; it carries no state attribute
    fields = {f.name for f in dataclasses.fields(Observation)}
    assert fields == {"game", "seat", "view", "legal", "sampler"}


@pytest.mark.parametrize("gid", GAMES)
def test_rollouts_play_whole_deals_with_legal_moves(gid: str) -> None:
    rules = games.get(gid)
    rollout = hooks_for(gid).rollout
    for seed in range(3):
        state = rules.new_game(rules.usual_players, seed=seed)
        rng = random.Random(seed)
        moves = 0
        while not state.over and state.deal_number == 1:
            to_act = state.to_act
            seat = to_act[0] if len(to_act) == 1 else rng.choice(to_act)
            legal = state.legal_actions(seat)
            action = rollout(state, seat, rng)
            assert any(action.same_as(a) for a in legal), (gid, action)
            state.apply(seat, action)
            moves += 1
        assert moves > 0


def test_bear_auction_is_the_basic_players() -> None:
    state = games.get("bear").new_game(3, seed=5)
    assert state.view(None)["phase"] == "bid"
    obs = observe(state, mover(state))
    player = searcher("bear", 50)
    assert player.choose(obs, random.Random(0)) == get_player("normal", "bear").choose(
        obs, random.Random(0))
    assert player.last_iterations == 0


def bear_discards(count: int) -> list[State]:
    """Bear positions where a declarer of a trump game (or Null) is to discard, after a basic
    auction."""
    basic = get_player("normal", "bear")
    found: list[State] = []
    seed = 0
    while len(found) < count:
        state = games.get("bear").new_game(3, seed=seed)
        rng = random.Random(seed)
        while state.view(None)["phase"] == "bid":
            seat = mover(state)
            state.apply(seat, basic.choose(observe(state, seat), rng))
        if state.view(None)["phase"] == "discard":
            found.append(state)
        seed += 1
    return found


def test_bear_discard_shortlist_starts_with_the_basic_discard() -> None:
    from games.ai.bear import discard_shortlist
    from games.bear import NULL, TABLES, TRUMP
    from games.cards import parse

    for state in bear_discards(12):
        obs = observe(state, mover(state))
        game = obs.view["contract"]["game"]
        hand = [parse(c) for c in obs.view["hand"]]
        listed = hooks_for("bear").shortlist(obs)  # type: ignore[misc]
        assert listed is not None and len(listed) > 1
        assert all(a in obs.legal for a in listed)
        assert len({tuple(sorted(a.cards)) for a in listed}) == len(listed)
        assert listed[0] == get_player("normal", "bear").choose(obs, random.Random(0))
        assert [a.cards for a in listed] == [
            tuple(next(a for a in obs.legal if a.same_as(x)).cards)
            for x in discard_shortlist(hand, game)]
        table = TABLES[game]
        if game == NULL:
            high = sorted(hand, key=lambda c: -c.rank)[5].rank
            assert all(c.rank >= high for a in listed for c in a.cards)
        elif sum(1 for c in hand if table.suit[c] != TRUMP) >= 2:
            assert all(table.suit[c] != TRUMP for a in listed for c in a.cards)


def test_bear_discard_is_chosen_by_paired_playouts() -> None:
    player = searcher("bear", 6 * 40)
    state = bear_discards(1)[0]
    obs = observe(state, mover(state))
    listed = hooks_for("bear").shortlist(obs)
    assert listed is not None
    choice = player.choose(obs, random.Random(3))
    assert choice in listed
    # whole rounds: every listed move played from each sample
    assert player.last_iterations % len(listed) == 0
    assert 6 * 40 <= player.last_iterations < 6 * 40 + len(listed)


def test_getaway_compares_every_legal_move_by_paired_playouts() -> None:
    for state in positions("bhabhi", count=3, seed=6):
        obs = observe(state, mover(state))
        assert hooks_for("bhabhi").shortlist(obs) == list(obs.legal)  # type: ignore[misc]
        player = searcher("bhabhi", 60)
        choice = player.choose(obs, random.Random(2))
        assert choice in obs.legal
        count = len(obs.legal)
        assert player.last_iterations % count == 0
        assert 60 <= player.last_iterations < 60 + count


@pytest.mark.parametrize("gid", ["bhabhi", "1234"])
def test_paired_playouts_stop_at_the_time_budget(gid: str) -> None:
    state = positions(gid, count=1, seed=6)[0]
    obs = observe(state, mover(state))
    player = get_player("hard", gid)
    assert isinstance(player, SearchPlayer)
    player.budget = 0.05
    start = time.perf_counter()
    assert player.choose(obs, random.Random(0)) in obs.legal
    assert time.perf_counter() - start < 0.15 + 0.5  # loose: the machine may be busy
    # at least one whole round (the first has every move), and only whole rounds
    assert player.last_rounds >= 1
    assert player.last_iterations >= len(obs.legal) + player.last_rounds - 1
    assert player.last_iterations <= len(obs.legal) * player.last_rounds


def test_paired_playouts_try_the_rule_of_thumb_first() -> None:
    state = bear_discards(1)[0]
    obs = observe(state, mover(state))
    listed = hooks_for("bear").shortlist(obs)
    assert listed is not None
    basic_move = listed[0]
    player = searcher("bear", 100)
    # listed last, the basic discard is still the one every other must beat
    player.shortlist = lambda _obs: [*listed[1:], basic_move]
    player.confidence = 1e6
    assert player.choose(obs, random.Random(0)) == basic_move


def test_paired_playouts_keep_the_first_move_unless_another_is_surely_better() -> None:
    state = bear_discards(1)[0]
    obs = observe(state, mover(state))
    listed = hooks_for("bear").shortlist(obs)
    assert listed is not None
    player = searcher("bear", 200)
    # the same move again: every paired difference is exactly zero
    player.shortlist = lambda _obs: [listed[1], listed[1]]
    assert player.choose(obs, random.Random(0)) == listed[1]
    # without a prior the first listed move is the one to beat, here by more standard errors
    # than any move can
    player.prior = None
    player.shortlist = lambda _obs: [listed[-1], listed[0]]
    player.confidence = 1e6
    assert player.choose(obs, random.Random(0)) == listed[-1]


def test_paired_playouts_overrule_a_first_move_that_throws_the_top_trumps() -> None:
    from games.bear import TABLES, TRUMP

    for state in bear_discards(6):
        obs = observe(state, mover(state))
        table = TABLES[obs.view["contract"]["game"]]
        if obs.view["contract"]["game"] not in ("S", "H", "C", "D"):
            continue
        trumps = sorted((a for a in obs.legal
                         if all(table.suit[c] == TRUMP for c in a.cards)),
                        key=lambda a: -sum(table.strength[c] for c in a.cards))
        listed = hooks_for("bear").shortlist(obs)
        assert listed is not None and trumps
        bad, good = trumps[0], listed[0]
        player = searcher("bear", 400)
        player.shortlist = lambda _obs, b=bad, g=good: [b, g]
        assert player.choose(obs, random.Random(1)) == good
        return
    raise AssertionError("no suit contract among the positions")


def test_paired_playouts_stop_playing_a_move_that_is_surely_worse() -> None:
    from games.bear import TABLES, TRUMP

    state = next(s for s in bear_discards(6)
                 if observe(s, mover(s)).view["contract"]["game"] in ("S", "H", "C", "D"))
    obs = observe(state, mover(state))
    table = TABLES[obs.view["contract"]["game"]]
    trumps = sorted((a for a in obs.legal if all(table.suit[c] == TRUMP for c in a.cards)),
                    key=lambda a: -sum(table.strength[c] for c in a.cards))
    listed = hooks_for("bear").shortlist(obs)
    assert listed is not None and trumps
    good, bad = listed[0], trumps[0]
    player = searcher("bear", 600)
    player.race = 3.0
    # the basic discard twice (every difference between them zero) and the top trumps; with
    # no prior the list is played as it stands
    player.prior = None
    player.shortlist = lambda _obs: [good, bad, good]
    assert player.choose(obs, random.Random(1)) == good
    rounds = player.last_rounds
    assert rounds > 600 // 3  # the bad move dropped out, so more rounds fit in the budget
    assert 600 <= player.last_iterations < 600 + 3
    assert player.last_iterations < 3 * rounds
    # without racing every move is played in every round
    player.race = 0.0
    assert player.choose(obs, random.Random(1)) == good
    assert player.last_iterations == 3 * player.last_rounds == 600


def test_a_move_in_contention_keeps_racing() -> None:
    from games.ai.search import _still_racing

    margin = 3.0
    # move 0 is the yardstick (differences are measured from it); move 1 leads by 0.10 with
    # an error of 0.01, move 2 trails it by less than the margin, move 3 by far more
    counts = [100] * 4
    means = [0.0, 0.10, 0.10 - margin * 0.02 * 0.9, -0.2]
    gains = [m * 100 for m in means]
    squares = [100 * (m * m + 0.01) for m in means]  # variance 0.01: an error of 0.01
    assert _still_racing([0, 1, 2, 3], gains, squares, counts, margin) == [0, 1, 2]
    # with a wider margin move 3 races on; the first move stays even when it is far behind
    assert _still_racing([0, 1, 2, 3], gains, squares, counts, 40.0) == [0, 1, 2, 3]
    assert _still_racing([0, 1], [0.0, 50.0], [0.0, 26.0], [100, 100], margin) == [0, 1]


def test_twenty_two_judges_a_lost_deal_by_the_penalty_size() -> None:
    from games.ai.playouts import twenty_two_judge

    rules = games.get("twenty-two")
    judged: dict[int, float] = {}
    for seed in range(40):
        state = rules.new_game(4, seed=seed)
        start = state.scores()
        rng = random.Random(seed)
        while not state.over and state.deal_number == 1:
            seat = state.to_act[0] if len(state.to_act) == 1 else rng.choice(state.to_act)
            state.apply(seat, state.random_action(seat, rng))
        rewards = twenty_two_judge(state, start)
        taken = [state.scores()[s] - start[s] for s in range(4)]
        for s in range(4):
            if taken[s] > 0:
                judged[int(taken[s])] = rewards[s]
                assert rewards[s] < 0.5
            else:
                assert rewards[s] == 1.0
    sizes = sorted(judged)
    assert len(sizes) >= 3
    assert [judged[k] for k in sizes] == sorted(judged.values(), reverse=True)
    assert judged[sizes[0]] > judged[sizes[-1]]


def test_confidence_keeps_the_basic_move_unless_search_is_sure() -> None:
    from games.ai.search import _clearly_better, _Node

    def node(rewards: list[float]) -> _Node:
        made = _Node(0)
        made.visits = len(rewards)
        made.reward = sum(rewards)
        made.square = sum(r * r for r in rewards)
        return made

    noisy = node([1.0, 0.0] * 10 + [1.0])
    basic = node([1.0, 0.0] * 10)
    assert not _clearly_better(noisy, basic, 1.0)
    sure = node([1.0] * 40)
    assert _clearly_better(sure, basic, 1.0)
    assert _clearly_better(noisy, basic, 0.0)


def test_linear_judge_keeps_the_size_of_the_score_change() -> None:
    from games.ai.playouts import linear_judge

    state = games.get("1234").new_game(4, seed=3)
    start = state.scores()
    rng = random.Random(3)
    while not state.over and state.deal_number == 1:
        seat = state.to_act[0]
        state.apply(seat, state.random_action(seat, rng))
    rewards = linear_judge(state, start)
    gains = [state.scores()[s] - start[s] for s in range(4)]
    assert rewards[gains.index(max(gains))] == 1.0
    assert rewards[gains.index(min(gains))] == 0.0
    for a in range(4):
        for b in range(4):
            if gains[a] > gains[b]:
                assert rewards[a] > rewards[b]
    span = max(gains) - min(gains)
    assert all(abs(r - (g - min(gains)) / span) < 1e-9 for r, g in zip(rewards, gains,
                                                                       strict=True))


@pytest.mark.parametrize("scoring", ["chips", "winner", "penalty"])
def test_linear_judge_scores_a_single_game_by_what_was_paid_not_by_places(scoring: str) -> None:
    from games.ai.playouts import linear_judge
    from games.ai.search import deal_rewards

    state = games.get("1234").new_game(4, seed=5, options={"games": 1, "scoring": scoring})
    start = state.scores()
    rng = random.Random(5)
    while not state.over:
        seat = state.to_act[0]
        state.apply(seat, state.random_action(seat, rng))
    direction = state.score_direction()
    gains = [direction * (state.scores()[s] - start[s]) for s in range(4)]
    rewards = linear_judge(state, start)
    low, span = min(gains), max(gains) - min(gains)
    assert span > 0
    assert all(abs(r - (g - low) / span) < 1e-9 for r, g in zip(rewards, gains, strict=True))
    winners = set(state.game_winners)
    assert all(rewards[s] == 1.0 for s in winners)
    # by places a loser would have had a share of a win for paying less than the others
    losers = [s for s in range(4) if s not in winners]
    assert any(deal_rewards(state, start)[s] > rewards[s] for s in losers) or scoring == "winner"


@pytest.mark.parametrize("gid", ["spar", "finesse"])
def test_open_loop_search_is_legal_and_deterministic(gid: str) -> None:
    state = positions(gid, count=1, seed=9)[0]
    obs = observe(state, mover(state))
    picks = []
    for _ in range(2):
        player = searcher(gid, 60)
        player.open_loop = True
        picks.append(player.choose(obs, random.Random(5)))
        assert player.last_iterations == 60
    assert picks[0] == picks[1]
    assert picks[0] in obs.legal


@pytest.mark.parametrize("modelled", [True, False])
def test_modelled_others_move_only_by_the_rollout_policy(modelled: bool,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    state = positions("spar", count=1, seed=9)[0]
    obs = observe(state, mover(state))

    def lowest(sample: State, seat: int, rng: random.Random) -> Action:
        return min(sample.legal_actions(seat), key=str)

    moves: list[bool] = []  # for each move of another seat: was it the model's?
    cls = type(state)
    real_apply = cls.apply

    def apply(self: State, seat: int, action: Action | str) -> Any:
        if seat != obs.seat:
            moves.append(action == lowest(self, seat, random.Random(0)))
        return real_apply(self, seat, action)

    monkeypatch.setattr(cls, "apply", apply)
    monkeypatch.setattr(cls, "apply_legal", apply)  # the playouts' way in
    player = searcher("spar", 200)
    player.shortlist = None
    player.rollout = lowest
    player.model_others = modelled
    picks = {str(player.choose(obs, random.Random(seed))) for seed in (5, 5)}
    assert len(picks) == 1 and Action.parse(picks.pop()) in obs.legal
    assert moves
    if modelled:
        assert all(moves)  # the tree follows the model, as the playouts do
    else:
        assert not all(moves)  # the tree tries the others' alternatives too


def settled_root(visits: dict[str, int]) -> Any:
    from games.ai.search import _Node

    root = _Node(0)
    for name, count in visits.items():
        child = _Node(0)
        child.visits = count
        child.reward = count * 0.5
        root.children[Action.parse(name)] = child
    return root


def test_a_timed_search_stops_only_when_the_rest_cannot_change_its_choice() -> None:
    player = searcher("spar", 1)
    basic_move = Action.parse("play:6H")
    root = settled_root({"play:6H": 900, "play:KH": 100})
    assert player._settled(root, basic_move, 2, remaining=700)
    assert not player._settled(root, basic_move, 2, remaining=800)  # the runner-up could catch up
    assert not player._settled(root, basic_move, 3, remaining=10)  # a move not tried yet
    # a favourite of the search over the basic move may still fall back to the basic move
    root = settled_root({"play:6H": 100, "play:KH": 900})
    assert not player._settled(root, basic_move, 2, remaining=10)
    player.confidence = 0
    assert player._settled(root, basic_move, 2, remaining=10)


def test_a_clear_choice_takes_less_than_the_whole_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    # the obvious lead of 22 (above), on a clock that advances 1 ms each time it is read
    import games.ai.search as search

    state = obvious_twenty_two_lead()
    ticks = [0.0]

    def clock() -> float:
        ticks[0] += 0.001
        return ticks[0]

    monkeypatch.setattr(search, "now", clock)
    player = get_player("hard", "twenty-two")
    assert isinstance(player, SearchPlayer)
    assert str(player.choose(observe(state, 0), random.Random(3))) == "play:AS"
    # a whole second would be about 1,000 iterations at one per tick
    assert 32 <= player.last_iterations < 700


def test_a_playout_that_never_ends_is_cut_short(monkeypatch: pytest.MonkeyPatch) -> None:
    # Getaway's pick-ups can send the same cards round and round; a playout stops at the cap
    import games.ai.search as search

    monkeypatch.setattr(search, "PLAYOUT_MOVES", 5)
    state = positions("bhabhi", count=1)[0]
    moves = [0]

    def counting(state: State, seat: int, rng: random.Random) -> Action:
        moves[0] += 1
        return state.random_action(seat, rng)

    player = searcher("bhabhi", 20)
    player.rollout = counting
    choice = player.choose(observe(state, mover(state)), random.Random(0))
    assert choice in state.legal_actions(mover(state))
    # (Getaway compares its moves in whole rounds of paired playouts)
    assert 20 <= player.last_iterations < 20 + len(state.legal_actions(mover(state)))
    assert 0 < moves[0] <= player.last_iterations * 5
