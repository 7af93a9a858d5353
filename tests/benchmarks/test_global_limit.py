"""The global-limit benchmark runs end to end at a tiny size: two bot processes on one
PostgreSQL against the simulated Discord enforcing Discord's global limit, exiting 0 (no global
429, no error) and printing its figures."""

from __future__ import annotations

import re

import pytest

from tests.benchmarks import run


@pytest.mark.timeout(240)
def test_two_processes_keep_to_the_global_limit_and_print_their_figures() -> None:
    # two tables, one a process, opened over 4 s: their openings stay well under 50 requests
    # a second
    out = run("global_limit.py", "--processes", "2", "--tables", "2", "--per-guild", "1",
              "--moves", "1", "--think", "0.2,0.4", "--opening", "4", "--ai-delay", "0.05",
              "--patience", "30", timeout=200.0)
    assert "the simulated Discord enforces: global 50/s per bot token" in out
    assert "global 429s in all: 0 (must be 0)" in out
    made = re.search(r"(\d+) moves made by people", out)
    assert made is not None and int(made.group(1)) > 0, out
    assert re.search(r"[\d.]+ per person's move; not counted \(interactions\)", out), out
    assert re.search(r"behind a person's move .*: \d+ moves, p50 \d+ ms, p99 \d+ ms", out), out
    assert re.search(r"ceiling for the whole bot \(derived: .*\): ", out), out
    assert re.search(r"errors: 0 error lines .* 0 interactions not answered in time or "
                     r"refused, 0 spec errors, 0 tables stalled", out), out
