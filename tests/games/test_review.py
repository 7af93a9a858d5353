"""The review after a game (games/ai/review.py): decisions judged from the seat's own view,
a planted blunder found and ranked first, forced moves never listed, every game reviewed."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import games
from games import ai
from games.ai import review as rv
from games.ai.analysis import analyse
from games.core import Action, IllegalAction

GAMES = games.ids()
#: screening and sharpening playouts: small, the tests check the mechanics
FEW = (8, 24)
_CODE = re.compile(r"[2-9TJQKA][SHDC]|RJ|BJ")


def played(gid: str, seed: int, *, deck: list[str] | None = None, first_deal: bool = False,
           level: str = "easy", players: int | None = None,
           forced: dict[int, Action] | None = None) -> rv.Game:
    """A game played by computers (``forced``: moves made instead at those move numbers)."""
    rules = games.get(gid)
    count = players or rules.usual_players
    state = rules.new_game(count, seed=seed, deck=deck)
    rng = random.Random(seed)
    player = ai.get_player(level, gid)
    moves: list[tuple[int, str]] = []
    while not state.over and len(moves) < 1500:
        if first_deal and state.deal_number > 1:
            break
        seat = state.to_act[0]
        action = (forced or {}).get(len(moves)) or player.choose(ai.observe(state, seat), rng)
        state.apply(seat, action)
        moves.append((seat, str(action)))
    return rv.Game(gid, count, seed, {}, tuple(moves), None if deck is None else tuple(deck))


def check_review(game: rv.Game, seat: int, review: rv.Review) -> None:
    """What every review must be: forced moves never listed, costly ones only, worst first,
    each with the view the seat had then and a legal preferred move."""
    state = game.start()
    facts: dict[int, tuple[Any, list[Action]]] = {}
    for index, (mover, action) in enumerate(game.actions):
        if mover == seat:
            facts[index] = (state.view(seat), state.legal_actions(seat))
        state.apply(mover, action)
    points = rv.decisions(game, seat)
    assert points == [i for i, (_, legal) in facts.items() if len(legal) > 1]
    assert review.decisions == len(points)
    assert len(review.costliest) <= rv.SHOWN
    losses = [j.loss for j in review.costliest]
    assert losses == sorted(losses, reverse=True)
    for judged in review.costliest:
        view, legal = facts[judged.index]
        assert len(legal) > 1, "a forced move is never a decision"
        assert judged.view == view.to_dict()
        assert judged.preferred in legal and judged.made != judged.preferred
        assert judged.loss > max(rv.LEAST_LOSS, rv.Z * judged.error)


@pytest.mark.parametrize("gid", GAMES)
def test_every_game_has_a_review(gid: str) -> None:
    game = played(gid, seed=3, first_deal=gid in ("finesse", "bear"))  # long games: one deal
    review = rv.review(game, 0, iterations=FEW)
    check_review(game, 0, review)
    assert review.decisions > 0, f"{gid}: a whole game without one decision"
    # the same record and seat give the same review (iteration counts make it reproducible)
    assert rv.review(game, 0, iterations=FEW) == review


def test_the_time_plan_fits_the_seconds() -> None:
    for count in (1, 10, 60, 200):
        each, sharp = rv.plan(count, 16.0)
        assert each >= rv.LEAST_SCREEN and 0 < sharp <= rv.MOST_SHARPEN
        spent = each * count + sharp * min(rv.SHARPEN, count)
        assert spent <= 16.0 + rv.LEAST_SCREEN * (count + rv.SHARPEN)
    assert rv.plan(0) == (0.0, 0.0)


def test_forced_moves_and_other_hands_are_never_judged() -> None:
    """Only the seat's own moves with a choice count; ``mine`` leaves out the moves a computer
    made for the person."""
    game = played("spar", seed=11)
    everything = rv.decisions(game, 0)
    state = game.start()
    forced = []
    for index, (mover, action) in enumerate(game.actions):
        if mover == 0 and len(state.legal_actions(0)) == 1:
            forced.append(index)
        state.apply(mover, action)
    assert forced, "the test needs a forced move (a suit followed with one card of it)"
    assert not set(forced) & set(everything)
    assert all(game.actions[i][0] == 0 for i in everything)
    half = set(everything[: len(everything) // 2])
    assert rv.decisions(game, 0, half) == sorted(half)


# -- a planted blunder --------------------------------------------------------------------------
def _worst_move(game: rv.Game, seat: int) -> tuple[int, Action, float]:
    """The decision of ``seat`` whose worst move loses most against its best, measured long:
    (move number, that worst move, its loss)."""
    found: tuple[int, Action, float] = (-1, Action("none"), 0.0)
    for index, obs, _made in rv.observations(game, seat, rv.decisions(game, seat)):
        analysis = analyse(obs, random.Random(index), iterations=400)
        best, worst = analysis.moves[0], min(analysis.moves, key=lambda m: m.value)
        if best.value - worst.value > found[2]:
            found = (index, worst.action, best.value - worst.value)
    return found


@pytest.mark.parametrize(("gid", "stack"), [("spar", 5), ("twenty-two", 2)])
def test_a_planted_blunder_is_found_and_ranked_first(gid: str, stack: int) -> None:
    """A stacked deal in which the seat, at its most decisive moment, makes the move that
    throws the most away (measured long, from its own view: in Spar the last trick, in 22 a
    penalty): the review names that move first, with the search's move instead."""
    rules = games.get(gid)
    deck = [str(c) for c in rules.new_game(2, seed=21).pack()]
    random.Random(stack).shuffle(deck)
    good = played(gid, 21, deck=deck, first_deal=True, level="normal", players=2)
    index, blunder, measured = _worst_move(good, 0)
    assert measured > 0.3, "the stacked deal has a decisive moment"
    bad = played(gid, 21, deck=deck, first_deal=True, level="normal", players=2,
                 forced={index: blunder})
    assert bad.actions[index] == (0, str(blunder))
    review = rv.review(bad, 0, iterations=(48, 160))
    check_review(bad, 0, review)
    assert review.costliest, "the blunder is costly"
    first = review.costliest[0]
    assert first.index == index and first.made == blunder
    assert first.loss > 0.2
    # the same blunder made by the computer keeping the seat is not the person's to answer for
    mine = set(rv.decisions(bad, 0)) - {index}
    assert all(j.index != index for j in rv.review(bad, 0, mine=mine, iterations=FEW).costliest)


# -- no hindsight -------------------------------------------------------------------------------
def _codes(value: object, found: set[str]) -> set[str]:
    if isinstance(value, str):
        if _CODE.fullmatch(value):
            found.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            _codes(item, found)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _codes(item, found)
    return found


def _views(game: rv.Game, seat: int) -> list[Any] | None:
    """The seat's view before every move, or None when the moves do not replay."""
    state = game.start()
    views = []
    try:
        for mover, action in game.actions:
            views.append(state.view(seat))
            state.apply(mover, action)
    except IllegalAction:
        return None
    return views


def _hidden_swap(game: rv.Game, seat: int) -> rv.Game:
    """The same game with two cards the seat never saw swapped (between two places where it
    can be: another hand, the undealt cards): the others' moves still replay and the seat's
    every view is the same."""
    assert game.deck is not None
    views = _views(game, seat)
    assert views is not None
    seen: set[str] = set()
    for view in views:
        _codes(view.to_dict(), seen)
    start = game.start()
    place = {str(card): name for name, cards in start.zones().items() for card in cards}
    never = [c for c in game.deck if c not in seen]
    pairs = [(a, b) for a in never for b in never if a < b]
    pairs.sort(key=lambda pair: place[pair[0]] == place[pair[1]])  # two places first
    for a, b in pairs:
        deck = [b if c == a else a if c == b else c for c in game.deck]
        other = rv.Game(game.game, game.players, game.seed, game.options, game.actions,
                        tuple(deck))
        if _views(other, seat) == views:
            return other
    pytest.fail(f"{game.game}: no two unseen cards to swap")


# (in Getaway and Finesse every card of the first deal is seen by its end)
@pytest.mark.parametrize("gid", ["twenty-two", "1234", "sugekari-21", "bear"])
def test_the_review_never_uses_the_hidden_cards(gid: str) -> None:
    """Two games that differ only in cards the seat never saw (another hand's, the undealt
    ones) get the same review: every decision judged alike."""
    rules = games.get(gid)
    deck = [str(c) for c in rules.new_game(rules.usual_players, seed=8).pack()]
    random.Random(9).shuffle(deck)
    game = played(gid, 8, deck=deck, first_deal=True)
    other = _hidden_swap(game, 0)
    assert other.start().zones() != game.start().zones()
    points = rv.decisions(game, 0)
    assert points == rv.decisions(other, 0)
    first = rv.screen(game, 0, points, iterations=FEW[0])
    second = rv.screen(other, 0, points, iterations=FEW[0])
    assert first == second
    assert any(j.loss != 0 for j in first), "some decision was really measured"
    assert rv.review(game, 0, iterations=FEW) == rv.review(other, 0, iterations=FEW)
