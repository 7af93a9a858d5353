"""Rating updates against openskill's Plackett–Luce formulas worked by hand, and the ranking."""

from __future__ import annotations

import math

import pytest
from openskill.models import PlackettLuce

from bot.storage import ratings
from bot.storage.ratings import Side, Skill

BETA = 25.0 / 6.0
TAU = 25.0 / 300.0
KAPPA = 0.0001


def by_hand(players: list[Skill], ranks: list[int]) -> list[Skill]:
    """The Plackett–Luce update for one-player sides, written from the model's formulas.

    Each sigma first widens by tau; c² = Σ(σ² + β²); for player i, omega and delta sum over
    the sides q ranked at or above i (Weng and Lin's algorithm 4), each term divided by the
    number of sides sharing q's rank.
    """
    sig2 = [p.sigma ** 2 + TAU ** 2 for p in players]
    c = math.sqrt(sum(s + BETA ** 2 for s in sig2))
    exp = [math.exp(p.mu / c) for p in players]
    sum_q = [sum(exp[j] for j in range(len(players)) if ranks[j] >= ranks[q])
             for q in range(len(players))]
    shared = [sum(1 for r in ranks if r == ranks[q]) for q in range(len(players))]
    out = []
    for i, player in enumerate(players):
        omega = delta = 0.0
        for q in range(len(players)):
            if ranks[q] > ranks[i]:
                continue
            tmp = exp[i] / sum_q[q]
            omega += ((1 - tmp) if q == i else -tmp) / shared[q]
            delta += tmp * (1 - tmp) / shared[q]
        gamma = math.sqrt(sig2[i]) / c
        mu = player.mu + sig2[i] / c * omega
        delta *= gamma * sig2[i] / c ** 2
        sigma = math.sqrt(sig2[i]) * math.sqrt(max(1 - delta, KAPPA))
        out.append(Skill(mu, sigma))
    return out


def direct(teams: list[list[Skill]], ranks: list[int]) -> list[list[tuple[float, float]]]:
    """openskill called directly with the same inputs."""
    model = PlackettLuce()
    given = [[model.rating(mu=s.mu, sigma=s.sigma) for s in team] for team in teams]
    rated = model.rate(given, ranks=[float(r) for r in ranks])
    return [[(r.mu, r.sigma) for r in team] for team in rated]


def test_two_players_the_winner_gains_what_the_loser_loses() -> None:
    new = ratings.rate([[Skill()], [Skill()]], [1, 2])
    (winner,), (loser,) = new
    expected = by_hand([Skill(), Skill()], [1, 2])
    assert winner.mu == pytest.approx(expected[0].mu)
    assert loser.mu == pytest.approx(expected[1].mu)
    assert winner.sigma == pytest.approx(expected[0].sigma)
    # worked by hand: c = √(2·(σ²+τ²) + 2β²) ≈ 13.176, the winner's p = ½, Δμ = σ²/c · ½
    assert winner.mu == pytest.approx(27.6354, abs=1e-3)
    assert loser.mu == pytest.approx(22.3646, abs=1e-3)
    assert winner.mu - 25 == pytest.approx(25 - loser.mu)
    assert winner.sigma < ratings.SIGMA and loser.sigma < ratings.SIGMA
    assert winner.ordinal > 0 > loser.ordinal


def test_an_upset_moves_ratings_more_than_the_expected_result() -> None:
    strong, weak = Skill(30.0, 4.0), Skill(20.0, 4.0)
    expected_win = ratings.rate([[strong], [weak]], [1, 2])
    upset = ratings.rate([[strong], [weak]], [2, 1])
    gain_expected = expected_win[0][0].mu - strong.mu
    gain_upset = upset[1][0].mu - weak.mu
    assert 0 < gain_expected < gain_upset
    got = [[(s.mu, s.sigma) for s in side] for side in upset]
    want = direct([[strong], [weak]], [2, 1])
    assert got == [[pytest.approx(v) for v in side] for side in want]
    hand = by_hand([strong, weak], [2, 1])
    assert upset[1][0].mu == pytest.approx(hand[1].mu)


def test_four_players_with_a_tie_for_second() -> None:
    players = [Skill(), Skill(), Skill(), Skill()]
    ranks = [1, 2, 2, 4]
    new = [side[0] for side in ratings.rate([[p] for p in players], ranks)]
    hand = by_hand(players, ranks)
    for got, want in zip(new, hand, strict=True):
        assert got.mu == pytest.approx(want.mu)
        assert got.sigma == pytest.approx(want.sigma)
    assert new[1].mu == pytest.approx(new[2].mu)  # tied places move alike
    assert new[0].mu > new[1].mu > new[3].mu
    assert new[0].mu > 25 > new[3].mu


def test_uneven_players_with_ties_match_openskill_called_directly() -> None:
    players = [Skill(28.0, 5.0), Skill(24.0, 7.0), Skill(26.0, 3.0)]
    ranks = [2, 1, 2]
    new = ratings.rate([[p] for p in players], ranks)
    want = direct([[p] for p in players], ranks)
    hand = by_hand(players, ranks)
    for i in range(3):
        assert new[i][0].mu == pytest.approx(want[i][0][0])
        assert new[i][0].mu == pytest.approx(hand[i].mu)
        assert new[i][0].sigma == pytest.approx(hand[i].sigma)
    assert new[1][0].mu > players[1].mu
    assert new[0][0].mu < players[0].mu and new[2][0].mu < players[2].mu


def test_partners_are_rated_as_one_side() -> None:
    a, b, c, d = Skill(), Skill(), Skill(27.0, 6.0), Skill(23.0, 6.0)
    new = ratings.rate([[a, b], [c, d]], [1, 2])
    want = direct([[a, b], [c, d]], [1, 2])
    assert [[(s.mu, s.sigma) for s in side] for side in new] == [
        [pytest.approx(v) for v in side] for side in want]
    assert new[0][0].mu == pytest.approx(new[0][1].mu) and new[0][0].mu > 25
    assert new[1][0].mu < c.mu and new[1][1].mu < d.mu
    # a team's members share one update in proportion to their own variance (equal here)
    assert new[1][0].mu - c.mu == pytest.approx(new[1][1].mu - d.mu)


def test_sides_from_places_ties_teams_and_abandonment() -> None:
    nobody = [False] * 4
    assert ratings.sides([2, 1, 3, 1], None, nobody) == [
        Side((0,), 3), Side((1,), 1), Side((2,), 4), Side((3,), 1)]
    assert ratings.sides([1, 2, 1, 2], [[0, 2], [1, 3]], nobody) == [
        Side((0, 2), 1), Side((1, 3), 2)]
    # the abandoner is last even though the computer won their seat
    assert ratings.sides([1, 2, 3], None, [True, False, False]) == [
        Side((0,), 3), Side((1,), 1), Side((2,), 2)]
    # in a partnership game the abandoner's side is last
    assert ratings.sides([1, 2, 1, 2], [[0, 2], [1, 3]], [False, False, True, False]) == [
        Side((0, 2), 2), Side((1, 3), 1)]


def test_the_ordinal_is_the_conservative_estimate() -> None:
    assert Skill().ordinal == pytest.approx(0.0)
    assert Skill(30.0, 2.0).ordinal == pytest.approx(24.0)
    assert ratings.rate([[Skill()]], [1]) == [[Skill()]]  # one side: nothing to learn
