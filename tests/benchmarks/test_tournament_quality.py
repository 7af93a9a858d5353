"""The tournament-quality benchmark plays tiny events end to end and prints sound figures; its
rank correlation is checked on orders whose tau-b is known by hand.

Strength is not checked here (three events say nothing about it): the shape and range of the
figures are, and that duplicate runs exactly where every deal is shared.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from types import ModuleType

import pytest

from tests.benchmarks import ROOT, launch, run


def load() -> ModuleType:
    """The script as a module (benchmarks/ is no package)."""
    spec = importlib.util.spec_from_file_location(
        "tournament_quality", ROOT / "benchmarks" / "tournament_quality.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def figures(out: str, game: str, form: str) -> list[str]:
    """The fields of the line for one game and format."""
    found = [x.split() for x in out.splitlines() if x.split()[:2] == [game, form]]
    assert len(found) == 1, out
    return found[0]


def interval(fields: list[str]) -> tuple[float, float]:
    match = re.fullmatch(r"\[([-+0-9.]+),([-+0-9.]+)\]", fields[4])
    assert match, fields
    return float(match[1]), float(match[2])


def test_tau_b_of_orders_known_by_hand() -> None:
    tau = load().kendall_tau_b
    assert tau([1, 2, 3, 4], [10, 20, 30, 40]) == 1.0
    assert tau([1, 2, 3, 4], [4, 3, 2, 1]) == -1.0
    # two levels of two against a full order: 4 of the 6 pairs compared, all concordant;
    # tau-b = 4 / sqrt((4 + 0) * (4 + 2))
    assert tau([0, 0, 1, 1], [1, 2, 3, 4]) == pytest.approx(4 / 24 ** 0.5)
    # one pair swapped across the levels: 3 concordant, 1 discordant
    assert tau([0, 1, 0, 1], [1, 2, 3, 4]) == pytest.approx(2 / 24 ** 0.5)
    assert tau([1, 1, 1], [1, 2, 3]) == 0.0


def test_a_tiny_swiss_event_prints_tau_its_interval_and_ranks() -> None:
    out = run("tournament_quality.py", "--game", "1234", "--levels", "random,normal",
              "--per-level", "2", "--tournaments", "3", "--rounds", "2", "--jobs", "1")
    fields = figures(out, "1234", "swiss")
    assert fields[2] == "3"
    tau = float(fields[3])
    low, high = interval(fields)
    assert -1.0 <= low <= tau <= high <= 1.0
    assert 0.0 <= float(fields[5]) <= 1.0
    # four entrants: the two levels' mean ranks share the ranks 1 to 4 between them
    ranks = [float(fields[6]), float(fields[7])]
    assert all(1.0 <= r <= 4.0 for r in ranks) and sum(ranks) == pytest.approx(5.0)
    # only the first deal of 1234 is shared: no duplicate event, and the line says why
    assert "1234         duplicate not run" in out


def test_duplicate_runs_where_every_deal_is_shared_with_its_paired_difference() -> None:
    # Bear at three seats: four entrants sit 2 + 2 with a computer at each table
    out = run("tournament_quality.py", "--game", "bear", "--levels", "random,normal",
              "--per-level", "2", "--tournaments", "2", "--rounds", "2", "--jobs", "1")
    swiss, dup = figures(out, "bear", "swiss"), figures(out, "bear", "duplicate")
    assert swiss[2] == dup[2] == "2"
    diff = figures(out, "bear", "dup-swiss")
    assert float(diff[3]) == pytest.approx(float(dup[3]) - float(swiss[3]), abs=0.002)


def test_the_hard_level_plays_its_own_count_of_events_at_its_budget() -> None:
    out = run("tournament_quality.py", "--game", "1234", "--levels", "normal,hard",
              "--per-level", "1", "--tournaments", "9", "--hard-tournaments", "1",
              "--rounds", "1", "--hard-iterations", "10", "--jobs", "1")
    assert "hard at 10 iterations a move" in out
    assert figures(out, "1234", "swiss")[2] == "1"


@pytest.mark.parametrize("levels", ["hard,random", "easy", "easy,easy", "easy,expert"])
def test_levels_out_of_order_or_unknown_are_refused(levels: str) -> None:
    done = launch("tournament_quality.py", "--game", "1234", "--levels", levels,
                  "--tournaments", "1", "--jobs", "1")
    assert done.returncode != 0
    assert "level" in done.stderr
