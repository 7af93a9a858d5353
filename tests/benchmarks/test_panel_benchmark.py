"""The per-position work benchmark (benchmarks/panel.py) runs at a tiny size and prints a
figure for every game."""

from __future__ import annotations

import re

import games
from tests.benchmarks import run


def test_every_games_panel_work_is_measured() -> None:
    out = run("panel.py", "--games", "1", "--first")
    found = dict(re.findall(r"^(\S+) +\d+ positions: whole p50 +(\d+) µs", out, re.M))
    assert sorted(found) == sorted(games.ids()), out
    assert all(int(us) > 0 for us in found.values())
