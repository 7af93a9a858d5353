"""One conformance suite for every registered game and its option mixes.

A new game passes it without a line written here: random legal play to the end, with every
invariant of the rules interface checked at every step.
"""

from __future__ import annotations

import json
import pickle
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games
from games import Action, IllegalAction, State
from games.core import Rules

EXAMPLES = 6
MAX_STEPS = 50_000


def option_mixes(rules: Rules) -> list[tuple[int, dict[str, Any]]]:
    """Default options at every player count, then each option value changed on its own."""
    mixes: list[tuple[int, dict[str, Any]]] = [(n, {}) for n in rules.player_counts()]
    counts = [rules.usual_players, *rules.player_counts()]
    for opt in rules.options:
        if opt.kind == "seat":
            mixes.append((rules.usual_players, {opt.name: 0}))
            continue
        for value in opt.test_values():
            if value == opt.default:
                continue
            for n in counts:
                try:
                    rules.validate_options(n, {opt.name: value})
                except ValueError:
                    continue
                mixes.append((n, {opt.name: value}))
                break
    for extra in getattr(rules, "test_mixes", ()):
        players, opts = extra
        mixes.append((players, dict(opts)))
    return mixes


def _cases() -> list[Any]:
    cases = []
    for gid in games.ids():
        rules = games.get(gid)
        for players, opts in option_mixes(rules):
            label = ",".join(f"{k}={v}" for k, v in sorted(opts.items())) or "defaults"
            cases.append(pytest.param(gid, players, opts, id=f"{gid}-{players}p-{label}"))
    return cases


CASES = _cases()


def snapshot(state: State) -> bytes:
    """Everything in a state, to prove that a refused action changed nothing."""
    return pickle.dumps(state.__dict__)


def conserved(state: State) -> None:
    held: Counter[Any] = Counter()
    for cards in state.zones().values():
        held.update(cards)
    assert held == Counter(state.pack()), "cards were lost or created"


def mutations(state: State, seat: int, legal: list[Action], rng: random.Random) -> list[Action]:
    """Actions near the legal ones: other cards, other arguments, other kinds."""
    pack = list(dict.fromkeys(state.pack()))
    found: list[Action] = [Action("no-such-move"), Action("play"), Action("pass", "x")]
    for action in rng.sample(legal, min(4, len(legal))):
        if action.cards:
            swapped = list(action.cards)
            swapped[rng.randrange(len(swapped))] = rng.choice(pack)
            found.append(action._replace(cards=tuple(swapped)))
            found.append(action._replace(cards=(*action.cards, rng.choice(pack))))
            found.append(action._replace(cards=action.cards[1:]))
        found.append(action._replace(arg="999" if action.arg is None else action.arg + "x"))
        found.append(action._replace(kind=action.kind + "x"))
    return found


def check_refusals(state: State, rng: random.Random) -> None:
    """Every action not listed as legal is refused and leaves the state as it was."""
    before = snapshot(state)
    # listed once: a refused action leaves the state as it was (checked below), so the lists
    # stay right for every seat, and listing them is the costly part (22's exchanges)
    legal_of = [state.legal_actions(seat) for seat in range(state.players)]
    others = [a for s in state.to_act for a in legal_of[s]]
    for seat in range(state.players):
        legal = legal_of[seat]
        refused_here = []
        for action in mutations(state, seat, legal or others, rng):
            is_legal = any(action.same_as(a) for a in legal)
            if is_legal:
                state.clone().apply(seat, action)
                continue
            with pytest.raises(IllegalAction) as refused:
                state.apply(seat, action)
            assert str(refused.value).strip(), "a refusal must say why"
            refused_here.append(str(action))
        # One comparison per seat keeps the suite quick; a change names the suspects.
        assert snapshot(state) == before, (
            f"one of the refused actions {refused_here} for seat {seat} changed the state")
    for bad_seat in (-1, state.players, 99):
        with pytest.raises(IllegalAction):
            state.apply(bad_seat, Action("pass"))
    with pytest.raises(IllegalAction):
        state.apply(0, "play:ZZ")
    assert snapshot(state) == before


def check_views(state: State, rng: random.Random) -> None:
    """Views are JSON, carry hand and scores, and survive determinization unchanged."""
    n = state.players
    for seat in [None, *range(n)]:
        data = state.view(seat).to_dict()
        json.dumps(data)
        assert "hand" in data and "scores" in data
        assert len(data["scores"]) == n
        if seat is None:
            assert data["hand"] == []
    seat = rng.choice([None, *range(n)])
    sampled = state.determinize(seat, random.Random(rng.getrandbits(32)))
    conserved(sampled)
    assert sampled.view(seat) == state.view(seat), f"determinize({seat}) changed what it knows"
    if seat is not None:
        assert [str(a) for a in sampled.legal_actions(seat)] == [
            str(a) for a in state.legal_actions(seat)
        ]
        assert sampled.to_act == state.to_act


def play_out(
    rules: Rules, players: int, opts: dict[str, Any], seed: int, choice_seed: int,
    check_every: int = 1,
) -> tuple[State, list[tuple[int, Action]], list[Any]]:
    """Random legal play to the end with every invariant checked along the way."""
    state = rules.new_game(players, seed=seed, options=opts)
    rng = random.Random(choice_seed)
    log: list[tuple[int, Action]] = []
    events: list[Any] = []
    conserved(state)
    for step in range(MAX_STEPS):
        if state.over:
            break
        assert state.to_act, "a game that is not over must wait for someone"
        legal_now = {s: state.legal_actions(s) for s in state.to_act}
        for s, acts in legal_now.items():
            assert acts, f"seat {s} must act but has no legal action"
        # Every step is checked for conservation and legality; the costlier view and refusal
        # checks run often early on, then sparsely through long matches.
        if step % (check_every if step < 150 else 25) == 0:
            check_views(state, rng)
            check_refusals(state, rng)
        seat = rng.choice(state.to_act)
        legal = legal_now[seat]  # the checks above leave the state as it was
        for extra in rng.sample(legal, min(3, len(legal))):
            state.clone().apply(seat, extra)
        action = rng.choice(legal)
        events.append(state.apply(seat, action))
        log.append((seat, action))
        conserved(state)
    else:
        pytest.fail(f"the game did not end within {MAX_STEPS} actions")
    return state, log, events


def check_finished(state: State) -> None:
    outcome = state.outcome
    assert state.over and outcome is not None
    assert state.to_act == ()
    assert len(outcome.places) == state.players
    assert len(outcome.scores) == state.players
    assert min(outcome.places) == 1
    assert outcome.winners == tuple(s for s, p in enumerate(outcome.places) if p == 1)
    for seat in range(state.players):
        assert state.legal_actions(seat) == []
    with pytest.raises(IllegalAction):
        state.apply(0, Action("pass"))
    json.dumps(state.view(None).to_dict())


@pytest.mark.parametrize(("gid", "players", "opts"), CASES)
@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), choice_seed=st.integers(0, 2**32 - 1))
def test_random_play_keeps_every_invariant(
    gid: str, players: int, opts: dict[str, Any], seed: int, choice_seed: int
) -> None:
    rules = games.get(gid)
    state, log, events = play_out(rules, players, opts, seed, choice_seed, check_every=3)
    check_finished(state)
    replay = rules.new_game(players, seed=seed, options=opts)
    replay_events = [replay.apply(s, a) for s, a in log]
    assert replay_events == events
    for seat in [None, *range(players)]:
        assert replay.view(seat) == state.view(seat)
    assert replay.outcome == state.outcome


@pytest.mark.parametrize("gid", games.ids())
@settings(max_examples=EXAMPLES * 2, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_option_mixes(gid: str, data: st.DataObject) -> None:
    rules = games.get(gid)
    players = data.draw(st.sampled_from(list(rules.player_counts())), label="players")
    opts: dict[str, Any] = {}
    for opt in rules.options:
        if data.draw(st.booleans(), label=f"set {opt.name}"):
            values = list(range(players)) if opt.kind == "seat" else list(opt.test_values())
            opts[opt.name] = data.draw(st.sampled_from(values), label=opt.name)
    try:
        rules.validate_options(players, opts)
    except ValueError as refused:
        assert str(refused)
        return
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    state, _, _ = play_out(rules, players, opts, seed, seed ^ 0x5EED, check_every=7)
    check_finished(state)


@pytest.mark.parametrize("gid", games.ids())
def test_determinize_reshuffles_hidden_cards(gid: str) -> None:
    rules = games.get(gid)
    state = rules.new_game(rules.usual_players, seed=3)
    rng = random.Random(1)
    originals = state.zones()
    changed = any(state.determinize(None, rng).zones() != originals for _ in range(5))
    assert changed, "a spectator's determinized state must re-deal the hidden cards"


@pytest.mark.parametrize("gid", games.ids())
def test_unknown_and_bad_options_are_refused_by_name(gid: str) -> None:
    rules = games.get(gid)
    with pytest.raises(ValueError, match="no_such_option"):
        rules.new_game(rules.usual_players, options={"no_such_option": 1})
    for opt in rules.options:
        bad: Any = {"bool": "maybe", "int": "many", "seat": 99, "choice": "no-such-value"}[opt.kind]
        with pytest.raises(ValueError, match=opt.name):
            rules.new_game(rules.usual_players, options={opt.name: bad})
    with pytest.raises(ValueError):
        rules.new_game(rules.max_players + 1)
    with pytest.raises(ValueError):
        rules.new_game(rules.min_players - 1)


@pytest.mark.parametrize("gid", games.ids())
def test_options_are_described_in_both_languages(gid: str) -> None:
    rules = games.get(gid)
    assert rules.name and rules.title("ja") and rules.summary_en and rules.summary("ja")
    for desc in rules.describe_options():
        assert desc["help"]["en"] and desc["help"]["ja"]
        assert desc["type"] in {"bool", "int", "choice", "seat"}
        json.dumps(desc)


@pytest.mark.parametrize("gid", games.ids())
def test_a_deck_that_is_not_the_pack_is_refused(gid: str) -> None:
    rules = games.get(gid)
    state = rules.new_game(rules.usual_players, seed=1)
    pack = [str(c) for c in state.pack()]
    with pytest.raises(ValueError):
        rules.new_game(rules.usual_players, seed=1, deck=pack[:-1])
    with pytest.raises(ValueError):
        rules.new_game(rules.usual_players, seed=1, deck=[*pack[:-1], pack[0]] if len(
            set(pack)) == len(pack) else ["ZZ", *pack[1:]])


@pytest.mark.parametrize("gid", games.ids())
def test_clone_is_independent(gid: str) -> None:
    rules = games.get(gid)
    state = rules.new_game(rules.usual_players, seed=5)
    before = state.view(None)
    copy = state.clone()
    seat = copy.to_act[0]
    copy.apply(seat, copy.legal_actions(seat)[0])
    assert state.view(None) == before


def test_registry_ids_and_unknown_game() -> None:
    assert len(games.ids()) == len(set(games.ids()))
    for gid in games.ids():
        assert games.get(gid).id == gid
    with pytest.raises(KeyError):
        games.get("no-such-game")
