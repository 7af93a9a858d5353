"""The season's soft reset toward the mean."""

from __future__ import annotations

import pytest

from bot.storage.ratings import MU, SIGMA, Skill
from bot.tournaments import new_season, soft_reset


def test_soft_reset_halves_the_distance_and_widens() -> None:
    found = soft_reset(Skill(35.0, 3.0))
    assert found.mu == pytest.approx(30.0)
    assert found.sigma == pytest.approx(3.0 + SIGMA / 4)
    below = soft_reset(Skill(15.0, 2.0), keep=0.25, widen=1.0)
    assert below.mu == pytest.approx(MU - 2.5) and below.sigma == pytest.approx(3.0)


def test_a_new_player_stays_and_sigma_is_capped() -> None:
    assert soft_reset(Skill()) == Skill(MU, SIGMA)
    assert soft_reset(Skill(40.0, SIGMA - 0.5)).sigma == pytest.approx(SIGMA)
    # the ordering by mu survives a reset
    assert soft_reset(Skill(30.0, 2.0)).mu > soft_reset(Skill(28.0, 2.0)).mu


def test_new_season_maps_every_rating() -> None:
    old = {(1, "spar"): Skill(31.0, 4.0), (2, "spar"): Skill(19.0, 4.0)}
    new = new_season(old, keep=0.5, widen=0.0, mean=20.0)
    assert new == {(1, "spar"): Skill(25.5, 4.0), (2, "spar"): Skill(19.5, 4.0)}


def test_bad_reset_values_are_refused() -> None:
    with pytest.raises(ValueError):
        soft_reset(Skill(), keep=1.5)
    with pytest.raises(ValueError):
        soft_reset(Skill(), widen=-1.0)
